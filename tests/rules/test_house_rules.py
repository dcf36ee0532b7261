"""Scenario tests for the house rules of RULES.md §9 (HOUSE-1 to HOUSE-14) in classic play.

Also here: TWO-6 (the two-seat bounce, 7 and 0), NET-7 (response phases are prompted whatever
the victim holds) and PRESET-7 (the ``house`` preset in play). Every test builds an exact
position with ``Game.from_position``, plays actions and asserts the exact outcome; every rejected
action is checked to leave ``game.to_position()`` unchanged (GEN-2).
"""
from __future__ import annotations

from typing import Any

import pytest

from unotable import Game, Ruleset
from unotable.cards import Card, Color, Rank
from unotable.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from unotable.events import (
    CardPlayed,
    Caught,
    Challenged,
    ChallengeReveal,
    DirectionChanged,
    Drew,
    DrewCards,
    Exposed,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsSwapped,
    NewHand,
    Passed,
    PenaltyPending,
    RoundEnded,
    Skipped,
)
from unotable.game import Phase

from scenario import cards, legal, make
from scenario import hand_lists as hands
from scenario import rejected as reject

C = Card.parse
R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE
FILLER = ["G1", "G2", "G3", "G4", "G6", "G7", "G8", "G9", "Y1", "Y2", "Y3", "Y4"]


def rules(**options: Any) -> dict[str, Any]:
    """The official ruleset with some options changed, as a position's ruleset dict."""
    return Ruleset.preset("official").replace(**options).to_dict()


# ---------------------------------------------------------------------------------------------
# HOUSE-1 stacking modes, HOUSE-2 the stacking play, HOUSE-3 stack_sum


@pytest.mark.rule("HOUSE-1", "HOUSE-2")
def test_same_kind_stacks_draw_two_on_draw_two_of_any_color() -> None:
    g = make(
        [["RD2", "G5", "Y7"], ["BD2", "B3", "W4"], ["Y1", "Y2", "G9"]],
        ["R1"],
        rules(stacking="same_kind"),
        draw=FILLER,
    )
    ev = g.play("RD2")
    assert ev == [CardPlayed(0, C("RD2")), PenaltyPending(1, 2)]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 1, 2)
    # HOUSE-1 same_kind: a Draw Two of another color stacks; a WD4 never goes on a Draw Two.
    assert legal(g) == {"accept", "BD2"}
    reject(g, "W4:R")
    reject(g, "B3")
    ev = g.play("BD2")
    # HOUSE-2: played normally (its color becomes current), the total moves on to next(responder).
    assert ev == [CardPlayed(1, C("BD2")), PenaltyPending(2, 4)]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 2, 4)
    assert (g.top_card, g.current_color) == (C("BD2"), B)
    assert legal(g) == {"accept"}
    ev = g.play("accept")
    assert ev == [Drew(2, 4, "penalty"), DrewCards(2, cards("G1", "G2", "G3", "G4"))]
    assert hands(g) == [["G5", "Y7"], ["B3", "W4"], ["Y1", "Y2", "G9", "G1", "G2", "G3", "G4"]]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.PLAY, 0, 0)


@pytest.mark.rule("HOUSE-1", "HOUSE-2")
def test_same_kind_stacks_wd4_on_wd4_and_never_a_draw_two_on_a_wd4() -> None:
    g = make(
        [["W4", "R5", "Y7"], ["W4", "GD2", "RD2", "B3"], ["Y1", "Y2", "G9"]],
        ["B1"],
        rules(stacking="same_kind"),
        draw=FILLER,
    )
    g.play("W4:G")
    assert (g.phase, g.active_seat, g.pending_penalty, g.current_color) == (Phase.RESPOND, 1, 4, G)
    assert legal(g) == {"accept", "challenge", "W4:R", "W4:Y", "W4:G", "W4:B"}
    reject(g, "GD2")
    reject(g, "RD2")
    ev = g.play("W4:Y")
    # HOUSE-2: a wild's player names the color; the total moves to next(responder).
    assert ev == [CardPlayed(1, C("W4"), Y), PenaltyPending(2, 8)]
    assert (g.phase, g.active_seat, g.pending_penalty, g.current_color) == (Phase.RESPOND, 2, 8, Y)
    g.play("accept")
    assert hands(g)[2] == ["Y1", "Y2", "G9", *FILLER[:8]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("HOUSE-1", "HOUSE-3")
def test_plus4_on_plus2_stacks_a_wd4_on_a_draw_two_but_not_the_reverse() -> None:
    g = make(
        [["RD2", "G5", "Y7"], ["W4", "B3", "B4"], ["GD2", "Y2", "G9"]],
        ["R1"],
        rules(stacking="plus4_on_plus2"),
        draw=FILLER,
    )
    g.play("RD2")
    assert legal(g) == {"accept", "W4:R", "W4:Y", "W4:G", "W4:B"}
    ev = g.play("W4:B")
    assert ev == [CardPlayed(1, C("W4"), B), PenaltyPending(2, 6)]
    # A Draw Two never goes on a value-4 card.
    assert legal(g) == {"accept", "challenge"}
    reject(g, "GD2")
    g.play("accept")
    assert len(g.hand(2)) == 3 + 6
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


# (mode, penalty card) -> the victim's legal actions; the victim holds GD2, W4 and R5.
STACK_TABLE = {
    ("same_kind", "RD2"): {"accept", "GD2"},
    ("same_kind", "W4:R"): {"accept", "challenge", "W4:R", "W4:Y", "W4:G", "W4:B"},
    ("plus4_on_plus2", "RD2"): {"accept", "GD2", "W4:R", "W4:Y", "W4:G", "W4:B"},
    ("plus4_on_plus2", "W4:R"): {"accept", "challenge", "W4:R", "W4:Y", "W4:G", "W4:B"},
    ("by_value", "RD2"): {"accept", "GD2", "W4:R", "W4:Y", "W4:G", "W4:B"},
    ("by_value", "W4:R"): {"accept", "challenge", "W4:R", "W4:Y", "W4:G", "W4:B"},
    ("none", "W4:R"): {"accept", "challenge"},
}


@pytest.mark.rule("HOUSE-1")
@pytest.mark.parametrize(("mode", "card"), list(STACK_TABLE))
def test_stacking_modes_offer_exactly_their_responses(mode: str, card: str) -> None:
    # by_value on the classic deck equals plus4_on_plus2; color and number never matter.
    g = make(
        [["RD2", "W4", "Y7", "Y8"], ["GD2", "W4", "R5"], ["Y1", "Y2", "G9"]],
        ["R1"],
        rules(stacking=mode),
        draw=FILLER,
    )
    g.play(card)
    assert (g.phase, g.active_seat) == (Phase.RESPOND, 1)
    assert legal(g) == STACK_TABLE[mode, card]
    reject(g, "R5")
    reject(g, "draw")


@pytest.mark.rule("HOUSE-1", "NET-7")
def test_stacking_none_applies_a_draw_two_at_once() -> None:
    g = make([["RD2", "G5", "Y7"], ["GD2", "RD2", "B3"], ["Y1", "Y2", "G9"]], ["R1"], rules(), draw=FILLER)
    ev = g.play("RD2")
    assert ev == [CardPlayed(0, C("RD2")), PenaltyPending(1, 2), Drew(1, 2, "penalty"),
                  DrewCards(1, cards("G1", "G2"))]
    assert hands(g)[1] == ["GD2", "RD2", "B3", "G1", "G2"]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.PLAY, 2, 0)


