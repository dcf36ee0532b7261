"""Tests for unotable.cards: colors, ranks, card ids and the card notation."""
from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unotable import cards
from unotable.cards import (
    BLANK,
    ID_COLOR,
    ID_DRAW_VALUE,
    ID_IS_NUMBER,
    ID_IS_WILD,
    ID_NOTATION,
    ID_RANK,
    NUM_CARD_IDS,
    WILD,
    WILD_COLOR_ROULETTE,
    WILD_CUSTOMIZABLE,
    WILD_DRAW_FOUR,
    WILD_DRAW_SIX,
    WILD_DRAW_TEN,
    WILD_REVERSE_DRAW_FOUR,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Card,
    Color,
    Rank,
    card_id,
    format_cards,
    parse_cards,
)
from unotable.errors import InvalidActionError, NotationError, UnoError

ALL_CARDS = [Card.from_id(i) for i in range(NUM_CARD_IDS)]

# Every notation written out by hand, independently of the module's tables.
COLORED_CODES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "D4", "SE", "DA"]
WILD_CODES = ["W", "W4", "WS", "WX", "WC", "WB", "WR4", "W6", "W10", "WCR"]
EXPECTED_NOTATION = [c + code for c in "RYGB" for code in COLORED_CODES] + WILD_CODES


# ---------------------------------------------------------------- Color


def test_color_values_and_letters() -> None:
    # RULE: DECK-1
    assert [(c.name, int(c), c.letter) for c in Color] == [
        ("RED", 0, "R"),
        ("YELLOW", 1, "Y"),
        ("GREEN", 2, "G"),
        ("BLUE", 3, "B"),
    ]
    assert str(Color.RED) == "R"
    assert f"{Color.BLUE}" == "B"
    assert f"[{Color.GREEN:>3}]" == "[  G]"


@pytest.mark.parametrize(
    ("text", "color"),
    [
        ("R", Color.RED),
        ("r", Color.RED),
        ("red", Color.RED),
        ("RED", Color.RED),
        ("Yellow", Color.YELLOW),
        ("y", Color.YELLOW),
        ("green", Color.GREEN),
        ("G", Color.GREEN),
        (" blue ", Color.BLUE),
        ("b", Color.BLUE),
    ],
)
def test_color_parse(text: str, color: Color) -> None:
    assert Color.parse(text) is color


