"""Deals: for every preset and seat count, the core's position after the deal is the engine's."""
from __future__ import annotations

import pytest

from unotable import Game, Ruleset
from unotable.rules import PRESET_NAMES

from lockstep import Pool, state_doc

SEEDS_PER_COUNT = 150


@pytest.mark.rule("SET-1", "SET-2", "SET-4", "SET-5", "SET-6", "SET-7", "SET-8", "SET-9", "SET-10", "SET-11",
                  "SET-13", "TWO-5", "GEN-3")
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_deals_equal(preset: str) -> None:
    rules = Ruleset.preset(preset)
    checked = 0
    for seats in rules.seat_counts:
        seeds = [seats * 100_003 + k * 7919 for k in range(SEEDS_PER_COUNT)]
        pool = Pool(len(seeds), rules, seats, seeds)
        for i, seed in enumerate(seeds):
            game = Game.new(seats, rules, seed)
            assert pool.to_position(i) == game.to_position(), (preset, seats, seed)
            assert state_doc(pool.state(i)) == state_doc(game._st), (preset, seats, seed)
            checked += 1
    assert checked >= SEEDS_PER_COUNT


@pytest.mark.parametrize("seed", [2**64, 2**64 + 1, 2**127 + 99, 2**200])
def test_big_seeds_deal_equal(seed: int) -> None:
    pool = Pool(1, "official", 4, [seed])
    assert pool.to_position(0) == Game.new(4, "official", seed).to_position()


@pytest.mark.rule("SET-3")
def test_next_round_deals_equal() -> None:
    """Each later deal too: play every table to its round's end by the same actions, then deal."""
    for preset in ("official", "house", "no-mercy", "partners"):
        rules = Ruleset.preset(preset)
        seats = 4
        pool = Pool(20, rules, seats, list(range(20)))
        for i in range(20):
            game = Game.new(seats, rules, i)
            for _ in range(3):
                while game.phase < 4:
                    action = game.legal_actions[0]
                    pool.play(i, str(action))
                    game.play(action)
                if game.is_over():
                    break
                game.next_round()
                pool.next_round(i)
                assert pool.to_position(i) == game.to_position()
