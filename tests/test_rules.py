"""Tests for unotable.rules: the options of RULES.md §1.4, GEN-1 validation and the presets of §12."""
from __future__ import annotations

import dataclasses
import json
from enum import Enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unotable.cards import WILD_CUSTOMIZABLE
from unotable.decks import CLASSIC_POINTS, NO_MERCY_POINTS, DeckKind, deck_ids
from unotable.errors import RulesetError, UnoError
from unotable.rules import (
    PRESET_NAMES,
    CustomEffect,
    DealerSelection,
    EliminationFinal,
    FirstCardWild,
    Ruleset,
    Scoring,
    ShuffleLastCard,
    Stacking,
    SwapLastCard,
    Wd4Rule,
    deck_default,
)

# §1.4, written out by hand: option -> (classic default, No Mercy default).
SPEC_DEFAULTS: dict[str, tuple[object, object]] = {
    "custom_effect": ("plain", "plain"),
    "max_seats": (10, 6),
    "dealer_selection": ("draw", "draw"),
    "first_card_wild": ("choose", "choose"),
    "first_card_swap_effect": (False, False),
    "may_draw_with_playable": (True, False),
    "draw_until_playable": (False, True),
    "force_play": (False, True),
    "wd4_rule": ("challenge", "challenge"),
    "uno_penalty": (2, 2),
    "false_catch_penalty": (0, 0),
    "false_uno_penalty": (0, 0),
    "uno_grace": (False, False),
    "swap_hands_last_card": ("win", "win"),
    "shuffle_hands_last_card": ("shuffle", "shuffle"),
    "scoring": ("standard", "standard"),
    "target_score": (500, 1000),
    "elimination_final": ("one_round", "one_round"),
    "partnership": (False, False),
    "stacking": ("none", "by_value"),
    "stack_sum": (True, True),
    "jump_in": (False, False),
    "seven_zero": (False, True),
    "bounce_draw_two": (False, False),
    "defend_wd4_with_draw_two": (False, False),
    "mercy_limit": (0, 25),
}
FIELD_ORDER = [
    "deck", "custom_count", "custom_effect", "max_seats", "dealer_selection", "first_card_wild",
    "first_card_swap_effect", "may_draw_with_playable", "draw_until_playable", "force_play", "wd4_rule",
    "uno_penalty", "false_catch_penalty", "false_uno_penalty", "uno_grace", "swap_hands_last_card",
    "shuffle_hands_last_card", "scoring", "target_score", "elimination_final", "partnership", "stacking",
    "stack_sum", "jump_in", "seven_zero", "bounce_draw_two", "defend_wd4_with_draw_two", "mercy_limit",
]  # fmt: skip
SPEC_ENUMS: dict[str, tuple[type[Enum], list[str]]] = {
    "deck": (
        DeckKind,
        ["classic108", "classic112_blank", "classic112_swap", "classic112_shuffle", "no_mercy168"],
    ),
    "custom_effect": (CustomEffect, ["plain", "others_draw_2", "others_discard_wilds", "extra_turn"]),
    "dealer_selection": (DealerSelection, ["draw", "seat0"]),
    "first_card_wild": (FirstCardWild, ["choose", "redraw"]),
    "wd4_rule": (Wd4Rule, ["challenge", "strict", "free"]),
    "swap_hands_last_card": (SwapLastCard, ["win", "swap"]),
    "shuffle_hands_last_card": (ShuffleLastCard, ["shuffle", "win"]),
    "scoring": (Scoring, ["standard", "low", "elimination", "none"]),
    "elimination_final": (EliminationFinal, ["one_round", "to_target"]),
    "stacking": (Stacking, ["none", "same_kind", "plus4_on_plus2", "by_value"]),
}
SPEC_INTS = {
    "max_seats": (2, 10),
    "uno_penalty": (0, 10),
    "false_catch_penalty": (0, 10),
    "false_uno_penalty": (0, 10),
    "target_score": (1, 100000),
}
SPEC_BOOLS = [name for name, (default, _) in SPEC_DEFAULTS.items() if isinstance(default, bool)]
FULL_CUSTOM = {"classic108": 0, "classic112_blank": 4, "classic112_swap": 3, "classic112_shuffle": 3}


def plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


# ---------------------------------------------------------------- enums and defaults


def test_enum_values_are_the_spec_strings() -> None:
    for cls, values in SPEC_ENUMS.values():
        assert [member.value for member in cls] == values
        for member in cls:
            assert isinstance(member, str)
            assert str(member) == member.value
            assert cls(member.value.upper()) is member


def test_others_skip_is_extra_turn() -> None:
    # RULE: CL-ACT-20
    assert CustomEffect("others_skip") is CustomEffect.EXTRA_TURN
    rules = Ruleset(deck="classic112_swap", custom_effect="others_skip")
    assert rules.custom_effect is CustomEffect.EXTRA_TURN


def test_field_order_and_names() -> None:
    assert [f.name for f in dataclasses.fields(Ruleset)] == FIELD_ORDER
    assert list(Ruleset().to_dict()) == FIELD_ORDER


@pytest.mark.parametrize("deck", list(DeckKind))
def test_defaults_follow_the_deck_column(deck: DeckKind) -> None:
    rules = Ruleset(deck=deck)
    column = 1 if deck is DeckKind.NO_MERCY168 else 0
    for name, defaults in SPEC_DEFAULTS.items():
        value = getattr(rules, name)
        assert value is not None
        assert plain(value) == defaults[column], name
        assert type(value) is type(deck_default(deck, name))
        assert deck_default(deck, name) == value
    assert rules.custom_count == FULL_CUSTOM.get(deck.value, 0)
    assert rules.deck is deck
    assert Ruleset(deck=deck.value) == rules
    assert Ruleset(deck=deck, **dict.fromkeys(SPEC_DEFAULTS)) == rules


def test_default_types_are_enums() -> None:
    rules = Ruleset()
    for name, (cls, _) in SPEC_ENUMS.items():
        assert type(getattr(rules, name)) is cls
    for name in SPEC_BOOLS:
        assert type(getattr(rules, name)) is bool
    for name in [*SPEC_INTS, "custom_count", "mercy_limit"]:
        assert type(getattr(rules, name)) is int


def test_strings_become_enums() -> None:
    rules = Ruleset(deck="No_Mercy168", stacking="SAME_KIND", scoring=" none ", dealer_selection="seat0")
    assert rules.deck is DeckKind.NO_MERCY168
    assert rules.stacking is Stacking.SAME_KIND
    assert rules.scoring is Scoring.NONE
    assert rules.dealer_selection is DealerSelection.SEAT0


def test_unknown_option_name_for_defaults() -> None:
    with pytest.raises(RulesetError, match="'bogus'"):
        deck_default(DeckKind.CLASSIC108, "bogus")


def test_ruleset_is_frozen_and_hashable() -> None:
    rules = Ruleset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.jump_in = True  # type: ignore[misc]
    assert hash(rules) == hash(Ruleset(deck="classic108"))
    assert len({Ruleset(), Ruleset.preset("official"), Ruleset.preset("house")}) == 2


# ---------------------------------------------------------------- GEN-1


