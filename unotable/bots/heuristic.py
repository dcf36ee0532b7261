"""heuristic: a documented hand-written strategy that plays every preset.

The bot follows the public record with a :class:`~unotable.bots.determinize.Tracker` (the cards
played, the draws, reveals and swaps it saw) and scores every legal play; the best score wins,
ties broken by the seeded RNG. Its rules, in order of weight:

1. **UNO, catches.** It always puts the UNO flag on a play that leaves one card, calls at once
   when a swap or pass leaves it with one card, and catches every exposed seat as soon as it may
   (a catch is not a turn action, so it catches before it plays).
2. **Going out.** A play that empties its hand and ends the round always wins the choice.
3. **Attacking a seat close to going out.** Draw cards, Skips, Skip Everyone, Reverses (with three
   or more seats, when the seat behind holds more cards than the next one) and Color Roulette are
   worth more the fewer cards the next seat holds; a Wild Draw Four, a Wild Draw 6 or 10 is
   spent early only for that, or to knock a seat out under the mercy rule (NM-14). It never
   attacks its partner (SCORE-9): a draw card, Skip or Roulette aimed at a partner counts against
   the play.
4. **Holding wilds and draw cards.** A wild costs a penalty when a colored card would do, so it is
   kept for when nothing else fits or the hand is short; draw cards are kept while stacking is on
   (a held draw card is a defense, HOUSE-1, NM-6) unless an attack is worth it. A Wild Draw Four
   that could be challenged (it holds the current color, CL-ACT-6) is played only to stop a seat
   about to go out.
5. **Color control.** After each play it counts the cards of its hand that would still be
   playable in the resulting color; colors it holds many of are kept current, and a color change
   by number or symbol is taken toward its strongest color. A wild names the color it holds most
   of (by count, then points); a color that the record proves the next seat lacks (or holds at
   most one card of) wins ties, and with no colored card left it names the color with the fewest
   unseen cards.
6. **Card counting.** Unseen cards are the deck minus its hand minus the discard pile. A Color
   Roulette names the color with the most unseen cards (the fewest reveals). A Wild Draw Four is
   challenged when that pays (:meth:`HeuristicBot.challenge_odds`):

   - *held*: the chance that its player held the previous color, its hand dealt from the unseen
     cards (hypergeometric) under what the record proves about it, and, with weight
     ``draw_belief`` (0.8), under what its draws suggest (a seat that drew held nothing playable);
     a hand known to lack other colors is the likelier to hold this one (:func:`held_color_chance`);
   - *bluff*: the chance that the play was illegal. A careful player bluffs ``bluff`` (0.02)
     times as readily as it plays a legal Wild Draw Four while its victim holds more than
     ``near`` (4) cards, ``bluff_near`` (0.5) times from then on (this bot's own rule 4); a
     reckless one plays it whatever it holds. A seat is reckless with the chance ``reckless``
     (0.2), updated by Bayes' rule on the verdicts of this bot's challenges against it;
   - *gain*: each outcome (accept: draw the penalty, lose the turn; wrong: 2 cards more; right:
     the player draws it and this seat plays, CL-ACT-9, 12, 13) is scored by :func:`win_chance`,
     a softmax of hand sizes fitted to self-play, so a penalty that lands on a rival about to go
     out is worth much, and worth less the more seats share it. It challenges when
     ``bluff * right + (1 - bluff) * wrong`` beats accepting.

   ``challenge="odds-v1"`` keeps the earlier rule (the held chance alone above
   ``challenge_threshold``, one third, less 0.1 against a player with two cards or fewer);
   ``"always"`` and ``"never"`` are there to measure against.
7. **Dumping points.** Among equal plays, the one worth more points goes first.
8. **Hand-changing cards.** A 7 (HOUSE-9) or Wild Swap Hands takes the smallest other hand if it
   is smaller than its own; a 0 (HOUSE-10) is welcome when the hand it receives is smaller; a
   Wild Shuffle Hands when its hand is larger than the average; a Discard All by the number of
   cards it sheds.
9. **Drawing.** It draws only when nothing is playable, or when every play scores below the cost
   of a card (for instance only an illegal Wild Draw Four or a 7 that would take a larger hand);
   a playable drawn card is played unless holding it is better by the same scores.
10. **Responding.** Facing a penalty it stacks, bounces or defends when it can (the highest value
    first, so the next seat is less likely to stack back), unless the next victim is its partner;
    otherwise it challenges a Wild Draw Four by rule 6 or accepts. Out of turn it jumps in whenever it may.

The weights are in :data:`WEIGHTS` and each may be overridden (``heuristic:wild_hold=2``).
``beliefs=True`` makes its tracker also believe that a seat that drew held nothing playable
(see :class:`~unotable.bots.determinize.Tracker`); it is off by default, since it did not measure
stronger and it is wrong against a player that draws to keep its cards.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from unotable.actions import Accept, Action, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unotable.bots.base import BaseBot, best_uno, goes_out, is_turn
from unotable.bots.determinize import Layer, Tracker, unseen_cards
from unotable.cards import (
    BLANK,
    ID_COLOR,
    ID_DRAW_VALUE,
    ID_IS_NUMBER,
    ID_IS_WILD,
    ID_RANK,
    WILD,
    WILD_COLOR_ROULETTE,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_REVERSE_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Rank,
)
from unotable.events import Challenged, Event, PenaltyPending
from unotable.phase import ColorReason, Phase
from unotable.rules import CustomEffect, ShuffleLastCard, Stacking
from unotable.views import PlayerView

__all__ = [
    "CHALLENGE_RULES",
    "ChallengeOdds",
    "HeuristicBot",
    "held_color_chance",
    "wd4_guilty_chance",
    "win_chance",
]

_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_SKIP_EVERYONE = int(Rank.SKIP_EVERYONE)
_DISCARD_ALL = int(Rank.DISCARD_ALL)
_COLOR_SETS = tuple(frozenset(c for c in range(74) if ID_COLOR[c] == col) for col in range(4))

WEIGHTS: dict[str, float] = {
    "draw_cost": 6.0,  # a play scoring below -draw_cost loses to drawing a card
    "color": 1.5,  # per card of the hand still playable in the resulting color
    "void": 2.0,  # the next seat is proven not to hold the resulting color
    "wild_hold": 4.0,  # the cost of spending a wild while the hand is longer than 2
    "attack": 6.0,  # how much a draw card's value grows as the next seat nears one card
    "wd4_early": 3.0,  # extra cost of an early Wild Draw Four when no seat is close to out
    "wd4_illegal": 12.0,  # the cost of a challengeable Wild Draw Four (CL-ACT-6)
    "stack_hold": 0.8,  # per point of value: keeping a draw card to stack with (HOUSE-1, NM-6)
    "skip": 2.0,  # a Skip's base value
    "skip_attack": 8.0,  # a Skip's value as the next seat nears one card
    "points": 0.04,  # per point of the card played (dump high cards first)
    "swap": 3.0,  # per card of hand size gained by a 7, 0, Swap or Shuffle Hands
}
"""The scoring weights (each may be overridden: ``make_bot("heuristic:wild_hold=2")``)."""


def wd4_guilty_chance(hand_size: int, unseen: int, of_color: int) -> float:
    """P(a hand of ``hand_size`` unseen cards holds at least one of ``of_color`` among ``unseen``).

    >>> round(wd4_guilty_chance(5, 60, 15), 3)
    0.776
    """
    if of_color <= 0 or hand_size <= 0:
        return 0.0
    if hand_size > unseen - of_color:
        return 1.0
    return 1.0 - math.comb(unseen - of_color, hand_size) / math.comb(unseen, hand_size)


def _none_chance(draws: int, pool: int, of_color: int) -> float:
    """P(``draws`` cards dealt from ``pool`` hold none of its ``of_color`` cards)."""
    if draws <= 0 or of_color <= 0:
        return 1.0
    if draws > pool - of_color:
        return 0.0
    return math.comb(pool - of_color, draws) / math.comb(pool, draws)


def held_color_chance(
    hand: int, pool: Counter[int], color: frozenset[int], layers: Sequence[Layer] = ()
) -> float:
    """P(a hand of ``hand`` cards dealt from ``pool`` holds a card of ``color``), given ``layers``.

    ``layers`` is a tracker's chain for that hand (each ``(E, m)``: at least ``m`` of its cards are
    not in ``E``; counts falling, sets growing). The ``m`` cards of the largest set are dealt from
    the pool outside it, the further cards each smaller set asks for from outside that set, the
    rest from the whole pool; each step is hypergeometric, given no card of ``color`` so far. A
    hand known to lack the other colors is therefore *more* likely to hold this one.

    >>> from unotable.cards import Card
    >>> reds = frozenset(c for c in range(74) if ID_COLOR[c] == 0)
    >>> pool = Counter({Card.parse(t).id: 2 for t in "R1 R2 G1 G2 B1 B2 Y1 Y2".split()})
    >>> round(held_color_chance(3, pool, reds), 3)
    0.607
    >>> not_green = [(frozenset(c for c in range(74) if ID_COLOR[c] == 2), 3)]
    >>> round(held_color_chance(3, pool, reds, not_green), 3)
    0.745
    """
    p_none = 1.0
    placed = 0
    for excluded, m in reversed(layers):  # the largest set (the fewest cards outside it) first
        draws = min(m, hand) - placed
        if draws <= 0:
            continue
        outside = sum(k for c, k in pool.items() if c not in excluded)
        of_color = sum(k for c, k in pool.items() if c not in excluded and c in color)
        p_none *= _none_chance(draws, outside - placed, of_color)  # earlier draws took no color
        placed += draws
    total = sum(pool.values())
    of_color = sum(k for c, k in pool.items() if c in color)
    p_none *= _none_chance(hand - placed, total - placed, of_color)
    return 1.0 - p_none


class WinModel(NamedTuple):
    """A seat's chance to win the round from hand sizes alone: a softmax over the seats in the
    round of ``card`` per card held, ``one`` or ``two`` for one or two cards left, and
    ``distance`` by turns from the seat to act (the last entry serves farther seats)."""

    card: float
    one: float
    two: float
    distance: tuple[float, ...]


WIN_HEADS_UP = WinModel(-0.126, 0.635, 0.226, (0.0, -0.093))
"""Two seats in the round: fitted to heuristic self-play (``benchmarks/challenges.py --fit-win``)."""
WIN_TABLE = WinModel(-0.243, 0.774, 0.263, (0.0, -0.14, -0.164, -0.188))
"""Three seats or more: fitted to 4-seat heuristic self-play, likewise."""


def win_chance(
    sizes: Sequence[int], order: Sequence[int], me: int, team: bool = False, mercy_limit: int = 0
) -> float:
    """``me``'s chance to win the round by :class:`WinModel`, from the hand ``sizes``.

    ``order`` is the seats in the round in turn order from the one to act. With ``team`` a
    partner's chance counts as its own (SCORE-9); a hand of ``mercy_limit`` cards or more is
    knocked out (NM-14).

    >>> round(win_chance([7, 7], [0, 1], 0), 3), round(win_chance([11, 6], [1, 0], 0), 3)
    (0.523, 0.327)
    """
    model = WIN_HEADS_UP if len(order) <= 2 else WIN_TABLE
    far = len(model.distance) - 1
    weights: dict[int, float] = {}
    for k, s in enumerate(order):
        size = sizes[s]
        if mercy_limit and size >= mercy_limit:
            continue
        score = model.card * size + model.distance[min(k, far)]
        score += model.one if size == 1 else model.two if size == 2 else 0.0
        weights[s] = math.exp(score)
    total = sum(weights.values())
    if total <= 0.0:
        return 0.0
    mine = sum(v for s, v in weights.items() if s == me or (team and s % 2 == me % 2))
    return mine / total


class ChallengeOdds(NamedTuple):
    """A challenge decision's numbers (:meth:`HeuristicBot.challenge_odds`)."""

    held: float
    """The chance that the WD4's player held the previous color, from the cards alone."""
    bluff: float
    """The chance that the WD4 was illegal, given also that its player chose to play it."""
    gain: float
    """The expected change of this seat's round-win chance from challenging instead of accepting."""


