"""mixbot: chausner/UnoAI's "MixBot", re-implemented from the rules its README publishes.

MixBot is the strongest bot of that project whose published figures (against its random bot, our
``random-stuck``, under its own rules: here :data:`MIXBOT_RULES`) can be checked; docs/anchors.md
gives them, and ours beside them. The README describes it in words; this module
follows that description (no code of that project is used), and fills in what the words leave
open, as marked *ours* below.

On its turn, among the cards it can play:

1. **Limits on wilds.** A Wild is played only when the hand holds at most ``wild_limit`` cards that
   are not wilds, a Wild Draw Four only when it holds at most ``wd4_limit`` of them (any other
   wild of the 112-card editions counts as a Wild; *ours*). When every playable card is held back
   this way, it draws.
2. **The color held most.** When some playable colored card is of the color (or one of the colors)
   the hand holds most of, the colored cards of the other colors drop out (wilds stay in the race,
   and rank last anyway unless the next seat is about to go out; *ours*: how "preferred" combines
   with the ranking is not spelled out).
3. **A fixed ranking** (chausner's CardRankingBot): Draw Two > Skip > number card > Reverse > Wild
   Draw Four > Wild. When the next seat holds one card, a ranking that favours Draw Two, Wild Draw
   Four, Skip and Reverse, in that order, then number cards, then Wild (*ours*: the order among the
   four is the README's order of naming them), and the limits of step 1 do not hold the wilds back
   (*ours*, chosen by measurement against random-stuck, docs/anchors.md; the option
   ``attack_limits=true`` keeps them).
4. **Diversity** (chausner's DiversityBot) breaks ties of rank: the card that matches (same color,
   or same number or symbol) the most other non-wild cards of the hand is played, so that the hand
   keeps as many different cards as it can. Remaining ties: at random.

A wild names the color the rest of the hand holds most of (ties at random; a random color when
only wilds are left). After drawing a playable card it plays it, except a wild while the hand
(the drawn card included) holds more than ``drawn_wild_limit`` cards. It never challenges, always
accepts a penalty, puts the UNO flag on its plays, calls and catches when it may, and never jumps
in (none of these exist under MixBot's rules).

``colors="tiebreak"`` applies step 2 after the ranking instead of before it, ``colors="off"`` not at
all (both measured weaker against random-stuck, docs/anchors.md).
``goal="points"`` takes the README's parameters optimised for game points instead (wild limit 5,
Wild Draw Four limit 3, drawn-wild limit 2, ranking Skip > number > Draw Two > Reverse > Wild >
Wild Draw Four); the explicit limits override the goal's.

>>> import random
>>> from unotable.game import Game
>>> g = Game.from_position({"ruleset": MIXBOT_RULES.to_dict(),
...                         "hands": [["R7", "RS", "R2", "GD2", "W4"], ["Y1", "Y2"]], "discard": ["R3"]})
>>> str(MixBot().choose(g.view(0), g.legal_action_list(0), random.Random(0)))
'RS'
>>> g = Game.from_position({"ruleset": MIXBOT_RULES.to_dict(),
...                         "hands": [["R7", "RS", "R2", "W4"], ["Y1"]], "discard": ["R3"]})
>>> str(MixBot().choose(g.view(0), g.legal_action_list(0), random.Random(0)))  # the next seat has one card
'W4:R'
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from unotable.actions import Accept, Action, CallUno, Catch, ChooseColor, Draw, Pass, Play
from unotable.bots.base import BaseBot, best_uno, is_turn
from unotable.cards import Card, Color, Rank
from unotable.phase import Phase
from unotable.rules import Ruleset
from unotable.views import PlayerView

__all__ = ["MIXBOT_RULES", "MixBot", "next_seat"]

MIXBOT_RULES = Ruleset(wd4_rule="free", uno_penalty=0)
"""The rules chausner/UnoAI plays: a Wild Draw Four may always be played and is never challenged
(CL-ACT-7 ``free``), nobody is caught for not calling UNO (CL-UNO-5 with ``uno_penalty = 0``), one
drawn card that may be played at once (CL-DRAW-2), a Reverse is a Skip heads-up (TWO-2), and a game
is one round (``unotable simulate`` plays rounds). ``unotable simulate --option wd4_rule=free
--option uno_penalty=0`` plays the same."""

# Rank classes of the rankings: draw two, skip, number, reverse, wild draw four, wild.
_DRAW_TWO, _SKIP, _NUMBER, _REVERSE, _WD4, _WILD = range(6)
_RANKINGS: dict[str, tuple[int, ...]] = {  # best first
    "wins": (_DRAW_TWO, _SKIP, _NUMBER, _REVERSE, _WD4, _WILD),
    "points": (_SKIP, _NUMBER, _DRAW_TWO, _REVERSE, _WILD, _WD4),
    "attack": (_DRAW_TWO, _WD4, _SKIP, _REVERSE, _NUMBER, _WILD),
}
_LIMITS: dict[str, tuple[int, int, int]] = {"wins": (2, 4, 2), "points": (5, 3, 2)}


def _kind(card: Card) -> int:
    if card.rank is Rank.WILD_DRAW_FOUR:
        return _WD4
    if card.is_wild:
        return _WILD
    if card.rank is Rank.DRAW_TWO:
        return _DRAW_TWO
    if card.rank is Rank.SKIP:
        return _SKIP
    if card.rank is Rank.REVERSE:
        return _REVERSE
    return _NUMBER


def next_seat(view: PlayerView) -> int:
    """The seat after ``view``'s seat in the current direction, passing over seats not in the round.

    >>> from unotable.game import Game
    >>> next_seat(Game.new(seats=3, seed=1).view(2))
    0
    """
    n = view.seats
    s = view.seat
    for _ in range(n):
        s = (s + view.direction) % n
        if view.in_round[s]:
            return s
    return view.seat


def _color_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0, 0, 0, 0]
    for c in cards:
        if c.color is not None:
            counts[int(c.color)] += 1
    return counts


def _most(counts: Sequence[int]) -> list[int]:
    top = max(counts)
    return [k for k in range(4) if counts[k] == top and top > 0]


def _held_most(cards: list[Card], most: Sequence[int]) -> list[Card]:
    """``cards`` without the colored ones of other colors than ``most``, if any is of those."""
    if any(c.color is not None and int(c.color) in most for c in cards):
        return [c for c in cards if c.color is None or int(c.color) in most]
    return cards


class MixBot(BaseBot):
    """chausner/UnoAI's MixBot, from its README's rules (see the module docstring)."""

    name = "mixbot"

    def __init__(
        self,
        goal: str = "wins",
        wild_limit: int | None = None,
        wd4_limit: int | None = None,
        drawn_wild_limit: int | None = None,
        colors: str = "first",
        attack_limits: bool = False,
    ) -> None:
        if goal not in _LIMITS:
            raise ValueError(f"goal must be 'wins' or 'points', not {goal!r}")
        if colors not in ("first", "tiebreak", "off"):
            raise ValueError(f"colors must be 'first', 'tiebreak' or 'off', not {colors!r}")
        self.colors = colors
        self.attack_limits = bool(attack_limits)
        wild, wd4, drawn = _LIMITS[goal]
        self.goal = goal
        self.wild_limit = wild if wild_limit is None else int(wild_limit)
        self.wd4_limit = wd4 if wd4_limit is None else int(wd4_limit)
        self.drawn_wild_limit = drawn if drawn_wild_limit is None else int(drawn_wild_limit)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        for a in legal:
            if isinstance(a, CallUno | Catch):
                return a
        if not is_turn(view):
            return None
        actions = best_uno(legal)
        plays = [a for a in actions if isinstance(a, Play)]
        if view.phase is Phase.CHOOSE_COLOR:
            return self._name_color(view, actions, rng)
        if view.phase is Phase.RESPOND:
            for a in actions:
                if isinstance(a, Accept):
                    return a
            return actions[0]
        if view.phase is Phase.PLAY_DRAWN:
            drawn = plays[0].card if plays else None
            if drawn is None or (drawn.is_wild and len(view.hand) > self.drawn_wild_limit):
                for a in actions:
                    if isinstance(a, Pass):
                        return a
            if plays:
                return self._variant(view, plays, drawn, rng)
            return actions[0]
        return self._turn(view, actions, plays, rng)

    def _turn(self, view: PlayerView, actions: list[Action], plays: list[Play], rng: random.Random) -> Action:
        hand = view.hand
        plain = sum(1 for c in hand if not c.is_wild)
        cards = sorted({a.card for a in plays})
        attack = view.hand_sizes[next_seat(view)] == 1
        limits = self.attack_limits or not attack
        allowed = [
            c for c in cards
            if not limits or (not (_kind(c) == _WD4 and plain > self.wd4_limit)
                              and not (_kind(c) == _WILD and plain > self.wild_limit))
        ]
        if not allowed:
            for a in actions:
                if isinstance(a, Draw):
                    return a
            allowed = cards  # no draw left (CL-DRAW-7): it must play
        if not allowed:
            return actions[0]
        most = _most(_color_counts(hand))
        if self.colors == "first":
            allowed = _held_most(allowed, most)
        ranking = _RANKINGS["attack" if attack else self.goal]
        best_rank = min(ranking.index(_kind(c)) for c in allowed)
        allowed = [c for c in allowed if ranking.index(_kind(c)) == best_rank]
        if self.colors == "tiebreak":
            allowed = _held_most(allowed, most)
        if len(allowed) > 1:
            scores = [self._diversity(hand, c) for c in allowed]
            top = max(scores)
            allowed = [c for c, s in zip(allowed, scores, strict=True) if s == top]
        card = allowed[rng.randrange(len(allowed))]
        return self._variant(view, [a for a in plays if a.card == card], card, rng)

    @staticmethod
    def _diversity(hand: Sequence[Card], card: Card) -> int:
        """How many other non-wild cards of ``hand`` match ``card`` (color, or number or symbol)."""
        others = list(hand)
        others.remove(card)
        return sum(
            1 for c in others
            if not c.is_wild and (c.color == card.color or (not card.is_wild and c.rank == card.rank))
        )

    def _variant(self, view: PlayerView, plays: list[Play], card: Card | None, rng: random.Random) -> Play:
        """The play of ``card`` naming the color the rest of the hand holds most, at the smallest hand."""
        rest = list(view.hand)
        if card is not None and card in rest:
            rest.remove(card)
        colors = _most(_color_counts(rest)) or [0, 1, 2, 3]
        want = colors[rng.randrange(len(colors))]
        options = [a for a in plays if a.color is None or int(a.color) == want] or plays
        return min(options, key=lambda a: view.hand_sizes[a.target] if a.target is not None else 0)

    def _name_color(self, view: PlayerView, actions: list[Action], rng: random.Random) -> Action:
        colors = _most(_color_counts(view.hand)) or [0, 1, 2, 3]
        want = Color(colors[rng.randrange(len(colors))])
        named = [a for a in actions if isinstance(a, ChooseColor)]
        for a in named:
            if a.color is want:
                return a
        return named[0] if named else actions[0]