GEN1_REJECTIONS: list[tuple[dict[str, Any], str, str]] = [
    # (options, option named in the message, value named in the message)
    ({"deck": "classic"}, "deck", "'classic'"),
    ({"deck": 108}, "deck", "108"),
    ({"custom_count": 1}, "custom_count", "1"),
    ({"deck": "classic112_blank", "custom_count": 5}, "custom_count", "5"),
    ({"deck": "classic112_swap", "custom_count": 4}, "custom_count", "4"),
    ({"deck": "classic112_shuffle", "custom_count": -1}, "custom_count", "-1"),
    ({"deck": "no_mercy168", "custom_count": 3}, "custom_count", "3"),
    ({"custom_effect": "others_jump"}, "custom_effect", "'others_jump'"),
    ({"max_seats": 1}, "max_seats", "1"),
    ({"max_seats": 11}, "max_seats", "11"),
    ({"max_seats": 4.0}, "max_seats", "4.0"),
    ({"max_seats": "4"}, "max_seats", "'4'"),
    ({"dealer_selection": "random"}, "dealer_selection", "'random'"),
    ({"first_card_wild": "bottom"}, "first_card_wild", "'bottom'"),
    ({"first_card_swap_effect": 1}, "first_card_swap_effect", "1"),
    ({"may_draw_with_playable": "true"}, "may_draw_with_playable", "'true'"),
    ({"draw_until_playable": 0}, "draw_until_playable", "0"),
    ({"force_play": "no"}, "force_play", "'no'"),
    ({"wd4_rule": "lenient"}, "wd4_rule", "'lenient'"),
    ({"uno_penalty": 11}, "uno_penalty", "11"),
    ({"uno_penalty": -1}, "uno_penalty", "-1"),
    ({"uno_penalty": True}, "uno_penalty", "True"),
    ({"false_catch_penalty": 11}, "false_catch_penalty", "11"),
    ({"false_uno_penalty": -2}, "false_uno_penalty", "-2"),
    ({"swap_hands_last_card": "shuffle"}, "swap_hands_last_card", "'shuffle'"),
    ({"shuffle_hands_last_card": "swap"}, "shuffle_hands_last_card", "'swap'"),
    ({"scoring": "high"}, "scoring", "'high'"),
    ({"scoring": Stacking.NONE}, "scoring", "Stacking.NONE"),
    ({"target_score": 0}, "target_score", "0"),
    ({"target_score": 100001}, "target_score", "100001"),
    ({"elimination_final": "two_rounds"}, "elimination_final", "'two_rounds'"),
    ({"partnership": "yes"}, "partnership", "'yes'"),
    ({"stacking": "all"}, "stacking", "'all'"),
    ({"stack_sum": None, "jump_in": 1}, "jump_in", "1"),
    ({"stack_sum": 0}, "stack_sum", "0"),
    ({"seven_zero": "false"}, "seven_zero", "'false'"),
    ({"bounce_draw_two": []}, "bounce_draw_two", "[]"),
    ({"defend_wd4_with_draw_two": 1.0}, "defend_wd4_with_draw_two", "1.0"),
    ({"deck": "no_mercy168", "mercy_limit": 9}, "mercy_limit", "9"),
    ({"deck": "no_mercy168", "mercy_limit": 61}, "mercy_limit", "61"),
    ({"deck": "no_mercy168", "mercy_limit": 1}, "mercy_limit", "1"),
    ({"deck": "no_mercy168", "mercy_limit": False}, "mercy_limit", "False"),
    ({"mercy_limit": 25}, "mercy_limit", "25"),
    # forbidden combinations
    ({"deck": "no_mercy168", "partnership": True}, "partnership", "True"),
    ({"partnership": True, "scoring": "low"}, "partnership", "'low'"),
    ({"partnership": True, "scoring": "elimination"}, "partnership", "'elimination'"),
    ({"partnership": True, "scoring": "none"}, "partnership", "'none'"),
    ({"deck": "no_mercy168", "seven_zero": False}, "seven_zero", "False"),
    ({"deck": "no_mercy168", "scoring": "low"}, "scoring", "'low'"),
    ({"deck": "no_mercy168", "scoring": "elimination"}, "scoring", "'elimination'"),
    # ours: a partnership needs at least 4 seats (SET-1)
    ({"partnership": True, "max_seats": 3}, "partnership", "max_seats=3"),
]


