"""Scenario tests for calling UNO and catching (RULES.md §6, CL-UNO-1 to CL-UNO-8).

Each test builds an exact position with ``Game.from_position``, plays actions and checks the exact
result: hands, exposed seats, calls, penalties, the active seat and the events.
"""
from __future__ import annotations

from typing import Any

import pytest

from unotable import (
    Catch,
    Color,
    Game,
    InvalidActionError,
    NotYourTurnError,
    Phase,
    Ruleset,
)
from unotable.events import (
    Caught,
    Drew,
    DrewCards,
    Exposed,
    FalseCatch,
    FalseUno,
    HandsSwapped,
    NewHand,
    PenaltyPending,
    UnoCalled,
)

from scenario import cards, hands, make, played, rejected

SWAP = Ruleset(deck="classic112_swap")
SHUFFLE = Ruleset(deck="classic112_shuffle")


def called(game: Game) -> list[int]:
    return game.to_position()["called"]


DRAW = ["G5", "G6", "G7", "G8", "Y1", "Y3", "Y5", "Y7"]


def exposed_seat0(ruleset: Ruleset | str = "official", **extra: Any) -> Game:
    """Seat 0 has just played R7 from R7 R5 without a call: it is exposed; seat 1 is active."""
    fields: dict[str, Any] = dict(draw=DRAW)
    fields.update(extra)
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=ruleset, **fields)
    g.play("R7")
    assert g.exposed == (0,)
    return g


# ---------------------------------------------------------------------------------------------
# CL-UNO-1 exposure


@pytest.mark.rule("CL-UNO-1")
def test_own_play_to_one_card_without_a_call_exposes():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    ev = g.play("R7")
    assert ev == [played(0, "R7"), Exposed(0)]
    assert g.exposed == (0,)
    assert g.active_seat == 1
    assert g.spectator_view().exposed == (True, False, False)
    assert "catch:0" in g.legal_actions_for(1) and "catch:0" in g.legal_actions_for(2)