@pytest.mark.rule("HOUSE-2")
def test_stacked_penalty_moves_to_next_responder_against_the_direction() -> None:
    g = make(
        [["Y1", "Y2", "Y3"], ["GD2", "B4", "B5"], ["RD2", "B6", "B7"], ["G5", "G6", "G7"]],
        ["R1"],
        rules(stacking="same_kind"),
        active=2,
        direction=-1,
        draw=FILLER,
    )
    g.play("RD2")
    assert (g.active_seat, g.pending_penalty) == (1, 2)
    ev = g.play("GD2")
    assert ev == [CardPlayed(1, C("GD2")), PenaltyPending(0, 4)]
    assert (g.phase, g.active_seat, g.current_color, g.direction) == (Phase.RESPOND, 0, G, -1)
    g.play("accept")
    assert len(g.hand(0)) == 7
    assert (g.phase, g.active_seat) == (Phase.PLAY, 3)


@pytest.mark.rule("HOUSE-3")
@pytest.mark.parametrize(("stack_sum", "drawn"), [(True, 6), (False, 2)])
def test_stack_sum_decides_what_the_last_victim_draws(stack_sum: bool, drawn: int) -> None:
    g = make(
        [["RD2", "Y1", "Y2"], ["BD2", "B4", "B5"], ["GD2", "B6", "B7"], ["R5", "G6", "G7"]],
        ["R1"],
        rules(stacking="same_kind", stack_sum=stack_sum),
        draw=FILLER,
    )
    g.play("RD2")
    assert g.pending_penalty == 2
    g.play("BD2")
    assert g.pending_penalty == (4 if stack_sum else 2)
    ev = g.play("GD2")
    assert ev[-1] == PenaltyPending(3, drawn)
    assert (g.active_seat, g.pending_penalty) == (3, drawn)
    ev = g.play("accept")
    assert ev == [Drew(3, drawn, "penalty"), DrewCards(3, cards(*FILLER[:drawn]))]
    assert hands(g)[3] == ["R5", "G6", "G7", *FILLER[:drawn]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("HOUSE-3")
def test_stack_sum_false_takes_the_value_of_the_last_card_not_the_larger() -> None:
    g = make(
        [["RD2", "Y1", "Y2"], ["W4", "B4", "B5"], ["G5", "B6", "B7"]],
        ["R1"],
        rules(stacking="plus4_on_plus2", stack_sum=False),
        draw=FILLER,
    )
    g.play("RD2")
    g.play("W4:G")
    assert (g.active_seat, g.pending_penalty) == (2, 4)
    g.play("accept")
    assert hands(g)[2] == ["G5", "B6", "B7", "G1", "G2", "G3", "G4"]


# ---------------------------------------------------------------------------------------------
# HOUSE-4: no stacking on a first-card Draw Two or a last-card penalty; a stack is drawn exactly


@pytest.mark.rule("HOUSE-4", "PRESET-7")
def test_first_card_draw_two_allows_no_stack() -> None:
    for seed in range(3000):
        g = Game.new(seats=3, ruleset="house", seed=seed)
        first = [e for e in g.events if isinstance(e, FirstCard)][-1].card
        if first.rank is not Rank.DRAW_TWO:
            continue
        player = (g.dealer + 1) % 3
        dealt = next(e.cards for e in g.events if isinstance(e, HandDealt) and e.seat == player)
        if any(c.rank is Rank.DRAW_TWO for c in dealt):
            break
    else:  # pragma: no cover - the seeds above contain such a deal
        pytest.fail("no seed deals a first-card Draw Two to a seat holding a Draw Two")
    # The first player held a Draw Two, yet was never asked: it drew 2 at once and lost its turn.
    assert not any(isinstance(e, PenaltyPending) and e.total != 2 for e in g.events)
    drew = [e for e in g.events if isinstance(e, Drew)]
    assert drew == [Drew(player, 2, "penalty")]
    assert len(g.hand(player)) == 9
    assert list(g.hand(player)[:7]) == list(dealt)
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.PLAY, (player + 1) % 3, 0)


@pytest.mark.rule("HOUSE-4", "CL-END-4")
def test_last_card_stack_is_drawn_at_once_without_response() -> None:
    g = make(
        [["RD2", "Y1", "Y2"], ["BD2"], ["GD2", "G5", "Y9"]],
        ["R1"],
        rules(stacking="same_kind"),
        draw=["B1", "B2", "B3", "B4", "B5"],
        called=[1],
    )
    g.play("RD2")
    ev = g.play("BD2")
    # Seat 2 holds a Draw Two but is not asked: it draws the total at once, and the round ends.
    # The drawn cards count: seat 0 holds Y1 Y2 (3), seat 2 GD2 G5 Y9 B1 B2 B3 B4 (44).
    assert ev == [
        CardPlayed(1, C("BD2")),
        Drew(2, 4, "penalty"),
        DrewCards(2, cards("B1", "B2", "B3", "B4")),
        RoundEnded(1, 47, (3, 0, 44), (0, 47, 0)),
    ]
    assert g.phase is Phase.ROUND_OVER
    assert hands(g)[2] == ["GD2", "G5", "Y9", "B1", "B2", "B3", "B4"]
    result = g.round_result()
    assert result is not None and (result.winner, result.points) == (1, 47)
    assert g.scores == (0, 47, 0)


