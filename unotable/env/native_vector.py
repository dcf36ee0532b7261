"""The vector env's backend in the native core: :class:`VecPool` (a
:class:`~unotable.env.backend.PoolBackend`, as :class:`unotable.env.vector.PythonBackend`).

It steps ``num_envs`` tables as :class:`unotable.env.table.Table` does, decision point for decision
point (the out-of-turn chances in the arbiter's order under ``out_of_turn="full"``, none under
``"auto"``), with the same rewards, episodes, seeds and NEXT_STEP auto-reset as
``unotable.env.vector.PythonBackend``, and writes the same bytes into the same buffers (see
docs/native.md, "The vector backend"). The loop runs in the core (``unotable_native._core``) with
the GIL released. This adapter lives on the env's side, so the core's package never imports the
env: it passes the core the observation layout's ruleset block (:func:`~unotable.env.spaces.ruleset_block`).

Opponents: the core has the bots ``random``, ``random-stuck`` and ``rule-v1`` (draw for draw the
Python bots of the same names, from the same ``seat_rng`` generators), and it stops at the seats of
a batched policy (:mod:`unotable.env.batched`): the tables that wait on one are handed to it in one
call per policy (``_core.VecPool.pending`` and ``act``) until every table waits on its learner, and
the rows are written then (``finish_rows``). Any other spec (a bot object, a bot with options, a
bot the core lacks) raises :class:`NativeUnsupported` (a ``NotImplementedError``), so
``backend="auto"`` falls back to Python.

Threads: ``threads=k`` steps the tables on ``k`` threads of the core (the GIL released), each a
contiguous range of rows; every table is independent, so the results are the same for every ``k``.

>>> pool = VecPool(2, "official", 2, opponents="rule-v1")
>>> pool.reset([5, 6])
>>> pool.obs.shape, pool.mask.shape, pool.seat.tolist()
((2, 854), (2, 445), [0, 0])
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from unotable_native import Pool, _core, native_config, resolve_ruleset, seed_words

from unotable.env.backend import check_options, check_threads
from unotable.env.batched import BatchedPolicy, batched_policies, call_policy, illegal_choice
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE, action_at, ruleset_block
from unotable.errors import IllegalActionError
from unotable.rules import Ruleset

__all__ = ["BOTS", "NativeUnsupported", "VecPool", "core_args", "core_specs"]

BOTS = {"random": 0, "random-stuck": 1, "rule-v1": 2}
"""The opponents the core plays itself (the bots of unotable.bots of these names, without options)."""


class NativeUnsupported(NotImplementedError):
    """An option the core does not offer (an opponent it has no port of): use the Python backend."""


def core_specs(opponents: object, seats: int, policies: Sequence[object] = ()) -> list[int]:
    """The core's bot number for each other seat, in seat order: a batched policy that is
    ``policies[j]`` is ``3 + j`` (the core stops at its seats); without ``policies`` it raises
    :class:`NativeUnsupported`."""
    from unotable.bots.registry import parse_bot_spec

    others = seats - 1
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        given: list[object] = [opponents] * others
    else:
        given = list(opponents)
        if len(given) != others:
            raise ValueError(f"{len(given)} opponents given for {others} other seats")
    out = []
    for spec in given:
        found = [j for j, p in enumerate(policies) if p is spec]
        if found:
            out.append(3 + found[0])
            continue
        if not isinstance(spec, str):
            raise NativeUnsupported(f"the native core plays only bot specs by name, not {spec!r}")
        name, options = parse_bot_spec(spec)
        if name not in BOTS or options:
            raise NativeUnsupported(f"the native core has no opponent {spec!r} (it plays {', '.join(BOTS)})")
        out.append(BOTS[name])
    return out


def core_args(rules: Ruleset, seats: int, out_of_turn: str, episode: str, reward: str,
              max_cycles: int | None) -> tuple[Any, ...]:
    """The arguments the core's ``EnvTable`` and ``VecPool`` share, after ``num_envs``: the seat
    count, the ruleset as the core reads it, the observation layout's ruleset block and the
    table options (checked: ``ValueError``)."""
    oot, ep, rw, cycles = check_options(out_of_turn, episode, reward, max_cycles)
    return (seats, native_config(rules), rules.deck_ids(), list(rules.points), ruleset_block(rules, seats),
            oot == "auto", ep == "match", ("win", "score", "rank").index(rw), cycles or 0)


class VecPool:
    """``num_envs`` tables of one ruleset and seat count as decision points (the module docstring).

    Buffers, bound once and rewritten in place by :meth:`reset` and :meth:`step`: ``obs`` uint8
    (N, 854), ``mask`` uint8 (N, 445), ``reward`` float32 (N, seats), ``acted`` int8 (N,),
    ``terminated`` / ``truncated`` bool (N,), ``seat`` int8 (N,).
    """

    name = "native"
    obs: Any
    mask: Any
    reward: Any
    acted: Any
    terminated: Any
    truncated: Any
    seat: Any

    def __init__(self, num_envs: int, ruleset: Ruleset | str | Mapping[str, Any], seats: int, *,
                 out_of_turn: str = "full", episode: str = "round", reward: str = "win",
                 max_cycles: int | None = None, opponents: object = None,
                 seat: int | str = 0, threads: int = 1) -> None:
        # the constructor of the PoolBackend contract (unotable.env.backend)
        rules = resolve_ruleset(ruleset)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise ValueError(f"seats must be an int, not {seats!r}")
        rules.validate_seats(seats)
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        shared = core_args(rules, seats, out_of_turn, episode, reward, max_cycles)
        check_threads(threads)
        self._policies: list[BatchedPolicy] = batched_policies(opponents) if opponents is not None else []
        specs: list[int] = []
        learner = 0
        random_seat = False
        if opponents is not None:
            specs = core_specs(opponents, seats, self._policies)
            if seat == "random":
                random_seat = True
            elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats:
                learner = seat
            else:
                raise ValueError(f"seat must be a seat from 0 to {seats - 1} or 'random', not {seat!r}")
        self.num_envs = num_envs
        self.n = seats
        self.rules = rules
        self._core = _core.VecPool(num_envs, *shared, opponents is not None, random_seat, learner, specs)
        layout = (("obs", (OBS_SIZE,), np.uint8), ("mask", (NUM_ACTIONS,), np.uint8),
                  ("reward", (seats,), np.float32), ("acted", (), np.int8), ("terminated", (), np.bool_),
                  ("truncated", (), np.bool_), ("seat", (), np.int8))
        for field, shape, dtype in layout:  # the Backend contract's buffers, C-contiguous
            setattr(self, field, np.zeros((num_envs, *shape), dtype=dtype))
        self.acted.fill(-1)
        self._core.threads = threads
        if self._policies:  # the rows of the tables that wait on a batched policy, written by pending
            self._wait = (np.zeros(num_envs, np.int32), np.zeros(num_envs, np.int8),
                          np.zeros(num_envs, np.int8), np.zeros((num_envs, OBS_SIZE), np.uint8),
                          np.zeros((num_envs, NUM_ACTIONS), np.uint8))
        self._started = False
        self._pool: Pool | None = None

    def _buffers(self) -> tuple[Any, ...]:
        return (self.obs, self.mask, self.reward, self.acted, self.terminated, self.truncated, self.seat)

    def reset(self, seeds: Sequence[int], positions: Sequence[Mapping[str, Any]] | None = None) -> None:
        """Start every table from its seed: table ``i`` deals ``Game.new(seats, ruleset, seeds[i])``;
        with ``positions`` (one position document per table) its first episode starts from
        ``positions[i]`` instead, its bots, learner and later episodes still from ``seeds[i]``.
        Every seed and position is checked first (the errors of ``PythonBackend.reset``, from
        :func:`unotable.env.positions.read_positions`); a bad one changes no table."""
        seeds = [int(s) for s in seeds]  # as PythonBackend reads them
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} envs")
        words = [seed_words(s) for s in seeds]  # RulesetError for a seed Game.new refuses
        texts = [str(int(s)) for s in seeds]
        if positions is None:
            self._started = False  # until the opponents' moves are done
            self._core.reset(words, texts, *self._buffers())
        else:
            from unotable.env.positions import read_positions

            states = read_positions(positions, self.rules, self.n, self.num_envs)
            pool = self._positions_pool()
            for i, st in enumerate(states):  # the core's raw state of each (Pool.load_state)
                pool.load_state(i, st)
            self._started = False
            self._core.load(pool._core, words, texts, *self._buffers())
        self._opponents_play()
        self._started = True

    @property
    def threads(self) -> int:
        """The core's threads that step the tables."""
        return int(self._core.threads)

    def _opponents_play(self) -> None:
        """With batched policies: hand the tables that wait on one to it, one call per policy, until
        every table waits on its learner, then write the rows (the module docstring)."""
        if not self._policies:
            return
        rows, seats, which, obs, mask = self._wait
        while True:
            k = int(self._core.pending(rows, seats, which, obs, mask))
            if not k:
                break
            acts = np.zeros(k, np.int64)
            for j in sorted(set(which[:k].tolist())):
                sel = np.flatnonzero(which[:k] == j)
                acts[sel] = call_policy(self._policies[j], obs[sel], mask[sel].astype(bool))
            acts32 = np.where((acts < 0) | (acts >= NUM_ACTIONS), -1, acts).astype(np.int32)
            bad, _why = self._core.act(rows[:k].copy(), acts32)
            if bad >= 0:
                raise IllegalActionError(illegal_choice(int(rows[bad]), int(seats[bad]), int(acts[bad])))
        self._core.finish_rows(*self._buffers())

    def _positions_pool(self) -> Pool:
        """A Pool of this ruleset, seat count and size: the positions' states are loaded there, then
        copied into the rows (kept for the next reset from positions)."""
        if self._pool is None:
            self._pool = Pool(self.num_envs, self.rules, self.n, ruleset_block=ruleset_block)
        return self._pool

    def step(self, actions: Any) -> None:
        """Apply one action index per row (NEXT_STEP auto-reset: a row whose episode ended resets and
        ignores its action). A bad action raises the error the Python backend raises for it, and no
        table changes."""
        if not self._started:
            raise IllegalActionError("reset the pool before stepping it")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {acts.shape}")
        acts32 = acts
        if acts.dtype != np.int32 or not acts.flags.c_contiguous:
            if acts.dtype.kind not in "iub":
                raise ValueError(f"actions must be ints, not {acts.dtype}")
            wide = acts.astype(np.int64)
            acts32 = np.where(np.abs(wide) >= 2**31, -1, wide).astype(np.int32)  # -1: no index
        bad, why = self._core.step(acts32, *self._buffers())
        if bad < 0:
            if self._policies:
                self._started = False  # a policy that raises or errs leaves the step half done
                self._opponents_play()
                self._started = True
            return
        index = int(acts[bad])
        seat = int(self._core.decider(bad))
        if why == 4:
            raise IllegalActionError(f"table {bad}: the episode is over: reset the table")
        if why == 3:
            raise IllegalActionError(
                f"table {bad}: seat {seat} may not decline: it is its turn and it must act")
        action = action_at(index, seat, self.n)  # InvalidActionError for no action index at all
        raise IllegalActionError(f"table {bad}: action {index} ({action}) is not legal for seat {seat} now")