CHALLENGE_RULES = ("odds", "odds-v1", "always", "never")
"""The heuristic's challenge rules: ``odds`` (the default, rule 6), ``odds-v1`` (the earlier
rule: the cards' chance alone above ``challenge_threshold``), and the two constant rules."""


class _Ctx:
    """What the scoring needs about the table, computed once per decision."""

    def __init__(self, view: PlayerView, tracker: Tracker) -> None:
        self.view = view
        self.tracker = tracker
        self.rules = view.ruleset
        self.me = view.seat
        self.n = view.seats
        self.hand = [c.id for c in view.hand]
        self.sizes = list(view.hand_sizes)
        self.in_round = list(view.in_round)
        self.live = sum(self.in_round)
        self.color = int(view.current_color) if view.current_color is not None else -1
        self.points = self.rules.points
        self.partners = self.rules.partnership
        self.nxt = self.next_seat(self.me, view.direction)
        self.prev = self.next_seat(self.me, -view.direction)
        self._unseen: list[int] | None = None

    def next_seat(self, s: int, d: int) -> int:
        n = self.n
        t = (s + d) % n
        for _ in range(n):
            if self.in_round[t]:
                return t
            t = (t + d) % n
        return t

    def partner(self, s: int) -> bool:
        return self.partners and s != self.me and s % 2 == self.me % 2

    def unseen_by_color(self) -> list[int]:
        if self._unseen is None:
            counts = [0, 0, 0, 0]
            for c, k in unseen_cards(self.view).items():
                if ID_COLOR[c] >= 0:
                    counts[ID_COLOR[c]] += k
            self._unseen = counts
        return self._unseen

    def danger(self, s: int) -> float:
        """How close seat ``s`` is to going out: 0 from 8 cards up, 1 at a single card."""
        if s == self.me or not self.in_round[s] or self.partner(s):
            return 0.0
        size = self.sizes[s]
        return max(0.0, (8 - size) / 7.0) ** 2


