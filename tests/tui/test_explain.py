"""Refusals in a player's words (unotable/tui/explain.py)."""

from __future__ import annotations

from typing import Any

import pytest

from unotable import Game, parse_action
from unotable.tui.explain import explain, seat_count_text

NAMES = ["You", "Bot 1", "Bot 2"]


def why(position: dict[str, Any], action: str, seat: int = 0) -> str:
    game = Game.from_position(position)
    with pytest.raises(ValueError):  # the engine refuses it too
        game.check(parse_action(action), seat)
    return explain(parse_action(action), game.view(seat), NAMES)


BASE = {"hands": [["G4", "B2", "W", "R7"], ["Y1", "Y2"], ["Y3", "Y4", "Y5"]], "discard": ["B7"], "active": 0}


@pytest.mark.parametrize(
    ("position", "action", "seat", "text"),
    [
        (BASE, "G4", 0, "G4 doesn't match: play blue or a 7, or draw"),
        ({**BASE, "discard": ["BS"]}, "G4", 0, "G4 doesn't match: play blue or a Skip, or draw"),
        ({**BASE, "discard": ["B8"]}, "G4", 0, "G4 doesn't match: play blue or an 8, or draw"),
        ({**BASE, "discard": ["B3", "W"], "color": "B"}, "G4", 0, "G4 doesn't match: play blue, or draw"),
        (BASE, "Y9", 0, "You have no Y9: your hand is G4 B2 W R7"),
        (BASE, "Y1", 1, "It's not your turn: You is to play"),
        (BASE, "draw", 1, "It's not your turn: You is to play"),
        (BASE, "pass", 0, "You can pass only after drawing a card: draw first"),
        (BASE, "accept", 0, "There is no penalty to accept"),
        (BASE, "challenge", 0, "There is no Wild Draw Four to challenge now"),
        (BASE, "uno", 0, "UNO is called with one card left, or with the play that leaves one (you hold 4)"),
        (BASE, "catch:0", 0, "You can't catch yourself"),
        (BASE, "catch:2", 0,
         "Bot 2 can't be caught: only a seat left with one card and no UNO call can be"),
        ({**BASE, "hands": [["G4", "B2"], ["Y1"], ["Y3", "Y4"]], "exposed": [1]}, "catch:2", 0,
         "Bot 2 can't be caught: only a seat left with one card and no UNO call can be "
         "(catch 1 to catch Bot 1)"),
        (BASE, "color:R", 0, "There is no color to name now: a wild's color goes with the card (3 b, W4:B)"),
        (BASE, "B2>1", 0, "B2 takes no target seat: type it without >"),
        (BASE, "B2!", 0, "UNO (!) goes with the play that leaves you one card; you hold 4"),
        ({**BASE, "phase": "play_drawn", "drawn": "B2"}, "R7", 0,
         "After drawing you may play only the card you drew (B2), or keep it (pass)"),
        ({**BASE, "phase": "play_drawn", "drawn": "B2"}, "draw", 0,
         "You have drawn already: play the B2 you drew (play) or keep it (pass)"),
        ({"hands": [["R7", "GD2"], ["B1", "B2"]], "discard": ["R3", "RD2"], "active": 0, "phase": "respond",
          "pending": {"total": 2, "card": "RD2"}, "ruleset": "house"}, "R7", 0,
         "R7 can't answer the +2 against you: accept it, or stack GD2"),
        ({"hands": [["R7", "GD2"], ["B1", "B2"]], "discard": ["R3", "RD2"], "active": 0, "phase": "respond",
          "pending": {"total": 2, "card": "RD2"}, "ruleset": "house"}, "draw", 0,
         "You face +2: take it with accept, or stack GD2"),
    ],
)
def test_refusals_in_words(position: dict[str, Any], action: str, seat: int, text: str) -> None:
    assert why(position, action, seat) == text


def test_a_refusal_never_shows_another_hand() -> None:
    for action in ("Y3", "Y1", "catch:2", "G4"):
        text = explain(parse_action(action), Game.from_position(BASE).view(0), NAMES)
        others = text.replace("no Y3", "").replace("no Y1", "")
        assert "Y1" not in others and "Y3" not in others and "Y4" not in others


@pytest.mark.parametrize(
    ("seats", "allowed", "preset", "text"),
    [
        (1, range(2, 11), "official", "1 seat is not allowed with the official rules: choose 2 to 10 seats"),
        (11, range(2, 11), "official",
         "11 seats are not allowed with the official rules: choose 2 to 10 seats"),
        (3, (2,), "two-player", "3 seats are not allowed with the two-player rules: choose 2 seats"),
        (5, (4, 6, 8, 10), "partners",
         "5 seats are not allowed with the partners rules: choose 4, 6, 8 or 10 seats"),
    ],
)
def test_seat_count_text(seats: int, allowed: Any, preset: str, text: str) -> None:
    assert seat_count_text(seats, allowed, preset) == text
