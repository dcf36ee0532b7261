"""Scenario tests for the UNO grace (docs/rules.md §6, UNO-GRACE-1 to UNO-GRACE-3, ``uno_grace``).

A seat handed a one-card hand by another seat's 7 or 0 (or a Swap Hands) cannot be caught until
the next turn action; a call before then makes it safe. Each test builds an exact position, plays
actions and checks the exact result: exposed and graced seats, legal catches, events.
"""
from __future__ import annotations

from typing import Any

import pytest

from unotable import Game, Ruleset, RulesetError
from unotable.events import Caught, Drew, DrewCards, Exposed, HandsPassed, HandsSwapped, NewHand, UnoCalled

from scenario import cards, legal, make, played, rejected

GRACE = Ruleset(seven_zero=True, uno_grace=True)
NO_GRACE = Ruleset(seven_zero=True)
FILLER = ["G5", "G6", "G7", "G8", "Y1", "Y3", "Y5", "Y7"]


def graced(game: Game) -> list[int]:
    return list(game.to_position().get("graced", []))


def seven_to_seat2(ruleset: Ruleset = GRACE, **extra: Any) -> Game:
    """Seat 0 plays R7 from R7 G1 and swaps with seat 2 (Y7 Y8 Y9): seat 2 is handed G1 alone,
    seat 0 takes three cards, and seat 1 (R1 B2 B3) is active."""
    g = make([["R7", "G1"], ["R1", "B2", "B3"], ["Y7", "Y8", "Y9"]], ["R3"], ruleset, draw=FILLER, **extra)
    ev = g.play("R7>2")
    assert ev == [played(0, "R7", target=2), HandsSwapped(0, 2), NewHand(0, cards("Y7 Y8 Y9")),
                  NewHand(2, cards("G1"))]  # no Exposed(2): seat 2 is graced
    return g


# ---------------------------------------------------------------------------------------------
# the option


@pytest.mark.rule("UNO-GRACE-1", "GEN-1", "PRESET-1")
def test_uno_grace_is_a_validated_option_off_in_every_preset() -> None:
    assert Ruleset().uno_grace is False
    assert all(Ruleset.preset(name).uno_grace is False for name in ("official", "house", "no-mercy"))
    assert Ruleset(uno_grace=True).to_dict()["uno_grace"] is True
    assert Ruleset.from_dict({"uno_grace": True}) == Ruleset(uno_grace=True)
    assert "uno_grace=true" in Ruleset(uno_grace=True).describe()
    with pytest.raises(RulesetError, match="uno_grace=1 is not allowed"):
        Ruleset(uno_grace=1)  # type: ignore[arg-type]
    with pytest.raises(RulesetError, match="uno_grace='yes'"):
        Ruleset.from_dict({"uno_grace": "yes"})


# ---------------------------------------------------------------------------------------------
# UNO-GRACE-1: handed one card, not catchable


@pytest.mark.rule("UNO-GRACE-1", "HOUSE-9", "HOUSE-11")
def test_a_seven_swap_graces_the_seat_handed_one_card() -> None:
    g = seven_to_seat2()
    assert g.exposed == () and graced(g) == [2]
    assert g.active_seat == 1
    assert "catch:2" not in legal(g, 1) and "catch:2" not in legal(g, 0)
    assert "uno" in legal(g, 2)  # it may call at once (CL-UNO-2)
    rejected(g, "catch:2", 1)  # CL-UNO-6: a seat that cannot be caught
    rejected(g, "catch:2", 0)


@pytest.mark.rule("UNO-GRACE-1", "HOUSE-9", "HOUSE-11", "CL-UNO-6")
def test_a_catch_of_a_graced_seat_costs_the_catcher_the_false_catch_penalty() -> None:
    g = seven_to_seat2(GRACE.replace(false_catch_penalty=2))
    ev = g.play("catch:2", 1)
    assert [type(e).__name__ for e in ev] == ["FalseCatch", "Drew", "DrewCards"]
    assert g.hand_sizes == (3, 5, 1) and graced(g) == [2] and g.exposed == ()


@pytest.mark.rule("UNO-GRACE-1", "HOUSE-11", "CL-UNO-1")
def test_without_the_option_the_seven_swap_exposes_at_once() -> None:
    g = make([["R7", "G1"], ["R1", "B2", "B3"], ["Y7", "Y8", "Y9"]], ["R3"], NO_GRACE, draw=FILLER)
    assert g.play("R7>2")[-1] == Exposed(2)
    assert g.exposed == (2,) and "catch:2" in legal(g, 1)


@pytest.mark.rule("UNO-GRACE-1", "HOUSE-10", "HOUSE-11")
def test_a_zero_pass_graces_the_seat_handed_one_card() -> None:
    # Seat 0 plays R0 from R0 G1: its G1 goes to seat 1, seat 2's hand to seat 0, seat 1's to seat 2.
    g = make([["R0", "G1"], ["R1", "B2", "B3"], ["Y7", "Y8", "Y9"]], ["R3"], GRACE, draw=FILLER)
    ev = g.play("R0")
    assert ev == [played(0, "R0"), HandsPassed(1), NewHand(0, cards("Y7 Y8 Y9")), NewHand(1, cards("G1")),
                  NewHand(2, cards("R1 B2 B3"))]
    assert g.exposed == () and graced(g) == [1] and g.active_seat == 1
    rejected(g, "catch:1", 2)
    rejected(g, "catch:1", 0)
    # Seat 1 is the next to act: its own turn action changes its hand, so it is never caught for G1.
    assert g.play("draw")[:1] == [Drew(1, 1, "draw")]
    assert graced(g) == [] and g.exposed == ()


