"""The heuristic's Wild Draw Four challenge (rule 6; CL-ACT-6 to CL-ACT-14): the chance that the
player held the previous color, from the unseen cards and what the record shows; the chance that
the play was a bluff; the cost of each outcome at the table; and the earlier rule, kept reachable.

Each decision is asked from an exact position, with the bot fed the events its seat may see as
the arena feeds them.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

from unotable import Game, Ruleset
from unotable.actions import Accept, Action, Challenge
from unotable.bots.heuristic import (
    CHALLENGE_RULES,
    HeuristicBot,
    held_color_chance,
    wd4_guilty_chance,
    win_chance,
)
from unotable.bots.ismcts import IsmctsBot
from unotable.cards import ID_COLOR, Card
from unotable.phase import Phase

RED = frozenset(c for c in range(74) if ID_COLOR[c] == 0)
GREEN = frozenset(c for c in range(74) if ID_COLOR[c] == 2)


class Table:
    """A game from an exact position with a heuristic bot at seat 0, fed as the arena feeds it."""

    def __init__(self, position: dict[str, Any], **options: Any) -> None:
        self.game = Game.from_position({"fill": "draw", **position})
        self.bot = HeuristicBot(**options)
        view = self.game.view(0)
        self.bot.tracker.sync(view)  # a position has no deal events: start both records here
        self.bot.drawn.sync(view)

    def play(self, action: str, seat: int) -> None:
        events = self.game.play(action, seat)
        self.bot.observe([e for e in events if e.visible_to(0)])

    def answer(self) -> Action | None:
        game = self.game
        assert game.phase is Phase.RESPOND and game.active_seat == 0
        return self.bot.choose(game.view(0), game.legal_actions_for(0), random.Random(0))


# -- the estimate -----------------------------------------------------------------------------------


def test_held_color_chance_is_hypergeometric_without_a_record() -> None:
    pool = Counter({Card.parse(color + rank).id: 1 for color in "RGBY" for rank in "123"})
    for hand in range(6):
        assert math.isclose(held_color_chance(hand, pool, RED), wd4_guilty_chance(hand, 12, 3))


def test_a_hand_known_to_lack_other_colors_more_likely_holds_this_one() -> None:
    pool = Counter({Card.parse(color + rank).id: 1 for color in "RGBY" for rank in "123"})
    plain = held_color_chance(3, pool, RED)
    no_green = held_color_chance(3, pool, RED, [(GREEN, 3)])
    assert no_green > plain
    assert math.isclose(no_green, 1 - math.comb(6, 3) / math.comb(9, 3))
    assert held_color_chance(3, pool, RED, [(RED, 3)]) == 0.0  # the whole hand lacks red
    assert 0.0 < held_color_chance(3, pool, RED, [(RED, 2)]) < plain  # two of its three cards do


def test_win_chance_is_a_distribution_and_a_rivals_cards_help_less_at_a_larger_table() -> None:
    sizes = [5, 3, 7, 6]
    order = [2, 3, 0, 1]
    assert math.isclose(sum(win_chance(sizes, order, s) for s in range(4)), 1.0)
    assert win_chance([3, 5], [0, 1], 0) > win_chance([4, 5], [0, 1], 0)
    assert win_chance([30, 5], [0, 1], 0, mercy_limit=25) == 0.0
    heads_up = win_chance([7, 9], [0, 1], 0) - win_chance([7, 5], [0, 1], 0)
    table = win_chance([7, 7, 7, 9], [0, 1, 2, 3], 0) - win_chance([7, 7, 7, 5], [0, 1, 2, 3], 0)
    assert heads_up > table > 0.0


# -- decisions from exact positions -----------------------------------------------------------------


def test_accepts_a_wd4_from_a_last_card_but_one_when_its_color_is_mostly_seen() -> None:
    # RULE: CL-ACT-6 (one card beside the WD4, nothing known of it, 4 of the 25 reds unseen)
    t = Table({
        "hands": [["R8", "R9", "RS", "RS", "G1", "B2", "Y3"], ["W4", "G5"]],
        "discard": "R0 R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R7 R7 R8 R9",
        "active": 1,
    })
    t.play("W4:G!", 1)
    odds = t.bot.challenge_odds(t.game.view(0))
    assert odds.held < 0.1 and odds.gain < 0.0
    assert t.answer() == Accept()


def test_challenges_a_wd4_from_a_hand_seen_to_lack_every_other_color() -> None:
    # RULE: CL-ACT-12 (seat 1 drew on yellow, green and blue, then played a drawn WD4 on red)
    t = Table({
        "hands": [["G5", "B5", "R5", "G7", "B8", "Y9", "G9"], ["R1", "R2", "R3", "R4", "R6", "R7", "R8"]],
        "discard": ["Y5"],
        "draw": ["R0", "R3", "R4", "W4"],
        "active": 1,
    })
    for card in ("G5", "B5", "R5"):
        t.play("draw", 1)  # nothing playable: the drawn red card is not playable either
        t.play(card, 0)
    t.play("draw", 1)
    t.play("W4:B", 1)
    odds = t.bot.challenge_odds(t.game.view(0))
    assert odds.held > 0.95 and odds.bluff > 0.9
    assert t.answer() == Challenge()
    events = t.game.play("challenge", 0)
    assert any(getattr(e, "guilty", False) for e in events)  # the WD4 was indeed illegal


SEAT1 = ["G1", "G2", "B3", "Y4", "G6", "B7", "Y8"]


def _after_a_draw_on_red(
    drew: bool, ruleset: Ruleset | str = "official", hand1: list[str] = SEAT1, **options: Any
) -> Table:
    """Seat 1 holds ``hand1`` (no red); with ``drew`` it draws on red, seat 0 keeps red, and seat 1
    draws a WD4 and plays it; without, it plays a WD4 from its hand at once. Seat 0 keeps 6 or 7
    cards."""
    rules = ruleset.to_dict() if isinstance(ruleset, Ruleset) else ruleset
    t = Table({
        "ruleset": rules,
        "hands": [["R5", "R2", "G5", "B6", "Y7", "G8", "B9"], hand1 if drew else [*hand1, "W4"]],
        "discard": ["R9"],
        "draw": ["G3", "W4"] if drew else ["G3"],
        "active": 1,
    }, **options)
    if drew:
        t.play("draw", 1)
        t.play("R5", 0)
        t.play("draw", 1)
    t.play("W4:G", 1)
    return t


def test_accepts_a_wd4_from_a_seat_that_drew_on_its_color_just_before() -> None:
    # RULE: CL-ACT-13 (a seat that drew on red while holding eight cards most likely had no red)
    after_draw = _after_a_draw_on_red(drew=True)
    assert after_draw.answer() == Accept()
    # the same hand, played at once: eight unknown cards probably hold a red one
    at_once = _after_a_draw_on_red(drew=False)
    assert at_once.answer() == Challenge()
    # the earlier rule reads only the hand size, and challenges both
    assert _after_a_draw_on_red(drew=True, challenge="odds-v1").answer() == Challenge()
    assert _after_a_draw_on_red(drew=False, challenge="odds-v1").answer() == Challenge()


def test_a_draw_proves_the_color_missing_where_drawing_requires_it() -> None:
    # RULE: CL-DRAW-1 (may_draw_with_playable = false: the draw is a proof, no belief needed)
    rules = Ruleset.preset("official").replace(may_draw_with_playable=False)
    t = _after_a_draw_on_red(drew=True, ruleset=rules, draw_belief=0.0)
    assert t.bot.challenge_odds(t.game.view(0)).held < 0.3
    assert t.answer() == Accept()
    believing = _after_a_draw_on_red(drew=True, draw_belief=0.0)  # official, no belief: unknown
    assert believing.bot.challenge_odds(believing.game.view(0)).held > 0.8


def test_challenges_modest_odds_against_a_seat_about_to_go_out() -> None:
    # RULE: CL-ACT-12 (one card left: a right challenge saves the round, a wrong one costs 2 cards)
    t = Table({"hands": [["R5", "G2", "B6"], ["W4", "G5"]], "discard": ["R9"], "active": 1})
    t.play("W4:G!", 1)
    odds = t.bot.challenge_odds(t.game.view(0))
    assert odds.bluff < 0.25 and odds.gain > 0.0
    assert t.answer() == Challenge()
    # the same odds would not pay against a seat with nine cards left
    assert _break_even(me=3, player=1) < odds.bluff < _break_even(me=3, player=9)


def _break_even(me: int, player: int) -> float:
    """The bluff chance above which a challenge pays, heads-up, by :func:`win_chance`."""
    accept = win_chance([me + 4, player], [1, 0], 0)
    wrong = win_chance([me + 6, player], [1, 0], 0)
    right = win_chance([me, player + 4], [0, 1], 0)
    return (accept - wrong) / (right - wrong)


def test_learns_from_its_verdicts_how_readily_a_seat_bluffs() -> None:
    # RULE: CL-ACT-11 (verdicts on a seat whose victim held many cards)
    guilty = _after_a_draw_on_red(drew=False, hand1=["R1", *SEAT1[1:]])
    innocent = _after_a_draw_on_red(drew=False)
    for t in (guilty, innocent):
        assert t.answer() == Challenge()
        t.play("challenge", 0)
    prior = innocent.bot.reckless
    assert guilty.bot.recklessness[1] > 0.5 > prior > innocent.bot.recklessness[1]


def test_the_challenge_rules_are_options() -> None:
    assert CHALLENGE_RULES[0] == "odds" and "odds-v1" in CHALLENGE_RULES
    assert _after_a_draw_on_red(drew=False, challenge="never").answer() == Accept()
    assert _after_a_draw_on_red(drew=True, challenge="always").answer() == Challenge()
    with pytest.raises(ValueError, match="challenge rule"):
        HeuristicBot(challenge="sometimes")


def _ismcts_at(
    position: dict[str, Any], moves: list[tuple[str, int]], **options: Any
) -> tuple[Game, IsmctsBot]:
    """An ismcts bot at seat 0 of ``position``, fed the events of ``moves`` as the arena feeds them."""
    game = Game.from_position({"fill": "draw", **position})
    bot = IsmctsBot(**{"iterations": 40, "engine": "python", **options})  # the search inside the core:
    # tests/native/test_search.py
    view = game.view(0)
    bot.tracker.sync(view)
    bot._heuristic.drawn.sync(view)
    for action, seat in moves:
        bot.observe([e for e in game.play(action, seat) if e.visible_to(0)])
    return game, bot


def test_ismcts_takes_its_prior_from_a_heuristic_fed_the_whole_record() -> None:
    # RULE: CL-ACT-13 (ismcts keeps its heuristic's answer unless the search beats it clearly; that
    # heuristic was fed no events of its own, so it read no draws: it challenged this WD4)
    game, bot = _ismcts_at(
        {"hands": [["R5", "R2", "G5", "B6", "Y7", "G8", "B9"], SEAT1], "discard": ["R9"],
         "draw": ["G3", "W4"], "active": 1},
        [("draw", 1), ("R5", 0), ("draw", 1), ("W4:G", 1)],
    )
    view = game.view(0)
    assert bot._heuristic.challenge_odds(view).held < 0.5
    assert bot._heuristic.choose(view, game.legal_actions_for(0), random.Random(0)) == Accept()


def test_ismcts_challenges_by_the_heuristics_odds() -> None:
    # RULE: CL-ACT-12 (a WD4 played at once from eight unknown cards: the heuristic's odds, under
    # its own prior that one player in five is reckless, challenge it. With beliefs the samples hold
    # a Wild Draw Four legal while its victim holds more than three cards, so a search of the answer
    # accepts: it never meets a bluff. ismcts's own prior, 0.05, is tested below)
    position = {
        "hands": [["R5", "R2", "G5", "B6", "Y7", "G8", "B9"], [*SEAT1, "W4"]],
        "discard": ["R9"],
        "draw": ["G3"],
        "active": 1,
    }
    for options in ({}, {"beliefs": True}, {"search_challenge": True}):
        game, bot = _ismcts_at(position, [("W4:G", 1)], reckless=0.2, **options)
        assert bot.choose(game.view(0), game.legal_actions_for(0), random.Random(0)) == Challenge()
    game, bot = _ismcts_at(position, [("W4:G", 1)], reckless=0.2, beliefs=True, search_challenge=True)
    assert bot.choose(game.view(0), game.legal_actions_for(0), random.Random(0)) == Accept()


def _answer_to_greens(player_cards: int, **options: Any) -> Action | None:
    """Seat 2 plays W4 (naming blue) over R3 and keeps ``player_cards`` green cards; ismcts at
    seat 0, with six cards, answers."""
    greens = ["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9"][:player_cards]
    game, bot = _ismcts_at(
        {"hands": [["B1", "B2", "B3", "B4", "Y1", "Y2"], ["Y7", "Y8", "Y9", "G0", "B0"], ["W4", *greens]],
         "discard": ["R3"], "active": 2},
        [("W4:B", 2)],
        **options,
    )
    assert game.phase is Phase.RESPOND and game.active_seat == 0
    return bot.choose(game.view(0), game.legal_actions_for(0), random.Random(0))


def test_ismcts_expects_careful_players_not_to_bluff_against_a_long_hand() -> None:
    # RULE: CL-ACT-13 (a wrong challenge: the challenger draws 6) RULE: CL-ACT-6
    # the player keeps five cards, so it likely held red (the odds: about 0.75); but a careful
    # player bluffs against a six-card hand about one time in fifty, so ismcts accepts; the
    # heuristic's prior (one player in five reckless) challenges the same play
    assert _answer_to_greens(5) == Accept()
    assert _answer_to_greens(5, reckless=0.2) == Challenge()
    # with eight cards left it has almost surely held red: even a careful player's play is worth it
    assert _answer_to_greens(8) == Challenge()
