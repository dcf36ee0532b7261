"""Rule scenarios for turns and drawing: GEN-2, GEN-3, GEN-5, CL-TURN-1 to CL-TURN-7, CL-DRAW-1 to CL-DRAW-8.

Each scenario builds an exact position with ``Game.from_position``, plays actions and checks the
exact outcome. ``dump`` puts every card of the deck that a scenario does not list into one seat's
hand (``fill: none``), so that the piles hold only the listed cards (reshuffle and exhaustion).
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from unotable import (
    CallUno,
    Card,
    Color,
    Game,
    IllegalActionError,
    InvalidActionError,
    NotationError,
    NotYourTurnError,
    Phase,
    Play,
    Ruleset,
    UnoError,
    parse_action,
)
from unotable.events import (
    CardPlayed,
    Caught,
    DirectionChanged,
    Drew,
    DrewCards,
    Event,
    Exposed,
    FalseCatch,
    HandsSwapped,
    NewHand,
    Passed,
    PenaltyPending,
    Reshuffled,
    RoundEnded,
    Skipped,
)

OFFICIAL = Ruleset.preset("official")
NO_MERCY = Ruleset.preset("no-mercy")

# --------------------------------------------------------------------------------------------
# helpers


def _rules(ruleset: Ruleset | str) -> Ruleset:
    return Ruleset.preset(ruleset) if isinstance(ruleset, str) else ruleset


def deck_counter(ruleset: Ruleset | str) -> Counter:
    return Counter({str(Card.from_id(c)): k for c, k in _rules(ruleset).composition().items()})


def game_at(
    hands: list[str],
    discard: str,
    draw: str = "",
    ruleset: Ruleset | str = "official",
    dump: int | None = None,
    **kw: object,
) -> Game:
    """A position: hands and piles as space-separated cards (discard bottom first, draw top first)."""
    rules = _rules(ruleset)
    hand_lists = [h.split() for h in hands]
    doc: dict = {
        "ruleset": rules.to_dict(), "hands": hand_lists, "discard": discard.split(), "draw": draw.split()
    }
    if dump is not None:
        listed = Counter(c for h in hand_lists for c in h) + Counter(discard.split()) + Counter(draw.split())
        listed += Counter(kw.get("set_aside", []))
        hand_lists[dump] += sorted((deck_counter(rules) - listed).elements())
        doc["fill"] = "none"
    doc.update(kw)
    return Game.from_position(doc)


def names(items) -> list[str]:
    return [str(x) for x in items]


def hand(game: Game, seat: int) -> list[str]:
    return names(game.hand(seat))


def playable_cards(game: Game, seat: int | None = None) -> set[str]:
    legal = game.legal_actions if seat is None else game.legal_actions_for(seat)
    return {str(a.card) for a in legal if isinstance(a, Play)}


def table_counter(game: Game) -> Counter:
    doc = game.to_position()
    return Counter([c for h in doc["hands"] for c in h] + doc["draw"] + doc["discard"] + doc["set_aside"])


def reject(game: Game, action: str, seat: int | None = None, error: type[UnoError] = UnoError) -> None:
    """GEN-2: the action raises ``error`` and changes nothing at all."""
    before = game.to_position()
    events = len(game.events)
    actions = game.actions
    legal = names(game.legal_actions)
    with pytest.raises(error):
        game.play(action, seat)
    assert game.to_position() == before
    assert len(game.events) == events
    assert game.actions == actions
    assert names(game.legal_actions) == legal


def of(events: list[Event], kind: type[Event]) -> list:
    return [e for e in events if isinstance(e, kind)]


# --------------------------------------------------------------------------------------------
# GEN-2: illegal actions are rejected and change nothing


@pytest.mark.rule("GEN-2")
def test_every_kind_of_rejection_leaves_the_position_unchanged() -> None:
    game = game_at(["R5 G2 W B9", "B5 Y1", "G7 Y7"], "R3", "Y9 G4")
    reject(game, "B5", 1, NotYourTurnError)  # not its turn
    reject(game, "draw", 2, NotYourTurnError)
    reject(game, "R7", 0, IllegalActionError)  # a card it does not hold
    reject(game, "G2", 0, IllegalActionError)  # unplayable on R3
    reject(game, "pass", 0, IllegalActionError)  # no drawn card to keep
    reject(game, "W", 0, InvalidActionError)  # missing color
    reject(game, "W:R>1", 0, InvalidActionError)  # a plain Wild takes no target
    reject(game, "accept", 0, IllegalActionError)  # no pending penalty
    reject(game, "challenge", 0, IllegalActionError)
    reject(game, "color:G", 0, IllegalActionError)  # no color is awaited
    reject(game, "R5!", 0, IllegalActionError)  # the UNO flag on a play that leaves 3 cards
    reject(game, "uno", 0, IllegalActionError)  # a call with 4 cards (false_uno_penalty 0)
    reject(game, "catch:1", 0, IllegalActionError)  # nobody is exposed (false_catch_penalty 0)
    reject(game, "R5", 3, InvalidActionError)  # no such seat
    reject(game, "R5", -1, InvalidActionError)
    reject(game, "Q9", 0, NotationError)  # malformed text
    # the game goes on from exactly where it was
    game.play("R5")
    assert (str(game.top_card), game.active_seat, hand(game, 0)) == ("R5", 1, ["G2", "W", "B9"])


@pytest.mark.rule("GEN-2")
def test_rejected_draw_and_pass() -> None:
    # draw while holding a playable card, when may_draw_with_playable is false
    strict = OFFICIAL.replace(may_draw_with_playable=False)
    game = game_at(["R5 G2", "B5"], "R3", "Y9", ruleset=strict)
    reject(game, "draw", 0, IllegalActionError)
    # draw twice in one turn; play a card other than the drawn one
    game = game_at(["R5 G2", "B5"], "R3", "R9 Y1")
    game.play("draw")
    assert game.phase is Phase.PLAY_DRAWN
    reject(game, "draw", 0, IllegalActionError)
    reject(game, "R5", 0, IllegalActionError)
    # pass when force_play makes the drawn card compulsory
    forced = OFFICIAL.replace(force_play=True)
    game = game_at(["G2", "B5"], "R3", "R9 Y1", ruleset=forced)
    game.play("draw")
    reject(game, "pass", 0, IllegalActionError)


@pytest.mark.rule("GEN-2")
def test_rejected_targets() -> None:
    game = game_at(["WS R1 R2", "B5", "Y5"], "R3", "G1", ruleset="official-112-swap")
    reject(game, "WS:G", 0, InvalidActionError)  # target required
    reject(game, "WS:G>0", 0, InvalidActionError)  # itself
    reject(game, "WS:G>3", 0, InvalidActionError)  # no seat 3 in a 3-seat game
    reject(game, "WS>1", 0, InvalidActionError)  # color missing
    reject(game, "R1>2", 0, InvalidActionError)  # a number card takes no target without seven_zero
    game.play("WS:G>2")
    assert (hand(game, 0), hand(game, 2)) == (["Y5"], ["R1", "R2"])


@pytest.mark.rule("GEN-2")
def test_rejected_in_a_response_phase_and_after_the_round() -> None:
    game = game_at(["W4 G1 G2", "RD2 R1 Y1", "B1"], "R3", "Y9 Y8 Y7 Y6 Y5 Y4")
    game.play("W4:B")
    assert (game.phase, game.active_seat) == (Phase.RESPOND, 1)
    reject(game, "R1", 1, IllegalActionError)  # no normal play while a penalty is pending
    reject(game, "RD2", 1, IllegalActionError)  # no stacking under the official rules
    reject(game, "draw", 1, IllegalActionError)
    reject(game, "accept", 2, NotYourTurnError)
    game.play("accept")
    assert len(game.hand(1)) == 7
    # once the round is over, nothing is accepted
    over = game_at(["R5", "B5"], "R3", "Y9")
    over.play("R5")
    assert over.phase is Phase.ROUND_OVER
    reject(over, "B5", 1, IllegalActionError)
    reject(over, "draw", 1, IllegalActionError)


@pytest.mark.rule("GEN-2")
def test_seats_out_of_the_round_are_rejected() -> None:
    game = game_at(["R5 G2", "", "Y5 Y6", "B1"], "R3", "G1 G3", ruleset=NO_MERCY, knocked_out=[1])
    reject(game, "draw", 1, NotYourTurnError)
    reject(game, "uno", 1, NotYourTurnError)
    game = game_at(["R5", "B5 B6", "Y5"], "R3", "G1 G3 G4")
    game.play("R5")
    assert game.phase is Phase.ROUND_OVER
    reject(game, "catch:0", 1, IllegalActionError)
    # a seat eliminated from the match cannot act either
    rules = OFFICIAL.replace(scoring="elimination")
    game = game_at(["R5 G2", "", "Y5 Y6"], "R3", "G1 G3", ruleset=rules, eliminated=[1])
    reject(game, "draw", 1, NotYourTurnError)
    reject(game, "catch:2", 1, NotYourTurnError)


@pytest.mark.rule("GEN-2")
def test_only_false_calls_and_catches_can_cost_cards() -> None:
    # the exception GEN-2 names: a false catch with false_catch_penalty > 0 is applied
    rules = OFFICIAL.replace(false_catch_penalty=2)
    game = game_at(["R5 G2", "B5 B6", "Y5 Y6"], "R3", "G1 G3 G4")
    reject(game, "catch:1", 2, IllegalActionError)
    game = game_at(["R5 G2", "B5 B6", "Y5 Y6"], "R3", "G1 G3 G4", ruleset=rules)
    events = game.play("catch:1", 2)
    assert events[0] == FalseCatch(2, 1, 2)
    assert hand(game, 2) == ["Y5", "Y6", "G1", "G3"]
    assert game.active_seat == 0


# --------------------------------------------------------------------------------------------
# GEN-3: one action at a time, each judged against the state of that moment


@pytest.mark.rule("GEN-3")
def test_an_action_is_judged_against_the_state_when_it_arrives() -> None:
    game = game_at(["R5 R5 G2", "B5 Y1", "G7"], "R3", "Y9 G4")
    reject(game, "B5", 1, NotYourTurnError)  # too early: seat 0 is to play
    game.play("R5", 0)
    # the same action from seat 0 again is now out of turn, though it still holds an R5
    assert hand(game, 0) == ["R5", "G2"]
    reject(game, "R5", 0, NotYourTurnError)
    # seat 1's B5, illegal before, is legal now (number match on R5)
    game.play("B5", 1)
    assert (str(game.top_card), game.current_color, game.active_seat) == ("B5", Color.BLUE, 2)
    assert [(s, str(a)) for s, a in game.actions] == [(0, "R5"), (1, "B5")]


@pytest.mark.rule("GEN-3")
def test_the_first_of_two_catches_wins() -> None:
    game = game_at(["R5 G2", "B5 B6", "Y5 Y6"], "R3", "G1 G3 G4 G6")
    game.play("R5")  # seat 0 now holds one card without a call
    assert game.exposed == (0,)
    events = game.play("catch:0", 2)
    assert events[0] == Caught(2, 0, 2)
    assert hand(game, 0) == ["G2", "G1", "G3"]
    reject(game, "catch:0", 1, IllegalActionError)  # already caught: judged after the first catch
    assert game.active_seat == 1


# --------------------------------------------------------------------------------------------
# GEN-5: the deck is conserved


@pytest.mark.rule("GEN-5")
@pytest.mark.parametrize(
    ("ruleset", "seats", "seed"),
    [
        ("official", 4, 1),
        ("official-112-shuffle", 3, 2),
        ("official-112-swap", 5, 3),
        (OFFICIAL.replace(custom_effect="others_discard_wilds", deck="classic112_blank"), 4, 4),
        ("house", 4, 5),
        ("no-mercy", 5, 6),
        (NO_MERCY.replace(mercy_limit=10), 4, 7),
    ],
    ids=["official", "shuffle", "swap", "blank-discard-wilds", "house", "no-mercy", "mercy-10"],
)
def test_cards_are_conserved_through_random_play(ruleset: Ruleset | str, seats: int, seed: int) -> None:
    game = Game.new(seats=seats, ruleset=ruleset, seed=seed)
    deck = deck_counter(game.ruleset)
    rnd = random.Random(seed)
    kinds: Counter = Counter()
    assert table_counter(game) == deck
    for _ in range(1500):
        if game.is_over():
            break
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        else:
            events = game.play(rnd.choice(list(game.legal_actions)), game.active_seat)
            kinds.update(e.type for e in events)
        assert table_counter(game) == deck
        assert sum(game.hand_sizes) + game.draw_pile_size + len(game.discard_pile) <= sum(deck.values())
    assert kinds["reshuffled"] > 0 or game.round_no > 1


@pytest.mark.rule("GEN-5")
def test_set_aside_hands_count_as_part_of_the_deck() -> None:
    game = game_at(
        ["G1 G2", "B1 B2", ""], "R3", "Y4 Y5", ruleset=NO_MERCY, knocked_out=[2], set_aside=["R9", "R8"]
    )
    assert table_counter(game) == deck_counter(NO_MERCY)
    assert game.to_position()["set_aside"] == ["R9", "R8"]


# --------------------------------------------------------------------------------------------
# CL-TURN-1: play one playable card or draw


@pytest.mark.rule("CL-TURN-1")
def test_turn_is_a_play_or_a_draw() -> None:
    game = game_at(["R5 G7 B3 R5", "Y1"], "R3", "Y9")
    assert names(game.legal_actions) == ["R5", "B3", "draw"]
    reject(game, "pass", 0, IllegalActionError)
    reject(game, "G7", 0, IllegalActionError)
    game.play("B3")
    assert (hand(game, 0), str(game.top_card), game.active_seat) == (["R5", "G7", "R5"], "B3", 1)


@pytest.mark.rule("CL-TURN-1")
def test_a_seat_without_a_playable_card_can_only_draw() -> None:
    game = game_at(["G7 B8", "Y1"], "R3", "Y9 R4")
    assert names(game.legal_actions) == ["draw"]
    reject(game, "pass", 0, IllegalActionError)
    game.play("draw")
    assert hand(game, 0) == ["G7", "B8", "Y9"]
    assert game.active_seat == 1


# --------------------------------------------------------------------------------------------
# CL-TURN-2: what is playable


@pytest.mark.rule("CL-TURN-2")
def test_playable_by_color_number_or_symbol() -> None:
    game = game_at(["R9 G3 B4 GS W W4", "Y1"], "R3", "Y9")
    assert playable_cards(game) == {"R9", "G3", "W", "W4"}  # (a), (b), wilds; not B4 or GS
    game = game_at(["GS GR GD2 G3 R1 W", "Y1"], "RS", "Y9")
    assert playable_cards(game) == {"GS", "R1", "W"}  # (c) same symbol; a number never matches a symbol
    game = game_at(["BD2 BS B2 YR", "Y1"], "RD2", "Y9")
    assert playable_cards(game) == {"BD2"}
    game = game_at(["YR BR B2", "Y1"], "GR", "Y9")
    assert playable_cards(game) == {"YR", "BR"}


@pytest.mark.rule("CL-TURN-2")
def test_on_a_wild_only_the_named_color_matches() -> None:
    game = game_at(["G2 R2 RS GS W4", "Y1"], "R5 W", "Y9", color="G")
    assert playable_cards(game) == {"G2", "GS", "W4"}
    reject(game, "R2", 0, IllegalActionError)
    game = game_at(["B4 Y4 BR", "Y1"], "W4", "Y9", color="B")
    assert playable_cards(game) == {"B4", "BR"}
    game.play("BR")
    assert game.direction == -1


@pytest.mark.rule("CL-TURN-2")
def test_wild_draw_four_under_strict_needs_no_card_of_the_current_color() -> None:
    strict = OFFICIAL.replace(wd4_rule="strict")
    game = game_at(["W4 R1 G3", "Y1"], "R3", "Y9", ruleset=strict)
    # G3 matches by number only: it does not count; R1 does
    assert playable_cards(game) == {"R1", "G3"}
    reject(game, "W4:B", 0, IllegalActionError)
    game = game_at(["W4 G3 W", "Y1"], "R3", "Y9", ruleset=strict)
    assert playable_cards(game) == {"W4", "G3", "W"}
    game = game_at(["W4 R1", "Y1"], "R3", "Y9")  # challenge (official): always playable
    assert "W4" in playable_cards(game)


# --------------------------------------------------------------------------------------------
# CL-TURN-3: a wild names a color


@pytest.mark.rule("CL-TURN-3")
def test_a_wild_must_name_a_color_which_becomes_current() -> None:
    game = game_at(["W R1", "B5 G5", "Y1"], "R3", "Y9")
    assert [str(a) for a in game.legal_actions if isinstance(a, Play) and a.card.is_wild] == [
        "W:R", "W:R!", "W:Y", "W:Y!", "W:G", "W:G!", "W:B", "W:B!"]
    reject(game, "W", 0, InvalidActionError)
    events = game.play("W:B")
    assert events[0] == CardPlayed(0, Card.parse("W"), Color.BLUE)
    assert (game.current_color, game.phase, game.active_seat) == (Color.BLUE, Phase.PLAY, 1)
    assert playable_cards(game) == {"B5"}


@pytest.mark.rule("CL-TURN-3")
def test_a_wild_may_name_the_color_already_current() -> None:
    game = game_at(["W4 G1", "B5 R5", "Y1"], "R3", "Y9 Y8 Y7 Y6")
    game.play("W4:R")
    assert game.current_color is Color.RED
    game.play("accept")
    assert game.active_seat == 2


@pytest.mark.rule("CL-TURN-3")
def test_the_exceptions_last_wild_and_roulette() -> None:
    game = game_at(["W", "B5"], "R3", "Y9")
    assert names(game.legal_actions) == ["W", "W:R", "W:Y", "W:G", "W:B", "draw", "uno"]
    game.play("W")
    assert game.phase is Phase.ROUND_OVER
    assert game.round_result().winner == 0
    game = game_at(["WCR R1", "B5", "G5"], "R3", "Y9 G4", ruleset=NO_MERCY)
    reject(game, "WCR:R", 0, InvalidActionError)
    game.play("WCR")
    assert (game.phase, game.active_seat, game.current_color) == (Phase.CHOOSE_COLOR, 1, None)


# --------------------------------------------------------------------------------------------
# CL-TURN-4: one action carries every choice


@pytest.mark.rule("CL-TURN-4")
def test_play_notation_carries_color_target_and_flag() -> None:
    action = parse_action("WS:G>2!")
    assert action == Play(Card.parse("WS"), Color.GREEN, 2, True)
    assert str(action) == "WS:G>2!"
    assert parse_action("R7>1") == Play(Card.parse("R7"), None, 1, False)


@pytest.mark.rule("CL-TURN-4")
def test_swap_hands_color_target_and_uno_in_a_single_action() -> None:
    game = game_at(["WS R1 R2", "B5 B6", "Y5"], "R3", "G1", ruleset="official-112-swap")
    events = game.play("WS:G>2!")
    assert events[0] == CardPlayed(0, Card.parse("WS"), Color.GREEN, 2, True)
    assert of(events, HandsSwapped) == [HandsSwapped(0, 2)]
    assert (hand(game, 0), hand(game, 2)) == (["Y5"], ["R1", "R2"])
    assert game.current_color is Color.GREEN
    assert (game.phase, game.active_seat) == (Phase.PLAY, 1)
    # the flag called UNO for seat 0's new one-card hand: it cannot be caught
    assert game.exposed == ()
    assert "uno" not in game.legal_actions_for(0)
    reject(game, "color:R", 1, IllegalActionError)  # no later step to name the color


@pytest.mark.rule("CL-TURN-4")
def test_seven_with_target_and_flag_in_one_action() -> None:
    rules = OFFICIAL.replace(seven_zero=True)
    game = game_at(["R7 G1 G2", "B4", "Y5 Y6"], "R3", "G9", ruleset=rules)
    assert "R7>1!" in game.legal_actions and "R7>2!" not in game.legal_actions
    reject(game, "R7", 0, InvalidActionError)  # the target is part of the play
    game.play("R7>1!")
    assert (hand(game, 0), hand(game, 1)) == (["B4"], ["G1", "G2"])
    assert game.exposed == ()


# --------------------------------------------------------------------------------------------
# CL-TURN-5: the order in which a play resolves


@pytest.mark.rule("CL-TURN-5")
def test_card_leaves_the_hand_before_its_effect() -> None:
    rules = OFFICIAL.replace(seven_zero=True)
    game = game_at(["R7 G1 G2", "B4", "Y5 Y6"], "R3", "G9", ruleset=rules)
    events = game.play("R7>1")
    # 1: the 7 is on the pile, not in the swapped hand; 3: the swap; 5: the exposure; 6: next seat
    assert str(game.top_card) == "R7" and game.current_color is Color.RED
    assert (hand(game, 0), hand(game, 1)) == (["B4"], ["G1", "G2"])
    types = [e.type for e in events]
    assert types == ["card_played", "hands_swapped", "new_hand", "new_hand", "exposed"]
    assert events[-1] == Exposed(0)
    assert game.active_seat == 1


@pytest.mark.rule("CL-TURN-5")
def test_last_card_rules_replace_the_effect() -> None:
    game = game_at(["GS", "B5 B6", "Y5"], "G3", "G9")
    events = game.play("GS")
    assert of(events, Skipped) == []
    assert [e.type for e in events] == ["card_played", "round_ended"]
    assert game.phase is Phase.ROUND_OVER
    assert game.round_result().winner == 0
    rules = OFFICIAL.replace(seven_zero=True)
    game = game_at(["R7", "B4", "Y5 Y6"], "R3", "G9", ruleset=rules)
    game.play("R7")  # a last 7 has no effect, so no target
    assert hand(game, 1) == ["B4"]
    assert game.round_result().winner == 0


@pytest.mark.rule("CL-TURN-5")
def test_penalty_then_next_seat_after_the_exposure() -> None:
    game = game_at(["RD2 R1", "B5 B6", "Y5"], "R3", "G9 G8 G7")
    events = game.play("RD2")
    assert [e.type for e in events] == ["card_played", "penalty_pending", "drew", "drew_cards", "exposed"]
    assert events[1] == PenaltyPending(1, 2)
    assert events[2] == Drew(1, 2, "penalty")
    assert hand(game, 1) == ["B5", "B6", "G9", "G8"]
    assert (game.active_seat, game.phase, game.pending_penalty) == (2, Phase.PLAY, 0)
    # the exposure survives the automatic penalty draw
    assert game.exposed == (0,)
    assert "catch:0" in game.legal_actions


# --------------------------------------------------------------------------------------------
# CL-TURN-6: next(player) plays next


@pytest.mark.rule("CL-TURN-6")
def test_next_seat_follows_the_direction() -> None:
    game = game_at(["R5 R6", "B5", "Y5", "G5"], "R3", "G9")
    game.play("R5")
    assert game.active_seat == 1
    game = game_at(["R5 R6", "B5", "Y5", "G5"], "R3", "G9", direction=-1)
    game.play("R5")
    assert game.active_seat == 3
    game = game_at(["R5 R6", "B5", "Y5", "G5"], "R3", "G9", active=3, direction=-1)
    reject(game, "R5", 0, NotYourTurnError)
    game = game_at(["B1", "B5", "Y5", "W R6"], "R3", "G9", active=3)
    game.play("W:Y")
    assert game.active_seat == 0


@pytest.mark.rule("CL-TURN-6")
def test_next_seat_skips_seats_out_of_the_round() -> None:
    rules = OFFICIAL.replace(scoring="elimination")
    game = game_at(["R5 R6", "", "Y5", "G5"], "R3", "G9", ruleset=rules, eliminated=[1])
    game.play("R5")
    assert game.active_seat == 2
    game = game_at(["R5 R6", "B5", "", "G5"], "R3", "G9", ruleset=NO_MERCY, knocked_out=[2], active=1,
                   direction=1)
    reject(game, "R5", 0, NotYourTurnError)
    game.play("draw")  # B5 is not playable: draws until playable (G9 is not, then the pile refills)
    assert game.active_seat in (1, 3)


# --------------------------------------------------------------------------------------------
# CL-TURN-7: one card per turn


@pytest.mark.rule("CL-TURN-7")
def test_one_card_per_turn() -> None:
    game = game_at(["R5 R6 R7", "B5", "Y5"], "R3", "G9")
    game.play("R5")
    assert playable_cards(game, 0) == set()
    reject(game, "R6", 0, NotYourTurnError)
    assert game.active_seat == 1


@pytest.mark.rule("CL-TURN-7")
def test_a_skip_gives_no_extra_turn_with_three_seats() -> None:
    game = game_at(["RS R6", "B5", "Y5 R9"], "R3", "G9")
    events = game.play("RS")
    assert of(events, Skipped) == [Skipped(1)]
    assert game.active_seat == 2
    reject(game, "R6", 0, NotYourTurnError)


@pytest.mark.rule("CL-TURN-7")
def test_a_played_drawn_card_ends_the_turn() -> None:
    game = game_at(["R5 G2", "B5", "Y5"], "R3", "R8 Y1")
    game.play("draw")
    game.play("R8")
    assert game.active_seat == 1
    reject(game, "R5", 0, NotYourTurnError)
    assert hand(game, 0) == ["R5", "G2"]


# --------------------------------------------------------------------------------------------
# CL-DRAW-1: drawing instead of playing


@pytest.mark.rule("CL-DRAW-1")
def test_may_draw_while_holding_a_playable_card() -> None:
    game = game_at(["R5 G2", "B5"], "R3", "Y9 G4")
    assert "draw" in game.legal_actions and "R5" in game.legal_actions
    events = game.play("draw")
    assert events[:2] == [Drew(0, 1, "draw"), DrewCards(0, (Card.parse("Y9"),))]
    assert hand(game, 0) == ["R5", "G2", "Y9"]
    assert game.draw_pile_size == 1
    assert game.active_seat == 1  # Y9 is not playable: the turn ended


@pytest.mark.rule("CL-DRAW-1")
def test_may_draw_with_playable_false() -> None:
    rules = OFFICIAL.replace(may_draw_with_playable=False)
    game = game_at(["R5 G2", "B5"], "R3", "Y9 G4", ruleset=rules)
    assert names(game.legal_actions) == ["R5", "R5!"]
    reject(game, "draw", 0, IllegalActionError)
    game = game_at(["B5 G2", "B5"], "R3", "Y9 G4", ruleset=rules)
    assert names(game.legal_actions) == ["draw"]
    game.play("draw")
    assert hand(game, 0) == ["B5", "G2", "Y9"]


@pytest.mark.rule("CL-DRAW-1")
def test_no_mercy_default_forbids_drawing_with_a_playable_card() -> None:
    game = game_at(["R5 G2", "B5"], "R3", "Y9 G4", ruleset=NO_MERCY)
    assert "draw" not in game.legal_actions
    reject(game, "draw", 0, IllegalActionError)
    game = game_at(["R5 G2", "B5"], "R3", "Y9 G4", ruleset=NO_MERCY.replace(may_draw_with_playable=True))
    assert "draw" in game.legal_actions


# --------------------------------------------------------------------------------------------
# CL-DRAW-2: the drawn card


@pytest.mark.rule("CL-DRAW-2")
def test_a_playable_drawn_card_may_be_played_or_kept() -> None:
    game = game_at(["R5 G2", "B5", "Y5"], "R3", "G3 Y1")
    game.play("draw")
    assert (game.phase, game.active_seat) == (Phase.PLAY_DRAWN, 0)
    assert names(game.legal_actions) == ["G3", "pass"]
    reject(game, "R5", 0, IllegalActionError)  # no other card this turn
    events = game.play("pass")
    assert events == [Passed(0)]
    assert hand(game, 0) == ["R5", "G2", "G3"]
    assert (game.phase, game.active_seat, str(game.top_card)) == (Phase.PLAY, 1, "R3")


@pytest.mark.rule("CL-DRAW-2")
def test_the_drawn_card_is_played() -> None:
    game = game_at(["R5 G2", "B5", "Y5"], "R3", "W Y1")
    game.play("draw")
    assert names(game.legal_actions) == ["W:R", "W:Y", "W:G", "W:B", "pass"]
    game.play("W:Y")
    assert (hand(game, 0), str(game.top_card), game.current_color) == (["R5", "G2"], "W", Color.YELLOW)
    assert game.active_seat == 1


@pytest.mark.rule("CL-DRAW-2")
def test_an_unplayable_drawn_card_ends_the_turn() -> None:
    game = game_at(["R5 G2", "B5", "Y5"], "R3", "Y1 G3")
    events = game.play("draw")
    assert events == [Drew(0, 1, "draw"), DrewCards(0, (Card.parse("Y1"),))]
    assert (game.phase, game.active_seat) == (Phase.PLAY, 1)
    assert hand(game, 0) == ["R5", "G2", "Y1"]
    assert game.draw_pile_size == 1


# --------------------------------------------------------------------------------------------
# CL-DRAW-3: force_play


@pytest.mark.rule("CL-DRAW-3")
def test_force_play_requires_the_drawn_card() -> None:
    rules = OFFICIAL.replace(force_play=True)
    game = game_at(["G2", "B5", "Y5"], "R3", "R9 Y1", ruleset=rules)
    game.play("draw")
    assert names(game.legal_actions) == ["R9", "R9!"]
    reject(game, "pass", 0, IllegalActionError)
    game.play("R9")
    assert (hand(game, 0), game.active_seat) == (["G2"], 1)
    # an unplayable drawn card still just ends the turn
    game = game_at(["G2", "B5", "Y5"], "R3", "Y1 R9", ruleset=rules)
    game.play("draw")
    assert (game.active_seat, hand(game, 0)) == (1, ["G2", "Y1"])


@pytest.mark.rule("CL-DRAW-3")
def test_force_play_exception_for_an_illegal_drawn_wd4() -> None:
    rules = OFFICIAL.replace(force_play=True)
    # holds R1, a card of the current color: the drawn WD4 would be illegal, so it may be kept
    game = game_at(["G2 R1", "B5", "Y5"], "R3", "W4 Y1", ruleset=rules)
    game.play("draw")
    assert names(game.legal_actions) == ["W4:R", "W4:Y", "W4:G", "W4:B", "pass"]
    game.play("pass")
    assert (game.active_seat, hand(game, 0)) == (1, ["G2", "R1", "W4"])
    # no card of the current color: the drawn WD4 is legal and forced
    game = game_at(["G2 G3", "B5", "Y5"], "R3", "W4 Y1", ruleset=rules)
    game.play("draw")
    assert "pass" not in game.legal_actions
    reject(game, "pass", 0, IllegalActionError)


@pytest.mark.rule("CL-DRAW-3")
def test_force_play_wd4_without_challenge() -> None:
    # wd4_rule free: no exception, an "illegal" WD4 is forced too
    free = OFFICIAL.replace(force_play=True, wd4_rule="free")
    game = game_at(["G2 R1", "B5", "Y5"], "R3", "W4 Y1", ruleset=free)
    game.play("draw")
    assert "pass" not in game.legal_actions
    # wd4_rule strict: an illegal WD4 is not playable, so the turn ends
    strict = OFFICIAL.replace(force_play=True, wd4_rule="strict")
    game = game_at(["G2 R1", "B5", "Y5"], "R3", "W4 Y1", ruleset=strict)
    game.play("draw")
    assert (game.phase, game.active_seat) == (Phase.PLAY, 1)


# --------------------------------------------------------------------------------------------
# CL-DRAW-4: draw until playable


@pytest.mark.rule("CL-DRAW-4")
def test_draw_until_playable_keeps_every_card() -> None:
    rules = OFFICIAL.replace(draw_until_playable=True)
    game = game_at(["G5", "B5", "Y5"], "R3", "G1 B2 R9 Y4", ruleset=rules)
    events = game.play("draw")
    assert events == [Drew(0, 3, "draw"), DrewCards(0, tuple(Card.parse(c) for c in ("G1", "B2", "R9")))]
    assert hand(game, 0) == ["G5", "G1", "B2", "R9"]
    assert (game.phase, game.active_seat) == (Phase.PLAY_DRAWN, 0)
    assert names(game.legal_actions) == ["R9", "pass"]  # CL-DRAW-2 on the last card drawn
    reject(game, "G5", 0, IllegalActionError)
    game.play("pass")
    assert game.active_seat == 1
    assert game.to_position()["draw"][0] == "Y4"


@pytest.mark.rule("CL-DRAW-4")
def test_draw_until_playable_with_force_play() -> None:
    rules = OFFICIAL.replace(draw_until_playable=True, force_play=True)
    game = game_at(["G5", "B5", "Y5"], "R3", "G1 W B2", ruleset=rules)
    game.play("draw")
    assert hand(game, 0) == ["G5", "G1", "W"]
    assert names(game.legal_actions) == ["W:R", "W:Y", "W:G", "W:B"]
    # the first card drawn is playable: only one is drawn
    game = game_at(["G5", "B5", "Y5"], "R3", "R1 W B2", ruleset=rules)
    game.play("draw")
    assert hand(game, 0) == ["G5", "R1"]


@pytest.mark.rule("CL-DRAW-4", "CL-DRAW-6")
def test_draw_until_playable_stops_when_no_card_is_left() -> None:
    rules = OFFICIAL.replace(draw_until_playable=True)
    game = game_at(["G5", ""], "R3", "G1 B2", ruleset=rules, dump=1)
    events = game.play("draw")
    assert events[0] == Drew(0, 2, "draw")
    assert hand(game, 0) == ["G5", "G1", "B2"]
    assert (game.phase, game.active_seat, game.draw_pile_size) == (Phase.PLAY, 1, 0)


# --------------------------------------------------------------------------------------------
# CL-DRAW-5: reshuffle


@pytest.mark.rule("CL-DRAW-5")
def test_reshuffle_keeps_the_top_card_and_its_color() -> None:
    game = game_at(["R1", "B5", "Y5"], "G7 Y2 R9 W", "", color="B", seed=5)
    below = len(game.discard_pile) - 1
    assert below == 108 - 4
    events = game.play("draw")
    assert events[0] == Reshuffled(below)
    assert game.discard_pile == (Card.parse("W"),)
    assert game.current_color is Color.BLUE
    assert game.draw_pile_size == below - 1
    assert len(game.hand(0)) == 2
    assert table_counter(game) == deck_counter(OFFICIAL)


@pytest.mark.rule("CL-DRAW-5")
def test_reshuffle_in_the_middle_of_a_penalty() -> None:
    game = game_at(["RD2 R1", "Y7", ""], "G7 R5", "B1", dump=2, seed=3)
    events = game.play("RD2")
    assert [e.type for e in events][:5] == ["card_played", "penalty_pending", "reshuffled", "drew",
                                            "drew_cards"]
    assert events[2] == Reshuffled(2)  # G7 and R5; RD2 stays on top
    assert events[3] == Drew(1, 2, "penalty")
    assert hand(game, 1)[:2] == ["Y7", "B1"] and hand(game, 1)[2] in ("G7", "R5")
    assert names(game.discard_pile) == ["RD2"]
    assert game.draw_pile_size == 1
    assert game.active_seat == 2


@pytest.mark.rule("CL-DRAW-5")
def test_reshuffle_takes_in_set_aside_hands() -> None:
    game = game_at(
        ["G1 G2", "B1 B2", ""], "Y9 Y8 R3", "", ruleset=NO_MERCY, dump=1, knocked_out=[2],
        set_aside=["R9", "R8", "Y7"],
    )
    events = game.play("draw")
    assert events[0] == Reshuffled(2 + 3)
    assert game.to_position()["set_aside"] == []
    assert names(game.discard_pile) == ["R3"]
    drawn = hand(game, 0)[2:]
    assert drawn and set(drawn) <= {"Y9", "Y8", "R9", "R8", "Y7"}
    assert drawn[-1] in ("R9", "R8")  # drew until a playable (red) card
    assert table_counter(game) == deck_counter(NO_MERCY)


# --------------------------------------------------------------------------------------------
# CL-DRAW-6: exhaustion


@pytest.mark.rule("CL-DRAW-6")
def test_exhausted_penalty_is_forgiven_and_the_victim_loses_its_turn() -> None:
    game = game_at(["RD2 G1", "Y7 Y8", ""], "R5", "", dump=2)
    events = game.play("RD2")
    assert of(events, Reshuffled) == [Reshuffled(1)]
    assert of(events, Drew) == [Drew(1, 1, "penalty")]
    assert hand(game, 1) == ["Y7", "Y8", "R5"]
    assert (game.active_seat, game.phase, game.pending_penalty) == (2, Phase.PLAY, 0)
    assert game.draw_pile_size == 0 and names(game.discard_pile) == ["RD2"]


@pytest.mark.rule("CL-DRAW-6")
def test_exhausted_accept_of_a_wd4() -> None:
    game = game_at(["W4 G1", "Y7 Y8", ""], "R5", "B1", dump=2)
    game.play("W4:G")
    assert game.phase is Phase.RESPOND
    events = game.play("accept")
    assert of(events, Drew) == [Drew(1, 2, "penalty")]
    assert hand(game, 1) == ["Y7", "Y8", "B1", "R5"]
    assert game.active_seat == 2


# --------------------------------------------------------------------------------------------
# CL-DRAW-7: nothing left to draw


@pytest.mark.rule("CL-DRAW-7")
def test_drawing_is_illegal_when_no_card_can_be_drawn() -> None:
    game = game_at(["R5 G1", "Y7", ""], "R3", "", dump=2)
    assert names(game.legal_actions) == ["R5", "R5!"]
    reject(game, "draw", 0, IllegalActionError)
    game.play("R5")
    # now R3 lies below the top: a reshuffle could yield it, so drawing is legal again
    assert "draw" in game.legal_actions_for(1)


@pytest.mark.rule("CL-DRAW-7")
@pytest.mark.parametrize("ruleset", [OFFICIAL, NO_MERCY], ids=["official", "no-mercy"])
def test_a_seat_with_nothing_to_play_passes_automatically(ruleset: Ruleset) -> None:
    game = game_at(["G1", "Y2 B4", ""], "R3", "B9", ruleset=ruleset, dump=2)
    events = game.play("draw")
    assert events == [Drew(0, 1, "draw"), DrewCards(0, (Card.parse("B9"),)), Passed(1, auto=True)]
    assert hand(game, 1) == ["Y2", "B4"]
    assert (game.active_seat, game.phase) == (2, Phase.PLAY)
    assert "draw" not in game.legal_actions
    assert playable_cards(game)  # seat 2 holds red cards: it must play one


# --------------------------------------------------------------------------------------------
# CL-DRAW-8: blocked round
#
# With a full deck a blocked round needs every card that could match to lie out of reach: the
# positions put them in the hand of an eliminated seat (fill none keeps GEN-5).


@pytest.mark.rule("CL-DRAW-8")
def test_a_full_cycle_of_automatic_passes_blocks_the_round() -> None:
    rules = OFFICIAL.replace(scoring="elimination")
    game = game_at(["G1", "Y2", "B4", ""], "R3", "G9", ruleset=rules, dump=3, eliminated=[3],
                   scores=[10, 20, 30, 600])
    events = game.play("draw")
    assert [e for e in events if isinstance(e, Passed)] == [Passed(1, True), Passed(2, True), Passed(0, True)]
    assert isinstance(events[-1], RoundEnded) and events[-1].winner is None
    assert game.phase is Phase.ROUND_OVER
    assert game.round_result().blocked
    assert game.scores == (10, 20, 30, 600)
    assert (hand(game, 0), hand(game, 1), hand(game, 2)) == (["G1", "G9"], ["Y2"], ["B4"])


@pytest.mark.rule("CL-DRAW-8")
def test_one_playable_seat_prevents_the_block() -> None:
    rules = OFFICIAL.replace(scoring="elimination")
    game = game_at(["G1", "Y2", "B4 R8", ""], "R3", "G9", ruleset=rules, dump=3, eliminated=[3],
                   scores=[10, 20, 30, 600])
    events = game.play("draw")
    assert of(events, Passed) == [Passed(1, True)]
    assert (game.phase, game.active_seat) == (Phase.PLAY, 2)
    game.play("R8")
    # seat 0 and seat 1 now pass automatically, but seat 2 played in between: R3 can be reshuffled
    assert game.phase is Phase.PLAY
    assert "draw" in game.legal_actions


@pytest.mark.rule("CL-DRAW-8")
def test_automatic_passes_count_only_in_a_row() -> None:
    rules = OFFICIAL.replace(scoring="elimination")
    # two automatic passes already; seat 0 draws, which resets the count
    game = game_at(["G1", "Y2", "B4", ""], "R3", "G9", ruleset=rules, dump=3, eliminated=[3],
                   scores=[10, 20, 30, 600], auto_passes=2)
    game.play("draw")
    assert game.round_result().blocked
    passes = [e for e in game.events if isinstance(e, Passed)]
    assert passes == [Passed(1, True), Passed(2, True), Passed(0, True)]


@pytest.mark.rule("CL-TURN-1")
def test_call_uno_is_not_a_turn_action() -> None:
    game = game_at(["R5 G2", "B5", "Y5 Y6"], "R3", "G9")
    events = game.play(CallUno(), 1)
    assert events[0].type == "uno_called"
    assert game.active_seat == 0
    assert of(events, NewHand) == [] and of(events, DirectionChanged) == []
