"""The compact internal state of a game: ints and lists of card ids, cheap to copy.

Nothing outside the engine reads a :class:`State` directly: the public API is
:class:`unotable.game.Game`, and seats see :mod:`unotable.views`. Card ids are the small ints of
:mod:`unotable.cards`; a hand is a list of them; the draw pile's top is the end of its list and
so is the discard pile's.

>>> from unotable.rules import Ruleset
>>> st = State(Ruleset.preset("official"), 3, 5)
>>> st.n, st.direction, len(st.hands)
(3, 1, 3)
"""
from __future__ import annotations

from collections import OrderedDict
from enum import IntEnum
from typing import Any

from unotable.phase import ColorReason, Phase
from unotable.results import MatchEndReason, RoundResult
from unotable.rng import Rng
from unotable.rules import Ruleset

__all__ = ["ColorReason", "MatchEndReason", "Phase", "State", "Step", "turn_key", "turn_key_parts"]


class Step(IntEnum):
    """``Flags.step``: how the play of a card that is not its player's last only moves the turn."""

    OTHER = 0
    """Any other effect: the card takes the full path."""
    NEXT = 1
    """The turn passes to next(player): a number card without 7-0, a plain Wild (CL-ACT-4, CL-TURN-6)."""
    SKIP = 2
    """next(player) loses its turn (CL-ACT-1)."""
    REVERSE = 3
    """The direction flips (CL-ACT-2; TWO-2: with two seats in the round the player goes again)."""


# Flags.turn_tables holds one table per (current color, top card's rank, hand size class), at the
# index turn_key() gives: color -1..3 (-1: none yet), top rank -1..15 (-1: a wild top card), and the
# hand size class min(size, 3).
_TOP_RANKS = 17
_SIZE_CLASSES = 4
TURN_TABLES = 5 * _TOP_RANKS * _SIZE_CLASSES


def turn_key(color: int, top_rank: int, size: int) -> int:
    """The index in ``Flags.turn_tables`` of a normal turn's situation.

    The key is a sum of independent parts, so the hot path adds precomputed parts:
    ``turn_key(c, r, s) == turn_key(c, -1, 0) + turn_key(-1, r, 0) + turn_key(-1, -1, s)``.

    >>> turn_key(2, 5, 7), turn_key_parts(turn_key(2, 5, 7))
    (231, (2, 5, 3))
    """
    return ((color + 1) * _TOP_RANKS + top_rank + 1) * _SIZE_CLASSES + min(size, _SIZE_CLASSES - 1)


def turn_key_parts(key: int) -> tuple[int, int, int]:
    """The (color, top rank, hand size class) of a :func:`turn_key`."""
    rest, size = divmod(key, _SIZE_CLASSES)
    color, rank = divmod(rest, _TOP_RANKS)
    return color - 1, rank - 1, size


class Flags:
    """The ruleset compiled into plain attributes for the hot paths (one shared, immutable object)."""

    __slots__ = (
        "challenge",
        "deck",
        "draw_until_playable",
        "force_play",
        "jump_in",
        "may_draw",
        "mercy_limit",
        "nm",
        "seven_zero",
        "simple",
        "step",
        "strict_wd4",
        "turn_tables",
        "uno_penalty",
    )

    def __init__(self, rules: Ruleset) -> None:
        from unotable.cards import (
            ID_COLOR,
            ID_IS_NUMBER,
            ID_RANK,
            NUM_CARD_IDS,
            WILD_COLOR_ROULETTE,
            WILD_SHUFFLE_HANDS,
            WILD_SWAP_HANDS,
            Rank,
        )
        from unotable.rules import Wd4Rule

        self.nm = rules.is_no_mercy
        self.challenge = rules.challenge_enabled
        self.strict_wd4 = rules.wd4_rule is Wd4Rule.STRICT and not self.nm
        self.seven_zero = rules.seven_zero
        self.jump_in = rules.jump_in
        self.may_draw = rules.may_draw_with_playable
        self.draw_until_playable = rules.draw_until_playable
        self.force_play = rules.force_play
        self.mercy_limit = rules.mercy_limit
        self.uno_penalty = rules.uno_penalty
        self.deck: tuple[int, ...] = tuple(rules.deck_ids())
        special = {WILD_SWAP_HANDS, WILD_SHUFFLE_HANDS, WILD_COLOR_ROULETTE}

        def simple(c: int) -> bool:
            if ID_COLOR[c] < 0:
                return c not in special
            if ID_RANK[c] == Rank.DISCARD_ALL:
                return False
            return not (self.seven_zero and ID_IS_NUMBER[c] and ID_RANK[c] in (0, 7))

        self.simple: tuple[bool, ...] = tuple(simple(c) for c in range(NUM_CARD_IDS))
        """Cards whose play leaves ``len(hand) - 1`` cards and needs no target."""

        def step(c: int) -> Step:
            rank = ID_RANK[c]
            if ID_COLOR[c] < 0:
                return Step.NEXT if rank == Rank.WILD else Step.OTHER
            if ID_IS_NUMBER[c]:
                return Step.OTHER if self.seven_zero else Step.NEXT
            return Step.SKIP if rank == Rank.SKIP else Step.REVERSE if rank == Rank.REVERSE else Step.OTHER

        self.step: tuple[Step, ...] = tuple(step(c) for c in range(NUM_CARD_IDS))
        """How the play of each card id, when it is not its player's last, moves the turn (:class:`Step`)."""
        self.turn_tables: list[Any] = [None] * TURN_TABLES
        """movegen's memo of the plays of each card in a normal turn, by color, top rank and hand size."""


