"""What the wrappers share: the spaces as numpy/Gymnasium objects, the renderer, and the
PettingZoo envs' base class with their one constructor.

The AEC and Parallel envs run their table in a backend (:mod:`unotable.env.backend`): the Python
table or the core's, one interface, chosen once at construction (``backend="auto"``, the default,
picks the core when it is installed); the wrappers hold no branch on it. Both give the same
observations, masks, rewards, terminations and agent order from the same seeds and actions
(tests/native/test_aec_native.py).

>>> space = observation_box()
>>> space.shape, space.dtype.name
((854,), 'uint8')
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces as gspaces

from unotable.env.backend import TableBackend, make_table
from unotable.env.illegal import check_illegal, warn_illegal
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE
from unotable.env.table import STATE_SIZE, state_bytes
from unotable.game import Game
from unotable.record import Record
from unotable.rules import Ruleset
from unotable.tui.render import Style, seat_names, table_lines

__all__ = ["LegalDiscrete", "TableEnv", "action_box", "ansi", "check_render_mode", "check_seed", "mask_box",
           "observation_box"]

RENDER_MODES = ("ansi", "human")


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode``, checked: None, ``"ansi"`` or ``"human"`` (``ValueError`` otherwise)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode={render_mode!r} is not one of {', '.join(RENDER_MODES)}")
    return render_mode


def check_seed(seed: object) -> int | None:
    """A reset's seed as a Python int (any integer type, numpy's included), or None.

    >>> check_seed(np.int64(7)), check_seed(None)
    (7, None)
    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        raise ValueError(f"a seed is a non-negative int, not {seed!r}")
    return operator.index(seed)  # type: ignore[arg-type]


def observation_box() -> gspaces.Box:
    return gspaces.Box(0, 255, (OBS_SIZE,), np.uint8)


def mask_box() -> gspaces.Box:
    return gspaces.Box(0, 1, (NUM_ACTIONS,), np.int8)


class LegalDiscrete(gspaces.Discrete):
    """``Discrete(445)`` whose ``sample()`` without a mask draws a *legal* action of its agent now.

    An env's action spaces know their agent's current mask (through ``mask_of``), so random
    baselines and checkers that sample without a mask still play legal actions. With a mask given,
    it is the plain Discrete's masked sample. A space pickled (or deep-copied) on its own leaves
    its env behind: the copy is a plain ``Discrete(445)`` with the same random state, sampling
    without a mask uniformly (an env pickled whole binds its new spaces to the new env).
    """

    def __init__(self, mask_of: Callable[[], np.ndarray | None] | None = None,
                 seed: int | None = None) -> None:
        super().__init__(NUM_ACTIONS, seed=seed)
        self._mask_of = mask_of

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_mask_of"] = None  # the env's table (the core's EnvTable) does not travel with a space
        return state

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._mask_of is not None:
            current = self._mask_of()
            if current is not None and current.any():
                return super().sample(mask=current.astype(np.int8))
        return super().sample(mask=mask, probability=probability)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, gspaces.Discrete) and other.n == self.n and other.start == self.start

    def __hash__(self) -> int:
        return hash((gspaces.Discrete, int(self.n)))


class TableEnv:
    """What the PettingZoo envs share: the constructor (the table, the agents' spaces, seeding),
    reset's seeding, render, state and record, the illegal-action rule and pickling. A subclass adds
    its own state in :meth:`_init_state`.

    Pickling (``pickle``, ``copy.deepcopy``, ``cloudpickle``) carries the constructor's arguments
    and the seeding (the last seed and the episode count), not the episode in progress: the copy
    builds a new table (the core's ``EnvTable`` cannot be copied, and the Python table's bots may
    not be picklable), so it needs a ``reset()`` first, and a ``reset()`` without a seed deals the
    episode the original's next one would have.
    """

    metadata: ClassVar[dict[str, Any]]
    table: TableBackend
    backend_name: str
    render_mode: str | None

    def __init__(
        self,
        ruleset: Ruleset | str | Mapping[str, Any] = "official",
        seats: int = 4,
        *,
        render_mode: str | None = None,
        seed: int | None = None,
        backend: str = "auto",
        illegal: str = "lose",
        **options: Any,
    ) -> None:
        """``options``: ``out_of_turn``, ``episode``, ``reward``, ``max_cycles`` (see
        :class:`~unotable.env.table.Table`); ``backend``: ``"auto"``, ``"python"`` or ``"native"``
        (:mod:`unotable.env.backend`); ``illegal``: ``"lose"`` (an action outside the mask ends the
        episode as that agent's forfeit, with an ``IllegalActionWarning`` once) or ``"raise"``
        (:mod:`unotable.env.illegal`)."""
        super().__init__()
        self._config: tuple[Any, int, dict[str, Any]] = (
            ruleset, seats, {"render_mode": render_mode, "seed": seed, "backend": backend,
                             "illegal": illegal, **options})
        self.render_mode = check_render_mode(render_mode)
        self.illegal = check_illegal(illegal)
        self._warned = False
        seed = check_seed(seed)
        self.table, self.backend_name = make_table(backend, ruleset, seats, **options)
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
        self._init_state()

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self._config, "base_seed": self._base_seed, "episode": self._episode,
                "warned": self._warned}

    def __setstate__(self, state: dict[str, Any]) -> None:
        ruleset, seats, options = state["config"]
        TableEnv.__init__(self, ruleset, seats, **options)
        self._base_seed, self._episode, self._warned = state["base_seed"], state["episode"], state["warned"]

    def _legal_index(self, action: Any, mask: np.ndarray | None) -> bool:
        """Whether ``action`` is an index in ``mask``; True for what is no integer at all (the table
        raises ``InvalidActionError`` for it, under either rule)."""
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            return True
        i = operator.index(action)
        return mask is not None and 0 <= i < NUM_ACTIONS and bool(mask[i])

    def _warn_illegal(self, agent: str, action: Any) -> None:
        if not self._warned:
            self._warned = True
            warn_illegal(agent, action, stacklevel=4)

    def _init_state(self) -> None:
        """The subclass's own state, made at the end of the constructor."""

    def _mask_getter(self, seat: int) -> Callable[[], np.ndarray | None]:
        raise NotImplementedError

    def _reset_table(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Deal ``Game.new(seats, ruleset, seed)`` exactly; without a seed, episode k after the last
        seeded reset (or the constructor's ``seed``) uses ``derive_seed(seed, "episode", k)``;
        ``options={"position": doc}`` starts from a position document."""
        seed = check_seed(seed)
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
        return np.frombuffer(state_bytes(self.table), dtype=np.uint8)

    def record(self) -> Record:
        """The episode so far as a unotable record (``unotable replay`` opens its JSON)."""
        return self.table.record()

    def close(self) -> None:
        pass


def action_box() -> gspaces.Discrete:
    return gspaces.Discrete(NUM_ACTIONS)


def ansi(table: TableBackend, seat: int | None = None) -> str:
    """The terminal renderer's text of ``seat``'s view (default: the deciding seat, else seat 0)."""
    s = table.seat if seat is None else seat
    if s < 0:
        s = 0
    view = table.game.view(s)
    names = seat_names(table.n, None)
    title = "over" if table.done else f"seat {s} to decide"
    lines = table_lines(view, names, Style(color=False), title=title)
    return "\n".join(lines)
