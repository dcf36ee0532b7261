"""Cards: colors, ranks, compact card ids and the card notation.

A card is a frozen :class:`Card` at the API edge and a small ``int`` (its *card id*) inside the
engine's state. Every card prints as a short notation that :meth:`Card.parse` reads back:

>>> card = Card.parse("yd2")
>>> card
Card.parse('YD2')
>>> str(card), card.color, card.rank.name, card.draw_value, card.id
('YD2', <Color.YELLOW: 1>, 'DRAW_TWO', 2, 28)
>>> Card.from_id(card.id) is card
True
>>> format_cards(sorted(parse_cards("W4, R7 GS")))
'R7 GS W4'

Notation (case-insensitive when parsed, surrounding whitespace ignored; printed in upper case):

| notation        | card                                   | kind                        |
|-----------------|----------------------------------------|-----------------------------|
| ``R0``..``B9``  | a number card: color letter + digit    | colored number              |
| ``GS``          | Skip                                   | colored action              |
| ``BR``          | Reverse                                | colored action              |
| ``YD2``         | Draw Two                               | colored draw card, value 2  |
| ``RD4``         | Draw Four (No Mercy)                   | colored draw card, value 4  |
| ``GSE``         | Skip Everyone (No Mercy)               | colored action              |
| ``BDA``         | Discard All (No Mercy)                 | colored action              |
| ``W``           | Wild                                   | wild                        |
| ``W4``          | Wild Draw Four                         | wild draw card, value 4     |
| ``WS``          | Wild Swap Hands                        | wild                        |
| ``WX``          | Wild Shuffle Hands                     | wild                        |
| ``WC``          | Wild Customizable                      | wild                        |
| ``WB``          | Blank                                  | wild                        |
| ``WR4``         | Wild Reverse Draw 4 (No Mercy)         | wild draw card, value 4     |
| ``W6``          | Wild Draw 6 (No Mercy)                 | wild draw card, value 6     |
| ``W10``         | Wild Draw 10 (No Mercy)                | wild draw card, value 10    |
| ``WCR``         | Wild Color Roulette (No Mercy)         | wild                        |

The color letters are ``R`` (red), ``Y`` (yellow), ``G`` (green) and ``B`` (blue) (docs/rules.md DECK-1).

Card ids, for hot loops: a colored card is ``color * 16 + rank`` (0..63) and a wild card is
``64 + rank - 16`` (64..73), so ``NUM_CARD_IDS == 74``. The tuples ``ID_COLOR`` (-1 for wilds),
``ID_RANK``, ``ID_IS_WILD``, ``ID_IS_NUMBER``, ``ID_DRAW_VALUE`` and ``ID_NOTATION`` are indexed by
card id. Every id names a card, though not every card is in every deck (see :mod:`unotable.decks`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from unotable.errors import InvalidActionError, NotationError

__all__ = [
    "BLANK",
    "ID_COLOR",
    "ID_DRAW_VALUE",
    "ID_IS_NUMBER",
    "ID_IS_WILD",
    "ID_NOTATION",
    "ID_RANK",
    "NUM_CARD_IDS",
    "NUM_COLORED_IDS",
    "WILD",
    "WILD_COLOR_ROULETTE",
    "WILD_CUSTOMIZABLE",
    "WILD_DRAW_FOUR",
    "WILD_DRAW_SIX",
    "WILD_DRAW_TEN",
    "WILD_REVERSE_DRAW_FOUR",
    "WILD_SHUFFLE_HANDS",
    "WILD_SWAP_HANDS",
    "Card",
    "Color",
    "Rank",
    "card_id",
    "format_cards",
    "parse_cards",
]

_COLOR_LETTERS = "RYGB"


class Color(IntEnum):
    """One of the four card colors (docs/rules.md DECK-1). ``str()`` gives the notation letter.

    >>> Color.parse("green"), str(Color.BLUE), Color.RED.letter
    (<Color.GREEN: 2>, 'B', 'R')
    """

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        """The one-letter notation: ``'R'``, ``'Y'``, ``'G'`` or ``'B'``."""
        return _COLOR_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read a color from its letter or its full name, in any case."""
        if isinstance(text, str):
            key = text.strip().upper()
            for color in cls:
                if key in (color.letter, color.name):
                    return color
        raise NotationError(
            f"{text!r} is not a color; expected one of R, Y, G, B or red, yellow, green, blue"
        )

    def __str__(self) -> str:
        return _COLOR_LETTERS[self]

    def __format__(self, format_spec: str) -> str:
        return format(_COLOR_LETTERS[self], format_spec)


