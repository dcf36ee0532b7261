"""The ecosystem's conventions end to end: pickling (spaces, envs, SB3 and Gymnasium's subprocess
vector envs), the forfeit for an illegal action and its warning, the Gymnasium registration and the
PettingZoo-style module, numpy integers everywhere, and the pooled evaluation."""
from __future__ import annotations

import copy
import pickle
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
import numpy as np

from unotable.env import GYM_ID, IllegalActionWarning, aec_env, gym_env, parallel_env, uno_v1, vector_env
from unotable.env.aec import UnoAECEnv
from unotable.env.backend import native_available
from unotable.env.common import LegalDiscrete
from unotable.env.evaluate import evaluate
from unotable.env.gymenv import UnoGymEnv
from unotable.env.parallel import UnoParallelEnv
from unotable.env.spaces import action_at, index_of
from unotable.env.vector import UnoVectorEnv
from unotable.errors import IllegalActionError, InvalidActionError

BACKENDS = ["python"] + (["native"] if native_available() else [])


def first_legal(mask: np.ndarray) -> int:
    """The first legal index (0 for a finished episode's empty mask: auto-reset ignores it)."""
    legal = np.flatnonzero(mask)
    return int(legal[0]) if len(legal) else 0


# ---------------------------------------------------------------- pickling


@pytest.mark.parametrize("backend", BACKENDS)
def test_spaces_pickle_and_keep_their_shape(backend: str) -> None:
    env = aec_env("house", seats=3, backend=backend)
    env.reset(seed=2)
    space = env.action_space(env.agent_selection)
    assert isinstance(space, LegalDiscrete)
    for copied in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space)):
        assert copied == space and copied.n == 445
        assert 0 <= int(copied.sample()) < 445  # a detached space samples without a mask
        mask = np.zeros(445, dtype=np.int8)
        mask[390] = 1
        assert int(copied.sample(mask)) == 390
    obs_space = env.observation_space("seat_0")
    assert pickle.loads(pickle.dumps(obs_space)) == obs_space
    genv = gym_env("official", seats=2, backend=backend)
    for s in (genv.action_space, genv.observation_space):
        assert pickle.loads(pickle.dumps(s)) == s


def aec_trace(env: Any, seed: int, steps: int) -> list[Any]:
    env.reset(seed=seed)
    out = []
    for _ in range(steps):
        obs, reward, term, trunc, _ = env.last()
        out.append((env.agent_selection, obs["observation"].tobytes(), reward, term))
        env.step(None if term or trunc else first_legal(obs["action_mask"]))
        if not env.agents:
            break
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_envs_pickle_rebuild_their_table_and_keep_their_seeding(backend: str) -> None:
    env = aec_env("house", seats=3, backend=backend, reward="rank", max_cycles=50)
    env.reset(seed=7)
    env.reset()  # episode 1 of base 7
    for copied in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert isinstance(copied, UnoAECEnv) and copied.backend_name == backend
        assert copied.table is not env.table and copied.table.max_cycles == 50  # type: ignore[attr-defined]
        assert copied.agents == []  # the episode in progress does not travel: reset first
        copied.reset()  # episode 2 of base 7, as the original's next one
        env_next = copy.deepcopy(env)
        env_next.reset()
        assert copied.game.to_position() == env_next.game.to_position()
        assert aec_trace(copied, 11, 40) == aec_trace(aec_env("house", seats=3, backend=backend,
                                                              reward="rank", max_cycles=50), 11, 40)
        # the copy's spaces are bound to the copy: sampling without a mask plays legal actions
        agent = copied.agent_selection
        assert copied.last()[0]["action_mask"][int(copied.action_space(agent).sample())] == 1
    par = parallel_env("official", seats=4, backend=backend)
    par.reset(seed=1)
    again = pickle.loads(pickle.dumps(par))
    assert isinstance(again, UnoParallelEnv)
    assert [o["observation"].tobytes() for o in again.reset(seed=1)[0].values()] == \
        [o["observation"].tobytes() for o in par.reset(seed=1)[0].values()]
    genv = gym_env("official", seats=2, opponents="rule-v1", backend=backend)
    genv.reset(seed=4)
    gcopy = pickle.loads(pickle.dumps(genv))
    assert isinstance(gcopy, UnoGymEnv) and gcopy.backend_name == backend
    assert np.array_equal(gcopy.reset(seed=4)[0], genv.reset(seed=4)[0])
    venv = vector_env(3, "official", seats=2, opponents="rule-v1", backend=backend)
    venv.reset(seed=5)
    vcopy = pickle.loads(pickle.dumps(venv))
    assert isinstance(vcopy, UnoVectorEnv) and vcopy.backend_name == backend
    assert np.array_equal(vcopy.reset(seed=5)[0], venv.reset(seed=5)[0])


