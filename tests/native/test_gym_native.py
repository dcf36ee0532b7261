"""The Gymnasium env's native backend (unotable.env.native_table.NativeTable with the core's opponents
under gym_env) against its Python backend: from the same seeds and learner actions, the same
observations, masks, rewards, terminated/truncated flags and infos after every step, and the same
game and record at the end, under several presets at 2, 4 and 10 seats, the opponents random,
random-stuck, rule-v1 and a mix, out-of-turn chances full and auto, round and match episodes, the
three rewards, max_cycles, fixed and random learning seats; Gymnasium's checker on the native
backend; the backend's choice (the fallback to Python for an opponent the core has not, the
error under backend="native"); bad actions refused alike."""
from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("unotable_native", reason="the native core is not built: `pip install -e native/`")

import numpy as np
from gymnasium.utils.env_checker import check_env

from unotable import Ruleset
from unotable.bots import make_bot
from unotable.env import gym_env
from unotable.env.backend import native_available
from unotable.errors import IllegalActionError, InvalidActionError

PRESETS = ("official", "house", "no-mercy", "partners")
CASES = [(p, n) for p in PRESETS for n in (2, 4, 10) if n in Ruleset.preset(p).seat_counts]
SPECS = ("random", "random-stuck", "rule-v1")

OPTIONS: list[dict[str, Any]] = [
    {},  # out_of_turn="full", round, win, seat 0
    {"out_of_turn": "auto", "reward": "score", "seat": 1},
    {"episode": "match", "reward": "rank", "seat": "random"},
    {"episode": "match", "reward": "win", "out_of_turn": "auto", "max_cycles": 200},
    {"reward": "rank", "max_cycles": 30, "seat": "random"},
]


def pair(preset: str, n: int, **options: Any) -> tuple[Any, Any]:
    a = gym_env(preset, seats=n, backend="python", **options)
    b = gym_env(preset, seats=n, backend="native", **options)
    assert (a.backend_name, b.backend_name) == ("python", "native")
    return a, b


def same(x: Any, y: Any, where: str) -> None:
    """Equal values of the same types, through tuples, dicts and numpy arrays (dtype and shape too)."""
    assert type(x) is type(y), (where, type(x), type(y))
    if isinstance(x, np.ndarray):
        assert (x.dtype, x.shape) == (y.dtype, y.shape) and np.array_equal(x, y), where
    elif isinstance(x, dict):
        assert x.keys() == y.keys(), where
        for key in x:
            same(x[key], y[key], f"{where} {key}")
    elif isinstance(x, tuple):
        assert len(x) == len(y), where
        for k, (u, v) in enumerate(zip(x, y, strict=True)):
            same(u, v, f"{where} [{k}]")
    else:
        assert x == y, (where, x, y)


def same_env(a: Any, b: Any, where: str) -> None:
    same(a.action_masks(), b.action_masks(), f"{where} action_masks")
    assert a.learner == b.learner, where
    assert a.table.cycles == b.table.cycles, where
    assert a.table.done == b.table.done, where


def play(a: Any, b: Any, seed: int, episodes: int = 2, steps: int = 3000) -> int:
    """Run both envs in lockstep with random legal learner actions: episode 0 from ``seed``, the
    others from reset() without a seed; the number of learner steps taken."""
    rng = np.random.default_rng(seed)
    total = 0
    for e in range(episodes):
        kw = {"seed": seed} if e == 0 else {}
        same(a.reset(**kw), b.reset(**kw), f"reset {e}")
        same_env(a, b, f"reset {e}")
        for k in range(steps):
            mask = a.action_masks()
            if not mask.any():
                break
            action = int(rng.choice(np.flatnonzero(mask)))
            ra, rb = a.step(action), b.step(action)
            where = f"episode {e} step {k} action {action}"
            same(ra, rb, where)
            same_env(a, b, where)
            total += 1
            if ra[2] or ra[3]:
                break
        assert a.table.game.to_position() == b.table.game.to_position(), f"episode {e} game"
        assert a.record().to_dict() == b.record().to_dict(), f"episode {e} record"
    return total


