"""Reading what the human types (unotable/tui/commands.py)."""

from __future__ import annotations

import pytest

from unotable import Card, Catch, ChooseColor, Color, Draw, NotationError, Pass, Play, parse_action
from unotable.tui.commands import missing, read_line

HAND = (Card.parse("R7"), Card.parse("W4"), Card.parse("GS"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", "R7"),
        (" 0 ", "R7"),
        ("0!", "R7!"),
        ("0 uno", "R7!"),
        ("0>2", "R7>2"),
        ("0 > 2 !", "R7>2!"),
        ("1", "W4"),
        ("1 b", "W4:B"),
        ("1:blue", "W4:B"),
        ("1 Blue!", "W4:B!"),
        ("W4:B", "W4:B"),
        ("r7>2!", "R7>2!"),
        ("draw", "draw"),
        ("d", "draw"),
        ("p", "pass"),
        ("pass", "pass"),
        ("accept", "accept"),
        ("challenge", "challenge"),
        ("uno", "uno"),
        ("UNO", "uno"),
        ("catch 2", "catch:2"),
        ("catch:1", "catch:1"),
        ("color g", "color:G"),
        ("color:R>2", "color:R>2"),
    ],
)
def test_actions(text: str, expected: str) -> None:
    assert read_line(text, HAND) == parse_action(expected)


@pytest.mark.parametrize(
    ("text", "word"),
    [("", "empty"), ("  ", "empty"), ("help", "help"), ("?", "help"), ("q", "quit"), ("quit", "quit"),
     ("exit", "quit"), ("t", "table"), ("hand", "table"), ("moves", "moves"), ("m", "moves")],
)
def test_client_words(text: str, word: str) -> None:
    assert read_line(text, HAND) == word


def test_play_is_the_drawn_card() -> None:
    assert read_line("play", HAND, drawn=Card.parse("GS")) == Play(Card.parse("GS"))
    with pytest.raises(NotationError, match="you have not drawn"):
        read_line("play", HAND)


def test_catch_alone_names_the_only_exposed_seat() -> None:
    assert read_line("catch", HAND, exposed=[2]) == Catch(2)
    with pytest.raises(NotationError, match="catch whom"):
        read_line("catch", HAND, exposed=[1, 2])


def test_bare_color_while_choosing_a_color() -> None:
    assert read_line("r", HAND, choosing_color=True) == ChooseColor(Color.RED)
    assert read_line("green", HAND, choosing_color=True) == ChooseColor(Color.GREEN)
    assert read_line("b>1", HAND, choosing_color=True) == ChooseColor(Color.BLUE, 1)
    with pytest.raises(NotationError):
        read_line("r", HAND)  # not a card, not an action, outside a color choice


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3", "there is no card 3 in your hand: type an index from 0 to 2"),
        ("zz", "'zz' is not an action"),
        ("0:q", "'0:q': after a card's index comes a color (0 b), a target seat (0>2) or ! for UNO (0!)"),
        ("1.5", "'1.5': after a card's index comes a color (1 b), a target seat (1>2) or ! for UNO (1!); "
                "to play card 1 type just 1"),
        ("catch x", "not a seat number"),
        ("1>x", "'1>x': after a card's index comes a color"),
    ],
)
def test_malformed_input_says_why(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        read_line(text, HAND)
    assert message in str(info.value)


def test_draw_and_pass_words_are_the_actions() -> None:
    assert read_line("DRAW", HAND) == Draw()
    assert read_line("Pass", HAND) == Pass()


def test_missing_color_and_target() -> None:
    legal = [parse_action(a) for a in ("W4:R", "W4:Y", "W4:G", "W4:B", "R7>1", "R7>2", "GS", "GS!", "draw")]
    assert missing(parse_action("W4"), legal) == (True, ())
    assert missing(parse_action("W4:G"), legal) == (False, ())
    assert missing(parse_action("R7"), legal) == (False, (1, 2))
    assert missing(parse_action("R7>1"), legal) == (False, ())
    assert missing(parse_action("GS"), legal) == (False, ())
    assert missing(parse_action("B9"), legal) == (False, ())  # not legal: the engine will say why
    assert missing(parse_action("draw"), legal) == (False, ())
    choose = [parse_action("color:R>1"), parse_action("color:R>2"), parse_action("color:B>1")]
    assert missing(parse_action("color:R"), choose) == (False, (1, 2))
