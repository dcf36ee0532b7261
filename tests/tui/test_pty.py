"""``unotable play`` driven through a real pseudo-terminal (the ``term`` fixture in conftest.py).

The child is ``python -m unotable.cli play --seed 5 --bots random --seats 3 --no-color --fast``; with
seed 5 the human (seat 0) is dealt GS B3 R8 BD2 W4 B2 R3, the first card is B9 and bot 2, first to
act, draws a card it cannot play; after the human's B3, bot 1 plays G3 and bot 2 draws again.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unotable import Game, Phase, parse_action
from unotable.cli import main
from unotable.record import Record, replay

ARGS = ("play", "--seed", "5", "--bots", "random", "--seats", "3", "--no-color", "--fast")
PROMPT = (
    r"(?m)(^> $|^\(out of turn\) > $|Press Enter to deal[^\n]*: $|Name a color[^\n]*: $"
    r"|Target seat[^\n]*: $|Leave this match\?[^\n]*\] $)"
)


def test_the_table_hand_and_top_card_are_shown(term: Callable[..., Any]) -> None:
    t = term(*ARGS)
    t.expect(r"(?m)^> $")
    screen = t.screen
    dealt = " ".join(map(str, Game.new(3, "official", 5).hand(0)))
    assert f"You were dealt {dealt}" in screen  # GS B3 R8 BD2 W4 B2 R3, shown sorted and grouped:
    assert "Your hand: 0:R3  1:R8 │ 2:GS │ 3*:B2  4*:B3  5*:BD2 │ 6*:W4\n" in screen
    assert "Top card: B9   color: blue   direction: ↻ clockwise (0→1→2→0)" in screen
    assert "Bot 2 drew 1 card" in screen
    assert re.search(r"0  You +7 cards +score +0 +◀ to act", screen)
    assert "You can: play 3, 4, 5, 6 · draw" in screen
    assert "\x1b[" not in screen
    t.send("quit")
    t.expect(r"Leave this match\? It is not over; its record is kept\. \[y/N\] $")
    t.send("y")
    assert t.wait() == 0
    assert t.screen.endswith("Goodbye.\n")
    assert "Traceback" not in t.screen


def bot_lines_timed(t: Any) -> list[tuple[str, float]]:
    """After the human plays B3: each bot line as it shows up, with the time it showed up."""
    t.send("4")
    t.expect(r"You played B3")
    seen = []
    for line in (r"Bot 1 played G3\n", r"Bot 2 drew 1 card\n"):
        m = t.expect(line)
        seen.append((m.group(0), time.monotonic(), t.screen[m.end():]))
    t.expect(r"(?m)^> $")
    return [(line, at) for line, at, after in seen if "Bot" not in after]


def test_bot_actions_are_paced_and_shown_one_at_a_time(term: Callable[..., Any]) -> None:
    args = [a for a in ARGS if a != "--fast"]
    t = term(*args, "--delay", "0.4")
    t.expect(r"(?m)^> $")
    started = time.monotonic()
    timed = bot_lines_timed(t)
    assert len(timed) == 2  # each line was on the screen before the next bot acted
    # bot 1 acted after the play was sent, then paused: bot 2's line came at least the pause after
    # ``started`` (a bound no slow read can break, as the gap between two reads could)
    assert timed[1][1] - started >= 0.4, (started, timed)
    t.close()


def test_the_default_pace_and_fast(term: Callable[..., Any]) -> None:
    args = [a for a in ARGS if a != "--fast"]
    t = term(*args)  # no flag: the default delay of 0.6 s
    t.expect(r"(?m)^> $")
    started = time.monotonic()
    timed = bot_lines_timed(t)
    assert len(timed) == 2 and timed[1][1] - started >= 0.6, (started, timed)  # (as above)
    t.close()
    t = term(*ARGS)  # --fast: no pause at all
    t.expect(r"(?m)^> $")
    t.send("4")
    t.expect(r"You played B3")
    t.expect(r"Bot 2 drew 1 card")  # how fast is not timed here (benchmarks time; tests wait)
    t.close()


def test_illegal_input_is_explained_and_the_game_goes_on(term: Callable[..., Any]) -> None:
    t = term(*ARGS)
    t.expect(r"(?m)^> $")
    t.send("GS")
    t.expect(r"✗ GS doesn't match: play blue or a 9, or draw\n")
    t.expect(r"(?m)^> $")
    t.send("9")
    t.expect(r"✗ there is no card 9 in your hand: type an index from 0 to 6")
    t.send("blah")
    t.expect(r"✗ 'blah' is not an action")
    t.send("6")  # W4: asks for the color
    t.expect(r"Name a color — r\(ed\), y\(ellow\), g\(reen\), b\(lue\); Enter to cancel: $")
    t.send("")  # cancelled: nothing played
    t.expect(r"(?m)^> $")
    t.send("4")
    t.expect(r"You played B3")
    t.expect(r"(?m)^> $")
    t.send_raw(b"\x04")  # end of input
    assert t.wait() == 0
    assert "End of input." in t.screen and t.screen.endswith("Goodbye.\n")
    assert "Traceback" not in t.screen


def test_ctrl_c_quits_cleanly(term: Callable[..., Any]) -> None:
    t = term(*ARGS)
    t.expect(r"(?m)^> $")
    t.wait_reading()  # a SIGINT before read() is entered would be seen only when read() returns
    t.send_raw(b"\x03")
    assert t.wait() == 130
    assert "Interrupted." in t.screen and t.screen.endswith("Goodbye.\n")
    assert "Traceback" not in t.screen


def test_colors_on_a_terminal_unless_no_color(term: Callable[..., Any]) -> None:
    args = [a for a in ARGS if a != "--no-color"]
    t = term(*args)
    t.expect(r"(?m)^> $")
    assert "\x1b[1;97;44m B9 \x1b[0m" in t.screen  # the top card, a blue tile
    t.close()
    t = term(*args, env={"NO_COLOR": "1"})
    t.expect(r"(?m)^> $")
    assert "\x1b[" not in t.screen
    t.close()


def answer(t: Any, prompt: str, before: str) -> str:
    """What a simple scripted player types at ``prompt``."""
    if prompt == "> ":
        options = before[before.rfind("You can:"):]
        if "name a color" in options:
            return "r"
        play = re.search(r"play (\d+)", options)
        if play:
            return play.group(1) + ("!" if "add !" in options else "")
        for word in ("accept", "draw", "pass", "uno"):
            if re.search(rf"\b{word}\b", options):
                return word
        raise AssertionError(f"no option to take in {options!r}")
    if prompt.startswith("Name a color"):
        return "b"
    if prompt.startswith("Target seat"):
        found = re.search(r"(\d+) \(", prompt)
        assert found
        return found.group(1)
    if prompt.startswith("(out of turn)"):
        return "uno" if re.search(r"You can:.*\buno\b", before[before.rfind("You may act"):]) else ""
    return ""


def play_until(t: Any, stop: str, limit: int = 3000) -> re.Match[str]:
    """Answer every prompt like :func:`answer` until a prompt matching ``stop``."""
    for _ in range(limit):
        m = t.expect(PROMPT, timeout=15)
        prompt = m.group(0)
        if re.search(stop, prompt):
            return m
        before = t.screen[: m.start()]
        assert "✗" not in before[before.rfind("\n> ", 0, len(before) - 2):], before[-2000:]
        t.send(answer(t, prompt, before))
    raise AssertionError(f"no prompt {stop!r}")


def test_the_end_of_a_round_shows_hands_points_and_scores(term: Callable[..., Any]) -> None:
    t = term(*ARGS)
    m = play_until(t, r"Press Enter to deal round 2")
    screen = t.screen[: m.start()]
    summary = screen[screen.rindex("Round 1 over: "):]
    lines = summary.splitlines()
    winner = re.fullmatch(r"Round 1 over: (You|Bot 1|Bot 2) went out\.", lines[0])
    assert winner, lines[0]
    assert lines[1] == "  Hands left:"
    hands = {line.split("  ")[2].strip(): line for line in lines[2:5]}
    assert set(hands) == {"You", "Bot 1", "Bot 2"}
    losers = {name: int(re.search(r"(\d+) points?", line).group(1))  # type: ignore[union-attr]
              for name, line in hands.items() if name != winner.group(1)}
    assert "went out" in hands[winner.group(1)]
    total = sum(losers.values())
    terms = " + ".join(f"{p} ({name})" for name, p in sorted(losers.items()) if p)
    assert re.search(rf"  {winner.group(1)} scores? {re.escape(terms)} = {total} points\.", summary), summary
    assert "Scores (first to 500 wins the match)" in summary
    first = rf"(?m)^   1\. {winner.group(1)} +{total} +\+{total} +{500 - total} to go$"
    assert re.search(first, summary), summary
    t.send("")  # deal round 2
    t.expect(r"── Round 2 ──")
    t.close()


def test_a_whole_match_played_kept_and_replayed(term: Callable[..., Any], tmp_path: Path,
                                                capsys: Any) -> None:
    t = term(*ARGS)
    for _ in range(5000):
        m = t.expect(PROMPT + r"|Goodbye\.\n", timeout=15)
        if m.group(0).startswith("Goodbye"):
            break
        prompt = m.group(0)
        before = t.screen[: m.start()]
        assert "✗" not in before[before.rfind("\n> ", 0, len(before) - 2):], before[-2000:]
        assert not prompt.startswith("Leave this match")
        t.send(answer(t, prompt, before))
    else:
        raise AssertionError("the match did not end")
    assert t.wait() == 0
    screen = t.screen
    assert "Match over:" in screen
    assert "Final standings after " in screen
    assert re.search(r"(?m)^   1\. (You|Bot 1|Bot 2) +\d+  ★ winner$", screen)
    assert "Traceback" not in screen
    assert not list(tmp_path.glob("*.json"))  # nothing in the current directory
    kept = list((tmp_path / "data" / "records").glob("unotable-*-seed5.json"))
    assert len(kept) == 1
    assert f"Record kept: {kept[0]}" in screen
    # unotable, or the environment's script when unotable is not on the PATH (.venv/bin/unotable)
    assert re.search(rf"Replay it with: (unotable|\S*/bin/unotable) replay {re.escape(kept[0].name)}", screen)
    assert main(["replay", str(kept[0]), "--seat", "0", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Record: classic108 (deck defaults), 3 seats, seed 5, ")
    assert "Match over:" in out
    assert "End of the record: the match is over after" in out


def test_quitting_asks_first_and_keeps_the_record(term: Callable[..., Any], tmp_path: Path) -> None:
    t = term(*ARGS)
    t.expect(r"(?m)^> $")
    t.send("4")  # B3
    t.expect(r"(?m)^> $")
    t.send("q")
    t.expect(r"Leave this match\? It is not over; its record is kept\. \[y/N\] $")
    t.send("")  # no: the match goes on, unchanged
    t.expect(r"Play goes on\.")
    t.expect(r"(?m)^> $")
    t.send("quit")
    t.expect(r"Leave this match\?[^\n]*\] $")
    t.send("y")
    assert t.wait() == 0
    assert "You left the match." in t.screen
    kept = list((tmp_path / "data" / "records").glob("*.json"))
    assert len(kept) == 1
    record = Record.from_json(kept[0].read_text())
    assert record.names == ("You", "Bot 1", "Bot 2")
    assert (0, parse_action("B3")) in record.actions
    assert replay(record).phase < Phase.ROUND_OVER  # abandoned mid-round


def test_line_editing_and_history_at_the_prompt(term: Callable[..., Any]) -> None:
    t = term(*ARGS)
    t.expect(r"(?m)^> $")
    t.send("moves")
    t.expect(r"Legal now: ")
    t.expect(r"> $")
    t.send_raw(b"\x1b[A\r")  # Up: the last line again (readline's history)
    t.expect(r"Legal now: ")
    t.expect(r"> $")
    t.send_raw(b"x4\x1b[D\x7f\r")  # x4, Left, Backspace: the x before the cursor goes, "4" is read
    t.expect(r"You played B3")
    assert "Traceback" not in t.screen
    t.close()