@pytest.mark.parametrize(("options", "option", "shown"), GEN1_REJECTIONS)
def test_gen1_rejections(options: dict[str, Any], option: str, shown: str) -> None:
    # RULE: GEN-1
    with pytest.raises(RulesetError) as info:
        Ruleset(**options)
    message = str(info.value)
    assert f"{option}=" in message
    assert shown in message
    assert "allowed" in message or "needs" in message
    assert isinstance(info.value, UnoError) and isinstance(info.value, ValueError)


def test_gen1_messages_list_the_allowed_values() -> None:
    # RULE: GEN-1
    with pytest.raises(RulesetError, match=r"stacking='all' is not allowed; allowed values: none, same_kind"):
        Ruleset(stacking="all")
    with pytest.raises(RulesetError, match=r"allowed values: 2-10"):
        Ruleset(max_seats=0)
    with pytest.raises(RulesetError, match=r"with deck classic112_blank; allowed values: 0-4"):
        Ruleset(deck="classic112_blank", custom_count=9)
    with pytest.raises(RulesetError, match=r"allowed values: 0 \(rule off\) or 10-60"):
        Ruleset(deck="no_mercy168", mercy_limit=70)
    with pytest.raises(RulesetError, match=r"allowed values: True, False"):
        Ruleset(jump_in="on")  # type: ignore[arg-type]


def test_gen1_accepts_the_edges_of_every_range() -> None:
    # RULE: GEN-1
    for name, (low, high) in SPEC_INTS.items():
        for edge in (low, high):
            options: dict[str, Any] = {name: edge}
            assert getattr(Ruleset(**options), name) == edge
    for deck, full in FULL_CUSTOM.items():
        for count in range(full + 1):
            assert Ruleset(deck=deck, custom_count=count).custom_count == count
    assert Ruleset(deck="no_mercy168", custom_count=0).custom_count == 0
    for limit in (0, 10, 25, 60):
        assert Ruleset(deck="no_mercy168", mercy_limit=limit).mercy_limit == limit
    assert Ruleset(mercy_limit=0).mercy_limit == 0


def test_gen1_allowed_combinations() -> None:
    # RULE: GEN-1, NM-19, SCORE-9
    assert Ruleset(partnership=True, scoring="standard").partnership
    assert Ruleset(deck="no_mercy168", scoring="none").scoring is Scoring.NONE
    assert Ruleset(deck="no_mercy168", jump_in=True, stacking="same_kind").jump_in
    assert Ruleset(deck="no_mercy168", max_seats=10).max_seats == 10
    assert Ruleset(partnership=True, max_seats=4).seat_counts == (4,)
    # n/a options may be set with No Mercy; they have no effect.
    assert Ruleset(deck="no_mercy168", wd4_rule="strict").challenge_enabled is False
    final = Ruleset(scoring="elimination", elimination_final="to_target").elimination_final
    assert final is EliminationFinal.TO_TARGET


def test_seven_zero_is_fixed_in_no_mercy() -> None:
    # RULE: NM-13, GEN-1
    assert Ruleset(deck="no_mercy168").seven_zero is True
    assert Ruleset(deck="no_mercy168", seven_zero=True).seven_zero is True
    with pytest.raises(RulesetError, match="seven_zero"):
        Ruleset.preset("no-mercy").replace(seven_zero=False)


def test_mercy_limit() -> None:
    # RULE: NM-14
    assert Ruleset(deck="no_mercy168").mercy_limit == 25
    assert Ruleset(deck="no_mercy168", mercy_limit=0).mercy_limit == 0
    for deck in FULL_CUSTOM:
        assert Ruleset(deck=deck).mercy_limit == 0
        with pytest.raises(RulesetError, match="mercy_limit"):
            Ruleset(deck=deck, mercy_limit=25)


# ---------------------------------------------------------------- an independent oracle for GEN-1

