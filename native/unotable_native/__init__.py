"""The native core of unotable: the reference engine's games, played in C++, many tables at once.

Table ``i`` of a :class:`Pool` seeded ``s`` plays exactly ``Game.new(seats, ruleset, s)``: the same
deal, the same legal actions in the same order, the same positions after every action (see
docs/native.md). Rulesets, seeds and positions are read by the Python engine, so a bad one raises
the engine's own error; an action is checked in the core and refused with the engine's error class.

>>> pool = Pool(2, "official", 4, seeds=[7, 8])
>>> from unotable import Game
>>> pool.to_position(0) == Game.new(4, "official", 7).to_position()
True
>>> pool.legal(1, pool.active_seat(1)) == [str(a) for a in Game.new(4, "official", 8).legal_actions]
True
>>> pool.play(0, "catch:9", 0)
Traceback (most recent call last):
...
unotable.errors.InvalidActionError: catch:9 by seat 0 is not legal: there is no seat 9

One way: this package is the compiled core (``_core``, typed by ``_core.pyi``), the conversion of a
ruleset into the core's flags (:func:`native_config`) and :class:`Pool`; it imports the engine and
never ``unotable.env``. The RL environment's adapters over the core (``unotable.env.native_table``,
``unotable.env.native_vector``) live on the env's side and import this package, not the other way.
The observation layout is the env's (``unotable.env.spaces``, the reference): the core compiles
the same layout in and exposes its sizes (``_core.OBS_SIZE``, ``_core.NUM_ACTIONS``,
``_core.RULESET_SIZE``, held equal to the reference's by tests/env), and the one part of it that
is data, the ruleset block of an observation, is passed in by whoever wants observations, as a
function of the ruleset and the seat count (``Pool(..., ruleset_block=spaces.ruleset_block)``).
A Pool made without it plays, converts and self-plays alike, and refuses to write observations.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from unotable.actions import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    CHOOSE_COLOR,
    DRAW,
    PASS,
    PLAY,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Deal,
    Draw,
    Pass,
    Play,
    parse_action,
)
from unotable.errors import (
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    RulesetError,
    UnoError,
)
from unotable.phase import ColorReason, Phase
from unotable.position import read_position, write_position
from unotable.results import MatchEndReason
from unotable.rng import Rng
from unotable.rules import CustomEffect, Ruleset, Scoring, ShuffleLastCard, Stacking, SwapLastCard
from unotable.state import State, flags_for


def _load_core() -> Any:
    """The compiled module; ``UNOTABLE_NATIVE_CORE=path/_core*.so`` loads another build of it (the
    sanitizer build of ``make native-sanitize`` runs the same tests against this package)."""
    import os

    path = os.environ.get("UNOTABLE_NATIVE_CORE")
    if not path:
        import unotable_native._core as core

        return core
    import importlib.machinery
    import importlib.util
    import sys

    loader = importlib.machinery.ExtensionFileLoader("unotable_native._core", path)
    spec = importlib.util.spec_from_file_location("unotable_native._core", path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules["unotable_native._core"] = module
    return module


_core = _load_core()

__all__ = ["Pool", "RulesetBlock", "native_config", "resolve_ruleset", "seed_words", "state_doc"]

RulesetBlock = Callable[[Ruleset, int], bytes]
"""The ruleset block of the observation layout: ``(ruleset, seats) -> RULESET_SIZE bytes``
(``unotable.env.spaces.ruleset_block``), passed in by the env side."""

_STACKING = {Stacking.NONE: 0, Stacking.SAME_KIND: 1, Stacking.PLUS4_ON_PLUS2: 2, Stacking.BY_VALUE: 3}
_SCORING = {Scoring.STANDARD: 0, Scoring.LOW: 1, Scoring.ELIMINATION: 2, Scoring.NONE: 3}
_CUSTOM = {CustomEffect.PLAIN: 0, CustomEffect.OTHERS_DRAW_2: 1, CustomEffect.OTHERS_DISCARD_WILDS: 2,
           CustomEffect.EXTRA_TURN: 3}
_REASONS = list(MatchEndReason)
_ERRORS: dict[int, type[UnoError]] = {1: InvalidActionError, 2: IllegalActionError, 3: NotYourTurnError}
_KINDS = {PLAY: 0, DRAW: 1, PASS: 2, ACCEPT: 3, CHALLENGE: 4, CHOOSE_COLOR: 5, CALL_UNO: 6, CATCH: 7}
_MAX_SEED_WORDS = 8

def resolve_ruleset(ruleset: Ruleset | str | Mapping[str, Any] | None) -> Ruleset:
    """A :class:`~unotable.rules.Ruleset` from itself, a preset name or a ruleset dict (None: official)."""
    if ruleset is None:
        return Ruleset.preset("official")
    if isinstance(ruleset, Ruleset):
        return ruleset
    if isinstance(ruleset, str):
        return Ruleset.preset(ruleset)
    if isinstance(ruleset, Mapping):
        return Ruleset.from_dict(ruleset)
    raise RulesetError(f"ruleset must be a Ruleset, a preset name or a ruleset dict, not {ruleset!r}")

def native_config(rules: Ruleset) -> dict[str, int]:
    """The ruleset as the core's flags (``unotable.state.Flags``, as plain ints).

    >>> native_config(Ruleset.preset("house"))["stacking"], native_config(Ruleset.preset("no-mercy"))["nm"]
    (1, 1)

    The core does not play ``uno_grace`` (UNO-GRACE-1 to UNO-GRACE-3): a ruleset with it raises
    ``NotImplementedError``, which ``backend="auto"`` and ``engine="auto"`` take as "play it in
    Python".
    """
    if rules.uno_grace:
        raise NotImplementedError("the native core does not implement uno_grace (UNO-GRACE-1 to "
                                  "UNO-GRACE-3); play this ruleset with the Python engine")
    f = flags_for(rules)
    return {
        "nm": int(f.nm),
        "challenge": int(f.challenge),
        "strict_wd4": int(f.strict_wd4),
        "dealer_seat0": int(rules.dealer_selection.value == "seat0"),
        "first_card_redraw": int(rules.first_card_wild.value == "redraw"),
        "first_card_swap_effect": int(rules.first_card_swap_effect),
        "may_draw_with_playable": int(rules.may_draw_with_playable),
        "draw_until_playable": int(rules.draw_until_playable),
        "force_play": int(rules.force_play),
        "uno_penalty": rules.uno_penalty,
        "false_catch_penalty": rules.false_catch_penalty,
        "false_uno_penalty": rules.false_uno_penalty,
        "swap_last_swap": int(rules.swap_hands_last_card is SwapLastCard.SWAP),
        "shuffle_last_shuffle": int(rules.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE),
        "scoring": _SCORING[rules.scoring],
        "target_score": rules.target_score,
        "elimination_one_round": int(rules.elimination_final.value == "one_round"),
        "partnership": int(rules.partnership),
        "stacking": _STACKING[rules.stacking],
        "stack_sum": int(rules.stack_sum),
        "jump_in": int(rules.jump_in),
        "seven_zero": int(rules.seven_zero),
        "bounce_draw_two": int(rules.bounce_draw_two),
        "defend_wd4_with_draw_two": int(rules.defend_wd4_with_draw_two),
        "mercy_limit": rules.mercy_limit,
        "custom_effect": _CUSTOM[rules.custom_effect],
    }

def seed_words(seed: int) -> list[int]:
    """The seed's 32-bit words, least significant first, as ``random.Random(seed)`` reads them.

    >>> seed_words(0), seed_words(2**32 + 5)
    ([0], [5, 1])
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RulesetError(f"a seed must be a non-negative int, not {seed!r}")
    words = []
    while True:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
        if not seed:
            break
    if len(words) > _MAX_SEED_WORDS:
        raise RulesetError(f"the native core takes seeds below 2**{32 * _MAX_SEED_WORDS}")
    return words

