"""mixbot2: chausner/UnoAI's "MixBot2", re-implemented from a description of its rules.

MixBot2 (December 2025) is the strongest published UNO agent whose figures can be checked: 68.8%
heads-up and 24.2% at six seats against that project's random bot (our ``random-stuck``), under
its rules (:data:`~unotable.bots.mixbot.MIXBOT_RULES`). This module follows the rules as the issue
that asked for it states them in words (no code of that project is used); where the words leave a
choice open, the choice is marked *ours* and the reason given.

On its turn, among the plays it may make (a wild counts once per color it can name):

1. **Limits on wilds.** A Wild only while the hand holds at most ``wild_limit`` (2) cards that are
   not wilds, a Wild Draw Four only with at most ``wd4_limit`` (4) of them; no limits in the end
   game (the next seat holds one card). Any other wild of the 112-card editions counts as a Wild
   (*ours*). When every play is held back, it draws.
2. **A fixed ranking** (``ranking``): Draw Two > Skip > number > Reverse > Wild Draw Four > Wild;
   heads-up a Reverse ranks as a Skip (it is one, TWO-2). In the end game (``attack``): Draw Two >
   Wild Draw Four > Skip > Reverse > number > Wild. Only the best-ranked plays stay.
3. **The colors held most**: among those, the plays of a color the hand holds most of (for a wild,
   the colors within one card of the most) come first, when there are any.
4. **Card counting** breaks the remaining ties: for every other seat, an upper bound on how many
   copies of each card it may hold (:class:`Bounds`), from public play only; the play chosen is
   the one the next seat to act is least likely to follow: the chance that none of the cards of
   its hand, drawn from those bounds without replacement, matches the card (and color) played.
   When the bot itself acts next (a Skip, a Draw Two or a Wild Draw Four heads-up, a Reverse
   heads-up) the score is 1 when its remaining hand can follow, else 0. Remaining ties: at random.

The options ``wild_limit``, ``wd4_limit``, ``drawn_wild_limit`` (whole numbers from 0) and
``ranking``, ``attack`` (the six rank classes best first, as ``D2,S,N,R,W4,W``; ``/`` between them
in a ``--bots`` spec: ``mixbot2:wd4_limit=1:ranking=D2/S/N/R/W/W4``) change those steps; their
defaults are the rules above. ``mixbot2-tuned`` (:mod:`unotable.bots.tuned`) is this bot with tuned
options. The core plays every value of them (:meth:`MixBot2.native_params`).

After drawing a playable card it plays it, except a wild while the hand (the drawn card
included) holds more than ``drawn_wild_limit`` (2) cards; a drawn wild names its color by steps
3 and 4. A first-card wild's color is the one the hand holds most (ties at random). It never
challenges, always accepts a penalty, flags its plays UNO, calls and catches when it may, and never
jumps in (none of these exist under MixBot's rules).

What the words leave open (*ours*):

- The bounds are kept per card id (a color and a rank; the wilds by kind), and "capped by the
  unseen copies" is applied when they are read, not stored: a bound that the cap lowered rises
  again when a reshuffle puts copies back out of sight.
- "Draws instead of playing" is a draw action in a normal turn (``DrawReason.DRAW``); every
  other draw (a penalty, a challenge, a catch) raises every bound by its count. A seat that draws
  several cards at once (draw until playable) counts once for the drop and once per card for the
  rise.
- The chance is the hypergeometric one over the bounds: with ``B`` copies in all, ``M`` of them
  matching, and a hand of ``h``, ``prod((B-M-i)/(B-i) for i < h)``, and 0 when ``B-M < h``. When the
  bounds hold fewer than ``h`` copies in all (they are upper bounds, so the seat holds cards the
  model cannot place), ``h`` is taken as ``B``. A hand of 0 (the seat went out) scores 1.
- The next seat to act after a Draw Two or a Wild Draw Four is the one after the victim (the
  classic effect, CL-ACT-3, CL-ACT-9); after a Skip the one after next; after a Reverse the one
  before (heads-up: the bot). Stacking and the No Mercy cards are not modelled (the bot plays
  every preset, with these effects read as the classic ones).
- Ranking before colors (the words' "among the best-ranked"); ``colors="first"`` applies the
  colors before the ranking as ``mixbot`` does, ``colors="off"`` not at all, for measurement
  (docs/anchors.md gives both).

>>> import random
>>> from unotable.game import Game
>>> from unotable.bots.mixbot import MIXBOT_RULES
>>> g = Game.from_position({"ruleset": MIXBOT_RULES.to_dict(),
...                         "hands": [["R7", "RS", "R2", "GD2", "W4"], ["Y1", "Y2", "Y3"], ["B1", "B2"]],
...                         "discard": ["R3"]})
>>> str(MixBot2().choose(g.view(0), g.legal_action_list(0), random.Random(0)))
'RS'
>>> g = Game.from_position({"ruleset": MIXBOT_RULES.to_dict(),
...                         "hands": [["R7", "RS", "R2", "W4"], ["Y1"]], "discard": ["R3"]})
>>> str(MixBot2().choose(g.view(0), g.legal_action_list(0), random.Random(0)))  # the end game
'W4:R'
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from unotable.actions import Action, Draw, Play
from unotable.bots.determinize import playable_set, unseen_cards
from unotable.bots.mixbot import MixBot
from unotable.cards import ID_COLOR, ID_IS_WILD, ID_RANK, NUM_CARD_IDS, WILD_DRAW_FOUR, Card, Rank
from unotable.events import CardPlayed, ColorChosen, DrawReason, Drew, Event, FirstCard, RoundStarted
from unotable.views import PlayerView

__all__ = ["ATTACK", "KINDS", "RANKING", "Bounds", "MixBot2", "no_match_chance", "parse_ranking"]

# Rank classes of the rankings: draw two, skip, number, reverse, wild draw four, wild.
_DRAW_TWO, _SKIP, _NUMBER, _REVERSE, _WD4, _WILD = range(6)
KINDS: tuple[str, ...] = ("D2", "S", "N", "R", "W4", "W")
"""The names of the rank classes a ranking orders, by class: Draw Two, Skip, number (and No Mercy's
other colored symbols), Reverse, Wild Draw Four, Wild (any other wild)."""
RANKING = "D2,S,N,R,W4,W"
"""The default ranking, best first."""
ATTACK = "D2,W4,S,R,N,W"
"""The default ranking when the next seat holds one card (the end game), best first."""


def parse_ranking(text: str, option: str = "ranking") -> tuple[int, ...]:
    """The rank classes of a ranking written best first as ``D2,S,N,R,W4,W`` (``,``, ``/``, ``>``
    or spaces between the names; ``/`` in a ``--bots`` spec, whose commas part the seats), each of
    :data:`KINDS` once.

    >>> parse_ranking("D2/S/N/R/W/W4")
    (0, 1, 2, 3, 5, 4)
    >>> parse_ranking("D2,S,N")
    Traceback (most recent call last):
    ...
    ValueError: ranking must name each of D2, S, N, R, W4, W once, best first (D2/S/N/R/W4/W), not 'D2,S,N'
    """
    if not isinstance(text, str):
        raise ValueError(f"{option} must be a string like D2/S/N/R/W4/W, not {text!r}")
    names = [t for t in text.upper().replace("/", " ").replace(",", " ").replace(">", " ").split() if t]
    if sorted(names) != sorted(KINDS):
        raise ValueError(f"{option} must name each of {', '.join(KINDS)} once, best first "
                         f"(D2/S/N/R/W4/W), not {text!r}")
    return tuple(KINDS.index(t) for t in names)


def _places(order: Sequence[int]) -> tuple[int, ...]:
    """The place of each rank class in ``order`` (best first): what the core's MixParams hold."""
    return tuple(order.index(k) for k in range(6))
