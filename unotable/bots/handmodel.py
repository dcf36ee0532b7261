"""handmodel: what the other seats' plays say about their hands, as weights for the samples.

:class:`~unotable.bots.determinize.Determinizer` deals the unseen cards uniformly, under the sound
inferences of the public record. Players do not hold cards uniformly: the heuristic (and most
people) keep a wild until the hand is short and then spend it, dump Skips, Reverses and Draw Twos
and high numbers first, name the color they hold most of, change the color toward their strongest
one, and draw when nothing fits. A :class:`HandModel` follows the public record and gives each
(other seat, unseen card) a weight ``exp(sum of the weights of the features that hold)``; a
weighted sample deals each seat's cards in the order of ``Exp(1) / weight`` (weighted sampling
without replacement, Efraimidis and Spirakis 2006), so a card of weight 3 is about three times as
likely to be in the hand as one of weight 1.

The features of a card for a seat, by the seat's hand size (``1``, ``2``, ``3``, ``4`` for four
or more; the color features stop at ``3``):

- ``wild``, ``wd4``, ``action`` (a colored card that is not a number), ``high`` (a number 5 to 9);
- ``current`` (its color is the current color), ``named`` (the color the seat last named with a
  wild), ``played`` (the color of the last colored card it played), ``switched`` (the color it
  last changed to by number or symbol);
- ``drew_color``, ``drew_rank`` (the color current, and the rank on top, when the seat last drew
  in its turn by choice), ``drew_wild`` (a wild, while the seat has played nothing since it drew);
- ``spared``: a Skip, Draw Two or Wild Draw Four that the seat could have played at its last turn,
  when the seat after it held two cards or fewer and it neither attacked nor went out (the
  heuristic attacks a seat about to go out whenever it can).

The weights (:data:`HAND_TABLE` for three seats or more, :data:`HAND_HEADS_UP` for two) are fitted
by ``research/fit_hands.py`` to the true hands of heuristic self-play (``official``): each
feature's count in the hands matches what the weighted samples expect. They model the other seats
as playing like the heuristic bot, the same assumption as ismcts's playouts. A swap, pass or
shuffle of hands forgets what was read about the hands it moves.

>>> from unotable.game import Game
>>> g = Game.new(seats=3, seed=4)
>>> m = HandModel()
>>> m.observe(g.events_for(0))
>>> w = m.weights(1, 7, 0, [0, 100, 107])
>>> len(w), all(x > 0 for x in w)
(3, True)
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from unotable.cards import ID_COLOR, ID_RANK, NUM_COLORED_IDS, WILD_DRAW_FOUR, Rank
from unotable.events import (
    CardPlayed,
    ColorChosen,
    DirectionChanged,
    DrawReason,
    Drew,
    Event,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    KnockedOut,
    Revealed,
    RoundStarted,
    Slipped,
)
from unotable.views import PlayerView

__all__ = ["FEATURES", "HAND_HEADS_UP", "HAND_TABLE", "HandModel"]

_RANK_FEATURES = ("wild", "wd4", "action", "high")
_COLOR_FEATURES = ("current", "named", "played", "switched", "drew_color", "drew_rank", "drew_wild", "spared")

FEATURES: tuple[str, ...] = tuple(
    [f"{f}{b}" for b in (1, 2, 3, 4) for f in _RANK_FEATURES]
    + [f"{f}{b}" for b in (1, 2, 3) for f in _COLOR_FEATURES]
)
"""The names of the features, in the order of the weight vectors (the digit: the hand size)."""

_INDEX = {f: i for i, f in enumerate(FEATURES)}
_SKIP, _DRAW_TWO = int(Rank.SKIP), int(Rank.DRAW_TWO)
_NEAR = 2
"""A seat about to go out, for ``spared``: two cards or fewer."""

HAND_TABLE: tuple[float, ...] = (
    -4.213, -2.629, -0.981, -0.638, -2.707, -1.924, -0.730, -0.466,
    -0.882, -1.457, -0.629, -0.374, -0.401, -0.524, -0.378, -0.181,
    0.278, 1.044, -0.766, 0.662, -3.464, -3.504, 0.000, -6.000,
    0.125, 0.862, -0.451, 0.565, -3.156, -3.585, -6.000, -6.000,
    0.006, 0.666, -0.247, 0.430, -1.830, -1.903, -2.712, -2.418,
)
"""Log-weights for three seats or more, aligned with :data:`FEATURES`: fitted to 462,000 positions
of 4-seat heuristic self-play (``python -m research.fit_hands --seats 4 --rounds 3000 --seed 5``)."""

HAND_HEADS_UP: tuple[float, ...] = (
    -5.001, -3.337, -1.276, -0.736, -3.858, -2.600, -0.967, -0.533,
    -1.293, -1.924, -0.828, -0.432, -0.745, -0.953, -0.551, -0.268,
    0.719, 0.414, -1.285, 0.826, -2.840, -3.220, 0.000, -6.000,
    0.357, 0.417, -0.793, 0.646, -2.936, -2.830, -6.000, -6.000,
    -0.013, 0.371, -0.380, 0.598, -1.692, -1.783, -2.192, -2.377,
)
"""Log-weights for two seats in the round, aligned with :data:`FEATURES`: fitted to 115,000 positions
of 2-seat heuristic self-play (``python -m research.fit_hands --seats 2 --rounds 3000 --seed 6``)."""


class HandModel:
    """The public record as one seat saw it, read for what it suggests about each other hand."""

    def __init__(self, table: Sequence[float] | None = None, heads_up: Sequence[float] | None = None) -> None:
        self.table = tuple(HAND_TABLE if table is None else table)
        self.heads_up = tuple(HAND_HEADS_UP if heads_up is None else heads_up)
        if len(self.table) != len(FEATURES) or len(self.heads_up) != len(FEATURES):
            raise ValueError(f"a weight vector needs {len(FEATURES)} entries (FEATURES)")
        self._reset()

    def _reset(self, seats: int = 0, round_no: int = -1) -> None:
        self.round_no = round_no
        self.top = -1
        self.color = -1
        self.direction = 1
        self.sizes = [0] * seats
        self.in_round = [True] * seats
        self.spared: dict[int, tuple[int, int]] = {}
        """Seat -> (the color current, the rank on top) at a turn it spared a seat about to go out."""
        self.named: dict[int, int] = {}
        self.played: dict[int, int] = {}
        self.switched: dict[int, int] = {}
        self.drew: dict[int, tuple[int, int, bool]] = {}
        """Seat -> (the color current, the rank on top, whether it played since) at its last draw."""

    def observe(self, events: Iterable[Event]) -> None:
        """Read events the seat may see, in order."""
        for e in events:
            if isinstance(e, RoundStarted):
                self._reset(len(e.in_round), e.round_no)
                self.in_round = list(e.in_round)
            elif isinstance(e, HandDealt):  # the seat's own deal: every hand starts this size
                self.sizes = [len(e.cards) if inr else 0 for inr in self.in_round]
            elif isinstance(e, DirectionChanged):
                self.direction = e.direction
            elif isinstance(e, FirstCard):
                if not e.returned:
                    self.top, self.color = e.card.id, ID_COLOR[e.card.id]
            elif isinstance(e, CardPlayed):
                self._played(e)
            elif isinstance(e, ColorChosen):
                self.color = int(e.color)
                self.named[e.seat] = self.color
            elif isinstance(e, Drew):
                if e.reason is DrawReason.DRAW:
                    rank = ID_RANK[self.top] if 0 <= self.top < NUM_COLORED_IDS else -1
                    self.drew[e.seat] = (self.color, rank, False)
                    self._spares(e.seat)
                self._resize(e.seat, e.count)
            elif isinstance(e, Slipped):
                self._resize(e.seat, -len(e.cards))
            elif isinstance(e, Revealed):
                self._resize(e.seat, 1)
            elif isinstance(e, KnockedOut):
                if 0 <= e.seat < len(self.sizes):
                    self.sizes[e.seat] = 0
                    self.in_round[e.seat] = False
            elif isinstance(e, HandsSwapped | HandsPassed | HandsShuffled):
                # what was read about the hands is forgotten, and so are the sizes
                top, color, direction, in_round = self.top, self.color, self.direction, self.in_round
                self._reset(len(in_round), self.round_no)
                self.top, self.color, self.direction, self.in_round = top, color, direction, in_round

    def sync(self, view: PlayerView) -> None:
        """Check the bookkeeping against ``view`` (the view wins): a model that did not see this
        round start (a bot that joins a table in play, a game from a position) begins from it."""
        if self.round_no != view.round_no or len(self.sizes) != view.seats:
            self._reset(view.seats, view.round_no)
            self.top = view.top_card.id if view.top_card is not None else -1
            self.color = int(view.current_color) if view.current_color is not None else -1
        self.sizes = list(view.hand_sizes)
        self.in_round = list(view.in_round)
        self.direction = view.direction

    def _resize(self, seat: int, change: int) -> None:
        if 0 <= seat < len(self.sizes):
            self.sizes[seat] = max(0, self.sizes[seat] + change)

    def _spares(self, seat: int, card: int = -1) -> None:
        """At ``seat``'s turn: whether it spared the seat after it (see ``spared``)."""
        self.spared.pop(seat, None)
        n = len(self.sizes)
        if not 0 <= seat < n or self.top < 0 or self.sizes[seat] <= 1:
            return
        nxt = (seat + self.direction) % n
        while nxt != seat and not self.in_round[nxt]:
            nxt = (nxt + self.direction) % n
        if nxt == seat or self.sizes[nxt] > _NEAR or self.sizes[nxt] == 0:
            return
        if card == WILD_DRAW_FOUR or (0 <= card < NUM_COLORED_IDS and ID_RANK[card] in (_SKIP, _DRAW_TWO)):
            return
        rank = ID_RANK[self.top] if self.top < NUM_COLORED_IDS else -1
        self.spared[seat] = (self.color, rank)

    def _played(self, e: CardPlayed) -> None:
        c, s = e.card.id, e.seat
        drew = self.drew.get(s)
        if not e.jump_in and (drew is None or drew[2]):  # (a card just drawn: read at the draw)
            self._spares(s, c)
        self._resize(s, -1)
        col = ID_COLOR[c]
        if col >= 0:
            self.played[s] = col
            if not e.jump_in and 0 <= self.color != col:
                self.switched[s] = col
            else:
                self.switched.pop(s, None)
            self.color = col
        else:
            self.switched.pop(s, None)
            if e.color is not None:
                self.color = int(e.color)
                self.named[s] = self.color
        self.top = c
        if drew is not None:
            self.drew[s] = (drew[0], drew[1], True)

    def features(self, seat: int, size: int, color: int, card: int) -> list[int]:
        """The indices in :data:`FEATURES` of the features that hold for ``card`` in ``seat``'s
        hand of ``size`` cards while ``color`` is current."""
        b = min(size, 4)
        if card >= NUM_COLORED_IDS:
            out = [_INDEX[f"wd4{b}" if card == WILD_DRAW_FOUR else f"wild{b}"]]
            drew = self.drew.get(seat)
            if drew is not None and not drew[2]:
                out.append(_INDEX[f"drew_wild{min(size, 3)}"])
            if card == WILD_DRAW_FOUR and seat in self.spared:
                out.append(_INDEX[f"spared{min(size, 3)}"])
            return out
        out = []
        rank = ID_RANK[card]
        spared = self.spared.get(seat)
        if spared is not None and rank in (_SKIP, _DRAW_TWO) and (
            ID_COLOR[card] == spared[0] or rank == spared[1]
        ):
            out.append(_INDEX[f"spared{min(size, 3)}"])
        if rank >= 10:
            out.append(_INDEX[f"action{b}"])
        elif rank >= 5:
            out.append(_INDEX[f"high{b}"])
        b = min(size, 3)
        col = ID_COLOR[card]
        if col == color:
            out.append(_INDEX[f"current{b}"])
        if col == self.named.get(seat, -1):
            out.append(_INDEX[f"named{b}"])
        if col == self.played.get(seat, -1):
            out.append(_INDEX[f"played{b}"])
        if col == self.switched.get(seat, -1):
            out.append(_INDEX[f"switched{b}"])
        drew = self.drew.get(seat)
        if drew is not None:
            if col == drew[0]:
                out.append(_INDEX[f"drew_color{b}"])
            if rank == drew[1]:
                out.append(_INDEX[f"drew_rank{b}"])
        return out

    def weights(
        self, seat: int, size: int, color: int, cards: Sequence[int], heads_up: bool = False
    ) -> list[float]:
        """Each of ``cards``'s weight for ``seat``'s hand of ``size`` cards (``heads_up``: two
        seats in the round)."""
        theta = self.heads_up if heads_up else self.table
        cache: dict[int, float] = {}
        out = []
        for c in cards:
            w = cache.get(c)
            if w is None:
                w = cache[c] = math.exp(sum(theta[i] for i in self.features(seat, size, color, c)))
            out.append(w)
        return out