@pytest.mark.rule("HOUSE-4", "PRESET-7")
def test_accepting_a_stack_draws_the_total_only_even_with_draw_until_playable() -> None:
    g = make(
        [["RD2", "Y1", "Y2"], ["BD2", "B4", "B5"], ["Y6", "Y7", "Y8"]],
        ["R1"],
        "house",
        draw=["G1", "G2", "G3", "G4", "B9", "Y9"],
    )
    g.play("RD2")
    g.play("BD2")
    ev = g.play("accept")
    # None of G1..G4 is playable on BD2 (blue), yet the draw stops at the total.
    assert ev == [Drew(2, 4, "penalty"), DrewCards(2, cards("G1", "G2", "G3", "G4"))]
    assert (g.phase, g.active_seat, g.draw_pile_size) == (Phase.PLAY, 0, 2)


# ---------------------------------------------------------------------------------------------
# HOUSE-5: stacking with challenges


def wd4_table(**options: Any) -> dict[str, Any]:
    return rules(stacking="same_kind", **options)


@pytest.mark.rule("HOUSE-5")
def test_victim_may_challenge_or_stack_not_both_and_a_stacked_wd4_is_judged_on_its_own_color() -> None:
    g = make(
        [["W4", "R5", "Y6"], ["W4", "G2", "Y9"], ["R7", "Y3", "B8"]],
        ["B3"],
        wd4_table(),
        draw=FILLER,
    )
    g.play("W4:G")  # legal: seat 0 holds no blue
    assert {"challenge", "W4:R"} <= legal(g)
    g.play("W4:R")  # seat 1 holds G2 while green is current: this WD4 is illegal
    # Seat 1 made its one response and cannot also challenge.
    reject(g, "challenge", seat=1, error=NotYourTurnError)
    assert (g.active_seat, g.pending_penalty, g.current_color) == (2, 8, R)
    ev = g.play("challenge")
    assert ev == [
        Challenged(2, 1, True),
        ChallengeReveal(2, 1, cards("G2", "Y9")),
        Drew(1, 8, "challenge"),
        DrewCards(1, cards(*FILLER[:8])),
    ]
    # Guilty: the stacker draws the whole total; the challenger plays on the WD4's red.
    assert hands(g) == [["R5", "Y6"], ["G2", "Y9", *FILLER[:8]], ["R7", "Y3", "B8"]]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.PLAY, 2, 0)
    assert (g.top_card, g.current_color) == (C("W4"), R)


@pytest.mark.rule("HOUSE-5")
def test_only_the_top_wd4_is_challenged_and_a_failed_challenger_draws_total_plus_two() -> None:
    g = make(
        [["W4", "B5", "Y6"], ["W4", "R2", "Y9"], ["R7", "Y3", "B8"]],
        ["B3"],
        wd4_table(),
        draw=FILLER,
    )
    g.play("W4:G")  # illegal: seat 0 holds B5 while blue is current
    g.play("W4:R")  # legal: seat 1 holds no green
    ev = g.play("challenge")
    assert ev[0] == Challenged(2, 1, False)
    assert ev[2] == Drew(2, 10, "challenge")
    assert hands(g) == [["B5", "Y6"], ["R2", "Y9"], ["R7", "Y3", "B8", *FILLER[:10]]]
    assert (g.phase, g.active_seat, g.top_card, g.current_color) == (Phase.PLAY, 0, C("W4"), R)


@pytest.mark.rule("HOUSE-5")
def test_wd4_stacked_on_a_draw_two_is_judged_against_the_draw_twos_color() -> None:
    g = make(
        [["RD2", "B5", "Y6"], ["W4", "R2", "Y9"], ["G7", "Y3", "B8"]],
        ["R3"],
        rules(stacking="plus4_on_plus2"),
        draw=FILLER,
    )
    g.play("RD2")
    g.play("W4:B")  # seat 1 holds R2 while red is current: illegal
    assert legal(g) == {"accept", "challenge"}
    ev = g.play("challenge")
    assert ev[:3] == [
        Challenged(2, 1, True),
        ChallengeReveal(2, 1, cards("R2", "Y9")),
        Drew(1, 6, "challenge"),
    ]
    assert len(g.hand(1)) == 2 + 6
    assert (g.phase, g.active_seat, g.current_color) == (Phase.PLAY, 2, B)


@pytest.mark.rule("HOUSE-5")
def test_no_challenge_when_the_top_draw_card_is_a_draw_two() -> None:
    g = make([["RD2", "B5", "Y6"], ["W4", "R2", "Y9"], ["G7", "Y3"]], ["R3"],
             rules(stacking="same_kind"), draw=FILLER)
    g.play("RD2")
    assert legal(g) == {"accept"}
    reject(g, "challenge")


# ---------------------------------------------------------------------------------------------
# HOUSE-6 to HOUSE-8: jump-in

JUMP = rules(jump_in=True)


def jump_table(**fields: Any) -> Game:
    """Seat 0 placed R5, seat 1 is to play; seat 2 holds an identical R5, seat 3 a G5."""
    doc: dict[str, Any] = {
        "hands": [["G1", "G2", "G3"], ["B1", "B2", "B3"], ["R5", "Y1", "Y2"], ["G5", "Y3", "Y4"]],
        "discard": ["R3", "R5"],
        "active": 1,
        "top_player": 0,
        "draw": FILLER,
    }
    doc.update(fields)
    return make(doc.pop("hands"), doc.pop("discard"), doc.pop("ruleset", JUMP), **doc)


@pytest.mark.rule("HOUSE-6", "HOUSE-7")
def test_identical_card_jumps_in_and_play_continues_from_the_jumper() -> None:
    g = jump_table()
    assert "R5" in legal(g, 2)
    assert g.seats_to_act == frozenset({1, 2})
    ev = g.play("R5", seat=2)
    assert ev == [CardPlayed(2, C("R5"), jump_in=True)]
    # Seat 1 loses its turn; next(jumper) plays.
    assert hands(g) == [["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2"], ["G5", "Y3", "Y4"]]
    assert (g.phase, g.active_seat, g.top_card) == (Phase.PLAY, 3, C("R5"))


