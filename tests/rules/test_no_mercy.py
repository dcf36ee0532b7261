"""Scenario tests for UNO Show 'Em No Mercy, RULES.md §10 (NM-1 to NM-19).

Also here: TWO-7 (the two-seat Wild Reverse Draw 4), DECK-7 and DECK-9 in play (the 168-card deck
and its point values), PRESET-8 (the ``no-mercy`` preset in play), NET-7 for No Mercy penalties,
and the No Mercy sides of HOUSE-1, HOUSE-2, HOUSE-6 and HOUSE-8. Positions are exact
(``Game.from_position``); the deck's unlisted cards lie under the discard pile unless a test says
otherwise, so the draw pile is exactly what a test lists. Every rejected action is checked to
leave ``game.to_position()`` unchanged (GEN-2).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unotable import Game, Ruleset
from unotable.cards import Card, Color
from unotable.errors import (
    InvalidActionError,
    NotYourTurnError,
    RecordError,
    RulesetError,
)
from unotable.events import (
    CardPlayed,
    Caught,
    ColorChosen,
    DealerChosen,
    DirectionChanged,
    Drew,
    DrewCards,
    Exposed,
    FalseUno,
    FirstCard,
    HandsPassed,
    HandsSwapped,
    KnockedOut,
    MatchEnded,
    PenaltyPending,
    Reshuffled,
    Revealed,
    RoundEnded,
    Skipped,
    Slipped,
)
from unotable.game import Phase

from scenario import cards, legal, make
from scenario import hand_lists as hands
from scenario import rejected as reject

C = Card.parse
R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE
NM = "no-mercy"
FILLER = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B0", "G1", "G2", "G3", "G4"]
# 20 cards, none of them red and none a draw card: a hand near the mercy limit.
YELLOW20 = [f"Y{n}" for n in range(10)] * 2


def nm_rules(**options: Any) -> dict[str, Any]:
    return Ruleset.preset(NM).replace(**options).to_dict()


def names(items: Any) -> list[str]:
    return [str(c) for c in items]


def wilds(card: str) -> set[str]:
    return {f"{card}:{c}" for c in "RYGB"}


def rest_of_deck(*groups: list[str]) -> list[str]:
    """The No Mercy cards not listed in ``groups``."""
    counts = Counter(Ruleset.preset(NM).composition())
    for group in groups:
        for c in group:
            counts[C(c).id] -= 1
    assert min(counts.values()) >= 0
    return [str(Card.from_id(i)) for i in sorted(counts.elements())]


def all_cards(g: Game) -> Counter[str]:
    doc = g.to_position()
    every = [c for h in doc["hands"] for c in h] + doc["discard"] + doc["draw"] + doc["set_aside"]
    return Counter(every)


# ---------------------------------------------------------------------------------------------
# NM-1, NM-2, DECK-7, PRESET-8: the game, the deck and the deal


@pytest.mark.rule("NM-1", "DECK-7")
def test_no_mercy_deck_has_no_wild_or_wd4() -> None:
    for card in ("W", "W4"):
        with pytest.raises(RecordError):
            make([["R1", card], ["B1", "B2"]], ["R5"], NM)


@pytest.mark.rule("DECK-7", "PRESET-8", "NM-2")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_new_no_mercy_game_deals_from_the_168_card_deck(seed: int) -> None:
    g = Game.new(seats=4, ruleset=NM, seed=seed)
    assert g.ruleset == Ruleset(deck="no_mercy168")
    every = all_cards(g)
    assert sum(every.values()) == 168
    expected: Counter[str] = Counter()
    for color in "RYGB":
        for n in range(10):
            expected[f"{color}{n}"] = 2
        expected.update({f"{color}D2": 3, f"{color}D4": 2, f"{color}S": 3, f"{color}SE": 2,
                         f"{color}R": 3, f"{color}DA": 3})
    expected.update({"WR4": 8, "W6": 4, "W10": 4, "WCR": 8})
    assert every == expected
    # NM-2 / SET-4: seven cards each, the rest forms the draw pile.
    assert g.hand_sizes == (7, 7, 7, 7)
    assert g.draw_pile_size == 168 - 28 - len(g.discard_pile)


@pytest.mark.rule("NM-2")
@pytest.mark.parametrize("seed", range(12))
def test_no_mercy_first_card_dealer_and_first_player(seed: int) -> None:
    g = Game.new(seats=3, ruleset=NM, seed=seed)
    chosen = [e for e in g.events if isinstance(e, DealerChosen)]
    assert len(chosen) == 1 and chosen[0].dealer == g.dealer
    # SET-2: each contender takes a card; the highest number (symbols count 0) deals; ties redraw.
    draws = list(chosen[0].draws)
    contenders, i = [0, 1, 2], 0
    while len(contenders) > 1:
        chunk = draws[i:i + len(contenders)]
        i += len(contenders)
        assert [s for s, _ in chunk] == contenders
        count = {s: int(c.rank) if c.rank.is_number else 0 for s, c in chunk}
        contenders = [s for s in contenders if count[s] == max(count.values())]
    assert (i, contenders) == (len(draws), [g.dealer])
    # SET-13: non-number cards stay in the discard pile, a number card ends on top, no effect.
    firsts = [e.card for e in g.events if isinstance(e, FirstCard)]
    assert list(g.discard_pile) == firsts
    assert firsts[-1].rank.is_number
    assert not any(c.rank.is_number for c in firsts[:-1])
    assert g.current_color is firsts[-1].color
    assert (g.phase, g.active_seat, g.direction) == (Phase.PLAY, (g.dealer + 1) % 3, 1)
    assert g.hand_sizes == (7, 7, 7)


@pytest.mark.rule("NM-2")
def test_no_mercy_seat_limits() -> None:
    Game.new(seats=2, ruleset=NM, seed=1)
    Game.new(seats=6, ruleset=NM, seed=1)
    with pytest.raises(RulesetError):
        Game.new(seats=7, ruleset=NM, seed=1)
    g = Game.new(seats=7, ruleset=Ruleset.preset(NM).replace(max_seats=10), seed=1)
    assert g.hand_sizes == (7,) * 7


@pytest.mark.rule("NM-2", "NM-15")
def test_knocked_out_seats_are_dealt_in_again_next_round() -> None:
    g = make([["R1", "R2"], [], ["B1", "B2", "B3"]], ["R5"], NM, phase="round_over", dealer=0,
             knocked_out=[1], set_aside=[*YELLOW20, "G5", "G6", "G7", "G8", "G9"])
    g.next_round()
    assert g.dealer == 1
    assert g.in_round == (True, True, True)
    assert g.hand_sizes == (7, 7, 7)
    assert sum(all_cards(g).values()) == 168
    assert g.to_position()["set_aside"] == []
    assert g.to_position()["knocked_out"] == []


@pytest.mark.rule("NM-1")
def test_classic_skip_and_reverse_work_in_no_mercy() -> None:
    g = make([["RS", "RR", "G1"], ["B1", "B2"], ["B3", "B4"], ["B5", "B6"]], ["R5"], NM, draw=FILLER)
    ev = g.play("RS")
    assert ev == [CardPlayed(0, C("RS")), Skipped(1)]
    assert g.active_seat == 2
    g = make([["RS", "RR", "G1"], ["B1", "B2"], ["B3", "B4"], ["B5", "B6"]], ["R5"], NM, draw=FILLER)
    ev = g.play("RR")
    assert ev == [CardPlayed(0, C("RR")), DirectionChanged(-1)]
    assert (g.active_seat, g.direction) == (3, -1)


@pytest.mark.rule("NM-1", "HOUSE-6", "HOUSE-7")
def test_house_jump_in_may_be_added_to_no_mercy() -> None:
    g = make([["G1", "G2", "G3"], ["B1", "B2", "B3"], ["RDA", "R1", "Y2"], ["G5", "Y3", "Y4"]], ["R3", "RDA"],
             nm_rules(jump_in=True), active=1, top_player=0, draw=FILLER)
    assert "RDA" in legal(g, 2)
    ev = g.play("RDA", seat=2)
    assert ev == [CardPlayed(2, C("RDA"), jump_in=True), Slipped(2, cards("R1")), Exposed(2)]
    assert (g.active_seat, hands(g)[2]) == (3, ["Y2"])
    assert g.exposed == (2,)
    reject(make([["G1", "G2"], ["B1", "B2"], ["RDA", "Y2"]], ["R3", "RDA"], NM, active=1, top_player=0),
           "RDA", seat=2, error=NotYourTurnError)


@pytest.mark.rule("HOUSE-8", "GEN-3", "NM-1")
def test_no_mercy_three_identical_skips_judged_one_at_a_time() -> None:
    # No Mercy has three red Skips: seat 0 placed one; seats 1 and 3 hold the others.
    table = dict(active=2, top_player=0, draw=FILLER)
    rs = nm_rules(jump_in=True)
    h = [["G1", "G2", "G3"], ["RS", "B2", "B3"], ["Y1", "Y2", "Y3"], ["RS", "Y4", "Y5"]]
    g = make(h, ["R3", "RS"], rs, **table)
    assert "RS" in legal(g, 1) and "RS" in legal(g, 3)
    ev = g.play("RS", seat=3)  # arrives first: a jump-in that skips seat 0
    assert ev == [CardPlayed(3, C("RS"), jump_in=True), Skipped(0)]
    assert g.active_seat == 1
    ev = g.play("RS", seat=1)  # arrives second: now seat 1's turn, so a normal play
    assert ev == [CardPlayed(1, C("RS")), Skipped(2)]
    assert g.active_seat == 3
    # Seat 3 holding the two other Skips: its second one lands on its own top card and is refused.
    g = make([["G1", "G2", "G3"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3"], ["RS", "RS", "Y5"]], ["R3", "RS"],
             rs, **table)
    g.play("RS", seat=3)
    reject(g, "RS", seat=3, error=NotYourTurnError)


# ---------------------------------------------------------------------------------------------
# NM-3: matching


@pytest.mark.rule("NM-3")
def test_draw_four_matches_draw_four_by_symbol_but_not_a_wrd4() -> None:
    g = make([["BD4", "Y1", "G7"], ["Y2", "Y3"]], ["R3", "RD4"], NM, draw=FILLER)
    assert legal(g) == {"BD4"}
    g = make([["BD4", "Y1", "G7"], ["Y2", "Y3"]], ["R3", "RD2"], NM, draw=FILLER)
    assert legal(g) == {"draw"}
    reject(g, "BD4")
    g = make([["BD4", "R1", "G8"], ["Y1", "Y2"]], ["R3", "WR4"], NM, color="G", draw=FILLER)
    assert legal(g) == {"G8"}
    reject(g, "BD4")


@pytest.mark.rule("NM-3")
def test_skip_everyone_and_discard_all_match_by_symbol() -> None:
    g = make([["BSE", "BDA", "GS", "Y7"], ["Y1", "Y2"]], ["R3", "RSE"], NM, draw=FILLER)
    assert legal(g) == {"BSE"}
    g = make([["BSE", "BDA", "GS", "Y7"], ["Y1", "Y2"]], ["R3", "RDA"], NM, draw=FILLER)
    assert legal(g) == {"BDA"}


# ---------------------------------------------------------------------------------------------
# NM-4: draw until playable, then play


@pytest.mark.rule("NM-4", "PRESET-8")
def test_seat_without_a_playable_card_draws_until_playable_and_must_play_it() -> None:
    g = make([["B1", "B2", "Y3"], ["G5", "G6"], ["Y4", "Y5"]], ["R5"], NM, draw=["G1", "Y2", "R9", "B4"])
    assert legal(g) == {"draw"}
    ev = g.play("draw")
    assert ev == [Drew(0, 3, "draw"), DrewCards(0, cards("G1", "Y2", "R9"))]
    assert (g.phase, g.active_seat) == (Phase.PLAY_DRAWN, 0)
    assert legal(g) == {"R9"}
    reject(g, "pass")
    reject(g, "B1")
    g.play("R9")
    assert hands(g)[0] == ["B1", "B2", "Y3", "G1", "Y2"]
    assert (g.phase, g.active_seat, g.top_card) == (Phase.PLAY, 1, C("R9"))


@pytest.mark.rule("NM-4", "PRESET-8")
def test_seat_holding_a_playable_card_may_not_draw() -> None:
    g = make([["B1", "R2", "Y3"], ["G5", "G6"], ["Y4", "Y5"]], ["R5"], NM, draw=FILLER)
    assert legal(g) == {"R2"}
    reject(g, "draw")


@pytest.mark.rule("NM-4")
def test_may_draw_with_playable_keeps_the_draw_and_play_duty() -> None:
    g = make([["B1", "R2", "Y3"], ["G5", "G6"], ["Y4", "Y5"]], ["R5"], nm_rules(may_draw_with_playable=True),
             draw=["G1", "WCR", "B4"])
    assert legal(g) == {"R2", "draw"}
    g.play("draw")
    assert hands(g)[0] == ["B1", "R2", "Y3", "G1", "WCR"]
    assert legal(g) == {"WCR"}
    reject(g, "pass")
    reject(g, "R2")
    g.play("WCR")
    assert (g.phase, g.active_seat) == (Phase.CHOOSE_COLOR, 1)


# ---------------------------------------------------------------------------------------------
# NM-5 to NM-7: draw cards, stacking by value, penalty-only responses


@pytest.mark.rule("NM-5", "NET-7")
@pytest.mark.parametrize(("card", "value"), [("RD2", 2), ("RD4", 4), ("W6:G", 6), ("W10:G", 10)])
def test_draw_cards_set_their_value_against_the_next_seat(card: str, value: int) -> None:
    g = make([[card.split(":")[0], "B1", "B2"], ["Y1", "Y2", "Y3"], ["G5", "G6"]], ["R5"], NM, draw=FILLER)
    ev = g.play(card)
    assert ev[1:] == [PenaltyPending(1, value)]
    # NET-7: seat 1 holds no draw card and is asked all the same.
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 1, value)
    assert legal(g) == {"accept"}
    ev = g.play("accept")
    assert ev == [Drew(1, value, "penalty"), DrewCards(1, cards(*FILLER[:value]))]
    assert hands(g)[1] == ["Y1", "Y2", "Y3", *FILLER[:value]]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.PLAY, 2, 0)


@pytest.mark.rule("NM-5")
def test_without_stacking_the_victim_draws_at_once() -> None:
    g = make([["RD4", "B1", "B2"], ["YD4", "Y2", "Y3"], ["G5", "G6"]], ["R5"], nm_rules(stacking="none"),
             draw=FILLER)
    ev = g.play("RD4")
    assert ev == [CardPlayed(0, C("RD4")), PenaltyPending(1, 4), Drew(1, 4, "penalty"),
                  DrewCards(1, cards(*FILLER[:4]))]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 2)


@pytest.mark.rule("NM-6", "HOUSE-1")
def test_stacking_by_value_ignores_color_and_symbol() -> None:
    g = make([["RD2", "B1", "B2"], ["BD2", "GD4", "WR4", "W6", "W10", "R5", "RS"], ["G5", "G6"]], ["R5"],
             NM, draw=FILLER)
    g.play("RD2")
    assert legal(g) == {"accept", "BD2", "GD4"} | wilds("WR4") | wilds("W6") | wilds("W10")
    g = make([["W6", "B1", "B2"], ["BD2", "GD4", "WR4", "W6", "W10", "G5", "GS"], ["G5", "G6"]], ["R5"],
             NM, draw=FILLER)
    g.play("W6:G")
    assert legal(g) == {"accept"} | wilds("W6") | wilds("W10")
    reject(g, "GD4")
    reject(g, "WR4:G")
    reject(g, "BD2")


@pytest.mark.rule("NM-6", "HOUSE-2")
def test_threshold_is_the_last_card_not_the_running_total() -> None:
    g = make([["RD2", "B1", "B2"], ["BD2", "B3", "B4"], ["YD2", "G6", "G7"], ["Y7", "Y8", "Y9"]], ["R5"], NM,
             draw=FILLER)
    g.play("RD2")
    g.play("BD2")
    assert (g.active_seat, g.pending_penalty) == (2, 4)
    assert legal(g) == {"accept", "YD2"}  # value 2 >= 2, though the total is 4
    ev = g.play("YD2")
    assert ev == [CardPlayed(2, C("YD2")), PenaltyPending(3, 6)]
    assert (g.current_color, g.top_card) == (Y, C("YD2"))
    g.play("accept")
    assert hands(g)[3] == ["Y7", "Y8", "Y9", *FILLER[:6]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("NM-6", "HOUSE-2", "HOUSE-3")
def test_stacked_values_add_up_and_the_first_seat_not_stacking_draws_it_all() -> None:
    g = make([["RD2", "B1", "B2"], ["GD4", "B3", "B4"], ["W6", "G6", "G7"], ["Y7", "Y8", "Y9"]], ["R5"], NM,
             draw=FILLER)
    g.play("RD2")
    g.play("GD4")
    assert (g.current_color, g.pending_penalty) == (G, 6)
    ev = g.play("W6:B")
    assert ev == [CardPlayed(2, C("W6"), B), PenaltyPending(3, 12)]
    assert g.current_color is B
    ev = g.play("accept")
    assert ev[0] == Drew(3, 12, "penalty")
    assert len(g.hand(3)) == 15
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("NM-6", "HOUSE-3")
def test_no_mercy_with_stack_sum_false() -> None:
    g = make([["RD2", "B1", "B2"], ["W6", "B3", "B4"], ["G5", "G6", "G7"]], ["R5"], nm_rules(stack_sum=False),
             draw=FILLER)
    g.play("RD2")
    g.play("W6:Y")
    assert (g.active_seat, g.pending_penalty) == (2, 6)


@pytest.mark.rule("HOUSE-1")
def test_same_kind_in_no_mercy_means_the_same_symbol() -> None:
    g = make([["RD4", "B1", "B2"], ["BD4", "WR4", "W6", "BD2"], ["G5", "G6"]], ["R5"],
             nm_rules(stacking="same_kind"), draw=FILLER)
    g.play("RD4")
    assert legal(g) == {"accept", "BD4"}
    reject(g, "WR4:R")
    g = make([["RD2", "B1", "B2"], ["BD4", "WR4", "W6", "BD2"],
                                                   ["G5", "G6"]], ["R5"],
             nm_rules(stacking="plus4_on_plus2"), draw=FILLER)
    g.play("RD2")
    assert legal(g) == {"accept", "BD4", "BD2"} | wilds("WR4")
    reject(g, "W6:R")


@pytest.mark.rule("NM-7")
def test_pending_penalty_allows_only_stacking_or_accepting() -> None:
    g = make([["RD2", "B1", "B2"], ["R5", "RS", "RSE", "RDA", "RR", "WCR", "R7", "BD2"], ["G5", "G6"]],
             ["R3"], NM, draw=FILLER)
    g.play("RD2")
    assert legal(g) == {"accept", "BD2"}
    for action in ("R5", "RS", "RSE", "RDA", "RR", "WCR", "draw", "pass", "R7>2"):
        reject(g, action)


@pytest.mark.rule("NM-7", "HOUSE-6")
def test_no_jump_in_while_a_penalty_is_pending() -> None:
    g = make([["RD2", "B1", "B2"], ["Y1", "Y2", "Y3"], ["RD2", "G6", "G7"]], ["R3"], nm_rules(jump_in=True),
             draw=FILLER)
    g.play("RD2")
    assert (g.phase, g.active_seat) == (Phase.RESPOND, 1)
    assert legal(g, 2) == set()
    reject(g, "RD2", seat=2, error=NotYourTurnError)


# ---------------------------------------------------------------------------------------------
# NM-8, TWO-7: Wild Reverse Draw 4


@pytest.mark.rule("NM-8")
def test_wrd4_reverses_then_sets_four_against_the_new_next_seat() -> None:
    g = make([["Y1", "Y2", "Y3"], ["WR4", "B1", "B2"], ["G5", "G6", "G7"], ["B5", "B6", "B7"]], ["R5"], NM,
             active=1, draw=FILLER)
    ev = g.play("WR4:G")
    assert ev == [CardPlayed(1, C("WR4"), G), DirectionChanged(-1), PenaltyPending(0, 4)]
    assert (g.phase, g.active_seat, g.pending_penalty, g.direction) == (Phase.RESPOND, 0, 4, -1)
    g.play("accept")
    assert hands(g)[0] == ["Y1", "Y2", "Y3", *FILLER[:4]]
    assert (g.phase, g.active_seat, g.current_color) == (Phase.PLAY, 3, G)


@pytest.mark.rule("NM-8", "HOUSE-2")
def test_wrd4_as_a_stacking_response_reverses_first() -> None:
    g = make([["RD2", "Y2", "Y3"], ["WR4", "B1", "B2"], ["G5", "G6", "G7"], ["B5", "B6", "B7"]], ["R5"], NM,
             draw=FILLER)
    g.play("RD2")
    ev = g.play("WR4:B")
    assert ev == [CardPlayed(1, C("WR4"), B), DirectionChanged(-1), PenaltyPending(0, 6)]
    assert (g.phase, g.active_seat, g.direction) == (Phase.RESPOND, 0, -1)
    g.play("accept")
    assert len(g.hand(0)) == 2 + 6
    assert g.active_seat == 3


@pytest.mark.rule("TWO-7", "NM-8")
def test_two_seat_wrd4_targets_its_player_who_may_stack_back() -> None:
    g = make([["WR4", "W6", "R1", "R2"], ["B1", "B2", "B3"]], ["R5"], NM, draw=FILLER)
    ev = g.play("WR4:G")
    assert ev == [CardPlayed(0, C("WR4"), G), DirectionChanged(-1), PenaltyPending(0, 4)]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 0, 4)
    assert legal(g) == {"accept"} | wilds("W6")
    ev = g.play("W6:Y")
    assert ev == [CardPlayed(0, C("W6"), Y), PenaltyPending(1, 10)]
    assert (g.phase, g.active_seat) == (Phase.RESPOND, 1)
    g.play("accept")
    assert hands(g)[1] == ["B1", "B2", "B3", *FILLER[:10]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


@pytest.mark.rule("TWO-7")
def test_two_seat_wrd4_player_accepting_draws_and_loses_its_turn() -> None:
    g = make([["WR4", "R1", "R2"], ["B1", "B2", "B3"]], ["R5"], NM, draw=FILLER)
    g.play("WR4:G")
    ev = g.play("accept")
    assert ev == [Drew(0, 4, "penalty"), DrewCards(0, cards(*FILLER[:4]))]
    assert hands(g)[0] == ["R1", "R2", *FILLER[:4]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)


@pytest.mark.rule("TWO-7", "HOUSE-2")
def test_two_seat_wrd4_as_a_stacking_response_comes_back_to_the_responder() -> None:
    g = make([["RD2", "R1", "R2"], ["WR4", "YD4", "B3", "B4"]], ["R5"], NM, draw=FILLER)
    g.play("RD2")
    assert g.active_seat == 1
    ev = g.play("WR4:Y")
    assert ev == [CardPlayed(1, C("WR4"), Y), DirectionChanged(-1), PenaltyPending(1, 6)]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 1, 6)
    assert legal(g) == {"accept", "YD4"}
    g.play("YD4")  # stacking sends the total to the opponent
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 0, 10)
    g.play("accept")
    assert hands(g)[0] == ["R1", "R2", *FILLER[:10]]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 1)


@pytest.mark.rule("NM-8", "CL-END-4")
def test_last_card_wrd4_with_three_seats_hits_the_new_next_seat() -> None:
    g = make([["Y1", "Y2", "Y3"], ["WR4"], ["G5", "G6", "G7"]], ["R5"], NM, active=1, called=[1], draw=FILLER)
    ev = g.play("WR4")
    assert ev[:3] == [CardPlayed(1, C("WR4")), DirectionChanged(-1), Drew(0, 4, "penalty")]
    assert hands(g) == [["Y1", "Y2", "Y3", *FILLER[:4]], [], ["G5", "G6", "G7"]]
    assert g.phase is Phase.ROUND_OVER


@pytest.mark.rule("TWO-7")
def test_wrd4_targets_its_player_once_knockouts_leave_two_seats() -> None:
    g = make([["WR4", "R1", "R2"], [], ["B1", "B2", "B3"]], ["R5"], NM, knocked_out=[1], draw=FILLER)
    ev = g.play("WR4:G")
    assert ev == [CardPlayed(0, C("WR4"), G), DirectionChanged(-1), PenaltyPending(0, 4)]
    assert (g.phase, g.active_seat) == (Phase.RESPOND, 0)
    g.play("accept")
    assert (g.phase, g.active_seat, len(g.hand(0))) == (Phase.PLAY, 2, 6)


@pytest.mark.rule("TWO-7", "CL-END-4")
def test_two_seat_last_card_wrd4_makes_the_opponent_draw() -> None:
    g = make([["WR4"], ["B1", "B2", "W6"]], ["R5"], NM, draw=FILLER, called=[0])
    assert "WR4" in legal(g)  # a last wild needs no color
    ev = g.play("WR4")
    assert ev[:3] == [CardPlayed(0, C("WR4")), DirectionChanged(-1), Drew(1, 4, "penalty")]
    assert hands(g)[1] == ["B1", "B2", "W6", *FILLER[:4]]
    assert g.phase is Phase.ROUND_OVER
    result = g.round_result()
    assert result is not None
    assert (result.winner, result.points) == (0, 1 + 2 + 50 + 1 + 2 + 3 + 4)


@pytest.mark.rule("TWO-7", "CL-END-4", "HOUSE-4")
def test_two_seat_last_card_wrd4_as_a_stack_makes_the_opponent_draw_the_total() -> None:
    g = make([["RD2", "R1", "R2"], ["WR4"]], ["R5"], NM, draw=FILLER, called=[1])
    g.play("RD2")
    ev = g.play("WR4")
    assert Drew(0, 6, "penalty") in ev
    assert hands(g)[0] == ["R1", "R2", *FILLER[:6]]
    assert g.phase is Phase.ROUND_OVER
    assert g.round_result() is not None and g.round_result().winner == 1


# ---------------------------------------------------------------------------------------------
# NM-9: Skip Everyone


@pytest.mark.rule("NM-9")
def test_skip_everyone_gives_the_player_another_normal_turn() -> None:
    g = make([["RSE", "R3", "G4", "G5"], ["B1", "B2"], ["B3", "B4"], ["B5", "B6"]], ["R5"], NM, draw=FILLER)
    ev = g.play("RSE")
    assert ev[0] == CardPlayed(0, C("RSE"))
    assert (g.phase, g.active_seat, g.top_card) == (Phase.PLAY, 0, C("RSE"))
    assert legal(g) == {"R3"}  # a normal turn: matching, and the play duty of NM-4
    g.play("R3")
    assert (g.active_seat, hands(g)[0]) == (1, ["G4", "G5"])


@pytest.mark.rule("NM-9")
def test_skip_everyone_extra_turn_may_have_to_draw() -> None:
    g = make([["RSE", "G4", "G5"], ["B1", "B2"], ["B3", "B4"]], ["R5"], NM, draw=["Y1", "R8", "B7"])
    g.play("RSE")
    assert legal(g) == {"draw"}
    g.play("draw")
    assert legal(g) == {"R8"}


@pytest.mark.rule("NM-9", "HOUSE-7")
def test_skip_everyone_jump_in_gives_the_jumper_another_turn() -> None:
    g = make([["G1", "G2", "G3"], ["B1", "B2"], ["RSE", "R1", "Y2", "Y3"], ["B3", "B4"]],
             ["R3", "RSE"],
             nm_rules(jump_in=True), active=0, top_player=0, draw=FILLER)
    assert legal(g, 2) == {"RSE"}
    ev = g.play("RSE", seat=2)
    assert ev == [CardPlayed(2, C("RSE"), jump_in=True)]
    assert (g.phase, g.active_seat) == (Phase.PLAY, 2)
    assert legal(g) == {"R1"}


@pytest.mark.rule("NM-9", "CL-END-7")
def test_skip_everyone_as_the_last_card_just_goes_out() -> None:
    g = make([["RSE"], ["B1", "B2"], ["B3", "B4"]], ["R5"], NM, called=[0], draw=FILLER)
    ev = g.play("RSE")
    assert ev == [CardPlayed(0, C("RSE")), RoundEnded(0, 10, (0, 3, 7), (10, 0, 0))]


@pytest.mark.rule("NM-9", "TWO-3")
def test_two_seat_skip_everyone() -> None:
    g = make([["RSE", "R3", "G4"], ["B1", "B2"]], ["R5"], NM, draw=FILLER)
    g.play("RSE")
    assert (g.phase, g.active_seat) == (Phase.PLAY, 0)


# ---------------------------------------------------------------------------------------------
# NM-10: Discard All


@pytest.mark.rule("NM-10")
def test_discard_all_slips_every_card_of_its_color_under_it() -> None:
    g = make([["RDA", "R1", "G2", "R5", "RS", "W6", "RD2"], ["B1", "B2"], ["B3", "B4"]], ["Y7", "R9"], NM,
             draw=FILLER)
    before = names(g.discard_pile)
    ev = g.play("RDA")
    assert ev == [CardPlayed(0, C("RDA")), Slipped(0, cards("R1", "R5", "RS", "RD2"))]
    assert hands(g)[0] == ["G2", "W6"]
    assert names(g.discard_pile) == [*before, "R1", "R5", "RS", "RD2", "RDA"]
    # The slipped cards have no effect: no penalty from the Draw Two, no skip.
    assert (g.phase, g.active_seat, g.top_card, g.current_color, g.pending_penalty) == (
        Phase.PLAY, 1, C("RDA"), R, 0)


@pytest.mark.rule("NM-10")
def test_discard_all_played_by_symbol_slips_its_own_color() -> None:
    g = make([["BDA", "B1", "R2", "B5"], ["Y1", "Y2"], ["Y3", "Y4"]], ["Y7", "RDA"], NM, draw=FILLER)
    ev = g.play("BDA")
    assert ev == [CardPlayed(0, C("BDA")), Slipped(0, cards("B1", "B5")), Exposed(0)]
    assert hands(g)[0] == ["R2"]
    assert (g.current_color, g.exposed) == (B, (0,))


@pytest.mark.rule("NM-10", "NM-18")
def test_discard_all_leaving_one_card_exposes_unless_flagged() -> None:
    g = make([["RDA", "R1", "G2"], ["B1", "B2"], ["B3", "B4"]], ["R9"], NM, draw=FILLER)
    reject(make([["RDA", "R1", "G2", "G3"], ["B1", "B2"], ["B3", "B4"]], ["R9"], NM, draw=FILLER), "RDA!")
    ev = g.play("RDA")
    assert ev[-1] == Exposed(0)
    assert (hands(g)[0], g.exposed) == (["G2"], (0,))
    ev = g.play("catch:0", seat=2)
    assert ev == [Caught(2, 0, 2), Drew(0, 2, "catch"), DrewCards(0, cards("B1", "B2"))]
    assert (g.active_seat, hands(g)[0]) == (1, ["G2", "B1", "B2"])
    g = make([["RDA", "R1", "G2"], ["B1", "B2"], ["B3", "B4"]], ["R9"], NM, draw=FILLER)
    ev = g.play("RDA!")
    assert ev == [CardPlayed(0, C("RDA"), uno=True), Slipped(0, cards("R1"))]
    assert g.exposed == ()
    reject(g, "catch:0", seat=2)


@pytest.mark.rule("NM-10", "NM-19")
def test_going_out_by_discard_all() -> None:
    g = make([["RDA", "R1", "R2", "RD4"], ["B1", "B2"], ["W6", "G3"]], ["R9"], NM, draw=FILLER)
    ev = g.play("RDA")
    assert ev == [
        CardPlayed(0, C("RDA")),
        Slipped(0, cards("R1", "R2", "RD4")),
        RoundEnded(0, 56, (0, 3, 53), (56, 0, 0)),
    ]
    assert g.phase is Phase.ROUND_OVER
    assert hands(g)[0] == []


@pytest.mark.rule("NM-10", "CL-END-7")
def test_discard_all_as_the_last_card_has_no_further_effect() -> None:
    g = make([["RDA"], ["R1", "B2"], ["B3", "B4"]], ["R9"], NM, draw=FILLER, called=[0])
    ev = g.play("RDA")
    assert ev == [CardPlayed(0, C("RDA")), RoundEnded(0, 10, (0, 3, 7), (10, 0, 0))]


# ---------------------------------------------------------------------------------------------
# NM-11, NM-12: Wild Color Roulette

ROULETTE_HANDS = [["WCR", "G1", "G2"], ["B7", "B8", "Y9"], ["Y4", "Y5", "G6"]]


@pytest.mark.rule("NM-11")
def test_roulette_player_names_no_color_and_the_next_seat_must() -> None:
    g = make(ROULETTE_HANDS, ["R5"], NM, draw=["R1", "W6", "B2", "G7", "Y1"])
    reject(g, "WCR:R", error=InvalidActionError)
    ev = g.play("WCR")
    assert ev == [CardPlayed(0, C("WCR"))]
    assert (g.phase, g.active_seat, g.top_card, g.current_color) == (Phase.CHOOSE_COLOR, 1, C("WCR"), None)
    assert legal(g) == {"color:R", "color:Y", "color:G", "color:B"}
    reject(g, "B7")
    reject(g, "draw")
    reject(g, "color:R", seat=2, error=NotYourTurnError)
    ev = g.play("color:G")
    # Each card joins the hand as it is revealed; the wild W6 never matches.
    assert ev == [ColorChosen(1, G), Revealed(1, C("R1")), Revealed(1, C("W6")), Revealed(1, C("B2")),
                  Revealed(1, C("G7"))]
    assert hands(g)[1] == ["B7", "B8", "Y9", "R1", "W6", "B2", "G7"]
    # The seat loses its turn and its color stands.
    assert (g.phase, g.active_seat, g.current_color, g.top_card) == (Phase.PLAY, 2, G, C("WCR"))
    assert g.draw_pile_size == 1


@pytest.mark.rule("NM-11", "NM-7")
def test_roulette_is_not_a_draw_card() -> None:
    g = make([["RD2", "G1", "G2"], ["WCR", "B8", "B9"], ["Y4", "Y5", "G6"]], ["R5"], NM, draw=FILLER)
    g.play("RD2")
    assert legal(g) == {"accept"}  # it cannot be played while a penalty is pending
    reject(g, "WCR")
    # Nor can a Roulette be stacked on or answered: its victim only names a color.
    g = make([["WCR", "G1", "G2"], ["W10", "BD2", "B9"], ["Y4", "Y5", "G6"]], ["R5"], NM, draw=FILLER)
    g.play("WCR")
    assert legal(g) == {"color:R", "color:Y", "color:G", "color:B"}
    reject(g, "W10:R")
    reject(g, "accept")


@pytest.mark.rule("NM-11", "HOUSE-6")
def test_no_jump_in_during_a_roulette_color_choice() -> None:
    g = make([["WCR", "R5", "G2"], ["B7", "B8", "Y9"], ["Y4", "R5", "G6"]], ["R3"], nm_rules(jump_in=True),
             draw=FILLER)
    g.play("WCR")
    assert legal(g, 2) == set()
    reject(g, "R5", seat=2, error=NotYourTurnError)


@pytest.mark.rule("NM-11", "CL-END-7")
def test_last_card_roulette_is_resolved_before_scoring() -> None:
    g = make([["WCR"], ["B7", "B8"], ["Y4", "Y5"]], ["R5"], NM, draw=["R1", "WCR", "G7", "Y1"], called=[0])
    g.play("WCR")
    assert (g.phase, g.active_seat) == (Phase.CHOOSE_COLOR, 1)
    ev = g.play("color:G")
    assert ev[:4] == [ColorChosen(1, G), Revealed(1, C("R1")), Revealed(1, C("WCR")), Revealed(1, C("G7"))]
    assert g.phase is Phase.ROUND_OVER
    result = g.round_result()
    assert result is not None
    assert (result.winner, result.points) == (0, 7 + 8 + 1 + 50 + 7 + 4 + 5)


@pytest.mark.rule("NM-12", "NM-11")
def test_roulette_refills_the_draw_pile_and_the_roulette_stays_on_top() -> None:
    g = make(ROULETTE_HANDS, ["R5"], NM, draw=["R1"])
    pool = len(g.discard_pile) - 1
    g.play("WCR")
    ev = g.play("color:G")
    revealed = [e.card for e in ev if isinstance(e, Revealed)]
    assert ev[:3] == [ColorChosen(1, G), Revealed(1, C("R1")), Reshuffled(pool + 1)]
    assert revealed[-1].color is G
    assert all(c.color is not G for c in revealed[:-1])
    assert hands(g)[1] == ["B7", "B8", "Y9", *names(revealed)]
    assert names(g.discard_pile) == ["WCR"]
    assert (g.phase, g.active_seat, g.current_color) == (Phase.PLAY, 2, G)
    assert g.draw_pile_size == pool + 1 - len(revealed) + 1


@pytest.mark.rule("NM-12")
def test_roulette_stops_when_no_card_remains_and_the_color_stands() -> None:
    # Every card of the deck is placed: seat 2 holds all the rest, every green card included.
    listed = [["G5", "Y7", "R8"], ["B7", "B8"], ["R1", "B2"], ["Y3", "WCR"]]
    rest = rest_of_deck(*listed)
    assert "G1" in rest
    g = make([listed[0], listed[1], rest], listed[3], nm_rules(mercy_limit=0), draw=listed[2], fill="none",
             phase="choose_color", color=None, color_for="roulette", active=1, top_player=0)
    ev = g.play("color:G")
    assert ev == [ColorChosen(1, G), Revealed(1, C("R1")), Revealed(1, C("B2")), Reshuffled(1),
                  Revealed(1, C("Y3"))]
    assert hands(g)[1] == ["B7", "B8", "R1", "B2", "Y3"]
    assert names(g.discard_pile) == ["WCR"]
    assert g.draw_pile_size == 0
    assert (g.phase, g.active_seat, g.current_color) == (Phase.PLAY, 2, G)


# ---------------------------------------------------------------------------------------------
# NM-13: seven-zero is always on


@pytest.mark.rule("NM-13")
def test_seven_zero_cannot_be_turned_off() -> None:
    with pytest.raises(RulesetError):
        Ruleset.preset(NM).replace(seven_zero=False)


@pytest.mark.rule("NM-13", "HOUSE-9")
def test_no_mercy_seven_swaps_and_needs_a_target() -> None:
    g = make([["R7", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3", "Y4"]], ["R3"], NM, draw=FILLER)
    reject(g, "R7", error=InvalidActionError)
    ev = g.play("R7>2")
    assert ev[:2] == [CardPlayed(0, C("R7"), target=2), HandsSwapped(0, 2)]
    assert hands(g) == [["Y1", "Y2", "Y3", "Y4"], ["B1", "B2", "B3"], ["G1", "G2"]]
    assert g.active_seat == 1


@pytest.mark.rule("NM-13", "HOUSE-10")
def test_no_mercy_zero_passes_hands() -> None:
    g = make([["R0", "G1", "G2"], ["B1", "B2", "B3"], ["Y1", "Y2", "Y3", "Y4"]], ["R3"], NM, draw=FILLER)
    ev = g.play("R0")
    assert ev[1] == HandsPassed(1)
    assert hands(g) == [["Y1", "Y2", "Y3", "Y4"], ["G1", "G2"], ["B1", "B2", "B3"]]


@pytest.mark.rule("NM-13", "CL-END-7")
def test_no_mercy_last_card_seven_has_no_effect() -> None:
    g = make([["R7"], ["B1", "B2", "B3"], ["Y1", "Y2"]], ["R3"], NM, draw=FILLER, called=[0])
    g.play("R7")
    assert g.phase is Phase.ROUND_OVER
    assert hands(g) == [[], ["B1", "B2", "B3"], ["Y1", "Y2"]]


# ---------------------------------------------------------------------------------------------
# NM-14 to NM-16: the mercy rule


@pytest.mark.rule("NM-14", "NM-15")
def test_victim_knocked_out_mid_penalty_and_next_seat_plays() -> None:
    # The RULES.md example: 20 cards, a stack of 10 accepted, out on the fifth card.
    g = make([["W10", "R1", "R2"], list(YELLOW20), ["G5", "G6", "B9"]], ["R5"], NM, draw=FILLER)
    g.play("W10:B")
    ev = g.play("accept")
    assert ev == [Drew(1, 5, "penalty"), DrewCards(1, cards(*FILLER[:5])), KnockedOut(1, 25)]
    assert hands(g)[1] == []
    assert g.to_position()["set_aside"] == YELLOW20 + FILLER[:5]
    assert g.to_position()["knocked_out"] == [1]
    assert g.in_round == (True, False, True)
    # The last 5 are not drawn; the penalty lapses; next(knocked seat) plays.
    assert names(g.to_position()["draw"]) == FILLER[5:]
    assert (g.phase, g.active_seat, g.pending_penalty, g.current_color) == (Phase.PLAY, 2, 0, B)
    assert sum(all_cards(g).values()) == 168


@pytest.mark.rule("NM-14", "NM-15")
def test_knocked_out_mid_penalty_against_the_direction() -> None:
    g = make([["G5", "G6", "B9"], list(YELLOW20), ["W10", "R1", "R2"], ["B1", "B2"]], ["R5"],
             NM, active=2, direction=-1, draw=FILLER)
    g.play("W10:G")
    assert g.active_seat == 1
    g.play("accept")
    assert (g.phase, g.active_seat, g.in_round) == (Phase.PLAY, 0, (True, False, True, True))


@pytest.mark.rule("NM-14")
def test_knocked_out_while_drawing_until_playable() -> None:
    hand = [*YELLOW20, "G1", "G2", "G3"]  # 23 cards, nothing red, no 5
    g = make([["R1", "R2", "B1"], hand, ["B5", "B6", "B7"]], ["RS"], NM, active=1,
             draw=["B2", "G4", "R9", "R8"])
    assert legal(g) == {"draw"}
    ev = g.play("draw")
    assert ev == [Drew(1, 2, "draw"), DrewCards(1, cards("B2", "G4")), KnockedOut(1, 25)]
    assert g.to_position()["set_aside"] == [*hand, "B2", "G4"]
    assert (g.phase, g.active_seat, g.draw_pile_size) == (Phase.PLAY, 2, 2)


@pytest.mark.rule("NM-14", "NM-11")
def test_knocked_out_by_roulette_reveals() -> None:
    hand = [*YELLOW20, "B7", "B8"]  # 22 cards
    g = make([["WCR", "R1", "R2"], hand, ["B5", "B6", "B9"]], ["R5"], NM, draw=["R3", "B1", "B2", "G4"])
    g.play("WCR")
    ev = g.play("color:G")
    assert ev == [ColorChosen(1, G), Revealed(1, C("R3")), Revealed(1, C("B1")), Revealed(1, C("B2")),
                  KnockedOut(1, 25)]
    assert g.to_position()["set_aside"] == [*hand, "R3", "B1", "B2"]
    assert (g.phase, g.active_seat, g.current_color, g.draw_pile_size) == (Phase.PLAY, 2, G, 1)


@pytest.mark.rule("NM-14")
@pytest.mark.parametrize(("start", "knocked"), [(20, False), (21, True)])
def test_mercy_limit_is_twenty_five_or_more(start: int, knocked: bool) -> None:
    hand = YELLOW20 + ["G1"] * (start - 20)
    g = make([["RD4", "R1", "R2"], hand, ["B5", "B6", "B9"]], ["R5"], NM, draw=FILLER)
    g.play("RD4")
    ev = g.play("accept")
    assert (KnockedOut(1, 25) in ev) is knocked
    assert len(g.hand(1)) == (0 if knocked else 24)
    assert g.in_round[1] is not knocked
    assert g.active_seat == 2


@pytest.mark.rule("NM-14")
def test_mercy_limit_zero_turns_the_rule_off_and_other_limits_apply() -> None:
    g = make([["W10", "R1", "R2"], YELLOW20, ["B5", "B6", "B9"]], ["R5"], nm_rules(mercy_limit=0),
             draw=FILLER)
    g.play("W10:G")
    ev = g.play("accept")
    assert not any(isinstance(e, KnockedOut) for e in ev)
    assert len(g.hand(1)) == 30
    g = make([["RD2", "R1", "R2"], YELLOW20[:8], ["B5", "B6", "B9"]], ["R5"], nm_rules(mercy_limit=10),
             draw=FILLER)
    g.play("RD2")
    ev = g.play("accept")
    assert ev[-1] == KnockedOut(1, 10)


@pytest.mark.rule("NM-14", "NM-15", "NM-18")
def test_a_catch_penalty_can_knock_out_a_seat_that_is_not_active() -> None:
    g = make([["R1", "G2", "G3"], ["R4", "B2", "B3"], ["Y1"], ["B4", "B5"]],
             ["R3"], nm_rules(mercy_limit=10, uno_penalty=10), active=1, exposed=[2],
             draw=FILLER)
    ev = g.play("catch:2", seat=3)
    assert ev == [Caught(3, 2, 10), Drew(2, 9, "catch"), DrewCards(2, cards(*FILLER[:9])), KnockedOut(2, 10)]
    assert g.to_position()["set_aside"] == ["Y1", *FILLER[:9]]
    assert (g.phase, g.active_seat, g.in_round) == (Phase.PLAY, 1, (True, True, False, True))
    g.play("R4")
    assert g.active_seat == 3


@pytest.mark.rule("NM-14")
def test_a_swapped_in_big_hand_is_not_a_draw() -> None:
    g = make([["R7", "R1", "R2"], [*YELLOW20, "G1", "G2", "G3", "G4", "G5", "G6"], ["B5", "B6", "B9"]],
             ["R5"], NM, draw=FILLER)
    g.play("R7>1")
    assert len(g.hand(0)) == 26
    assert g.in_round == (True, True, True)


@pytest.mark.rule("NM-14", "CL-DRAW-5")
def test_set_aside_hand_is_shuffled_in_at_the_next_reshuffle() -> None:
    aside = [*YELLOW20, "G1", "G2", "G3", "G4", "G5"]
    g = make([["B1", "B2", "B3"], [], ["G8", "G9", "B9"]], ["R5"], NM, knocked_out=[1], set_aside=aside)
    pool = len(g.discard_pile) - 1
    assert g.draw_pile_size == 0
    ev = g.play("draw")
    assert ev[0] == Reshuffled(pool + 25)
    assert g.to_position()["set_aside"] == []
    drawn = next(e.cards for e in ev if isinstance(e, DrewCards))
    assert g.draw_pile_size == pool + 25 - len(drawn)
    assert names(g.discard_pile) == ["R5"]
    assert sum(all_cards(g).values()) == 168


@pytest.mark.rule("NM-14")
def test_set_aside_hand_waits_until_a_reshuffle() -> None:
    g = make([["W10", "R1", "R2"], list(YELLOW20), ["G5", "G6", "B9"]], ["R5"], NM, draw=FILLER)
    discard = names(g.discard_pile)
    g.play("W10:G")
    g.play("accept")
    assert names(g.discard_pile) == [*discard, "W10"]
    assert names(g.to_position()["draw"]) == FILLER[5:]
    assert len(g.to_position()["set_aside"]) == 25


@pytest.mark.rule("NM-15")
def test_knocked_out_seat_is_skipped() -> None:
    g = make([["R1", "RS", "G1"], ["R2", "B2"], [], ["B4", "B5"]], ["R5"], NM, knocked_out=[2], active=1,
             draw=FILLER)
    g.play("R2")
    assert g.active_seat == 3
    g = make([["R1", "G1", "G2"], ["RS", "B2", "B3"], [], ["B4", "B5"]], ["R5"], NM, knocked_out=[2],
             active=1, draw=FILLER)
    ev = g.play("RS")
    assert ev == [CardPlayed(1, C("RS")), Skipped(3)]
    assert g.active_seat == 0


@pytest.mark.rule("NM-15")
def test_knocked_out_seat_cannot_act_or_be_targeted() -> None:
    g = make([["R7", "R1", "G1"], ["B2", "B3"], [], ["B4"]], ["R5"], NM, knocked_out=[2], exposed=[3],
             draw=FILLER)
    assert legal(g, 2) == set()
    reject(g, "uno", seat=2, error=NotYourTurnError)
    reject(g, "catch:3", seat=2, error=NotYourTurnError)
    reject(g, "R7>2", error=InvalidActionError)
    assert {a for a in legal(g) if a.startswith("R7")} == {"R7>1", "R7>3", "R7>3!"}
    assert 2 not in g.seats_to_act


@pytest.mark.rule("NM-15", "HOUSE-10")
def test_hands_are_not_passed_to_a_knocked_out_seat() -> None:
    g = make([["R0", "G1", "G2"], ["B1", "B2"], [], ["Y1", "Y2", "Y3"]], ["R5"], NM, knocked_out=[2],
             draw=FILLER)
    g.play("R0")
    assert hands(g) == [["Y1", "Y2", "Y3"], ["G1", "G2"], [], ["B1", "B2"]]
    assert g.active_seat == 1


@pytest.mark.rule("NM-15")
def test_victim_knocked_out_before_answering_loses_the_pending_penalty() -> None:
    # A false UNO call (false_uno_penalty 1) takes the victim of +4 to 25 cards.
    hand = [*YELLOW20, "G1", "G2", "G3", "G4"]
    g = make([["G5", "G6", "B9"], hand, ["RD4", "B1", "B2"]], ["R5"], nm_rules(false_uno_penalty=1), active=2,
             draw=FILLER)
    g.play("RD4")
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.RESPOND, 0, 4)
    g = make([["RD4", "B1", "B2"], hand, ["G5", "G6", "B9"]], ["R5"], nm_rules(false_uno_penalty=1),
             draw=FILLER)
    g.play("RD4")
    ev = g.play("uno", seat=1)
    assert ev == [FalseUno(1, 1), Drew(1, 1, "false_uno"), DrewCards(1, cards("B1")), KnockedOut(1, 25)]
    assert (g.phase, g.active_seat, g.pending_penalty) == (Phase.PLAY, 2, 0)
    assert hands(g)[2] == ["G5", "G6", "B9"]


GREEN25 = ["G0", "G5", "G6", "G7", "G8", "G9"] * 2 + ["GS", "GR", "GDA"] * 3 + ["GSE", "GD2"] * 2


@pytest.mark.rule("NM-16", "NM-19")
def test_last_seat_standing_wins_at_once() -> None:
    g = make([["W10", "R1", "R2"], list(YELLOW20), []], ["R5"], NM, knocked_out=[2],
             set_aside=GREEN25,
             draw=FILLER)
    g.play("W10:B")
    ev = g.play("accept")
    assert ev == [
        Drew(1, 5, "penalty"),
        DrewCards(1, cards(*FILLER[:5])),
        KnockedOut(1, 25),
        RoundEnded(0, 500, (3, 0, 0), (500, 0, 0)),
    ]
    assert g.phase is Phase.ROUND_OVER
    result = g.round_result()
    assert result is not None
    assert (result.winner, result.points, result.knocked_out) == (0, 500, (1, 2))


@pytest.mark.rule("NM-14", "NM-19", "CL-END-4")
def test_last_card_penalty_that_knocks_out_scores_250_and_not_the_hand() -> None:
    g = make([["W10"], YELLOW20, ["G5", "RD4"]], ["R5"], NM, called=[0], draw=FILLER)
    ev = g.play("W10")
    assert ev == [
        CardPlayed(0, C("W10")),
        Drew(1, 5, "penalty"),
        DrewCards(1, cards(*FILLER[:5])),
        KnockedOut(1, 25),
        RoundEnded(0, 5 + 20 + 250, (0, 0, 25), (275, 0, 0)),
    ]
    assert g.phase is Phase.ROUND_OVER


@pytest.mark.rule("NM-16")
def test_two_seats_one_knocked_out_the_other_wins() -> None:
    g = make([["R1", "R2", "B9"], [*YELLOW20, "G1", "G2", "G3", "G4"]], ["RS"], NM, active=1,
             draw=["B1", "R9"])
    ev = g.play("draw")
    assert ev[-2:] == [KnockedOut(1, 25), RoundEnded(0, 250, (12, 0), (250, 0))]
    assert g.phase is Phase.ROUND_OVER


# ---------------------------------------------------------------------------------------------
# NM-17, NM-18: no challenge, UNO


@pytest.mark.rule("NM-17")
def test_no_challenge_in_no_mercy() -> None:
    g = make([["W6", "WR4", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G5", "G6"]], ["R5"], NM, draw=FILLER)
    assert {"W6:G", "WR4:G"} <= legal(g)  # no condition, although seat 0 holds red cards
    g.play("W6:G")
    assert legal(g) == {"accept"}
    reject(g, "challenge")


@pytest.mark.rule("NM-17", "NM-1")
def test_wd4_rule_has_no_effect_in_no_mercy() -> None:
    g = make([["W10", "WR4", "R1"], ["Y1", "Y2", "Y3"], ["G5", "G6"]], ["R5"], nm_rules(wd4_rule="strict"),
             draw=FILLER)
    assert {"W10:G", "WR4:B", "R1"} <= legal(g)
    g.play("WR4:B")
    assert legal(g) == {"accept"}


@pytest.mark.rule("NM-18")
def test_no_mercy_uno_call_and_catch_of_two() -> None:
    g = make([["R1", "G2"], ["Y1", "Y2", "Y3"], ["G5", "G6"]], ["R5"], NM, draw=FILLER)
    ev = g.play("R1")
    assert ev == [CardPlayed(0, C("R1")), Exposed(0)]
    ev = g.play("catch:0", seat=2)
    assert ev == [Caught(2, 0, 2), Drew(0, 2, "catch"), DrewCards(0, cards("B1", "B2"))]
    assert (g.active_seat, hands(g)[0]) == (1, ["G2", "B1", "B2"])
    g = make([["R1", "G2"], ["Y1", "Y2", "Y3"], ["G5", "G6"]], ["R5"], NM, draw=FILLER)
    ev = g.play("R1!")
    assert ev == [CardPlayed(0, C("R1"), uno=True)]
    reject(g, "catch:0", seat=2)
    g = make([["R1", "G2"], ["Y1", "Y2", "Y3"], ["G5", "G6"]], ["R5"], NM, draw=FILLER)
    g.play("R1")
    g.play("uno", seat=0)
    reject(g, "catch:0", seat=1)


# ---------------------------------------------------------------------------------------------
# NM-19, DECK-9: scoring


# DECK-9: 9 + 6 * 20 + 4 * 50 = 329.
SCORED_HAND = ["R9", "GS", "BR", "YD2", "RD4", "GDA", "BSE", "WR4", "W6", "W10", "WCR"]
KNOCKED_HAND = [f"B{n}" for n in range(10)] * 2 + ["BS", "BS", "BS", "BR", "BR"]


@pytest.mark.rule("NM-19", "DECK-9")
def test_no_mercy_round_score_counts_in_round_hands_and_250_per_knockout() -> None:
    g = make([["R1"], SCORED_HAND, ["R0", "Y5"], []], ["R5"], NM, knocked_out=[3], set_aside=KNOCKED_HAND,
             called=[0])
    ev = g.play("R1")
    assert ev == [CardPlayed(0, C("R1")), RoundEnded(0, 584, (0, 329, 5, 0), (584, 0, 0, 0))]
    assert (g.phase, g.scores) == (Phase.ROUND_OVER, (584, 0, 0, 0))
    result = g.round_result()
    assert result is not None and (result.points, result.knocked_out) == (584, (3,))


@pytest.mark.rule("NM-19")
def test_no_mercy_match_target_is_1000() -> None:
    g = make([["R1"], ["Y5", "Y4"], ["R0", "Y9"]], ["R5"], NM, called=[0], scores=[990, 0, 0], draw=FILLER)
    g.play("R1")
    assert (g.phase, g.scores) == (Phase.MATCH_OVER, (1008, 0, 0))
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == (0,)
    g = make([["R1"], ["Y5", "Y4"], ["R0", "Y9"]], ["R5"], NM, called=[0], scores=[981, 0, 0], draw=FILLER)
    g.play("R1")
    assert (g.phase, g.scores) == (Phase.ROUND_OVER, (999, 0, 0))


@pytest.mark.rule("NM-19")
def test_no_mercy_scoring_none_is_a_single_round() -> None:
    g = make([["R1"], ["Y5", "Y4"], ["R0", "Y9"]], ["R5"], nm_rules(scoring="none"), called=[0], draw=FILLER)
    ev = g.play("R1")
    assert ev[-1] == MatchEnded((0,), (18, 0, 0))
    assert g.phase is Phase.MATCH_OVER