class Rank(IntEnum):
    """What a card shows. Ranks 0..15 are colored (13..15 only in No Mercy); 16..25 are wild."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    SKIP = 10
    REVERSE = 11
    DRAW_TWO = 12
    DRAW_FOUR = 13
    SKIP_EVERYONE = 14
    DISCARD_ALL = 15
    WILD = 16
    WILD_DRAW_FOUR = 17
    WILD_SWAP_HANDS = 18
    WILD_SHUFFLE_HANDS = 19
    WILD_CUSTOMIZABLE = 20
    BLANK = 21
    WILD_REVERSE_DRAW_FOUR = 22
    WILD_DRAW_SIX = 23
    WILD_DRAW_TEN = 24
    WILD_COLOR_ROULETTE = 25

    @property
    def is_wild(self) -> bool:
        """True for the wild ranks (16..25), which have no color of their own."""
        return self >= _FIRST_WILD_RANK

    @property
    def is_number(self) -> bool:
        """True for 0..9."""
        return self <= 9

    @property
    def code(self) -> str:
        """The rank's part of the notation: ``'7'``, ``'S'``, ``'D2'``, ``'W4'``, ``'WCR'``..."""
        return _RANK_CODES[self]

    @property
    def label(self) -> str:
        """A human name: ``'7'``, ``'Skip'``, ``'Wild Draw Four'``..."""
        return _RANK_LABELS[self]


_FIRST_WILD_RANK = 16
_NUM_RANKS = 26
NUM_COLORED_IDS = 64
NUM_CARD_IDS = 74

_RANK_CODES: tuple[str, ...] = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "D4", "SE", "DA",
    "W", "W4", "WS", "WX", "WC", "WB", "WR4", "W6", "W10", "WCR",
)  # fmt: skip
_RANK_LABELS: tuple[str, ...] = (
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "Skip", "Reverse", "Draw Two", "Draw Four", "Skip Everyone", "Discard All",
    "Wild", "Wild Draw Four", "Wild Swap Hands", "Wild Shuffle Hands", "Wild Customizable", "Blank",
    "Wild Reverse Draw 4", "Wild Draw 6", "Wild Draw 10", "Wild Color Roulette",
)  # fmt: skip
_RANK_DRAW_VALUES: dict[int, int] = {
    Rank.DRAW_TWO: 2,
    Rank.DRAW_FOUR: 4,
    Rank.WILD_DRAW_FOUR: 4,
    Rank.WILD_REVERSE_DRAW_FOUR: 4,
    Rank.WILD_DRAW_SIX: 6,
    Rank.WILD_DRAW_TEN: 10,
}


def card_id(color: int, rank: int) -> int:
    """The compact id of a card: ``color * 16 + rank``, or ``64 + rank - 16`` for a wild (color -1).

    >>> card_id(Color.YELLOW, Rank.DRAW_TWO), card_id(-1, Rank.WILD_DRAW_FOUR)
    (28, 65)
    """
    if 0 <= rank < _FIRST_WILD_RANK:
        if 0 <= color < 4:
            return color * 16 + rank
    elif _FIRST_WILD_RANK <= rank < _NUM_RANKS and color == -1:
        return NUM_COLORED_IDS + rank - _FIRST_WILD_RANK
    raise InvalidActionError(
        f"no card has color {color!r} and rank {rank!r}: colored ranks 0-15 need a color 0-3, "
        f"wild ranks 16-25 need color -1"
    )