def test_sb3_maskable_ppo_trains_saves_loads_and_predicts(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = gymnasium.make(GYM_ID, ruleset="official", seats=2, opponents="rule-v1", out_of_turn="auto")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                                    policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=64)
    path = tmp_path / "maskable.zip"
    model.save(path)  # pickles the spaces (it failed on the core's EnvTable before)
    loaded = sb3_contrib.MaskablePPO.load(path)
    obs, info = env.reset(seed=3)
    mask = info["action_mask"].astype(bool)
    action, _ = loaded.predict(obs, action_masks=mask, deterministic=True)
    assert mask[int(action)]
    again, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert int(again) == int(action)


def make_native_gym() -> UnoGymEnv:
    backend = "native" if native_available() else "python"
    return gym_env("official", seats=2, opponents="rule-v1", backend=backend)


def test_sb3_subproc_vec_env_over_the_native_backend() -> None:
    pytest.importorskip("torch")
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")
    envs = vec_env.SubprocVecEnv([make_native_gym, make_native_gym], start_method="spawn")
    try:
        envs.seed(5)
        obs = envs.reset()
        assert obs.shape == (2, 854)
        names = envs.get_attr("backend_name")
        assert names == ["native" if native_available() else "python"] * 2
        for _ in range(20):
            masks = np.stack(envs.env_method("action_masks"))
            obs, rewards, _, _ = envs.step(np.array([first_legal(m) for m in masks]))
        assert obs.shape == (2, 854) and rewards.shape == (2,)
    finally:
        envs.close()


def test_gymnasium_async_vector_env_over_the_native_backend() -> None:
    envs = gymnasium.vector.AsyncVectorEnv([make_native_gym, make_native_gym], context="spawn")
    try:
        obs, infos = envs.reset(seed=9)
        assert obs.shape == (2, 854)
        for _ in range(20):
            actions = np.array([first_legal(m) for m in infos["action_mask"]])
            obs, rewards, _, _, infos = envs.step(actions)
        assert obs.shape == (2, 854) and rewards.shape == (2,)
    finally:
        envs.close()


# ---------------------------------------------------------------- illegal actions


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_illegal_action_is_a_forfeit_with_one_warning(backend: str) -> None:
    env = aec_env("official", seats=3, backend=backend)
    for episode in range(2):
        env.reset(seed=5)
        obs, *_ = env.last()
        offender, before = env.agent_selection, env.game.to_position()
        bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            env.step(bad)
        assert [w.category for w in caught] == ([IllegalActionWarning] if episode == 0 else [])
        if episode == 0:
            text = str(caught[0].message)
            assert "illegal='raise'" in text and "mask" in text and offender in text
        assert env.game.to_position() == before  # the game is left as it was
        assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
        assert all(env.terminations.values()) and not any(env.truncations.values())
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            _, reward, term, _, _ = env.last()
            totals[agent] += reward
            assert term
            env.step(None)
        assert totals == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}


@pytest.mark.parametrize("backend", BACKENDS)
def test_illegal_raise_keeps_raising_and_changes_nothing(backend: str) -> None:
    env = aec_env("official", seats=2, backend=backend, illegal="raise")
    env.reset(seed=9)
    obs, *_ = env.last()
    before = env.game.to_position()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.game.to_position() == before and env.agents == env.possible_agents
    genv = gym_env("official", seats=2, backend=backend, illegal="raise")
    _, info = genv.reset(seed=3)
    with pytest.raises(IllegalActionError):
        genv.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    with pytest.raises(ValueError, match="illegal="):
        aec_env("official", seats=2, illegal="ignore")
    with pytest.raises(ValueError, match="illegal="):
        gym_env("official", seats=2, illegal="ignore")


