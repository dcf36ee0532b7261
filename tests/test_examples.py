"""Every program in examples/ runs to its end and prints what it says it does.

Each runs as a user would run it, in a fresh interpreter from the repository root. The protocol
client runs against a real ``unotable serve`` started here (the server extra), on a free port
with its own SQLite file.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from unotable.arbiter import Arbiter
from unotable.bots.registry import make_bot
from unotable.game import Game
from unotable.phase import Phase

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run_example(name: str, *args: str, timeout: float = 120) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
    )
    assert done.returncode == 0, f"{name} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def play_round(bot: object, seed: int = 3) -> int:
    """One heads-up official round of ``bot`` (seat 0) against rule-v1, played to its end; the
    number of actions."""
    game = Game.new(seats=2, ruleset="official", seed=seed)
    count = Arbiter(game, {0: bot, 1: make_bot("rule-v1")}, seed=seed).play_round(max_actions=5000)
    assert game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER), "the round did not end"
    return count


def needs(*modules: str) -> None:
    """Skip unless the extras that train and export (PyTorch, Gymnasium, onnxruntime) are installed."""
    for name in modules:
        pytest.importorskip(name)


def test_every_example_is_tested_here() -> None:
    here = Path(__file__).read_text(encoding="utf-8")
    untested = [p.name for p in EXAMPLES.glob("*.py") if f'"{p.name}"' not in here]
    assert not untested, f"examples without a test in tests/test_examples.py: {untested}"


def test_engine_loop_referees_a_whole_match() -> None:
    out = run_example("engine_loop.py", "--seed", "7", "--target", "100")
    assert re.search(r"^seat 0 holds .+; may ", out, re.MULTILINE)
    rounds = re.findall(r"^round (\d+): seat (\d) went out; scores \[([\d, ]+)\]", out, re.MULTILINE)
    assert rounds, out
    final = re.search(r"match over after (\d+) actions: winners \[(\d)\], scores \[([\d, ]+)\]", out)
    assert final, out
    scores = [int(s) for s in final.group(3).split(",")]
    assert max(scores) >= 100 and scores.index(max(scores)) == int(final.group(2))
    # the same seed gives the same match
    assert run_example("engine_loop.py", "--seed", "7", "--target", "100") == out


def test_write_a_bot_runs_the_arena() -> None:
    out = run_example("write_a_bot.py", "--games", "20", "--jobs", "1")
    rows = re.findall(r"^(color-keeper|random|heuristic) +20 +(\d+) ", out, re.MULTILINE)
    assert [bot for bot, _ in rows] == ["color-keeper", "random", "color-keeper", "heuristic"], out
    first = dict(rows[:2])
    assert int(first["color-keeper"]) > int(first["random"]), out
    assert all(int(rows[i][1]) + int(rows[i + 1][1]) == 20 for i in (0, 2)), out


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("starlette", reason="the server extra is not installed")
    pytest.importorskip("websockets", reason="websockets (the dev extra) is not installed")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "unotable.cli", "serve", "--port", "0", "--data-dir", str(tmp_path),
         "--bot-pause", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"serving at (http://\S+)", line)
        assert found, f"unotable serve printed {line!r}"
        url = found.group(1)
        deadline = time.monotonic() + 20
        while True:  # the address is printed as the socket is bound; wait until it answers
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                    assert json.load(response)["ok"] is True
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered /healthz"
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_join_table_plays_a_round_over_the_protocol(server: str) -> None:
    out = run_example("join_table.py", server, timeout=120)
    created = re.search(r"^created table (\S+): (http://\S+)/t/(\S+)$", out, re.MULTILINE)
    assert created and created.group(1) == created.group(3), out
    assert "seat 0 is ours" in out, out
    over = re.search(r"^round over: seat (\d) went out; scores \[(\d+), (\d+)\]$", out, re.MULTILINE)
    assert over, out
    winner, scores = int(over.group(1)), [int(over.group(2)), int(over.group(3))]
    assert scores[1 - winner] == 0, out  # the seat that went out scores the other hand
    # the table the example played is on the server, with our seat and the bot
    with urllib.request.urlopen(f"{server}/api/tables/{created.group(1)}", timeout=5) as response:
        public = json.load(response)
    assert public["seats"][0]["name"] == "Example"
    assert public["seats"][1]["kind"] == "bot"


def test_train_ppo_trains_a_few_hundred_steps_and_its_bot_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("gymnasium")
    policy = tmp_path / "policy.npz"
    out = run_example("train_ppo.py", "--max-steps", "512", "--envs", "4", "--steps", "64",
                      "--log-every", "1", "--out", str(policy), "--curve", str(tmp_path / "curve.csv"),
                      "--eval", "4", timeout=300)
    assert re.search(r"^update 2 steps 512 ", out, re.MULTILINE), out
    assert re.search(r"^evaluation: [0-4] wins in 4 heads-up rounds against rule-v1", out, re.MULTILINE), out
    assert policy.exists() and (tmp_path / "curve.csv").read_text().startswith("update,steps")


def test_selfplay_league_trains_against_its_snapshots_in_the_core(tmp_path: Path) -> None:
    needs("torch", "gymnasium", "onnxruntime")
    policy = tmp_path / "league.onnx"
    out = run_example("selfplay_league.py", "--max-updates", "4", "--envs", "4", "--steps", "32",
                      "--snapshot-every", "2", "--eval", "4", "--out", str(tmp_path / "league.pt"),
                      "--onnx", str(policy), timeout=600)
    assert re.search(r"^update 4 steps 512 opponent \d/3 ", out, re.MULTILINE), out
    calls = re.search(r"^league: 3 snapshots, (\d+) batched opponent calls$", out, re.MULTILINE)
    assert calls and int(calls.group(1)) > 0, out
    for name in ("rule-v1", "heuristic", "mixbot"):  # 4 rounds on each of three seed bases
        assert re.search(rf"^evaluation: \d+ wins in 12 rounds against {name}: .*pooled over 3 seed bases",
                         out, re.MULTILINE), out
    assert (tmp_path / "league.pt").exists()
    bot = make_bot("onnx", path=str(policy))  # the exported learner plays as a bot
    assert play_round(bot) > 0


def test_train_dmc_learns_from_self_play_in_the_core_and_its_policy_plays(tmp_path: Path) -> None:
    needs("torch", "gymnasium", "onnxruntime")
    policy = tmp_path / "dmc.onnx"
    out = run_example("train_dmc.py", "--max-steps", "6000", "--envs", "32", "--batch", "256",
                      "--log-every", "2", "--eval", "4", "--opponents", "rule-v1,mixbot",
                      "--out", str(tmp_path / "dmc.pt"), "--onnx", str(policy), timeout=600)
    assert re.search(r"^backend \w+, 32 tables, self-play$", out, re.MULTILINE), out
    trained = re.search(r"^trained: (\d+) updates, (\d+) decisions, (\d+) rounds", out, re.MULTILINE)
    assert trained, out
    updates, decisions, rounds = map(int, trained.groups())
    assert updates >= 2 and decisions >= 6000 and rounds >= 32, out  # rounds end: labels exist
    assert re.search(r"^update 2 steps \d+ rounds \d+ loss [\d.]+ ", out, re.MULTILINE), out
    for name in ("rule-v1", "mixbot"):
        assert re.search(rf"^evaluation: \d+ wins in 12 rounds against {name}: ", out, re.MULTILINE), out
    assert (tmp_path / "dmc.pt").exists()
    assert play_round(make_bot("onnx", path=str(policy))) > 0


def test_rllib_multiagent_is_trained_in_tests_env() -> None:
    """The example "rllib_multiagent.py" trains on a local Ray instance in tests/env/test_rllib.py;
    here its command line alone."""
    pytest.importorskip("ray.rllib")
    out = run_example("rllib_multiagent.py", "--help", timeout=120)
    assert "--workers" in out and "--address" in out


def test_sb3_maskable_ppo_is_trained_in_tests_env() -> None:
    """The example "sb3_maskable_ppo.py" trains, saves and reloads a model in
    tests/env/test_ecosystem.py; here its command line alone."""
    pytest.importorskip("sb3_contrib")
    out = run_example("sb3_maskable_ppo.py", "--help", timeout=120)
    assert "--steps" in out
