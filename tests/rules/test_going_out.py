"""Scenario tests for going out and the last-card rules (RULES.md §7, CL-END-1 to CL-END-7).

Each test builds an exact position with ``Game.from_position``, plays the last card and checks the
exact result: hands, the round result, scores, the phase and the events.
"""
from __future__ import annotations

import pytest

from unotable import (
    Card,
    Color,
    Game,
    InvalidActionError,
    Phase,
    Ruleset,
)
from unotable.events import (
    ColorChosen,
    DirectionChanged,
    Drew,
    DrewCards,
    HandsShuffled,
    HandsSwapped,
    NewHand,
    PenaltyPending,
    Revealed,
    RoundEnded,
    Skipped,
    Slipped,
)

from scenario import cards, hands, make, played, rejected

SWAP = Ruleset(deck="classic112_swap")
SHUFFLE = Ruleset(deck="classic112_shuffle")
DRAW = ["G5", "G6", "G7", "G8", "Y1", "Y3", "Y5", "Y7"]


def assert_won(game: Game, winner: int, points: int, hand_points: tuple[int, ...]) -> None:
    assert game.phase is Phase.ROUND_OVER
    result = game.round_result()
    assert result is not None
    assert (result.winner, result.points, result.hand_points) == (winner, points, hand_points)
    assert game.events[-1] == RoundEnded(winner, points, hand_points, game.scores, ())
    assert list(game.legal_actions) == []
    assert game.seats_to_act == frozenset()


# ---------------------------------------------------------------------------------------------
# CL-END-1 going out ends the round