def state_doc(st: State) -> dict[str, Any]:
    """The fields of a reference-engine state that decide the game, and its RNG state: two engines
    agree when these agree (the top WD4's verdict only while it can be challenged).

    >>> from unotable import Game
    >>> state_doc(Game.new(3, seed=5)._st) == state_doc(Pool(1, seats=3, seeds=[5]).state(0))
    True
    """
    doc: dict[str, Any] = {key: getattr(st, key) for key in _STATE_FIELDS}
    doc["hands"] = [list(h) for h in st.hands]
    doc["rng"] = st.rng.to_state()
    if st.wd4_player >= 0:
        doc["wd4"] = (st.wd4_player, st.wd4_illegal, list(st.wd4_hand))
    return doc

def _seed_of(words: list[int]) -> int:
    return sum(w << (32 * k) for k, w in enumerate(words))

def _encode(action: Action) -> tuple[int, int, int, int, bool]:
    if isinstance(action, Play):
        color = -1 if action.color is None else int(action.color)
        target = -1 if action.target is None else action.target
        return PLAY_KIND, action.cid, color, target, action.uno
    if isinstance(action, ChooseColor):
        target = -1 if action.target is None else action.target
        return _KINDS[CHOOSE_COLOR], -1, int(action.color), target, False
    if isinstance(action, Catch):
        return _KINDS[CATCH], -1, -1, action.target, False
    return _KINDS[action.kind], -1, -1, -1, False

