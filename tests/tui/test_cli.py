"""The ``unotable`` command in process (unotable/cli.py) and the replay printer (unotable/tui/replay.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unotable import Game, RecordError, Ruleset, __version__, parse_action
from unotable.bots import make_bot
from unotable.cli import main
from unotable.record import Record
from unotable.tui.driver import Table
from unotable.tui.records import keep_record, records_dir
from unotable.tui.render import Style
from unotable.tui.replay import STEP_PROMPT, replay_lines, run_replay


def played_round(seed: int = 3, seats: int = 3) -> Game:
    """A game with one whole round played by bots."""
    game = Game.new(seats, "official", seed)
    Table(game, {s: make_bot("random") for s in range(seats)}, seed).arbiter().play_round()
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return played_round()


@pytest.fixture
def record_file(game: Game, tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(Record.from_game(game).to_json())
    return path


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"unotable {__version__}\n"
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    for word in ("play", "simulate", "replay", "--version"):
        assert word in text
    assert main(["play", "--help"]) == 0
    text = capsys.readouterr().out
    for flag in ("--preset", "--seats", "--bots", "--seed", "--option", "--name", "--no-color", "--save"):
        assert flag in text
    assert main([]) == 2  # no command: the help, and a usage status


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--preset", "nope"], "unknown preset 'nope'"),
        (["play", "--option", "stacking=sideways"], "stacking"),
        (["play", "--option", "colour=red"], "unknown ruleset option(s) 'colour'"),
        (["play", "--option", "stacking"], "NAME=VALUE"),
        (["play", "--seats", "11"], "11 seats are not allowed with the official rules: choose 2 to 10 seats"),
        (["play", "--seats", "1"], "1 seat is not allowed with the official rules: choose 2 to 10 seats"),
        (["play", "--preset", "two-player", "--seats", "3"],
         "3 seats are not allowed with the two-player rules"),
        (["play", "--bots", "random,random", "--seats", "4"], "--bots lists 2 levels for 3 bot seats"),
        (["play", "--bots", "superbot"], "cannot make a 'superbot' bot"),
        (["play", "--seat", "5", "--seats", "3"], "seat 5 does not exist"),
        (["play", "--seed", "-3"], "non-negative"),
        (["play", "--bots", "ismcts:nosuch=1"], "bot 'ismcts' has no option 'nosuch'"),
    ],
)
def test_play_flag_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("unotable play: error: ")
    assert message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--delay", "-1"], "argument --delay: '-1' is not a delay from 0 to 60 seconds"),
        (["play", "--delay", "soon"], "argument --delay: 'soon' is not a number of seconds"),
        (["play", "--delay", "nan"], "is not a delay"),
        (["play", "--fast", "--delay", "1"], "not allowed with argument"),
    ],
)
def test_delay_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: unotable play")
    assert message in err


def test_delay_default_and_fast() -> None:
    from unotable.cli import build_parser
    from unotable.tui.play import DEFAULT_DELAY

    parser = build_parser()
    assert DEFAULT_DELAY == 0.6
    assert parser.parse_args(["play"]).delay == DEFAULT_DELAY
    assert parser.parse_args(["play", "--fast"]).delay == 0.0
    assert parser.parse_args(["play", "--delay", "0"]).delay == 0.0
    assert parser.parse_args(["play", "--delay", "1.5"]).delay == 1.5


@pytest.mark.parametrize("spec", ["ismcts:iterations=abc", "ismcts:nosuch=1", "nosuchbot"])
def test_simulate_bad_bot_spec_is_a_usage_error(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", spec, "--games", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unotable simulate: error: ")
    assert "Traceback" not in err


def test_play_reads_standard_input(monkeypatch: pytest.MonkeyPatch, data_dir: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["quit", "y"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "--seed", "5", "--bots", "random", "--seats", "3", "--name", "Ann", "--fast"]) == 0
    out = capsys.readouterr().out
    assert "3 seats, seed 5. You are seat 0; against Bot 1 (random), Bot 2 (random)." in out
    assert "Ann was dealt GS B3 R8 BD2 W4 B2 R3" in out
    assert "\x1b[" not in out  # not a terminal: no colors
    assert out.endswith("Goodbye.\n")
    kept = list((data_dir / "records").glob("unotable-*-seed5.json"))
    assert len(kept) == 1 and f"Record kept: {kept[0]}" in out
    assert Record.from_json(kept[0].read_text()).names == ("Ann", "Bot 1", "Bot 2")


def test_simulate_delegates_to_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--seats", "2", "--bots", "random", "--quiet"]) == 0
    assert "2 rounds, preset official, 2 seats" in capsys.readouterr().out


def test_replay_as_one_seat_hides_the_others(game: Game) -> None:
    lines = list(replay_lines(Record.from_game(game), Style(), 0))
    text = "\n".join(lines)
    n = len(game.actions)
    assert lines[0] == f"Record: classic108 (deck defaults), 3 seats, seed 3, {n} actions (as seat 0 saw it)"
    assert "Seat 0 was dealt" in text
    assert "Seat 1 was dealt" not in text and "Seat 2 was dealt" not in text
    assert sum(1 for line in lines if line.startswith("#")) == len(game.actions)
    assert lines[-1].startswith("End of the record: the match was not finished")


def test_replay_full_and_public_views(game: Game) -> None:
    full = "\n".join(replay_lines(Record.from_game(game), Style(), "full"))
    public = "\n".join(replay_lines(Record.from_game(game), Style(), "public"))
    for seat in range(3):
        assert f"Seat {seat} was dealt" in full
        assert f"Seat {seat} was dealt" not in public
    assert "Round over:" in full and "Round over:" in public
    first_seat, first_action = game.actions[0]
    assert str(first_action) == "W:R"
    hand = " ".join(str(c) for c in Game.new(3, "official", 3).hand(first_seat))
    assert f"#1    Seat {first_seat} played W (Wild) and named red   holding {hand}\n" in full
    assert f"#1    Seat {first_seat} played W (Wild) and named red\n" in public
    assert f"      Seat {first_seat} played W" not in full + public  # each action once


def test_replay_shows_each_action_with_its_events() -> None:
    g = Game.new(2, "official", 4)
    seat = g.active_seat
    action = g.legal_action_list()[0]
    g.play(action)
    lines = list(replay_lines(Record.from_game(g), Style(), "public"))
    i = next(i for i, line in enumerate(lines) if line.startswith("#1 "))
    assert str(action) == "G1"
    assert lines[i] == f"#1    Seat {seat} played G1"
    assert lines[i + 1:] == ["End of the record: the match was not finished (round 1)"]


def test_replay_keeps_the_names_of_the_record(game: Game) -> None:
    record = Record.from_game(game, names=["Ann", "Bob", "Cy"])
    text = "\n".join(replay_lines(record, Style(), "public"))
    assert "Ann " in text and "Bob " in text and "Cy " in text
    assert "Seat 0" not in text and "Seat 1" not in text


def test_replay_shows_a_roulette_on_one_line() -> None:
    pos = {"hands": [["WCR", "R1"], ["B1", "B2"]], "discard": ["R5"], "active": 0, "ruleset": "no-mercy",
           "draw": ["Y1", "G2", "W6", "B3", "R7", "G5"]}
    g = Game.from_position(pos)
    g.play(parse_action("WCR"), 0)
    g.play(parse_action("color:B"), 1)
    text = "\n".join(replay_lines(Record.from_game(g, names=["Ann", "Bob"]), Style(), "public"))
    revealed = [line for line in text.splitlines() if "turned up" in line]
    assert len(revealed) == 1, text
    assert revealed[0].strip().startswith("Bob turned up ")
    assert revealed[0].strip().endswith(" B3")
    assert len(revealed[0].split("turned up ")[1].split()) >= 2


def test_replay_steps_one_action_at_a_time(game: Game) -> None:
    written: list[str] = []
    prompts: list[str] = []

    def step(prompt: str) -> str:
        prompts.append(prompt)
        return ""

    assert run_replay(Record.from_game(game), Style(), "full", written.append, step) == 0
    assert len(prompts) == len(game.actions)  # after every action
    assert written == list(replay_lines(Record.from_game(game), Style(), "full"))

    prompts.clear()

    def stop(prompt: str) -> str:
        prompts.append(prompt)
        return "q"

    written.clear()
    assert run_replay(Record.from_game(game), Style(), "full", written.append, stop) == 0
    assert len(prompts) == 1  # q quits at the first pause
    assert written[-1] == "Replay stopped."
    assert sum(1 for line in written if line.startswith("#")) == 1
    assert not any(line.startswith("End of the record") for line in written)

    prompts.clear()
    answers = iter(["", "c"])

    def rest(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    written.clear()
    run_replay(Record.from_game(game), Style(), "full", written.append, rest)
    assert prompts == [STEP_PROMPT] * 2  # c: the rest without pauses
    assert written == list(replay_lines(Record.from_game(game), Style(), "full"))


def test_replay_command(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record_file), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Record: classic108 (deck defaults), 3 seats, seed 3,")
    assert "(as seat 1 saw it)" in out
    assert "Seat 1 was dealt" in out
    assert main(["replay", str(record_file), "--public"]) == 0
    assert "(public view)" in capsys.readouterr().out
    assert main(["replay", str(record_file)]) == 0
    assert "(full view)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ('{"format": "something"}', "not a unotable-record document of version 1 or 2"),
    ],
)
def test_replay_rejects_bad_records(content: str, message: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("unotable replay: error: ")
    assert message in err


def test_replay_rejects_an_action_that_does_not_replay(game: Game, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    doc = Record.from_game(game).to_dict()
    doc["actions"][0] = [doc["actions"][0][0], "challenge"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    assert "action 0" in capsys.readouterr().err
    with pytest.raises(RecordError):
        list(replay_lines(Record.from_dict(doc), Style()))


def test_replay_errors(record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert main(["replay", str(record_file), "--seat", "7"]) == 1
    assert "seat 7 does not exist" in capsys.readouterr().err


def test_replay_list_and_a_kept_record_by_name(data_dir: Path, game: Game,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--list"]) == 0
    assert capsys.readouterr().out == f"No records yet in {data_dir / 'records'}.\n"
    first = keep_record(game, ["Ann", "Bot 1", "Bot 2"], 3)
    over = Game.new(2, Ruleset.preset("official").replace(scoring="none"), 9)
    Table(over, {s: make_bot("random") for s in range(2)}, 9).arbiter().play_match()
    second = keep_record(over, ["You", "Bot 1"], 9)
    (data_dir / "records" / "zz-broken.json").write_text("{")
    assert main(["replay", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Records in {data_dir / 'records'} (replay one with: unotable replay NAME):"
    assert lines[1].startswith(f"  {first.name}  Ann, Bot 1, Bot 2 · classic108 (deck defaults) · ")
    assert lines[1].endswith(f"{len(game.actions)} actions · abandoned in round 1")
    winner = "You" if over.outcome().winners == (0,) else "Bot 1"  # type: ignore[union-attr]
    assert lines[2].startswith(f"  {second.name}  You, Bot 1 · ")
    assert lines[2].endswith(f" · finished: {winner} won after 1 round")
    assert lines[3].startswith("  zz-broken.json  cannot be read: ")
    assert main(["replay", first.name, "--public"]) == 0  # a kept record by its name
    out = capsys.readouterr().out
    assert "(public view)" in out and "Ann " in out
    assert main(["replay", first.stem, "--public"]) == 0  # or without .json
    assert main(["replay"]) == 2
    assert "give a record file, or --list" in capsys.readouterr().err


def test_the_data_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("UNOTABLE_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert records_dir() == tmp_path / "xdg" / "unotable" / "records"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert records_dir() == tmp_path / ".local" / "share" / "unotable" / "records"
    monkeypatch.setenv("UNOTABLE_DATA_DIR", str(tmp_path / "mine"))
    assert records_dir() == tmp_path / "mine" / "records"