@pytest.mark.rule("HOUSE-6")
def test_jump_in_refused_for_a_card_that_is_not_identical_or_the_seat_that_placed_the_top() -> None:
    g = jump_table()
    reject(g, "G5", seat=3, error=NotYourTurnError)  # same number, other color
    assert legal(g, 3) == set()
    # The seat that placed the top card may not jump in on it.
    g = jump_table(hands=[["R5", "G1", "G2"], ["B1", "B2", "B3"], ["Y5", "Y1", "Y2"], ["G5", "Y3", "Y4"]])
    assert legal(g, 0) == set()
    reject(g, "R5", seat=0, error=NotYourTurnError)


@pytest.mark.rule("HOUSE-6")
def test_jump_in_off_by_default() -> None:
    g = jump_table(ruleset=rules())
    assert legal(g, 2) == set()
    reject(g, "R5", seat=2, error=NotYourTurnError)


@pytest.mark.rule("HOUSE-6")
def test_wild_cards_never_jump_in() -> None:
    g = make([["W", "G1", "G2"], ["B1", "B2", "B3"], ["W", "Y1", "Y2"]], ["R3", "W"], JUMP,
             color="G", active=1, top_player=0, draw=FILLER)
    assert legal(g, 2) == set()
    reject(g, "W:G", seat=2, error=NotYourTurnError)


@pytest.mark.rule("HOUSE-6", "NET-7")
def test_jump_in_refused_during_a_response_phase() -> None:
    g = make(
        [["G1", "G2", "G3"], ["B1", "B2", "B3"], ["RD2", "Y1", "Y2"]],
        ["R3", "RD2"],
        rules(jump_in=True, stacking="same_kind"),
        phase="respond",
        active=1,
        top_player=0,
        pending={"total": 2, "card": "RD2"},
        draw=FILLER,
    )
    # NET-7: seat 1 holds no Draw Two and is asked all the same.
    assert legal(g) == {"accept"}
    assert legal(g, 2) == set()
    reject(g, "RD2", seat=2, error=NotYourTurnError)


@pytest.mark.rule("HOUSE-6")
def test_jump_in_refused_during_a_first_card_color_choice() -> None:
    g = make([["G1", "G2", "G3"], ["W", "B2", "B3"], ["W", "Y1", "Y2"]], ["W"], JUMP,
             color=None, phase="choose_color", active=1, draw=FILLER)
    assert legal(g, 2) == set()
    reject(g, "W:R", seat=2, error=NotYourTurnError)
    g.play("color:B")
    assert (g.phase, g.active_seat, g.current_color) == (Phase.PLAY, 1, B)


@pytest.mark.rule("HOUSE-6", "HOUSE-7")
def test_jump_in_during_play_or_pass_after_a_draw_keeps_the_drawn_card() -> None:
    g = jump_table(
        hands=[["G1", "G2", "G3"], ["B1", "B2", "R9"], ["R5", "Y1", "Y2"], ["G5", "Y3", "Y4"]],
        phase="play_drawn",
        drawn="R9",
    )
    assert "R5" in legal(g, 2)
    g.play("R5", seat=2)
    assert hands(g)[1] == ["B1", "B2", "R9"]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 3)
    assert "R9" not in legal(g, 1)


@pytest.mark.rule("HOUSE-6")
def test_the_active_seat_cannot_jump_in_after_drawing() -> None:
    # Seat 1 drew R9; it holds the other R5 too, but may only play the drawn card (CL-DRAW-2).
    g = jump_table(
        hands=[["G1", "G2", "G3"], ["B1", "R5", "R9"], ["Y5", "Y1", "Y2"], ["G5", "Y3", "Y4"]],
        phase="play_drawn",
        drawn="R9",
    )
    assert legal(g) == {"R9", "pass"}
    reject(g, "R5", seat=1)


@pytest.mark.rule("HOUSE-7", "HOUSE-9")
def test_jump_in_seven_swaps_from_the_jumper() -> None:
    g = make([["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y5", "Y1", "Y2"], ["R7", "Y3", "Y4", "Y6"]],
             ["R3", "R7"], "house", active=1, top_player=0, draw=FILLER)
    reject(g, "R7", seat=3, error=InvalidActionError)
    ev = g.play("R7>1", seat=3)
    assert ev[:2] == [CardPlayed(3, C("R7"), target=1, jump_in=True), HandsSwapped(3, 1)]
    assert hands(g) == [["G1", "G2", "G3"], ["Y3", "Y4", "Y6"], ["Y5", "Y1", "Y2"], ["B1", "B2", "B3"]]
    assert g.active_seat == 0


@pytest.mark.rule("HOUSE-7")
def test_jump_in_skip_applies_from_the_jumper() -> None:
    g = make([["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y5", "Y1", "Y2"], ["RS", "Y3", "Y4"]], ["R3", "RS"],
             JUMP, active=2, top_player=0, draw=FILLER)
    ev = g.play("RS", seat=3)
    assert ev == [CardPlayed(3, C("RS"), jump_in=True), Skipped(0)]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)


@pytest.mark.rule("HOUSE-7")
def test_jump_in_reverse_turns_play_from_the_jumper() -> None:
    g = make([["G1", "G2", "G3"], ["RR", "B2", "B3"], ["Y5", "Y1", "Y2"], ["B4", "Y3", "Y4"]], ["R3", "RR"],
             JUMP, active=3, top_player=0, direction=-1, draw=FILLER)
    ev = g.play("RR", seat=1)
    assert ev == [CardPlayed(1, C("RR"), jump_in=True), DirectionChanged(1)]
    assert (g.active_seat, g.direction) == (2, 1)


@pytest.mark.rule("HOUSE-7")
def test_jump_in_draw_two_targets_next_of_the_jumper() -> None:
    g = make([["G1", "G2", "G3"], ["B1", "B2", "B3", "B4", "B5"], ["Y5", "Y1", "Y2"], ["RD2", "Y3", "Y4"]],
             ["R3", "RD2"], JUMP, active=2, top_player=0, draw=FILLER)
    ev = g.play("RD2", seat=3)
    assert ev == [CardPlayed(3, C("RD2"), jump_in=True), PenaltyPending(0, 2), Drew(0, 2, "penalty"),
                  DrewCards(0, cards("G1", "G2"))]
    assert hands(g)[0] == ["G1", "G2", "G3", "G1", "G2"]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)


