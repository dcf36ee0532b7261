"""Tests for unotable.decks: the deck compositions (DECK-1 to DECK-7) and point values (DECK-8, DECK-9)."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unotable.cards import (
    BLANK,
    ID_COLOR,
    ID_IS_WILD,
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
)
from unotable.decks import (
    CLASSIC_POINTS,
    COMPOSITIONS,
    NO_MERCY_POINTS,
    DeckKind,
    card_points,
    composition,
    deck_ids,
    deck_size,
    hand_points,
)
from unotable.errors import NotationError, RulesetError

CLASSIC_RANKS_PER_COLOR = {
    Rank.ZERO: 1,
    **{Rank(n): 2 for n in range(1, 10)},
    Rank.SKIP: 2,
    Rank.REVERSE: 2,
    Rank.DRAW_TWO: 2,
}
NO_MERCY_RANKS_PER_COLOR = {
    **{Rank(n): 2 for n in range(10)},
    Rank.DRAW_TWO: 3,
    Rank.DRAW_FOUR: 2,
    Rank.SKIP: 3,
    Rank.SKIP_EVERYONE: 2,
    Rank.REVERSE: 3,
    Rank.DISCARD_ALL: 3,
}


def by_color_and_rank(deck: list[int]) -> dict[Color, Counter[Rank]]:
    table: dict[Color, Counter[Rank]] = {color: Counter() for color in Color}
    for i in deck:
        card = Card.from_id(i)
        if card.color is not None:
            table[card.color][card.rank] += 1
    return table


def wilds(deck: list[int]) -> dict[int, int]:
    return dict(Counter(i for i in deck if ID_IS_WILD[i]))


def test_deck_kind_values() -> None:
    assert [k.value for k in DeckKind] == [
        "classic108",
        "classic112_blank",
        "classic112_swap",
        "classic112_shuffle",
        "no_mercy168",
    ]
    assert [k.is_no_mercy for k in DeckKind] == [False, False, False, False, True]
    assert DeckKind("NO_MERCY168") is DeckKind.NO_MERCY168
    assert {"classic108": 1}[DeckKind.CLASSIC108] == 1  # equal to, and hashed as, its string
    assert isinstance(DeckKind.CLASSIC108, str)
    assert str(DeckKind.CLASSIC112_SWAP) == "classic112_swap"
    with pytest.raises(ValueError):
        DeckKind("classic")


def test_colored_cards_have_one_of_four_colors_and_wilds_none() -> None:
    # RULE: DECK-1
    for deck in DeckKind:
        for i in deck_ids(deck):
            card = Card.from_id(i)
            if ID_IS_WILD[i]:
                assert card.color is None
                assert ID_COLOR[i] == -1
            else:
                assert card.color in set(Color)


def test_classic108() -> None:
    # RULE: DECK-2
    deck = deck_ids(DeckKind.CLASSIC108)
    assert len(deck) == 108
    table = by_color_and_rank(deck)
    for color in Color:
        assert dict(table[color]) == CLASSIC_RANKS_PER_COLOR
        assert sum(table[color].values()) == 25
    assert wilds(deck) == {WILD: 4, WILD_DRAW_FOUR: 4}


@pytest.mark.parametrize(
    ("deck", "extra"),
    [
        # RULE: DECK-3
        (DeckKind.CLASSIC112_BLANK, {BLANK: 4}),
        # RULE: DECK-4
        (DeckKind.CLASSIC112_SWAP, {WILD_SWAP_HANDS: 1, WILD_CUSTOMIZABLE: 3}),
        # RULE: DECK-5
        (DeckKind.CLASSIC112_SHUFFLE, {WILD_SHUFFLE_HANDS: 1, WILD_CUSTOMIZABLE: 3}),
    ],
)
def test_112_card_editions(deck: DeckKind, extra: dict[int, int]) -> None:
    # RULE: DECK-3, DECK-4, DECK-5
    cards = deck_ids(deck)
    assert len(cards) == 112
    table = by_color_and_rank(cards)
    for color in Color:
        assert dict(table[color]) == CLASSIC_RANKS_PER_COLOR
    assert wilds(cards) == {WILD: 4, WILD_DRAW_FOUR: 4, **extra}
    assert Counter(cards) - Counter(deck_ids(DeckKind.CLASSIC108)) == Counter(extra)


def test_blank_is_a_wild_like_the_customizable() -> None:
    # RULE: DECK-3
    blank, custom = Card.from_id(BLANK), Card.from_id(WILD_CUSTOMIZABLE)
    assert blank.is_wild and custom.is_wild
    assert not blank.is_draw_card and not custom.is_draw_card
    assert CLASSIC_POINTS[BLANK] == CLASSIC_POINTS[WILD_CUSTOMIZABLE] == 40
    assert DeckKind.CLASSIC112_BLANK.custom_card == BLANK
    assert DeckKind.CLASSIC112_SWAP.custom_card == WILD_CUSTOMIZABLE
    assert DeckKind.CLASSIC112_SHUFFLE.custom_card == WILD_CUSTOMIZABLE
    assert DeckKind.CLASSIC108.custom_card is None
    assert DeckKind.NO_MERCY168.custom_card is None


@pytest.mark.parametrize(
    ("deck", "full", "extra"),
    [
        (DeckKind.CLASSIC112_BLANK, 4, 0),
        (DeckKind.CLASSIC112_SWAP, 3, 1),
        (DeckKind.CLASSIC112_SHUFFLE, 3, 1),
    ],
)
def test_custom_count_keeps_only_some_custom_cards(deck: DeckKind, full: int, extra: int) -> None:
    # RULE: DECK-6
    assert deck.full_custom_count == full
    custom = deck.custom_card
    assert custom is not None
    assert composition(deck) == composition(deck, full)
    for count in range(full + 1):
        cards = deck_ids(deck, count)
        assert len(cards) == 108 + count + extra == deck_size(deck, count)
        assert cards.count(custom) == count
        assert (custom in composition(deck, count)) is (count > 0)
        rest = [i for i in cards if i != custom]
        assert rest == [i for i in deck_ids(deck) if i != custom]
    for bad in (-1, full + 1, 10, True, "2", 2.0):
        with pytest.raises(RulesetError) as info:
            composition(deck, bad)  # type: ignore[arg-type]
        assert "custom_count" in str(info.value)
        assert f"0-{full}" in str(info.value)


@pytest.mark.parametrize("deck", [DeckKind.CLASSIC108, DeckKind.NO_MERCY168])
def test_custom_count_on_decks_without_custom_cards(deck: DeckKind) -> None:
    # RULE: DECK-6
    assert deck.full_custom_count == 0
    assert composition(deck, 0) == composition(deck) == composition(deck, None)
    with pytest.raises(RulesetError, match="custom_count=1"):
        composition(deck, 1)


def test_no_mercy168() -> None:
    # RULE: DECK-7
    deck = deck_ids(DeckKind.NO_MERCY168)
    assert len(deck) == 168
    table = by_color_and_rank(deck)
    for color in Color:
        assert dict(table[color]) == NO_MERCY_RANKS_PER_COLOR
        assert sum(table[color].values()) == 36
    assert wilds(deck) == {
        WILD_REVERSE_DRAW_FOUR: 8,
        WILD_DRAW_SIX: 4,
        WILD_DRAW_TEN: 4,
        WILD_COLOR_ROULETTE: 8,
    }
    assert WILD not in deck and WILD_DRAW_FOUR not in deck
    totals = Counter(Card.from_id(i).rank for i in deck)
    assert sum(totals[Rank(n)] for n in range(10)) == 80
    assert (totals[Rank.DRAW_TWO], totals[Rank.DRAW_FOUR], totals[Rank.SKIP]) == (12, 8, 12)
    assert (totals[Rank.SKIP_EVERYONE], totals[Rank.REVERSE], totals[Rank.DISCARD_ALL]) == (8, 12, 12)


def test_compositions_are_data() -> None:
    # RULE: DECK-7
    assert set(COMPOSITIONS) == set(DeckKind)
    for deck, rows in COMPOSITIONS.items():
        expanded: Counter[int] = Counter()
        for notation, count in rows:
            assert isinstance(notation, str) and isinstance(count, int) and count > 0
            if notation.startswith("*"):
                for color in Color:
                    expanded[Card.parse(color.letter + notation[1:]).id] += count
            else:
                expanded[Card.parse(notation).id] += count
        assert dict(expanded) == composition(deck)
    with pytest.raises(TypeError):
        COMPOSITIONS[DeckKind.CLASSIC108] = ()  # type: ignore[index]


def test_deck_ids_are_sorted_and_composition_is_a_fresh_dict() -> None:
    for deck in DeckKind:
        cards = deck_ids(deck)
        assert cards == sorted(cards)
        assert all(0 <= i < NUM_CARD_IDS for i in cards)
        comp = composition(deck)
        assert list(comp) == sorted(comp)
        assert all(n > 0 for n in comp.values())
        comp.clear()
        assert composition(deck)
    assert deck_ids("no_mercy168") == deck_ids(DeckKind.NO_MERCY168)
    with pytest.raises(RulesetError, match="'classic'"):
        deck_ids("classic")


def test_deck_sizes() -> None:
    # RULE: DECK-2, DECK-6, DECK-7
    assert [deck_size(k) for k in DeckKind] == [108, 112, 112, 112, 168]


def test_classic_points() -> None:
    # RULE: DECK-8
    for color in Color:
        for n in range(10):
            assert CLASSIC_POINTS[card_id(color, n)] == n
        for rank in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            assert CLASSIC_POINTS[card_id(color, rank)] == 20
    assert CLASSIC_POINTS[WILD] == CLASSIC_POINTS[WILD_DRAW_FOUR] == 50
    for special in (WILD_SWAP_HANDS, WILD_SHUFFLE_HANDS, WILD_CUSTOMIZABLE, BLANK):
        assert CLASSIC_POINTS[special] == 40
    assert len(CLASSIC_POINTS) == NUM_CARD_IDS
    assert sum(CLASSIC_POINTS[i] for i in deck_ids(DeckKind.CLASSIC108)) == 4 * (90 + 120) + 400
    assert hand_points([card_id(Color.RED, 7), WILD_DRAW_FOUR, WILD_SWAP_HANDS], no_mercy=False) == 97


def test_no_mercy_points() -> None:
    # RULE: DECK-9
    for color in Color:
        for n in range(10):
            assert NO_MERCY_POINTS[card_id(color, n)] == n
        for rank in range(10, 16):
            assert NO_MERCY_POINTS[card_id(color, rank)] == 20
    for i in range(64, 74):
        assert NO_MERCY_POINTS[i] == 50
    assert len(NO_MERCY_POINTS) == NUM_CARD_IDS
    hand = [Card.parse(t).id for t in ("B0", "G9", "RD4", "YSE", "BDA", "WCR", "W10")]
    assert hand_points(hand, no_mercy=True) == 0 + 9 + 20 * 3 + 50 * 2
    assert card_points(WILD_COLOR_ROULETTE, no_mercy=True) == 50


def test_card_points_checks_ids() -> None:
    # RULE: DECK-8, DECK-9
    assert card_points(WILD_SWAP_HANDS, no_mercy=False) == 40
    assert card_points(WILD_SWAP_HANDS, no_mercy=True) == 50
    assert hand_points([], no_mercy=False) == 0
    for bad in (-1, 74, True, "3"):
        with pytest.raises(NotationError):
            card_points(bad, no_mercy=False)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        hand_points([1, 2, -5], no_mercy=True)


@given(st.lists(st.integers(0, NUM_CARD_IDS - 1), max_size=30), st.booleans())
def test_hand_points_is_a_sum_of_card_points(ids: list[int], no_mercy: bool) -> None:
    # RULE: DECK-8, DECK-9
    table = NO_MERCY_POINTS if no_mercy else CLASSIC_POINTS
    total = sum(table[i] for i in ids)
    assert hand_points(ids, no_mercy) == total == sum(card_points(i, no_mercy) for i in ids)
    assert hand_points(iter(ids), no_mercy) == hand_points(ids, no_mercy)
