"""The differential check of the arena in the core (tests/native/test_arena.py,
test_mixbot2_params.py): game ``index`` of a run played by the core's policies and by the Python
arbiter with the Python bots, from the same deal and generators; every (seat, action) must match.
"""
from __future__ import annotations

import json

import pytest

from unotable.arbiter import Arbiter
from unotable.bots import arena as py_arena
from unotable.bots.arena import Config, game_rngs, native_lineup, seating
from unotable.bots.registry import make_bot
from unotable.game import Game
from unotable.rules import Ruleset


def python_game(config: Config, index: int) -> list[tuple[int, str]]:
    """Game ``index`` of ``config`` in the Python arbiter: every (seat, action) applied."""
    specs, seed = seating(config, index)
    game = Game.new(seats=config.seats, ruleset=config.rules(), seed=seed)
    bots = [make_bot(s) for s in specs]
    rngs = game_rngs(config.seed, index, config.seats)
    Arbiter(game, dict(enumerate(bots)), rngs).play_round(config.max_actions)
    return [(s, str(a)) for s, a in game.actions if s is not None]


def compare(rules: Ruleset, lineup: list[str], seed: int, games: int, results: bool = True) -> int:
    """Games 0 .. games - 1 of the run of ``lineup`` (bot specs the core can play, through
    ``native_lineup``) in both engines; fails at the first decision that differs, with the position
    before it. ``results``: also compare each game's winners, points and turns with play_game's.
    Returns the decisions compared."""
    from unotable_native.arena import game_actions

    seats = len(lineup)
    config = Config(rules.to_dict(), seats, tuple(lineup), seed)
    resolved = native_lineup(config)
    assert not isinstance(resolved, str), resolved
    names, params = resolved
    decisions = 0
    for index in range(games):
        got, moves = game_actions(rules, seats, names, seed, index, params=params)
        want = python_game(config, index)
        if moves != want:
            k = next((j for j in range(min(len(moves), len(want))) if moves[j] != want[j]),
                     min(len(moves), len(want)))
            before = Game.new(seats=seats, ruleset=rules, seed=seating(config, index)[1])
            for s, a in want[:k]:
                before.play(a, s)
            pytest.fail(f"{rules.describe()}, {lineup}, seed {seed}, game {index}: decision {k} differs: "
                        f"python {want[k:k + 2]}, native {moves[k:k + 2]}; position before it: "
                        f"{json.dumps(before.to_position())}")
        if results:
            result = py_arena.play_game(config, index)
            assert (got.winners, got.points, got.turns, got.finished) == (
                result.winners, result.points, result.turns, result.finished), (lineup, seed, index)
        decisions += len(moves)
    return decisions