@pytest.mark.rule("HOUSE-8")
def test_jump_in_closes_catch_windows() -> None:
    g = make([["R5", "G1"], ["B1", "B2", "B3"], ["R5", "Y1", "Y2"], ["G5", "Y3", "Y4"]], ["R3"],
             JUMP, draw=FILLER)
    g.play("R5")
    assert g.exposed == (0,)
    assert "catch:0" in legal(g, 3)
    g.play("R5", seat=2)
    assert g.exposed == ()
    reject(g, "catch:0", seat=3)
    assert hands(g)[0] == ["G1"]


@pytest.mark.rule("HOUSE-8")
def test_jump_in_may_carry_the_uno_flag() -> None:
    g = jump_table(hands=[["G1", "G2", "G3"], ["B1", "B2", "B3"], ["R5", "Y1"], ["G5", "Y3", "Y4"]])
    reject(g, "R5!", seat=3, error=IllegalActionError)  # seat 3 holds no R5
    assert {"R5", "R5!"} <= legal(g, 2)
    ev = g.play("R5!", seat=2)
    assert ev == [CardPlayed(2, C("R5"), uno=True, jump_in=True)]
    assert g.exposed == ()
    assert "uno" not in legal(g, 2)
    reject(g, "catch:2", seat=0)


@pytest.mark.rule("HOUSE-8")
def test_jump_in_with_the_last_card_goes_out() -> None:
    g = jump_table(hands=[["G1", "G2", "G3"], ["B1", "B2", "B3"], ["R5"], ["G5", "Y3", "Y4"]], called=[2])
    ev = g.play("R5", seat=2)
    assert ev == [CardPlayed(2, C("R5"), jump_in=True), RoundEnded(2, 24, (6, 6, 0, 12), (0, 0, 24, 0))]
    assert g.phase is Phase.ROUND_OVER
    result = g.round_result()
    assert result is not None and (result.winner, result.points) == (2, 24)


def race_table() -> Game:
    """Seat 0 placed R4 and seat 1 is to play B4; seat 3 holds the other R4."""
    return jump_table(hands=[["G1", "G2", "G3"], ["B4", "B1", "B2"], ["R5", "Y1", "Y2"], ["R4", "Y3", "Y4"]],
                      discard=["R3", "R4"])


@pytest.mark.rule("HOUSE-8", "GEN-3")
def test_a_jump_in_arriving_after_the_top_changed_is_judged_against_the_new_top() -> None:
    g = race_table()
    assert legal(g, 3) == {"R4"}
    g.play("B4")  # seat 1's play arrives first
    assert (g.active_seat, g.top_card) == (2, C("B4"))
    # Seat 3's R4 is no longer identical to the top card.
    assert legal(g, 3) == set()
    reject(g, "R4", seat=3, error=NotYourTurnError)


@pytest.mark.rule("HOUSE-8", "GEN-3")
def test_a_turn_play_arriving_after_a_jump_in_is_judged_against_the_new_state() -> None:
    g = race_table()
    g.play("R4", seat=3)  # seat 3's jump-in arrives first
    assert (g.active_seat, g.top_card) == (0, C("R4"))
    # Seat 1 lost its turn; seat 3 placed the top card and may not jump on it.
    reject(g, "B4", seat=1, error=NotYourTurnError)
    assert legal(g, 1) == set() and legal(g, 3) == set()


# ---------------------------------------------------------------------------------------------
# HOUSE-9 to HOUSE-11: seven-zero

SEVEN_ZERO = rules(seven_zero=True)