FLAGS_CACHE_SIZE = 64
"""How many compiled rulesets are kept (least recently used first out): a long-running server
builds many rulesets, and each Flags holds movegen tables."""

# Compiled rulesets by the identity of the Ruleset object (hashing a Ruleset hashes all its fields,
# which costs more than the rest of a State's construction), then by equality. An entry keeps its
# Ruleset alive, so its id cannot be reused while the entry exists. Both are bounded LRU maps.
_FLAGS: OrderedDict[Ruleset, Flags] = OrderedDict()
_FLAGS_BY_ID: OrderedDict[int, tuple[Ruleset, Flags]] = OrderedDict()


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    cache[key] = value
    if len(cache) > FLAGS_CACHE_SIZE:
        cache.popitem(last=False)


def flags_for(rules: Ruleset) -> Flags:
    """The compiled flags of ``rules``, shared by every state under an equal ruleset."""
    hit = _FLAGS_BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    f = _FLAGS.get(rules)
    if f is None:
        f = Flags(rules)
        _remember(_FLAGS, rules, f)
    else:
        _FLAGS.move_to_end(rules)
    _remember(_FLAGS_BY_ID, id(rules), (rules, f))
    return f


class State:
    """Everything about a game in progress, in compact form."""

    __slots__ = (
        "active",
        "auto_passes",
        "called",
        "caught",
        "color",
        "color_reason",
        "deal_order",
        "dealer",
        "direction",
        "discard",
        "draw",
        "drawn",
        "eliminated",
        "exposed",
        "final_round",
        "flags",
        "fresh",
        "graced",
        "hands",
        "in_round",
        "knocked",
        "last_round",
        "match_reason",
        "match_winners",
        "n",
        "pending",
        "pending_card",
        "phase",
        "rng",
        "round_no",
        "round_wins",
        "rules",
        "scores",
        "seed",
        "set_aside",
        "top_player",
        "wd4_hand",
        "wd4_illegal",
        "wd4_player",
    )

    def __init__(self, rules: Ruleset, n: int, seed: int) -> None:
        self.rules = rules
        self.flags = flags_for(rules)
        self.n = n
        self.seed = seed
        self.rng = Rng(seed)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.color = -1
        self.active = 0
        self.color_reason = ColorReason.FIRST_CARD
        self.dealer = -1
        self.eliminated = [False] * n
        self.scores = [0] * n
        self.round_wins = [0] * n
        self.round_no = 0
        self.final_round = False
        self.match_winners: tuple[int, ...] = ()
        self.match_reason: MatchEndReason | None = None
        self.deal_order: list[int] | None = None
        """A fixed deck order for the next deal, top first (set by a position; None: shuffle)."""
        self.clear_round()

    def clear_round(self) -> None:
        """Reset what belongs to one round (not the hands and piles): every seat not eliminated is
        in the round, play runs clockwise, and no penalty, flag, call or last result is pending."""
        n = self.n
        self.phase = Phase.PLAY
        self.in_round = [not e for e in self.eliminated]
        self.knocked = [False] * n
        self.exposed = [False] * n
        self.called = [False] * n
        self.caught = [False] * n
        self.fresh = [False] * n
        self.graced = [False] * n
        """UNO-GRACE-1: seats handed a one-card hand, not yet catchable (only with ``uno_grace``)."""
        self.set_aside: list[int] = []
        self.direction = 1
        self.pending = 0
        self.pending_card = -1
        self.top_player = -1
        self.drawn = -1
        self.wd4_player = -1
        self.wd4_illegal = False
        self.wd4_hand: list[int] = []
        self.auto_passes = 0
        self.last_round: RoundResult | None = None

    def copy(self) -> State:
        """A deep copy that shares nothing mutable with this state."""
        other = State.__new__(State)
        other.rules = self.rules
        other.flags = self.flags
        other.n = self.n
        other.seed = self.seed
        other.rng = self.rng.copy()
        other.hands = [h[:] for h in self.hands]
        other.draw = self.draw[:]
        other.discard = self.discard[:]
        other.set_aside = self.set_aside[:]
        other.color = self.color
        other.direction = self.direction
        other.active = self.active
        other.phase = self.phase
        other.color_reason = self.color_reason
        other.dealer = self.dealer
        other.in_round = self.in_round[:]
        other.eliminated = self.eliminated[:]
        other.knocked = self.knocked[:]
        other.pending = self.pending
        other.pending_card = self.pending_card
        other.top_player = self.top_player
        other.drawn = self.drawn
        other.wd4_player = self.wd4_player
        other.wd4_illegal = self.wd4_illegal
        other.wd4_hand = self.wd4_hand[:]
        other.exposed = self.exposed[:]
        other.called = self.called[:]
        other.caught = self.caught[:]
        other.auto_passes = self.auto_passes
        other.scores = self.scores[:]
        other.round_wins = self.round_wins[:]
        other.round_no = self.round_no
        other.final_round = self.final_round
        other.last_round = self.last_round
        other.match_winners = self.match_winners
        other.match_reason = self.match_reason
        other.deal_order = None if self.deal_order is None else self.deal_order[:]
        other.fresh = self.fresh[:]
        other.graced = self.graced[:]
        return other

    def next_seat(self, seat: int) -> int:
        """next(seat): the first seat in the round stepping from ``seat`` in the current direction."""
        n = self.n
        d = self.direction
        inr = self.in_round
        s = (seat + d) % n
        while not inr[s]:
            s = (s + d) % n
        return s

    def seats_in_round(self) -> int:
        return sum(self.in_round)
