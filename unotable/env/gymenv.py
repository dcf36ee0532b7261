"""The Gymnasium single-agent environment: one learning seat against bots.

The opponents are any :func:`~unotable.bots.make_bot` specs (``"rule-v1"``, ``"heuristic"``,
``"ismcts:iterations=200"``...): one spec for every other seat, or a list with one per other seat
in seat order. They decide inside :meth:`step` exactly as the arbiter asks them. ``seat`` is the
learning seat (an int, or ``"random"``: drawn per episode from the episode's seed).

Observations are ``uint8[854]``; the mask is ``info["action_mask"]`` (int8[445]) and
:meth:`action_masks` (sb3-contrib's MaskablePPO). The reward is the learning seat's. An index
outside the mask is a forfeit (``illegal="lose"``, the default, PettingZoo's convention for its
classic games): reward -1, the episode terminates, the game is left as it was, and the first one
in an env warns with :class:`~unotable.env.illegal.IllegalActionWarning`; with ``illegal="raise"``
it raises :class:`~unotable.errors.IllegalActionError` and changes nothing.

Pickling carries the constructor's arguments and the seeding, not the episode in progress (the
copy builds its own table: a core's table cannot be copied): reset the copy first. The action
space pickles on its own as a plain ``Discrete(445)``.

``backend``: ``"python"`` (:class:`~unotable.env.table.Table` over the engine, the bots in
Python) or ``"native"`` (:class:`~unotable.env.native_table.NativeTable`: the table and the
opponents in the C++ core, which plays ``random``, ``random-stuck`` and ``rule-v1`` draw for draw as
the Python bots); ``"auto"`` (the default) picks the native one when ``unotable_native`` is
installed and every opponent is one of those specs by name, else Python (:mod:`unotable.env.backend`:
one interface, so this wrapper holds no branch on it). ``"native"`` raises
``NotImplementedError`` for another opponent. Both give the same observations, masks, rewards,
flags and game from the same seeds and actions (tests/native/test_gym_native.py).

>>> from unotable.env import gym_env
>>> env = gym_env("official", seats=2, opponents="rule-v1")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["seat"], int(info["action_mask"].sum()) > 0
((854,), 0, True)
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from unotable.arbiter import Agent, derive_seed
from unotable.bots import make_bot
from unotable.bots.registry import parse_bot_spec
from unotable.env.backend import TableBackend, choose_backend
from unotable.env.common import LegalDiscrete, ansi, check_render_mode, check_seed, observation_box
from unotable.env.illegal import check_illegal, warn_illegal
from unotable.env.table import Table
from unotable.record import Record
from unotable.rules import Ruleset

__all__ = ["UnoGymEnv", "make_opponents"]


def make_opponents(opponents: str | Agent | Sequence[str | Agent], seats: int,
                   learner: int) -> dict[int, Agent]:
    """Bots for every seat but ``learner``: one spec (or bot factory output) for all, or one each."""
    others = [s for s in range(seats) if s != learner]
    specs: list[str | Agent]
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        specs = [opponents] * len(others)
    else:
        specs = list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"{len(specs)} opponents given for {len(others)} other seats")
    out: dict[int, Agent] = {}
    for seat, spec in zip(others, specs, strict=True):
        if isinstance(spec, str):
            name, options = parse_bot_spec(spec)
            bot: Any = make_bot(name, **options)  # a Bot is an Agent (the arbiter's protocol)
            out[seat] = bot
        else:
            out[seat] = spec
    return out


class UnoGymEnv(gymnasium.Env[np.ndarray, int]):
    """One learning seat against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (as gymnasium.Env)

    def __init__(
        self,
        ruleset: Ruleset | str | Mapping[str, Any] = "official",
        seats: int = 2,
        *,
        opponents: str | Sequence[str] = "rule-v1",
        seat: int | str = 0,
        out_of_turn: str = "full",
        episode: str = "round",
        reward: str = "win",
        max_cycles: int | None = None,
        illegal: str = "lose",
        render_mode: str | None = None,
        backend: str = "auto",
    ) -> None:
        self._config: tuple[Any, int, dict[str, Any]] = (ruleset, seats, {
            "opponents": opponents, "seat": seat, "out_of_turn": out_of_turn, "episode": episode,
            "reward": reward, "max_cycles": max_cycles, "illegal": illegal, "render_mode": render_mode,
            "backend": backend})
        self.illegal = check_illegal(illegal)
        self._warned = False
        self.render_mode = check_render_mode(render_mode)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < seats):
            raise ValueError(f"seat must be a seat number below {seats} or 'random', not {seat!r}")
        self._seat_choice = seat
        self._opponents = opponents
        self._options = {"out_of_turn": out_of_turn, "episode": episode, "reward": reward,
                         "max_cycles": max_cycles}
        self._ruleset = ruleset
        self._seats = seats
        self.learner = 0 if seat == "random" else int(seat)
        self._tables: dict[int, TableBackend] = {}
        table: TableBackend
        table, self.backend_name = choose_backend(
            backend, lambda: self._native(self.learner), lambda: self._python(self.learner))
        self._tables[self.learner] = self.table = table
        self.observation_space = observation_box()
        self.action_space: gymnasium.spaces.Space[Any] = LegalDiscrete(self._current_mask)
        self._base_seed: int | None = None
        self._episode = 0

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self._config, "base_seed": self._base_seed, "episode": self._episode,
                "warned": self._warned}

    def __setstate__(self, state: dict[str, Any]) -> None:
        ruleset, seats, options = state["config"]
        UnoGymEnv.__init__(self, ruleset, seats, **options)
        self._base_seed, self._episode, self._warned = state["base_seed"], state["episode"], state["warned"]

    def _python(self, learner: int) -> TableBackend:
        opponents = make_opponents(self._opponents, self._seats, learner)
        return Table(self._ruleset, self._seats, opponents=opponents, **self._options)  # type: ignore[arg-type]

    def _native(self, learner: int) -> TableBackend:
        from unotable.env.native_table import NativeTable

        return NativeTable(self._ruleset, self._seats, opponents=self._opponents, seat=learner,
                           **self._options)  # type: ignore[arg-type]

    def _table(self, learner: int) -> TableBackend:
        """The table of this learning seat (one per seat, made on first use, in the env's backend)."""
        if learner not in self._tables:
            make = self._native if self.backend_name == "native" else self._python
            self._tables[learner] = make(learner)
        return self._tables[learner]

    def _current_mask(self) -> np.ndarray | None:
        t = self.table
        return None if t.done else t.mask_buf

    def _info(self) -> dict[str, Any]:
        t = self.table
        return {"action_mask": t.mask_buf.copy(), "seat": self.learner, "decline": t.decline}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """``reset(seed=s)`` deals ``Game.new(seats, ruleset, s)``; later resets without a seed use
        ``derive_seed(s, "episode", k)``. ``options={"position": doc}`` starts from a position."""
        seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self._base_seed, self._episode = seed, 0
        elif self._base_seed is not None:
            self._episode += 1
        else:
            self._base_seed = int(self.np_random.integers(2**63 - 1))
        episode_seed = self.table.next_seed(self._base_seed, self._episode)
        if self._seat_choice == "random":
            self.learner = random.Random(derive_seed(episode_seed, "learner")).randrange(self._seats)
        self.table = self._table(self.learner)
        self.table.reset(episode_seed, (options or {}).get("position"))
        return self._observation(), self._info()

    def _observation(self) -> np.ndarray:
        t = self.table
        t.observe(self.learner)
        return t.obs_buf.copy()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        t = self.table
        mask = t.mask_buf
        if self.illegal == "lose" and not t.done and not (0 <= int(action) < len(mask) and mask[int(action)]):
            if not self._warned:
                self._warned = True
                warn_illegal(f"seat_{self.learner}", action)
            t.stop()  # a forfeit: the game is left as it was, the learner's episode ends with a loss
            return self._observation(), -1.0, True, False, self._info()
        t.step(int(action))
        reward = t.take_rewards()[self.learner]
        terminated = t.terminated[self.learner]
        truncated = t.truncated[self.learner] and not terminated
        if not t.done and (terminated or truncated):
            t.stop()  # the learner is out: the episode ends for it
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), bool(terminated), bool(truncated), self._info()

    def action_masks(self) -> np.ndarray:
        """The learning seat's mask as booleans (sb3-contrib's MaskablePPO)."""
        return self.table.mask_buf.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = ansi(self.table, self.learner)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self) -> Record:
        return self.table.record()
