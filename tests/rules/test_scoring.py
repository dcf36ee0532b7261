"""Scenario tests for scoring and the end of the match (RULES.md §7, SCORE-1 to SCORE-10).

Positions start with running totals near the target (``scores``, ``round_wins``, ``eliminated``,
``final_round``); a last card ends the round, and the tests check the exact round result, totals,
phase and match outcome.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from unotable import (
    Card,
    Color,
    Game,
    IllegalActionError,
    Phase,
    Ruleset,
)
from unotable.events import (
    Caught,
    Drew,
    DrewCards,
    MatchEnded,
    NewHand,
    Passed,
    RoundEnded,
)

from scenario import hands, make, rejected

LOW = Ruleset(scoring="low")
ELIMINATION = Ruleset(scoring="elimination")
TO_TARGET = Ruleset(scoring="elimination", elimination_final="to_target")


# ---------------------------------------------------------------------------------------------
# SCORE-1 card values


@pytest.mark.rule("SCORE-1")
def test_classic_card_values():
    g = make([["R5"], ["R7", "GS", "BR", "YD2", "W", "W4"], ["B0", "B9"]], ["R3"])
    g.play("R5")
    result = g.round_result()
    assert result.hand_points == (0, 7 + 20 + 20 + 20 + 50 + 50, 0 + 9)
    assert result.points == 176
    assert g.scores == (176, 0, 0)


@pytest.mark.rule("SCORE-1")
@pytest.mark.parametrize("deck,hand1,hand2,points", [
    ("classic112_swap", ["WS", "WC"], ["WC", "G1"], (80, 41)),
    ("classic112_shuffle", ["WX", "G2"], ["WC"], (42, 40)),
    ("classic112_blank", ["WB", "WB"], ["WB", "W"], (80, 90)),
])
def test_special_wilds_score_forty(deck, hand1, hand2, points):
    g = make([["R5"], hand1, hand2], ["R3"], ruleset=Ruleset(deck=deck))
    g.play("R5")
    assert g.round_result().hand_points == (0, *points)
    assert g.scores == (sum(points), 0, 0)


@pytest.mark.rule("SCORE-1")
def test_no_mercy_card_values():
    g = make([["R5"], ["RD4", "GSE", "BDA", "YS", "RR", "GD2"], ["WR4", "W6", "W10", "WCR", "B7"]], ["R3"],
             ruleset="no-mercy")
    g.play("R5")
    result = g.round_result()
    assert result.hand_points == (0, 120, 207)
    assert result.points == 327
    assert g.scores == (327, 0, 0)


# ---------------------------------------------------------------------------------------------
# SCORE-2 standard scoring to the target


@pytest.mark.rule("SCORE-2")
def test_standard_reaching_the_target_exactly_wins_the_match():
    g = make([["R5"], ["R9", "G3"], ["B8"]], ["R3"], scores=[480, 490, 200])
    ev = g.play("R5")
    assert ev[-2:] == [RoundEnded(0, 20, (0, 12, 8), (500, 490, 200), ()), MatchEnded((0,), (500, 490, 200))]
    assert g.phase is Phase.MATCH_OVER
    assert g.is_over()
    outcome = g.outcome()
    assert outcome.winners == (0,)
    assert outcome.scores == (500, 490, 200)
    assert outcome.reason == "target reached"
    with pytest.raises(IllegalActionError):
        g.next_round()


@pytest.mark.rule("SCORE-2")
def test_standard_only_the_round_winner_scores_and_play_goes_on_below_target():
    g = make([["R5"], ["R9", "G3"], ["B8"]], ["R3"], scores=[479, 490, 200], round_wins=[3, 4, 1])
    g.play("R5")
    assert g.phase is Phase.ROUND_OVER
    assert g.scores == (499, 490, 200)
    assert g.outcome() is None
    assert g.to_position()["round_wins"] == [4, 4, 1]
    g.next_round()
    assert g.round_no == 2 and g.scores == (499, 490, 200)


@pytest.mark.rule("SCORE-2")
def test_standard_passing_a_custom_target():
    g = make([["R5"], ["W4", "G3"], ["B8"]], ["R3"], ruleset=Ruleset(target_score=100), scores=[40, 90, 0])
    g.play("R5")
    assert g.outcome().winners == (0,)
    assert g.scores == (101, 90, 0)


# ---------------------------------------------------------------------------------------------
# SCORE-3 low scoring


@pytest.mark.rule("SCORE-3")
def test_low_every_seat_adds_its_own_hand():
    g = make([["R5"], ["R9", "G9", "B9", "Y3"], ["W"]], ["R3"], ruleset=LOW, scores=[100, 200, 300])
    g.play("R5")
    assert g.round_result().hand_points == (0, 30, 50)
    assert g.scores == (100, 230, 350)
    assert g.phase is Phase.ROUND_OVER
    assert g.outcome() is None


@pytest.mark.rule("SCORE-3")
def test_low_match_ends_when_a_total_reaches_target_and_the_lowest_wins():
    g = make([["R5"], ["Y3", "B7"], ["R9", "G9", "B9", "Y3"]], ["R3"], ruleset=LOW, scores=[300, 200, 470])
    ev = g.play("R5")
    assert g.scores == (300, 210, 500)
    assert g.phase is Phase.MATCH_OVER
    assert g.outcome().winners == (1,)
    assert g.outcome().reason == "lowest total"
    assert ev[-1] == MatchEnded((1,), (300, 210, 500))


# ---------------------------------------------------------------------------------------------
# SCORE-4 ties under low scoring


@pytest.mark.rule("SCORE-4")
def test_low_tie_goes_to_more_round_wins():
    g = make([["R5"], ["Y3", "B7"], ["R9", "G9", "B9", "Y3"]], ["R3"], ruleset=LOW,
             scores=[200, 190, 480], round_wins=[1, 3, 0])
    g.play("R5")
    assert g.scores == (200, 200, 510)
    assert g.to_position()["round_wins"] == [2, 3, 0]
    assert g.outcome().winners == (1,)


@pytest.mark.rule("SCORE-4")
def test_low_tie_counts_the_round_just_won():
    g = make([["R5"], ["Y3", "B7"], ["R9", "G9", "B9", "Y3"]], ["R3"], ruleset=LOW,
             scores=[200, 190, 480], round_wins=[2, 2, 0])
    g.play("R5")
    assert g.outcome().winners == (0,)


@pytest.mark.rule("SCORE-4")
def test_low_full_tie_is_a_shared_win():
    g = make([["R5"], ["Y3", "B7"], ["R9", "G9", "B9", "Y3"]], ["R3"], ruleset=LOW,
             scores=[200, 190, 480], round_wins=[2, 3, 0])
    ev = g.play("R5")
    assert g.outcome().winners == (0, 1)
    assert ev[-1] == MatchEnded((0, 1), (200, 200, 510))


# ---------------------------------------------------------------------------------------------
# SCORE-5 elimination


@pytest.mark.rule("SCORE-5", "SCORE-6")
def test_elimination_seats_reaching_target_are_eliminated():
    g = make([["R5"], ["Y3", "B7"], ["G9", "Y8", "Y3"], ["B5"]], ["R3"], ruleset=ELIMINATION,
             scores=[0, 490, 100, 495])
    ev = g.play("R5")
    result = g.round_result()
    assert result.eliminated == (1, 3)
    assert g.scores == (0, 500, 120, 500)
    assert ev[-1] == RoundEnded(0, 0, (0, 10, 20, 5), (0, 500, 120, 500), (1, 3))
    assert g.phase is Phase.ROUND_OVER
    position = g.to_position()
    assert position["eliminated"] == [1, 3]
    assert position["final_round"] is True  # SCORE-6: two seats remain, one round to go


@pytest.mark.rule("SCORE-5")
def test_eliminated_seats_take_no_further_part():
    g = make([["R5"], ["Y3", "B7"], ["G9", "Y8", "Y3"], ["B5"]], ["R3"], ruleset=ELIMINATION,
             scores=[0, 490, 100, 495], dealer=0)
    g.play("R5")
    g.next_round()
    assert g.in_round == (True, False, True, False)
    assert g.hand_sizes == (7, 0, 7, 0)
    assert g.dealer == 2
    assert g.active_seat in (0, 2)


@pytest.mark.rule("SCORE-5")
def test_elimination_turn_order_passes_over_eliminated_seat():
    g = make([["R5", "R6", "R7"], [], ["G9", "R8"], ["B5", "B6"]], ["R3"], ruleset=ELIMINATION,
             eliminated=[1], scores=[0, 520, 100, 200])
    g.play("R5")
    assert g.active_seat == 2


@pytest.mark.rule("SCORE-5")
def test_elimination_last_seat_standing_wins():
    g = make([["R5"], ["Y3", "B7"], ["G9", "Y8"]], ["R3"], ruleset=ELIMINATION, scores=[0, 490, 495])
    g.play("R5")
    assert g.round_result().eliminated == (1, 2)
    assert g.phase is Phase.MATCH_OVER
    assert g.outcome().winners == (0,)
    assert g.outcome().reason == "last seat standing"


@pytest.mark.rule("SCORE-5")
def test_elimination_winner_adds_nothing_and_nobody_below_target_is_eliminated():
    g = make([["R5"], ["Y3", "B7"], ["G9", "Y8"]], ["R3"], ruleset=ELIMINATION, scores=[499, 489, 482])
    g.play("R5")
    assert g.scores == (499, 499, 499)
    assert g.round_result().eliminated == ()
    assert g.to_position()["final_round"] is False
    assert g.phase is Phase.ROUND_OVER


# ---------------------------------------------------------------------------------------------
# SCORE-6 the last two


@pytest.mark.rule("SCORE-6")
def test_one_round_final_round_winner_wins_the_match():
    g = make([["R9", "G1"], [], ["R5"], []], ["R3"], ruleset=ELIMINATION, eliminated=[1, 3], final_round=True,
             scores=[300, 510, 450, 600], active=2)
    ev = g.play("R5")
    assert g.phase is Phase.MATCH_OVER
    assert g.outcome().winners == (2,)
    assert g.outcome().reason == "final round"
    assert g.scores == (310, 510, 450, 600)
    assert ev[-1] == MatchEnded((2,), (310, 510, 450, 600))


@pytest.mark.rule("SCORE-6")
def test_to_target_two_seats_play_on_below_target():
    g = make([["R5"], ["Y3", "B7"], ["G9", "Y8", "Y3"], ["B5"]], ["R3"], ruleset=TO_TARGET,
             scores=[0, 490, 100, 495])
    g.play("R5")
    assert g.round_result().eliminated == (1, 3)
    assert g.to_position()["final_round"] is False
    assert g.phase is Phase.ROUND_OVER
    later = make([["R5"], [], ["G9", "G1"], []], ["R3"], ruleset=TO_TARGET, eliminated=[1, 3],
                 scores=[400, 510, 480, 520])
    later.play("R5")
    assert later.scores == (400, 510, 490, 520)
    assert later.phase is Phase.ROUND_OVER
    assert later.outcome() is None


@pytest.mark.rule("SCORE-6")
def test_to_target_the_other_seat_wins_when_one_reaches_target():
    g = make([["R5"], [], ["G9", "G8", "G3"], []], ["R3"], ruleset=TO_TARGET, eliminated=[1, 3],
             scores=[400, 510, 480, 520])
    g.play("R5")
    assert g.scores == (400, 510, 500, 520)
    assert g.phase is Phase.MATCH_OVER
    assert g.outcome().winners == (0,)


# ---------------------------------------------------------------------------------------------
# SCORE-7 single round


@pytest.mark.rule("SCORE-7")
def test_scoring_none_single_round_decides_the_match():
    g2 = make([["R5"], ["Y3", "B7"], ["G9"]], ["R3"], ruleset=Ruleset(scoring="none"))
    ev = g2.play("R5")
    assert g2.phase is Phase.MATCH_OVER
    assert g2.outcome().winners == (0,)
    assert g2.outcome().reason == "single round"
    assert isinstance(ev[-1], MatchEnded) and ev[-1].winners == (0,)
    with pytest.raises(IllegalActionError):
        g2.next_round()
    rejected(g2, "Y3", seat=1)


# ---------------------------------------------------------------------------------------------
# SCORE-8 blocked rounds


def _blocked(ruleset: Ruleset, **fields: Any) -> Game:
    """Seats 0 and 1 hold only yellow, green and blue cards other than 5s; the top card is R5 and the
    one card left to draw is G9. Every red card, every 5 and every wild sits in the hands of the
    eliminated seats 2 and 3, so once seat 0 draws, no seat in the round can play or draw."""
    deck = [str(Card.from_id(i)) for i, n in sorted(ruleset.composition().items()) for _ in range(n)]
    deck.remove("R5")
    deck.remove("G9")
    blocked = [c for c in deck if c.startswith("W") or c.startswith("R") or c[1:] == "5"]
    rest = [c for c in deck if c not in blocked]
    half = len(rest) // 2
    doc = {
        "ruleset": ruleset.to_dict(),
        "hands": [rest[:half], rest[half:], blocked[: len(blocked) // 2], blocked[len(blocked) // 2:]],
        "discard": ["R5"],
        "draw": ["G9"],
        "fill": "none",
        "eliminated": [2, 3],
        **fields,
    }
    return Game.from_position(doc)


@pytest.mark.rule("SCORE-8")
def test_blocked_round_scores_nothing_and_is_replayed_with_the_next_dealer():
    g = _blocked(ELIMINATION, scores=[450, 495, 600, 700], final_round=True, dealer=1)
    ev = g.play("draw")
    values = g.round_result().hand_points
    assert ev[:4] == [Drew(0, 1, "draw"), DrewCards(0, (Card.parse("G9"),)), Passed(1, auto=True),
                      Passed(0, auto=True)]
    assert ev[4] == RoundEnded(None, 0, values, (450, 495, 600, 700), ())
    assert len(ev) == 5
    result = g.round_result()
    assert result.blocked and result.winner is None and result.points == 0
    assert values[2:] == (0, 0)
    assert g.scores == (450, 495, 600, 700)
    assert g.to_position()["round_wins"] == [0, 0, 0, 0]
    # the final round of an elimination match is not decided by a blocked round: it is replayed
    assert g.phase is Phase.ROUND_OVER and g.outcome() is None
    assert g.to_position()["final_round"] is True
    g.next_round()
    assert g.round_no == 2
    assert g.dealer == 0  # the seat after dealer 1 that is still in the match (2 and 3 are out)
    assert g.hand_sizes == (7, 7, 0, 0)


@pytest.mark.rule("SCORE-8")
def test_blocked_round_with_scores_at_target_does_not_end_the_match():
    g = _blocked(ELIMINATION, scores=[499, 499, 600, 700])
    g.play("draw")
    assert g.round_result().blocked
    assert g.scores == (499, 499, 600, 700)
    assert g.round_result().eliminated == ()
    assert g.phase is Phase.ROUND_OVER


# ---------------------------------------------------------------------------------------------
# SCORE-9 partnerships


@pytest.mark.rule("SCORE-9")
def test_partners_score_the_other_teams_cards_only():
    g = make([["R5"], ["R9"], ["W4"], ["G1"]], ["R3"], ruleset="partners")
    g.play("R5")
    result = g.round_result()
    assert result.winner == 0
    assert result.points == 10
    assert result.hand_points == (0, 9, 50, 1)
    assert g.scores == (10, 0, 10, 0)


@pytest.mark.rule("SCORE-9")
def test_partners_team_reaching_target_wins_together():
    g = make([["R9", "G1"], ["Y9", "B9", "G3"], ["R5"], ["B7", "B6", "G6", "G7", "Y8"]], ["R3"],
             ruleset="partners", active=2, scores=[450, 300, 450, 300])
    ev = g.play("R5")
    assert g.scores == (505, 300, 505, 300)
    assert g.phase is Phase.MATCH_OVER
    assert g.outcome().winners == (0, 2)
    assert g.outcome().reason == "target reached"
    assert ev[-1] == MatchEnded((0, 2), (505, 300, 505, 300))


@pytest.mark.rule("SCORE-9")
def test_partners_with_six_seats_alternate():
    g = make([["G1"], ["B2"], ["Y3"], ["R5"], ["G4"], ["B6", "B7"]], ["R3"], ruleset="partners", active=3)
    g.play("R5")
    assert g.round_result().points == 1 + 3 + 4
    assert g.scores == (0, 8, 0, 8, 0, 8)


# ---------------------------------------------------------------------------------------------
# SCORE-10 partners are other seats


PARTNER_SWAP = Ruleset(deck="classic112_swap", partnership=True)


@pytest.mark.rule("SCORE-10")
def test_partner_is_a_valid_swap_target():
    g = make([["WS", "R1", "R2"], ["B2", "Y2"], ["G5", "G6", "G7"], ["Y6", "Y7"]], ["R3"],
             ruleset=PARTNER_SWAP)
    assert "WS:G>2" in g.legal_actions
    g.play("WS:G>2")
    assert hands(g) == ["G5 G6 G7", "B2 Y2", "R1 R2", "Y6 Y7"]


@pytest.mark.rule("SCORE-10")
def test_partner_may_catch_its_partner():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"], ["Y6", "Y7"]], ["R3"], ruleset="partners",
             draw=["G5", "G6"])
    g.play("R7")
    assert "catch:0" in g.legal_actions_for(2)
    ev = g.play("catch:0", seat=2)
    assert ev[0] == Caught(2, 0, 2)
    assert hands(g)[0] == "R5 G5 G6"


@pytest.mark.rule("SCORE-10")
def test_partners_see_only_their_own_hands():
    g = make([["WS", "R1", "R2"], ["B2", "Y2"], ["G5", "G6", "G7"], ["Y6", "Y7"]], ["R3"],
             ruleset=PARTNER_SWAP, fill="draw")
    view = g.view(2)
    assert [str(c) for c in view.hand] == ["G5", "G6", "G7"]
    text = json.dumps(view.to_dict())
    for secret in ("WS", "R1", "R2", "B2", "Y2", "Y6", "Y7"):
        assert f'"{secret}"' not in text
    g.play("WS:R>1")
    assert NewHand(0, (Card.parse("B2"), Card.parse("Y2"))) not in g.events_for(2)
    assert not any(isinstance(e, NewHand) for e in g.events_for(2))
    assert g.view(2).hand == (Card.parse("G5"), Card.parse("G6"), Card.parse("G7"))
    assert g.current_color is Color.RED


@pytest.mark.rule("SCORE-7")
def test_scoring_none_any_seat_winning_the_round_wins_the_match():
    g = make([["Y1", "Y2"], ["B7", "B8"], ["R5"], ["G1", "G2"]], ["R3"], ruleset=Ruleset(scoring="none"),
             active=2)
    g.play("R5")
    outcome = g.outcome()
    assert outcome.winners == (2,)
    assert outcome.rounds == 1
    assert g.is_over()
