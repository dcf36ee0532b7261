"""The play loop in process (unotable/tui/play.py): prompts, illegal input, out-of-turn chances.

A session reads the human's lines from a scripted ``ask`` and writes to a StringIO; the bots
are tiny scripted ones, so each scenario is exact. The pseudo-terminal tests drive the real
command; these pin the loop's behaviour position by position.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from unotable import Action, Catch, Game, Phase, Ruleset, parse_action
from unotable.agent import Agent
from unotable.bots import make_bot
from unotable.bots.base import is_turn
from unotable.events import Caught, Challenged, UnoCalled
from unotable.record import Record, replay
from unotable.tui.driver import Table
from unotable.tui.play import HELP, PlayConfig, Session, SetupError, parse_option, run_play
from unotable.views import PlayerView


class Quiet(Agent):
    """Plays its scripted actions (then the first legal one) on its turn; never acts out of turn."""

    name = "quiet"

    def __init__(self, *moves: str) -> None:
        self.moves = [parse_action(m) for m in moves]

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not is_turn(view):
            return None
        if self.moves and self.moves[0] in legal:
            return self.moves.pop(0)
        return legal[0]


class Catcher(Quiet):
    """Catches whenever it can."""

    name = "catcher"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        for a in legal:
            if isinstance(a, Catch):
                return a
        return super().choose(view, legal, rng)


class Script:
    """The human's lines; records the position at every prompt. An exception in the list is raised."""

    def __init__(self, game: Game, lines: Sequence[str | BaseException], out: io.StringIO) -> None:
        self.game = game
        self.lines = list(lines)
        self.out = out
        self.prompts: list[str] = []
        self.positions: list[dict[str, Any]] = []

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        self.prompts.append(prompt)
        self.positions.append(self.game.to_position())
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, BaseException):
            raise line
        self.out.write(line + "\n")
        return line


def session(position: dict[str, Any], bots: dict[int, Any], lines: Sequence[str | BaseException],
            **config: Any) -> tuple[Session, Script, io.StringIO]:
    game = Game.from_position(position)
    out = io.StringIO()
    script = Script(game, lines, out)
    cfg = PlayConfig(seats=game.seats, bots=["test"], seed=1, **config)
    levels = ["" if s == 0 else "test" for s in range(game.seats)]
    return Session(game, Table(game, bots, 1), cfg, levels, out, script, seed=1), script, out


def quiet(n: int) -> dict[int, Any]:
    return {s: Quiet() for s in range(1, n)}


