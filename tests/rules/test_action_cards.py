"""Scenario tests for the classic action cards (RULES.md §5, CL-ACT-1 to CL-ACT-21).

Each test builds an exact position with ``Game.from_position``, plays actions and checks the exact
result: hands, top card, current color, active seat, phase, pending penalty and events.
"""
from __future__ import annotations

from typing import Any

import pytest

from unotable import (
    Color,
    CustomEffect,
    Game,
    InvalidActionError,
    NotYourTurnError,
    Phase,
    Ruleset,
)
from unotable.events import (
    Challenged,
    ChallengeReveal,
    DirectionChanged,
    Drew,
    DrewCards,
    Exposed,
    HandsShuffled,
    HandsSwapped,
    NewHand,
    PenaltyPending,
    RoundEnded,
    Skipped,
    Slipped,
)

from scenario import cards, hands, make, played, rejected

SWAP = Ruleset(deck="classic112_swap")
SHUFFLE = Ruleset(deck="classic112_shuffle")


# ---------------------------------------------------------------------------------------------
# CL-ACT-1 Skip


@pytest.mark.rule("CL-ACT-1")
def test_skip_makes_next_seat_lose_its_turn():
    g = make([["RS", "G1", "G2"], ["R2", "Y2"], ["R4", "B4"], ["R6", "Y6"]], ["R3"])
    ev = g.play("RS")
    assert ev == [played(0, "RS"), Skipped(1)]
    assert g.active_seat == 2
    assert g.phase is Phase.PLAY
    assert str(g.top_card) == "RS" and g.current_color is Color.RED
    assert hands(g) == ["G1 G2", "R2 Y2", "R4 B4", "R6 Y6"]
    assert g.direction == 1


@pytest.mark.rule("CL-ACT-1")
def test_skip_by_symbol_counter_clockwise_wraps_around():
    # A green Skip on a red Skip matches by symbol; direction -1 skips seat 3 and hands the turn to 2.
    g = make([["GS", "G1", "G2"], ["R2", "Y2"], ["R4", "B4"], ["R6", "Y6"]], ["RS"], direction=-1)
    ev = g.play("GS")
    assert ev == [played(0, "GS"), Skipped(3)]
    assert g.active_seat == 2
    assert g.current_color is Color.GREEN


@pytest.mark.rule("CL-ACT-1")
def test_skip_passes_over_seats_not_in_the_round():
    # next(0) is seat 2 when seat 1 is eliminated: seat 2 is skipped and seat 3 plays.
    g = make([["RS", "G1", "G2"], [], ["R4", "B4"], ["R6", "Y6"]], ["R3"],
             ruleset=Ruleset(scoring="elimination"), eliminated=[1])
    ev = g.play("RS")
    assert ev == [played(0, "RS"), Skipped(2)]
    assert g.active_seat == 3


@pytest.mark.rule("CL-ACT-1")
def test_skip_that_matches_nothing_is_rejected():
    g = make([["BS", "G1"], ["R2", "Y2"], ["R4", "B4"]], ["R3"])
    assert "BS" not in g.legal_actions
    rejected(g, "BS")


# ---------------------------------------------------------------------------------------------
# CL-ACT-2 Reverse


@pytest.mark.rule("CL-ACT-2")
def test_reverse_flips_direction_and_next_seat_in_new_direction_plays():
    g = make([["R2", "Y2", "Y3"], ["RR", "G1", "G2"], ["R4", "B4"], ["R6", "Y6"]], ["R3"], active=1)
    ev = g.play("RR")
    assert ev == [played(1, "RR"), DirectionChanged(-1)]
    assert g.direction == -1
    assert g.active_seat == 0
    assert g.phase is Phase.PLAY
    # the new direction holds: seat 0's play passes the turn to seat 3
    g.play("R2")
    assert g.active_seat == 3


@pytest.mark.rule("CL-ACT-2")
def test_reverse_back_to_clockwise_with_three_seats():
    g = make([["R2", "Y2"], ["R4", "B4"], ["GR", "G1", "G2"]], ["RR"], active=2, direction=-1)
    ev = g.play("GR")
    assert ev == [played(2, "GR"), DirectionChanged(1)]
    assert g.direction == 1
    assert g.active_seat == 0
    assert g.current_color is Color.GREEN
    assert hands(g) == ["R2 Y2", "R4 B4", "G1 G2"]


# ---------------------------------------------------------------------------------------------
# CL-ACT-3 Draw Two


