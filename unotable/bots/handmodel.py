"""handmodel: what the other seats' plays say about their hands, as weights for the samples.

:class:`~unotable.determinize.Determinizer` deals the unseen cards uniformly, under the sound
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
  in its turn by choice), ``drew_wild`` (a wild, while the seat has played nothing since it drew).

The weights (:data:`HAND_TABLE` for three seats or more, :data:`HAND_HEADS_UP` for two) are fitted
by ``benchmarks/fit_hands.py`` to the true hands of heuristic self-play (``official``): each
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

from unotable.cards import ID_COLOR, ID_RANK, NUM_COLORED_IDS, WILD_DRAW_FOUR
from unotable.events import (
    CardPlayed,
    ColorChosen,
    DrawReason,
    Drew,
    Event,
    FirstCard,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    RoundStarted,
)

__all__ = ["FEATURES", "HAND_HEADS_UP", "HAND_TABLE", "HandModel"]

_RANK_FEATURES = ("wild", "wd4", "action", "high")
_COLOR_FEATURES = ("current", "named", "played", "switched", "drew_color", "drew_rank", "drew_wild")

FEATURES: tuple[str, ...] = tuple(
    [f"{f}{b}" for b in (1, 2, 3, 4) for f in _RANK_FEATURES]
    + [f"{f}{b}" for b in (1, 2, 3) for f in _COLOR_FEATURES]
)
"""The names of the features, in the order of the weight vectors (the digit: the hand size)."""

_INDEX = {f: i for i, f in enumerate(FEATURES)}

HAND_TABLE: tuple[float, ...] = (
    -4.214, -2.832, -1.011, -0.638, -2.708, -2.172, -0.749, -0.466,
    -0.882, -1.644, -0.647, -0.374, -0.401, -0.607, -0.389, -0.181,
    0.277, 1.044, -0.779, 0.682, -3.462, -3.503, 0.000, 0.123,
    0.863, -0.460, 0.580, -3.160, -3.593, -6.000, 0.004, 0.668,
    -0.253, 0.441, -1.837, -1.917, -2.753,
)
"""Log-weights for three seats or more, aligned with :data:`FEATURES`: fitted to 462,000 positions
of 4-seat heuristic self-play (``benchmarks/fit_hands.py --seats 4 --rounds 3000 --seed 5``)."""

HAND_HEADS_UP: tuple[float, ...] = (
    -5.002, -3.574, -1.307, -0.736, -3.859, -2.878, -0.988, -0.533,
    -1.294, -2.133, -0.847, -0.432, -0.745, -1.092, -0.568, -0.268,
    0.713, 0.416, -1.297, 0.850, -2.838, -3.220, 0.000, 0.350,
    0.419, -0.805, 0.668, -2.936, -2.831, -6.000, -0.017, 0.373,
    -0.390, 0.618, -1.696, -1.784, -2.200,
)
"""Log-weights for two seats in the round, aligned with :data:`FEATURES`: fitted to 115,000 positions
of 2-seat heuristic self-play (``benchmarks/fit_hands.py --seats 2 --rounds 3000 --seed 6``)."""


class HandModel:
    """The public record as one seat saw it, read for what it suggests about each other hand."""

    def __init__(self, table: Sequence[float] | None = None, heads_up: Sequence[float] | None = None) -> None:
        self.table = tuple(HAND_TABLE if table is None else table)
        self.heads_up = tuple(HAND_HEADS_UP if heads_up is None else heads_up)
        if len(self.table) != len(FEATURES) or len(self.heads_up) != len(FEATURES):
            raise ValueError(f"a weight vector needs {len(FEATURES)} entries (FEATURES)")
        self._reset()

    def _reset(self) -> None:
        self.top = -1
        self.color = -1
        self.named: dict[int, int] = {}
        self.played: dict[int, int] = {}
        self.switched: dict[int, int] = {}
        self.drew: dict[int, tuple[int, int, bool]] = {}
        """Seat -> (the color current, the rank on top, whether it played since) at its last draw."""

    def observe(self, events: Iterable[Event]) -> None:
        """Read events the seat may see, in order."""
        for e in events:
            if isinstance(e, RoundStarted):
                self._reset()
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
            elif isinstance(e, HandsSwapped | HandsPassed | HandsShuffled):
                top, color = self.top, self.color
                self._reset()
                self.top, self.color = top, color

    def _played(self, e: CardPlayed) -> None:
        c, s = e.card.id, e.seat
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
        if s in self.drew:
            color, rank, _ = self.drew[s]
            self.drew[s] = (color, rank, True)

    def features(self, seat: int, size: int, color: int, card: int) -> list[int]:
        """The indices in :data:`FEATURES` of the features that hold for ``card`` in ``seat``'s
        hand of ``size`` cards while ``color`` is current."""
        b = min(size, 4)
        if card >= NUM_COLORED_IDS:
            out = [_INDEX[f"wd4{b}" if card == WILD_DRAW_FOUR else f"wild{b}"]]
            drew = self.drew.get(seat)
            if drew is not None and not drew[2]:
                out.append(_INDEX[f"drew_wild{min(size, 3)}"])
            return out
        out = []
        rank = ID_RANK[card]
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