@pytest.mark.rule("CL-UNO-1")
def test_play_leaving_two_cards_exposes_nobody():
    g = make([["R7", "R5", "G1"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    ev = g.play("R7")
    assert ev == [played(0, "R7")]
    assert g.exposed == ()


@pytest.mark.rule("CL-UNO-1", "CL-UNO-2")
def test_play_with_the_uno_flag_does_not_expose():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    ev = g.play("R7!")
    assert ev == [played(0, "R7", uno=True)]
    assert g.exposed == ()
    assert called(g) == [0]
    assert g.spectator_view().called == (True, False, False)
    assert "catch:0" not in g.legal_actions_for(1)


@pytest.mark.rule("CL-UNO-1")
def test_swap_by_another_seat_exposes_the_target():
    # seat 0 gives its last R5 to seat 2 and takes seat 2's three cards: seat 2 is exposed
    g = make([["WS", "R5"], ["B2", "Y2"], ["R4", "G9", "B9"]], ["R3"], ruleset=SWAP)
    ev = g.play("WS:G>2")
    assert ev[-1] == Exposed(2)
    assert g.exposed == (2,)
    assert hands(g) == ["R4 G9 B9", "B2 Y2", "R5"]
    # giving away two cards exposes nobody
    h = make([["WS", "R5", "G1"], ["B2", "Y2"], ["R4", "G9"]], ["R3"], ruleset=SWAP)
    h.play("WS:G>2")
    assert h.exposed == ()


@pytest.mark.rule("CL-UNO-1")
def test_discard_caused_by_another_seat_exposes():
    g = make([["WC", "G1", "G2"], ["W", "R5"], ["G3", "G4"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_discard_wilds"))
    ev = g.play("WC:B")
    assert ev[-1] == Exposed(1)
    assert g.exposed == (1,)
    assert hands(g) == ["G1 G2", "R5", "G3 G4"]


@pytest.mark.rule("CL-UNO-1")
def test_shuffle_exposes_every_seat_left_with_one_card():
    # 4 cards dealt to 1, 2, 0, 1: seat 1 gets two, seats 2 and 0 one each.
    g = make([["WX", "R1"], ["G1"], ["B1", "B2"]], ["R3"], ruleset=SHUFFLE)
    ev = g.play("WX:R")
    assert g.hand_sizes == (1, 2, 1)
    assert ev[-2:] == [Exposed(0), Exposed(2)]
    assert g.exposed == (0, 2)


# ---------------------------------------------------------------------------------------------
# CL-UNO-2 calling


@pytest.mark.rule("CL-UNO-2")
def test_separate_call_out_of_turn_makes_the_seat_safe():
    g = exposed_seat0()
    assert "uno" in g.legal_actions_for(0)
    ev = g.play("uno", seat=0)
    assert ev == [UnoCalled(0)]
    assert g.exposed == ()
    assert called(g) == [0]
    assert g.active_seat == 1 and g.phase is Phase.PLAY
    rejected(g, "catch:0", seat=1)
    rejected(g, "catch:0", seat=2)


@pytest.mark.rule("CL-UNO-2")
def test_call_still_allowed_after_the_window_closed():
    g = exposed_seat0()
    g.play("R2")  # seat 1's turn action closes seat 0's window
    assert g.exposed == ()
    assert "uno" in g.legal_actions_for(0)
    assert g.play("uno", seat=0) == [UnoCalled(0)]
    assert called(g) == [0]


@pytest.mark.rule("CL-UNO-2")
def test_active_seat_holding_one_card_may_call_on_its_turn():
    g = make([["R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["G3"], draw=DRAW)
    # an action that can be made out of turn needs its seat named, even by the active seat
    rejected(g, "uno", error=InvalidActionError)
    assert g.play("uno", seat=0) == [UnoCalled(0)]
    assert called(g) == [0]
    assert g.active_seat == 0


@pytest.mark.rule("CL-UNO-2")
def test_flag_on_a_stacking_response():
    g = make([["G1", "G2"], ["RD2", "YD2", "B2"], ["R4", "B4", "G4"]], ["RD2"],
             ruleset=Ruleset(stacking="same_kind"), phase="respond", active=1,
             pending={"total": 2, "card": "RD2"}, top_player=0)
    assert "RD2!" not in g.legal_actions
    g2 = make([["G1", "G2"], ["RD2", "B2"], ["R4", "B4", "G4"]], ["RD2"],
              ruleset=Ruleset(stacking="same_kind"), phase="respond", active=1,
              pending={"total": 2, "card": "RD2"}, top_player=0)
    ev = g2.play("RD2!")
    assert ev == [played(1, "RD2", uno=True), PenaltyPending(2, 4)]
    assert called(g2) == [1] and g2.exposed == ()


# ---------------------------------------------------------------------------------------------
# CL-UNO-3 false calls


@pytest.mark.rule("CL-UNO-3")
def test_flag_on_a_play_leaving_two_cards_is_illegal():
    g = make([["R7", "R5", "G1"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    assert "R7!" not in g.legal_actions
    rejected(g, "R7!")


@pytest.mark.rule("CL-UNO-3")
def test_flag_on_the_last_card_is_illegal():
    g = make([["R7"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    rejected(g, "R7!")
    g.play("R7")
    assert g.phase is Phase.ROUND_OVER


@pytest.mark.rule("CL-UNO-3")
def test_flag_on_a_swap_judged_by_the_resulting_hand():
    # WS from WS R5 R6: the player ends with the target's hand. Two cards: no flag; one card: flag.
    g = make([["WS", "R5", "R6"], ["B2", "Y2"], ["G9"]], ["R3"], ruleset=SWAP)
    rejected(g, "WS:G>1!")
    ev = g.play("WS:G>2!")
    assert ev[0] == played(0, "WS", Color.GREEN, 2, uno=True)
    assert hands(g) == ["G9", "B2 Y2", "R5 R6"]
    assert called(g) == [0]
    assert g.exposed == ()


@pytest.mark.rule("CL-UNO-3")
def test_call_while_holding_more_than_one_card_is_rejected():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    assert "uno" not in g.legal_actions
    rejected(g, "uno", seat=0)
    rejected(g, "uno", seat=2)


@pytest.mark.rule("CL-UNO-3")
@pytest.mark.parametrize("penalty", [0, 2])
def test_second_call_is_rejected(penalty):
    g = exposed_seat0(Ruleset(false_uno_penalty=penalty))
    g.play("uno", seat=0)
    assert "uno" not in g.legal_actions_for(0)
    rejected(g, "uno", seat=0)


@pytest.mark.rule("CL-UNO-3")
def test_false_call_with_penalty_is_accepted_and_the_caller_draws():
    g = make([["R7", "R5", "G1"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"],
             ruleset=Ruleset(false_uno_penalty=2), draw=DRAW, active=1)
    ev = g.play("uno", seat=0)
    assert ev == [FalseUno(0, 2), Drew(0, 2, "false_uno"), DrewCards(0, cards("G5 G6"))]
    assert hands(g)[0] == "R7 R5 G1 G5 G6"
    assert called(g) == []
    assert g.active_seat == 1 and g.phase is Phase.PLAY
    assert g.actions[-1][0] == 0 and str(g.actions[-1][1]) == "uno"
    assert FalseUno(0, 2) in g.events


@pytest.mark.rule("CL-UNO-3")
def test_false_call_penalty_three_from_the_active_seat():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"],
             ruleset=Ruleset(false_uno_penalty=3), draw=DRAW)
    ev = g.play("uno", seat=0)
    assert ev[0] == FalseUno(0, 3)
    assert hands(g)[0] == "R7 R5 G5 G6 G7"
    assert g.active_seat == 0 and g.phase is Phase.PLAY


# ---------------------------------------------------------------------------------------------
# CL-UNO-4 the catch window


@pytest.mark.rule("CL-UNO-4")
def test_window_stays_open_through_an_automatic_penalty_draw():
    g = make([["RD2", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], draw=DRAW)
    ev = g.play("RD2")
    # the exposure is settled after the automatic draw of seat 1, and it stays open
    assert ev == [played(0, "RD2"), PenaltyPending(1, 2), Drew(1, 2, "penalty"),
                  DrewCards(1, cards("G5 G6")), Exposed(0)]
    assert g.active_seat == 2
    assert g.exposed == (0,)
    ev = g.play("catch:0", seat=1)
    assert ev == [Caught(1, 0, 2), Drew(0, 2, "catch"), DrewCards(0, cards("G7 G8"))]
    assert hands(g)[0] == "R5 G7 G8"


@pytest.mark.rule("CL-UNO-4")
def test_window_closes_at_the_next_turn_action_by_any_seat():
    g = exposed_seat0()
    g.play("draw")  # seat 1 draws G5: a turn action
    assert g.exposed == ()
    rejected(g, "catch:0", seat=2)
    rejected(g, "catch:0", seat=1)
    assert hands(g)[0] == "R5"


@pytest.mark.rule("CL-UNO-4")
def test_window_closes_at_the_exposed_seats_own_turn_action():
    # Seat 0 holds one card, is exposed, and must name the color for a first-card wild: naming it
    # is a turn action, and it closes the window although seat 0's hand does not change.
    g = make([["R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["W"], color=None,
             phase="choose_color", exposed=[0])
    assert "catch:0" in g.legal_actions_for(2)
    g.play("color:R")
    assert g.exposed == ()
    assert hands(g)[0] == "R5"
    rejected(g, "catch:0", seat=2)


@pytest.mark.rule("CL-UNO-4")
def test_window_closes_when_the_exposed_hand_changes():
    # The exposed seat makes a false catch and draws its penalty: its hand changed, so its own
    # window closes; the false catch is not a turn action, so seat 1 is still active.
    g = exposed_seat0(Ruleset(false_catch_penalty=1))
    ev = g.play("catch:2", seat=0)
    assert ev == [FalseCatch(0, 2, 1), Drew(0, 1, "false_catch"), DrewCards(0, cards("G5"))]
    assert g.exposed == ()
    assert g.active_seat == 1
    # a catch of seat 0 is now a false catch: the catcher pays, seat 0 keeps its two cards
    ev = g.play("catch:0", seat=1)
    assert ev == [FalseCatch(1, 0, 1), Drew(1, 1, "false_catch"), DrewCards(1, cards("G6"))]
    assert hands(g)[0] == "R5 G5"


@pytest.mark.rule("CL-UNO-4")
def test_window_closes_at_the_end_of_the_round():
    g = make([["R7", "R5"], ["R2"], ["R4", "B4", "G4"]], ["R3"])
    g.play("R7")
    assert g.exposed == (0,)
    g.play("R2")  # seat 1 goes out
    assert g.phase is Phase.ROUND_OVER
    assert g.exposed == ()
    rejected(g, "catch:0", seat=2)


@pytest.mark.rule("CL-UNO-4")
def test_catches_and_calls_do_not_close_other_windows():
    g = make([["R5"], ["G5"], ["R4", "B4", "G4"], ["Y1"]], ["R3"], active=2, exposed=[0, 1, 3],
             draw=DRAW)
    g.play("catch:0", seat=2)
    assert g.exposed == (1, 3)
    g.play("uno", seat=1)
    assert g.exposed == (3,)
    g.play("catch:3", seat=1)
    assert hands(g) == ["R5 G5 G6", "G5", "R4 B4 G4", "Y1 G7 G8"]
    assert g.active_seat == 2


# ---------------------------------------------------------------------------------------------
# CL-UNO-5 catching


@pytest.mark.rule("CL-UNO-5")
def test_catch_by_a_seat_that_is_not_active():
    g = exposed_seat0()
    ev = g.play("catch:0", seat=2)
    assert ev == [Caught(2, 0, 2), Drew(0, 2, "catch"), DrewCards(0, cards("G5 G6"))]
    assert hands(g) == ["R5 G5 G6", "R2 Y2 B2", "R4 B4 G4"]
    assert g.exposed == ()
    assert g.active_seat == 1 and g.phase is Phase.PLAY


@pytest.mark.rule("CL-UNO-5")
def test_catch_by_the_active_seat_with_uno_penalty_four():
    g = exposed_seat0(Ruleset(uno_penalty=4))
    rejected(g, "catch:0", error=InvalidActionError)  # the catcher must be named
    g.play("catch:0", seat=g.active_seat)
    assert hands(g)[0] == "R5 G5 G6 G7 G8"
    assert g.active_seat == 1


@pytest.mark.rule("CL-UNO-5")
def test_catching_is_not_offered_with_uno_penalty_zero():
    g = exposed_seat0(Ruleset(uno_penalty=0))
    assert "catch:0" not in g.legal_actions_for(1)
    assert "catch:0" not in g.legal_actions_for(2)
    rejected(g, "catch:0", seat=2)


@pytest.mark.rule("CL-UNO-5")
def test_a_seat_cannot_catch_itself():
    g = exposed_seat0(Ruleset(false_catch_penalty=2))
    assert "catch:0" not in g.legal_actions_for(0)
    rejected(g, "catch:0", seat=0)


# ---------------------------------------------------------------------------------------------
# CL-UNO-6 false catches


@pytest.mark.rule("CL-UNO-6")
def test_catch_of_a_seat_that_called_is_rejected():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    g.play("R7!")
    rejected(g, "catch:0", seat=1)
    rejected(g, "catch:1", seat=2)


@pytest.mark.rule("CL-UNO-6")
def test_false_catch_with_penalty_makes_the_catcher_draw():
    g = make([["R7", "R5", "G1"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"],
             ruleset=Ruleset(false_catch_penalty=2), draw=DRAW)
    ev = g.play("catch:0", seat=2)
    assert ev == [FalseCatch(2, 0, 2), Drew(2, 2, "false_catch"), DrewCards(2, cards("G5 G6"))]
    assert hands(g) == ["R7 R5 G1", "R2 Y2 B2", "R4 B4 G4 G5 G6"]
    assert g.active_seat == 0 and g.phase is Phase.PLAY
    assert g.actions[-1] == (2, Catch(0))


@pytest.mark.rule("CL-UNO-6")
def test_late_catch_of_the_same_exposure_is_simply_rejected():
    g = exposed_seat0(Ruleset(false_catch_penalty=2))
    g.play("catch:0", seat=1)
    assert hands(g)[0] == "R5 G5 G6"
    rejected(g, "catch:0", seat=2)
    assert hands(g)[2] == "R4 B4 G4"


@pytest.mark.rule("CL-UNO-6")
def test_false_catch_of_a_seat_not_in_the_round_is_rejected():
    g = make([["R7", "R5", "G1"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"], []], ["R3"],
             ruleset=Ruleset(scoring="elimination", false_catch_penalty=2), eliminated=[3])
    rejected(g, "catch:3", seat=1)


# ---------------------------------------------------------------------------------------------
# CL-UNO-7 the duty arises afresh


@pytest.mark.rule("CL-UNO-7")
def test_replaced_hand_loses_its_call():
    # Seat 1 called UNO on R5; seat 0 swaps its last G2 for it: both now hold one card uncalled.
    g = make([["WS", "G2"], ["R5"], ["R4", "B4", "G4"]], ["R3"], ruleset=SWAP, called=[1])
    ev = g.play("WS:G>1")
    assert ev == [
        played(0, "WS", Color.GREEN, 1),
        HandsSwapped(0, 1),
        NewHand(0, cards("R5")),
        NewHand(1, cards("G2")),
        Exposed(0),
        Exposed(1),
    ]
    assert called(g) == []
    assert g.exposed == (0, 1)
    assert "uno" in g.legal_actions_for(1)


@pytest.mark.rule("CL-UNO-7")
def test_flagged_swap_keeps_the_player_safe_but_target_must_call_again():
    g = make([["WS", "G2"], ["R5"], ["R4", "B4", "G4"]], ["R3"], ruleset=SWAP, called=[1])
    g.play("WS:G>1!")
    assert called(g) == [0]
    assert g.exposed == (1,)


@pytest.mark.rule("CL-UNO-7")
def test_call_lost_after_drawing_then_owed_again_at_one_card():
    g = make([["R5"], ["B5", "Y2", "B2"], ["R5", "B4", "G4"]], ["B3"], called=[0], draw=["G9", "G8"])
    g.play("draw")  # G9 is not playable on B3: the turn ends, and the changed hand lost its call
    assert hands(g)[0] == "R5 G9"
    assert called(g) == []
    g.play("B5")
    g.play("R5")
    assert g.active_seat == 0
    ev = g.play("R5")
    assert ev == [played(0, "R5"), Exposed(0)]
    assert g.exposed == (0,)


@pytest.mark.rule("CL-UNO-7")
def test_shuffle_replaces_a_called_hand():
    # Seat 1 called on G1. After the shuffle (4 cards to 1, 2, 0, 1) it holds two cards and no call;
    # seat 2 ends with one card and must call afresh.
    g = make([["WX", "R1"], ["G1"], ["B1", "B2"]], ["R3"], ruleset=SHUFFLE, called=[1])
    g.play("WX:R")
    assert g.hand_sizes == (1, 2, 1)
    assert called(g) == []
    assert g.exposed == (0, 2)


# ---------------------------------------------------------------------------------------------
# CL-UNO-8 seats out of the round, and the end of the round


@pytest.mark.rule("CL-UNO-8")
def test_eliminated_seat_cannot_call_or_catch():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"], []], ["R3"],
             ruleset=Ruleset(scoring="elimination"), eliminated=[3])
    g.play("R7")
    assert g.exposed == (0,)
    assert list(g.legal_actions_for(3)) == []
    rejected(g, "catch:0", seat=3, error=NotYourTurnError)
    rejected(g, "uno", seat=3, error=NotYourTurnError)


@pytest.mark.rule("CL-UNO-8")
def test_nobody_can_call_or_catch_once_the_round_has_ended():
    g = make([["R7", "R5"], ["R2"], ["R4", "B4", "G4"]], ["R3"])
    g.play("R7")
    g.play("R2")
    assert g.phase is Phase.ROUND_OVER
    assert list(g.legal_actions_for(0)) == []
    rejected(g, "uno", seat=0)
    rejected(g, "catch:0", seat=2)


@pytest.mark.rule("CL-UNO-8")
def test_going_out_uncaught_owes_nothing():
    g = make([["R7", "R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    g.play("R7")
    assert g.exposed == (0,)
    g.play("R2")
    g.play("R4")
    g.play("R5")  # seat 0 goes out: its missed call costs nothing
    assert g.phase is Phase.ROUND_OVER
    result = g.round_result()
    assert result.winner == 0
    assert result.points == 2 + 2 + 4 + 4
    assert g.scores == (12, 0, 0)
    assert not any(isinstance(e, Caught) for e in g.events)


@pytest.mark.rule("CL-UNO-2", "CL-UNO-3", "CL-END-6")
def test_flag_on_a_last_shuffle_hands_that_deals_one_card_back():
    # WX as the last card under `shuffle`: 3 cards dealt to 1, 2, 0, so seat 0 ends with one card.
    # That play leaves exactly one card, so the UNO flag is legal on it.
    g = make([["WX"], ["G1", "G2"], ["B1"]], ["R3"], ruleset=SHUFFLE)
    assert "WX:R!" in g.legal_actions
    ev = g.play("WX:R!")
    assert ev[0] == played(0, "WX", Color.RED, uno=True)
    assert g.hand_sizes == (1, 1, 1)
    assert g.phase is Phase.PLAY and g.active_seat == 1
    assert called(g) == [0]
    assert g.exposed == (1, 2)


@pytest.mark.rule("CL-UNO-3", "CL-END-6")
def test_flag_on_a_last_shuffle_hands_that_goes_out_is_illegal():
    g = make([["WX"], ["G1"], ["B1"]], ["R3"], ruleset=SHUFFLE)
    assert "WX:R!" not in g.legal_actions
    rejected(g, "WX:R!")
    win = make([["WX"], ["G1", "G2"], ["B1"]], ["R3"], ruleset=SHUFFLE.replace(shuffle_hands_last_card="win"))
    rejected(win, "WX!")


@pytest.mark.rule("CL-UNO-3", "CL-UNO-6", "CL-UNO-8", "CL-END-7")
def test_seat_whose_last_card_is_a_roulette_takes_no_false_call_or_catch_penalty():
    # Seat 0 played its last card, a Color Roulette; while seat 1 names the color, seat 0 has gone
    # out: a false call or false catch from it is rejected, not punished with cards.
    rules = Ruleset(deck="no_mercy168", false_uno_penalty=2, false_catch_penalty=2)
    g = make([["WCR"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=rules,
             draw=["Y1", "Y9", "R9", "G3", "G7"])
    g.play("WCR")
    assert g.phase is Phase.CHOOSE_COLOR and g.active_seat == 1
    rejected(g, "uno", seat=0)
    rejected(g, "catch:2", seat=0)
    g.play("color:G")
    assert g.hand_sizes[0] == 0
    assert g.round_result().winner == 0
    assert g.round_result().hand_points == (0, 6 + 1 + 9 + 9 + 3, 12)


@pytest.mark.rule("CL-UNO-8")
def test_knocked_out_seat_cannot_call_or_catch():
    aside = ["Y0", "Y1", "Y1", "Y2", "Y2", "Y3", "Y3", "Y4", "Y4", "Y6", "Y6", "Y7", "Y7", "Y8", "Y8", "Y9",
             "Y9", "G1", "G2", "G3", "G6", "G7", "G8", "G9", "B9"]
    g = make([["R6", "R5"], [], ["R4", "B4", "G4"]], ["R3"], ruleset="no-mercy", knocked_out=[1],
             set_aside=aside, active=0)
    g.play("R6")
    assert g.exposed == (0,)
    assert g.active_seat == 2
    assert list(g.legal_actions_for(1)) == []
    rejected(g, "catch:0", seat=1, error=NotYourTurnError)
    rejected(g, "uno", seat=1, error=NotYourTurnError)
