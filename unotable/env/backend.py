"""One backend beneath the RL wrappers: what a table (or a pool of tables) answers, whichever
engine runs it.

The AEC, Parallel and Gymnasium envs run one table, a :class:`TableBackend`: the Python table
(:class:`unotable.env.table.Table`, over the engine) or the core's
(:class:`unotable.env.native_table.NativeTable`). The vector env runs a pool, a
:class:`PoolBackend`: :class:`unotable.env.vector.PythonBackend` (one Python table per row) or the
core's (:class:`unotable.env.native_vector.VecPool`). Both kinds answer the same interface on both
engines, as EnvPool's thin wrappers sit on one core: a status int after every reset and step (the
bits below), the decision point's legal mask, and numpy buffers bound once and rewritten in place.
So the wrappers hold no Python/native branch: the engine is chosen once, by :func:`choose_backend`,
and every later call is the same. The backends give the same observations, masks, rewards,
flags and games from the same seeds and actions (the differential tests of tests/native).

``backend="auto"`` (every env's default) picks the core when ``unotable_native`` is installed and
takes the options (it plays the opponents ``random``, ``random-stuck`` and ``rule-v1`` itself; for
another one its constructor raises ``NotImplementedError``), else Python; ``"native"`` insists.

>>> status = 2 | DECLINE | REWARDS
>>> status & SEAT, bool(status & DECLINE), bool(status & DONE)
(2, True, False)
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from unotable.game import Game
from unotable.record import Record
from unotable.rules import Ruleset

__all__ = ["BACKENDS", "CHANGED", "DECLINE", "DONE", "EPISODES", "OUT_OF_TURN", "REWARDS", "REWARD_KINDS",
           "SEAT", "PoolBackend", "TableBackend", "check_options", "check_threads", "choose_backend",
           "make_table", "native_available"]

SEAT, DECLINE, DONE, REWARDS, CHANGED = 15, 16, 32, 64, 128
"""The bits of a table's status int (:attr:`TableBackend.code`), after a reset or a step: the seat
that decides (``code & SEAT``, meaningless once done), whether it may decline (an out-of-turn
chance: NOOP is in its mask), whether the episode is over, whether rewards were given (take them
with :meth:`TableBackend.take_rewards`), whether a seat's terminated or truncated flag changed.
The core's ``EnvTable`` writes the same bits."""

BACKENDS = ("auto", "python", "native")
OUT_OF_TURN = ("full", "auto")
EPISODES = ("round", "match")
REWARD_KINDS = ("win", "score", "rank")

T = TypeVar("T")


def check_options(out_of_turn: object, episode: object, reward: object,
                  max_cycles: object) -> tuple[str, str, str, int | None]:
    """The table options, checked (``ValueError`` naming the bad one), as every backend reads them.

    >>> check_options("auto", "match", "rank", None)
    ('auto', 'match', 'rank', None)
    """
    for name, value, allowed in (("out_of_turn", out_of_turn, OUT_OF_TURN), ("episode", episode, EPISODES),
                                 ("reward", reward, REWARD_KINDS)):
        if value not in allowed:
            raise ValueError(f"{name}={value!r} is not one of {', '.join(allowed)}")
    if max_cycles is not None and (not isinstance(max_cycles, int) or isinstance(max_cycles, bool)
                                   or max_cycles < 1):
        raise ValueError(f"max_cycles must be a positive int or None, not {max_cycles!r}")
    return str(out_of_turn), str(episode), str(reward), max_cycles


def check_threads(threads: object) -> int:
    """The vector env's ``threads`` option, checked (``ValueError``): an int from 1 to 256.

    >>> check_threads(2)
    2
    """
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 256:
        raise ValueError(f"threads must be an int from 1 to 256, not {threads!r}")
    return threads