_R_SKIP, _R_REVERSE, _R_DRAW_TWO = int(Rank.SKIP), int(Rank.REVERSE), int(Rank.DRAW_TWO)


def _kind(card: int, heads_up: bool) -> int:
    if card == WILD_DRAW_FOUR:
        return _WD4
    if ID_IS_WILD[card]:
        return _WILD
    rank = ID_RANK[card]
    if rank == _R_DRAW_TWO:
        return _DRAW_TWO
    if rank == _R_SKIP:
        return _SKIP
    if rank == _R_REVERSE:
        return _SKIP if heads_up else _REVERSE
    return _NUMBER  # numbers, and No Mercy's other colored symbols


def no_match_chance(total: int, matching: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn without replacement from ``total`` copies, ``matching``
    of which match, hold no matching card (the rules above for the edge cases).

    >>> no_match_chance(10, 5, 2), no_match_chance(10, 0, 3)
    (0.2222222222222222, 1.0)
    >>> no_match_chance(4, 3, 2), no_match_chance(5, 2, 0)
    (0.0, 1.0)
    """
    h = min(hand, total)
    free = total - matching
    if free < h:
        return 0.0
    p = 1.0
    for i in range(h):
        p *= (free - i) / (total - i)
    return p


class Bounds:
    """Upper bounds, per seat and card id, on the copies a seat may hold, from public events.

    Seat ``s``'s bound for card ``c`` starts as the copies of ``c`` in the deck (the cap by what
    the bot cannot see is applied by :meth:`capped`); a card ``s`` plays lowers its bound by one;
    a draw instead of a play drops every card that was playable to 0 and raises the others by
    the cards drawn; any other draw raises every bound by its count.
    """

    __slots__ = ("bound", "color", "seats", "top")

    def __init__(self) -> None:
        self.seats = 0
        self.bound: list[list[int]] = []
        self.top = -1
        self.color = -1

    def reset(self, seats: int) -> None:
        self.seats = seats
        self.bound = [[64] * NUM_CARD_IDS for _ in range(seats)]  # 64: no bound yet (the cap rules)
        self.top = -1
        self.color = -1

    def observe(self, events: Iterable[Event]) -> None:
        for e in events:
            if isinstance(e, RoundStarted):
                self.reset(len(e.in_round))
            elif not self.bound:
                continue
            elif isinstance(e, CardPlayed):
                row = self.bound[e.seat]
                c = e.card.id
                if row[c] > 0:
                    row[c] -= 1
                self.top = c
                self.color = ID_COLOR[c] if ID_COLOR[c] >= 0 else (-1 if e.color is None else int(e.color))
            elif isinstance(e, Drew) and 0 <= e.seat < self.seats and e.count > 0:
                row = self.bound[e.seat]
                if e.reason == DrawReason.DRAW and self.top >= 0:
                    playable = playable_set(self.top, self.color)
                    for c in range(NUM_CARD_IDS):
                        row[c] = 0 if c in playable else min(64, row[c] + e.count)
                else:
                    for c in range(NUM_CARD_IDS):
                        row[c] = min(64, row[c] + e.count)
            elif isinstance(e, FirstCard) and not e.returned:
                self.top = e.card.id
                self.color = ID_COLOR[e.card.id]
            elif isinstance(e, ColorChosen):
                self.color = int(e.color)

    def capped(self, seat: int, unseen: Sequence[int]) -> list[int]:
        """Seat ``seat``'s bounds, capped by ``unseen`` (copies per card id the bot cannot see)."""
        if not self.bound:
            return list(unseen)
        row = self.bound[seat]
        return [row[c] if row[c] < unseen[c] else unseen[c] for c in range(NUM_CARD_IDS)]