JUNK: list[object] = ["", "bogus", "true", 3.5, -1, 0, 1, 100001, True, False, None, [], "NONE "]


def spec_accepts(options: dict[str, object]) -> bool:
    """GEN-1 and §1.4, read straight from the spec tables above."""
    deck = options.get("deck")
    deck = "classic108" if deck is None else deck
    deck = plain(deck)
    if not isinstance(deck, str) or deck.strip().lower() not in SPEC_ENUMS["deck"][1]:
        return False
    deck = deck.strip().lower()
    no_mercy = deck == "no_mercy168"
    resolved: dict[str, object] = {}
    for name, (classic, nm) in SPEC_DEFAULTS.items():
        value = options.get(name)
        if value is None:
            resolved[name] = nm if no_mercy else classic
            continue
        if name in SPEC_ENUMS:
            cls, allowed = SPEC_ENUMS[name]
            if isinstance(value, Enum):
                if not isinstance(value, cls):
                    return False
                value = value.value
            if not isinstance(value, str):
                return False
            key = value.strip().lower()
            key = "extra_turn" if (name == "custom_effect" and key == "others_skip") else key
            if key not in allowed:
                return False
            resolved[name] = key
        elif name in SPEC_INTS or name == "mercy_limit":
            if type(value) is not int:
                return False
            if name == "mercy_limit":
                ok = value == 0 or (no_mercy and 10 <= value <= 60)
            else:
                low, high = SPEC_INTS[name]
                ok = low <= value <= high
            if not ok:
                return False
            resolved[name] = value
        else:
            if type(value) is not bool:
                return False
            resolved[name] = value
    count = options.get("custom_count")
    if count is not None and (type(count) is not int or not 0 <= count <= FULL_CUSTOM.get(deck, 0)):
        return False
    if resolved["partnership"] and (no_mercy or resolved["scoring"] != "standard"):
        return False
    if resolved["partnership"] and resolved["max_seats"] < 4:  # type: ignore[operator]
        return False
    no_mercy_forbidden = resolved["seven_zero"] is False or resolved["scoring"] in ("low", "elimination")
    return not (no_mercy and no_mercy_forbidden)


def option_values(name: str, junk_too: bool = True) -> st.SearchStrategy[object]:
    """Values for one option: its allowed values (as enums and as strings), some near misses, junk."""
    junk = st.sampled_from(JUNK) if junk_too else st.nothing()
    if name == "deck":
        cls, values = SPEC_ENUMS[name]
        return st.one_of(st.sampled_from(list(cls)), st.sampled_from(values), junk)
    if name in SPEC_ENUMS:
        cls, values = SPEC_ENUMS[name]
        others = st.sampled_from(list(Stacking) + list(Scoring)) if junk_too else st.nothing()
        return st.one_of(st.sampled_from(list(cls)), st.sampled_from(values), others, junk)
    if name in SPEC_INTS:
        low, high = SPEC_INTS[name]
        return st.one_of(st.integers(low - 2, high + 2) if junk_too else st.integers(low, high), junk)
    if name == "custom_count":
        return st.one_of(st.integers(-1, 5) if junk_too else st.integers(0, 4), junk)
    if name == "mercy_limit":
        return st.one_of(st.sampled_from([0, 9, 10, 25, 60, 61]), junk)
    return st.one_of(st.booleans(), junk)


options_strategy = st.one_of(
    st.fixed_dictionaries({}, optional={name: option_values(name) for name in FIELD_ORDER}),
    st.fixed_dictionaries({}, optional={name: option_values(name, junk_too=False) for name in FIELD_ORDER}),
)


@settings(max_examples=400)
@given(options_strategy)
def test_random_options_validate_or_raise_ruleset_error(options: dict[str, Any]) -> None:
    # RULE: GEN-1
    try:
        rules = Ruleset(**options)
    except RulesetError:
        assert not spec_accepts(options), options
        return
    assert spec_accepts(options), options
    for name in FIELD_ORDER:
        assert getattr(rules, name) is not None
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert Ruleset.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert eval(repr(rules)) == rules
    assert rules.replace() == rules
    assert dataclasses.replace(rules) == rules


