"""Rulesets: every option of docs/rules.md §1.4, validated on construction (GEN-1), and the presets (§12).

A :class:`Ruleset` is a frozen value. An option left out (or given as ``None``) takes the deck's
default from §1.4, strings are read as the matching enum values, and a forbidden value or
combination raises :class:`~unotable.errors.RulesetError`:

>>> rules = Ruleset.preset("official").replace(stacking=Stacking.SAME_KIND)
>>> rules
Ruleset(deck='classic108', stacking='same_kind')
>>> rules.max_seats, rules.wd4_rule, rules.challenge_enabled
(10, <Wd4Rule.CHALLENGE: 'challenge'>, True)
>>> Ruleset(deck="no_mercy168").stacking is Stacking.BY_VALUE
True
>>> Ruleset(deck="no_mercy168", seven_zero=False)
Traceback (most recent call last):
...
unotable.errors.RulesetError: seven_zero=False is not allowed with deck no_mercy168; allowed values: True
>>> Ruleset.preset("house") == Ruleset(stacking="same_kind", seven_zero=True, jump_in=True,
...                                    draw_until_playable=True)
True

Options that do not apply to a deck ("n/a" in §1.4) keep their classic defaults and may be set;
they have no effect. ``custom_count`` is 0 for ``classic108`` and ``no_mercy168``, and
``mercy_limit`` is 0 (the rule off) for every classic deck. One combination is rejected beyond
GEN-1's list, because no table could be seated with it (SET-1): ``partnership`` with
``max_seats`` below 4.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Any, Self, TypeVar

from unotable.decks import CLASSIC_POINTS, NO_MERCY_POINTS, DeckKind, composition, deck_ids
from unotable.errors import RulesetError

__all__ = [
    "PRESET_NAMES",
    "CustomEffect",
    "DealerSelection",
    "DeckKind",
    "EliminationFinal",
    "FirstCardWild",
    "Ruleset",
    "Scoring",
    "ShuffleLastCard",
    "Stacking",
    "SwapLastCard",
    "Wd4Rule",
    "deck_default",
]


class _OptionEnum(StrEnum):
    """A ruleset option's closed set of string values; parsing ignores case and surrounding spaces."""

    @classmethod
    def _missing_(cls, value: object) -> Self | None:
        if isinstance(value, str):
            key = value.strip().lower()
            for member in cls:
                if member.value == key:
                    return member
        return None


class CustomEffect(_OptionEnum):
    """`custom_effect` (CL-ACT-17 to CL-ACT-20). ``CustomEffect("others_skip")`` is EXTRA_TURN."""

    PLAIN = "plain"
    OTHERS_DRAW_2 = "others_draw_2"
    OTHERS_DISCARD_WILDS = "others_discard_wilds"
    EXTRA_TURN = "extra_turn"

    @classmethod
    def _missing_(cls, value: object) -> Self | None:
        if isinstance(value, str) and value.strip().lower() == "others_skip":
            return cls("extra_turn")
        return super()._missing_(value)


class DealerSelection(_OptionEnum):
    """`dealer_selection` (SET-2)."""

    DRAW = "draw"
    SEAT0 = "seat0"


class FirstCardWild(_OptionEnum):
    """`first_card_wild` (SET-10, SET-11)."""

    CHOOSE = "choose"
    REDRAW = "redraw"


class Wd4Rule(_OptionEnum):
    """`wd4_rule` (CL-ACT-7)."""

    CHALLENGE = "challenge"
    STRICT = "strict"
    FREE = "free"


class SwapLastCard(_OptionEnum):
    """`swap_hands_last_card` (CL-END-5)."""

    WIN = "win"
    SWAP = "swap"


class ShuffleLastCard(_OptionEnum):
    """`shuffle_hands_last_card` (CL-END-6)."""

    SHUFFLE = "shuffle"
    WIN = "win"


class Scoring(_OptionEnum):
    """`scoring` (§7)."""

    STANDARD = "standard"
    LOW = "low"
    ELIMINATION = "elimination"
    NONE = "none"


class EliminationFinal(_OptionEnum):
    """`elimination_final` (SCORE-6)."""

    ONE_ROUND = "one_round"
    TO_TARGET = "to_target"