ID_COLOR: tuple[int, ...] = tuple(i // 16 if i < NUM_COLORED_IDS else -1 for i in range(NUM_CARD_IDS))
ID_RANK: tuple[int, ...] = tuple(
    i % 16 if i < NUM_COLORED_IDS else i - NUM_COLORED_IDS + _FIRST_WILD_RANK for i in range(NUM_CARD_IDS)
)
ID_IS_WILD: tuple[bool, ...] = tuple(i >= NUM_COLORED_IDS for i in range(NUM_CARD_IDS))
ID_IS_NUMBER: tuple[bool, ...] = tuple(ID_RANK[i] <= 9 for i in range(NUM_CARD_IDS))
ID_DRAW_VALUE: tuple[int, ...] = tuple(_RANK_DRAW_VALUES.get(ID_RANK[i], 0) for i in range(NUM_CARD_IDS))
ID_NOTATION: tuple[str, ...] = tuple(
    ("" if ID_COLOR[i] < 0 else _COLOR_LETTERS[ID_COLOR[i]]) + _RANK_CODES[ID_RANK[i]]
    for i in range(NUM_CARD_IDS)
)

WILD = card_id(-1, Rank.WILD)
WILD_DRAW_FOUR = card_id(-1, Rank.WILD_DRAW_FOUR)
WILD_SWAP_HANDS = card_id(-1, Rank.WILD_SWAP_HANDS)
WILD_SHUFFLE_HANDS = card_id(-1, Rank.WILD_SHUFFLE_HANDS)
WILD_CUSTOMIZABLE = card_id(-1, Rank.WILD_CUSTOMIZABLE)
BLANK = card_id(-1, Rank.BLANK)
WILD_REVERSE_DRAW_FOUR = card_id(-1, Rank.WILD_REVERSE_DRAW_FOUR)
WILD_DRAW_SIX = card_id(-1, Rank.WILD_DRAW_SIX)
WILD_DRAW_TEN = card_id(-1, Rank.WILD_DRAW_TEN)
WILD_COLOR_ROULETTE = card_id(-1, Rank.WILD_COLOR_ROULETTE)

_FORMS = (
    "a color letter R, Y, G or B followed by 0-9, S, R, D2, D4, SE or DA (as in R7, GS, YD2), "
    "or a wild: W, W4, WS, WX, WC, WB, WR4, W6, W10, WCR"
)


@dataclass(frozen=True, slots=True, repr=False)
class Card:
    """A physical card: a rank, and a color unless the rank is wild.

    Build cards with :meth:`parse` or :meth:`from_id`, which return shared instances; the
    constructor checks that the color fits the rank:

    >>> Card(Rank.SEVEN, Color.RED) == Card.parse("R7")
    True
    >>> Card(Rank.WILD, Color.RED)
    Traceback (most recent call last):
    ...
    unotable.errors.InvalidActionError: Wild is a wild card and takes no color, got R
    """

    rank: Rank
    color: Color | None = None

    def __post_init__(self) -> None:
        rank: object = self.rank
        color: object = self.color
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < _NUM_RANKS:
            raise InvalidActionError(f"{rank!r} is not a card rank (0-25)")
        real_color: Color | None = None
        if color is not None:
            if isinstance(color, bool) or not isinstance(color, int) or not 0 <= color < 4:
                raise InvalidActionError(f"{color!r} is not a card color (0-3 or None)")
            real_color = Color(color)
        real_rank = Rank(rank)
        if real_rank.is_wild and real_color is not None:
            raise InvalidActionError(f"{real_rank.label} is a wild card and takes no color, got {real_color}")
        if not real_rank.is_wild and real_color is None:
            raise InvalidActionError(f"a {real_rank.label} card needs a color (R, Y, G or B)")
        object.__setattr__(self, "rank", real_rank)
        object.__setattr__(self, "color", real_color)

    @property
    def id(self) -> int:
        """The compact card id (0..73)."""
        color = self.color
        if color is None:
            return NUM_COLORED_IDS + self.rank - _FIRST_WILD_RANK
        return color * 16 + self.rank

    @property
    def is_wild(self) -> bool:
        """True for a wild card (no color of its own)."""
        return self.color is None

    @property
    def is_number(self) -> bool:
        """True for a number card 0..9."""
        return self.rank <= 9

    @property
    def draw_value(self) -> int:
        """The number of cards this draw card makes a seat draw (2, 4, 6 or 10), or 0."""
        return _RANK_DRAW_VALUES.get(self.rank, 0)

    @property
    def is_draw_card(self) -> bool:
        """True for a draw card: Draw Two, Draw Four, WD4, WRD4, Wild Draw 6 and Wild Draw 10."""
        return self.rank in _RANK_DRAW_VALUES

    @property
    def label(self) -> str:
        """A human name, such as ``'yellow Draw Two'`` or ``'Wild Draw Four'``."""
        if self.color is None:
            return self.rank.label
        return f"{self.color.name.lower()} {self.rank.label}"

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The shared :class:`Card` of a card id (0..73)."""
        if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < NUM_CARD_IDS:
            raise NotationError(f"{card_id!r} is not a card id (0-{NUM_CARD_IDS - 1})")
        return _BY_ID[card_id]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card's notation (case-insensitive), returning the shared instance."""
        if isinstance(text, str):
            card = _BY_NOTATION.get(text.strip().upper())
            if card is not None:
                return card
        raise NotationError(f"{text!r} is not a card; expected {_FORMS}")

    def __str__(self) -> str:
        return ID_NOTATION[self.id]

    def __repr__(self) -> str:
        return f"Card.parse({ID_NOTATION[self.id]!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.id < other.id

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.id <= other.id

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.id > other.id

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.id >= other.id

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_id, (self.id,))


_BY_ID: tuple[Card, ...] = tuple(
    Card(Rank(ID_RANK[i]), None if ID_COLOR[i] < 0 else Color(ID_COLOR[i])) for i in range(NUM_CARD_IDS)
)
_BY_NOTATION: dict[str, Card] = {ID_NOTATION[i]: _BY_ID[i] for i in range(NUM_CARD_IDS)}
_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by whitespace and/or commas.

    >>> parse_cards(" r7, gs  W4 ")
    [Card.parse('R7'), Card.parse('GS'), Card.parse('W4')]
    >>> parse_cards("")
    []
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a list of cards; expected text such as 'R7 GS W4'")
    return [Card.parse(part) for part in _SEPARATORS.split(text) if part]


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards space-separated, in the order given: the inverse of :func:`parse_cards`."""
    return " ".join(str(card) for card in cards)
