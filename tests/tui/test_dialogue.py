"""The turn dialogue that ``unotable play`` and ``unotable join`` share, and what join shows."""
from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from unotable import Card, Color, Game, Play
from unotable.actions import ChooseColor
from unotable.bots import make_bot
from unotable.client import TokenStore
from unotable.tui import dialogue
from unotable.tui.driver import Table
from unotable.tui.online import OnlineClient
from unotable.tui.play import PlayConfig, Session
from unotable.tui.render import Style, round_summary_lines, seat_names, sort_hand


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def test_both_terminals_say_the_same_options_line_and_read_the_same_indices(tmp_path: Path) -> None:
    game = Game.new(3, "official", 5)
    seat = game.active_seat
    view = game.view(seat)
    bots = {s: make_bot("random") for s in range(3) if s != seat}
    local = Session(game, Table(game, bots, 5), PlayConfig(seats=3, human=seat), ["", "", ""], io.StringIO(),
                    input, seed=5)
    online = OnlineClient("http://h:1/t/abc", out=io.StringIO(), ask=input, tokens=TokenStore(tmp_path))
    assert local.options_line(game.legal_action_list(seat)) == online.options_line(view)
    hand = dialogue.shown_hand(view)
    assert hand == sort_hand(view.hand) == local.hand()
    for i in sorted(dialogue.playable(hand, view.legal)):  # an index means the card shown at it
        command = dialogue.read_command(str(i), view)
        assert isinstance(command, Play) and command.card == hand[i]
    assert dialogue.legal_line([]) == "Legal now: nothing"


def test_a_completion_asks_the_color_then_the_target_and_backs_out_on_enter() -> None:
    names = ["You", "Ann", "Bob"]
    legal = [Play(Card.parse("W4"), color=c, target=t) for c in Color for t in (1, 2)]
    asking = dialogue.Completion(Play(Card.parse("W4")), legal, names)
    assert asking.prompt == dialogue.COLOR_PROMPT
    assert asking.answer("g") is None
    assert asking.prompt == "Target seat — 1 (Ann), 2 (Bob); Enter to cancel: "
    assert asking.answer("7") == "'7' is not one of the seats you can target: 1 (Ann), 2 (Bob)"
    assert asking.answer(" 2 ") is None and asking.prompt is None
    assert asking.result == Play(Card.parse("W4"), color=Color.GREEN, target=2)
    back = dialogue.Completion(Play(Card.parse("W4")), legal, names)
    assert back.answer("") is None and back.prompt is None and back.result is None
    done = dialogue.Completion(ChooseColor(Color.RED), [ChooseColor(Color.RED)], names)
    assert done.prompt is None and done.result == ChooseColor(Color.RED)


def test_join_groups_the_hand_by_color_and_says_what_it_waits_for(tmp_path: Path, playing_table: Any) -> None:
    game, static, info = playing_table
    out = io.StringIO()
    client = OnlineClient("http://h:1/t/abc", out=out, ask=input, tokens=TokenStore(tmp_path))
    client.me = 0
    view = {**game.view(0).to_dict(), "active": 2}
    view["hand"] = ["W", "B2", "R7", "G1", "R1"]
    view["hand_sizes"] = [5, *view["hand_sizes"][1:]]
    client._handle({"type": "welcome", "seq": 3, "you": {"seat": 0}, "table": info, "static": static,
                    "view": view})
    client.show_table()
    shown = out.getvalue()
    assert "Your hand: 0:R1  1:R7 │ 2:G1 │ 3:B2 │ 4:W" in shown  # as `unotable play` shows it
    assert client.prompt() == "(waiting for Bot 2) > "
    client.view = dialogue_view(client, {**view, "phase": "round_over"})
    assert client.prompt() == "(waiting for the next deal) > "
    client.view, client.me, client.info = None, 1, {**info, "status": "waiting"}
    assert client.prompt() == "(waiting for the host to start) > "
    client.host = True
    assert client.prompt().startswith("(waiting room: type start")


def dialogue_view(client: OnlineClient, doc: dict[str, object]) -> object:
    from unotable.client.connection import decode_view

    assert client.static is not None
    return decode_view(doc, client.static)


def test_the_end_of_round_hand_is_sorted() -> None:
    game = Game.new(2, "official", 3)
    Table(game, {0: make_bot("random"), 1: make_bot("random")}, 3).arbiter().play_round()
    result = game.round_result()
    assert result is not None and result.winner is not None
    loser = 1 - result.winner
    view = game.view(loser)
    lines = round_summary_lines(view, seat_names(2, None, loser), Style(color=False))
    mine = next(line for line in lines if "points" in line and line.startswith("    "))
    assert view.hand != sort_hand(view.hand)  # dealt out of order: the line shows it sorted
    assert mine.endswith("   " + " ".join(str(c) for c in sort_hand(view.hand)))


def test_hints_name_the_command_as_it_can_be_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "unotable"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert dialogue.program_name() == "unotable"  # on the PATH: its plain name
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    monkeypatch.setattr(dialogue.sys, "prefix", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert dialogue.program_name() == os.path.join("bin", "unotable")  # this environment's script
    monkeypatch.chdir(tmp_path / "bin")
    assert dialogue.program_name() == os.path.join(".", "unotable")
    monkeypatch.setattr(dialogue.sys, "prefix", str(tmp_path / "elsewhere"))
    assert dialogue.program_name() == "unotable"  # no script to point at: the plain name


def test_long_messages_wrap_between_words(tmp_path: Path) -> None:
    out = io.StringIO()
    client = OnlineClient("http://h:1/t/abc", out=out, ask=input, tokens=TokenStore(tmp_path))
    assert client.width == 0  # not a terminal: nothing wraps
    client.width = 32
    client.error("Not allowed now: you cannot catch seat 2, who called UNO in time")
    lines = out.getvalue().splitlines()
    assert lines == ["✗ Not allowed now: you cannot", "  catch seat 2, who called UNO", "  in time"]
    assert all(len(line) <= 32 for line in lines)
    assert dialogue.wrap_words("✗ averyveryverylongwordthatdoesnotfit ok", 10) == [
        "✗ averyveryverylongwordthatdoesnotfit", "  ok"]
