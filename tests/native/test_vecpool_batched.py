"""Opponents as batched policies and the core's threads: the native VecPool against the Python
backend in lockstep, buffer for buffer, and against itself on one thread.

A batched policy (unotable.env.batched) keeps the tables in the core: both backends stop at its
seats, hand it every waiting table in one call per policy, and must give the same observations,
masks, rewards, flags and calls. ``threads=k`` must change nothing but the speed. The self-play
rows deliver rewards as PettingZoo's ``last()`` does, checked against the AEC env.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("unotable_native")

from unotable.env import aec_env, vector_env
from unotable.env.native_vector import NativeUnsupported, VecPool
from unotable.env.vector import PythonBackend
from unotable.errors import IllegalActionError
from unotable.game import Game
from unotable.rules import Ruleset

BUFFERS = ("obs", "mask", "reward", "acted", "terminated", "truncated", "seat")


class Scored:
    """A deterministic batched policy that depends on the observation (so a wrong observation
    shows), and logs every call's rows."""

    def __init__(self, salt: int) -> None:
        self.salt = salt
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self.calls.append((obs.copy(), mask.copy()))
        w = (obs.astype(np.int64) * np.arange(1, obs.shape[1] + 1)).sum(axis=1) % 97 + self.salt
        score = np.where(mask, (np.arange(mask.shape[1])[None, :] * 31 + w[:, None] * 17) % 101, -1)
        return score.argmax(axis=1)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


def lockstep(make, steps: int, seed: int = 7, positions=None) -> None:  # type: ignore[no-untyped-def]
    """Build the pair with make(backend_class) (which also returns its policies), step both with
    the same random legal actions and compare every buffer and every policy call."""
    (py, py_pols), (nat, nat_pols) = make(PythonBackend), make(VecPool)
    n = py.num_envs
    seeds = list(range(seed, seed + n))
    if positions is None:
        py.reset(seeds)
        nat.reset(seeds)
    else:
        py.reset(seeds, positions)
        nat.reset(seeds, positions)
    rng = np.random.default_rng(seed)
    for step in range(steps):
        for name in BUFFERS:
            assert np.array_equal(getattr(py, name), getattr(nat, name)), (step, name)
        acts = random_actions(py.mask, rng)
        py.step(acts)
        nat.step(acts)
    for a, b in zip(py_pols, nat_pols, strict=True):
        assert len(a.calls) == len(b.calls) > 0
        for (oa, ma), (ob, mb) in zip(a.calls, b.calls, strict=True):
            assert np.array_equal(oa, ob) and np.array_equal(ma, mb)


@pytest.mark.parametrize(("preset", "seats", "oot"), [
    ("official", 2, "full"), ("official", 4, "auto"), ("house", 3, "full"), ("no-mercy", 4, "full"),
    ("official-112-swap", 4, "full"), ("partners", 4, "auto"), ("two-player", 2, "full")])
def test_batched_opponents_lockstep(preset: str, seats: int, oot: str) -> None:
    def make(cls):  # type: ignore[no-untyped-def]
        pol = Scored(1)
        return cls(12, Ruleset.preset(preset), seats, out_of_turn=oot, opponents=pol, seat="random"), [pol]

    lockstep(make, 250)


def test_mixed_and_distinct_policies_lockstep() -> None:
    """Two policies and a core bot at one table: one call per policy per round of waiting tables."""
    def make(cls):  # type: ignore[no-untyped-def]
        a, b = Scored(1), Scored(5)
        return cls(10, Ruleset.preset("official"), 4, opponents=[a, "rule-v1", b], seat=1,
                   episode="match", reward="score"), [a, b]

    lockstep(make, 300)


def test_batched_opponents_from_positions_and_max_cycles() -> None:
    docs = [Game.new(3, "official", seed=40 + i).to_position() for i in range(6)]

    def make(cls):  # type: ignore[no-untyped-def]
        pol = Scored(2)
        return cls(6, Ruleset.preset("official"), 3, opponents=pol, max_cycles=9), [pol]

    lockstep(make, 120, positions=docs)


@pytest.mark.parametrize("opponents", [None, "rule-v1", "policy"])
def test_threads_change_nothing(opponents: str | None) -> None:
    results = []
    for threads in (1, 2, 3):
        opp = Scored(3) if opponents == "policy" else opponents
        pool = VecPool(37, Ruleset.preset("house"), 4, opponents=opp, threads=threads)
        assert pool.threads == threads
        pool.reset(list(range(50, 87)))
        rng = np.random.default_rng(9)
        run = []
        for _ in range(200):
            pool.step(random_actions(pool.mask, rng))
            run.append([getattr(pool, name).copy() for name in BUFFERS])
        results.append(run)
    for other in results[1:]:
        for a, b in zip(results[0], other, strict=True):
            for x, y in zip(a, b, strict=True):
                assert np.array_equal(x, y)