def test_a_non_index_still_raises_under_the_forfeit() -> None:
    env = aec_env("official", seats=2, backend="python")
    env.reset(seed=1)
    with pytest.raises(InvalidActionError):
        env.step("draw")  # type: ignore[arg-type]
    assert env.agents == env.possible_agents


@pytest.mark.parametrize("backend", BACKENDS)
def test_gym_forfeit_warns_once(backend: str) -> None:
    env = gym_env("official", seats=2, backend=backend)
    with pytest.warns(IllegalActionWarning, match="illegal='raise'"):
        _, info = env.reset(seed=3)
        _, reward, term, trunc, _ = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, term, trunc) == (-1.0, True, False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=3)
        env.step(445)


# ---------------------------------------------------------------- registration, module, numpy ints


def test_gymnasium_make_and_make_vec() -> None:
    env = gymnasium.make(GYM_ID, ruleset="house", seats=3, opponents="random")
    assert isinstance(env.unwrapped, UnoGymEnv)
    obs, _ = env.reset(seed=2)
    assert obs.shape == (854,) and env.get_wrapper_attr("action_masks")().any()
    assert env.unwrapped.table.n == 3
    vec = gymnasium.make_vec(GYM_ID, num_envs=3, vectorization_mode="vector_entry_point", opponents="random")
    assert isinstance(vec, UnoVectorEnv)
    obs, _ = vec.reset(seed=1)
    assert obs.shape == (3, 854)


def test_the_pettingzoo_style_module() -> None:
    env = uno_v1.env(ruleset="official", seats=2)
    assert isinstance(env, uno_v1.raw_env)
    env.reset(seed=1)
    par = uno_v1.parallel_env(seats=3)
    assert isinstance(par, UnoParallelEnv) and par.possible_agents == ["seat_0", "seat_1", "seat_2"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_integers_at_every_entry_point(backend: str) -> None:
    i64 = np.int64
    assert str(action_at(i64(436), i64(3), i64(4))) == "catch:1"
    assert index_of(action_at(i64(436), i64(3), np.int32(4)), i64(3), i64(4)) == 436
    with pytest.raises(InvalidActionError):
        action_at(np.float64(3.0), 0, 2)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        action_at(True, 0, 2)
    env = aec_env("official", seats=2, backend=backend, illegal="raise")
    env.reset(seed=i64(4))  # type: ignore[arg-type]
    assert env.game.seed == 4 and type(env.game.seed) is int
    env.step(i64(first_legal(env.last()[0]["action_mask"])))
    par = parallel_env("official", seats=2, backend=backend, illegal="raise")
    obs, _ = par.reset(seed=i64(4))  # type: ignore[arg-type]
    par.step({a: i64(first_legal(o["action_mask"])) for a, o in obs.items()})
    genv = gym_env("official", seats=2, backend=backend, illegal="raise")
    _, info = genv.reset(seed=i64(4))  # type: ignore[arg-type]
    genv.step(i64(first_legal(info["action_mask"])))  # type: ignore[arg-type]
    venv = vector_env(2, "official", seats=2, backend=backend)
    _, vinfo = venv.reset(seed=i64(4))  # type: ignore[arg-type]
    venv.step(np.array([first_legal(m) for m in vinfo["action_mask"]], dtype=np.int64))


def test_evaluation_pools_seed_bases_with_an_interval() -> None:
    def first(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return mask.argmax(axis=1)

    result = evaluate(first, rounds=6, seed_bases=(3, 40), backend="python", out_of_turn="auto")
    assert [(b, n) for b, _, n in result.bases] == [(3, 6), (40, 6)]
    assert result.rounds == 12 and result.wins == sum(w for _, w, _ in result.bases)
    assert result.low <= result.rate <= result.high
    assert "pooled over 2 seed bases" in str(result)
    again = evaluate(first, rounds=6, seed_bases=(3, 40), backend="python", out_of_turn="auto")
    assert again == result  # seeded: the same rounds
