"""RLlib multi-agent PPO with action masking on unotable, on a local Ray instance or a cluster.

Every seat is an agent of RLlib's ``MultiAgentEnv`` (turn-based: each step carries the observation
of the seat that decides next, its reward being PettingZoo's ``last()``: what it earned since its
own last action; at the episode's end every seat gets its observation and final reward). All seats
map to one shared policy, an RLModule that masks illegal actions (RLlib's
``ActionMaskingTorchRLModule``: the observation is a dict of ``observations`` and
``action_mask``). The tables run in the native core when it is installed (the AEC env's
``backend="auto"``). Rollouts are collected by ``--workers`` Ray env runners, on this machine or,
with ``--address``, on a running Ray cluster (docs/rl-scale.md).

    pip install -e '.[rl,rl-ray]'    # Ray with RLlib, and PyTorch (CPU build: docs/rl.md)
    python examples/rllib_multiagent.py --workers 2 --iterations 20
    python examples/rllib_multiagent.py --address auto --workers 32 --iterations 200  # a cluster
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from unotable.env import aec_env
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE


class UnoMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """unotable's AEC env as RLlib's turn-based ``MultiAgentEnv`` (the module docstring).

    ``config``: ``ruleset`` (a preset name, default ``"official"``), ``seats`` (2), ``out_of_turn``
    (``"auto"``), ``backend`` (``"auto"``)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        cfg = dict(config or {})
        self.env = aec_env(cfg.get("ruleset", "official"), seats=int(cfg.get("seats", 2)),
                           out_of_turn=cfg.get("out_of_turn", "auto"), backend=cfg.get("backend", "auto"))
        self.agents = self.possible_agents = list(self.env.possible_agents)
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(0.0, 255.0, (OBS_SIZE,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32)})
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = {a: gym.spaces.Discrete(NUM_ACTIONS) for a in self.agents}

    @staticmethod
    def _dict(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"observations": obs["observation"].astype(np.float32),
                "action_mask": obs["action_mask"].astype(np.float32)}

    def _collect(self) -> tuple[dict[str, Any], ...]:
        """Run on to the next live decision: the seats that are out (and, at the end, every seat)
        get their final observation and reward; the deciding seat its observation and last()."""
        obs: dict[str, Any] = {}
        rewards: dict[str, float] = {}
        terms: dict[str, bool] = {}
        truncs: dict[str, bool] = {}
        env = self.env
        while env.agents:
            agent = env.agent_selection
            o, reward, term, trunc, _info = env.last()
            obs[agent] = self._dict(o)
            rewards[agent] = rewards.get(agent, 0.0) + float(reward)
            if not (term or trunc):
                break
            terms[agent], truncs[agent] = bool(term), bool(trunc)
            env.step(None)
        terms["__all__"] = not env.agents and not any(truncs.values())
        truncs["__all__"] = not env.agents and any(truncs.values())
        return obs, rewards, terms, truncs

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.env.reset(seed=seed, options=options)
        obs, _rewards, _terms, _truncs = self._collect()
        return obs, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        self.env.step(int(action_dict[self.env.agent_selection]))
        obs, rewards, terms, truncs = self._collect()
        return obs, rewards, terms, truncs, {}


def build(workers: int, batch: int, seats: int, hidden: int) -> Any:
    """The PPO algorithm: one shared masked policy for every seat, ``workers`` env runners."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("unotable", lambda cfg: UnoMultiAgentEnv(cfg))
    config = (
        PPOConfig()
        # RLlib's env checker steps actions sampled without the mask, which a masked env refuses
        .environment("unotable", env_config={"seats": seats}, disable_env_checking=True)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            model_config={"head_fcnet_hiddens": [hidden, hidden], "vf_share_layers": True})}))
        .env_runners(num_env_runners=workers, num_envs_per_env_runner=1, num_cpus_per_env_runner=1,
                     rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=batch, minibatch_size=max(32, batch // 4), num_epochs=2,
                  lr=3e-4)
        .learners(num_learners=0)
    )
    return config.build_algo()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--address", default=None, help="a Ray cluster's address ('auto': the running one)")
    ap.add_argument("--workers", type=int, default=2, help="Ray env runners collecting rollouts")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--batch", type=int, default=4000, help="env steps per training iteration")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=256)
    args = ap.parse_args(argv)

    import ray

    if args.address:
        ray.init(address=args.address)
    else:  # a local instance: one CPU per env runner and one for the driver and learner
        ray.init(num_cpus=args.workers + 1, include_dashboard=False, log_to_driver=False)
    try:
        algo = build(args.workers, args.batch, args.seats, args.hidden)
        t0 = time.perf_counter()
        for it in range(1, args.iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            steps = runners.get("num_env_steps_sampled_lifetime", 0)
            ret = runners.get("agent_episode_returns_mean", {})
            print(f"iteration {it} env steps {steps} episodes {runners.get('num_episodes_lifetime', 0)} "
                  f"returns {ret} steps/s {steps / (time.perf_counter() - t0):.0f}", flush=True)
        print(f"workers {algo.env_runner_group.num_healthy_remote_env_runners()} healthy env runners")
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