class TableBackend(Protocol):
    """One table's episode as decision points (the AEC, Parallel and Gymnasium envs' backend).

    Status: :attr:`code` (the bits :data:`SEAT` .. :data:`CHANGED`) after every :meth:`reset`,
    :meth:`step_code` and :meth:`stop`, and the same facts as attributes (:attr:`seat`, -1 once
    done; :attr:`decline`; :attr:`done`; :attr:`terminated` / :attr:`truncated` per seat).
    Buffers, bound once and rewritten in place: :attr:`mask_buf` int8 ``(NUM_ACTIONS,)`` the
    decision point's mask (all zero once done), :attr:`obs_buf` uint8 ``(OBS_SIZE,)`` written by
    :meth:`observe`, :attr:`pobs` uint8 ``(n, OBS_SIZE)`` and :attr:`pmask` int8
    ``(n, NUM_ACTIONS)`` every seat's observation and simultaneous-step mask, written by
    :meth:`parallel_outputs`. A reader that keeps a buffer's content copies it.
    """

    n: int
    rules: Ruleset
    learners: tuple[int, ...]
    seat: int
    decline: bool
    done: bool
    code: int
    terminated: list[bool]
    truncated: list[bool]
    obs_buf: np.ndarray
    mask_buf: np.ndarray
    pobs: np.ndarray
    pmask: np.ndarray

    @property
    def cycles(self) -> int:
        """The actions applied this episode (declines are not actions)."""

    @property
    def game(self) -> Game:
        """The episode's game in the Python engine (the referee's object, never a policy's)."""

    def reset(self, seed: int | None = None, position: Mapping[str, Any] | None = None) -> None:
        """Start an episode: ``Game.new(seats, ruleset, seed)`` exactly, or the given position."""

    def step(self, index: int) -> None:
        """Apply the deciding seat's action index (an index outside the mask raises, nothing changes)."""

    def step_code(self, index: int) -> int:
        """:meth:`step`, returning the status int."""

    def stop(self) -> None:
        """End the episode now for every seat (the single-agent env's learner is out)."""

    def mask(self) -> bytes | bytearray:
        """The decision point's mask as bytes (a copy of :attr:`mask_buf`)."""

    def mask_for(self, seat: int) -> bytes | bytearray:
        """``seat``'s mask now: the decision point's, NOOP alone, or nothing once it is out."""

    def observe(self, seat: int) -> None:
        """Write ``seat``'s observation into :attr:`obs_buf`."""

    def observation(self, seat: int | None = None, out: bytearray | memoryview | None = None
                    ) -> bytearray | memoryview:
        """``seat``'s observation (default: the deciding seat's) as bytes."""

    def take_rewards(self) -> list[float]:
        """The rewards since the last call, per seat (and reset them to zero)."""

    def parallel_outputs(self) -> None:
        """Write every seat's observation into :attr:`pobs`, its simultaneous-step mask into :attr:`pmask`."""

    def step_parallel(self, indices: Mapping[int, int]) -> int:
        """Apply one action of a simultaneous step (the first out-of-turn one in the arbiter's
        order, else the active seat's); returns the seat whose action was applied."""

    def record(self) -> Record:
        """The episode as a unotable record."""

    def next_seed(self, base: int, k: int) -> int:
        """The seed of episode ``k`` of a run seeded ``base`` (episode 0 is ``base`` itself)."""


class PoolBackend(Protocol):
    """``num_envs`` tables as decision points (the vector env's backend).

    Constructor: ``(num_envs, ruleset: Ruleset, seats, *, out_of_turn, episode, reward,
    max_cycles, opponents: list[str] | None, seat: int | str)``. Buffers, bound once and rewritten
    in place: ``obs`` uint8 (N, 854), ``mask`` uint8 (N, 445), ``reward`` float32 (N, seats) (the
    rewards of the last step, per seat), ``acted`` int8 (N,) (the seat whose action the last step
    applied, -1 for a reset row), ``terminated``/``truncated`` bool (N,), ``seat`` int8 (N,) (the
    seat that decides next; in opponent mode the learner). ``reset(seeds, positions=None)``
    starts every table from its seed, or with ``positions`` (one position document per table)
    table ``i``'s first episode from ``positions[i]``, its later ones from its seed; it checks every
    seed and position first (``RulesetError``, ``PositionError``, ``ValueError``, read by
    :func:`unotable.env.positions.read_positions`) and changes no table when one is bad.
    ``step(actions)`` applies int actions (N,) with NEXT_STEP auto-reset.
    """

    name: str
    num_envs: int
    obs: np.ndarray
    mask: np.ndarray
    reward: np.ndarray
    acted: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    seat: np.ndarray

    def reset(self, seeds: Sequence[int], positions: Sequence[Mapping[str, Any]] | None = None) -> None: ...

    def step(self, actions: np.ndarray) -> None: ...


def native_available() -> bool:
    """Whether the native core (``unotable_native``) is installed."""
    try:
        import unotable_native  # noqa: F401
    except ImportError:
        return False
    return True


def choose_backend(backend: str, native: Callable[[], T], python: Callable[[], T]) -> tuple[T, str]:
    """The backend convention of unotable.env: ``(made, name)`` from ``native()`` when
    ``backend="native"`` (ImportError when the core is not installed) or ``"auto"`` and the core
    is installed, else from ``python()``; a ``NotImplementedError`` of ``native()`` (options the
    core does not take) falls back to Python under ``"auto"`` and is raised under ``"native"``.

    >>> choose_backend("python", lambda: 1, lambda: 2)
    (2, 'python')
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} is not one of {', '.join(BACKENDS)}")
    use_native = backend == "native" or (backend == "auto" and native_available())
    if use_native and not native_available():
        raise ImportError("backend='native' needs the native core: pip install 'unotable[native]' "
                          "(or pip install -e native/ in a checkout)")
    if use_native:
        try:
            return native(), "native"
        except NotImplementedError:
            if backend == "native":
                raise
    return python(), "python"


def make_table(backend: str, ruleset: Ruleset | str | Mapping[str, Any], seats: int,
               **options: Any) -> tuple[TableBackend, str]:
    """A table in the chosen backend (:func:`choose_backend`), with the options both take
    (``out_of_turn``, ``episode``, ``reward``, ``max_cycles``), and its backend's name.

    >>> table, name = make_table("python", "official", 2)
    >>> name, table.done
    ('python', True)
    """
    def native() -> TableBackend:
        from unotable.env.native_table import NativeTable

        return NativeTable(ruleset, seats, **options)

    def python() -> TableBackend:
        from unotable.env.table import Table

        return Table(ruleset, seats, **options)

    return choose_backend(backend, native, python)