PLAY_KIND = _KINDS[PLAY]
_ACTION_TYPES = (Play, Draw, Pass, Accept, Challenge, ChooseColor, CallUno, Catch, Deal)
_STATE_FIELDS = (
    "hands", "draw", "discard", "set_aside", "color", "active", "dealer", "direction", "top_player",
    "drawn", "wd4_player", "pending_card", "pending", "auto_passes", "round_no", "final_round",
    "in_round", "eliminated", "knocked", "exposed", "called", "caught", "fresh", "scores", "round_wins",
    "phase", "color_reason", "match_winners", "match_reason", "seed", "deal_order",
)

class Pool:
    """``num_envs`` tables of one ruleset and seat count, each a match like ``Game.new``.

    ``ruleset`` is a :class:`~unotable.rules.Ruleset`, a preset name or a ruleset dict; ``seeds``
    one non-negative int per table (default ``0 .. num_envs - 1``). ``ruleset_block``: the
    observation layout's ruleset block (``unotable.env.spaces.ruleset_block``), needed by the
    methods that write observations (:meth:`observe`, :meth:`buffers`, :meth:`step`,
    ``selfplay(observe=True)``); without it they raise ``ValueError`` (see the module docstring).
    """

    def __init__(
        self,
        num_envs: int,
        ruleset: Ruleset | str | Mapping[str, Any] | None = "official",
        seats: int = 4,
        seeds: Sequence[int] | None = None,
        *,
        ruleset_block: RulesetBlock | None = None,
    ) -> None:
        rules = resolve_ruleset(ruleset)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise RulesetError(f"seats must be an int, not {seats!r}")
        rules.validate_seats(seats)
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, not {num_envs!r}")
        if seeds is None:
            seeds = range(num_envs)
        seeds = list(seeds)
        if len(seeds) != num_envs:
            raise ValueError(f"seeds: {len(seeds)} given for {num_envs} tables")
        words = [seed_words(s) for s in seeds]
        self.ruleset = rules
        self.seats = seats
        self.num_envs = num_envs
        self._rules_doc = rules.to_dict()
        self.observes = ruleset_block is not None
        """Whether this pool writes observations (it was given the ruleset block)."""
        block = bytes(_core.RULESET_SIZE) if ruleset_block is None else ruleset_block(rules, seats)
        self._core = _core.Pool(num_envs, seats, native_config(rules), rules.deck_ids(), list(rules.points),
                                block)
        for i, w in enumerate(words):
            self._core.reset(i, w)

    # -- tables ---------------------------------------------------------------------------------

    def _index(self, i: int) -> int:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < self.num_envs:
            raise IndexError(f"table {i!r} does not exist: this pool has tables 0 to {self.num_envs - 1}")
        return i

    def _seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            last = self.seats - 1
            raise InvalidActionError(f"seat {seat!r} does not exist: this game has seats 0 to {last}")
        return seat

    def reset(self, i: int, seed: int) -> None:
        """Start table ``i`` afresh: ``Game.new(seats, ruleset, seed)``."""
        self._core.reset(self._index(i), seed_words(seed))

    def phase(self, i: int) -> Phase:
        return Phase(self._core.phase(self._index(i)))

    def active_seat(self, i: int) -> int:
        return int(self._core.active(self._index(i)))

    def is_over(self, i: int) -> bool:
        """``Game.is_over()``: the match has a winner."""
        return self.phase(i) is Phase.MATCH_OVER

    def legal(self, i: int, seat: int | None = None) -> list[str]:
        """``Game.legal_actions_for(seat)`` as notation, in its order (the active seat by default)."""
        i = self._index(i)
        if seat is None:
            if self._core.phase(i) >= Phase.ROUND_OVER:
                return []
            seat = self._core.active(i)
        return list(self._core.legal(i, self._seat(seat)))

    def play(self, i: int, action: Action | str, seat: int | None = None) -> None:
        """``Game.play(action, seat)``: check and apply, raising the engine's error (table unchanged)."""
        i = self._index(i)
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, _ACTION_TYPES):
            raise InvalidActionError(f"{action!r} is not an action (an Action or its notation)")
        if isinstance(action, Deal):
            if seat is not None:
                raise InvalidActionError("deal is the referee's action: it is made by no seat (seat=None)")
            self.next_round(i)
            return
        if seat is None:
            if action.kind in (CALL_UNO, CATCH):
                raise InvalidActionError(
                    f"{action} can be made out of turn: name the seat that makes it "
                    f"(play({str(action)!r}, seat))"
                )
            seat = self._core.active(i)
        seat = self._seat(seat)
        code, message = self._core.play(i, seat, *_encode(action))
        if code:
            raise _ERRORS[code](message)

    def next_round(self, i: int) -> None:
        """``Game.next_round()``: deal the next round (SET-3) once a round is over."""
        i = self._index(i)
        if not self._core.next_round(i):
            words = {Phase.PLAY: "awaiting a play or a draw", Phase.MATCH_OVER: "the match is over"}
            phase = Phase(self._core.phase(i))
            raise IllegalActionError(f"no next round to deal: {words.get(phase, phase.name.lower())}")

    # -- learning -------------------------------------------------------------------------------

    def observe(self, i: int, seat: int) -> bytes:
        """``spaces.encode(view(seat), history)`` of table ``i``: the seat's 854 observation bytes,
        with the public history of the round as the env records it (every action applied since the
        round's deal, the start of the match or the load of a position)."""
        self._observing()
        return bytes(self._core.seat_bytes(self._index(i), self._seat(seat), True))

    def _observing(self) -> None:
        if not self.observes:
            raise ValueError("this Pool writes no observations: make it with ruleset_block="
                             "unotable.env.spaces.ruleset_block (the observation layout's)")

    def mask(self, i: int, seat: int) -> bytes:
        """``spaces.legal_mask(legal_actions_for(seat), seat, n)``: 445 bytes, 1 where legal."""
        return bytes(self._core.seat_bytes(self._index(i), self._seat(seat), False))

    def selfplay(self, policy: str, rounds: int, seed: int = 0, *, observe: bool = False,
                 max_decisions: int = 100_000) -> dict[str, int]:
        """Play ``rounds`` rounds at every table inside the core (the GIL released), the active seat
        choosing each decision with a built-in policy: ``random`` (uniform over its legal actions),
        ``random-stuck`` (a random play while it has one, else a random other turn action) or
        ``rule-v1`` (:class:`unotable.bots.rule_v1.RuleV1Bot`, draw for draw). Table ``i``'s policy
        RNG is ``random.Random(seed + i)``'s generator. A finished match restarts the table from its
        seed + ``num_envs``; a round longer than ``max_decisions`` restarts it too (``truncated``).
        With ``observe`` every decision's observation and mask are written, as an agent would read
        them. Returns the counts of rounds, decisions, matches and truncated rounds."""
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
            raise ValueError(f"rounds must be an int >= 0, not {rounds!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64 - self.num_envs:
            raise ValueError(f"seed must be an int from 0 to 2**64 - num_envs, not {seed!r}")
        if observe:
            self._observing()
        return dict(self._core.selfplay(policy, rounds, seed, observe, max_decisions))

    def buffers(self) -> dict[str, Any]:
        """Fresh numpy buffers for :meth:`step`: obs (N, 854) uint8, mask (N, 445) uint8,
        reward (N, seats) float32, done (N,) uint8, seat (N,) int8; obs, mask and seat filled."""
        import numpy as np

        self._observing()
        n = self.num_envs
        bufs: dict[str, Any] = {
            "obs": np.zeros((n, _core.OBS_SIZE), np.uint8),
            "mask": np.zeros((n, _core.NUM_ACTIONS), np.uint8),
            "reward": np.zeros((n, self.seats), np.float32),
            "done": np.zeros(n, np.uint8),
            "seat": np.zeros(n, np.int8),
        }
        self._core.observe_all(bufs["obs"], bufs["mask"], bufs["seat"])
        return bufs

    def step(self, actions: Any, bufs: Mapping[str, Any]) -> None:
        """One decision per table: ``actions[i]`` (int32, an index of ``unotable.env.spaces``) by
        table ``i``'s active seat (``bufs["seat"][i]``), written into the buffers of :meth:`buffers`
        with the GIL released. A round's end deals the next round; a match's end sets ``done[i]``,
        writes +1 for the winners and -1 for the others into ``reward[i]`` and restarts the table
        from its seed + ``num_envs``. An action that is not legal raises
        :class:`~unotable.errors.IllegalActionError` and no table changes."""
        self._observing()
        bad = self._core.step(actions, bufs["obs"], bufs["mask"], bufs["reward"], bufs["done"], bufs["seat"])
        if bad >= 0:
            raise IllegalActionError(f"action index {int(actions[bad])} is not legal at table {bad} now")

    # -- positions ------------------------------------------------------------------------------

    def state(self, i: int) -> State:
        """Table ``i`` as a reference-engine :class:`State` (a copy: it holds every hidden card)."""
        raw: dict[str, Any] = self._core.get_state(self._index(i))
        st = State.__new__(State)
        st.rules = self.ruleset
        st.flags = flags_for(self.ruleset)
        st.n = self.seats
        st.seed = _seed_of(raw["seed_words"])
        st.rng = Rng.from_state(raw["rng"])
        st.hands = raw["hands"]
        st.draw = raw["draw"]
        st.discard = raw["discard"]
        st.set_aside = raw["set_aside"]
        st.wd4_hand = raw["wd4_hand"]
        st.deal_order = raw["deal_order"]
        for key in ("color", "active", "dealer", "direction", "top_player", "drawn", "wd4_player",
                    "pending_card", "pending", "auto_passes", "round_no", "wd4_illegal", "final_round",
                    "in_round", "eliminated", "knocked", "exposed", "called", "caught", "fresh",
                    "scores", "round_wins"):
            setattr(st, key, raw[key])
        st.phase = Phase(raw["phase"])
        st.color_reason = ColorReason(raw["color_reason"])
        st.match_winners = tuple(raw["match_winners"])
        st.match_reason = None if raw["match_reason"] < 0 else _REASONS[raw["match_reason"]]
        st.last_round = None
        st.graced = [False] * self.seats  # the core refuses uno_grace: nobody is ever graced
        return st

    def to_position(self, i: int) -> dict[str, Any]:
        """``Game.to_position()`` of table ``i``: the referee's exact document."""
        return write_position(self.state(i))

    def from_position(self, i: int, doc: Mapping[str, Any]) -> None:
        """Load a position into table ``i`` (``Game.from_position``); its ruleset and seat count must
        be this pool's. Raises :class:`~unotable.errors.PositionError` as the engine does."""
        i = self._index(i)
        st = read_position(doc)
        if st.rules != self.ruleset or st.n != self.seats:
            raise RulesetError(
                f"position: this pool plays {self.seats} seats of {self.ruleset!r}, "
                f"the position {st.n} seats of {st.rules!r}"
            )
        self.load_state(i, st)

    def load_state(self, i: int, st: State) -> None:
        """Copy a reference-engine state into table ``i`` (the same ruleset and seat count)."""
        i = self._index(i)
        raw = {
            "hands": st.hands, "draw": st.draw, "discard": st.discard, "set_aside": st.set_aside,
            "wd4_hand": st.wd4_hand, "deal_order": st.deal_order,
            "color": st.color, "active": st.active, "dealer": st.dealer, "direction": st.direction,
            "top_player": st.top_player, "drawn": st.drawn, "wd4_player": st.wd4_player,
            "pending_card": st.pending_card, "phase": int(st.phase), "color_reason": int(st.color_reason),
            "match_reason": -1 if st.match_reason is None else _REASONS.index(st.match_reason),
            "wd4_illegal": st.wd4_illegal, "final_round": st.final_round, "pending": st.pending,
            "auto_passes": st.auto_passes, "round_no": st.round_no,
            "in_round": st.in_round, "eliminated": st.eliminated, "knocked": st.knocked,
            "exposed": st.exposed, "called": st.called, "caught": st.caught, "fresh": st.fresh,
            "scores": st.scores, "round_wins": st.round_wins, "match_winners": list(st.match_winners),
            "seed_words": seed_words(st.seed), "rng": st.rng.to_state(),
        }
        self._core.set_state(i, raw)