@pytest.mark.parametrize("text", ["", "X", "purple", "W", "re", "0", "RED!"])
def test_color_parse_rejects_and_names_the_text(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Color.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------- Rank and ids


def test_rank_values() -> None:
    expected = {
        "ZERO": 0, "ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7,
        "EIGHT": 8, "NINE": 9, "SKIP": 10, "REVERSE": 11, "DRAW_TWO": 12, "DRAW_FOUR": 13,
        "SKIP_EVERYONE": 14, "DISCARD_ALL": 15, "WILD": 16, "WILD_DRAW_FOUR": 17, "WILD_SWAP_HANDS": 18,
        "WILD_SHUFFLE_HANDS": 19, "WILD_CUSTOMIZABLE": 20, "BLANK": 21, "WILD_REVERSE_DRAW_FOUR": 22,
        "WILD_DRAW_SIX": 23, "WILD_DRAW_TEN": 24, "WILD_COLOR_ROULETTE": 25,
    }  # fmt: skip
    assert {r.name: int(r) for r in Rank} == expected
    assert [r.is_wild for r in Rank] == [False] * 16 + [True] * 10
    assert [r.is_number for r in Rank] == [True] * 10 + [False] * 16


def test_card_id_formula() -> None:
    assert NUM_CARD_IDS == 74
    for color in range(4):
        for rank in range(16):
            assert card_id(color, rank) == color * 16 + rank
    for rank in range(16, 26):
        assert card_id(-1, rank) == 64 + rank - 16
    assert card_id(Color.YELLOW, Rank.DRAW_TWO) == 28


def test_wild_id_constants() -> None:
    constants = [
        WILD,
        WILD_DRAW_FOUR,
        WILD_SWAP_HANDS,
        WILD_SHUFFLE_HANDS,
        WILD_CUSTOMIZABLE,
        BLANK,
        WILD_REVERSE_DRAW_FOUR,
        WILD_DRAW_SIX,
        WILD_DRAW_TEN,
        WILD_COLOR_ROULETTE,
    ]
    assert constants == list(range(64, 74))
    assert all(type(x) is int for x in (WILD, BLANK, WILD_COLOR_ROULETTE))
    assert Card.from_id(WILD_DRAW_TEN) == Card(Rank.WILD_DRAW_TEN)


@pytest.mark.parametrize(("color", "rank"), [(-1, 7), (4, 7), (0, 16), (2, 25), (-1, 26), (0, -1), (0, 16)])
def test_card_id_rejects_impossible_cards(color: int, rank: int) -> None:
    with pytest.raises(InvalidActionError):
        card_id(color, rank)


def test_id_tables() -> None:
    # RULE: DECK-1
    for table in (ID_COLOR, ID_RANK, ID_IS_WILD, ID_IS_NUMBER, ID_DRAW_VALUE, ID_NOTATION):
        assert isinstance(table, tuple)
        assert len(table) == NUM_CARD_IDS
    for i, card in enumerate(ALL_CARDS):
        assert ID_RANK[i] == card.rank
        assert ID_COLOR[i] == (-1 if card.color is None else int(card.color))
        assert ID_IS_WILD[i] is (i >= 64) is card.is_wild is (card.color is None)
        assert ID_IS_NUMBER[i] is card.is_number is (ID_RANK[i] <= 9)
        assert ID_DRAW_VALUE[i] == card.draw_value
        assert card.is_draw_card is (card.draw_value > 0)
        assert ID_NOTATION[i] == str(card) == EXPECTED_NOTATION[i]
        if card.color is not None:
            assert 0 <= ID_COLOR[i] <= 3
            assert card.color in (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)


def test_draw_values() -> None:
    values = {str(Card.from_id(i)): ID_DRAW_VALUE[i] for i in range(NUM_CARD_IDS) if ID_DRAW_VALUE[i]}
    expected = {f"{c}D2": 2 for c in "RYGB"} | {f"{c}D4": 4 for c in "RYGB"}
    expected |= {"W4": 4, "WR4": 4, "W6": 6, "W10": 10}
    assert values == expected
    assert not Card.parse("WCR").is_draw_card  # the Roulette is not a draw card (NM-11)
    assert not Card.parse("GS").is_draw_card


# ---------------------------------------------------------------- Card


def test_card_construction_checks_the_color() -> None:
    # RULE: DECK-1
    assert Card(Rank.SEVEN, Color.RED) == Card.parse("R7")
    assert Card(Rank.WILD) == Card.parse("W")
    with pytest.raises(InvalidActionError, match="takes no color"):
        Card(Rank.WILD_DRAW_FOUR, Color.RED)
    with pytest.raises(InvalidActionError, match="needs a color"):
        Card(Rank.SKIP)
    with pytest.raises(InvalidActionError):
        Card(26, Color.RED)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        Card(Rank.SEVEN, 4)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        Card(Rank.SEVEN, True)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        Card("7", Color.RED)  # type: ignore[arg-type]


def test_card_constructor_coerces_ints_to_enums() -> None:
    card = Card(7, 0)  # type: ignore[arg-type]
    assert type(card.rank) is Rank
    assert type(card.color) is Color
    assert card == Card.parse("R7")


def test_card_is_frozen() -> None:
    card = Card.parse("R7")
    with pytest.raises(AttributeError):
        card.rank = Rank.EIGHT  # type: ignore[misc]


def test_every_card_round_trips_through_notation() -> None:
    assert len(ALL_CARDS) == 74
    for i, card in enumerate(ALL_CARDS):
        assert card.id == i
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card
        assert Card.parse(f"  {card}\n") is card
        assert eval(repr(card)) is card
        assert repr(card) == f"Card.parse({str(card)!r})"
        assert Card.from_id(i) is card


def test_examples_from_the_spec() -> None:
    examples = {
        "R7": (Rank.SEVEN, Color.RED),
        "GS": (Rank.SKIP, Color.GREEN),
        "BR": (Rank.REVERSE, Color.BLUE),
        "YD2": (Rank.DRAW_TWO, Color.YELLOW),
        "RD4": (Rank.DRAW_FOUR, Color.RED),
        "GSE": (Rank.SKIP_EVERYONE, Color.GREEN),
        "BDA": (Rank.DISCARD_ALL, Color.BLUE),
        "RR": (Rank.REVERSE, Color.RED),
        "W": (Rank.WILD, None),
        "W4": (Rank.WILD_DRAW_FOUR, None),
        "WS": (Rank.WILD_SWAP_HANDS, None),
        "WX": (Rank.WILD_SHUFFLE_HANDS, None),
        "WC": (Rank.WILD_CUSTOMIZABLE, None),
        "WB": (Rank.BLANK, None),
        "WR4": (Rank.WILD_REVERSE_DRAW_FOUR, None),
        "W6": (Rank.WILD_DRAW_SIX, None),
        "W10": (Rank.WILD_DRAW_TEN, None),
        "WCR": (Rank.WILD_COLOR_ROULETTE, None),
    }
    for text, (rank, color) in examples.items():
        card = Card.parse(text)
        assert (card.rank, card.color) == (rank, color)
        assert str(card) == text
    assert repr(Card.parse("YD2")) == "Card.parse('YD2')"
    assert Card.parse("yd2").label == "yellow Draw Two"
    assert Card.parse("W4").label == "Wild Draw Four"


@pytest.mark.parametrize(
    "text", ["", " ", "X7", "R10", "R", "W5", "RW", "RW4", "R 7", "7", "WD4", "R7,", "r-wild", "W4:B", "Y D2"]
)
def test_bad_notation_names_the_input_and_the_forms(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "YD2" in message
    assert "WCR" in message


@pytest.mark.parametrize("value", [None, 7, b"R7", ["R7"]])
def test_parse_rejects_non_text(value: object) -> None:
    with pytest.raises(NotationError):
        Card.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [-1, 74, 1000, True, "3", 3.0, None])
def test_from_id_rejects_bad_ids(value: object) -> None:
    with pytest.raises(NotationError) as info:
        Card.from_id(value)  # type: ignore[arg-type]
    assert repr(value) in str(info.value)


def test_cards_order_by_id_and_hash_as_values() -> None:
    shuffled = [Card.parse(t) for t in ("W4", "B9", "R0", "YD2", "WCR", "GS")]
    assert [str(c) for c in sorted(shuffled)] == ["R0", "YD2", "GS", "B9", "W4", "WCR"]
    assert Card.parse("R0") < Card.parse("R1") <= Card.parse("R1") < Card.parse("W")
    assert Card.parse("W") > Card.parse("BDA") >= Card.parse("BDA")
    assert len({Card(Rank.SEVEN, Color.RED), Card.parse("R7"), Card.from_id(7)}) == 1
    assert hash(Card(Rank.SEVEN, Color.RED)) == hash(Card.parse("R7"))
    assert Card.parse("R7") != Card.parse("Y7")
    text: object = "R7"
    assert Card.parse("R7") != text
    with pytest.raises(TypeError):
        _ = Card.parse("R7") < 3


def test_copy_and_pickle_keep_the_shared_instance() -> None:
    card = Card.parse("WR4")
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_errors_are_value_errors() -> None:
    assert issubclass(NotationError, UnoError)
    assert issubclass(NotationError, ValueError)
    assert issubclass(InvalidActionError, ValueError)


# ---------------------------------------------------------------- lists


def test_parse_and_format_cards() -> None:
    parsed = parse_cards(" r7, gs  W4,,\tYD2\n")
    assert parsed == [Card.parse("R7"), Card.parse("GS"), Card.parse("W4"), Card.parse("YD2")]
    assert format_cards(parsed) == "R7 GS W4 YD2"
    assert parse_cards(format_cards(ALL_CARDS)) == ALL_CARDS
    assert parse_cards("") == []
    assert parse_cards(" , ") == []
    assert format_cards([]) == ""
    with pytest.raises(NotationError, match="'X9'"):
        parse_cards("R7 X9 W")


def test_public_names() -> None:
    for name in cards.__all__:
        assert hasattr(cards, name)


@given(st.text(alphabet="RYGBWSDAXCE0123456789 rygbwsdaxce", max_size=5))
def test_parse_accepts_exactly_the_notation(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError as error:
        assert repr(text) in str(error)
        assert text.strip().upper() not in EXPECTED_NOTATION
    else:
        assert str(card) == text.strip().upper()
        assert str(card) in EXPECTED_NOTATION


@given(st.lists(st.integers(0, NUM_CARD_IDS - 1), max_size=20))
def test_card_lists_round_trip(ids: list[int]) -> None:
    hand = [Card.from_id(i) for i in ids]
    assert parse_cards(format_cards(hand)) == hand
    assert [c.id for c in sorted(hand)] == sorted(ids)
