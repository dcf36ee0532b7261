"""The PettingZoo envs' native backend (unotable.env.native_table.NativeTable under aec_env and
parallel_env) against their Python backend: from the same seeds and actions, the same agent
order, observations, masks, rewards, cumulative rewards, terminations, truncations and infos after
every step, under several presets at 2, 4 and 10 seats, out-of-turn chances full and auto, round
and match episodes, the three rewards and max_cycles; PettingZoo's own checkers on the native
backend; the lazily rebuilt game, record, state and render; bad actions refused alike."""
from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("unotable_native", reason="the native core is not built: `pip install -e native/`")

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, seed_test

from unotable import Ruleset
from unotable.env import aec_env, parallel_env
from unotable.env.backend import native_available
from unotable.env.spaces import NOOP
from unotable.errors import IllegalActionError, InvalidActionError

PRESETS = ("official", "house", "no-mercy", "partners")
CASES = [(p, n) for p in PRESETS for n in (2, 4, 10) if n in Ruleset.preset(p).seat_counts]

OPTIONS: list[dict[str, Any]] = [
    {},  # out_of_turn="full", round, win
    {"out_of_turn": "auto", "reward": "score"},
    {"episode": "match", "reward": "rank"},
    {"episode": "match", "reward": "win", "out_of_turn": "auto"},
    {"reward": "rank", "max_cycles": 30},
    {"episode": "match", "reward": "score", "max_cycles": 120},
]


def pair_aec(preset: str, n: int, **options: Any) -> tuple[Any, Any]:
    a = aec_env(preset, seats=n, backend="python", **options)
    b = aec_env(preset, seats=n, backend="native", **options)
    assert (a.backend_name, b.backend_name) == ("python", "native")
    return a, b