@pytest.mark.rule("UNO-GRACE-1", "HOUSE-11", "CL-UNO-1")
def test_the_player_of_the_seven_is_exposed_at_once_by_its_own_play() -> None:
    # Seat 0 plays R7 from R7 G1 G2 to seat 2, which holds Y9 (called): seat 0 takes Y9 by its own
    # play, so it is exposed at once; seat 2 takes G1 G2.
    g = make([["R7", "G1", "G2"], ["R1", "B2", "B3"], ["Y9"]], ["R3"], GRACE, draw=FILLER, called=[2])
    assert g.play("R7>2")[-1] == Exposed(0)
    assert g.exposed == (0,) and graced(g) == []
    assert g.play("catch:0", 1) == [Caught(1, 0, 2), Drew(0, 2, "catch"), DrewCards(0, cards("G5 G6"))]


# ---------------------------------------------------------------------------------------------
# UNO-GRACE-2: the next turn action ends the grace


@pytest.mark.rule("UNO-GRACE-2", "CL-UNO-4", "CL-UNO-5")
def test_the_next_turn_action_ends_the_grace_and_opens_the_catch_window() -> None:
    g = seven_to_seat2()
    ev = g.play("R1")  # seat 1's turn action
    assert ev[-1] == Exposed(2)
    assert g.exposed == (2,) and graced(g) == [] and g.active_seat == 2
    assert "catch:2" in legal(g, 0) and "catch:2" in legal(g, 1)
    assert g.play("catch:2", 0) == [Caught(0, 2, 2), Drew(2, 2, "catch"), DrewCards(2, cards("G5 G6"))]
    assert g.hand(2) == cards("G1 G5 G6")


@pytest.mark.rule("UNO-GRACE-2", "CL-UNO-4")
def test_the_window_after_the_grace_closes_at_the_following_turn_action() -> None:
    g = seven_to_seat2(GRACE.replace(jump_in=False))
    g.play("R1")
    assert g.exposed == (2,)
    g.play("draw")  # seat 2's own turn action: it draws, its hand changes
    assert g.exposed == () and graced(g) == []


@pytest.mark.rule("UNO-GRACE-2", "CL-UNO-4", "CL-UNO-5")
def test_a_catch_is_no_turn_action_and_does_not_end_a_grace() -> None:
    # Seat 3 was handed B9 earlier (graced). Seat 0's 7 is a turn action: seat 3's grace ends, it is
    # exposed, and seat 2 is graced. Seat 1 catches seat 3: seat 2 stays graced.
    g = make([["R7", "G1"], ["R1", "B2", "B3"], ["Y7", "Y8", "Y9"], ["B9"]], ["R3"], GRACE, draw=FILLER,
             graced=[3])
    ev = g.play("R7>2")
    assert Exposed(3) in ev and Exposed(2) not in ev
    assert g.exposed == (3,) and graced(g) == [2]
    assert g.play("catch:3", 1) == [Caught(1, 3, 2), Drew(3, 2, "catch"), DrewCards(3, cards("G5 G6"))]
    assert g.exposed == () and graced(g) == [2]


# ---------------------------------------------------------------------------------------------
# UNO-GRACE-3: a call makes the seat safe


@pytest.mark.rule("UNO-GRACE-3", "CL-UNO-2")
def test_a_call_in_the_grace_makes_the_seat_safe() -> None:
    g = seven_to_seat2()
    assert g.play("uno", 2) == [UnoCalled(2)]
    assert graced(g) == [] and g.to_position()["called"] == [2]
    ev = g.play("R1")
    assert not any(isinstance(e, Exposed) for e in ev)
    assert g.exposed == () and "catch:2" not in legal(g, 0)
    rejected(g, "catch:2", 0)


@pytest.mark.rule("UNO-GRACE-3", "CL-UNO-7")
def test_a_new_hand_in_the_grace_is_judged_again() -> None:
    # Seat 2 is graced with G1; seat 1 then plays R0 and every hand moves on: seat 2 is handed
    # seat 1's two cards (no longer one), and seat 0 is handed G1 (graced, not its own play).
    g2 = make([["R7", "G1"], ["R0", "B2"], ["Y7", "Y8", "Y9"]], ["R3"], GRACE, draw=FILLER)
    g2.play("R7>2")
    assert graced(g2) == [2]
    ev = g2.play("R0")  # seat 1 plays R0 from R0 B2: B2 goes to seat 2, G1 to seat 0
    assert ev[-3:] == [NewHand(0, cards("G1")), NewHand(1, cards("Y7 Y8 Y9")), NewHand(2, cards("B2"))]
    assert graced(g2) == [0, 2] and g2.exposed == ()


@pytest.mark.rule("UNO-GRACE-1", "UNO-GRACE-2")
def test_a_position_keeps_the_grace() -> None:
    g = seven_to_seat2()
    pos = g.to_position()
    assert pos["graced"] == [2]
    again = Game.from_position(pos)
    assert again.to_position() == pos
    assert again.play("R1")[-1] == Exposed(2)
    with pytest.raises(Exception, match="uno_grace off"):
        Game.from_position({**pos, "ruleset": NO_GRACE.to_dict()})
    with pytest.raises(Exception, match="UNO-GRACE-1"):
        Game.from_position({**pos, "graced": [1]})

