"""What the wrappers share: the spaces as numpy/Gymnasium objects, the options, the renderer, and
the choice of the PettingZoo envs' backend.

The AEC and Parallel envs run their table in a *backend*: ``"python"`` (:class:`~unotable.env.table.Table`
over the engine) or ``"native"`` (``unotable_native.table.NativeTable``, the same decision points
in the C++ core, when ``unotable_native`` declares ``AEC_API == 1``); ``"auto"`` (the default)
picks the native one when it is importable and takes the options (it plays no ``opponents``),
else Python, as :mod:`unotable.env.vector` does. Both give the same observations, masks,
rewards, terminations and agent order from the same seeds and actions (tests/native/test_aec_native.py).

>>> space = observation_box()
>>> space.shape, space.dtype.name
((854,), 'uint8')
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, cast

import numpy as np
from gymnasium import spaces as gspaces

from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE
from unotable.env.table import STATE_SIZE, Table, state_bytes
from unotable.game import Game
from unotable.record import Record
from unotable.tui.render import Style, seat_names, table_lines

__all__ = ["AEC_API", "BACKENDS", "LegalDiscrete", "TableEnv", "TableLike", "action_box", "ansi",
           "choose_backend", "mask_box", "native_table_available", "observation_box"]

AEC_API = 1
"""The version of the native table contract (``unotable_native.table.NativeTable``) the envs need."""

BACKENDS = ("auto", "python", "native")


class TableLike(Protocol):
    """What the PettingZoo envs read of their table: :class:`~unotable.env.table.Table` and the
    native core's ``NativeTable`` both have it."""

    n: int
    seat: int
    decline: bool
    done: bool
    terminated: list[bool]
    truncated: list[bool]

    @property
    def cycles(self) -> int: ...

    @property
    def game(self) -> Game: ...

    def reset(self, seed: int | None = None, position: Mapping[str, Any] | None = None) -> None: ...

    def step(self, index: int) -> None: ...

    def mask(self) -> bytes | bytearray: ...

    def observation(self, seat: int | None = None, out: bytearray | None = None) -> bytearray: ...

    def take_rewards(self) -> list[float]: ...

    def record(self) -> Record: ...

    def next_seed(self, base: int, k: int) -> int: ...


def native_table_available() -> bool:
    """Whether ``unotable_native`` is importable and declares the native table contract."""
    try:
        import unotable_native.table as native
    except ImportError:
        return False
    return getattr(native, "AEC_API", None) == AEC_API