@settings(max_examples=200)
@given(st.sampled_from(PRESET_NAMES), st.sampled_from(FIELD_ORDER[1:]), st.data())
def test_replace_revalidates(name: str, option: str, data: st.DataObject) -> None:
    # RULE: GEN-1, PRESET-9
    base = Ruleset.preset(name)
    value = data.draw(option_values(option))
    merged: dict[str, Any] = {**base.to_dict(), option: value}
    try:
        changed = base.replace(**{option: value})
    except RulesetError:
        assert not spec_accepts(merged)
    else:
        assert spec_accepts(merged)
        assert changed == Ruleset(**merged)


# ---------------------------------------------------------------- replace, to_dict, from_dict, describe


def test_replace() -> None:
    # RULE: GEN-1
    official = Ruleset.preset("official")
    house = official.replace(
        stacking=Stacking.SAME_KIND, seven_zero=True, jump_in=True, draw_until_playable=True
    )
    assert house == Ruleset.preset("house")
    assert official == Ruleset()  # unchanged
    with pytest.raises(RulesetError, match="'stackng'"):
        official.replace(stackng="same_kind")
    with pytest.raises(RulesetError, match="max_seats=12"):
        official.replace(max_seats=12)
    with pytest.raises(RulesetError, match="partnership"):
        Ruleset.preset("partners").replace(scoring="low")
    with pytest.raises(RulesetError, match="partnership"):
        Ruleset.preset("partners").replace(deck="no_mercy168")
    assert official.replace(stacking=None) == official
    assert house.replace(stacking=None).stacking is Stacking.NONE


def test_replace_deck_follows_the_new_defaults() -> None:
    nm = Ruleset().replace(deck=DeckKind.NO_MERCY168)
    assert nm == Ruleset.preset("no-mercy")
    assert nm.replace(deck="classic108") == Ruleset()
    assert Ruleset(deck="classic112_blank").replace(deck="classic112_swap").custom_count == 3
    assert Ruleset(deck="classic112_swap").replace(deck="classic108").custom_count == 0
    # Options set away from the old default are kept.
    jumpy = Ruleset(jump_in=True, uno_penalty=4, max_seats=8).replace(deck="no_mercy168")
    assert (jumpy.jump_in, jumpy.uno_penalty, jumpy.max_seats) == (True, 4, 8)
    assert jumpy.stacking is Stacking.BY_VALUE
    # Explicit changes win.
    assert Ruleset().replace(deck="no_mercy168", stacking="none").stacking is Stacking.NONE
    # A kept value that the new deck forbids is rejected, never silently changed.
    with pytest.raises(RulesetError, match="mercy_limit=30"):
        Ruleset(deck="no_mercy168", mercy_limit=30).replace(deck="classic108")


def test_to_dict_and_from_dict() -> None:
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        data = rules.to_dict()
        assert list(data) == FIELD_ORDER
        assert all(type(v) in (str, int, bool) for v in data.values())
        assert json.loads(json.dumps(data)) == data
        assert Ruleset.from_dict(data) == rules
    assert Ruleset.from_dict({}) == Ruleset()
    partial = Ruleset.from_dict({"deck": "no_mercy168", "jump_in": True})
    assert partial == Ruleset(deck="no_mercy168", jump_in=True)
    with pytest.raises(RulesetError, match="'colour'"):
        Ruleset.from_dict({"deck": "classic108", "colour": "red"})
    with pytest.raises(RulesetError):
        Ruleset.from_dict(["deck"])  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="target_score"):
        Ruleset.from_dict({"target_score": "500"})