class MixBot2(MixBot):
    """chausner/UnoAI's MixBot2, from a description of its rules (see the module docstring).

    It answers calls, penalties, color prompts and drawn cards as :class:`MixBot` does; its turn
    and the choice among a card's plays (a wild's colors) are its own.
    """

    name = "mixbot2"

    def __init__(self, wild_limit: int = 2, wd4_limit: int = 4, drawn_wild_limit: int = 2,
                 ranking: str = RANKING, attack: str = ATTACK,
                 colors: str = "ranked", counting: bool = True) -> None:
        if colors not in ("ranked", "first", "last", "off"):
            raise ValueError(f"colors must be 'ranked', 'first', 'last' or 'off', not {colors!r}")
        for option, value in (("wild_limit", wild_limit), ("wd4_limit", wd4_limit),
                              ("drawn_wild_limit", drawn_wild_limit)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 108:
                raise ValueError(f"{option} must be a whole number from 0 to 108 (cards in hand), "
                                 f"not {value!r}")
        order = parse_ranking(ranking, "ranking")
        attack_order = parse_ranking(attack, "attack")
        super().__init__(wild_limit=wild_limit, wd4_limit=wd4_limit, drawn_wild_limit=drawn_wild_limit)
        self.ranking = ",".join(KINDS[k] for k in order)
        self.attack = ",".join(KINDS[k] for k in attack_order)
        self._place = _places(order)
        self._attack_place = _places(attack_order)
        self.colors = colors
        self.counting = bool(counting)
        self.bounds = Bounds()

    def native_params(self) -> list[int] | None:
        """The core's MixParams for this bot (wild_limit, wd4_limit, drawn_wild_limit, the place of
        each rank class in the ranking, then in the attack ranking), or None when an option the
        core does not have (``colors``, ``counting``) is not its default."""
        if self.colors != "ranked" or not self.counting:
            return None
        return [self.wild_limit, self.wd4_limit, self.drawn_wild_limit, *self._place, *self._attack_place]

    def restart(self) -> None:
        self.bounds = Bounds()

    def observe(self, events: Sequence[Event]) -> None:
        self.bounds.observe(events)

    def _turn(self, view: PlayerView, actions: list[Action], plays: list[Play], rng: random.Random) -> Action:
        if not plays:
            for a in actions:
                if isinstance(a, Draw):
                    return a
            return actions[0]
        attack = view.hand_sizes[_next(view, view.seat, view.direction)] == 1
        if not attack:
            plain = sum(1 for c in view.hand if not c.is_wild)
            allowed = [a for a in plays if not (a.card.id == WILD_DRAW_FOUR and plain > self.wd4_limit)
                       and not (a.card.is_wild and a.card.id != WILD_DRAW_FOUR and plain > self.wild_limit)]
            if not allowed:
                for a in actions:
                    if isinstance(a, Draw):
                        return a
                allowed = plays  # no draw left (CL-DRAW-7): it must play
            plays = allowed
        heads_up = sum(view.in_round) == 2
        place = self._attack_place if attack else self._place
        if self.colors == "first":
            plays = self._held_most(view, plays)
        best = min(place[_kind(a.card.id, heads_up)] for a in plays)
        plays = [a for a in plays if place[_kind(a.card.id, heads_up)] == best]
        return self._pick(view, plays, rng)

    def _variant(self, view: PlayerView, plays: list[Play], card: Card | None, rng: random.Random) -> Play:
        return self._pick(view, plays, rng)

    def _pick(self, view: PlayerView, plays: list[Play], rng: random.Random) -> Play:
        """Steps 3 and 4 over ``plays``, then a random one of the best."""
        if self.colors == "ranked":
            plays = self._held_most(view, plays)
        if self.counting and len(plays) > 1:
            pool = unseen_cards(view)
            unseen = [pool[c] for c in range(NUM_CARD_IDS)]
            scores = [self._escape(view, a, unseen) for a in plays]
            top = max(scores)
            plays = [a for a, s in zip(plays, scores, strict=True) if s == top]
        if self.colors == "last":
            plays = self._held_most(view, plays)
        if len(plays) > 1:
            return plays[rng.randrange(len(plays))]
        return plays[0]

    @staticmethod
    def _held_most(view: PlayerView, plays: list[Play]) -> list[Play]:
        counts = [0, 0, 0, 0]
        for c in view.hand:
            if c.color is not None:
                counts[int(c.color)] += 1
        top = max(counts)

        def preferred(a: Play) -> bool:
            if a.card.color is not None:
                return counts[int(a.card.color)] == top
            return a.color is None or counts[int(a.color)] >= top - 1

        first = [a for a in plays if preferred(a)]
        return first or plays

    def _escape(self, view: PlayerView, play: Play, unseen: Sequence[int]) -> float:
        """The chance that the seat acting after ``play`` cannot follow it (step 4); ``unseen``:
        the copies of each card id the bot cannot see."""
        card = play.card.id
        color = ID_COLOR[card] if ID_COLOR[card] >= 0 else (-1 if play.color is None else int(play.color))
        seat, direction = view.seat, view.direction
        heads_up = sum(view.in_round) == 2
        rank = ID_RANK[card]
        nxt = _next(view, seat, direction)
        if rank == _R_REVERSE and ID_COLOR[card] >= 0:
            nxt = seat if heads_up else _next(view, seat, -direction)
        elif (rank in (_R_SKIP, _R_DRAW_TWO) and ID_COLOR[card] >= 0) or card == WILD_DRAW_FOUR:
            nxt = _next(view, nxt, direction)
        matching = playable_set(card, color)
        if nxt == seat:
            rest = list(view.hand)
            rest.remove(play.card)
            return 1.0 if any(c.id in matching for c in rest) else 0.0
        bounds = self.bounds.capped(nxt, unseen)
        total = sum(bounds)
        hit = sum(bounds[c] for c in matching)
        return no_match_chance(total, hit, view.hand_sizes[nxt])


def _next(view: PlayerView, seat: int, direction: int) -> int:
    n = view.seats
    s = seat
    for _ in range(n):
        s = (s + direction) % n
        if view.in_round[s]:
            return s
    return seat
