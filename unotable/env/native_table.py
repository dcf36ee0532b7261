"""One table in the core as :class:`unotable.env.table.Table` plays it: the native
:class:`~unotable.env.backend.TableBackend` of the PettingZoo envs (``unotable.env.aec`` and
``unotable.env.parallel``) and of the Gymnasium env (``unotable.env.gymenv``).

:class:`NativeTable` steps one table decision point for decision point as ``Table`` does (the same
VecCore code as the vector backend, :mod:`unotable.env.native_vector`, with one table and no
auto-reset) and answers the same interface: the status int, the attributes it sums up (``seat``,
``decline``, ``done``, ``terminated``, ``truncated``), the buffers bound once (``mask_buf``,
``obs_buf``, ``pobs``, ``pmask``), :meth:`step_code`, :meth:`observe`, :meth:`take_rewards`,
:meth:`stop`, :meth:`parallel_outputs`, :meth:`step_parallel`. With ``opponents`` (the core's
bots ``random``, ``random-stuck`` and ``rule-v1``, by name, as
:class:`~unotable.env.native_vector.VecPool` takes them) every seat but ``seat`` is a bot, drawing
from ``seat_rng(episode seed, seat)`` as the Python bots do; the core plays them inside
:meth:`reset` and :meth:`step` until the learning seat decides.

What needs the reference engine is built from the core lazily: :attr:`game` replays the core's
log of applied actions (the deals included) on a :class:`~unotable.game.Game` from the episode's
seed or position, incrementally, so :meth:`record`, ``env.state()`` and ``render_mode="ansi"``
read the Python engine's own objects. A position to start from is read by ``Game.from_position``
and copied into the core.

>>> from unotable.env.table import Table
>>> native, python = NativeTable("house", 4), Table("house", 4)
>>> for t in (native, python):
...     t.reset(5)
...     for _ in range(30):
...         t.step(max(i for i, m in enumerate(t.mask()) if m))
>>> native.game.to_position() == python.game.to_position(), native.cycles == python.cycles
(True, True)
>>> solo = NativeTable("official", 2, opponents="rule-v1", seat=1)
>>> solo.reset(7)
>>> solo.seat, solo.learners
(1, (1,))
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np
from unotable_native import Pool, _core, seed_words

from unotable.arbiter import derive_seed
from unotable.env.backend import CHANGED, DECLINE, DONE, SEAT
from unotable.env.native_vector import BOTS, NativeUnsupported, core_args, core_specs
from unotable.env.spaces import NOOP, NUM_ACTIONS, OBS_SIZE, action_at, ruleset_block
from unotable.env.table import resolve_ruleset
from unotable.errors import IllegalActionError, InvalidActionError
from unotable.game import Game
from unotable.record import Record
from unotable.rules import Ruleset

__all__ = ["NativeTable", "NativeUnsupported"]


class NativeTable:
    """One table's episode as decision points, in the core (see the module docstring).

    Options as :class:`unotable.env.table.Table`'s: ``out_of_turn``, ``episode``, ``reward``,
    ``max_cycles``; ``opponents``: None (every seat decides), or bot specs the core plays (one for
    every seat but ``seat``, or one each in seat order) with ``seat`` the learning seat; any other
    opponent (a spec with options, another bot, a bot object or Table's seat -> bot mapping) raises
    :class:`NativeUnsupported`.
    """

    def __init__(self, ruleset: Ruleset | str | Mapping[str, Any] = "official", seats: int = 4, *,
                 out_of_turn: str = "full", episode: str = "round", reward: str = "win",
                 max_cycles: int | None = None, opponents: Any = None, seat: int = 0) -> None:
        self.rules = rules = resolve_ruleset(ruleset)
        rules.validate_seats(seats)
        specs: list[int] = []
        if opponents is not None:
            if isinstance(opponents, Mapping):
                raise NativeUnsupported("the native table plays bot specs by name, not bot objects")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                raise ValueError(f"seat must be a seat from 0 to {seats - 1}, not {seat!r}")
            specs = core_specs(opponents, seats)
        self.n = seats
        shared = core_args(rules, seats, out_of_turn, episode, reward, max_cycles)
        self.out_of_turn, self.episode, self.reward = out_of_turn, episode, reward
        self.max_cycles = max_cycles
        names = {number: name for name, number in BOTS.items()}
        others = [s for s in range(seats) if s != seat] if opponents is not None else []
        self.opponents: dict[int, str] = {s: names[b] for s, b in zip(others, specs, strict=True)}
        """Each bot's seat and name (empty without opponents)."""
        self.learners = tuple(s for s in range(seats) if s not in self.opponents)
        playing = opponents is not None
        self._core = _core.EnvTable(*shared, playing, seat if playing else 0, specs)
        self.obs_buf = np.zeros(OBS_SIZE, np.uint8)
        self.mask_buf = np.zeros(NUM_ACTIONS, np.int8)
        self.rewards_buf = np.zeros(seats, np.float64)
        self._term = np.zeros(seats, np.bool_)
        self._trunc = np.zeros(seats, np.bool_)
        self.pobs = np.zeros((seats, OBS_SIZE), np.uint8)
        self.pmask = np.zeros((seats, NUM_ACTIONS), np.int8)
        self._core.bind(self.obs_buf, self.mask_buf.view(np.uint8), self.rewards_buf, self._term, self._trunc,
                        self.pobs, self.pmask.view(np.uint8))
        self.terminated = [False] * seats
        self.truncated = [False] * seats
        self.seat = -1
        self.decline = False
        self.done = True
        self.code = SEAT | DONE
        self.episode_seed = 0
        self._game: Game | None = None
        self._replayed = 0
        self._pool: Pool | None = None

    # ------------------------------------------------------------ episodes

    def _status(self, code: int) -> int:
        """Read the core's status int into the attributes (the flags' lists only when they changed)."""
        self.code = code
        seat = code & SEAT
        self.done = done = bool(code & DONE)
        self.seat = -1 if done else seat
        self.decline = bool(code & DECLINE)
        if code & CHANGED:
            self.terminated = self._term.tolist()
            self.truncated = self._trunc.tolist()
        return code

    def reset(self, seed: int | None = None, position: Mapping[str, Any] | None = None) -> None:
        """Start an episode: ``Game.new(seats, ruleset, seed)`` exactly, or the given position (the
        bots drawing from ``seat_rng(seed, seat)`` either way)."""
        if seed is None:
            seed = secrets.randbits(63)
        words = seed_words(seed)  # RulesetError for a seed Game.new refuses
        self.episode_seed = seed
        self._game = None
        self._replayed = 0
        if position is not None:
            game = Game.from_position(position, events=False)
            if game.seats != self.n:
                raise ValueError(f"the position has {game.seats} seats; this table has {self.n}")
            if game.ruleset != self.rules:
                raise ValueError("the position's ruleset is not this table's ruleset")
            pool = self._conv()
            pool.load_state(0, game.clone_state())
            self._status(self._core.load(pool._core, 0, words, str(seed)))
            self._game = game  # the replay's start: no action applied yet
            return
        self._status(self._core.reset(words, str(seed)))

    def _conv(self) -> Pool:
        if self._pool is None:
            self._pool = Pool(1, self.rules, self.n, ruleset_block=ruleset_block)
        return self._pool

    def stop(self) -> None:
        """End the episode now for every seat, as ``Table.stop`` (the single-agent env's learner is out)."""
        self._status(self._core.stop())

    def next_seed(self, base: int, k: int) -> int:
        """The seed of episode ``k`` of a run seeded ``base`` (episode 0 is ``base`` itself)."""
        return base if k == 0 else derive_seed(base, "episode", k)

    # ------------------------------------------------------------ the learner's actions

    def step(self, index: int) -> None:
        """Apply the decision of :attr:`seat` (an action index); an index not in the mask raises
        the error ``Table.step`` raises, and nothing changes."""
        self.step_code(index)

    def step_code(self, index: int) -> int:
        """:meth:`step`, returning the core's status int (the bits SEAT, DECLINE, DONE, REWARDS,
        CHANGED)."""
        if not isinstance(index, int) or isinstance(index, bool):
            try:
                index = int(index)
            except (TypeError, ValueError):
                if self.done:
                    raise IllegalActionError("the episode is over: reset the table") from None
                raise InvalidActionError(f"an action is an int index, not {index!r}") from None
        code = self._core.step(index if -(2**31) <= index < 2**31 else -1)
        if code < 0:
            self._refuse(index, -code)
        return self._status(code)

    def _refuse(self, index: int, why: int) -> None:
        seat = self.seat
        if why == 4:
            raise IllegalActionError("the episode is over: reset the table")
        if why == 3:
            raise IllegalActionError(f"seat {seat} may not decline: it is its turn and it must act")
        action = action_at(index, seat, self.n)  # InvalidActionError for no index at all
        legal = ", ".join(str(action_at(i, seat, self.n)) for i in self._core.legal_indices())
        raise IllegalActionError(f"action {index} ({action}) is not legal for seat {seat} now; "
                                 f"legal: {legal}")

    def mask(self) -> bytes:
        """The mask of the current decision point (``NUM_ACTIONS`` bytes; all zero once done)."""
        return self.mask_buf.tobytes()

    def mask_for(self, seat: int) -> bytes:
        """``seat``'s mask now, as ``Table.mask_for``."""
        if seat == self.seat and not self.done:
            return self.mask()
        mask = bytearray(NUM_ACTIONS)
        if not self.done and not self.terminated[seat]:
            mask[NOOP] = 1
        return bytes(mask)

    def observe(self, seat: int) -> None:
        """Write ``seat``'s observation into :attr:`obs_buf`."""
        self._core.observe(seat)

    def observation(self, seat: int | None = None, out: bytearray | memoryview | None = None
                    ) -> bytearray | memoryview:
        """``seat``'s observation (default: the deciding seat's), ``OBS_SIZE`` bytes."""
        s = self.seat if seat is None or seat < 0 else seat
        self._core.observe(max(s, 0))
        data = self.obs_buf.tobytes()
        if out is None:
            return bytearray(data)
        out[:] = data
        return out

    def take_rewards(self) -> list[float]:
        """The rewards since the last call, per seat (and reset them to zero)."""
        self._core.take_rewards()
        out: list[float] = self.rewards_buf.tolist()
        return out

    @property
    def cycles(self) -> int:
        """The actions applied to the table this episode (declines are not actions)."""
        return int(self._core.cycles)

    # ------------------------------------------------------------ simultaneous decisions (Parallel)

    def parallel_outputs(self) -> None:
        """Write every seat's observation into :attr:`pobs` and its Parallel mask into :attr:`pmask`."""
        self._core.parallel_outputs()

    def step_parallel(self, indices: Mapping[int, int]) -> int:
        """``Table.step_parallel``: the seat whose action was applied; its errors, nothing changed."""
        submitted = np.full(self.n, -2, np.int32)
        for seat, index in indices.items():
            if 0 <= seat < self.n:
                i = int(index)
                submitted[seat] = i if 0 <= i < NUM_ACTIONS else -1
        seat, code = self._core.step_parallel(submitted)
        if seat < 0:
            bad = -1 - seat
            if code == 4:
                raise IllegalActionError("the episode is over: reset the table")
            if code == 5:
                raise IllegalActionError(f"seat {bad} must submit an action in this step")
            if code == 3:
                raise IllegalActionError(f"seat {bad} may not decline: it is its turn and it must act")
            index = int(indices[bad])
            action = action_at(index, bad, self.n)  # InvalidActionError for no index at all
            raise IllegalActionError(f"action {index} ({action}) is not legal for seat {bad} now")
        self._status(code)
        return int(seat)

    # ------------------------------------------------------------ the reference engine, lazily

    @property
    def game(self) -> Game:
        """The episode's game in the Python engine (its actions replayed from the core's log): the
        referee's object, never a policy's."""
        g = self._game
        if g is None:
            g = self._game = Game.new(seats=self.n, ruleset=self.rules, seed=self.episode_seed, events=False)
        log = self._core.log(self._replayed)
        n = self.n
        for entry in log:
            if entry < 0:
                g.next_round()
            else:
                seat = entry >> 16
                g.apply_unchecked(action_at(entry & 0xFFFF, seat, n), seat)
        self._replayed += len(log)
        return g

    def record(self) -> Record:
        """The episode as a unotable record (``unotable replay`` opens its JSON)."""
        return Record.from_game(self.game)