def choose_backend(backend: str, available: Callable[[], bool], native: Callable[[], Any],
                   python: Callable[[], Any], what: str) -> tuple[Any, str]:
    """The backend convention of unotable.env: ``(made, name)`` from ``native()`` when
    ``backend="native"`` (ImportError when not ``available()``) or ``"auto"`` and available, else
    from ``python()``; a ``NotImplementedError`` of ``native()`` (options the core does not take)
    falls back to Python under ``"auto"`` and is raised under ``"native"``.

    >>> choose_backend("python", lambda: True, lambda: 1, lambda: 2, "x")
    (2, 'python')
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} is not one of {', '.join(BACKENDS)}")
    use_native = backend == "native" or (backend == "auto" and available())
    if use_native and not available():
        raise ImportError(f"backend='native' needs unotable_native with {what} (pip install native/)")
    if use_native:
        try:
            return native(), "native"
        except NotImplementedError:
            if backend == "native":
                raise
    return python(), "python"


def observation_box() -> gspaces.Box:
    return gspaces.Box(0, 255, (OBS_SIZE,), np.uint8)


def mask_box() -> gspaces.Box:
    return gspaces.Box(0, 1, (NUM_ACTIONS,), np.int8)


class LegalDiscrete(gspaces.Discrete):
    """``Discrete(445)`` whose ``sample()`` without a mask draws a *legal* action of its agent now.

    An env's action spaces know their agent's current mask (through ``mask_of``), so random
    baselines and checkers that sample without a mask still play legal actions. With a mask given,
    it is the plain Discrete's masked sample.
    """

    def __init__(self, mask_of: Callable[[], np.ndarray | None], seed: int | None = None) -> None:
        super().__init__(NUM_ACTIONS, seed=seed)
        self._mask_of = mask_of

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            current = self._mask_of()
            if current is not None and current.any():
                return super().sample(mask=current.astype(np.int8))
        return super().sample(mask=mask, probability=probability)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, gspaces.Discrete) and other.n == self.n and other.start == self.start

    def __hash__(self) -> int:
        return hash((gspaces.Discrete, int(self.n)))


class TableEnv:
    """What the PettingZoo envs share: the table, the agents' spaces, seeding, render, state, record."""

    metadata: ClassVar[dict[str, Any]]
    table: TableLike
    backend_name: str
    render_mode: str | None

    def _setup(self, ruleset: Any, seats: int, render_mode: str | None, seed: int | None,
               options: dict[str, Any], backend: str = "auto") -> None:
        if render_mode is not None and render_mode not in ("ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r} is not one of ansi, human")
        self.render_mode = render_mode

        def native() -> Any:
            from unotable_native.table import NativeTable

            return NativeTable(ruleset, seats, **options)

        self.table, self.backend_name = choose_backend(
            backend, native_table_available, native, lambda: Table(ruleset, seats, **options), "AEC_API == 1")
        self.possible_agents = [f"seat_{i}" for i in range(seats)]
        self.observation_spaces = {
            a: gspaces.Dict({"observation": observation_box(), "action_mask": mask_box()})
            for a in self.possible_agents
        }
        self.action_spaces = {a: LegalDiscrete(self._mask_getter(i))
                              for i, a in enumerate(self.possible_agents)}
        self.state_space = gspaces.Box(0, 255, (STATE_SIZE,), np.uint8)
        self._base_seed = seed
        self._episode = 0

    def _mask_getter(self, seat: int) -> Callable[[], np.ndarray | None]:
        raise NotImplementedError

    def _reset_table(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Deal ``Game.new(seats, ruleset, seed)`` exactly; without a seed, episode k after the last
        seeded reset (or the constructor's ``seed``) uses ``derive_seed(seed, "episode", k)``;
        ``options={"position": doc}`` starts from a position document."""
        if seed is not None:
            self._base_seed, self._episode = seed, 0
        elif self._base_seed is not None:
            self._episode += 1
        base = self._base_seed
        episode_seed = None if base is None else self.table.next_seed(base, self._episode)
        self.table.reset(episode_seed, (options or {}).get("position"))

    def observation_space(self, agent: str) -> gspaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gspaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The table's game (the referee's object: never hand it to a policy)."""
        return self.table.game

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = ansi(self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """Every hand, the draw pile's counts and the deciding seat's observation (centralised
        critics only: the one place hidden cards appear)."""
        # (state_bytes reads the table's seat, n, game and observation alone: both backends have them)
        return np.frombuffer(state_bytes(cast(Table, self.table)), dtype=np.uint8)

    def record(self) -> Record:
        """The episode so far as a unotable record (``unotable replay`` opens its JSON)."""
        return self.table.record()

    def close(self) -> None:
        pass


def action_box() -> gspaces.Discrete:
    return gspaces.Discrete(NUM_ACTIONS)


def ansi(table: TableLike, seat: int | None = None) -> str:
    """The terminal renderer's text of ``seat``'s view (default: the deciding seat, else seat 0)."""
    s = table.seat if seat is None else seat
    if s < 0:
        s = 0
    view = table.game.view(s)
    names = seat_names(table.n, None)
    title = "over" if table.done else f"seat {s} to decide"
    lines = table_lines(view, names, Style(color=False), title=title)
    return "\n".join(lines)