@pytest.mark.rule("HOUSE-9")
def test_seven_requires_another_seat_in_the_round() -> None:
    g = make([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3", "Y4"]], ["R3"], SEVEN_ZERO,
             draw=FILLER)
    assert {a for a in legal(g) if a.startswith("R7")} == {"R7>1", "R7>2"}
    reject(g, "R7", error=InvalidActionError)
    reject(g, "R7>0", error=InvalidActionError)
    reject(g, "R7>3", error=InvalidActionError)


@pytest.mark.rule("HOUSE-9")
def test_seven_swaps_hands_with_the_target() -> None:
    g = make([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3", "Y4"]], ["R3"], SEVEN_ZERO,
             draw=FILLER)
    ev = g.play("R7>2")
    assert ev == [
        CardPlayed(0, C("R7"), target=2),
        HandsSwapped(0, 2),
        NewHand(0, cards("Y1", "Y2", "Y3", "Y4")),
        NewHand(2, cards("G1", "G2")),
    ]
    assert hands(g) == [["Y1", "Y2", "Y3", "Y4"], ["B1", "B2", "B3"], ["G1", "G2"]]
    assert (g.phase, g.active_seat, g.top_card, g.current_color) == (Phase.PLAY, 1, C("R7"), R)


@pytest.mark.rule("HOUSE-9", "TWO-6")
def test_seven_with_two_seats_targets_the_opponent() -> None:
    g = make([["R7", "G1", "G2"], ["B1", "B2", "B3", "B4"]], ["R3"], SEVEN_ZERO, draw=FILLER)
    assert {a for a in legal(g) if a.startswith("R7")} == {"R7>1"}
    g.play("R7>1")
    assert hands(g) == [["B1", "B2", "B3", "B4"], ["G1", "G2"]]
    assert g.active_seat == 1


@pytest.mark.rule("HOUSE-10")
def test_zero_passes_every_hand_to_the_next_seat() -> None:
    g = make([["R0", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"], ["G4", "G5", "G6"]], ["R3"],
             SEVEN_ZERO, draw=FILLER)
    ev = g.play("R0")
    assert ev == [
        CardPlayed(0, C("R0")),
        HandsPassed(1),
        NewHand(0, cards("G4", "G5", "G6")),
        NewHand(1, cards("G1", "G2")),
        NewHand(2, cards("B1", "B2", "B3")),
        NewHand(3, cards("Y1", "Y2", "Y3")),
    ]
    assert hands(g) == [["G4", "G5", "G6"], ["G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"]]
    assert (g.active_seat, g.top_card) == (1, C("R0"))


@pytest.mark.rule("HOUSE-10")
def test_zero_passes_in_the_current_direction() -> None:
    g = make([["R0", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"], ["G4", "G5", "G6"]], ["R3"],
             SEVEN_ZERO, direction=-1, draw=FILLER)
    ev = g.play("R0")
    assert ev[1] == HandsPassed(-1)
    assert hands(g) == [["B1", "B2", "B3"], ["Y1", "Y2", "Y3"], ["G4", "G5", "G6"], ["G1", "G2"]]
    assert g.active_seat == 3


@pytest.mark.rule("HOUSE-10", "TWO-6")
def test_zero_with_two_seats_exchanges_the_hands() -> None:
    g = make([["R0", "G1", "G2"], ["B1", "B2", "B3"]], ["R3"], SEVEN_ZERO, draw=FILLER)
    g.play("R0")
    assert hands(g) == [["B1", "B2", "B3"], ["G1", "G2"]]
    assert g.active_seat == 1


@pytest.mark.rule("HOUSE-11")
def test_swap_exposes_the_player_left_with_one_card() -> None:
    g = make([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y9"]], ["R3"], SEVEN_ZERO, draw=FILLER, called=[2])
    ev = g.play("R7>2")
    assert ev[-1] == Exposed(0)
    assert hands(g) == [["Y9"], ["B1", "B2", "B3"], ["G1", "G2"]]
    assert g.exposed == (0,)
    ev = g.play("catch:0", seat=1)
    assert ev == [Caught(1, 0, 2), Drew(0, 2, "catch"), DrewCards(0, cards("G1", "G2"))]
    assert hands(g)[0] == ["Y9", "G1", "G2"]


@pytest.mark.rule("HOUSE-11")
def test_swap_exposes_the_target_left_with_one_card() -> None:
    g = make([["R7", "G1"], ["B1", "B2", "B3"], ["Y7", "Y8", "Y9"]], ["R3"], SEVEN_ZERO, draw=FILLER,
             called=[0])
    ev = g.play("R7>2")
    assert ev[-1] == Exposed(2)
    assert hands(g) == [["Y7", "Y8", "Y9"], ["B1", "B2", "B3"], ["G1"]]
    assert g.exposed == (2,)
    assert "uno" in legal(g, 2)


@pytest.mark.rule("HOUSE-11")
def test_uno_flag_on_a_seven_that_leaves_one_card() -> None:
    g = make([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y9"]], ["R3"], SEVEN_ZERO, draw=FILLER)
    reject(g, "R7>1!")  # seat 1 holds 3 cards: the play would not leave one
    assert {"R7>2!", "R7>2", "R7>1"} <= legal(g)
    ev = g.play("R7>2!")
    assert ev[0] == CardPlayed(0, C("R7"), target=2, uno=True)
    assert not any(isinstance(e, Exposed) for e in ev)
    assert g.exposed == ()
    reject(g, "catch:0", seat=1)


@pytest.mark.rule("HOUSE-11", "CL-UNO-7")
def test_pass_exposes_any_seat_left_with_one_card_and_calls_do_not_travel() -> None:
    g = make([["R0", "G1", "G2"], ["B1"], ["Y1", "Y2"], ["G3"]], ["R3"], SEVEN_ZERO, draw=FILLER,
             called=[1, 3])
    assert "R0!" in legal(g)
    ev = g.play("R0")
    assert hands(g) == [["G3"], ["G1", "G2"], ["B1"], ["Y1", "Y2"]]
    assert [e for e in ev if isinstance(e, Exposed)] == [Exposed(0), Exposed(2)]
    assert g.exposed == (0, 2)
    g.play("catch:2", seat=1)
    assert hands(g)[2] == ["B1", *FILLER[:2]]


@pytest.mark.rule("HOUSE-11")
def test_uno_flag_on_a_zero() -> None:
    g = make([["R0", "G1", "G2"], ["B1", "B2"], ["Y1", "Y2"], ["G3"]], ["R3"], SEVEN_ZERO, draw=FILLER)
    ev = g.play("R0!")
    assert ev[0] == CardPlayed(0, C("R0"), uno=True)
    assert hands(g)[0] == ["G3"]
    assert g.exposed == ()


@pytest.mark.rule("HOUSE-9", "CL-END-7")
def test_seven_or_zero_as_last_card_has_no_effect() -> None:
    g = make([["R7"], ["B1", "B2", "B3"], ["Y1", "Y2"]], ["R3"], SEVEN_ZERO, draw=FILLER, called=[0])
    g.play("R7>2")
    assert g.phase is Phase.ROUND_OVER
    assert hands(g) == [[], ["B1", "B2", "B3"], ["Y1", "Y2"]]
    g = make([["R0"], ["B1", "B2", "B3"], ["Y1", "Y2"]], ["R3"], SEVEN_ZERO, draw=FILLER, called=[0])
    g.play("R0")
    assert g.phase is Phase.ROUND_OVER
    assert hands(g) == [[], ["B1", "B2", "B3"], ["Y1", "Y2"]]


# ---------------------------------------------------------------------------------------------
# HOUSE-12: draw to match and force play


@pytest.mark.rule("HOUSE-12")
def test_draw_until_playable_may_keep_the_found_card() -> None:
    g = make([["B1", "B2", "Y4"], ["G5", "G6"], ["Y1", "Y2"]], ["R3"], rules(draw_until_playable=True),
             draw=["G1", "Y5", "R9", "B7"])
    ev = g.play("draw")
    assert ev == [Drew(0, 3, "draw"), DrewCards(0, cards("G1", "Y5", "R9"))]
    assert (g.phase, g.active_seat) == (Phase.PLAY_DRAWN, 0)
    assert legal(g) == {"R9", "pass"}
    reject(g, "B1")
    ev = g.play("pass")
    assert ev == [Passed(0)]
    assert hands(g)[0] == ["B1", "B2", "Y4", "G1", "Y5", "R9"]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)


@pytest.mark.rule("HOUSE-12")
def test_draw_until_playable_with_force_play_must_play_the_found_card() -> None:
    g = make([["B1", "B2", "Y4"], ["G5", "G6"], ["Y1", "Y2"]],
             ["R3"], rules(draw_until_playable=True, force_play=True), draw=["G1", "Y5", "R9", "B7"])
    g.play("draw")
    assert legal(g) == {"R9"}
    reject(g, "pass")
    g.play("R9")
    assert hands(g)[0] == ["B1", "B2", "Y4", "G1", "Y5"]
    assert (g.phase, g.active_seat, g.top_card) == (Phase.PLAY, 1, C("R9"))


@pytest.mark.rule("HOUSE-12")
def test_force_play_alone_draws_one_card() -> None:
    g = make([["B1", "B2", "Y4"], ["G5", "G6"], ["Y1", "Y2"]], ["R3"], rules(force_play=True),
             draw=["G1", "R9", "B7"])
    ev = g.play("draw")
    assert ev == [Drew(0, 1, "draw"), DrewCards(0, cards("G1"))]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)
    g = make([["B1", "B2", "Y4"], ["G5", "G6"], ["Y1", "Y2"]], ["R3"], rules(force_play=True),
             draw=["R9", "B7"])
    g.play("draw")
    assert (g.phase, legal(g)) == (Phase.PLAY_DRAWN, {"R9"})
    reject(g, "pass")


@pytest.mark.rule("HOUSE-12", "PRESET-7")
def test_house_preset_draws_to_match_without_forcing_the_play() -> None:
    g = make([["B1", "B2", "Y4"], ["G5", "G6", "G7"], ["Y1", "Y2", "Y3"]], ["R3"], "house",
             draw=["G1", "Y5", "R9", "B7"])
    g.play("draw")
    assert hands(g)[0] == ["B1", "B2", "Y4", "G1", "Y5", "R9"]
    assert legal(g) == {"R9", "pass"}
    g.play("pass")
    assert g.active_seat == 1


# ---------------------------------------------------------------------------------------------
# HOUSE-13: bounce

BOUNCE = rules(bounce_draw_two=True)


def bounce_table(ruleset: Any = BOUNCE) -> Game:
    return make([["RD2", "G1", "G2"], ["RR", "RS", "BS", "B1"], ["RS", "Y1", "Y2"], ["Y3", "Y4", "Y5"]],
                ["R3"], ruleset, draw=FILLER)


@pytest.mark.rule("HOUSE-13")
def test_bounce_with_a_reverse_sends_the_total_back() -> None:
    g = bounce_table()
    g.play("RD2")
    assert (g.phase, g.active_seat) == (Phase.RESPOND, 1)
    assert legal(g) == {"accept", "RR", "RS"}
    reject(g, "BS")  # a Skip of another color does not bounce
    reject(g, "B1")
    ev = g.play("RR")
    assert ev == [CardPlayed(1, C("RR")), DirectionChanged(-1), PenaltyPending(0, 2)]
    assert (g.phase, g.active_seat, g.pending_penalty, g.direction) == (Phase.RESPOND, 0, 2, -1)
    assert (g.top_card, g.current_color) == (C("RR"), R)
    g.play("accept")
    assert hands(g)[0] == ["G1", "G2", "G1", "G2"]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 3)


@pytest.mark.rule("HOUSE-13")
def test_bounce_with_a_skip_moves_the_total_on_and_can_bounce_again() -> None:
    g = bounce_table()
    g.play("RD2")
    ev = g.play("RS")
    assert ev == [CardPlayed(1, C("RS")), PenaltyPending(2, 2)]
    assert (g.phase, g.active_seat, g.pending_penalty, g.direction) == (Phase.RESPOND, 2, 2, 1)
    assert legal(g) == {"accept", "RS"}
    g.play("RS")
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 3, 2)
    # NET-7: seat 3 holds nothing to answer with and is asked all the same.
    assert legal(g) == {"accept"}
    g.play("accept")
    assert hands(g)[3] == ["Y3", "Y4", "Y5", "G1", "G2"]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("HOUSE-13")
def test_bounce_never_applies_to_a_wd4() -> None:
    g = make([["W4", "G1", "G2"], ["RR", "RS", "B1"], ["Y1", "Y2"]], ["B3"], BOUNCE, draw=FILLER)
    g.play("W4:R")
    assert legal(g) == {"accept", "challenge"}
    reject(g, "RR")
    reject(g, "RS")


@pytest.mark.rule("HOUSE-13", "TWO-6")
@pytest.mark.parametrize("card", ["RR", "RS"])
def test_two_seat_bounce_sends_the_penalty_to_the_opponent(card: str) -> None:
    g = make([["RD2", "G1", "G2"], ["RR", "RS", "B1"]], ["R3"], BOUNCE, draw=FILLER)
    g.play("RD2")
    g.play(card)
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 0, 2)
    assert g.direction == (-1 if card == "RR" else 1)
    g.play("accept")
    assert len(g.hand(0)) == 4
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)


@pytest.mark.rule("HOUSE-13", "CL-END-4")
def test_bounce_with_the_last_card_makes_the_next_seat_draw_at_once() -> None:
    g = make([["RD2", "G1", "G2"], ["RS"], ["RS", "Y1", "Y2"]], ["R3"], BOUNCE, draw=FILLER, called=[1])
    g.play("RD2")
    ev = g.play("RS")
    assert ev[:3] == [CardPlayed(1, C("RS")), Drew(2, 2, "penalty"), DrewCards(2, cards("G1", "G2"))]
    assert g.phase is Phase.ROUND_OVER
    assert hands(g)[2] == ["RS", "Y1", "Y2", "G1", "G2"]
    result = g.round_result()
    assert result is not None and (result.winner, result.points) == (1, 1 + 2 + 20 + 1 + 2 + 1 + 2)


# ---------------------------------------------------------------------------------------------
# HOUSE-14: the WD4 defense

DEFEND = rules(defend_wd4_with_draw_two=True)


@pytest.mark.rule("HOUSE-14")
def test_draw_two_of_the_named_color_cancels_the_wd4_penalty() -> None:
    g = make([["W4", "R1", "R2"], ["GD2", "RD2", "B1"], ["Y1", "Y2", "Y3"]], ["B3"], DEFEND, draw=FILLER)
    g.play("W4:G")
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 1, 4)
    assert legal(g) == {"accept", "challenge", "GD2"}
    reject(g, "RD2")
    ev = g.play("GD2")
    # Nobody draws the 4; the Draw Two sets its own 2 against next(defender), answered like any
    # Draw Two: here no response is allowed, so seat 2 draws at once.
    assert ev == [CardPlayed(1, C("GD2")), PenaltyPending(2, 2), Drew(2, 2, "penalty"),
                  DrewCards(2, cards("G1", "G2"))]
    assert hands(g) == [["R1", "R2"], ["RD2", "B1"], ["Y1", "Y2", "Y3", "G1", "G2"]]
    assert (g.phase, g.active_seat, g.top_card, g.current_color) == (Phase.PLAY, 0, C("GD2"), G)


@pytest.mark.rule("HOUSE-14")
def test_after_a_defense_no_challenge_remains_and_the_draw_two_can_be_stacked() -> None:
    g = make([["W4", "R1", "R2"], ["GD2", "B1", "B2"], ["YD2", "Y2", "Y3"]],
             ["B3"], rules(defend_wd4_with_draw_two=True, stacking="same_kind"), draw=FILLER)
    g.play("W4:G")
    g.play("GD2")
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 2, 2)
    assert legal(g) == {"accept", "YD2"}
    reject(g, "challenge")
    g.play("YD2")
    assert (g.active_seat, g.pending_penalty) == (0, 4)
    g.play("accept")
    assert hands(g)[0] == ["R1", "R2", "G1", "G2", "G3", "G4"]
    assert hands(g)[1] == ["B1", "B2"]


@pytest.mark.rule("HOUSE-14", "HOUSE-5")
def test_defense_cancels_a_whole_stack_of_wd4s() -> None:
    g = make([["W4", "R1", "R2"], ["W4", "B1", "B2"], ["YD2", "Y2", "Y3"], ["G7", "G8", "G9"]],
             ["B3"], rules(defend_wd4_with_draw_two=True, stacking="same_kind"),
             draw=FILLER)
    g.play("W4:G")
    g.play("W4:Y")
    assert (g.active_seat, g.pending_penalty) == (2, 8)
    assert legal(g) == {"accept", "challenge", "YD2"}
    ev = g.play("YD2")
    assert ev == [CardPlayed(2, C("YD2")), PenaltyPending(3, 2)]
    assert legal(g) == {"accept"}
    g.play("accept")
    assert hands(g) == [["R1", "R2"], ["B1", "B2"], ["Y2", "Y3"], ["G7", "G8", "G9", "G1", "G2"]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("HOUSE-14", "CL-END-4")
def test_defense_with_the_last_card() -> None:
    g = make([["W4", "R1", "R2"], ["GD2"], ["Y1", "Y2", "Y3"]], ["B3"], DEFEND, draw=FILLER, called=[1])
    g.play("W4:G")
    ev = g.play("GD2")
    assert ev[:3] == [CardPlayed(1, C("GD2")), Drew(2, 2, "penalty"), DrewCards(2, cards("G1", "G2"))]
    assert g.phase is Phase.ROUND_OVER
    assert hands(g) == [["R1", "R2"], [], ["Y1", "Y2", "Y3", "G1", "G2"]]


@pytest.mark.rule("HOUSE-4", "CL-END-4")
def test_last_card_wd4_cannot_be_stacked_or_challenged() -> None:
    g = make([["W4"], ["W4", "B1", "B2"], ["Y1", "Y2"]], ["B3"], rules(stacking="same_kind"), draw=FILLER,
             called=[0])
    ev = g.play("W4")
    assert ev[:3] == [CardPlayed(0, C("W4")), Drew(1, 4, "penalty"), DrewCards(1, cards(*FILLER[:4]))]
    assert g.phase is Phase.ROUND_OVER
    assert hands(g)[1] == ["W4", "B1", "B2", *FILLER[:4]]


@pytest.mark.rule("HOUSE-14")
def test_defense_is_off_by_default() -> None:
    g = make([["W4", "R1", "R2"], ["GD2", "B1", "B2"], ["Y1", "Y2", "Y3"]], ["B3"], rules(), draw=FILLER)
    g.play("W4:G")
    assert legal(g) == {"accept", "challenge"}
    reject(g, "GD2")


# ---------------------------------------------------------------------------------------------
# NET-7: response phases are prompted whatever the victim holds


@pytest.mark.rule("NET-7")
@pytest.mark.parametrize(
    ("options", "card", "total"),
    [
        ({"stacking": "same_kind"}, "RD2", 2),
        ({"stacking": "by_value"}, "W4:G", 4),
        ({"bounce_draw_two": True}, "RD2", 2),
        ({}, "W4:G", 4),
    ],
)
def test_victim_is_asked_even_with_nothing_to_answer(options: dict[str, Any], card: str, total: int) -> None:
    g = make([["RD2", "W4", "G1", "B2"], ["Y1", "Y2", "Y3"], ["B5", "B6"]], ["R3"], rules(**options),
             draw=FILLER)
    ev = g.play(card)
    assert ev[-1] == PenaltyPending(1, total)
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 1, total)
    expected = {"accept", "challenge"} if card.startswith("W4") else {"accept"}
    assert legal(g) == expected
    g.play("accept")
    assert len(g.hand(1)) == 3 + total


@pytest.mark.rule("PRESET-7", "HOUSE-4", "HOUSE-6", "HOUSE-9", "HOUSE-12")
def test_house_preset_in_play() -> None:
    # PRESET-7: same_kind stacking, seven-zero, jump-in, draw to match without force play.
    g = make(
        [["RD2", "R7", "G1", "G2"], ["BD2", "W4", "B2"], ["B9", "Y1", "Y2"], ["Y3", "Y4", "Y5"]],
        ["R3"],
        "house",
        draw=["G1", "G2", "G3", "G4", "G6", "B9", "Y9"],
    )
    assert {a for a in legal(g) if a.startswith("R7")} == {"R7>1", "R7>2", "R7>3"}
    g.play("RD2")
    assert legal(g) == {"accept", "BD2"}  # same_kind: no WD4 on a Draw Two
    g.play("BD2")
    assert legal(g) == {"accept"}
    g.play("accept")  # the total only, although draw_until_playable is on
    assert hands(g)[2] == ["B9", "Y1", "Y2", "G1", "G2", "G3", "G4"]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 3)
    ev = g.play("draw")
    assert ev == [Drew(3, 2, "draw"), DrewCards(3, cards("G6", "B9"))]
    assert legal(g) == {"B9", "pass"}  # force_play is off
    g.play("B9")
    assert g.active_seat == 0
    ev = g.play("B9", seat=2)  # seat 2 jumps in with the identical B9
    assert ev == [CardPlayed(2, C("B9"), jump_in=True)]
    assert (g.active_seat, hands(g)[0]) == (3, ["R7", "G1", "G2"])