def _color_strength(hand: list[int], color: int, points: tuple[int, ...]) -> float:
    k = 0.0
    for c in hand:
        if ID_COLOR[c] == color:
            k += 1.0 + points[c] / 100.0
    return k


def _void(ctx: _Ctx, seat: int, color: int) -> float:
    """1 when ``seat`` holds no card of ``color`` by the record, 1/2 when at most one, else 0."""
    free = ctx.tracker.might_hold(seat, _COLOR_SETS[color])
    return 1.0 if free == 0 else 0.5 if free == 1 else 0.0


def best_color(ctx: _Ctx, hand: list[int]) -> int:
    """The color to name for a wild: the one held most, then the one the next seat lacks."""
    best = -1
    best_score = -1e9
    unseen = None
    for col in range(4):
        score = _color_strength(hand, col, ctx.points) * 10.0
        if not ctx.partner(ctx.nxt):
            score += 3.0 * _void(ctx, ctx.nxt, col)
        if score == 0.0 or not any(ID_COLOR[c] >= 0 for c in hand):
            if unseen is None:
                unseen = ctx.unseen_by_color()
            score -= unseen[col] / 10.0
        if score > best_score:
            best_score = score
            best = col
    return best


class HeuristicBot(BaseBot):
    """The documented strategy of the module docstring."""

    name = "heuristic"

    def __init__(
        self,
        challenge: str = "odds",
        challenge_threshold: float = 1 / 3,
        bluff: float = 0.02,
        bluff_near: float = 0.5,
        near: int = 4,
        reckless: float = 0.2,
        draw_belief: float = 0.8,
        beliefs: bool = False,
        **weights: float,
    ) -> None:
        if challenge not in CHALLENGE_RULES:
            raise ValueError(f"unknown challenge rule {challenge!r}; known: {', '.join(CHALLENGE_RULES)}")
        self.challenge = challenge
        self.challenge_threshold = challenge_threshold
        self.bluff = bluff
        self.bluff_near = bluff_near
        self.near = near
        self.reckless = reckless
        self.draw_belief = draw_belief
        unknown = set(weights) - set(WEIGHTS)
        if unknown:
            raise ValueError(
                f"unknown heuristic weight(s) {', '.join(sorted(unknown))}; known: {', '.join(WEIGHTS)}"
            )
        self.weights = {**WEIGHTS, **{k: float(v) for k, v in weights.items()}}
        self.tracker = Tracker(beliefs=beliefs)
        self.drawn = Tracker(beliefs=True)
        """The record read as if a seat that drew held nothing playable (for the challenge odds)."""
        self.recklessness: dict[int, float] = {}
        """Per seat, the chance that it plays Wild Draw Fours whatever it holds, learnt from the
        verdicts of this bot's challenges (kept from round to round)."""
        self._asked: tuple[int, float, float] | None = None
        self._judging = challenge == "odds"

    def observe(self, events: Sequence[Event]) -> None:
        self.tracker.observe(events)
        if not self._judging:
            return
        if self.draw_belief > 0.0:  # without its Wild Draw Four belief: that is the question
            self.drawn.observe([e for e in events if not isinstance(e, PenaltyPending)])
        asked = self._asked
        if asked is not None:
            for e in events:
                if isinstance(e, Challenged) and e.player == asked[0] and e.challenger == self.tracker.seat:
                    self._learn(e.guilty)

    def _tracker(self, view: PlayerView) -> Tracker:
        self.tracker.sync(view)
        if self._judging and not view.ruleset.challenge_enabled:
            self._judging = False  # nothing to challenge: keep no second record
        return self.tracker

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        if is_turn(view) and len(view.hand) == 1:  # 2. going out beats calling UNO
            for a in legal:
                if isinstance(a, Play) and goes_out(view, a):
                    return a
        for a in legal:
            if isinstance(a, Catch | CallUno):
                return a
        ctx = _Ctx(view, self._tracker(view))
        legal = best_uno(legal)
        if not is_turn(view):
            jumps = [a for a in legal if isinstance(a, Play)]
            if not jumps:
                return None
            return _pick(jumps, [score_play(ctx, a, self.weights) for a in jumps], rng)
        phase = view.phase
        if phase is Phase.CHOOSE_COLOR:
            return self._choose_color(ctx, legal)
        if phase is Phase.RESPOND:
            return self._respond(ctx, legal, rng)
        plays = [a for a in legal if isinstance(a, Play)]
        others = [a for a in legal if isinstance(a, Draw | Pass)]
        if not plays:
            return others[0] if others else legal[0]
        scores = [score_play(ctx, a, self.weights) for a in plays]
        if others and max(scores) < -self.weights["draw_cost"]:
            return others[0]
        return _pick(plays, scores, rng)

    def _choose_color(self, ctx: _Ctx, legal: Sequence[Action]) -> Action:
        choices = [a for a in legal if isinstance(a, ChooseColor)]
        roulette = (ColorReason.ROULETTE, ColorReason.ROULETTE_LAST)
        if ctx.view.awaiting_color_for in roulette:  # NM-11: the color most likely to come
            unseen = ctx.unseen_by_color()
            col = max(range(4), key=lambda k: (unseen[k], -k))
        else:
            col = best_color(ctx, ctx.hand)
        named = [a for a in choices if int(a.color) == col] or choices
        if named[0].target is not None:  # SET-12: take the smallest other hand
            return min(named, key=lambda a: (ctx.sizes[a.target or 0], a.target or 0))
        return named[0]

    def _respond(self, ctx: _Ctx, legal: Sequence[Action], rng: random.Random) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        victim = ctx.nxt
        if plays and not ctx.partner(victim):
            return _pick(plays, [_response_score(ctx, a) for a in plays], rng)
        challenge = next((a for a in legal if isinstance(a, Challenge)), None)
        if challenge is not None and self._challenges(ctx):
            return challenge
        for a in legal:
            if isinstance(a, Accept):
                return a
        return plays[0] if plays else legal[0]

    def _challenges(self, ctx: _Ctx) -> bool:
        """Rule 6: whether to challenge the Wild Draw Four on top, by :attr:`challenge`."""
        rule = self.challenge
        if rule == "always" or rule == "never":
            return rule == "always"
        if rule == "odds-v1":
            return self._guilty_chance(ctx) > self._threshold(ctx)
        return self._odds(ctx, remember=True).gain > 0.0

    def _threshold(self, ctx: _Ctx) -> float:
        """``odds-v1``: :attr:`challenge_threshold`, less 0.1 when the player holds two cards or fewer."""
        p = ctx.view.top_player
        t = self.challenge_threshold
        if p is not None and ctx.sizes[p] <= 2:
            t -= 0.1
        return t

    def _guilty_chance(self, ctx: _Ctx) -> float:
        """``odds-v1``: the chance that the player held the previous color, from its possible cards."""
        tracker = ctx.tracker
        p = ctx.view.top_player
        prev = tracker.color_before_wd4
        if p is None or prev < 0:
            return 0.0
        colored = _COLOR_SETS[prev]
        if any(c in colored for c in tracker.known[p]):
            return 1.0
        unseen = unseen_cards(ctx.view)
        total = sum(unseen.values())
        of_color = sum(k for c, k in unseen.items() if ID_COLOR[c] == prev)
        return wd4_guilty_chance(tracker.might_hold(p, colored), total, of_color)

    def challenge_odds(self, view: PlayerView) -> ChallengeOdds:
        """The numbers behind rule 6 for ``view``, a response to a Wild Draw Four."""
        return self._odds(_Ctx(view, self._tracker(view)))

    def _odds(self, ctx: _Ctx, remember: bool = False) -> ChallengeOdds:
        """Rule 6's numbers. A careful player (this bot's own rule 4) bluffs
        :meth:`_bluff_factor` times as readily as it plays a legal Wild Draw Four, a reckless one
        whatever it holds; the seat is reckless with the chance :attr:`recklessness` gives it."""
        p = ctx.view.top_player
        prev = ctx.tracker.color_before_wd4
        if p is None or prev < 0 or p == ctx.me:
            return ChallengeOdds(0.0, 0.0, -1.0)
        held = self._held(ctx, p, prev)
        careful = _posterior(held, self._bluff_factor(ctx))
        r = self.recklessness.get(p, self.reckless)
        bluff = (1.0 - r) * careful + r * held
        odds = ChallengeOdds(held, bluff, _challenge_gain(ctx, p, bluff))
        if remember and odds.gain > 0.0:
            self._asked = (p, careful, held)
        return odds

    def _learn(self, guilty: bool) -> None:
        """Update the challenged seat's recklessness by Bayes' rule on the verdict."""
        assert self._asked is not None
        p, careful, reckless = self._asked
        self._asked = None
        r = self.recklessness.get(p, self.reckless)
        if not guilty:
            careful, reckless = 1.0 - careful, 1.0 - reckless
        total = r * reckless + (1.0 - r) * careful
        if total > 0.0:
            self.recklessness[p] = r * reckless / total

    def _held(self, ctx: _Ctx, p: int, prev: int) -> float:
        """The chance that seat ``p`` held color ``prev`` beside its Wild Draw Four (cards alone).

        Its hand is dealt from the unseen cards less those known elsewhere, under what the record
        proves (the tracker's layers), and with weight :attr:`draw_belief` under what its draws
        suggest too (a seat that drew is believed to have held nothing playable).
        """
        colored = _COLOR_SETS[prev]
        known = ctx.tracker.known
        if any(c in colored for c in known[p]):
            return 1.0
        pool = unseen_cards(ctx.view)
        for s in range(ctx.n):
            if s != ctx.me:
                pool.subtract(known[s])
        pool = +pool
        hand = max(0, ctx.sizes[p] - len(known[p]))
        held = held_color_chance(hand, pool, colored, ctx.tracker.layers[p])
        r = self.draw_belief
        if r > 0.0:
            self.drawn.sync(ctx.view)
            believed = held_color_chance(hand, pool, colored, self.drawn.layers[p])
            held = r * believed + (1.0 - r) * held
        return held

    def _bluff_factor(self, ctx: _Ctx) -> float:
        """How much likelier a Wild Draw Four is from a hand holding the previous color than from
        one lacking it: :attr:`bluff` while this seat (its victim) holds more than :attr:`near`
        cards, :attr:`bluff_near` from then on, when a careful player risks the challenge to stop
        it (as this bot does, rule 4)."""
        return self.bluff_near if ctx.sizes[ctx.me] <= self.near else self.bluff