@pytest.mark.rule("CL-ACT-3", "CL-ACT-8")
def test_draw_two_official_victim_draws_at_once_and_loses_its_turn():
    g = make([["RD2", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], draw=["G7", "Y9", "B0"])
    ev = g.play("RD2")
    assert ev == [
        played(0, "RD2"),
        PenaltyPending(1, 2),
        Drew(1, 2, "penalty"),
        DrewCards(1, cards("G7 Y9")),
    ]
    assert hands(g) == ["G1 G2", "B2 Y2 G7 Y9", "R4 B4"]
    assert g.active_seat == 2
    assert g.phase is Phase.PLAY
    assert g.pending_penalty == 0
    assert g.draw_pile_size == 1


@pytest.mark.rule("CL-ACT-3")
def test_draw_two_by_symbol_sets_pending_two_when_a_response_is_allowed():
    g = make([["GD2", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["RD2"],
             ruleset=Ruleset(stacking="same_kind"))
    ev = g.play("GD2")
    assert ev == [played(0, "GD2"), PenaltyPending(1, 2)]
    assert g.phase is Phase.RESPOND
    assert g.active_seat == 1
    assert g.pending_penalty == 2
    assert g.to_position()["pending"] == {"total": 2, "card": "GD2"}
    assert g.current_color is Color.GREEN


# ---------------------------------------------------------------------------------------------
# CL-ACT-4 Wild


@pytest.mark.rule("CL-ACT-4")
def test_wild_names_the_color_and_does_nothing_else():
    g = make([["W", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    ev = g.play("W:B")
    assert ev == [played(0, "W", Color.BLUE)]
    assert g.current_color is Color.BLUE
    assert str(g.top_card) == "W"
    assert g.active_seat == 1
    assert g.phase is Phase.PLAY
    assert hands(g) == ["G1 G2", "B2 Y2", "R4 B4"]


@pytest.mark.rule("CL-ACT-4")
def test_wild_may_name_the_current_color():
    g = make([["W", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    g.play("W:R")
    assert g.current_color is Color.RED
    assert g.active_seat == 1


@pytest.mark.rule("CL-ACT-4")
def test_wild_without_a_color_is_rejected():
    g = make([["W", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    rejected(g, "W", error=InvalidActionError)


# ---------------------------------------------------------------------------------------------
# CL-ACT-5 Wild Draw Four


@pytest.mark.rule("CL-ACT-5")
def test_wild_draw_four_sets_pending_four_against_next_seat():
    g = make([["W4", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    ev = g.play("W4:G")
    assert ev == [played(0, "W4", Color.GREEN), PenaltyPending(1, 4)]
    assert g.phase is Phase.RESPOND
    assert g.active_seat == 1
    assert g.pending_penalty == 4
    assert g.current_color is Color.GREEN
    assert str(g.top_card) == "W4"
    assert list(g.legal_actions) == list(g.legal_actions_for(1))
    assert "accept" in g.legal_actions and "challenge" in g.legal_actions


@pytest.mark.rule("CL-ACT-5")
def test_wild_draw_four_counter_clockwise_targets_previous_seat():
    g = make([["W4", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=Ruleset(wd4_rule="free"),
             direction=-1, draw=["Y1", "Y3", "Y5", "Y7"])
    ev = g.play("W4:Y")
    assert ev == [
        played(0, "W4", Color.YELLOW),
        PenaltyPending(2, 4),
        Drew(2, 4, "penalty"),
        DrewCards(2, cards("Y1 Y3 Y5 Y7")),
    ]
    assert g.active_seat == 1
    assert hands(g) == ["G1 G2", "B2 Y2", "R4 B4 Y1 Y3 Y5 Y7"]


@pytest.mark.rule("CL-ACT-5")
def test_wild_draw_four_needs_a_color():
    g = make([["W4", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    rejected(g, "W4", error=InvalidActionError)


# ---------------------------------------------------------------------------------------------
# CL-ACT-6 WD4 legality, recorded with the play


@pytest.mark.rule("CL-ACT-6")
def test_wd4_legal_when_only_wilds_and_number_matches_remain():
    # G3 matches R3 only by number and W is a wild: neither counts as red.
    g = make([["W4", "G3", "W", "B5"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    g.play("W4:B")
    assert g.to_position()["wd4"] == {"player": 0, "illegal": False, "hand": ["G3", "W", "B5"]}


@pytest.mark.rule("CL-ACT-6")
def test_wd4_illegal_when_holding_the_current_color():
    g = make([["W4", "R9", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    g.play("W4:B")
    assert g.to_position()["wd4"] == {"player": 0, "illegal": True, "hand": ["R9", "G1"]}


@pytest.mark.rule("CL-ACT-6")
def test_wd4_legality_uses_the_color_named_for_a_wild_top_card():
    illegal = make([["W4", "Y2"], ["B2", "Y2"], ["R4", "B4"]], ["W"], color="Y")
    illegal.play("W4:R")
    assert illegal.to_position()["wd4"]["illegal"] is True
    legal = make([["W4", "R2"], ["B2", "Y2"], ["R4", "B4"]], ["W"], color="Y")
    legal.play("W4:R")
    assert legal.to_position()["wd4"]["illegal"] is False


@pytest.mark.rule("CL-ACT-6")
def test_wd4_same_kind_symbol_match_does_not_count_as_the_color():
    # RS on top; a green Skip matches it by symbol only, so a WD4 is still legal.
    g = make([["W4", "GS"], ["B2", "Y2"], ["R4", "B4"]], ["RS"])
    g.play("W4:Y")
    assert g.to_position()["wd4"] == {"player": 0, "illegal": False, "hand": ["GS"]}


# ---------------------------------------------------------------------------------------------
# CL-ACT-7 wd4_rule


@pytest.mark.rule("CL-ACT-7")
def test_wd4_rule_challenge_illegal_wd4_playable_and_challengeable():
    g = make([["W4", "R9"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    assert "W4:G" in g.legal_actions
    g.play("W4:G")
    assert g.phase is Phase.RESPOND
    assert "challenge" in g.legal_actions


@pytest.mark.rule("CL-ACT-7")
def test_wd4_rule_strict_illegal_wd4_not_playable():
    g = make([["W4", "R9"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=Ruleset(wd4_rule="strict"))
    assert not any(str(a).startswith("W4") for a in g.legal_actions)
    rejected(g, "W4:G")


@pytest.mark.rule("CL-ACT-7")
def test_wd4_rule_strict_legal_wd4_draws_at_once_without_challenge():
    g = make([["W4", "G9", "G8"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=Ruleset(wd4_rule="strict"),
             draw=["Y1", "Y3", "Y5", "Y7"])
    ev = g.play("W4:G")
    assert ev[-2:] == [Drew(1, 4, "penalty"), DrewCards(1, cards("Y1 Y3 Y5 Y7"))]
    assert g.phase is Phase.PLAY
    assert g.active_seat == 2
    assert not any(isinstance(e, Challenged) for e in g.events)


@pytest.mark.rule("CL-ACT-7", "CL-ACT-10")
def test_wd4_rule_free_illegal_wd4_playable_and_no_challenge():
    g = make([["W4", "R9"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=Ruleset(wd4_rule="free"),
             draw=["Y1", "Y3", "Y5", "Y7"])
    g.play("W4:G")
    assert hands(g) == ["R9", "B2 Y2 Y1 Y3 Y5 Y7", "R4 B4"]
    assert g.phase is Phase.PLAY
    assert g.active_seat == 2
    rejected(g, "challenge", seat=1, error=NotYourTurnError)
    rejected(g, "challenge", seat=2)


# ---------------------------------------------------------------------------------------------
# CL-ACT-8 response phase


@pytest.mark.rule("CL-ACT-8")
def test_response_phase_is_asked_even_without_a_usable_card():
    g = make([["RD2", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=Ruleset(stacking="same_kind"))
    g.play("RD2")
    assert g.phase is Phase.RESPOND
    assert g.active_seat == 1
    assert [str(a) for a in g.legal_actions] == ["accept"]
    assert g.hand_sizes == (2, 2, 2)


@pytest.mark.rule("CL-ACT-8")
def test_response_phase_rejects_anything_but_accept_or_a_response():
    g = make([["G1", "G2"], ["R2", "RD2", "W"], ["R4", "B4"]], ["RD2"], ruleset=Ruleset(stacking="same_kind"),
             phase="respond", active=1, pending={"total": 2, "card": "RD2"}, top_player=0)
    assert sorted(str(a) for a in g.legal_actions) == ["RD2", "accept"]
    rejected(g, "draw")
    rejected(g, "R2")
    rejected(g, "W:R")
    rejected(g, "pass")
    rejected(g, "accept", seat=2, error=NotYourTurnError)


@pytest.mark.rule("CL-ACT-8")
def test_wd4_victim_is_asked_under_challenge_rule():
    g = make([["W4", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    g.play("W4:B")
    # B2 is blue but playing it is no response: only accept and challenge.
    assert [str(a) for a in g.legal_actions] == ["accept", "challenge"]


# ---------------------------------------------------------------------------------------------
# CL-ACT-9 accepting


@pytest.mark.rule("CL-ACT-9")
def test_accept_draws_the_whole_penalty_and_loses_the_turn():
    g = make([["G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["W4"], color="G", phase="respond", active=1,
             pending={"total": 4, "card": "W4"}, top_player=0,
             wd4={"player": 0, "illegal": False, "hand": ["G1", "G2"]}, draw=["Y1", "Y3", "Y5", "Y7", "B9"])
    ev = g.play("accept")
    assert ev == [Drew(1, 4, "penalty"), DrewCards(1, cards("Y1 Y3 Y5 Y7"))]
    assert hands(g) == ["G1 G2", "B2 Y2 Y1 Y3 Y5 Y7", "R4 B4"]
    assert g.active_seat == 2
    assert g.phase is Phase.PLAY
    assert g.pending_penalty == 0
    assert "pending" not in g.to_position()
    assert str(g.top_card) == "W4" and g.current_color is Color.GREEN


@pytest.mark.rule("CL-ACT-9")
def test_accept_a_stacked_total_counter_clockwise():
    g = make([["G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["RD2", "GD2"],
             ruleset=Ruleset(stacking="same_kind"), phase="respond", active=0, direction=-1,
             pending={"total": 4, "card": "GD2"}, top_player=1, draw=["Y1", "Y3", "Y5", "Y7"])
    g.play("accept")
    assert hands(g) == ["G1 G2 Y1 Y3 Y5 Y7", "B2 Y2", "R4 B4"]
    assert g.active_seat == 2
    assert g.phase is Phase.PLAY


@pytest.mark.rule("CL-ACT-9")
def test_accept_outside_a_response_phase_is_rejected():
    g = make([["G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    rejected(g, "accept")


# ---------------------------------------------------------------------------------------------
# CL-ACT-10 who may challenge


def _wd4_respond(hand0: list[str], illegal: bool, ruleset: Ruleset | str = "official", total: int = 4,
                 hand1: tuple[str, ...] = ("B2", "Y2"), **extra: Any) -> Game:
    """Seat 0 has just played W4 naming blue; seat 1 is the victim; seat 0's hand is ``hand0``."""
    fields: dict[str, Any] = dict(color="B", phase="respond", active=1,
                                  pending={"total": total, "card": "W4"}, top_player=0,
                                  wd4={"player": 0, "illegal": illegal, "hand": hand0},
                                  draw=["Y1", "Y3", "Y5", "Y7", "G5", "G6", "G7", "G8", "G9", "Y9"])
    fields.update(extra)
    return make([hand0, list(hand1), ["R4", "B4"]], ["R3", "W4"], ruleset=ruleset, **fields)


@pytest.mark.rule("CL-ACT-10")
def test_only_the_victim_may_challenge():
    g = _wd4_respond(["R9", "G1"], illegal=True)
    rejected(g, "challenge", seat=2, error=NotYourTurnError)
    rejected(g, "challenge", seat=0, error=NotYourTurnError)
    assert "challenge" in g.legal_actions_for(1)


@pytest.mark.rule("CL-ACT-10")
def test_no_challenge_against_a_draw_two():
    g = make([["G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["RD2"], ruleset=Ruleset(stacking="same_kind"),
             phase="respond", active=1, pending={"total": 2, "card": "RD2"}, top_player=0)
    rejected(g, "challenge")


@pytest.mark.rule("CL-ACT-10")
def test_no_challenge_once_the_victim_has_accepted():
    g = _wd4_respond(["R9", "G1"], illegal=True)
    g.play("accept")
    rejected(g, "challenge", seat=1, error=NotYourTurnError)
    rejected(g, "challenge", seat=2)


@pytest.mark.rule("CL-ACT-10")
def test_only_the_wd4_on_top_can_be_challenged():
    # HOUSE-14 defense: a Draw Two of the named color goes on the WD4; the next victim faces a
    # Draw Two, so the (illegal) WD4 underneath cannot be challenged any more.
    rules = Ruleset(defend_wd4_with_draw_two=True, stacking="same_kind")
    g = _wd4_respond(["R9", "G1"], illegal=True, ruleset=rules, hand1=("BD2", "Y2"))
    assert "challenge" in g.legal_actions
    g.play("BD2")
    assert g.phase is Phase.RESPOND and g.active_seat == 2
    assert str(g.top_card) == "BD2"
    rejected(g, "challenge")


@pytest.mark.rule("CL-ACT-10")
def test_no_challenge_under_strict():
    g = _wd4_respond(["G1"], illegal=False, ruleset=Ruleset(wd4_rule="strict"))
    rejected(g, "challenge")


# ---------------------------------------------------------------------------------------------
# CL-ACT-11 the reveal


@pytest.mark.rule("CL-ACT-11")
def test_challenge_reveal_goes_to_the_challenger_alone():
    g = make([["W4", "R9", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], draw=["Y1", "Y3", "Y5", "Y7"])
    g.play("W4:B")
    ev = g.play("challenge")
    reveal = ChallengeReveal(1, 0, cards("R9 G1"))
    assert reveal in ev
    assert reveal.to == (1,)
    assert reveal in g.events_for(1)
    for seat in (0, 2, None):
        assert not any(isinstance(e, ChallengeReveal) for e in g.events_for(seat))
    assert Challenged(1, 0, True) in g.events_for(2)  # the verdict itself is public


@pytest.mark.rule("CL-ACT-11")
def test_challenge_reveals_the_hand_as_it_was_right_after_the_wd4():
    # Seat 0 plays its WD4 without calling UNO and is caught before the challenge: the reveal
    # still shows the one card it held right after the WD4, not the caught cards.
    g = make([["W4", "R9"], ["B2", "Y2"], ["R4", "B4"]], ["R3"],
             draw=["G5", "G6", "Y1", "Y3", "Y5", "Y7"])
    g.play("W4:B")
    g.play("catch:0", seat=2)
    assert hands(g)[0] == "R9 G5 G6"
    ev = g.play("challenge")
    assert ev[:2] == [Challenged(1, 0, True), ChallengeReveal(1, 0, cards("R9"))]
    assert hands(g)[0] == "R9 G5 G6 Y1 Y3 Y5 Y7"


@pytest.mark.rule("CL-ACT-11", "CL-ACT-13")
def test_innocent_challenge_also_reveals():
    g = make([["W4", "G9", "Y1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"])
    g.play("W4:B")
    ev = g.play("challenge")
    assert ev[:2] == [Challenged(1, 0, False), ChallengeReveal(1, 0, cards("G9 Y1"))]


# ---------------------------------------------------------------------------------------------
# CL-ACT-12 to CL-ACT-14 verdicts


@pytest.mark.rule("CL-ACT-12", "CL-ACT-14")
def test_guilty_wd4_player_draws_and_challenger_plays_normally():
    g = make([["W4", "R9", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], draw=["Y1", "Y3", "Y5", "Y7", "B9"])
    g.play("W4:B")
    ev = g.play("challenge")
    assert ev == [
        Challenged(1, 0, True),
        ChallengeReveal(1, 0, cards("R9 G1")),
        Drew(0, 4, "challenge"),
        DrewCards(0, cards("Y1 Y3 Y5 Y7")),
    ]
    assert hands(g) == ["R9 G1 Y1 Y3 Y5 Y7", "B2 Y2", "R4 B4"]
    assert g.active_seat == 1
    assert g.phase is Phase.PLAY
    assert g.pending_penalty == 0
    assert str(g.top_card) == "W4"
    assert g.current_color is Color.BLUE
    # a normal turn on the WD4 and its named color: blue plays, yellow does not
    assert "B2" in g.legal_actions and "Y2" not in g.legal_actions
    g.play("B2")
    assert g.active_seat == 2


@pytest.mark.rule("CL-ACT-12", "CL-ACT-14")
def test_guilty_wd4_player_draws_a_stacked_total():
    g = make([["Y2", "B2"], ["R9", "G1"], ["R4", "B4"]], ["R3", "W4", "W4"],
             ruleset=Ruleset(stacking="same_kind"), color="Y", phase="respond", active=2,
             pending={"total": 8, "card": "W4"}, top_player=1,
             wd4={"player": 1, "illegal": True, "hand": ["R9", "G1"]},
             draw=["G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9"])
    g.play("challenge")
    assert hands(g) == ["Y2 B2", "R9 G1 G2 G3 G4 G5 G6 G7 G8 G9", "R4 B4"]
    assert g.active_seat == 2 and g.phase is Phase.PLAY
    assert str(g.top_card) == "W4" and g.current_color is Color.YELLOW


@pytest.mark.rule("CL-ACT-13", "CL-ACT-14")
def test_innocent_challenger_draws_six_and_loses_turn():
    g = make([["W4", "G9", "Y1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"],
             draw=["Y3", "Y5", "Y7", "G5", "G6", "G7", "B9"])
    g.play("W4:B")
    ev = g.play("challenge")
    assert ev == [
        Challenged(1, 0, False),
        ChallengeReveal(1, 0, cards("G9 Y1")),
        Drew(1, 6, "challenge"),
        DrewCards(1, cards("Y3 Y5 Y7 G5 G6 G7")),
    ]
    assert hands(g) == ["G9 Y1", "B2 Y2 Y3 Y5 Y7 G5 G6 G7", "R4 B4"]
    assert g.active_seat == 2
    assert g.phase is Phase.PLAY
    assert str(g.top_card) == "W4"
    assert g.current_color is Color.BLUE


@pytest.mark.rule("CL-ACT-13", "CL-ACT-14")
def test_innocent_challenge_of_a_stack_draws_total_plus_two():
    g = make([["Y2", "B2"], ["G1"], ["R4", "B4"]], ["R3", "W4", "W4"],
             ruleset=Ruleset(stacking="same_kind"), color="R", phase="respond", active=2,
             pending={"total": 8, "card": "W4"}, top_player=1,
             wd4={"player": 1, "illegal": False, "hand": ["G1"]},
             draw=["G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "Y3", "Y4", "Y5"])
    g.play("challenge")
    assert hands(g) == ["Y2 B2", "G1", "R4 B4 G2 G3 G4 G5 G6 G7 G8 G9 Y3 Y4"]
    assert g.active_seat == 0 and g.phase is Phase.PLAY
    assert str(g.top_card) == "W4" and g.current_color is Color.RED


# ---------------------------------------------------------------------------------------------
# CL-ACT-15 Wild Swap Hands


@pytest.mark.rule("CL-ACT-15")
def test_swap_hands_exchanges_with_the_target_and_next_seat_plays():
    g = make([["WS", "R1", "R2"], ["B2", "Y2"], ["G5", "G6", "G7", "G8"]], ["R3"], ruleset=SWAP)
    ev = g.play("WS:G>2")
    assert ev == [
        played(0, "WS", Color.GREEN, 2),
        HandsSwapped(0, 2),
        NewHand(0, cards("G5 G6 G7 G8")),
        NewHand(2, cards("R1 R2")),
    ]
    assert hands(g) == ["G5 G6 G7 G8", "B2 Y2", "R1 R2"]
    assert g.current_color is Color.GREEN
    assert g.active_seat == 1
    assert g.phase is Phase.PLAY
    assert g.events_for(1) == [played(0, "WS", Color.GREEN, 2), HandsSwapped(0, 2)]


@pytest.mark.rule("CL-ACT-15")
def test_swap_hands_counter_clockwise_next_seat():
    g = make([["WS", "R1"], ["B2", "Y2"], ["G5", "G6", "G7"]], ["R3"], ruleset=SWAP, direction=-1)
    g.play("WS:Y>1")
    assert hands(g) == ["B2 Y2", "R1", "G5 G6 G7"]
    assert g.active_seat == 2


@pytest.mark.rule("CL-ACT-15")
def test_swap_hands_target_is_required_and_must_be_another_seat_in_the_round():
    g = make([["WS", "R1"], ["B2", "Y2"], ["G5", "G6", "G7"], []], ["R3"],
             ruleset=SWAP.replace(scoring="elimination"), eliminated=[3])
    rejected(g, "WS:G", error=InvalidActionError)
    rejected(g, "WS:G>0", error=InvalidActionError)
    rejected(g, "WS:G>3", error=InvalidActionError)
    rejected(g, "WS:G>7", error=InvalidActionError)
    rejected(g, "WS>1", error=InvalidActionError)
    targets = sorted({a.target for a in g.legal_actions if str(a).startswith("WS")})
    assert targets == [1, 2]


# ---------------------------------------------------------------------------------------------
# CL-ACT-16 Wild Shuffle Hands


def _multiset(game: Game) -> list[str]:
    return sorted(str(c) for s in range(game.seats) for c in game.hand(s))


@pytest.mark.rule("CL-ACT-16")
def test_shuffle_hands_deals_every_card_from_next_seat():
    g = make([["WX", "R1", "R2"], ["G1", "G2"], ["B1", "B2", "B3"]], ["R3"], ruleset=SHUFFLE)
    ev = g.play("WX:B")
    # 7 cards dealt one at a time to 1, 2, 0, 1, 2, 0, 1
    assert g.hand_sizes == (2, 3, 2)
    assert _multiset(g) == sorted(["R1", "R2", "G1", "G2", "B1", "B2", "B3"])
    assert ev[:2] == [played(0, "WX", Color.BLUE), HandsShuffled(0, (2, 3, 2))]
    assert ev[2:5] == [NewHand(s, g.hand(s)) for s in range(3)]
    assert g.active_seat == 1
    assert g.current_color is Color.BLUE
    assert g.phase is Phase.PLAY
    assert g.draw_pile_size == 0 and len(g.discard_pile) == 108 + 1 + 3 - 7


@pytest.mark.rule("CL-ACT-16")
def test_shuffle_hands_counter_clockwise_skips_seats_not_in_the_round():
    g = make([["WX", "R1"], ["G1", "G2"], [], ["B1", "B2", "B3"]], ["R3"],
             ruleset=SHUFFLE.replace(scoring="elimination"), eliminated=[2], direction=-1)
    g.play("WX:R")
    # 6 cards to 3, 1, 0, 3, 1, 0: two each, none to the eliminated seat
    assert g.hand_sizes == (2, 2, 0, 2)
    assert _multiset(g) == sorted(["R1", "G1", "G2", "B1", "B2", "B3"])
    assert g.active_seat == 3


@pytest.mark.rule("CL-ACT-16")
def test_shuffle_hands_is_seeded():
    doc = {"ruleset": SHUFFLE.to_dict(), "hands": [["WX", "R1", "R2"], ["G1", "G2"], ["B1", "B2", "B3"]],
           "discard": ["R3"], "seed": 99}
    a, b = Game.from_position(doc), Game.from_position(doc)
    a.play("WX:B")
    b.play("WX:B")
    assert a.to_position() == b.to_position()


# ---------------------------------------------------------------------------------------------
# CL-ACT-17 Wild Customizable and Blank


@pytest.mark.rule("CL-ACT-17")
def test_customizable_plain_is_a_wild():
    g = make([["WC", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=SWAP)
    ev = g.play("WC:Y")
    assert ev == [played(0, "WC", Color.YELLOW)]
    assert g.current_color is Color.YELLOW
    assert g.active_seat == 1
    assert hands(g) == ["G1 G2", "B2 Y2", "R4 B4"]


@pytest.mark.rule("CL-ACT-17")
def test_blank_is_a_customizable():
    g = make([["WB", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset="official-112-blank")
    ev = g.play("WB:G")
    assert ev == [played(0, "WB", Color.GREEN)]
    assert g.active_seat == 1
    blank = make([["WB", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"],
                 ruleset=Ruleset(deck="classic112_blank", custom_effect="extra_turn"))
    blank.play("WB:G")
    assert blank.active_seat == 0


@pytest.mark.rule("CL-ACT-17")
def test_customizable_needs_a_color():
    g = make([["WC", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=SWAP)
    rejected(g, "WC", error=InvalidActionError)


# ---------------------------------------------------------------------------------------------
# CL-ACT-18 others_draw_2


@pytest.mark.rule("CL-ACT-18")
def test_others_draw_two_in_turn_order_and_nobody_loses_a_turn():
    g = make([["WC", "G1", "G8"], ["B2", "Y2"], ["R4", "B4"], ["Y6", "Y7"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_draw_2"),
             draw=["G2", "G3", "G4", "G5", "G6", "G7", "B9"])
    ev = g.play("WC:R")
    assert ev == [
        played(0, "WC", Color.RED),
        Drew(1, 2, "custom"), DrewCards(1, cards("G2 G3")),
        Drew(2, 2, "custom"), DrewCards(2, cards("G4 G5")),
        Drew(3, 2, "custom"), DrewCards(3, cards("G6 G7")),
    ]
    assert hands(g) == ["G1 G8", "B2 Y2 G2 G3", "R4 B4 G4 G5", "Y6 Y7 G6 G7"]
    assert g.active_seat == 1
    assert g.phase is Phase.PLAY
    assert g.pending_penalty == 0


@pytest.mark.rule("CL-ACT-18")
def test_others_draw_two_counter_clockwise_order():
    g = make([["WC", "G1", "G8"], ["B2", "Y2"], ["R4", "B4"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_draw_2"), direction=-1,
             draw=["G2", "G3", "G4", "G5"])
    g.play("WC:R")
    assert hands(g) == ["G1 G8", "B2 Y2 G4 G5", "R4 B4 G2 G3"]
    assert g.active_seat == 2


@pytest.mark.rule("CL-ACT-18")
def test_others_draw_two_is_not_a_draw_card():
    # With stacking and the challenge on, there is still no response phase and nothing to challenge.
    g = make([["WC", "G1", "G8"], ["WC", "RD2", "Y2"], ["R4", "B4"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_draw_2", stacking="by_value", bounce_draw_two=True),
             draw=["G2", "G3", "G4", "G5"])
    ev = g.play("WC:R")
    assert not any(isinstance(e, PenaltyPending) for e in ev)
    assert g.phase is Phase.PLAY
    assert g.active_seat == 1
    rejected(g, "accept")
    rejected(g, "challenge")
    assert hands(g)[1] == "WC RD2 Y2 G2 G3"


# ---------------------------------------------------------------------------------------------
# CL-ACT-19 others_discard_wilds


@pytest.mark.rule("CL-ACT-19")
def test_others_discard_wilds_slips_them_under_the_top_card():
    g = make([["WC", "G1", "G8"], ["W", "R5", "W4"], ["G2", "G3"], ["WC", "B2"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_discard_wilds"))
    ev = g.play("WC:B")
    assert ev == [
        played(0, "WC", Color.BLUE),
        Slipped(1, cards("W W4")),
        Slipped(3, cards("WC")),
        Exposed(1),
        Exposed(3),
    ]
    assert hands(g) == ["G1 G8", "R5", "G2 G3", "B2"]
    assert [str(c) for c in g.discard_pile[-5:]] == ["R3", "W", "W4", "WC", "WC"]
    assert str(g.top_card) == "WC"
    assert g.current_color is Color.BLUE
    assert g.active_seat == 1
    assert g.phase is Phase.PLAY


@pytest.mark.rule("CL-ACT-19")
def test_others_discard_wilds_can_make_another_seat_go_out():
    # Seat 1 slips both its wilds and goes out at once; seat 2, later in the order, keeps its W4.
    g = make([["WC", "G1"], ["W", "W"], ["W4", "G2"], ["Y6", "Y7"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_discard_wilds"))
    ev = g.play("WC:B")
    assert hands(g) == ["G1", "", "W4 G2", "Y6 Y7"]
    assert g.phase is Phase.ROUND_OVER
    result = g.round_result()
    assert result is not None and result.winner == 1
    assert result.points == 1 + 50 + 2 + 6 + 7
    assert ev[-1] == RoundEnded(1, 66, (1, 0, 52, 13), (0, 66, 0, 0), ())
    assert g.scores == (0, 66, 0, 0)


@pytest.mark.rule("CL-ACT-19")
def test_others_discard_wilds_counter_clockwise_order():
    g = make([["WC", "G1"], ["W4", "G2"], ["W", "W"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_discard_wilds"), direction=-1)
    g.play("WC:B")
    # next(0) is seat 2 counter-clockwise: it goes out first and seat 1 keeps its W4
    assert g.round_result().winner == 2
    assert hands(g) == ["G1", "W4 G2", ""]


# ---------------------------------------------------------------------------------------------
# CL-ACT-20 extra_turn / others_skip


@pytest.mark.rule("CL-ACT-20")
@pytest.mark.parametrize("name", ["extra_turn", "others_skip"])
def test_extra_turn_player_plays_again(name):
    rules = SWAP.replace(custom_effect=name)
    assert rules.custom_effect is CustomEffect.EXTRA_TURN
    g = make([["WC", "G1", "G2"], ["B2", "Y2"], ["R4", "B4"]], ["R3"], ruleset=rules)
    ev = g.play("WC:G")
    assert ev == [played(0, "WC", Color.GREEN)]
    assert g.active_seat == 0
    assert g.phase is Phase.PLAY
    g.play("G1")
    assert g.active_seat == 1
    assert hands(g) == ["G2", "B2 Y2", "R4 B4"]


# ---------------------------------------------------------------------------------------------
# CL-ACT-21 the special wilds are wilds


@pytest.mark.rule("CL-ACT-21")
@pytest.mark.parametrize("ruleset,card", [(SWAP, "WS"), (SWAP, "WC"), (SHUFFLE, "WX"),
                                          (Ruleset(deck="classic112_blank"), "WB")])
def test_special_wilds_are_always_playable(ruleset, card):
    # On a wild top card with a named color, and holding that color, the special wild still plays.
    g = make([[card, "Y5", "G1"], ["B2", "Y2"], ["R4", "B4"]], ["W4"], ruleset=ruleset, color="Y")
    target = ">1" if card == "WS" else ""
    assert f"{card}:R{target}" in g.legal_actions
    g.play(f"{card}:R{target}")
    assert str(g.top_card) == card and g.current_color is Color.RED


@pytest.mark.rule("CL-ACT-21", "CL-ACT-6")
def test_special_wilds_never_count_as_the_current_color_for_wd4():
    g = make([["W4", "WS", "WC"], ["B2", "Y2"], ["R4", "B4"]], ["R3"],
             ruleset=SWAP.replace(wd4_rule="strict"))
    assert "W4:R" in g.legal_actions
    g.play("W4:R")
    assert g.to_position()["wd4"] == {"player": 0, "illegal": False, "hand": ["WS", "WC"]}


@pytest.mark.rule("CL-ACT-21")
def test_special_wilds_cannot_jump_in():
    # Seat 0 placed a WC (named red); seat 2 holds another WC but may not jump in with it.
    g = make([["G1", "G2"], ["B2", "Y2"], ["WC", "R4"]], ["R3", "WC"], ruleset=SWAP.replace(jump_in=True),
             color="R", active=1, top_player=0)
    assert not any(str(a).startswith("WC") for a in g.legal_actions_for(2))
    rejected(g, "WC:R", seat=2, error=NotYourTurnError)
    # a colored identical card could have jumped in (control)
    h = make([["G1", "G2"], ["B2", "Y2"], ["R3", "R4"]], ["R3"], ruleset=SWAP.replace(jump_in=True),
             active=1, top_player=0)
    assert "R3" in h.legal_actions_for(2)


@pytest.mark.rule("CL-ACT-18")
def test_others_draw_two_only_seats_in_the_round():
    g = make([["WC", "G1", "G8"], [], ["R4", "B4"], ["Y6", "Y7"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_draw_2", scoring="elimination"), eliminated=[1],
             draw=["G2", "G3", "G4", "G5"])
    g.play("WC:R")
    assert hands(g) == ["G1 G8", "", "R4 B4 G2 G3", "Y6 Y7 G4 G5"]
    assert g.active_seat == 2


@pytest.mark.rule("CL-ACT-20")
def test_extra_turn_others_cannot_act_and_it_can_chain():
    g = make([["WC", "WC", "G1", "G2"], ["G3", "Y2"], ["G4", "B4"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="extra_turn"))
    g.play("WC:G")
    rejected(g, "G3", seat=1, error=NotYourTurnError)
    rejected(g, "draw", seat=1, error=NotYourTurnError)
    g.play("WC:Y")
    assert g.active_seat == 0 and g.current_color is Color.YELLOW
    assert hands(g) == ["G1 G2", "G3 Y2", "G4 B4"]


@pytest.mark.rule("CL-ACT-2")
def test_reverse_passes_over_a_seat_not_in_the_round():
    g = make([["R2", "Y2"], [], ["RR", "G1", "G2"], ["R6", "Y6"]], ["R3"], active=2,
             ruleset=Ruleset(scoring="elimination"), eliminated=[1])
    g.play("RR")
    assert g.direction == -1
    assert g.active_seat == 0