def test_describe_and_repr() -> None:
    assert Ruleset().describe() == "classic108 (deck defaults)"
    assert Ruleset(deck="no_mercy168", mercy_limit=30).describe() == "no_mercy168 with mercy_limit=30"
    assert Ruleset.preset("two-player").describe() == "classic108 with max_seats=2"
    assert repr(Ruleset.preset("partners")) == "Ruleset(deck='classic108', partnership=True)"
    assert repr(Ruleset.preset("official-112-blank")) == "Ruleset(deck='classic112_blank')"
    for name in PRESET_NAMES:
        assert eval(repr(Ruleset.preset(name))) == Ruleset.preset(name)


# ---------------------------------------------------------------- properties and seats


def test_engine_properties() -> None:
    # RULE: CL-ACT-7, NM-17, SCORE-1
    classic, nm = Ruleset(), Ruleset.preset("no-mercy")
    assert (classic.is_no_mercy, nm.is_no_mercy) == (False, True)
    assert classic.challenge_enabled
    assert not Ruleset(wd4_rule="strict").challenge_enabled
    assert not Ruleset(wd4_rule="free").challenge_enabled
    assert not nm.challenge_enabled
    assert classic.points is CLASSIC_POINTS
    assert nm.points is NO_MERCY_POINTS
    assert len(classic.deck_ids()) == 108
    assert len(nm.deck_ids()) == 168
    swap = Ruleset(deck="classic112_swap", custom_count=1)
    assert swap.deck_ids() == deck_ids(DeckKind.CLASSIC112_SWAP, 1)
    assert swap.composition()[WILD_CUSTOMIZABLE] == 1


def test_validate_seats() -> None:
    # RULE: SET-1
    classic = Ruleset()
    for seats in range(2, 11):
        classic.validate_seats(seats)
    for bad in (0, 1, 11, True, 2.0, "4"):
        with pytest.raises(RulesetError):
            classic.validate_seats(bad)  # type: ignore[arg-type]
    nm = Ruleset.preset("no-mercy")
    assert nm.seat_counts == (2, 3, 4, 5, 6)
    with pytest.raises(RulesetError, match="7 seats"):
        nm.validate_seats(7)
    Ruleset(deck="no_mercy168", max_seats=10).validate_seats(10)
    assert classic.min_seats == 2


# ---------------------------------------------------------------- presets


def test_preset_names() -> None:
    assert PRESET_NAMES == (
        "official",
        "official-112-shuffle",
        "official-112-swap",
        "official-112-blank",
        "two-player",
        "partners",
        "house",
        "no-mercy",
    )


def test_preset_official() -> None:
    # RULE: PRESET-1
    rules = Ruleset.preset("official")
    assert rules == Ruleset(deck=DeckKind.CLASSIC108)
    assert rules.describe() == "classic108 (deck defaults)"
    assert (rules.stacking, rules.wd4_rule, rules.uno_penalty, rules.target_score) == (
        Stacking.NONE,
        Wd4Rule.CHALLENGE,
        2,
        500,
    )


@pytest.mark.parametrize(
    ("name", "deck", "count"),
    [
        # RULE: PRESET-2
        ("official-112-shuffle", DeckKind.CLASSIC112_SHUFFLE, 3),
        # RULE: PRESET-3
        ("official-112-swap", DeckKind.CLASSIC112_SWAP, 3),
        # RULE: PRESET-4
        ("official-112-blank", DeckKind.CLASSIC112_BLANK, 4),
    ],
)
def test_preset_112(name: str, deck: DeckKind, count: int) -> None:
    # RULE: PRESET-2, PRESET-3, PRESET-4
    rules = Ruleset.preset(name)
    assert rules == Ruleset(deck=deck, custom_count=count, custom_effect=CustomEffect.PLAIN)
    assert rules.deck is deck
    assert rules.custom_count == count
    assert rules.custom_effect is CustomEffect.PLAIN
    assert len(rules.deck_ids()) == 112