@pytest.mark.rule("CL-END-1")
def test_empty_hand_ends_the_round_at_once():
    g = make([["R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    ev = g.play("R5")
    assert ev == [played(0, "R5"), RoundEnded(0, 18, (0, 6, 12), (18, 0, 0), ())]
    assert_won(g, 0, 18, (0, 6, 12))
    assert g.scores == (18, 0, 0)
    assert hands(g) == ["", "R2 Y2 B2", "R4 B4 G4"]
    assert not g.is_over() and g.outcome() is None
    rejected(g, "R2", seat=1)
    rejected(g, "draw", seat=1)


@pytest.mark.rule("CL-END-1")
def test_next_round_is_dealt_after_going_out():
    g = make([["R5"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], dealer=2)
    g.play("R5")
    g.next_round()
    assert g.round_no == 2
    assert g.dealer == 0
    assert g.hand_sizes == (7, 7, 7)
    assert g.round_result() is None
    assert g.scores == (18, 0, 0)


@pytest.mark.rule("CL-END-1", "SCORE-9")
def test_partnership_team_wins_the_round():
    g = make([["R9", "G9"], ["G5", "W"], ["R5"], ["YS", "Y1"]], ["R3"], ruleset="partners", active=2)
    g.play("R5")
    result = g.round_result()
    assert result.winner == 2
    assert result.points == 5 + 50 + 20 + 1
    assert g.scores == (76, 0, 76, 0)
    assert g.phase is Phase.ROUND_OVER


# ---------------------------------------------------------------------------------------------
# CL-END-2 any card may be the last


@pytest.mark.rule("CL-END-2")
@pytest.mark.parametrize("ruleset,card,action", [
    ("official", "R5", "R5"),
    ("official", "RS", "RS"),
    ("official", "RR", "RR"),
    ("official", "RD2", "RD2"),
    ("official", "W", "W"),
    ("official", "W4", "W4"),
    (SWAP, "WS", "WS"),
    (SWAP, "WC", "WC"),
    (Ruleset(deck="classic112_blank"), "WB", "WB:G"),
    (SHUFFLE.replace(shuffle_hands_last_card="win"), "WX", "WX"),
])
def test_any_card_may_be_the_last(ruleset, card, action):
    g = make([[card], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=ruleset, draw=DRAW)
    assert action in g.legal_actions
    g.play(action)
    assert g.phase is Phase.ROUND_OVER
    assert g.round_result().winner == 0
    assert g.hand_sizes[0] == 0


# ---------------------------------------------------------------------------------------------
# CL-END-3 a last wild needs no color or target


@pytest.mark.rule("CL-END-3")
def test_last_wild_needs_no_color():
    g = make([["W"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    assert "W" in g.legal_actions
    ev = g.play("W")
    assert ev[0] == played(0, "W")
    assert_won(g, 0, 18, (0, 6, 12))


@pytest.mark.rule("CL-END-3")
def test_a_wild_that_is_not_the_last_card_still_needs_a_color():
    g = make([["W", "G1"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    assert "W" not in g.legal_actions
    rejected(g, "W", error=InvalidActionError)


@pytest.mark.rule("CL-END-3")
def test_last_wild_color_is_recorded_without_effect():
    g = make([["W"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    ev = g.play("W:B")
    assert ev == [played(0, "W", Color.BLUE), RoundEnded(0, 18, (0, 6, 12), (18, 0, 0), ())]
    assert g.actions[-1][1].color is Color.BLUE


@pytest.mark.rule("CL-END-3", "CL-END-5")
def test_last_swap_hands_target_is_recorded_without_swap():
    g = make([["WS"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=SWAP)
    ev = g.play("WS:R>2")
    assert ev == [played(0, "WS", Color.RED, 2), RoundEnded(0, 18, (0, 6, 12), (18, 0, 0), ())]
    assert hands(g) == ["", "R2 Y2 B2", "R4 B4 G4"]


# ---------------------------------------------------------------------------------------------
# CL-END-4 last-card penalties are drawn at once


@pytest.mark.rule("CL-END-4")
def test_last_draw_two_is_drawn_at_once_and_counts():
    g = make([["RD2"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], draw=DRAW)
    ev = g.play("RD2")
    assert ev == [
        played(0, "RD2"),
        Drew(1, 2, "penalty"),
        DrewCards(1, cards("G5 G6")),
        RoundEnded(0, 6 + 11 + 12, (0, 17, 12), (29, 0, 0), ()),
    ]
    assert hands(g)[1] == "R2 Y2 B2 G5 G6"
    assert g.pending_penalty == 0


@pytest.mark.rule("CL-END-4")
def test_last_draw_two_allows_no_stacking():
    g = make([["RD2"], ["GD2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"],
             ruleset=Ruleset(stacking="same_kind"), draw=DRAW)
    g.play("RD2")
    assert g.phase is Phase.ROUND_OVER
    assert hands(g)[1] == "GD2 Y2 B2 G5 G6"
    assert g.round_result().points == 24 + 11 + 12


@pytest.mark.rule("CL-END-4")
def test_last_wd4_cannot_be_challenged():
    # Under the official challenge rule, a last-card WD4 gets no response phase: the victim
    # (counter-clockwise, seat 2) draws 4 at once, and there is nothing left to challenge.
    g = make([["W4"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], direction=-1, draw=DRAW)
    ev = g.play("W4:G")
    assert ev[:3] == [played(0, "W4", Color.GREEN), Drew(2, 4, "penalty"), DrewCards(2, cards("G5 G6 G7 G8"))]
    assert not any(isinstance(e, PenaltyPending) for e in ev)
    assert hands(g)[2] == "R4 B4 G4 G5 G6 G7 G8"
    assert_won(g, 0, 6 + 12 + 26, (0, 6, 38))
    rejected(g, "challenge", seat=2)


@pytest.mark.rule("CL-END-4")
def test_last_card_stacking_response_sends_the_full_total_at_once():
    g = make([["G1", "G2"], ["GD2"], ["R4", "B4", "G4"]], ["RD2"], ruleset=Ruleset(stacking="same_kind"),
             phase="respond", active=1, pending={"total": 2, "card": "RD2"}, top_player=0, draw=DRAW)
    ev = g.play("GD2")
    assert ev[:3] == [played(1, "GD2"), Drew(2, 4, "penalty"), DrewCards(2, cards("G5 G6 G7 G8"))]
    assert_won(g, 1, 3 + 12 + 26, (3, 0, 38))


@pytest.mark.rule("CL-END-4")
def test_last_card_bounce_reverse_sends_the_total_back():
    g = make([["G1", "G2"], ["RR"], ["R4", "B4", "G4"]], ["RD2"], ruleset=Ruleset(bounce_draw_two=True),
             phase="respond", active=1, pending={"total": 2, "card": "RD2"}, top_player=0, draw=DRAW)
    ev = g.play("RR")
    assert ev == [
        played(1, "RR"),
        DirectionChanged(-1),
        Drew(0, 2, "penalty"),
        DrewCards(0, cards("G5 G6")),
        RoundEnded(1, 3 + 11 + 12, (14, 0, 12), (0, 26, 0), ()),
    ]


@pytest.mark.rule("CL-END-4")
def test_last_card_bounce_skip_moves_the_total_on():
    g = make([["G1", "G2"], ["RS"], ["R4", "B4", "G4"]], ["RD2"], ruleset=Ruleset(bounce_draw_two=True),
             phase="respond", active=1, pending={"total": 2, "card": "RD2"}, top_player=0, draw=DRAW)
    g.play("RS")
    assert hands(g) == ["G1 G2", "", "R4 B4 G4 G5 G6"]
    assert g.round_result().winner == 1


@pytest.mark.rule("CL-END-4")
def test_last_card_defense_cancels_the_wd4_and_sets_two():
    g = make([["G1", "G2"], ["GD2"], ["R4", "B4", "G4"]], ["W4"], color="G",
             ruleset=Ruleset(defend_wd4_with_draw_two=True), phase="respond", active=1,
             pending={"total": 4, "card": "W4"}, top_player=0,
             wd4={"player": 0, "illegal": True, "hand": ["G1", "G2"]}, draw=DRAW)
    g.play("GD2")
    assert hands(g) == ["G1 G2", "", "R4 B4 G4 G5 G6"]
    assert g.round_result().winner == 1


# ---------------------------------------------------------------------------------------------
# CL-END-5 last card Wild Swap Hands


@pytest.mark.rule("CL-END-5")
def test_last_swap_hands_wins_by_default():
    g = make([["WS"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=SWAP)
    assert "WS" in g.legal_actions
    ev = g.play("WS")
    assert not any(isinstance(e, HandsSwapped) for e in ev)
    assert hands(g) == ["", "R2 Y2 B2", "R4 B4 G4"]
    assert_won(g, 0, 18, (0, 6, 12))


@pytest.mark.rule("CL-END-5")
def test_last_swap_hands_swap_makes_the_target_win():
    rules = SWAP.replace(swap_hands_last_card="swap")
    g = make([["WS"], ["R2", "Y2", "B2"], ["R4", "G4"]], ["R3"], ruleset=rules)
    ev = g.play("WS>2")
    assert ev == [
        played(0, "WS", None, 2),
        HandsSwapped(0, 2),
        NewHand(0, cards("R4 G4")),
        NewHand(2, ()),
        RoundEnded(2, 8 + 6, (8, 6, 0), (0, 0, 14), ()),
    ]
    assert hands(g) == ["R4 G4", "R2 Y2 B2", ""]
    assert g.round_result().winner == 2


@pytest.mark.rule("CL-END-5")
def test_last_swap_hands_swap_needs_a_target():
    g = make([["WS"], ["R2", "Y2", "B2"], ["R4", "G4"]], ["R3"],
             ruleset=SWAP.replace(swap_hands_last_card="swap"))
    assert "WS" not in g.legal_actions and "WS:R" not in g.legal_actions
    rejected(g, "WS", error=InvalidActionError)
    rejected(g, "WS:R", error=InvalidActionError)


# ---------------------------------------------------------------------------------------------
# CL-END-6 last card Wild Shuffle Hands


@pytest.mark.rule("CL-END-6")
def test_last_shuffle_hands_goes_out_when_dealt_nothing():
    # 2 cards dealt to seats 1 and 2: seat 0 gets none and wins.
    g = make([["WX"], ["G1"], ["B1"]], ["R3"], ruleset=SHUFFLE)
    ev = g.play("WX:R")
    assert ev[1] == HandsShuffled(0, (0, 1, 1))
    assert g.hand_sizes == (0, 1, 1)
    assert sorted(str(c) for c in g.hand(1) + g.hand(2)) == ["B1", "G1"]
    assert g.phase is Phase.ROUND_OVER
    assert g.round_result().winner == 0
    assert g.round_result().points == 2


@pytest.mark.rule("CL-END-6")
def test_last_shuffle_hands_play_goes_on_when_dealt_a_card():
    # 3 cards dealt to 1, 2, 0: seat 0 gets one card back and the round goes on at seat 1.
    g = make([["WX"], ["G1", "G2"], ["B1"]], ["R3"], ruleset=SHUFFLE)
    g.play("WX:Y")
    assert g.hand_sizes == (1, 1, 1)
    assert g.phase is Phase.PLAY
    assert g.active_seat == 1
    assert g.current_color is Color.YELLOW
    assert g.round_result() is None
    assert g.exposed == (0, 1, 2)


@pytest.mark.rule("CL-END-6")
def test_last_shuffle_hands_win_option_shuffles_nothing():
    g = make([["WX"], ["G1", "G2"], ["B1"]], ["R3"], ruleset=SHUFFLE.replace(shuffle_hands_last_card="win"))
    ev = g.play("WX")
    assert not any(isinstance(e, HandsShuffled) for e in ev)
    assert hands(g) == ["", "G1 G2", "B1"]
    assert_won(g, 0, 4, (0, 3, 1))


# ---------------------------------------------------------------------------------------------
# CL-END-7 other last cards


@pytest.mark.rule("CL-END-7")
def test_last_seven_has_no_effect():
    rules = Ruleset(seven_zero=True)
    g = make([["R7"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=rules)
    assert "R7" in g.legal_actions and "R7>1" in g.legal_actions
    ev = g.play("R7>1")
    assert not any(isinstance(e, HandsSwapped) for e in ev)
    assert hands(g) == ["", "R2 Y2 B2", "R4 B4 G4"]
    assert_won(g, 0, 18, (0, 6, 12))


@pytest.mark.rule("CL-END-7")
def test_last_zero_passes_no_hands():
    g = make([["R0"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset=Ruleset(seven_zero=True))
    ev = g.play("R0")
    assert ev == [played(0, "R0"), RoundEnded(0, 18, (0, 6, 12), (18, 0, 0), ())]
    assert hands(g) == ["", "R2 Y2 B2", "R4 B4 G4"]


@pytest.mark.rule("CL-END-7")
def test_last_customizable_others_draw_two_still_draw_and_count():
    g = make([["WC"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"],
             ruleset=SWAP.replace(custom_effect="others_draw_2"), draw=DRAW)
    ev = g.play("WC")
    assert ev[1:5] == [Drew(1, 2, "custom"), DrewCards(1, cards("G5 G6")),
                       Drew(2, 2, "custom"), DrewCards(2, cards("G7 G8"))]
    assert hands(g) == ["", "R2 Y2 B2 G5 G6", "R4 B4 G4 G7 G8"]
    assert_won(g, 0, 17 + 27, (0, 17, 27))


@pytest.mark.rule("CL-END-7")
@pytest.mark.parametrize("effect", ["others_discard_wilds", "extra_turn"])
def test_last_customizable_other_effects_do_not_happen(effect):
    g = make([["WC"], ["W", "Y2"], ["R4", "WC"]], ["R3"], ruleset=SWAP.replace(custom_effect=effect))
    ev = g.play("WC:R")
    assert not any(isinstance(e, Slipped) for e in ev)
    assert hands(g) == ["", "W Y2", "R4 WC"]
    assert_won(g, 0, 52 + 44, (0, 52, 44))


@pytest.mark.rule("CL-END-7")
@pytest.mark.parametrize("card", ["RS", "RR"])
def test_last_skip_or_reverse_has_no_further_effect(card):
    g = make([[card], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"])
    ev = g.play(card)
    assert ev == [played(0, card), RoundEnded(0, 18, (0, 6, 12), (18, 0, 0), ())]
    assert g.direction == 1
    assert not any(isinstance(e, Skipped | DirectionChanged) for e in ev)


@pytest.mark.rule("CL-END-7")
@pytest.mark.parametrize("card", ["RSE", "RDA", "RS", "RR"])
def test_no_mercy_last_action_cards_have_no_further_effect(card):
    g = make([[card], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset="no-mercy")
    ev = g.play(card)
    assert ev == [played(0, card), RoundEnded(0, 18, (0, 6, 12), (18, 0, 0), ())]
    assert g.direction == 1


@pytest.mark.rule("CL-END-7")
def test_last_color_roulette_is_resolved_before_scoring():
    g = make([["WCR"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset="no-mercy",
             draw=["Y1", "WCR", "R9", "G3", "G7"])
    ev = g.play("WCR")
    assert ev == [played(0, "WCR")]
    assert g.phase is Phase.CHOOSE_COLOR
    assert g.active_seat == 1
    assert g.round_result() is None
    ev = g.play("color:G")
    assert ev == [
        ColorChosen(1, Color.GREEN),
        Revealed(1, Card.parse("Y1")),
        Revealed(1, Card.parse("WCR")),
        Revealed(1, Card.parse("R9")),
        Revealed(1, Card.parse("G3")),
        RoundEnded(0, 6 + 1 + 50 + 9 + 3 + 12, (0, 69, 12), (81, 0, 0), ()),
    ]
    assert hands(g)[1] == "R2 Y2 B2 Y1 WCR R9 G3"
    assert g.current_color is Color.GREEN
    assert g.round_result().winner == 0


@pytest.mark.rule("CL-END-4")
def test_no_mercy_two_seat_last_wrd4_makes_the_opponent_draw():
    g = make([["WR4"], ["R2", "Y2", "B2"]], ["R3"], ruleset="no-mercy", draw=DRAW)
    ev = g.play("WR4")
    assert ev[1:4] == [DirectionChanged(-1), Drew(1, 4, "penalty"), DrewCards(1, cards("G5 G6 G7 G8"))]
    assert hands(g) == ["", "R2 Y2 B2 G5 G6 G7 G8"]
    assert_won(g, 0, 6 + 26, (0, 32))


@pytest.mark.rule("CL-END-4")
def test_no_mercy_last_wrd4_with_three_seats_hits_the_seat_in_the_new_direction():
    g = make([["WR4"], ["R2", "Y2", "B2"], ["R4", "B4", "G4"]], ["R3"], ruleset="no-mercy", draw=DRAW)
    g.play("WR4:B")
    assert hands(g) == ["", "R2 Y2 B2", "R4 B4 G4 G5 G6 G7 G8"]
    assert_won(g, 0, 6 + 38, (0, 6, 38))
