"""The PettingZoo AEC environment: one agent per seat, decision points in the arbiter's order.

Agents are ``seat_0`` .. ``seat_{n-1}``. ``observe(agent)`` is PettingZoo Classic's dict:
``{"observation": uint8[854], "action_mask": int8[445]}`` (the layouts of
:mod:`unotable.env.spaces`); ``infos[agent]`` holds ``"action_mask"`` too and, for the agent to
decide, ``"decline"`` (True at an out-of-turn chance: NOOP is in the mask). An index outside
the mask (never replaced by another action) ends the game as that agent's forfeit, PettingZoo's
convention for its classic games: reward -1 to it, 0 to the others, every agent terminated, an
:class:`~unotable.env.illegal.IllegalActionWarning` the first time; with ``illegal="raise"`` it
raises :class:`~unotable.errors.IllegalActionError` and changes nothing.
``action_space(agent).sample()`` draws a legal action of that agent.

``backend="auto"`` (default), ``"python"`` or ``"native"``: the table in the engine or in the C++
core (:mod:`unotable.env.backend`, one interface: this wrapper reads the table's status int and
bound buffers alike); both give the same observations, masks, rewards, terminations, infos and
agent order. On the native backend :attr:`~UnoAECEnv.game` (and ``record()``,
``state()``, ``render()``) is the Python engine's game rebuilt from the core's action log.

>>> from unotable.env import aec_env
>>> env = aec_env("official", seats=2, backend="python")
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, env.agent_selection in env.agents
((854,), True, True)
>>> env.game.seed
3
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from unotable.env.backend import CHANGED, DECLINE, DONE, REWARDS, SEAT, TableBackend
from unotable.env.common import TableEnv
from unotable.env.spaces import NOOP, NUM_ACTIONS

__all__ = ["UnoAECEnv"]

_NOTHING = np.zeros(NUM_ACTIONS, dtype=np.int8)
_NOTHING.flags.writeable = False
_NOOP_ONLY = _NOTHING.copy()
_NOOP_ONLY[NOOP] = 1
_NOOP_ONLY.flags.writeable = False
_FULL = DONE | CHANGED


class UnoAECEnv(TableEnv, AECEnv[str, dict[str, np.ndarray], int]):
    """UNO at one table as a PettingZoo AEC env (see the module docstring and docs/rl.md)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "unotable_v0",
                                          "is_parallelizable": True}

    def _init_state(self) -> None:
        self._decider = -1
        self._decider_mask = _NOTHING
        self._dirty = False  # the last sync gave rewards: the next one clears them
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    def _mask_getter(self, seat: int) -> Callable[[], np.ndarray | None]:
        def mask() -> np.ndarray | None:
            agent = self.possible_agents[seat]
            if agent not in self.agents or self.terminations.get(agent) or self.truncations.get(agent):
                return None
            return self._mask_of(seat)
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
        self._dirty = True
        self._decider = -1
        self._sync(self.table.code, full=True)
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            self._dirty = True  # it cleared the rewards to int 0: the next sync writes them again
            return
        if action is None:
            raise ValueError(f"{agent} is alive and must give an action index, not None")
        if self.illegal == "lose" and not self._legal_index(action, self._decider_mask):
            self._forfeit(agent, action)
            return
        code = self.table.step_code(action)
        self._cumulative_rewards[agent] = 0.0
        if self._sync(code, full=code & _FULL != 0):
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _forfeit(self, agent: str, action: Any) -> None:
        """``agent`` chose an index outside its mask: the game ends as its forfeit (PettingZoo's
        ``TerminateIllegalWrapper``): -1 to it, 0 to the others, every agent terminated; the game
        is left as it was."""
        self._warn_illegal(agent, action)
        t = self.table
        t.stop()
        t.take_rewards()  # whatever stopping gave: a forfeit scores nothing else
        self._cumulative_rewards[agent] = 0.0
        self._sync(t.code & ~REWARDS, full=True)
        rews = self.rewards
        for a in self.agents:
            rews[a] = -1.0 if a == agent else 0.0
        self._dirty = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync(self, code: int, full: bool) -> bool:
        """After a reset or a step, from the table's status bits: the rewards only when some were
        given (or to clear the last ones), the flags only when one changed, the agent to act, and
        the infos: every live agent's on a ``full`` sync (a reset, the end, a flag changed), else
        those of the seat that decided and of the seat that decides now (every other live seat
        keeps NOOP alone: nothing to decide now). Returns whether the rewards may be non-zero
        (to accumulate)."""
        t = self.table
        index, agents = self._index, self.agents
        rewarded = bool(code & REWARDS)
        if rewarded:
            rewards = t.take_rewards()
            rews = self.rewards
            for agent in agents:
                rews[agent] = rewards[index[agent]]
            self._dirty = True
        elif self._dirty:
            rews = self.rewards
            for agent in agents:
                rews[agent] = 0.0
            self._dirty = False
        done = bool(code & DONE)
        seat = -1 if done else code & SEAT
        mask = t.mask_buf.copy()  # the decision point's mask, once per step
        self._flags_and_infos(t, seat, full)
        self._decider_mask = mask
        if done:
            self.agent_selection = agents[0] if agents else self.possible_agents[0]
            return rewarded
        agent = self.agent_selection = self.possible_agents[seat]
        self.infos[agent] = {"action_mask": mask, "decline": bool(code & DECLINE)}
        if full and (True in t.terminated or True in t.truncated):
            self._deads_step_first()
        return rewarded

    def _flags_and_infos(self, t: TableBackend, seat: int, full: bool) -> None:
        """On a ``full`` sync, every live agent's termination and truncation from table ``t`` and
        the info of each but the deciding ``seat`` (-1 once done); else only the info of the seat
        that decided last, when another one decides now (its NOOP alone). Then ``seat`` decides."""
        infos = self.infos
        if full:
            done = seat < 0
            index = self._index
            terminated, truncated = t.terminated, t.truncated
            terms, truncs = self.terminations, self.truncations
            for agent in self.agents:
                i = index[agent]
                terms[agent] = terminated[i]
                truncs[agent] = truncated[i]
                if i != seat:
                    infos[agent] = {"action_mask": _NOTHING if done or terminated[i] else _NOOP_ONLY,
                                    "decline": False}
        else:
            prev = self._decider
            if prev != seat and prev >= 0:
                infos[self.possible_agents[prev]] = {"action_mask": _NOOP_ONLY, "decline": False}
        self._decider = seat

    def _mask_of(self, seat: int) -> np.ndarray:
        """``seat``'s mask now: the decision point's for the deciding seat; NOOP alone for every
        other live seat (nothing to decide now); nothing once it is terminated or the episode over."""
        if seat == self._decider:
            return self._decider_mask
        if self._decider < 0 or self.table.terminated[seat]:
            return _NOTHING
        return _NOOP_ONLY

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self._index[agent]
        t = self.table
        t.observe(i)
        return {"observation": t.obs_buf.copy(), "action_mask": self._mask_of(i)}

    def action_masks(self) -> np.ndarray:
        """The deciding agent's mask as booleans (sb3-contrib's MaskablePPO convention)."""
        return self.table.mask_buf.astype(bool)
