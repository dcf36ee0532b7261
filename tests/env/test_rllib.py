"""RLlib on unotable: the multi-agent env with action masking checked on its own, then
examples/rllib_multiagent.py trained for two small iterations on a local Ray instance with two
workers (the extra rl-ray; skipped where Ray is not installed). No timing is asserted: the bound
only catches a hang."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))

from rllib_multiagent import UnoMultiAgentEnv  # noqa: E402


@pytest.mark.parametrize(("seats", "backend"), [(2, "python"), (3, "auto")])
def test_the_multi_agent_env_is_turn_based_with_masks_and_last_rewards(seats: int, backend: str) -> None:
    env = UnoMultiAgentEnv({"seats": seats, "backend": backend})
    assert env.agents == [f"seat_{s}" for s in range(seats)]
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _infos = env.reset(seed=100 + episode)
        totals = dict.fromkeys(env.agents, 0.0)
        for _ in range(5000):
            assert len(obs) == 1  # one seat decides at a time
            (agent, o), = obs.items()
            assert env.observation_spaces[agent].contains(o)
            legal = np.flatnonzero(o["action_mask"])
            assert len(legal) > 0
            obs, rewards, terms, truncs, _ = env.step({agent: int(rng.choice(legal))})
            for a, r in rewards.items():
                totals[a] += r
            if terms["__all__"] or truncs["__all__"]:
                assert set(obs) == set(env.agents)  # every seat's final observation and reward
                break
            assert set(rewards) <= set(obs)  # a reward comes with its seat's observation (last())
        else:
            pytest.fail("the episode did not end")
        assert sum(totals.values()) == pytest.approx(0.0)
        assert any(totals.values())


def test_rllib_ppo_trains_on_two_local_workers() -> None:
    env = dict(os.environ, RAY_AUTH_MODE="disabled", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "rllib_multiagent.py"), "--workers", "2",
         "--iterations", "2", "--batch", "256", "--hidden", "32"],
        cwd=ROOT, capture_output=True, text=True, timeout=1500, env=env)
    assert done.returncode == 0, f"exited {done.returncode}:\n{done.stdout}\n{done.stderr[-4000:]}"
    lines = re.findall(r"^iteration (\d+) env steps ([\d.]+)", done.stdout, re.MULTILINE)
    assert [int(i) for i, _ in lines] == [1, 2], done.stdout
    steps = [float(s) for _, s in lines]
    assert 0 < steps[0] < steps[1], done.stdout
    assert re.search(r"^workers 2 healthy env runners", done.stdout, re.MULTILINE), done.stdout