class Stacking(_OptionEnum):
    """`stacking` (HOUSE-1, NM-6)."""

    NONE = "none"
    SAME_KIND = "same_kind"
    PLUS4_ON_PLUS2 = "plus4_on_plus2"
    BY_VALUE = "by_value"


# ---------------------------------------------------------------- option tables (§1.4)

_ENUM_OPTIONS: Mapping[str, type[Enum]] = MappingProxyType(
    {
        "deck": DeckKind,
        "custom_effect": CustomEffect,
        "dealer_selection": DealerSelection,
        "first_card_wild": FirstCardWild,
        "wd4_rule": Wd4Rule,
        "swap_hands_last_card": SwapLastCard,
        "shuffle_hands_last_card": ShuffleLastCard,
        "scoring": Scoring,
        "elimination_final": EliminationFinal,
        "stacking": Stacking,
    }
)

# Plain int options: inclusive range. custom_count and mercy_limit depend on the deck.
_INT_RANGES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "max_seats": (2, 10),
        "uno_penalty": (0, 10),
        "false_catch_penalty": (0, 10),
        "false_uno_penalty": (0, 10),
        "target_score": (1, 100000),
    }
)

_CLASSIC_DEFAULTS: Mapping[str, object] = MappingProxyType(
    {
        "custom_effect": CustomEffect.PLAIN,
        "max_seats": 10,
        "dealer_selection": DealerSelection.DRAW,
        "first_card_wild": FirstCardWild.CHOOSE,
        "first_card_swap_effect": False,
        "may_draw_with_playable": True,
        "draw_until_playable": False,
        "force_play": False,
        "wd4_rule": Wd4Rule.CHALLENGE,
        "uno_penalty": 2,
        "false_catch_penalty": 0,
        "false_uno_penalty": 0,
        "uno_grace": False,
        "swap_hands_last_card": SwapLastCard.WIN,
        "shuffle_hands_last_card": ShuffleLastCard.SHUFFLE,
        "scoring": Scoring.STANDARD,
        "target_score": 500,
        "elimination_final": EliminationFinal.ONE_ROUND,
        "partnership": False,
        "stacking": Stacking.NONE,
        "stack_sum": True,
        "jump_in": False,
        "seven_zero": False,
        "bounce_draw_two": False,
        "defend_wd4_with_draw_two": False,
        "mercy_limit": 0,
    }
)

_NO_MERCY_DEFAULTS: Mapping[str, object] = MappingProxyType(
    {
        **_CLASSIC_DEFAULTS,
        "max_seats": 6,
        "may_draw_with_playable": False,
        "draw_until_playable": True,
        "force_play": True,
        "target_score": 1000,
        "stacking": Stacking.BY_VALUE,
        "seven_zero": True,
        "mercy_limit": 25,
    }
)

_MERCY_RANGE = (10, 60)
_E = TypeVar("_E", bound=Enum)


def _to_deck(value: object) -> DeckKind:
    if value is None:
        return DeckKind.CLASSIC108
    return _to_enum("deck", DeckKind, value)


def deck_default(deck: DeckKind | str, option: str) -> object:
    """The default of ``option`` for ``deck`` (§1.4: the classic or the No Mercy column).

    >>> deck_default("classic112_blank", "custom_count"), deck_default("no_mercy168", "target_score")
    (4, 1000)
    """
    kind = _to_deck(deck)
    if option == "deck":
        return kind
    if option == "custom_count":
        return kind.full_custom_count
    table = _NO_MERCY_DEFAULTS if kind.is_no_mercy else _CLASSIC_DEFAULTS
    if option not in table:
        raise RulesetError(f"unknown ruleset option {option!r}; known options: {', '.join(_FIELD_NAMES)}")
    return table[option]


def _reject(option: str, value: object, allowed: str, deck: DeckKind | None = None) -> RulesetError:
    shown = repr(value.value) if isinstance(value, Enum) else repr(value)
    where = f" with deck {deck.value}" if deck is not None else ""
    return RulesetError(f"{option}={shown} is not allowed{where}; allowed values: {allowed}")


