"""The vector env's native backend (unotable.env.native_vector.VecPool) against its Python backend
(unotable.env.vector.PythonBackend): from the same seeds and actions, every buffer equal after
every step (observation bytes, masks, per-seat rewards, the acting seat, terminated, truncated,
the deciding seat), under every preset at 2, 4 and 10 seats, out-of-turn chances full and auto,
self-play and each built-in opponent, round and match episodes, the three rewards; and bad input
refused alike, nothing changed."""
from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("unotable_native", reason="the native core is not built: `pip install -e native/`")

import numpy as np

from unotable import Ruleset
from unotable.agent import derive_seed
from unotable.env import native_vector, vector_env
from unotable.env.backend import native_available
from unotable.env.spaces import NOOP
from unotable.env.table import resolve_ruleset
from unotable.env.vector import PythonBackend
from unotable.errors import IllegalActionError, InvalidActionError, RulesetError
from unotable.rules import PRESET_NAMES

from lockstep import BUFFERS, assert_same_buffers

VecPool = native_vector.VecPool

CASES = [(p, n) for p in PRESET_NAMES for n in (2, 4, 10) if n in Ruleset.preset(p).seat_counts]

# Each option set is played by both backends; together they cover every option of the contract
OPTIONS: list[dict[str, Any]] = [
    {},  # self-play, out_of_turn="full", round, win
    {"out_of_turn": "auto"},
    {"opponents": "random"},
    {"opponents": "rule-v1", "seat": "random", "reward": "score"},
    {"opponents": "random-stuck", "episode": "match", "reward": "rank", "out_of_turn": "auto"},
    {"episode": "match", "reward": "score"},
    {"episode": "match", "reward": "win", "out_of_turn": "auto"},
    {"reward": "rank", "max_cycles": 40},
    {"opponents": "random", "max_cycles": 25, "out_of_turn": "auto", "episode": "match"},
]