def _posterior(held: float, factor: float) -> float:
    """P(a Wild Draw Four was illegal) when the player held the color with the chance ``held`` and
    a hand holding it plays the card ``factor`` times as readily as one lacking it (Bayes' rule).

    >>> _posterior(0.5, 1.0), round(_posterior(0.8, 0.05), 3), _posterior(1.0, 0.0)
    (0.5, 0.167, 1.0)
    """
    if held >= 1.0:
        return 1.0
    return held * factor / (held * factor + 1.0 - held)


def _pick(actions: Sequence[Action], scores: Sequence[float], rng: random.Random) -> Action:
    best = max(scores)
    top = [a for a, s in zip(actions, scores, strict=True) if s >= best - 1e-9]
    return top[rng.randrange(len(top))] if len(top) > 1 else top[0]


def _response_score(ctx: _Ctx, a: Play) -> float:
    c = a.card.id
    score = ID_DRAW_VALUE[c] * 2.0 + ctx.points[c] / 100.0
    if a.color is not None:
        score += _color_strength(ctx.hand, int(a.color), ctx.points)
    return score


def _receiver_of_pass(ctx: _Ctx) -> int:
    """The seat whose hand this seat receives under a 0 (HOUSE-10)."""
    return ctx.prev


def _challenge_gain(ctx: _Ctx, player: int, bluff: float) -> float:
    """The expected change of this seat's win chance from challenging rather than accepting.

    Accepting draws the penalty and loses the turn (CL-ACT-9); a wrong challenge draws 2 more
    (CL-ACT-13); a right one makes ``player`` draw the penalty, and this seat plays at once
    (CL-ACT-12). Each outcome is scored by :func:`win_chance`, so a penalty that lands on a
    rival near going out is worth more, and worth less the more seats share its benefit.
    """
    me = ctx.me
    total = max(ctx.view.pending_penalty, 4)
    seats = [s for s in range(ctx.n) if ctx.in_round[s]]
    d = ctx.view.direction
    order_me = sorted(seats, key=lambda s: ((s - me) * d) % ctx.n)
    nxt = ctx.next_seat(me, d)
    order_next = sorted(seats, key=lambda s: ((s - nxt) * d) % ctx.n)
    team = ctx.partners
    mercy = ctx.rules.mercy_limit

    def chance(extra_me: int, extra_player: int, order: list[int]) -> float:
        sizes = list(ctx.sizes)
        sizes[me] += extra_me
        sizes[player] += extra_player
        return win_chance(sizes, order, me, team, mercy)

    accept = chance(total, 0, order_next)
    innocent = chance(total + 2, 0, order_next)
    guilty = chance(0, total, order_me)
    return bluff * guilty + (1.0 - bluff) * innocent - accept


