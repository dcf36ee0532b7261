"""The vector env's backends reset from position documents (``reset(seeds, positions)``): the
native core's VecPool against the Python backend, every buffer equal after the reset and after
every step of a few hundred, across auto-resets (whose episodes deal from the seeds), under several
presets, 2 and 4 seats, self-play and opponent mode; and bad positions refused alike, no row
changed."""
from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("unotable_native", reason="the native core is not built: `pip install -e native/`")

import numpy as np

from unotable.arbiter import derive_seed
from unotable.env.native_vector import VecPool
from unotable.env.table import Table, resolve_ruleset
from unotable.env.vector import PythonBackend
from unotable.errors import PositionError

from lockstep import BUFFERS, assert_same_buffers


def positions(preset: str, n: int, seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` positions of self-played games under ``preset``: mid-round ones (out-of-turn
    chances pending among them, from a seat's decline or not) and, as the last, a finished round."""
    t = Table(preset, n)
    rng = random.Random(seed)
    t.reset(seed)
    out: list[dict[str, Any]] = []

    def act() -> None:
        t.step(rng.choice([i for i, m in enumerate(t.mask()) if m]))

    while len(out) < count - 1:
        if t.done:
            t.reset(rng.randrange(2**40))
            continue
        for _ in range(rng.randrange(1, 12)):
            if t.done:
                break
            act()
        if not t.done:
            out.append(t.game.to_position())
    t.reset(rng.randrange(2**40))
    while not t.done:
        act()
    out.append(t.game.to_position())  # a round already over
    return out


def choose(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row, a play (or a call, a catch) nine times in ten where there is
    one, so that rounds end within the run; 0 for a row with none."""
    out = np.zeros(len(mask), np.int32)
    for i, row in enumerate(mask):
        legal = np.flatnonzero(row)
        plays = legal[(legal < 390) | ((legal >= 434) & (legal < 444))]
        if len(plays) and rng.random() < 0.9:
            out[i] = rng.choice(plays)
        elif len(legal):
            out[i] = rng.choice(legal)
    return out


CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("official", 2, {}),
    ("official", 4, {"opponents": "random"}),
    ("house", 4, {}),
    ("house", 2, {"opponents": "rule-v1", "seat": 1}),
    ("no-mercy", 4, {"opponents": "rule-v1", "seat": "random"}),
    ("no-mercy", 2, {"out_of_turn": "auto", "reward": "rank"}),
    ("partners", 4, {"opponents": "random", "episode": "match", "reward": "score"}),
    ("official-112-swap", 4, {"opponents": ["random", "rule-v1", "random-stuck"], "out_of_turn": "auto"}),
    ("official-112-swap", 2, {"episode": "match", "max_cycles": 30}),
]


@pytest.mark.parametrize(("preset", "n", "options"), CASES)
def test_reset_from_positions_then_step_alike(preset: str, n: int, options: dict[str, Any]) -> None:
    tables = 5
    rules = resolve_ruleset(preset)
    docs = positions(preset, n, seed=len(preset) * 7 + n, count=tables)
    a, b = PythonBackend(tables, rules, n, **options), VecPool(tables, rules, n, **options)
    seeds = [100 * n + i for i in range(tables)]
    a.reset(seeds, docs)
    b.reset(seeds, docs)
    assert_same_buffers(a, b, f"{preset}/{n} {options} reset")
    if options.get("episode") != "match":  # (a match deals its next round)
        assert a.terminated[-1] and a.acted[-1] == -1  # the finished round ends its row's episode at once
    if options.get("opponents") is None:  # the deciding seat's view of the position itself
        for i, doc in enumerate(docs[:-1]):
            t = Table(rules, n, **{k: v for k, v in options.items() if k != "max_cycles"})
            t.reset(seeds[i], doc)
            assert int(a.seat[i]) == t.seat and bytes(a.obs[i]) == bytes(t.observation(t.seat))
    rng = np.random.default_rng(n)
    ended = 0
    for step in range(400):
        ended += int((a.terminated | a.truncated).sum())
        actions = choose(a.mask, rng)
        a.step(actions)
        b.step(actions)
        assert_same_buffers(a, b, f"{preset}/{n} {options} step {step}")
    assert ended >= 2  # auto-resets were compared, the finished position's among them
    for i in range(tables):  # later episodes deal from the seeds, as after a seeded reset
        k = a._episode[i]
        assert a.tables[i].episode_seed == (seeds[i] if k == 0 else derive_seed(seeds[i], "episode", k))
    assert options.get("episode") == "match" or a._episode[-1] >= 1


def test_one_position_for_every_row_and_the_learner_from_the_seed() -> None:
    rules = resolve_ruleset("house")
    doc = positions("house", 4, seed=5, count=2)[0]
    a = PythonBackend(6, rules, 4, opponents="random", seat="random")
    b = VecPool(6, rules, 4, opponents="random", seat="random")
    seeds = [40 + i for i in range(6)]
    a.reset(seeds, [doc] * 6)
    b.reset(seeds, [doc] * 6)
    assert_same_buffers(a, b, "one position")
    drawn = [random.Random(derive_seed(s, "learner")).randrange(4) for s in seeds]
    assert a.seat.tolist() == drawn == b.seat.tolist()


BAD: list[tuple[Any, type[Exception], str]] = [
    ("last", PositionError, r"position of table 2: .*discard"),
    ("seats", PositionError, r"position of table 1: it has 4 seats; the env plays 2"),
    ("ruleset", PositionError, r"position of table 0: its ruleset is not the env's \(.*jump_in"),
    ("short", ValueError, r"2 positions for 3 tables"),
    ("dict", ValueError, r"a list of position documents"),
]


@pytest.mark.parametrize(("bad", "error", "match"), BAD)
def test_bad_positions_are_refused_alike_and_no_row_changes(bad: str, error: type[Exception],
                                                             match: str) -> None:
    rules = resolve_ruleset("official")
    good = positions("official", 2, seed=3, count=3)
    docs: Any = list(good)
    if bad == "last":
        docs[2] = {**good[2], "discard": []}
    elif bad == "seats":
        docs[1] = positions("official", 4, seed=3, count=2)[0]
    elif bad == "ruleset":
        docs[0] = positions("house", 2, seed=3, count=2)[0]
    elif bad == "short":
        docs = good[:2]
    else:
        docs = good[0]
    a, b = PythonBackend(3, rules, 2), VecPool(3, rules, 2)
    for pool in (a, b):
        pool.reset([7, 8, 9])
    before = {name: getattr(b, name).copy() for name in BUFFERS}
    for pool in (a, b):
        with pytest.raises(error, match=match):
            pool.reset([1, 2, 3], docs)
        for name in BUFFERS:
            assert np.array_equal(getattr(pool, name), before[name]), name
    actions = np.array([int(np.flatnonzero(row)[0]) for row in a.mask], np.int32)
    a.step(actions)  # the rows play on from the seeded reset, alike
    b.step(actions)
    assert_same_buffers(a, b, "after the refusal")