def backends(preset: str, n: int, tables: int, **options: Any) -> tuple[PythonBackend, Any]:
    rules = resolve_ruleset(preset)
    return PythonBackend(tables, rules, n, **options), VecPool(tables, rules, n, **options)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random action of each row's mask (NOOP, where it is offered, half the time; else uniform),
    0 for a row with none."""
    out = np.zeros(len(mask), dtype=np.int32)
    for i, row in enumerate(mask):
        legal = np.flatnonzero(row)
        if row[NOOP] and rng.random() < 0.5:
            out[i] = NOOP
        elif len(legal):
            out[i] = rng.choice(legal)
    return out


def lockstep(preset: str, n: int, options: dict[str, Any], tables: int, steps: int,
             seed: int) -> dict[str, int]:
    """Step both backends with the same random actions; every buffer is compared after every step.
    Returns what was covered (row steps, episodes ended, declines, out-of-turn decisions)."""
    a, b = backends(preset, n, tables, **options)
    seeds = [seed + i for i in range(tables)]
    a.reset(seeds)
    b.reset(seeds)
    assert_same_buffers(a, b, f"{preset}/{n} {options} reset")
    rng = np.random.default_rng(seed)
    seen = {"steps": 0, "episodes": 0, "declines": 0, "offers": 0}
    for t in range(steps):
        actions = random_actions(a.mask, rng)
        seen["offers"] += int(a.mask[:, NOOP].sum())
        seen["declines"] += int((actions == NOOP).sum())
        seen["episodes"] += int((a.terminated | a.truncated).sum())
        a.step(actions)
        b.step(actions)
        seen["steps"] += tables
        assert_same_buffers(a, b, f"{preset}/{n} {options} step {t}")
    return seen


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_trajectories_equal_under_every_option(preset: str, n: int) -> None:
    covered = {"steps": 0, "episodes": 0, "declines": 0, "offers": 0}
    for k, options in enumerate(OPTIONS):
        seen = lockstep(preset, n, options, tables=4, steps=120, seed=1000 * k + n)
        for key, value in seen.items():
            covered[key] += value
    assert covered["steps"] == len(OPTIONS) * 4 * 120
    assert covered["episodes"] > 0  # auto-reset and episode seeds derived with derive_seed were compared
    assert covered["offers"] > 0 and covered["declines"] > 0  # out-of-turn decision points were too


def test_long_run_official_four_seats() -> None:
    """Thousands of row steps on one ruleset: many episodes, each seeded from derive_seed."""
    seen = lockstep("official", 4, {"opponents": "rule-v1"}, tables=8, steps=500, seed=7)
    assert seen["steps"] == 4000 and seen["episodes"] >= 8


def test_seeds_above_64_bits_and_episode_seeds() -> None:
    a, b = backends("official", 3, 2, opponents="random", seat="random")
    seeds = [2**70 + 3, 2**130 + 1]
    a.reset(seeds)
    b.reset(seeds)
    assert_same_buffers(a, b, "big seeds")
    assert a.tables[0].episode_seed == seeds[0]
    rng = np.random.default_rng(0)
    for _ in range(300):
        actions = random_actions(a.mask, rng)
        a.step(actions)
        b.step(actions)
        assert_same_buffers(a, b, "big seeds")
    assert a._episode[0] > 0
    assert a.tables[0].episode_seed == derive_seed(seeds[0], "episode", a._episode[0])


def test_auto_picks_the_native_backend_and_the_vector_envs_agree() -> None:
    assert native_available()
    envs = {b: vector_env(3, "house", seats=4, opponents=None, backend=b) for b in ("auto", "python")}
    assert envs["auto"].backend_name == "native"
    out = {b: e.reset(seed=9) for b, e in envs.items()}
    rng = np.random.default_rng(1)
    for _ in range(200):
        infos = out["python"][1]
        assert np.array_equal(out["auto"][0], out["python"][0])
        for key in ("action_mask", "seat", "seat_rewards"):
            assert np.array_equal(out["auto"][1][key], infos[key])
        actions = random_actions(infos["action_mask"], rng)
        out = {b: e.step(actions) for b, e in envs.items()}
        out = {b: (r[0], r[4], r[1], r[2], r[3]) for b, r in out.items()}
        for k in (2, 3, 4):
            assert np.array_equal(out["auto"][k], out["python"][k])


def test_an_opponent_the_core_lacks_falls_back_to_python() -> None:
    envs = vector_env(2, "official", seats=2, opponents="heuristic", backend="auto")
    assert envs.backend_name == "python"
    with pytest.raises(NotImplementedError, match="heuristic"):
        vector_env(2, "official", seats=2, opponents="heuristic", backend="native")
    with pytest.raises(native_vector.NativeUnsupported):
        VecPool(2, "official", 3, opponents=["random", "rule-v1:x=1"])
    mixed = vector_env(2, "official", seats=3, opponents=["random", "rule-v1"], backend="auto")
    assert mixed.backend_name == "native"


@pytest.mark.parametrize("options", [{"out_of_turn": "sometimes"}, {"episode": "season"}, {"reward": "gold"},
                                     {"max_cycles": 0}, {"opponents": ["random"] * 3}])
def test_bad_options_raise_value_error_in_both(options: dict[str, Any]) -> None:
    rules = resolve_ruleset("official")
    for make in (PythonBackend, VecPool):
        with pytest.raises(ValueError):
            make(2, rules, 2, **options)
    with pytest.raises(ValueError, match="seat"):
        VecPool(2, rules, 2, opponents="random", seat=2)


def test_bad_seeds_raise_the_engines_error() -> None:
    a, b = backends("official", 2, 2)
    for pool in (a, b):
        with pytest.raises(RulesetError):
            pool.reset([1, -1])
    with pytest.raises(ValueError, match="seeds"):
        b.reset([1])
    with pytest.raises(IllegalActionError, match="reset"):
        VecPool(1, "official", 2).step(np.zeros(1, np.int32))


def test_bad_actions_are_refused_alike_and_change_nothing() -> None:
    a, b = backends("house", 4, 3, opponents=None)
    a.reset([5, 6, 7])
    b.reset([5, 6, 7])
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(150):
        good = random_actions(a.mask, rng)
        before = {name: getattr(b, name).copy() for name in BUFFERS}
        row = int(rng.integers(3))
        illegal = np.flatnonzero(a.mask[row] == 0)
        probes = ((int(rng.choice(illegal)), (IllegalActionError, InvalidActionError)),
                  (445, InvalidActionError), (-1, InvalidActionError), (2**40, InvalidActionError))
        for bad_index, error in probes:
            if a.terminated[row] or a.truncated[row]:
                break  # an auto-reset row ignores its action
            bad = good.astype(np.int64)
            bad[row] = bad_index
            with pytest.raises(error) as got:
                b.step(bad)
            with pytest.raises(error) as want:
                a.tables[row].step(bad_index)  # the Python backend's table refuses it alike
            assert type(got.value) is type(want.value)
            for name in BUFFERS:  # nothing changed
                assert np.array_equal(getattr(b, name), before[name]), name
            checked += 1
        a.step(good)
        b.step(good)
        assert_same_buffers(a, b, "after refusals")
    assert checked > 100
    with pytest.raises(ValueError, match="shape"):
        b.step(np.zeros(2, np.int32))
    with pytest.raises(ValueError, match="ints"):
        b.step(np.zeros(3, np.float32))


def test_noop_is_refused_on_a_turn() -> None:
    _, b = backends("official", 2, 1, opponents="rule-v1")
    b.reset([1])
    assert b.mask[0, NOOP] == 0 and b.mask[0].any()
    with pytest.raises(IllegalActionError, match="may not decline"):
        b.step(np.array([NOOP], np.int32))