def test_threads_option_checked() -> None:
    for bad in (0, -1, 1.5, True, 1000):
        with pytest.raises(ValueError, match="threads"):
            vector_env(2, "official", opponents=None, backend="native", threads=bad)


def test_the_env_picks_the_core_for_a_batched_policy() -> None:
    pol = Scored(1)
    envs = vector_env(4, "official", seats=2, opponents=pol)
    assert envs.backend_name == "native"
    envs.reset(seed=1)
    for _ in range(20):
        envs.step(envs.sample_legal())
    assert pol.calls
    # a bot object is not a batched policy: the core does not take it
    from unotable.bots import make_bot

    with pytest.raises(NativeUnsupported):
        vector_env(2, "official", opponents=make_bot("heuristic"), backend="native")


@pytest.mark.parametrize("cls", [PythonBackend, VecPool])
def test_an_illegal_opponent_action_raises_and_needs_a_reset(cls) -> None:  # type: ignore[no-untyped-def]
    calls = []

    def bad(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append(len(obs))
        illegal = np.where(mask, -1, np.arange(445)[None, :]).argmax(axis=1)
        return illegal if len(calls) > 3 else mask.argmax(1)

    pool = cls(4, Ruleset.preset("official"), 2, opponents=bad)
    pool.reset([1, 2, 3, 4])
    rng = np.random.default_rng(0)
    with pytest.raises(IllegalActionError, match="opponent policy at seat 1 chose action"):
        for _ in range(20):
            pool.step(random_actions(pool.mask, rng))
    with pytest.raises(IllegalActionError, match="reset"):
        pool.step(random_actions(pool.mask, rng))
    calls.clear()
    pool.reset([1, 2, 3, 4])  # usable again


@pytest.mark.parametrize("cls", [PythonBackend, VecPool])
def test_a_policy_of_the_wrong_shape_is_refused(cls) -> None:  # type: ignore[no-untyped-def]
    pool = cls(3, Ruleset.preset("official"), 2, seat=1,
               opponents=lambda obs, mask: np.zeros(len(obs) + 1, np.int64))
    floats = cls(3, Ruleset.preset("official"), 2, seat=1, opponents=lambda obs, mask: mask.argmax(1) * 1.0)
    rng = np.random.default_rng(0)
    for p in (pool, floats):
        with pytest.raises(ValueError, match="int action indices, one per row"):
            p.reset([1, 2, 3])
            for _ in range(10):
                p.step(random_actions(p.mask, rng))


@pytest.mark.parametrize("backend", ["python", "native"])
def test_self_play_rewards_follow_last(backend: str) -> None:
    """The self-play rows give each seat its reward when it next decides (the row's reward) or at
    the episode's end (every seat's, in seat_rewards), as the AEC env's last() does."""
    seats, seed = 3, 21
    envs = vector_env(1, "official", seats=seats, opponents=None, backend=backend)
    aec = aec_env("official", seats=seats, backend="python")
    for episode in range(4):
        obs, infos = envs.reset(seed=seed + episode)
        aec.reset(seed=seed + episode)
        rng = np.random.default_rng(episode)
        totals, aec_totals = np.zeros(seats), np.zeros(seats)
        rewards, ended = None, False
        for agent in aec.agent_iter():
            o, reward, term, trunc, _info = aec.last()
            s = int(agent.split("_")[1])
            aec_totals[s] += reward
            if term or trunc:  # every seat's last reward came with the episode's final step
                assert ended
                assert infos["seat_rewards"][0, s] == pytest.approx(reward)
                aec.step(None)
                continue
            assert int(infos["seat"][0]) == s
            assert np.array_equal(obs[0], o["observation"])
            if rewards is not None:
                expected = np.zeros(seats)
                expected[s] = reward
                assert float(rewards[0]) == pytest.approx(reward)
                assert infos["seat_rewards"][0].tolist() == pytest.approx(expected.tolist())
            a = int(rng.choice(np.flatnonzero(o["action_mask"])))
            aec.step(a)
            obs, rewards, te, tr, infos = envs.step(np.array([a]))
            totals += infos["seat_rewards"][0]
            ended = bool(te[0] or tr[0])
        assert ended and totals.any()
        assert totals.tolist() == pytest.approx(aec_totals.tolist())
        assert totals.sum() == pytest.approx(0.0)
