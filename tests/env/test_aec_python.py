"""The Python backend of the AEC env against the definitions it shortcuts: after every step and
reset, each agent's observation, mask and info are what the reference gives for the state *now*
(``encode(game.view(seat), history)``, ``Table.mask_for``), whatever was read before; the table's
legal list and index map at each decision point are ``auto_legal`` / ``index_of`` of the engine's."""
from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np

from unotable.env import aec_env
from unotable.env.spaces import NOOP, encode, index_of
from unotable.env.table import Table, auto_legal

PRESETS = ("official", "house", "no-mercy", "partners")
OPTIONS: list[dict[str, Any]] = [
    {"out_of_turn": "auto"},
    {},
    {"out_of_turn": "auto", "episode": "match", "reward": "score"},
    {"episode": "match", "reward": "rank", "max_cycles": 150},
]


def check_now(env: Any, where: str) -> None:
    t = env.table
    for agent in env.agents:
        i = env._index[agent]
        expected = np.frombuffer(t.mask_for(i), dtype=np.int8)
        info = env.infos[agent]
        assert np.array_equal(info["action_mask"], expected), (where, agent)
        assert info["decline"] == (not t.done and i == t.seat and t.decline), (where, agent)
        obs = env.observe(agent)
        assert np.array_equal(obs["action_mask"], expected), (where, agent)
        assert bytes(obs["observation"]) == bytes(encode(t.game.view(i), t.history)), (where, agent)
        assert env.terminations[agent] == t.terminated[i], (where, agent)
        assert env.truncations[agent] == t.truncated[i], (where, agent)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_every_agent_reads_the_state_now(preset: str, options: dict[str, Any]) -> None:
    env = aec_env(preset, seats=4, backend="python", **options)
    rng = np.random.default_rng(7)
    env.reset(seed=3)
    check_now(env, "reset")
    for k in range(400):
        if not env.agents:
            env.reset()
            check_now(env, f"reset {k}")
            continue
        before = env.observe(env.agent_selection)["observation"].copy()
        obs, _, term, trunc, _ = env.last()
        assert np.array_equal(obs["observation"], before)
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        check_now(env, f"step {k}")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("out_of_turn", ["auto", "full"])
def test_decision_points_index_the_engines_legal_list(preset: str, out_of_turn: str) -> None:
    for seed in range(6):
        t = Table(preset, 4, out_of_turn=out_of_turn)
        t.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not t.done:
            legal = t.game.legal_action_list(t.seat)
            if out_of_turn == "auto" and not t.decline:
                legal = auto_legal(legal)
            assert t.legal == legal
            assert t.legal_by_index() == {index_of(a, t.seat, t.n): a for a in legal}
            indices = [i for i, m in enumerate(t.mask()) if m]
            noop = {NOOP} if t.decline else set()
            assert indices == sorted({index_of(a, t.seat, t.n) for a in legal} | noop)
            t.step(int(rng.choice(indices)))
