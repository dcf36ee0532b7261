"""The policies and the arena in the core (native/src/policies/, native/src/arena.hpp) against the
Python bots and arena: every decision of every game, and the same results from the same seeds.

Each game is game ``index`` of an arena run: the core plays it with its policies
(``unotable_native.arena.game_actions``) and the Python arbiter plays it with the Python bots
(``MixBot``, ``MixBot2``, ``RandomStuckBot``, ``RandomBot``, ``RuleV1Bot``), from the same deal and
the same generators; the two lists of (seat, action) must be equal, so every decision each seat
made, in or out of turn, is compared, and the first one that differs is reported with the
position before it. Every preset, 2 to 10 seats, mixbot and mixbot2 at every table.
"""
from __future__ import annotations

import json
import random

import pytest
from arena_check import compare

from unotable.bots import arena as py_arena
from unotable.bots.arena import run_arena
from unotable.bots.mixbot import MIXBOT_RULES
from unotable.rules import PRESET_NAMES, Ruleset

native = pytest.importorskip(
    "unotable_native.arena",
    reason="the native core is not built: `pip install -e native/` (make test builds it)",
)

OTHERS = ("random-stuck", "random", "rule-v1", "mixbot", "mixbot2")


def _lineups(preset: str, rng: random.Random, tables: int) -> list[list[str]]:
    rules = Ruleset.preset(preset)
    out = []
    for k in range(tables):
        allowed = sorted(rules.seat_counts)
        seats = [allowed[0], allowed[len(allowed) // 2], allowed[-1]][k] if k < 3 else rng.choice(allowed)
        if k == 0:
            lineup = ["mixbot2"] * seats
        elif k == 1:
            lineup = ["mixbot"] * seats
        else:
            lineup = ["mixbot2", "mixbot"] + [rng.choice(OTHERS) for _ in range(seats - 2)]
            rng.shuffle(lineup)
        out.append(lineup)
    return out


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_policies_choose_what_the_python_bots_choose(preset: str) -> None:
    rng = random.Random(preset)
    rules = Ruleset.preset(preset)
    decisions = 0
    for k, lineup in enumerate(_lineups(preset, rng, 4)):
        decisions += compare(rules, lineup, seed=rng.randrange(2**40), games=30 if k < 2 else 15)
    assert decisions > 1000


@pytest.mark.parametrize("seats", [2, 6])
def test_policies_under_mixbot_rules(seats: int) -> None:
    for lineup in (["mixbot2"] + ["random-stuck"] * (seats - 1), ["mixbot"] + ["random-stuck"] * (seats - 1),
                   ["mixbot2", "mixbot"] * (seats // 2)):
        compare(MIXBOT_RULES, lineup, seed=7, games=60)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_policies_thousands_of_rounds(preset: str) -> None:
    rng = random.Random(preset + "/slow")
    rules = Ruleset.preset(preset)
    for lineup in _lineups(preset, rng, 12):
        compare(rules, lineup, seed=rng.randrange(2**64), games=250)


@pytest.mark.parametrize(("seats", "lineup"), [
    (2, ["mixbot2", "random-stuck"]),
    (6, ["mixbot", "random-stuck"]),
    (4, ["mixbot2", "mixbot", "rule-v1", "random"]),
])
def test_the_same_seeds_give_the_same_results_in_both_engines(seats: int, lineup: list[str]) -> None:
    py = run_arena(MIXBOT_RULES, seats, lineup, games=300, seed=11, engine="python")
    core = run_arena(MIXBOT_RULES, seats, lineup, games=300, seed=11, engine="native", jobs=2)
    assert (py.engine, core.engine) == ("python", "native")
    assert [(r.index, r.bots, r.winners, r.points, r.turns, r.finished) for r in py.results] == [
        (r.index, r.bots, r.winners, r.points, r.turns, r.finished) for r in core.results]
    assert py.to_dict() == core.to_dict()
    auto = run_arena(MIXBOT_RULES, seats, lineup, games=30, seed=11)
    assert auto.engine == "native"
    assert auto.results == core.results[:30]


def test_threads_do_not_change_the_results() -> None:
    lineup = ["mixbot2", "mixbot", "random", "mixbot2", "mixbot2"]
    one = native.play_rounds("house", 5, lineup, 3, 10, 200)
    four = native.play_rounds("house", 5, lineup, 3, 10, 200, threads=4)
    assert one == four and [g.index for g in one] == list(range(10, 210))


def test_what_the_core_cannot_play_falls_back_or_is_refused() -> None:
    assert run_arena("official", 2, ["heuristic", "mixbot"], games=2, seed=1).engine == "python"
    assert run_arena("official", 2, ["mixbot:colors=off", "mixbot"], games=2, seed=1).engine == "python"
    assert run_arena("official", 2, ["mixbot"], games=2, seed=1, mode="match").engine == "python"
    with pytest.raises(ValueError, match="heuristic"):
        run_arena("official", 2, ["heuristic", "mixbot"], games=2, seed=1, engine="native")
    with pytest.raises(ValueError, match="rounds only"):
        run_arena("official", 2, ["mixbot"], games=2, seed=1, mode="match", engine="native")
    with pytest.raises(ValueError, match="2\\*\\*64"):
        run_arena("official", 2, ["mixbot"], games=2, seed=2**64, engine="native")
    with pytest.raises(ValueError, match="engine must be"):
        run_arena("official", 2, ["mixbot"], games=2, seed=1, engine="fast")
    with pytest.raises(ValueError, match="no native policy"):
        native.play_rounds("official", 2, ["mixbot", "ismcts"], 1, 0, 1)
    with pytest.raises(ValueError, match="seed"):
        native.play_rounds("official", 2, ["mixbot", "mixbot"], -1, 0, 1)


def test_simulate_reports_the_engine_and_rounds_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seats", "2", "--bots", "mixbot2,random-stuck", "--games", "40", "--option", "wd4_rule=free",
            "--option", "uno_penalty=0", "--json", "--quiet"]
    assert py_arena.main([*args, "--engine", "native"]) == 0
    core = json.loads(capsys.readouterr().out)
    assert py_arena.main([*args, "--engine", "python"]) == 0
    py = json.loads(capsys.readouterr().out)
    assert (core["engine"], py["engine"]) == ("native", "python")
    assert core["rounds_per_s"] > 0 and py["rounds_per_s"] > 0
    for d in (core, py):
        del d["engine"], d["rounds_per_s"]
        for row in d["results"]:  # the core's decisions are not timed (null)
            assert (row.pop("decision_ms") is None) == (d is core)
    assert core == py
    assert py_arena.main([*args[:-2], "--bots", "heuristic", "--engine", "native"]) == 2
    assert "native engine cannot" in capsys.readouterr().err