@pytest.mark.parametrize(("preset", "n"), CASES)
@pytest.mark.parametrize("k", range(len(OPTIONS)))
def test_lockstep(preset: str, n: int, k: int) -> None:
    options = dict(OPTIONS[k])
    if n == 10 and options.get("episode") == "match":
        options["max_cycles"] = 120  # keep the 10-seat matches short
    spec = SPECS[(k + n) % len(SPECS)]
    a, b = pair(preset, n, opponents=spec, **options)
    assert play(a, b, seed=100 * k + n) > 0


@pytest.mark.parametrize(("preset", "n"), [("official", 4), ("house", 4), ("no-mercy", 6), ("partners", 4)])
def test_mixed_opponents(preset: str, n: int) -> None:
    others = [SPECS[s % 3] for s in range(n - 1)]
    for options in ({"seat": 2}, {"seat": "random", "out_of_turn": "auto", "episode": "match",
                                  "reward": "score", "max_cycles": 150}):
        a, b = pair(preset, n, opponents=others, **options)
        play(a, b, seed=n + 11, episodes=3)


def test_seeds_without_a_seed_and_positions() -> None:
    a, b = pair("house", 4, opponents="rule-v1", seat="random")
    a.reset(seed=3)
    for _ in range(5):
        mask = a.action_masks()
        action = int(np.flatnonzero(mask)[0])
        a.step(action)
        if a.table.done:
            break
    doc = a.table.game.to_position()
    x, y = a.reset(seed=9, options={"position": doc}), b.reset(seed=9, options={"position": doc})
    same(x, y, "position")
    assert a.table.game.to_position() == b.table.game.to_position()


def test_backend_choice() -> None:
    assert native_available()
    assert gym_env("official", seats=2, opponents="rule-v1").backend_name == "native"
    assert gym_env("official", seats=3, opponents=["random", "rule-v1"]).backend_name == "native"
    for opponents in ("heuristic", ["rule-v1", "heuristic"], "heuristic:bluff=0.1", [make_bot("random")] * 2):
        assert gym_env("official", seats=3, opponents=opponents).backend_name == "python"
        with pytest.raises(NotImplementedError):
            gym_env("official", seats=3, opponents=opponents, backend="native")
    with pytest.raises(ValueError, match="backend"):
        gym_env("official", seats=2, backend="fast")
    with pytest.raises(ValueError, match="opponents given"):
        gym_env("official", seats=3, opponents=["rule-v1"], backend="native")


def test_bad_actions_refused_alike() -> None:
    a, b = pair("official", 4, opponents="random", illegal="raise")
    a.reset(seed=2)
    b.reset(seed=2)
    illegal = int(np.flatnonzero(~a.action_masks())[0])
    for bad, error in ((illegal, IllegalActionError), (10_000, InvalidActionError)):
        with pytest.raises(error) as ea:
            a.step(bad)
        with pytest.raises(error) as eb:
            b.step(bad)
        assert str(ea.value) == str(eb.value)
    same_env(a, b, "after refusals")
    a, b = pair("official", 4, opponents="random")  # the default: a forfeit
    same(a.reset(seed=2), b.reset(seed=2), "reset")
    same(a.step(illegal), b.step(illegal), "forfeit")
    assert a.table.game.to_position() == b.table.game.to_position()


def test_render_and_record() -> None:
    a, b = pair("house", 4, opponents="rule-v1", render_mode="ansi")
    play(a, b, seed=4, episodes=1)
    assert a.render() == b.render()


@pytest.mark.parametrize(("preset", "n"), [("official", 2), ("partners", 4), ("no-mercy", 3)])
def test_gymnasium_check_env(preset: str, n: int) -> None:
    env = gym_env(preset, seats=n, backend="native")  # the defaults: rule-v1 opponents, illegal="lose"
    check_env(env.unwrapped, skip_render_check=True)