def same_array(x: Any, y: Any, where: str) -> None:
    assert isinstance(y, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape, where
    assert np.array_equal(x, y), where


def same_info(x: dict[str, Any], y: dict[str, Any], where: str) -> None:
    assert x.keys() == y.keys(), where
    for key in x:
        if isinstance(x[key], np.ndarray):
            same_array(x[key], y[key], f"{where} {key}")
        else:
            assert x[key] == y[key] and type(x[key]) is type(y[key]), (where, key, x[key], y[key])


def same_aec(a: Any, b: Any, where: str) -> None:
    assert a.agents == b.agents, where
    assert a.agent_selection == b.agent_selection, where
    assert a.rewards == b.rewards, (where, a.rewards, b.rewards)
    assert a._cumulative_rewards == b._cumulative_rewards, where
    assert a.terminations == b.terminations, where
    assert a.truncations == b.truncations, where
    assert all(type(v) is bool for v in b.terminations.values()), where
    assert a.infos.keys() == b.infos.keys(), where
    for agent in a.agents:
        same_info(a.infos[agent], b.infos[agent], f"{where} info {agent}")
        x, y = a.observe(agent), b.observe(agent)
        same_array(x["observation"], y["observation"], f"{where} obs {agent}")
        same_array(x["action_mask"], y["action_mask"], f"{where} mask {agent}")
        ma, mb = a.action_space(agent)._mask_of(), b.action_space(agent)._mask_of()
        assert (ma is None) == (mb is None), where
        if ma is not None:
            same_array(ma, mb, f"{where} sample mask {agent}")
    assert a.table.cycles == b.table.cycles, where


def play_aec(preset: str, n: int, options: dict[str, Any], seed: int, steps: int) -> dict[str, int]:
    """Both AEC envs in lockstep with the same random legal actions (NOOP, where offered, half the
    time), compared after every step; a finished episode resets with the next seed."""
    a, b = pair_aec(preset, n, **options)
    rng = np.random.default_rng(seed)
    covered = {"steps": 0, "episodes": 0, "declines": 0, "dead": 0}
    a.reset(seed=seed)
    b.reset(seed=seed)
    same_aec(a, b, f"{preset}/{n} {options} reset")
    for k in range(steps):
        where = f"{preset}/{n} {options} step {k}"
        if not a.agents:
            covered["episodes"] += 1
            a.reset()
            b.reset()
            same_aec(a, b, where + " reset")
            continue
        obs, reward, term, trunc, info = a.last()
        obs_b, reward_b, term_b, trunc_b, info_b = b.last()
        assert (reward, term, trunc) == (reward_b, term_b, trunc_b), where
        same_array(obs["observation"], obs_b["observation"], where)
        same_array(obs["action_mask"], obs_b["action_mask"], where)
        same_info(info, info_b, where)
        if term or trunc:
            covered["dead"] += 1
            a.step(None)
            b.step(None)
        else:
            mask = obs["action_mask"]
            if mask[NOOP] and rng.random() < 0.5:
                action = NOOP
                covered["declines"] += 1
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            a.step(action)
            b.step(action)
            covered["steps"] += 1
        same_aec(a, b, where)
    assert a.game.to_position() == b.game.to_position()
    assert a.record().to_dict() == b.record().to_dict()
    same_array(a.state(), b.state(), "state")
    return covered


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_aec_trajectories_equal(preset: str, n: int) -> None:
    steps = 600 if n < 10 else 300
    for k, options in enumerate(OPTIONS):
        covered = play_aec(preset, n, options, seed=100 * n + k, steps=steps)
        assert covered["steps"] > 0


def test_aec_long_run_covers_declines_knockouts_and_episodes() -> None:
    totals: dict[str, int] = {}
    for preset, n, options in (("house", 4, {}), ("no-mercy", 4, {}), ("no-mercy", 6, {"episode": "match"}),
                               ("partners", 4, {"episode": "match", "reward": "win"})):
        for key, value in play_aec(preset, n, options, seed=7, steps=1500).items():
            totals[key] = totals.get(key, 0) + value
    assert totals["declines"] > 0 and totals["dead"] > 0 and totals["episodes"] > 0


def play_parallel(preset: str, n: int, options: dict[str, Any], seed: int, steps: int) -> int:
    a = parallel_env(preset, seats=n, backend="python", **options)
    b = parallel_env(preset, seats=n, backend="native", **options)
    rng = np.random.default_rng(seed)
    episodes = 0
    outs = a.reset(seed=seed), b.reset(seed=seed)
    for k in range(steps):
        where = f"parallel {preset}/{n} {options} step {k}"
        (obs_a, info_a), (obs_b, info_b) = outs[0][:2], outs[1][:2]
        assert a.agents == b.agents and obs_a.keys() == obs_b.keys() and info_a.keys() == info_b.keys(), where
        for agent in obs_a:
            same_array(obs_a[agent]["observation"], obs_b[agent]["observation"], where)
            same_array(obs_a[agent]["action_mask"], obs_b[agent]["action_mask"], where)
            same_info(info_a[agent], info_b[agent], where)
        if not a.agents:
            episodes += 1
            outs = a.reset(), b.reset()
            continue
        actions = {}
        for agent in a.agents:
            legal = np.flatnonzero(obs_a[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if len(legal) else NOOP
        ra, rb = a.step(actions), b.step(actions)
        for x, y in zip(ra[1:4], rb[1:4], strict=True):
            assert x == y, where
        outs = (ra[0], ra[4]), (rb[0], rb[4])
    assert a.game.to_position() == b.game.to_position()
    return episodes


@pytest.mark.parametrize(("preset", "n"), [("official", 2), ("house", 4), ("no-mercy", 6), ("partners", 10)])
def test_parallel_trajectories_equal(preset: str, n: int) -> None:
    for k, options in enumerate(OPTIONS[:4]):
        play_parallel(preset, n, options, seed=50 + k, steps=250)


@pytest.mark.parametrize(("preset", "n"), [("official", 2), ("house", 10), ("no-mercy", 4)])
def test_pettingzoo_checkers_on_the_native_backend(preset: str, n: int) -> None:
    api_test(aec_env(preset, seats=n, backend="native"), num_cycles=200)
    parallel_api_test(parallel_env(preset, seats=n, backend="native"), num_cycles=200)
    seed_test(lambda: aec_env(preset, seats=n, backend="native"), num_cycles=100)


def test_auto_picks_native_and_falls_back_for_opponents() -> None:
    assert native_available()
    assert aec_env("official", seats=2).backend_name == "native"
    assert parallel_env("official", seats=2).backend_name == "native"
    from unotable.bots.random_bot import RandomBot

    env = aec_env("official", seats=2, opponents={1: RandomBot()})
    assert env.backend_name == "python"
    with pytest.raises(NotImplementedError):
        aec_env("official", seats=2, backend="native", opponents={1: RandomBot()})
    with pytest.raises(ValueError, match="backend"):
        aec_env("official", seats=2, backend="gpu")


def refusals(envs: tuple[Any, Any], action: Any) -> list[tuple[type, str]]:
    """Each env's error (class and message) for ``action``."""
    errors = []
    for env in envs:
        with pytest.raises((IllegalActionError, InvalidActionError)) as caught:
            env.step(action)
        errors.append((type(caught.value), str(caught.value)))
    return errors


def test_bad_actions_are_refused_alike_and_change_nothing() -> None:
    a, b = pair_aec("official", 2, illegal="raise")
    a.reset(seed=9)
    b.reset(seed=9)
    mask = a.last()[0]["action_mask"]
    before = b.game.to_position()
    for bad in (int(np.flatnonzero(mask == 0)[0]), NOOP, 445, -1, 2**40):
        first, second = refusals((a, b), bad)
        assert first == second, bad
    assert b.game.to_position() == before
    same_aec(a, b, "after refusals")
    pa = parallel_env("official", seats=2, backend="python", illegal="raise")
    pb = parallel_env("official", seats=2, backend="native", illegal="raise")
    pa.reset(seed=4)
    pb.reset(seed=4)
    for actions in ({}, {"seat_0": NOOP, "seat_1": NOOP}, {"seat_0": 444, "seat_1": NOOP},
                    {"seat_0": 0, "seat_1": 1}):
        first, second = refusals((pa, pb), actions)
        assert first == second, actions


@pytest.mark.filterwarnings("ignore::unotable.env.IllegalActionWarning")
def test_a_forfeit_is_the_same_on_both_backends() -> None:
    a, b = pair_aec("house", 3)
    for bad in ("unmasked", 445):  # an index outside the mask after a few steps, one outside the space
        a.reset(seed=12)
        b.reset(seed=12)
        for _ in range(5):
            action = int(np.flatnonzero(a.last()[0]["action_mask"])[0])
            a.step(action)
            b.step(action)
        mask = a.last()[0]["action_mask"]
        index = int(np.flatnonzero(mask == 0)[0]) if bad == "unmasked" else 445
        offender, before = a.agent_selection, a.game.to_position()
        a.step(np.int64(index))
        b.step(index)
        same_aec(a, b, f"forfeit {bad}")
        assert a.game.to_position() == b.game.to_position() == before
        assert a.rewards[offender] == -1.0 and sum(a.rewards.values()) == -1.0
        assert all(a.terminations.values()) and all(b.terminations.values())
    pa = parallel_env("official", seats=3, backend="python")
    pb = parallel_env("official", seats=3, backend="native")
    outs = [env.reset(seed=4) for env in (pa, pb)]
    obs = outs[0][0]
    actions = {agent: int(np.flatnonzero(o["action_mask"])[0]) for agent, o in obs.items()}
    actions["seat_1"] = 445
    ra, rb = pa.step(actions), pb.step(actions)
    assert ra[1:4] == rb[1:4]
    assert ra[1] == {"seat_0": 0.0, "seat_1": -1.0, "seat_2": 0.0} and all(ra[2].values())
    assert pa.agents == pb.agents == []


def test_positions_render_and_records_on_the_native_backend() -> None:
    doc = {"hands": [["R7", "G2"], ["B5", "R1"]], "discard": ["R3"], "draw": ["Y9"]}
    a = aec_env("official", seats=2, backend="python", render_mode="ansi")
    b = aec_env("official", seats=2, backend="native", render_mode="ansi")
    for env in (a, b):
        env.reset(options={"position": doc})
    same_aec(a, b, "position")
    assert a.render() == b.render()
    for _ in range(3):
        if not a.agents:
            break
        action = int(np.flatnonzero(a.last()[0]["action_mask"])[0])
        a.step(action)
        b.step(action)
        same_aec(a, b, "position step")
        assert a.render() == b.render()
    assert a.game.to_position() == b.game.to_position()
    with pytest.raises(ValueError, match="seats"):
        aec_env("official", seats=3, backend="native").reset(options={"position": doc})
