"""The Gymnasium vector environment: many tables stepped in one call, auto-reset NEXT_STEP.

Two modes. With ``opponents`` (bot specs, as :mod:`unotable.env.gymenv` takes them, or batched
policies, below) each row is the learning seat of one table; the opponents decide inside ``step``.
Without (``opponents=None``, self-play, every seat learning) each row is the next decision of one
table, whichever seat it is: ``infos["seat"]`` names it. Its rewards follow PettingZoo's
``last()``: a seat's rewards gather until it decides again or the episode ends. So ``rewards[i]``
is what the deciding seat earned since its last action at that table (the reward of that
action), and at an episode's end every seat's outstanding reward is delivered at once;
``infos["seat_rewards"]`` ``(num_envs, seats)`` holds what each seat is given by this step (over an
episode it sums to each seat's return), and on the final step ``rewards[i]`` is the last actor's.
Masks are ``infos["action_mask"]`` (int8, ``(num_envs, 445)``) and :meth:`action_masks`.

Batched opponents (:mod:`unotable.env.batched`): an opponent that is a callable and not a bot,
``policy(obs, mask) -> actions``, is called once per round of waiting tables with the
observations and masks of every table whose seat of that policy must decide, so a frozen network
plays inside the native core's loop (``backend="auto"`` keeps the core) and self-play against
past snapshots runs at the core's speed. The two backends call it identically.

Threads: ``threads=k`` (the native backend) steps the tables on ``k`` threads of the core, the GIL
released; the results are the same for every ``k`` (the Python backend takes the option and
runs on one).

Seeding: ``reset(seed=s)`` gives table ``i`` the seed ``s + i``, so it deals
``Game.new(seats, ruleset, s + i)`` exactly; its episode ``k`` after that uses
``derive_seed(s + i, "episode", k)``. Auto-reset is Gymnasium's NEXT_STEP: the step after a
row's episode ended resets that row (its action is ignored) and returns the new first observation
with reward 0.

Positions: ``reset(seed=s, options={"position": doc})`` starts every table's first episode from a
position document (a dict as ``Game.to_position()`` writes it) instead of the deal, and
``options={"positions": [doc_0, doc_1, ...]}`` table ``i``'s from ``doc_i``. The seeds still count:
table ``i``'s opponents draw from ``seat_rng(s + i, seat)``, its learner under ``seat="random"`` is
drawn from ``derive_seed(s + i, "learner")`` as for a dealt episode (so a row may learn at a seat
the position's game has not reached yet: the bots play up to its decision), and its episode ``k``
after that deals from ``derive_seed(s + i, "episode", k)``. A position whose episode is already over
(a finished round in round episodes, a finished match) is what a dealt episode that ends before its
first decision is: the row's ``terminated`` set (in ``envs.pool``), an all-zero mask, and the next
step resets it. Every position is read and checked first (:func:`unotable.env.positions.read_positions`):
another option key, a list of the wrong length, a malformed position or one of another ruleset or
seat count raises ``ValueError`` or :class:`~unotable.errors.PositionError` (naming the table), and
no table changes.

The tables live in a backend (a :class:`~unotable.env.backend.PoolBackend`):
:class:`PythonBackend` (this module, one :class:`~unotable.env.table.Table` per row) or the native
core's (:class:`~unotable.env.native_vector.VecPool`, with the same constructor, buffers, ``reset``
and ``step``), which ``backend="auto"`` picks when ``unotable_native`` is installed. Both give
identical results from the same seeds (the differential tests of tests/native/test_vecpool.py).
The core plays the opponents ``random``, ``random-stuck`` and ``rule-v1`` itself; for any other
opponent its ``VecPool`` raises ``NotImplementedError`` and ``backend="auto"`` uses the Python
backend (``backend="native"`` raises it).

>>> from unotable.env import vector_env
>>> envs = vector_env(4, "official", seats=2, opponents="random", backend="python")
>>> obs, infos = envs.reset(seed=10)
>>> obs.shape, infos["action_mask"].shape, envs.backend_name
((4, 854), (4, 445), 'python')
>>> obs, rewards, terms, truncs, infos = envs.step(envs.sample_legal())
>>> rewards.dtype.name, terms.shape
('float32', (4,))
>>> from unotable.game import Game
>>> doc = Game.new(2, "official", seed=3).to_position()
>>> obs, infos = envs.reset(seed=10, options={"position": doc})
>>> infos["seat"].tolist(), obs.shape
([0, 0, 0, 0], (4, 854))
>>> first_legal = lambda obs, mask: mask.argmax(axis=1)  # a batched opponent policy
>>> envs = vector_env(4, "official", seats=2, opponents=first_legal, backend="python")
>>> obs, infos = envs.reset(seed=10)
>>> obs, rewards, terms, truncs, infos = envs.step(envs.sample_legal())
>>> infos["seat"].tolist()
[0, 0, 0, 0]
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from unotable.arbiter import derive_seed
from unotable.env.backend import PoolBackend, check_threads, choose_backend
from unotable.env.batched import batched_policies, call_policy, illegal_choice, is_batched
from unotable.env.common import action_box, check_seed, observation_box
from unotable.env.gymenv import make_opponents
from unotable.env.positions import read_positions
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE
from unotable.env.table import Table, resolve_ruleset
from unotable.errors import IllegalActionError, RulesetError
from unotable.rules import Ruleset

__all__ = ["PythonBackend", "UnoVectorEnv"]


class PythonBackend:
    """The pure-Python pool: one :class:`~unotable.env.table.Table` per row."""

    name = "python"

    def __init__(
        self,
        num_envs: int,
        ruleset: Ruleset,
        seats: int,
        *,
        out_of_turn: str = "full",
        episode: str = "round",
        reward: str = "win",
        max_cycles: int | None = None,
        opponents: object = None,
        seat: int | str = 0,
        threads: int = 1,
    ) -> None:
        check_threads(threads)  # one thread here whatever the number: the option is the core's
        self.num_envs = num_envs
        self.n = seats
        self.opponents = opponents
        self._policies = batched_policies(opponents) if opponents is not None else []
        self._external: list[dict[int, int]] = [{} for _ in range(num_envs)]  # seat -> policy, per row
        self._ext_cache: list[dict[int, dict[int, int]]] = [{} for _ in range(num_envs)]
        self._seat_choice = seat
        self._options: dict[str, Any] = {"out_of_turn": out_of_turn, "episode": episode, "reward": reward,
                                         "max_cycles": max_cycles}
        self.rules = ruleset
        self._tables: list[dict[int, Table]] = [{} for _ in range(num_envs)]
        self.learner = [0 if seat == "random" else int(seat) for _ in range(num_envs)]
        self.tables = [self._table(i, self.learner[i]) for i in range(num_envs)]
        self.obs = np.zeros((num_envs, OBS_SIZE), dtype=np.uint8)
        self.mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.uint8)
        # each row's observation written in place by its table; the masks as the tables' dtype
        flat = self.obs.reshape(-1).data
        self._obs_rows = [flat[i * OBS_SIZE:(i + 1) * OBS_SIZE] for i in range(num_envs)]
        self._masks = self.mask.view(np.int8)
        self.reward = np.zeros((num_envs, seats), dtype=np.float32)
        self.acted = np.full(num_envs, -1, dtype=np.int8)
        self.terminated = np.zeros(num_envs, dtype=bool)
        self.truncated = np.zeros(num_envs, dtype=bool)
        self.seat = np.zeros(num_envs, dtype=np.int8)
        self._base = [0] * num_envs
        self._episode = [0] * num_envs
        self._fresh = [False] * num_envs  # batched policies: the row was reset in this step
        self._actor = [0] * num_envs
        self._ready = False

    def _table(self, i: int, learner: int) -> Table:
        cache = self._tables[i]
        if learner not in cache:
            bots: dict[int, Any] = {} if self.opponents is None else dict(
                make_opponents(self.opponents, self.n, learner))  # type: ignore[arg-type]
            external = {}  # the seats decided outside the table: seat -> policy j of self._policies
            for s, bot in list(bots.items()):
                if is_batched(bot):
                    external[s] = next(j for j, p in enumerate(self._policies) if p is bot)
                    del bots[s]
            cache[learner] = Table(self.rules, self.n, opponents=bots or None, external=external,
                                   **self._options)
            self._ext_cache[i][learner] = external
        return cache[learner]

    def _start(self, i: int, position: Mapping[str, Any] | None = None) -> None:
        # the learner (seat="random") and the bots' generators come from the episode's seed, also
        # when the episode starts from a position
        seed = self.tables[i].next_seed(self._base[i], self._episode[i])
        if self.opponents is not None and self._seat_choice == "random":
            self.learner[i] = random.Random(derive_seed(seed, "learner")).randrange(self.n)
            self.tables[i] = self._table(i, self.learner[i])
        self.tables[i].reset(seed, position)
        self._external[i] = self._ext_cache[i][self.learner[i]]
        if self._policies:
            self._fresh[i] = True  # its row is written once the batched policies have decided
            return
        self._start_row(i)

    def _start_row(self, i: int) -> None:
        self.reward[i] = 0.0
        self.acted[i] = -1
        self._flags(i)  # set when the episode ended before its first decision (max_cycles, a position)
        self._write(i)

    def _flags(self, i: int) -> None:
        t = self.tables[i]
        if self.opponents is None:
            self.terminated[i] = t.done and not any(t.truncated)
            self.truncated[i] = t.done and any(t.truncated)
        else:
            learner = self.learner[i]
            self.terminated[i] = t.terminated[learner]
            self.truncated[i] = t.truncated[learner] and not t.terminated[learner]
            if not t.done and (self.terminated[i] or self.truncated[i]):
                t.stop()

    def _write(self, i: int) -> None:
        t = self.tables[i]
        seat = max(t.seat, 0) if self.opponents is None else self.learner[i]
        self.seat[i] = seat
        t.observation(seat, self._obs_rows[i])
        if t.seat == seat:
            self._masks[i] = t.mask_buf
        else:
            self.mask[i] = 0

    def reset(self, seeds: Sequence[int], positions: Sequence[Mapping[str, Any]] | None = None) -> None:
        """Start every table from its seed, or its first episode from ``positions[i]`` (the
        :class:`~unotable.env.backend.PoolBackend` contract); every seed and position is checked
        before any table changes."""
        bases = [int(s) for s in seeds]
        if len(bases) != self.num_envs:
            raise ValueError(f"{len(bases)} seeds for {self.num_envs} envs")
        for s in bases:
            if s < 0:
                raise RulesetError(f"a seed must be a non-negative int, not {s!r}")
        if positions is not None:
            read_positions(positions, self.rules, self.n, self.num_envs)  # the errors, before any change
        self._ready = False
        for i in range(self.num_envs):
            self._base[i] = bases[i]
            self._episode[i] = 0
            self._start(i, None if positions is None else positions[i])
        self._opponents_play()
        self._ready = True

    def step(self, actions: np.ndarray) -> None:
        if self._policies and not self._ready:
            raise IllegalActionError("reset the pool before stepping it")
        self._ready = False
        for i in range(self.num_envs):
            if self.terminated[i] or self.truncated[i]:
                self._episode[i] += 1
                self._start(i)
                continue
            t = self.tables[i]
            actor = t.seat
            t.step(int(actions[i]))
            if self._policies:
                self._fresh[i] = False
                self._actor[i] = actor
                continue
            self._finish_row(i, actor)
        self._opponents_play()
        self._ready = True

    def _finish_row(self, i: int, actor: int) -> None:
        self.reward[i] = self.tables[i].take_rewards()
        self.acted[i] = actor
        self._flags(i)
        self._write(i)

    def _waiting(self, i: int) -> bool:
        """Whether table ``i`` waits on a batched policy (its learner still in the episode)."""
        t = self.tables[i]
        learner = self.learner[i]
        return (not t.done and t.seat in self._external[i]
                and not (t.terminated[learner] or t.truncated[learner]))

    def _opponents_play(self) -> None:
        """Hand the tables that wait on a batched policy to it, one call per policy, until every
        table waits on its learner, then write the rows (as the core's VecPool does)."""
        if not self._policies:
            return
        while True:
            rows = [i for i in range(self.num_envs) if self._waiting(i)]
            if not rows:
                break
            k = len(rows)
            seats = [self.tables[i].seat for i in rows]
            which = np.array([self._external[i][s] for i, s in zip(rows, seats, strict=True)])
            obs = np.zeros((k, OBS_SIZE), dtype=np.uint8)
            mask = np.zeros((k, NUM_ACTIONS), dtype=np.uint8)
            flat = obs.reshape(-1).data
            for j, i in enumerate(rows):
                self.tables[i].observation(seats[j], flat[j * OBS_SIZE:(j + 1) * OBS_SIZE])
                mask[j] = self.tables[i].mask_buf.view(np.uint8)
            acts = np.zeros(k, dtype=np.int64)
            for p in sorted(set(which.tolist())):
                sel = np.flatnonzero(which == p)
                acts[sel] = call_policy(self._policies[p], obs[sel], mask[sel].astype(bool))
            for j, i in enumerate(rows):  # every action checked before any is applied
                a = int(acts[j])
                if not (0 <= a < NUM_ACTIONS and mask[j, a]):
                    raise IllegalActionError(illegal_choice(i, seats[j], a))
            for j, i in enumerate(rows):
                self.tables[i].step(int(acts[j]))
        for i in range(self.num_envs):
            if self._fresh[i]:
                self._start_row(i)
            else:
                self._finish_row(i, self._actor[i])


class UnoVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` tables as one Gymnasium vector env (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium declares it an instance variable)
        "autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        ruleset: Ruleset | str | Mapping[str, Any] = "official",
        seats: int = 2,
        *,
        opponents: object = "rule-v1",
        seat: int | str = 0,
        out_of_turn: str = "full",
        episode: str = "round",
        reward: str = "win",
        max_cycles: int | None = None,
        backend: str = "auto",
        threads: int = 1,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        self._config: tuple[Any, ...] = (num_envs, ruleset, seats, {
            "opponents": opponents, "seat": seat, "out_of_turn": out_of_turn, "episode": episode,
            "reward": reward, "max_cycles": max_cycles, "backend": backend, "threads": threads})
        rules = resolve_ruleset(ruleset)
        rules.validate_seats(seats)
        options: dict[str, Any] = {"out_of_turn": out_of_turn, "episode": episode, "reward": reward,
                                   "max_cycles": max_cycles, "opponents": opponents, "seat": seat,
                                   "threads": check_threads(threads)}

        def native() -> PoolBackend:
            from unotable.env.native_vector import VecPool

            return VecPool(num_envs, rules, seats, **options)  # NotImplementedError: an opponent it lacks

        self.pool: PoolBackend
        self.pool, self.backend_name = choose_backend(
            backend, native, lambda: PythonBackend(num_envs, rules, seats, **options))
        self.num_envs = num_envs
        self.seats = seats
        self.self_play = opponents is None
        self.single_observation_space = observation_box()
        self.single_action_space = action_box()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        # self-play: each seat's rewards not yet delivered, per table (PettingZoo's last())
        self._owed = np.zeros((num_envs, seats), dtype=np.float64)
        self._delivered = np.zeros((num_envs, seats), dtype=np.float32)

    def __getstate__(self) -> dict[str, Any]:
        """Pickling carries the constructor's arguments, not the tables (a core's pool cannot be
        copied): the copy builds its own and needs a ``reset()``."""
        return {"config": self._config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        num_envs, ruleset, seats, options = state["config"]
        UnoVectorEnv.__init__(self, num_envs, ruleset, seats, **options)

    def _infos(self) -> dict[str, Any]:
        p = self.pool
        return {"action_mask": p.mask.view(np.int8).copy(), "seat": p.seat.copy(),
                "seat_rewards": (self._delivered if self.self_play else p.reward).copy()}

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every table: table ``i`` from ``seed + i`` (or ``seed[i]``; no seed: fresh random
        ones). ``options={"position": doc}`` starts every table from that position document
        instead of the deal, ``options={"positions": [doc_0, ...]}`` table ``i`` from ``doc_i``; the
        seeds still seed the opponents, the learner of ``seat="random"`` and the later episodes
        (the module docstring). Another option, a list of the wrong length, a malformed position
        or one of another ruleset or seat count raises (``ValueError``, ``PositionError``) before
        any table changes."""
        positions = self._positions(options or {})
        if seed is not None and not isinstance(seed, Sequence):
            seed = check_seed(seed)  # any integer type (numpy's too) seeds as its int
        if seed is None:
            base = secrets.randbits(62)
            seeds = [base + i for i in range(self.num_envs)]
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} envs")
            seeds = [int(s) for s in seed]
        if positions is None:
            self.pool.reset(seeds)
        else:
            self.pool.reset(seeds, positions)
        self._owed.fill(0.0)
        self._delivered.fill(0.0)
        if isinstance(seed, int):
            self._rng = np.random.default_rng(seed)
        return self.pool.obs.copy(), self._infos()

    def _positions(self, options: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
        """The reset's position documents, one per table, or None to deal (the documents themselves
        are read by the backend, every one before any table changes)."""
        unknown = sorted(map(str, set(options) - {"position", "positions"}))
        if unknown:
            raise ValueError(f"the vector env takes the reset options 'position' or 'positions', "
                             f"not {', '.join(map(repr, unknown))}")
        if "position" in options and "positions" in options:
            raise ValueError("give the reset option 'position' (every table) or 'positions' (one per "
                             "table), not both")
        if "position" in options:
            return [options["position"]] * self.num_envs
        if "positions" in options:
            docs = options["positions"]
            if isinstance(docs, (str, bytes, Mapping)) or not isinstance(docs, Sequence):
                raise ValueError(f"the reset option 'positions' is a list of {self.num_envs} position "
                                 f"documents, one per table, not {type(docs).__name__}")
            if len(docs) != self.num_envs:
                raise ValueError(f"the reset option 'positions' lists {len(docs)} positions for "
                                 f"{self.num_envs} tables: give one per table")
            return list(docs)
        return None

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = np.asarray(actions, dtype=np.int32).reshape(self.num_envs)
        p = self.pool
        p.step(acts)
        if self.self_play:
            rewards = self._deliver()
        else:
            rows = np.arange(self.num_envs)
            rewards = p.reward[rows, p.seat.astype(np.int64)].astype(np.float32)
        return p.obs.copy(), rewards, p.terminated.copy(), p.truncated.copy(), self._infos()

    def _deliver(self) -> np.ndarray:
        """Self-play's rewards as PettingZoo's ``last()`` gives them: each seat's rewards gather
        until it decides again (then the row's reward is the deciding seat's) or the episode ends
        (then every seat's is delivered in ``seat_rewards``, and the row's reward is the last
        actor's). Returns the rows' rewards; ``self._delivered`` holds every seat's."""
        p = self.pool
        owed = self._owed
        owed += p.reward
        rows = np.arange(self.num_envs)
        ended = p.terminated | p.truncated
        seat = p.seat.astype(np.int64)
        give = np.zeros_like(owed)
        give[rows, seat] = owed[rows, seat]
        give[ended] = owed[ended]
        owed -= give
        owed[ended] = 0.0
        self._delivered[:] = give
        who = np.where(ended, np.maximum(p.acted.astype(np.int64), 0), seat)
        return self._delivered[rows, who].copy()

    def action_masks(self) -> np.ndarray:
        """Every row's mask as booleans, ``(num_envs, 445)``."""
        return self.pool.mask.astype(bool)

    def sample_legal(self) -> np.ndarray:
        """A uniformly random legal action per row (a random policy, for baselines and tests)."""
        mask = self.pool.mask
        out = np.zeros(self.num_envs, dtype=np.int64)
        for i in range(self.num_envs):
            legal = np.flatnonzero(mask[i])
            out[i] = self._rng.choice(legal) if len(legal) else 0
        return out

    def close_extras(self, **kwargs: Any) -> None:
        pass

