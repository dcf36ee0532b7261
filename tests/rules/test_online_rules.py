"""The engine's side of the online rules (RULES.md §11): authority, decisions, visibility, order.

The rule on private tables shared by link belongs to the server, which does not exist yet.
"""
from __future__ import annotations

import json
import random

import pytest

from unotable import (
    Accept,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Game,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    Ruleset,
)
from unotable.events import ChallengeReveal, DrewCards, HandDealt, NewHand

DECISIONS = (Play, Draw, Pass, Accept, Challenge, ChooseColor, CallUno, Catch)


def _random_game(preset: str, seats: int, seed: int, steps: int = 400) -> Game:
    rng = random.Random(seed)
    game = Game.new(seats, preset, seed)
    for _ in range(steps):
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        if game.is_over():
            break
        seat = rng.choice(sorted(game.seats_to_act))
        legal = list(game.legal_actions_for(seat))
        plays = [a for a in legal if not isinstance(a, Draw)]
        game.play(rng.choice(plays or legal), seat)
    return game


@pytest.mark.rule("NET-1")
def test_the_engine_applies_penalties_and_turns_by_itself() -> None:
    # RULE: NET-1 — seat 0 plays a Draw Two; the engine makes seat 1 draw and moves the turn on
    game = Game.from_position({"hands": [["RD2", "G5"], ["B1"], ["Y3"]], "discard": ["R4"],
                               "draw": ["G7", "G8"], "fill": "draw"})
    game.play("RD2")
    assert [str(c) for c in game.hand(1)] == ["B1", "G7", "G8"]
    assert game.active_seat == 2 and game.phase is Phase.PLAY
    # scores are kept by the engine: seat 2 goes out and scores the others' hands
    game = Game.from_position({"hands": [["R9"], ["B1", "W"], ["Y3"]], "discard": ["Y4"], "active": 2})
    game.play("Y3")
    assert game.scores == (0, 0, 9 + 1 + 50)


@pytest.mark.rule("NET-2")
@pytest.mark.parametrize("preset", ["official", "house", "no-mercy", "official-112-swap"])
def test_every_offered_action_is_a_player_decision(preset: str) -> None:
    # RULE: NET-2 — the only things a seat is ever offered are the decisions NET-2 lists
    rng = random.Random(3)
    game = Game.new(4, preset, 11)
    for _ in range(300):
        if game.phase >= Phase.ROUND_OVER:
            break
        for seat in range(4):
            for action in game.legal_actions_for(seat):
                assert isinstance(action, DECISIONS)
        game.play(rng.choice(list(game.legal_actions)), game.active_seat)


@pytest.mark.rule("NET-4")
def test_every_other_seat_may_catch_and_the_victim_may_challenge() -> None:
    # RULE: NET-4 — seat 0 goes down to one card without calling: seats 1, 2 and 3 may each catch
    game = Game.from_position({"hands": [["R7", "R8"], ["B1", "B2"], ["Y3", "Y4"], ["G3", "G4"]],
                               "discard": ["R4"]})
    game.play("R7")
    assert game.exposed == (0,)
    for seat in (1, 2, 3):
        assert Catch(0) in game.legal_actions_for(seat)
    assert Catch(0) not in game.legal_actions_for(0)
    # a WD4 victim is offered the challenge
    game = Game.from_position({"hands": [["W4", "R8"], ["B1", "B2"], ["Y3"]], "discard": ["R4"]})
    game.play("W4:B")
    assert game.active_seat == 1 and "challenge" in game.legal_actions


@pytest.mark.rule("NET-5")
def test_views_hold_the_public_table() -> None:
    # RULE: NET-5 — hand sizes, top card, color, direction, active seat, pending penalty, draw-pile
    # size, every card face up (the slipped ones too), calls and scores are public
    game = Game.from_position({
        "ruleset": "no-mercy",
        "hands": [["RDA", "R1", "R2", "G5"], ["B1", "B2"], ["Y3", "Y4"]],
        "discard": ["R4"], "draw": ["G1", "G2"], "fill": "draw", "scores": [10, 20, 30]})
    game.play("RDA")
    for view in (game.view(1), game.spectator_view()):
        doc = view.to_dict()
        assert doc["hand_sizes"] == [1, 2, 2]
        assert doc["top_card"] == "RDA" and doc["current_color"] == "R"
        assert doc["discard_pile"][-3:] == ["R1", "R2", "RDA"]  # slipped under, face up
        assert doc["direction"] == 1 and doc["active"] == 1
        assert doc["draw_pile_size"] == game.draw_pile_size
        assert doc["scores"] == [10, 20, 30]
        assert doc["exposed"] == [True, False, False]
        json.dumps(doc)
    assert "hand" not in game.spectator_view().to_dict()


@pytest.mark.rule("NET-6")
def test_private_information_reaches_only_its_owner() -> None:
    # RULE: NET-6 — the challenged hand goes to the challenger alone
    game = Game.from_position({"hands": [["W4", "R8"], ["B1", "B2"], ["Y3"]], "discard": ["R4"]})
    game.play("W4:B")
    game.play("challenge")
    reveals = [e for e in game.events if isinstance(e, ChallengeReveal)]
    assert len(reveals) == 1 and reveals[0].to == (1,)
    assert not any(isinstance(e, ChallengeReveal) for e in game.events_for(0) + game.events_for(2))
    # only the drawer sees what it draws; after a swap each seat sees only its own new hand
    game = _random_game("house", 4, 5)
    for seat in range(4):
        for e in game.events_for(seat):
            if isinstance(e, DrewCards | HandDealt | NewHand):
                assert e.seat == seat
    assert not any(isinstance(e, DrewCards | HandDealt | NewHand) for e in game.events_for(None))


@pytest.mark.rule("NET-8")
def test_races_are_decided_by_arrival_order() -> None:
    # RULE: NET-8 — two seats try to catch the same exposure: the first arrival wins, the second
    # is rejected without a penalty even when false catches are punished
    rules = Ruleset.preset("official").replace(false_catch_penalty=2)
    game = Game.from_position({"ruleset": rules.to_dict(), "discard": ["R4"],
                               "hands": [["R7", "R8"], ["B1", "B2"], ["Y3", "Y4"]]})
    game.play("R7")
    game.play("catch:0", seat=2)
    before = game.to_position()
    with pytest.raises(IllegalActionError, match="already caught"):
        game.play("catch:0", seat=1)
    assert game.to_position() == before
    assert game.hand_sizes == (3, 2, 2)