def score_play(ctx: _Ctx, a: Play, w: dict[str, float] = WEIGHTS) -> float:
    """The heuristic value of a play in a normal turn or a jump-in (higher is better)."""
    c = a.card.id
    hand = ctx.hand
    rules = ctx.rules
    after = hand[:]
    after.remove(c)
    left = len(after)
    rank = ID_RANK[c]
    wild = ID_IS_WILD[c]
    nxt = ctx.nxt
    danger = ctx.danger(nxt)
    if left == 0:
        if c == WILD_SHUFFLE_HANDS and rules.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE:
            return 500.0
        return 1000.0
    color = ID_COLOR[c] if not wild else (int(a.color) if a.color is not None else -1)
    score = 0.0 if wild else ctx.points[c] * w["points"]
    # 5. color control: cards still playable if the color stays
    if color >= 0:
        score += w["color"] * sum(1 for x in after if ID_COLOR[x] == color)
        if not ctx.partner(nxt):
            score += w["void"] * _void(ctx, nxt, color)
    if ID_COLOR[c] >= 0 and ID_COLOR[c] != ctx.color:
        score += 0.5  # a change of color by number or symbol, judged by the count above
    stacking = rules.stacking is not Stacking.NONE
    value = ID_DRAW_VALUE[c]
    partner_next = ctx.partner(nxt)
    # 4. holding wilds
    if wild:
        score -= w["wild_hold"] if left > 2 else 0.5
    # 3. attacks
    if value:
        attack = value * (1.0 + w["attack"] * danger)
        if partner_next:
            attack = -attack - 5.0
        if rules.mercy_limit and ctx.sizes[nxt] + value >= rules.mercy_limit and not partner_next:
            attack += 25.0
        if stacking:
            attack -= value * w["stack_hold"] if left > 2 else 0.0
        if c == WILD_DRAW_FOUR:
            if rules.challenge_enabled and any(ID_COLOR[x] == ctx.color for x in hand):
                attack -= w["wd4_illegal"] * (1.0 - danger)  # CL-ACT-6: a challenge would cost 4
            elif left > 2:
                attack -= w["wd4_early"] * (1.0 - danger)
        if c == WILD_REVERSE_DRAW_FOUR and ctx.live > 2:
            nxt = ctx.prev  # the penalty goes the other way
            danger = ctx.danger(nxt)
        score += attack
    elif rank in (_SKIP, _SKIP_EVERYONE):
        score += (w["skip"] + w["skip_attack"] * danger) if not partner_next else -3.0
        if ctx.live == 2 or rank == _SKIP_EVERYONE:
            score += 2.0
    elif rank == _REVERSE and not wild:
        if ctx.live == 2:
            score += 2.0
        else:
            score += 8.0 * (danger - ctx.danger(ctx.prev))
    elif c == WILD_COLOR_ROULETTE:
        score += 1.0 + 6.0 * danger if not partner_next else -4.0
    elif rank == _DISCARD_ALL:
        shed = sum(1 for x in after if ID_COLOR[x] == ID_COLOR[c])
        score += 4.0 * shed
    elif c == WILD_SWAP_HANDS or (rules.seven_zero and ID_IS_NUMBER[c] and rank == 7):
        if a.target is not None:
            score += w["swap"] * (left - ctx.sizes[a.target])
            if ctx.partner(a.target):
                score -= 2.0
    elif rules.seven_zero and ID_IS_NUMBER[c] and rank == 0:
        score += w["swap"] * (left - ctx.sizes[_receiver_of_pass(ctx)])
    elif c == WILD_SHUFFLE_HANDS:
        total = sum(ctx.sizes[s] for s in range(ctx.n) if ctx.in_round[s]) - 1
        score += w["swap"] * (left - total / max(1, ctx.live))
    elif c in (WILD_CUSTOMIZABLE, BLANK):
        effect = rules.custom_effect
        if effect is CustomEffect.OTHERS_DRAW_2:
            score += 4.0
        elif effect is CustomEffect.EXTRA_TURN:
            score += 3.0
    if c == WILD and left <= 2:
        score += 1.0
    return score