def test_preset_two_player() -> None:
    # RULE: PRESET-5
    rules = Ruleset.preset("two-player")
    assert rules == Ruleset(max_seats=2)
    rules.validate_seats(2)
    for seats in (1, 3, 4, 10):
        with pytest.raises(RulesetError):
            rules.validate_seats(seats)
    assert rules.seat_counts == (2,)


def test_preset_partners() -> None:
    # RULE: PRESET-6, SCORE-9, SET-1
    rules = Ruleset.preset("partners")
    assert rules == Ruleset(partnership=True)
    assert rules.target_score == 500
    assert rules.scoring is Scoring.STANDARD
    assert rules.seat_counts == (4, 6, 8, 10)
    assert rules.min_seats == 4
    for seats in (4, 6, 8, 10):
        rules.validate_seats(seats)
    for seats in (2, 3, 5, 7, 9, 11):
        with pytest.raises(RulesetError, match="4, 6, 8, 10"):
            rules.validate_seats(seats)
    assert rules.replace(max_seats=6).seat_counts == (4, 6)


def test_preset_house() -> None:
    # RULE: PRESET-7, HOUSE-12
    rules = Ruleset.preset("house")
    assert rules == Ruleset(
        deck="classic108",
        stacking=Stacking.SAME_KIND,
        seven_zero=True,
        jump_in=True,
        draw_until_playable=True,
    )
    assert rules.force_play is False
    assert rules.bounce_draw_two is False and rules.defend_wd4_with_draw_two is False


def test_preset_no_mercy() -> None:
    # RULE: PRESET-8
    rules = Ruleset.preset("no-mercy")
    assert rules == Ruleset(deck=DeckKind.NO_MERCY168)
    for name, (_, nm_default) in SPEC_DEFAULTS.items():
        assert plain(getattr(rules, name)) == nm_default
    assert rules.custom_count == 0


def test_presets_equal_hand_built_rulesets() -> None:
    # RULE: PRESET-9
    hand_built = {
        "official": Ruleset(),
        "official-112-shuffle": Ruleset(deck="classic112_shuffle"),
        "official-112-swap": Ruleset(deck="classic112_swap"),
        "official-112-blank": Ruleset(deck="classic112_blank"),
        "two-player": Ruleset(max_seats=2),
        "partners": Ruleset(partnership=True),
        "house": Ruleset(stacking="same_kind", seven_zero=True, jump_in=True, draw_until_playable=True),
        "no-mercy": Ruleset(deck="no_mercy168"),
    }
    assert set(hand_built) == set(PRESET_NAMES)
    for name, rules in hand_built.items():
        assert Ruleset.preset(name) == rules
        assert hash(Ruleset.preset(name)) == hash(rules)
        everything: dict[str, Any] = rules.to_dict()
        full = Ruleset(**everything)
        assert Ruleset.preset(name) == full
    assert Ruleset.preset("No_Mercy") == Ruleset.preset("no-mercy")


@pytest.mark.parametrize("name", ["", "classic", "official108", "no mercy", "nomercy", "house-rules"])
def test_unknown_preset(name: str) -> None:
    # RULE: PRESET-9
    with pytest.raises(RulesetError) as info:
        Ruleset.preset(name)
    message = str(info.value)
    assert repr(name) in message
    for known in PRESET_NAMES:
        assert known in message


def test_preset_rejects_non_text() -> None:
    # RULE: PRESET-9
    with pytest.raises(RulesetError):
        Ruleset.preset(None)  # type: ignore[arg-type]


def test_preset_overrides_follow_gen1() -> None:
    # RULE: PRESET-9, GEN-1
    assert Ruleset.preset("two-player").replace(jump_in=True).jump_in
    with pytest.raises(RulesetError):
        Ruleset.preset("two-player").replace(partnership=True)  # no table could be seated
    with pytest.raises(RulesetError):
        Ruleset.preset("no-mercy").replace(scoring="low")
