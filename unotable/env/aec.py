"""The PettingZoo AEC environment: one agent per seat, decision points in the arbiter's order.

Agents are ``seat_0`` .. ``seat_{n-1}``. ``observe(agent)`` is PettingZoo Classic's dict:
``{"observation": uint8[854], "action_mask": int8[445]}`` (the layouts of
:mod:`unotable.env.spaces`); ``infos[agent]`` holds ``"action_mask"`` too and, for the agent to
decide, ``"decline"`` (True at an out-of-turn chance: NOOP is in the mask). An index outside
the mask raises :class:`~unotable.errors.IllegalActionError` and changes nothing (never another
action in its place). ``action_space(agent).sample()`` draws a legal action of that agent.

>>> from unotable.env import aec_env
>>> env = aec_env("official", seats=2)
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection in env.agents
((854,), True, True)
>>> env.game.seed
3
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from unotable.env.common import TableEnv
from unotable.env.spaces import NOOP, NUM_ACTIONS
from unotable.rules import Ruleset

__all__ = ["UnoAECEnv"]

_NOTHING = np.zeros(NUM_ACTIONS, dtype=np.int8)
_NOTHING.flags.writeable = False
_NOOP_ONLY = _NOTHING.copy()
_NOOP_ONLY[NOOP] = 1
_NOOP_ONLY.flags.writeable = False


class UnoAECEnv(TableEnv, AECEnv[str, dict[str, np.ndarray], int]):
    """UNO at one table as a PettingZoo AEC env (see the module docstring and docs/rl.md)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "unotable_v0",
                                          "is_parallelizable": True}

    def __init__(
        self,
        ruleset: Ruleset | str | Mapping[str, Any] = "official",
        seats: int = 4,
        *,
        render_mode: str | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        """``options``: ``out_of_turn``, ``episode``, ``reward``, ``max_cycles`` (see
        :class:`~unotable.env.table.Table`)."""
        super().__init__()
        self._setup(ruleset, seats, render_mode, seed, options)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self._masks: dict[int, np.ndarray] = {}

    def _mask_getter(self, seat: int) -> Callable[[], np.ndarray | None]:
        def mask() -> np.ndarray | None:
            agent = self.possible_agents[seat]
            if agent not in self.agents or self.terminations.get(agent) or self.truncations.get(agent):
                return None
            return self._masks.get(seat)
        return mask

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal ``Game.new(seats, ruleset, seed)`` exactly. Without a seed, episode k after the last
        seeded reset (or the constructor's ``seed``) uses ``derive_seed(seed, "episode", k)``.
        ``options={"position": doc}`` starts from a position document instead."""
        self._reset_table(seed, options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._sync()
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is alive and must give an action index, not None")
        self.table.step(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._sync()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync(self) -> None:
        t = self.table
        rewards = t.take_rewards()
        terminated, truncated, done, seat = t.terminated, t.truncated, t.done, t.seat
        index, rews, terms, truncs = self._index, self.rewards, self.terminations, self.truncations
        for agent in self.agents:
            i = index[agent]
            rews[agent] = rewards[i]
            terms[agent] = terminated[i]
            truncs[agent] = truncated[i]
        if done:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]
        # the deciding seat's mask, once per step; every other live seat has NOOP alone (nothing to
        # decide now), a finished one nothing (Table.mask_for, in numpy)
        decider = np.frombuffer(t.mask(), dtype=np.int8).copy()
        masks: dict[int, np.ndarray] = {}
        infos = self.infos
        for agent in self.agents:
            i = index[agent]
            if i == seat and not done:
                masks[i] = decider
                infos[agent] = {"action_mask": decider, "decline": t.decline}
                continue
            mask = _NOTHING if done or terminated[i] else _NOOP_ONLY
            masks[i] = mask
            infos[agent] = {"action_mask": mask, "decline": False}
        self._masks = masks
        if not done and (any(terminated) or any(truncated)):
            self._deads_step_first()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self._index[agent]
        t = self.table
        obs = np.frombuffer(t.observation(i), dtype=np.uint8)
        mask = self._masks.get(i, _NOTHING)
        return {"observation": obs, "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The deciding agent's mask as booleans (sb3-contrib's MaskablePPO convention)."""
        return np.frombuffer(self.table.mask(), dtype=np.uint8).astype(bool)
