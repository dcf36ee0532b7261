"""The arena: seeded, rotated, the same results for the same seed whatever --jobs is, a table."""
from __future__ import annotations

import json

import pytest

from unotable.bots.arena import Config, decision_stats, main, play_game, run_arena, seating, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(30, 100)
    assert round(lo, 4) == 0.2189 and round(hi, 4) == 0.3959
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_seats_rotate_in_blocks_that_share_a_deal() -> None:
    config = Config({"deck": "classic108"}, 3, ("a", "b", "c"), seed=5)
    seatings = [seating(config, i) for i in range(6)]
    assert [s[0] for s in seatings[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len({s[1] for s in seatings[:3]}) == 1  # one deal per block
    assert seatings[3][1] != seatings[0][1]


def test_the_same_seed_gives_the_same_results_whatever_the_jobs() -> None:
    one = run_arena("official", 3, ["heuristic", "rule-v1", "random"], games=6, seed=4, jobs=1)
    again = run_arena("official", 3, ["heuristic", "rule-v1", "random"], games=6, seed=4, jobs=1)
    two = run_arena("official", 3, ["heuristic", "rule-v1", "random"], games=6, seed=4, jobs=2)
    assert one.to_dict() == again.to_dict() == two.to_dict()
    assert [r.winners for r in one.results] == [r.winners for r in two.results]
    other = run_arena("official", 3, ["heuristic", "rule-v1", "random"], games=6, seed=5, jobs=1)
    assert [r.points for r in other.results] != [r.points for r in one.results]


def test_rows_count_every_seat_game() -> None:
    result = run_arena("no-mercy", 4, ["heuristic", "random"], games=4, seed=2)
    assert result.bots == ("heuristic", "random", "random", "random")
    heuristic, rnd = result.rows
    assert heuristic.seat_games == 4 and rnd.seat_games == 12
    assert heuristic.wins + rnd.wins + result.no_winner + result.unfinished == 4
    assert heuristic.fair_share == 0.25
    assert heuristic.ci_low <= heuristic.win_rate <= heuristic.ci_high


def test_partners_win_as_a_team() -> None:
    result = run_arena("partners", 4, ["heuristic", "random"], games=4, seed=3)
    for r in result.results:
        assert len(r.winners) in (0, 2)
        if r.winners:
            assert r.winners[0] % 2 == r.winners[1] % 2
    assert result.rows[0].fair_share == 0.5


def test_a_match_plays_to_the_target() -> None:
    from unotable import Ruleset

    config = Config(Ruleset.preset("official").replace(target_score=60).to_dict(), 2,
                    ("heuristic", "rule-v1"), seed=1, mode="match")
    r = play_game(config, 0)
    assert r.finished and len(r.winners) == 1 and max(r.points) >= 60 and r.rounds >= 1


def test_simulate_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--preset", "official", "--seats", "2", "--bots", "heuristic,rule-v1", "--games", "4",
            "--seed", "1", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "4 rounds, preset official, 2 seats, seed 1: heuristic, rule-v1" in out
    assert "win rate" in out and "95% CI" in out and "mean points" in out and "mean turns" in out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["bot"] for row in data["results"]] == ["heuristic", "rule-v1"]
    assert sum(row["seat_games"] for row in data["results"]) == 8
    assert data["engine"] == "python" and data.pop("rounds_per_s") > 0  # heuristic: not in the core
    assert main([*argv, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    for d in (data, again):
        for row in d["results"]:
            assert row.pop("decision_ms")["count"] > 0  # timings differ from run to run
    assert again.pop("rounds_per_s") > 0 and again == data


def test_simulate_reports_the_cpu_time_of_each_bots_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seats", "3", "--bots", "heuristic,random", "--games", "6", "--seed", "2", "--quiet", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    for row in data["results"]:
        ms = row["decision_ms"]
        assert set(ms) == {"count", "median", "p99", "max"}
        # every turn action applied was one decision (calls and catches are decisions too)
        assert ms["count"] >= round(row["mean_turns"] * row["seat_games"]) > 0
        assert 0 <= ms["median"] <= ms["p99"] <= ms["max"]
    result = run_arena("official", 2, ["heuristic", "random"], games=2, seed=1)
    timed = result.decision_ms()
    assert set(timed) == {"heuristic", "random"}
    assert all(len(g.decision_ms) == 2 for g in result.results)
    assert sum(len(ms) for g in result.results for ms in g.decision_ms) == sum(
        t["count"] for t in timed.values() if t is not None)
    assert decision_stats([]) is None
    assert decision_stats([3.0, 1.0, 2.0]) == {"count": 3, "median": 2.0, "p99": 3.0, "max": 3.0}


def test_simulate_shows_progress_and_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seats", "2", "--bots", "random", "--games", "2"]) == 0
    assert "2/2 games" in capsys.readouterr().err
    assert main(["--bots", "nobody", "--games", "1", "--quiet"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["--preset", "two-player", "--seats", "3", "--games", "1", "--quiet"]) == 2
    assert main(["--option", "stacking=by_value", "--seats", "2", "--bots", "heuristic", "--games", "1",
                 "--quiet"]) == 0
    assert "stacking=by_value" in capsys.readouterr().out
