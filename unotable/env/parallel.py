"""The PettingZoo Parallel environment: every live seat submits an action each step.

Each step applies **one** action: the first out-of-turn action (an UNO call, a catch, a jump-in)
in the arbiter's order, else the active seat's; the others are dropped (the online server's
first-come-first-served rule in batch form). The active seat's mask never holds NOOP; every other
seat's does (alone when it has nothing to do). ``max_cycles`` truncates after that many steps.
An action outside its seat's mask ends the game as that seat's forfeit (with ``illegal="lose"``,
the default: -1 to each seat that submitted one, 0 to the others, every agent terminated, an
``IllegalActionWarning`` the first time); ``illegal="raise"`` raises ``IllegalActionError``
instead and nothing changes.

``backend="auto"`` (default), ``"python"`` or ``"native"`` as the AEC env's (:mod:`unotable.env.backend`):
one call of the table writes every seat's observation and mask per step (on the native backend,
one core call).

>>> from unotable.env import parallel_env
>>> env = parallel_env("official", seats=3, backend="python")
>>> obs, infos = env.reset(seed=5)
>>> sorted(obs) == env.agents, obs["seat_0"]["observation"].shape
(True, (854,))
>>> actions = {a: env.action_space(a).sample() for a in env.agents}
>>> obs, rewards, terms, truncs, infos = env.step(actions)
>>> env.table.cycles
1
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from unotable.env.common import TableEnv
from unotable.env.spaces import NUM_ACTIONS

__all__ = ["UnoParallelEnv"]


class UnoParallelEnv(TableEnv, ParallelEnv[str, dict[str, np.ndarray], int]):
    """UNO at one table as a PettingZoo Parallel env (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "unotable_v0"}

    def _init_state(self) -> None:
        self._masks: dict[int, np.ndarray] = {}
        self.agents: list[str] = []

    def _mask_getter(self, seat: int) -> Callable[[], np.ndarray | None]:
        def mask() -> np.ndarray | None:
            return self._masks.get(seat)
        return mask

    def _outputs(self) -> tuple[dict[str, Any], dict[str, Any]]:
        t = self.table
        obs: dict[str, Any] = {}
        infos: dict[str, Any] = {}
        self._masks = {}
        t.parallel_outputs()  # every seat's observation and mask in one call
        pobs, pmask = t.pobs, t.pmask
        for agent in self.agents:
            i = int(agent[5:])
            mask = pmask[i].copy()
            self._masks[i] = mask
            obs[agent] = {"observation": pobs[i].copy(), "action_mask": mask}
            infos[agent] = {"action_mask": mask}
        return obs, infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """As :meth:`unotable.env.aec.UnoAECEnv.reset`: the same seeds deal the same games."""
        self._reset_table(seed, options)
        self.agents = self.possible_agents[:]
        return self._outputs()

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, Any]]:
        t = self.table
        live = self.agents
        masks = self._masks
        bad = [] if self.illegal == "raise" else [
            a for a in live if a in actions and not self._legal_index(actions[a], masks.get(int(a[5:])))]
        if bad:  # a forfeit: the game is left as it was
            self._warn_illegal(bad[0], actions[bad[0]])
            t.stop()
            t.take_rewards()
            rewards = [-1.0 if f"seat_{s}" in bad else 0.0 for s in range(t.n)]
        else:
            t.step_parallel({int(a[5:]): int(v) for a, v in actions.items()})
            rewards = t.take_rewards()
        r = {a: rewards[int(a[5:])] for a in live}
        terms = {a: t.terminated[int(a[5:])] for a in live}
        truncs = {a: t.truncated[int(a[5:])] for a in live}
        self.agents = [a for a in live if not (terms[a] or truncs[a])]
        obs, infos = self._outputs()
        for a in live:
            if a not in obs:
                obs[a] = {"observation": t.pobs[int(a[5:])].copy(),
                          "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8)}
                infos[a] = {"action_mask": obs[a]["action_mask"]}
        if self.render_mode == "human":
            self.render()
        return obs, r, terms, truncs, infos
