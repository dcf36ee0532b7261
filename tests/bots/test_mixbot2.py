"""mixbot2 (chausner/UnoAI's MixBot2 from its rules in words): each step from an exact position,
the card counting's bounds from events, and whole seeded rounds under every preset."""
from __future__ import annotations

import random
from typing import Any

import pytest

from unotable import Game, Phase, Ruleset
from unotable.arbiter import Arbiter
from unotable.bots import make_bot
from unotable.bots.mixbot import MIXBOT_RULES
from unotable.bots.mixbot2 import Bounds, MixBot2, no_match_chance
from unotable.cards import Card
from unotable.events import CardPlayed, DrawReason, Drew, FirstCard, RoundStarted


def _position(hands: list[list[str]], top: str, **extra: Any) -> Game:
    return Game.from_position({"ruleset": MIXBOT_RULES.to_dict(), "hands": hands, "discard": [top],
                               "fill": "draw", **extra})


def _choice(bot: MixBot2, game: Game, seat: int = 0, seed: int = 0) -> str:
    return str(bot.choose(game.view(seat), game.legal_action_list(seat), random.Random(seed)))


def test_the_ranking_puts_a_draw_two_first() -> None:
    g = _position([["R7", "RS", "RD2", "W"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]], "R3")
    assert _choice(MixBot2(), g) == "RD2"


def test_a_wild_waits_while_the_hand_holds_more_than_two_other_cards() -> None:
    g = _position([["W", "G1", "G2", "B5"], ["Y1", "Y2", "Y3"]], "R3", draw=["Y9"])
    assert _choice(MixBot2(), g) == "draw"
    g = _position([["W", "G1", "G2"], ["Y1", "Y2", "Y3"]], "R3")
    assert _choice(MixBot2(), g) in ("W:G",)  # green is the color held most


def test_in_the_end_game_the_limits_go_and_the_attack_ranking_holds() -> None:
    hand = ["W4", "R1", "G2", "B5", "Y7", "G8"]  # five cards that are not wilds: W4 held back
    assert _choice(MixBot2(), _position([hand, ["Y1", "Y2"]], "R3")) == "R1"
    assert _choice(MixBot2(), _position([hand, ["Y1"]], "R3")).startswith("W4")  # the end game


def test_heads_up_a_reverse_ranks_as_a_skip() -> None:
    g = _position([["R7", "RR", "G1"], ["Y1", "Y2", "Y3"]], "R3")
    assert _choice(MixBot2(), g) == "RR"
    g = _position([["R7", "RR", "G1"], ["Y1", "Y2", "Y3"], ["B1", "B2"]], "R3")
    assert _choice(MixBot2(), g) == "R7"


def test_a_drawn_wild_is_played_only_with_a_small_hand() -> None:
    g = _position([["G1", "B5", "Y2"], ["Y1", "Y2", "Y3"]], "R3", draw=["W"])
    g.play("draw")
    assert g.phase is Phase.PLAY_DRAWN
    assert _choice(MixBot2(), g) == "pass"
    g = _position([["G1"], ["Y1", "Y2", "Y3"]], "R3", draw=["W"])
    g.play("draw")
    assert _choice(MixBot2(), g).startswith("W")


def test_the_counting_picks_the_card_the_next_seat_is_least_likely_to_follow() -> None:
    # Seat 1 drew on a red 3: it holds no red, no 3 and no wild. Of seat 0's red numbers, R5 leaves
    # red on top (seat 1 cannot follow), G3 would leave green (it may).
    g = _position([["R5", "G3", "G6", "R8"], ["Y1", "Y2", "Y3", "B4"], ["B1", "B2"]], "R3")
    bot = MixBot2()
    bot.observe([RoundStarted(1, 0, (True, True, True), (0, 0, 0)), FirstCard(Card.parse("R3")),
                 Drew(1, 1, DrawReason.DRAW)])
    picks = {_choice(bot, g, seed=s) for s in range(20)}
    assert picks <= {"R5", "R8"}
    unaware = {_choice(MixBot2(counting=False), g, seed=s) for s in range(40)}
    assert "G3" in unaware or "G6" in unaware  # without counting, green is just as good


def test_bounds_follow_plays_draws_and_penalties() -> None:
    b = Bounds()
    r3, g5, y1 = Card.parse("R3"), Card.parse("G5"), Card.parse("Y1")
    b.observe([RoundStarted(1, 0, (True, True), (0, 0)), FirstCard(r3)])
    unseen = [2] * 74
    assert b.capped(1, unseen)[g5.id] == 2
    b.observe([Drew(1, 1, DrawReason.DRAW)])  # drew on R3: nothing red, no 3, no wild
    row = b.capped(1, unseen)
    assert row[Card.parse("R7").id] == 0 and row[Card.parse("G3").id] == 0 and row[Card.parse("W").id] == 0
    assert row[g5.id] == 2
    b.observe([CardPlayed(0, y1)])
    b.observe([Drew(1, 2, DrawReason.PENALTY)])
    assert b.capped(1, [9] * 74)[Card.parse("R7").id] == 2
    b.observe([CardPlayed(1, Card.parse("R7"))])
    assert b.capped(1, [9] * 74)[Card.parse("R7").id] == 1
    assert b.capped(0, [1] * 74)[g5.id] == 1  # seat 0 drew nothing: only the cap bounds it


def test_no_match_chance_is_hypergeometric() -> None:
    assert no_match_chance(10, 5, 2) == pytest.approx(5 / 10 * 4 / 9)
    assert no_match_chance(3, 2, 2) == 0.0
    assert no_match_chance(0, 0, 4) == 1.0


@pytest.mark.parametrize("preset", ["official", "two-player", "house", "no-mercy", "partners"])
def test_whole_rounds_under_every_preset(preset: str) -> None:
    rules = Ruleset.preset(preset)
    seats = 2 if preset == "two-player" else 4
    for seed in range(6):
        game = Game.new(seats=seats, ruleset=rules, seed=seed)
        bots: dict[int, Any] = {s: make_bot("random-stuck") for s in range(seats)}
        bots.update({s: make_bot("mixbot2") for s in range(0, seats, 2)})
        Arbiter(game, bots, {s: random.Random(seed * 10 + s) for s in range(seats)}).play_round()
        assert game.phase >= Phase.ROUND_OVER