def test_illegal_input_is_explained_and_changes_nothing() -> None:
    pos = {"hands": [["R7", "G2", "W4"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["B5"], "active": 0}
    lines = ["G2", "Y9", "zz", "7", "pass", "W4:Q", "catch 1", "1.5", "quit", "y"]
    s, script, out = session(pos, quiet(3), lines)
    assert s.run() == 0
    text = out.getvalue()
    assert "✗ G2 doesn't match: play blue or a 5, or draw\n" in text
    assert "✗ You have no Y9: your hand is R7 G2 W4\n" in text
    assert "✗ 'zz' is not an action" in text
    assert "✗ there is no card 7 in your hand: type an index from 0 to 2" in text
    assert "✗ You can pass only after drawing a card: draw first\n" in text
    assert "✗ 'W4:Q': 'Q' is not a color" in text
    assert "✗ Bot 1 can't be caught: only a seat left with one card and no UNO call can be\n" in text
    assert "✗ '1.5': after a card's index comes a color (1 b), a target seat (1>2) or ! for UNO (1!)" in text
    assert "by seat 0" not in text and "engine" not in text  # the engine's text only with --verbose
    assert "Goodbye." in text
    assert s.game.actions == []
    assert all(p == script.positions[0] for p in script.positions)


def test_verbose_adds_the_engine_text() -> None:
    pos = {"hands": [["R7", "G2", "W4"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["B5"], "active": 0}
    s, _, out = session(pos, quiet(3), ["G2", "catch 1"], verbose=True)
    assert s.run() == 0
    text = out.getvalue()
    assert ("✗ G2 doesn't match: play blue or a 5, or draw\n"
            "  engine (illegal): G2 by seat 0 is not legal: G2 cannot be played now (awaiting a play or a "
            "draw, top is B5, current color blue)\n") in text
    assert "  engine (illegal): catch:1 by seat 0 is not legal: seat 1 cannot be caught (not exposed)" in text


def test_the_table_and_options_are_shown_before_the_prompt() -> None:
    pos = {"hands": [["R7", "G2", "W4"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["G5"], "active": 0,
           "scores": [0, 12, 30]}
    s, _, out = session(pos, quiet(3), ["help", "moves", "t", "quit"])
    assert s.run() == 0
    text = out.getvalue()
    assert "Your hand: 0:R7 │ 1*:G2 │ 2*:W4" in text
    assert "Top card: G5   color: green" in text
    assert "You can: play 1, 2 · draw" in text
    assert HELP in text
    assert "Legal now: G2, W4:R, W4:Y, W4:G, W4:B, draw" in text
    assert text.count("Your hand:") == 2  # once at the turn, once for "t"


def test_a_wild_by_index_asks_for_the_color() -> None:
    pos = {"hands": [["W", "R7"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["G1"], "active": 0}
    s, script, out = session(pos, quiet(3), ["1", "purple", "b"])  # shown as 0:R7 │ 1:W
    assert s.run() == 0  # end of input at the next prompt
    text = out.getvalue()
    assert "Name a color — r(ed), y(ellow), g(reen), b(lue); Enter to cancel: " in script.prompts
    assert "✗ 'purple' is not a color" in text
    assert "You played W (Wild) and named blue" in text
    assert s.game.actions[0] == (0, parse_action("W:B"))
    assert "End of input." in text and text.endswith("Goodbye.\n")


def test_cancelling_the_color_plays_nothing() -> None:
    pos = {"hands": [["W", "R7"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["G1"], "active": 0}
    s, _, _ = session(pos, quiet(3), ["1", "", "quit", "y"])
    assert s.run() == 0
    assert s.game.actions == []


@pytest.mark.rule("HOUSE-9")
def test_a_seven_under_seven_zero_asks_for_the_target() -> None:
    pos = {"hands": [["R7", "G2"], ["B1", "B2"], ["Y1", "Y2", "Y3"]], "discard": ["R1"], "active": 0,
           "ruleset": "house"}
    s, script, out = session(pos, quiet(3), ["0", "0", "2"])
    assert s.run() == 0
    assert "Target seat — 1 (Bot 1), 2 (Bot 2); Enter to cancel: " in script.prompts
    text = out.getvalue()
    assert "✗ '0' is not one of the seats you can target" in text
    assert "You played R7, targeting Bot 2" in text
    assert "You swapped hands with Bot 2" in text
    assert "You now hold: Y1 Y2 Y3" in text
    assert s.game.actions[0] == (0, parse_action("R7>2"))


@pytest.mark.rule("CL-ACT-10", "CL-ACT-11", "CL-ACT-12")
def test_the_victim_of_a_wd4_is_asked_and_may_challenge() -> None:
    pos = {"hands": [["B1", "G3"], ["Y1", "Y2"], ["W4", "R2", "R9"]], "discard": ["R5"], "active": 2}
    bots = {1: Quiet(), 2: Quiet("W4:B")}
    s, _, out = session(pos, bots, ["challenge"])
    assert s.run() == 0
    text = out.getvalue()
    assert "Bot 2 played W4 (Wild Draw Four) and named blue" in text
    assert "You face +4. You can: accept · challenge" in text
    assert "You challenged Bot 2's Wild Draw Four — guilty: the Wild Draw Four was illegal" in text
    assert "Bot 2's hand, shown to You: R2 R9" in text
    assert "Bot 2 drew 4 cards for the challenge" in text
    assert any(isinstance(e, Challenged) and e.guilty for e in s.game.events)


@pytest.mark.rule("CL-UNO-5")
def test_the_human_is_offered_a_catch_out_of_turn() -> None:
    pos = {"hands": [["R1", "G3"], ["B7"], ["Y1", "Y2", "Y3"]], "discard": ["Y5"], "active": 2,
           "exposed": [1]}
    s, script, out = session(pos, quiet(3), ["catch"])
    assert s.run() == 0
    assert script.prompts[0] == "(out of turn) > "
    text = out.getvalue()
    assert "You can: catch 1   (Enter: let play go on)" in text
    assert "You caught Bot 1 without UNO: Bot 1 draws 2" in text
    assert s.game.actions[0] == (0, Catch(1))
    assert s.game.hand_sizes[1] == 3


@pytest.mark.rule("CL-UNO-4")
def test_enter_lets_an_out_of_turn_chance_pass() -> None:
    pos = {"hands": [["R1", "G3"], ["B7"], ["Y1", "Y2", "Y3"]], "discard": ["Y5"], "active": 2,
           "exposed": [1]}
    s, script, _ = session(pos, quiet(3), [""])
    assert s.run() == 0
    assert script.prompts.count("(out of turn) > ") == 1
    assert not any(isinstance(e, Caught) for e in s.game.events)
    assert s.game.actions[0][0] == 2  # the bot's turn went on; its play closed the window


@pytest.mark.rule("CL-UNO-1", "CL-UNO-5")
def test_bots_catch_a_forgotten_uno() -> None:
    pos = {"hands": [["R7", "R8"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, _, out = session(pos, {1: Catcher(), 2: Catcher()}, ["0"])
    assert s.run() == 0
    text = out.getvalue()
    assert "You can: play 0, 1 · draw  (add ! to call UNO with your play: 0!)" in text
    assert "You hold one card and have not called UNO" in text
    assert "Bot 2 caught You without UNO: You draw 2" in text  # seat 1 is active: seat 2 reacts first


@pytest.mark.rule("CL-UNO-2")
def test_the_human_may_call_uno_out_of_turn() -> None:
    pos = {"hands": [["R7", "R8"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, script, out = session(pos, quiet(3), ["0", "uno"])
    assert s.run() == 0
    assert script.prompts[1] == "(out of turn) > "
    assert "You called UNO!" in out.getvalue()
    assert any(isinstance(e, UnoCalled) and e.seat == 0 for e in s.game.events)


@pytest.mark.rule("CL-UNO-2")
def test_the_uno_flag_by_index() -> None:
    pos = {"hands": [["R7", "R8"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, _, out = session(pos, {1: Catcher(), 2: Catcher()}, ["0!"])
    assert s.run() == 0
    assert "You played R7 — UNO!" in out.getvalue()
    assert not any(isinstance(e, Caught) for e in s.game.events)


def test_end_of_input_and_ctrl_c(data_dir: Path) -> None:
    pos = {"hands": [["R7", "R8"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, _, out = session(pos, quiet(3), [])
    assert s.run() == 0
    assert out.getvalue().split("> \n", 1)[1].startswith("End of input.\nRecord kept: ")
    assert out.getvalue().endswith("Goodbye.\n")
    s, _, out = session(pos, quiet(3), [KeyboardInterrupt()])
    assert s.run() == 130
    assert out.getvalue().split("> \n", 1)[1].startswith("Interrupted.\nRecord kept: ")
    assert len(list((data_dir / "records").glob("*.json"))) == 2  # both abandoned matches kept


def test_quit_asks_first() -> None:
    pos = {"hands": [["R7", "R8"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, script, out = session(pos, quiet(3), ["quit", "n", "q", "", "q", "yes"])
    assert s.run() == 0
    assert script.prompts == ["> ", "Leave this match? It is not over; its record is kept. [y/N] "] * 3
    text = out.getvalue()
    assert text.count("Play goes on.") == 2
    assert "You left the match." in text
    assert s.game.actions == []


def test_quitting_between_rounds_asks_first() -> None:
    pos = {"hands": [["R7"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, script, out = session(pos, quiet(3), ["0", "q", "n", "q", "y"])
    assert s.run() == 0
    leave = "Leave this match? It is not over; its record is kept. [y/N] "
    assert script.prompts[1:] == ["Press Enter to deal round 2 (q to quit): ", leave, "> ", leave]
    assert s.game.round_no == 2  # "n" went on: the next round was dealt
    assert "You left the match." in out.getvalue()


def test_every_record_is_kept_with_the_names_and_save_writes_one_more(tmp_path: Path, data_dir: Path) -> None:
    path = tmp_path / "partial.json"
    out = io.StringIO()
    lines = iter(["d", "quit", "y"])
    config = PlayConfig(seats=3, bots=["random"], seed=5, save=str(path), name="Ann")
    status = run_play(config, out, lambda p: next(lines))
    assert status == 0
    assert f"Record saved to {path}" in out.getvalue()
    kept = list((data_dir / "records").glob("*.json"))
    assert len(kept) == 1 and kept[0].name.endswith("-seed5.json")
    assert f"Record kept: {kept[0]}" in out.getvalue()
    for record in (Record.from_json(path.read_text()), Record.from_json(kept[0].read_text())):
        assert (record.seats, record.seed, record.names) == (3, 5, ("Ann", "Bot 1", "Bot 2"))
        assert (0, parse_action("draw")) in record.actions
        assert replay(record).phase < Phase.ROUND_OVER


def test_a_record_that_cannot_be_kept_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("UNOTABLE_DATA_DIR", str(blocker))  # a file, not a directory
    pos = {"hands": [["R7", "R8"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R1"], "active": 0}
    s, _, out = session(pos, quiet(3), [])
    assert s.run() == 0
    assert "Could not keep the record of this match: " in out.getvalue()


def first_legal_player(game: Game) -> Any:
    """A human who always takes the first legal action and lets chances pass."""

    def ask(prompt: str) -> str:
        if prompt == "> ":
            return str(game.legal_action_list(0)[0])
        assert not prompt.startswith("Leave")
        return ""

    return ask


def test_a_whole_match_is_played_and_kept(data_dir: Path) -> None:
    rules = Ruleset.preset("official").replace(target_score=200)
    game = Game.new(3, rules, 11)
    bots = {1: make_bot("random"), 2: make_bot("heuristic")}
    out = io.StringIO()
    cfg = PlayConfig(seats=3, bots=["random", "heuristic"], seed=11)
    s = Session(game, Table(game, bots, 11), cfg, ["", "random", "heuristic"], out,
                first_legal_player(game), seed=11)
    assert s.run() == 0
    assert game.is_over()
    text = out.getvalue()
    assert "Match over:" in text
    rounds = game.outcome().rounds  # type: ignore[union-attr]
    assert text.count("  Hands left:") == rounds  # every round, blocked ones included
    assert text.count("Scores (first to 200 wins the match)") == rounds
    assert f"Final standings after {rounds} round" in text
    [path] = (data_dir / "records").glob("*.json")
    assert f"Record kept: {path}" in text
    again = replay(Record.from_json(path.read_text()))
    assert again.is_over() and again.events == game.events


def test_config_defaults_and_errors() -> None:
    official = Ruleset.preset("official")
    assert PlayConfig().seat_count(official) == 4
    assert PlayConfig().seat_count(Ruleset.preset("two-player")) == 2
    assert PlayConfig(bots=["random", "heuristic"]).seat_count(official) == 3
    assert PlayConfig(bots=["random"]).bot_levels(3) == ["", "random", "random"]
    assert PlayConfig(bots=["random", "heuristic"], human=1).bot_levels(3) == ["random", "", "heuristic"]
    with pytest.raises(SetupError, match="--bots lists 2 levels for 3 bot seats"):
        PlayConfig(bots=["random", "heuristic"]).bot_levels(4)
    rules = PlayConfig(preset="house", options=["stacking=none", "uno_penalty=4", "jump_in=off"]).ruleset()
    assert rules == Ruleset.preset("house").replace(stacking="none", uno_penalty=4, jump_in=False)
    assert parse_option("false-catch-penalty=2") == ("false_catch_penalty", 2)
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_option("stacking")


def test_run_play_rejects_an_unknown_bot() -> None:
    with pytest.raises(SetupError, match="cannot make a 'superbot' bot"):
        run_play(PlayConfig(bots=["superbot"]), io.StringIO(), lambda p: "quit")


NO_MERCY_HAND = ["R1", "R2", "RDA", "Y3", "Y9", "YD4", "G0", "G5", "GSE", "B2", "B7", "BSE", "BR",
                 "W6", "WCR", "WR4", "W10", "R9", "G7", "Y5"]


def test_a_long_hand_is_sorted_grouped_and_wrapped_between_whole_cards() -> None:
    pos = {"hands": [NO_MERCY_HAND, ["B1", "B2"], ["Y1", "Y2"]], "discard": ["R5"], "active": 0,
           "ruleset": "no-mercy"}
    s, _, out = session(pos, quiet(3), ["t", "0", "quit", "y"], width=40)
    assert s.run() == 0
    text = out.getvalue()
    start = text.index("Your hand: ")
    block = text[start:text.index("\nYou can:", start)].splitlines()
    assert len(block) > 3
    assert all(len(line) <= 40 for line in block)
    assert all(line.startswith(" " * len("Your hand: ")) for line in block[1:])
    tokens = " ".join(block).replace("Your hand:", "").replace("│", " ").split()
    assert [t.split(":")[0].rstrip("*") for t in tokens] == [str(i) for i in range(20)]
    shown = [t.split(":")[1] for t in tokens]
    assert shown == ["R1", "R2", "R9", "RDA", "Y3", "Y5", "Y9", "YD4", "G0", "G5", "G7", "GSE",
                     "B2", "B7", "BR", "BSE", "WR4", "W6", "W10", "WCR"]
    assert "You played R1" in text  # "0" is the first card shown, not the first card held


def test_special_cards_are_explained_on_first_sight_and_in_help() -> None:
    pos = {"hands": [NO_MERCY_HAND, ["B1", "B2"], ["Y1", "Y2"]], "discard": ["R5"], "active": 0,
           "ruleset": "no-mercy"}
    s, _, out = session(pos, quiet(3), ["t", "help", "quit", "y"])
    assert s.run() == 0
    text = out.getvalue()
    before_help = text[:text.index("Commands (the hand")]
    for code in ("RDA", "YD4", "GSE", "WCR", "WR4", "W6", "W10"):
        assert before_help.count(f"  ℹ {code} — ") == 1, code  # once, though the table showed twice
    assert "  ℹ BSE" not in text  # a kind already explained (GSE) is not explained again
    assert "  ℹ R1" not in text
    assert "ℹ WCR — Wild Color Roulette: the next seat names a color, then turns up cards" in text
    after_help = text[text.index("Commands (the hand"):]
    assert "The special cards of this deck" in after_help
    assert "  WCR  Wild Color Roulette" in after_help
    assert "25 cards or more knock a seat out of the round." in after_help


def test_help_under_the_classic_deck_has_no_special_cards() -> None:
    pos = {"hands": [["R7", "G2"], ["B1", "B2"], ["Y1", "Y2"]], "discard": ["R5"], "active": 0}
    s, _, out = session(pos, quiet(3), ["help"])
    assert s.run() == 0
    assert "special cards" not in out.getvalue() and "ℹ" not in out.getvalue()