def _to_enum(option: str, cls: type[_E], value: object) -> _E:
    if isinstance(value, cls):
        return value
    if isinstance(value, str) and not isinstance(value, Enum):
        try:
            return cls(value)
        except ValueError:
            pass
    allowed = ", ".join(str(member.value) for member in cls)
    if cls is CustomEffect:
        allowed += " (alias others_skip)"
    if isinstance(value, Enum):  # a member of another option's enum
        raise RulesetError(
            f"{option}={type(value).__name__}.{value.name} is not allowed; allowed values: {allowed}"
        )
    raise _reject(option, value, allowed)


def _to_bool(option: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise _reject(option, value, "True, False")


def _to_int(option: str, value: object, low: int, high: int, deck: DeckKind | None = None) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise _reject(option, value, str(low) if low == high else f"{low}-{high}", deck)


def _coerce(option: str, value: object, deck: DeckKind) -> object:
    """One option's value, checked against its allowed set (GEN-1) and converted to its type."""
    if option in _ENUM_OPTIONS:
        return _to_enum(option, _ENUM_OPTIONS[option], value)
    if option in _INT_RANGES:
        low, high = _INT_RANGES[option]
        return _to_int(option, value, low, high)
    if option == "custom_count":
        return _to_int(option, value, 0, deck.full_custom_count, deck)
    if option == "mercy_limit":
        if not deck.is_no_mercy:
            return _to_int(option, value, 0, 0, deck)
        low, high = _MERCY_RANGE
        if isinstance(value, int) and not isinstance(value, bool) and (value == 0 or low <= value <= high):
            return value
        raise _reject(option, value, f"0 (rule off) or {low}-{high}", deck)
    return _to_bool(option, value)


# ---------------------------------------------------------------- the Ruleset


@dataclass(frozen=True, init=False, repr=False)
class Ruleset:
    """Every option of docs/rules.md §1.4, resolved and validated (GEN-1). Fields are never ``None``.

    Build one by hand (each option a keyword; ``None`` or a missing option means the deck's
    default; enum options also accept their string values), with :meth:`preset`, or with
    :meth:`from_dict`. Change one with :meth:`replace`, which validates again.
    """

    deck: DeckKind
    custom_count: int
    custom_effect: CustomEffect
    max_seats: int
    dealer_selection: DealerSelection
    first_card_wild: FirstCardWild
    first_card_swap_effect: bool
    may_draw_with_playable: bool
    draw_until_playable: bool
    force_play: bool
    wd4_rule: Wd4Rule
    uno_penalty: int
    false_catch_penalty: int
    false_uno_penalty: int
    uno_grace: bool
    swap_hands_last_card: SwapLastCard
    shuffle_hands_last_card: ShuffleLastCard
    scoring: Scoring
    target_score: int
    elimination_final: EliminationFinal
    partnership: bool
    stacking: Stacking
    stack_sum: bool
    jump_in: bool
    seven_zero: bool
    bounce_draw_two: bool
    defend_wd4_with_draw_two: bool
    mercy_limit: int

    def __init__(
        self,
        deck: DeckKind | str = DeckKind.CLASSIC108,
        custom_count: int | None = None,
        custom_effect: CustomEffect | str | None = None,
        max_seats: int | None = None,
        dealer_selection: DealerSelection | str | None = None,
        first_card_wild: FirstCardWild | str | None = None,
        first_card_swap_effect: bool | None = None,
        may_draw_with_playable: bool | None = None,
        draw_until_playable: bool | None = None,
        force_play: bool | None = None,
        wd4_rule: Wd4Rule | str | None = None,
        uno_penalty: int | None = None,
        false_catch_penalty: int | None = None,
        false_uno_penalty: int | None = None,
        uno_grace: bool | None = None,
        swap_hands_last_card: SwapLastCard | str | None = None,
        shuffle_hands_last_card: ShuffleLastCard | str | None = None,
        scoring: Scoring | str | None = None,
        target_score: int | None = None,
        elimination_final: EliminationFinal | str | None = None,
        partnership: bool | None = None,
        stacking: Stacking | str | None = None,
        stack_sum: bool | None = None,
        jump_in: bool | None = None,
        seven_zero: bool | None = None,
        bounce_draw_two: bool | None = None,
        defend_wd4_with_draw_two: bool | None = None,
        mercy_limit: int | None = None,
    ) -> None:
        # The parameters, by name (read before any other local variable exists).
        given: dict[str, object] = {name: value for name, value in locals().items() if name in _FIELD_SET}
        kind = _to_deck(given["deck"])
        for name in _FIELD_NAMES:
            value = given[name]
            if name == "deck":
                value = kind
            elif value is None:
                value = deck_default(kind, name)
            else:
                value = _coerce(name, value, kind)
            object.__setattr__(self, name, value)
        self._check_combinations()

    def _check_combinations(self) -> None:
        """The combinations GEN-1 forbids (and one that could seat no table)."""
        deck = self.deck
        if self.partnership:
            if deck.is_no_mercy:
                raise _reject("partnership", True, "False", deck)
            if self.scoring is not Scoring.STANDARD:
                raise RulesetError(
                    f"partnership=True is not allowed with scoring={self.scoring.value!r}; "
                    f"partnership needs scoring 'standard'"
                )
            if self.max_seats < 4:
                raise RulesetError(
                    f"partnership=True is not allowed with max_seats={self.max_seats}; "
                    f"partnership needs 4, 6, 8 or 10 seats, so max_seats 4-10"
                )
        if deck.is_no_mercy:
            if not self.seven_zero:
                raise _reject("seven_zero", False, "True", deck)
            if self.scoring in (Scoring.LOW, Scoring.ELIMINATION):
                raise _reject("scoring", self.scoring, "standard, none", deck)

    # ------------------------------------------------------------ building

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """The named preset of docs/rules.md §12 (PRESET-1 to PRESET-8); see :data:`PRESET_NAMES`.

        Names ignore case, and ``_`` may stand for ``-``. An unknown name raises
        :class:`RulesetError` listing the known ones (PRESET-9).
        """
        key = name.strip().lower().replace("_", "-") if isinstance(name, str) else None
        options = _PRESETS.get(key) if key is not None else None
        if options is None:
            raise RulesetError(f"unknown preset {name!r}; known presets: {', '.join(PRESET_NAMES)}")
        return cls(**options)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Ruleset:
        """Build a Ruleset from :meth:`to_dict`'s output; missing options take the deck's defaults."""
        if not isinstance(data, Mapping):
            raise RulesetError(f"a ruleset must be a mapping of option names to values, not {data!r}")
        unknown = [key for key in data if key not in _FIELD_SET]
        if unknown:
            raise RulesetError(
                f"unknown ruleset option(s) {', '.join(repr(k) for k in unknown)}; "
                f"known options: {', '.join(_FIELD_NAMES)}"
            )
        options: dict[str, Any] = dict(data)
        return cls(**options)

    def replace(self, **changes: object) -> Ruleset:
        """A copy with some options changed, validated again.

        When ``deck`` changes, every option not named in ``changes`` that holds the old deck's
        default takes the new deck's default; options set away from their default are kept.

        >>> Ruleset.preset("official").replace(deck="no_mercy168") == Ruleset.preset("no-mercy")
        True
        """
        unknown = [key for key in changes if key not in _FIELD_SET]
        if unknown:
            raise RulesetError(
                f"unknown ruleset option(s) {', '.join(repr(k) for k in unknown)}; "
                f"known options: {', '.join(_FIELD_NAMES)}"
            )
        new_deck = _to_deck(changes.get("deck", self.deck))
        options: dict[str, Any] = {}
        for name in _FIELD_NAMES:
            current = getattr(self, name)
            if name in changes:
                options[name] = changes[name]
            elif name != "deck" and new_deck is not self.deck and current == deck_default(self.deck, name):
                options[name] = None
            else:
                options[name] = current
        return Ruleset(**options)

    # ------------------------------------------------------------ reading

    def to_dict(self) -> dict[str, object]:
        """Every option in §1.4 order, JSON-ready: enums as their strings, bools and ints as they are."""
        return {name: _plain(getattr(self, name)) for name in _FIELD_NAMES}

    def describe(self) -> str:
        """A short human summary: the deck and the options that differ from its defaults.

        >>> Ruleset.preset("house").describe()
        'classic108 with draw_until_playable=true, stacking=same_kind, jump_in=true, seven_zero=true'
        >>> Ruleset.preset("no-mercy").describe()
        'no_mercy168 (deck defaults)'
        """
        changed = [f"{name}={_text(value)}" for name, value in self._non_defaults().items()]
        if not changed:
            return f"{self.deck.value} (deck defaults)"
        return f"{self.deck.value} with {', '.join(changed)}"

    def _non_defaults(self) -> dict[str, object]:
        return {
            name: getattr(self, name)
            for name in _FIELD_NAMES
            if name != "deck" and getattr(self, name) != deck_default(self.deck, name)
        }

    @property
    def is_no_mercy(self) -> bool:
        """True with the No Mercy deck (§10)."""
        return self.deck.is_no_mercy

    @property
    def challenge_enabled(self) -> bool:
        """True when a WD4 may be challenged: a classic deck with ``wd4_rule = challenge`` (CL-ACT-7)."""
        return not self.deck.is_no_mercy and self.wd4_rule is Wd4Rule.CHALLENGE

    @property
    def points(self) -> tuple[int, ...]:
        """Card points by card id: DECK-9's table for No Mercy, else DECK-8's (SCORE-1)."""
        return NO_MERCY_POINTS if self.deck.is_no_mercy else CLASSIC_POINTS

    @property
    def min_seats(self) -> int:
        """The fewest seats a game may have: 4 with ``partnership``, else 2 (SET-1)."""
        return 4 if self.partnership else 2

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """Every seat count a game may have under this ruleset (SET-1, PRESET-5, PRESET-6)."""
        step = 2 if self.partnership else 1
        return tuple(range(self.min_seats, self.max_seats + 1, step))

    def validate_seats(self, seats: int) -> None:
        """Raise :class:`RulesetError` unless a game may have ``seats`` seats (SET-1).

        >>> Ruleset.preset("partners").validate_seats(5)
        Traceback (most recent call last):
        ...
        unotable.errors.RulesetError: 5 seats are not allowed with this ruleset; allowed: 4, 6, 8, 10
        """
        allowed = self.seat_counts
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in allowed:
            raise RulesetError(
                f"{seats!r} seats are not allowed with this ruleset; allowed: {', '.join(map(str, allowed))}"
            )

    def composition(self) -> dict[int, int]:
        """This ruleset's deck as ``{card id: copies}`` (DECK-2 to DECK-7, custom_count applied)."""
        return composition(self.deck, self.custom_count if self.deck.custom_card is not None else None)

    def deck_ids(self) -> list[int]:
        """Every physical card of this ruleset's deck, ascending (the canonical unshuffled order)."""
        return deck_ids(self.deck, self.custom_count if self.deck.custom_card is not None else None)

    def __repr__(self) -> str:
        parts = [f"deck={self.deck.value!r}"]
        parts += [f"{name}={_plain(value)!r}" for name, value in self._non_defaults().items()]
        return f"Ruleset({', '.join(parts)})"


_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Ruleset))
_FIELD_SET = frozenset(_FIELD_NAMES)


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(_plain(value))


_PRESETS: Mapping[str, dict[str, Any]] = MappingProxyType(
    {
        "official": {},  # PRESET-1
        "official-112-shuffle": {"deck": DeckKind.CLASSIC112_SHUFFLE},  # PRESET-2
        "official-112-swap": {"deck": DeckKind.CLASSIC112_SWAP},  # PRESET-3
        "official-112-blank": {"deck": DeckKind.CLASSIC112_BLANK},  # PRESET-4
        "two-player": {"max_seats": 2},  # PRESET-5
        "partners": {"partnership": True},  # PRESET-6
        "house": {  # PRESET-7
            "stacking": Stacking.SAME_KIND,
            "seven_zero": True,
            "jump_in": True,
            "draw_until_playable": True,
        },
        "no-mercy": {"deck": DeckKind.NO_MERCY168},  # PRESET-8
    }
)

PRESET_NAMES: tuple[str, ...] = tuple(_PRESETS)
"""The preset names of docs/rules.md §12, in its order."""
