"""The vector env's reset options: ``{"position": doc}`` starts every table from a position
document, ``{"positions": [...]}`` table ``i`` from the ``i``-th, each row observing what
``aec_env`` reset from the same position observes; the seeds still seed the learner, the bots
and the later episodes; anything else is refused, on both backends, and no table changes."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from unotable.arbiter import derive_seed
from unotable.env import aec_env, vector_env
from unotable.env.backend import native_available
from unotable.env.table import Table
from unotable.errors import PositionError
from unotable.game import Game

BACKENDS = ["python"] + (["native"] if native_available() else [])  # the core's where it is built

BUFFERS = ("obs", "mask", "reward", "acted", "terminated", "truncated", "seat")


def mid_round(preset: str, seats: int, seed: int, actions: int) -> dict[str, Any]:
    """The position after ``actions`` random decisions of a self-played round (fewer if it ends)."""
    t = Table(preset, seats)
    t.reset(seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if t.done:
            break
        t.step(rng.choice([i for i, m in enumerate(t.mask()) if m]))
    return t.game.to_position()


def finished(preset: str, seats: int, seed: int) -> dict[str, Any]:
    t = Table(preset, seats, out_of_turn="auto")
    t.reset(seed)
    rng = random.Random(seed)
    while not t.done:
        t.step(rng.choice([i for i, m in enumerate(t.mask()) if m]))
    return t.game.to_position()


def aec_view(preset: str, seats: int, doc: dict[str, Any]) -> tuple[int, np.ndarray, np.ndarray]:
    """The deciding seat, its observation and its mask in ``aec_env`` reset from ``doc``."""
    env = aec_env(preset, seats=seats, backend="python")
    env.reset(seed=1, options={"position": doc})
    agent = env.agent_selection
    seen = env.observe(agent)
    return env.possible_agents.index(agent), seen["observation"], seen["action_mask"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_position_starts_every_table_as_aec_env_sees_it(backend: str) -> None:
    doc = mid_round("house", 4, seed=21, actions=9)
    envs = vector_env(3, "house", seats=4, opponents=None, backend=backend)
    obs, infos = envs.reset(seed=5, options={"position": doc})
    seat, want_obs, want_mask = aec_view("house", 4, doc)
    for i in range(3):
        assert int(infos["seat"][i]) == seat
        assert np.array_equal(obs[i], want_obs)
        assert np.array_equal(infos["action_mask"][i], want_mask)
    envs.step(envs.sample_legal())  # and the rows play on


@pytest.mark.parametrize("backend", BACKENDS)
def test_positions_start_table_i_from_the_ith(backend: str) -> None:
    docs = [mid_round("official", 2, seed=s, actions=s % 7) for s in (3, 4, 5, 6)]
    envs = vector_env(4, "official", seats=2, opponents=None, backend=backend)
    obs, infos = envs.reset(seed=8, options={"positions": docs})
    assert len({bytes(row) for row in obs}) == 4
    for i, doc in enumerate(docs):
        seat, want_obs, want_mask = aec_view("official", 2, doc)
        assert int(infos["seat"][i]) == seat
        assert np.array_equal(obs[i], want_obs)
        assert np.array_equal(infos["action_mask"][i], want_mask)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_finished_position_ends_the_row_and_the_next_episode_deals_from_the_seed(backend: str) -> None:
    doc = finished("official", 2, seed=13)
    envs = vector_env(2, "official", seats=2, opponents=None, backend=backend)
    _, infos = envs.reset(seed=30, options={"position": doc})
    assert not infos["action_mask"].any()  # no decision: the episode is over
    assert envs.pool.terminated.all() and not envs.pool.truncated.any()
    obs, rewards, terms, truncs, infos = envs.step(np.zeros(2, np.int64))  # NEXT_STEP: the auto-reset
    assert not rewards.any() and not terms.any() and not truncs.any()
    for i in range(2):  # episode 1 of table i's seed, exactly
        t = Table("official", 2)
        t.reset(derive_seed(30 + i, "episode", 1))
        assert int(infos["seat"][i]) == t.seat
        assert bytes(obs[i]) == bytes(t.observation(t.seat))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_learner_of_seat_random_is_still_drawn_from_the_seed(backend: str) -> None:
    doc = mid_round("house", 4, seed=2, actions=5)
    envs = vector_env(5, "house", seats=4, opponents="random", seat="random", backend=backend)
    _, infos = envs.reset(seed=12, options={"position": doc})
    drawn = [random.Random(derive_seed(12 + i, "learner")).randrange(4) for i in range(5)]
    assert infos["seat"].tolist() == drawn


def _bad(case: str) -> tuple[dict[str, Any], type[Exception], str]:
    doc = mid_round("official", 2, seed=4, actions=3)
    if case == "unknown":
        return {"seed_offset": 1}, ValueError, r"'position' or 'positions', not 'seed_offset'"
    if case == "both":
        return {"position": doc, "positions": [doc] * 3}, ValueError, "not both"
    if case == "short":
        return {"positions": [doc, doc]}, ValueError, r"lists 2 positions for 3 tables"
    if case == "not a list":
        return {"positions": doc}, ValueError, r"a list of 3 position documents.*not dict"
    if case == "malformed":
        bad = {**doc, "hands": "R7"}
        return {"positions": [doc, doc, bad]}, PositionError, r"position of table 2: .*hands"
    if case == "text":
        return {"position": "R7 G2"}, PositionError, r"table 0: a position is a JSON object, not str"
    if case == "seats":
        other = mid_round("official", 3, seed=4, actions=3)
        return {"positions": [doc, other, doc]}, PositionError, r"table 1: it has 3 seats; the env plays 2"
    other = Game.new(2, "house", seed=4).to_position()
    return {"position": other}, PositionError, r"table 0: its ruleset is not the env's \(.*jump_in"


@pytest.mark.parametrize("case", ["unknown", "both", "short", "not a list", "malformed", "text", "seats",
                                  "ruleset"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bad_option_is_refused_and_no_table_changes(backend: str, case: str) -> None:
    options, error, match = _bad(case)
    envs = vector_env(3, "official", seats=2, opponents="random", backend=backend)
    control = vector_env(3, "official", seats=2, opponents="random", backend=backend)
    for e in (envs, control):
        e.reset(seed=7)
        e.step(np.zeros(3, np.int64) + e.sample_legal())
    before = {name: getattr(envs.pool, name).copy() for name in BUFFERS}
    with pytest.raises(error, match=match):
        envs.reset(seed=8, options=options)
    for name in BUFFERS:
        assert np.array_equal(getattr(envs.pool, name), before[name]), name
    actions = control.sample_legal()
    got, want = envs.step(actions), control.step(actions)  # the tables play on as if nothing was asked
    for x, y in zip(got[:4], want[:4], strict=True):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_empty_options_dict_is_a_plain_reset(backend: str) -> None:
    envs = vector_env(2, "official", seats=2, backend=backend)
    a, _ = envs.reset(seed=3, options={})
    b, _ = envs.reset(seed=3)
    assert np.array_equal(a, b)
