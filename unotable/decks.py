"""Deck compositions and card point values (docs/rules.md §2, DECK-1 to DECK-9).

Compositions are data (DECK-7): :data:`COMPOSITIONS` maps each :class:`DeckKind` to rows of
``(notation, count)``. A notation that starts with ``*`` stands for the same card in each of the four
colors, ``count`` copies of each (``("*7", 2)`` is two R7, two Y7, two G7 and two B7); any other
notation is one card (:mod:`unotable.cards`), ``count`` copies in all.

>>> deck = deck_ids(DeckKind.CLASSIC112_SHUFFLE)
>>> len(deck), deck.count(WILD_SHUFFLE_HANDS), deck.count(WILD_CUSTOMIZABLE)
(112, 1, 3)
>>> len(deck_ids("classic112_shuffle", custom_count=1))
110
>>> composition(DeckKind.NO_MERCY168)[Card.parse("RD4").id]
2
>>> hand_points([Card.parse(c).id for c in ("R7", "W4", "WS")], no_mercy=False)
97
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType

from unotable.cards import (
    BLANK,
    ID_IS_NUMBER,
    ID_IS_WILD,
    ID_RANK,
    NUM_CARD_IDS,
    WILD_CUSTOMIZABLE,
    WILD_SHUFFLE_HANDS,
    WILD_SWAP_HANDS,
    Card,
    Color,
)
from unotable.errors import NotationError, RulesetError

__all__ = [
    "CLASSIC_POINTS",
    "COMPOSITIONS",
    "NO_MERCY_POINTS",
    "DeckKind",
    "DeckRow",
    "card_points",
    "composition",
    "deck_ids",
    "deck_size",
    "hand_points",
]


class DeckKind(StrEnum):
    """The five decks of docs/rules.md §2. Values are the spec's option strings; parsing ignores case.

    >>> DeckKind("No_Mercy168"), str(DeckKind.CLASSIC108), DeckKind.NO_MERCY168.is_no_mercy
    (<DeckKind.NO_MERCY168: 'no_mercy168'>, 'classic108', True)
    """

    CLASSIC108 = "classic108"
    CLASSIC112_BLANK = "classic112_blank"
    CLASSIC112_SWAP = "classic112_swap"
    CLASSIC112_SHUFFLE = "classic112_shuffle"
    NO_MERCY168 = "no_mercy168"

    @property
    def is_no_mercy(self) -> bool:
        """True for the UNO Show 'Em No Mercy deck."""
        return self is DeckKind.NO_MERCY168

    @property
    def custom_card(self) -> int | None:
        """The card id of this edition's Customizable (WC) or Blank (WB) card, if it has one (DECK-6)."""
        return _CUSTOM_CARD.get(self)

    @property
    def full_custom_count(self) -> int:
        """How many Customizable or Blank cards the full edition holds: 4, 3, or 0 (DECK-3 to DECK-5)."""
        card = _CUSTOM_CARD.get(self)
        return 0 if card is None else _FULL[self][card]

    @classmethod
    def _missing_(cls, value: object) -> DeckKind | None:
        if isinstance(value, str):
            key = value.strip().lower()
            for member in cls:
                if member.value == key:
                    return member
        return None

    def __str__(self) -> str:
        return str(self.value)


DeckRow = tuple[str, int]
"""One composition row: a card notation (``*`` = each color) and a count."""

_CLASSIC108_ROWS: tuple[DeckRow, ...] = (
    ("*0", 1),
    ("*1", 2),
    ("*2", 2),
    ("*3", 2),
    ("*4", 2),
    ("*5", 2),
    ("*6", 2),
    ("*7", 2),
    ("*8", 2),
    ("*9", 2),
    ("*S", 2),
    ("*R", 2),
    ("*D2", 2),
    ("W", 4),
    ("W4", 4),
)

COMPOSITIONS: Mapping[DeckKind, tuple[DeckRow, ...]] = MappingProxyType(
    {
        # DECK-2: per color one 0, two each of 1-9, Skip, Reverse, Draw Two; 4 Wild, 4 WD4.
        DeckKind.CLASSIC108: _CLASSIC108_ROWS,
        # DECK-3: the 108 plus 4 Blank cards.
        DeckKind.CLASSIC112_BLANK: (*_CLASSIC108_ROWS, ("WB", 4)),
        # DECK-4: the 108 plus 1 Wild Swap Hands and 3 Wild Customizable.
        DeckKind.CLASSIC112_SWAP: (*_CLASSIC108_ROWS, ("WS", 1), ("WC", 3)),
        # DECK-5: the 108 plus 1 Wild Shuffle Hands and 3 Wild Customizable.
        DeckKind.CLASSIC112_SHUFFLE: (*_CLASSIC108_ROWS, ("WX", 1), ("WC", 3)),
        # DECK-7: 168 cards, no plain Wild and no WD4.
        DeckKind.NO_MERCY168: (
            ("*0", 2),
            ("*1", 2),
            ("*2", 2),
            ("*3", 2),
            ("*4", 2),
            ("*5", 2),
            ("*6", 2),
            ("*7", 2),
            ("*8", 2),
            ("*9", 2),
            ("*D2", 3),
            ("*D4", 2),
            ("*S", 3),
            ("*SE", 2),
            ("*R", 3),
            ("*DA", 3),
            ("WR4", 8),
            ("W6", 4),
            ("W10", 4),
            ("WCR", 8),
        ),
    }
)
"""Every deck's cards as ``(notation, count)`` rows; ``*`` in a notation means each of the 4 colors."""

_CUSTOM_CARD: Mapping[DeckKind, int] = MappingProxyType(
    {
        DeckKind.CLASSIC112_BLANK: BLANK,
        DeckKind.CLASSIC112_SWAP: WILD_CUSTOMIZABLE,
        DeckKind.CLASSIC112_SHUFFLE: WILD_CUSTOMIZABLE,
    }
)


def _expand(rows: Iterable[DeckRow]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for notation, count in rows:
        if notation.startswith("*"):
            ids = [Card.parse(color.letter + notation[1:]).id for color in Color]
        else:
            ids = [Card.parse(notation).id]
        for i in ids:
            counts[i] = counts.get(i, 0) + count
    return {i: counts[i] for i in sorted(counts) if counts[i] > 0}


_FULL: Mapping[DeckKind, dict[int, int]] = MappingProxyType(
    {deck: _expand(rows) for deck, rows in COMPOSITIONS.items()}
)


def _deck_kind(deck: DeckKind | str) -> DeckKind:
    try:
        return DeckKind(deck)
    except ValueError:
        allowed = ", ".join(kind.value for kind in DeckKind)
        raise RulesetError(f"deck={deck!r} is not allowed; allowed values: {allowed}") from None


def composition(deck: DeckKind | str, custom_count: int | None = None) -> dict[int, int]:
    """The cards of a deck as ``{card id: copies}``, in ascending id order.

    ``custom_count`` keeps only that many of a 112-card edition's Customizable or Blank cards
    (DECK-6); ``None`` keeps them all. Decks without such cards accept only ``None`` or 0.
    """
    kind = _deck_kind(deck)
    counts = dict(_FULL[kind])
    full = kind.full_custom_count
    if custom_count is None:
        return counts
    if isinstance(custom_count, bool) or not isinstance(custom_count, int) or not 0 <= custom_count <= full:
        allowed = "0" if full == 0 else f"0-{full}"
        raise RulesetError(
            f"custom_count={custom_count!r} is not allowed with deck {kind.value}; allowed values: {allowed}"
        )
    card = kind.custom_card
    if card is not None:
        if custom_count:
            counts[card] = custom_count
        else:
            del counts[card]
    return counts


def deck_ids(deck: DeckKind | str, custom_count: int | None = None) -> list[int]:
    """Every physical card of a deck as a card id, ascending: the canonical unshuffled order."""
    return [i for i, copies in composition(deck, custom_count).items() for _ in range(copies)]


def deck_size(deck: DeckKind | str, custom_count: int | None = None) -> int:
    """How many cards the deck holds: 108, 108 + custom_count (+1 with Swap or Shuffle), or 168."""
    return sum(composition(deck, custom_count).values())


def _classic_points(i: int) -> int:
    if ID_IS_NUMBER[i]:
        return ID_RANK[i]
    if not ID_IS_WILD[i]:
        return 20
    if i in (WILD_SWAP_HANDS, WILD_SHUFFLE_HANDS, WILD_CUSTOMIZABLE, BLANK):
        return 40
    return 50


def _no_mercy_points(i: int) -> int:
    if ID_IS_NUMBER[i]:
        return ID_RANK[i]
    return 50 if ID_IS_WILD[i] else 20


CLASSIC_POINTS: tuple[int, ...] = tuple(_classic_points(i) for i in range(NUM_CARD_IDS))
"""DECK-8, by card id: numbers their number; colored actions 20; W and W4 50; WS, WX, WC, WB 40.
(No Mercy cards, which never appear in a classic deck, count as colored actions and plain wilds.)"""

NO_MERCY_POINTS: tuple[int, ...] = tuple(_no_mercy_points(i) for i in range(NUM_CARD_IDS))
"""DECK-9, by card id: numbers their number; colored actions 20; every wild 50."""


def card_points(card_id: int, no_mercy: bool) -> int:
    """The point value of one card (DECK-8, or DECK-9 when ``no_mercy``)."""
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < NUM_CARD_IDS:
        raise NotationError(f"{card_id!r} is not a card id (0-{NUM_CARD_IDS - 1})")
    return (NO_MERCY_POINTS if no_mercy else CLASSIC_POINTS)[card_id]


def hand_points(ids: Iterable[int], no_mercy: bool) -> int:
    """The total point value of the given card ids (DECK-8, or DECK-9 when ``no_mercy``)."""
    return sum(card_points(i, no_mercy) for i in ids)
