"""Bad input: the core refuses what the engine refuses, with the same error class, the table unchanged."""
from __future__ import annotations

import random

import pytest

from unotable import Game
from unotable.errors import (
    IllegalActionError,
    InvalidActionError,
    NotationError,
    NotYourTurnError,
    PositionError,
    RulesetError,
)

from lockstep import Pool, both, probe_actions, state_doc


@pytest.mark.rule("GEN-2")
@pytest.mark.parametrize("preset", ["official", "house", "no-mercy", "official-112-swap", "partners"])
def test_every_probe_in_many_positions(preset: str) -> None:
    """At each of many positions, every probe action by every seat (and by no seat) does the same
    in both engines: applied alike, or refused alike and nothing changed."""
    seats = 4
    rng = random.Random(preset)
    probes = probe_actions(seats)
    scratch = Pool(1, preset, seats, [0])
    checked = 0
    for seed in range(2):
        game = Game.new(seats, preset, seed)
        for step in range(30):
            if game.phase >= 4:
                break
            if step % 6 == 0:
                for seat in (None, *range(seats)):
                    for action in rng.sample(probes, 60):
                        probe = game.copy()
                        scratch.load_state(0, probe._st)
                        outcome = both(probe, scratch, 0, action, seat)
                        expected = game if outcome != "ok" else probe
                        assert state_doc(scratch.state(0)) == state_doc(expected._st)
                        checked += 1
            game.play(game.legal_actions[step % len(game.legal_actions)])
    assert checked > 1_000


def test_specific_errors() -> None:
    pool = Pool(1, "official", 3, [5])
    game = Game.new(3, "official", 5)
    other = (game.active_seat + 1) % 3
    with pytest.raises(NotationError):
        pool.play(0, "Q9")
    with pytest.raises(InvalidActionError):
        pool.play(0, "uno")  # an out-of-turn action needs its seat
    with pytest.raises(InvalidActionError):
        pool.play(0, "draw", 3)  # no such seat
    with pytest.raises(InvalidActionError):
        pool.play(0, "deal", 0)
    with pytest.raises(IllegalActionError):
        pool.play(0, "deal")
    with pytest.raises(NotYourTurnError):
        pool.play(0, "draw", other)
    with pytest.raises(InvalidActionError):
        pool.play(0, "catch:7", other)
    assert pool.to_position(0) == game.to_position()
    with pytest.raises(IndexError):
        pool.legal(1, 0)


def test_bad_rulesets_seats_seeds_and_positions() -> None:
    with pytest.raises(RulesetError):
        Pool(1, "nonsense", 4)
    with pytest.raises(RulesetError):
        Pool(1, {"deck": "no_mercy168", "seven_zero": False}, 4)
    with pytest.raises(RulesetError):
        Pool(1, "partners", 5)
    with pytest.raises(RulesetError):
        Pool(1, "official", 4, [-1])
    with pytest.raises(ValueError):
        Pool(2, "official", 4, [1])
    pool = Pool(1, "official", 2, [1])
    with pytest.raises(PositionError):
        pool.from_position(0, {"hands": [["R1"], []], "discard": ["R2"]})
    with pytest.raises(RulesetError):
        pool.from_position(0, {"hands": [["R1"], ["R3"], ["R4"]], "discard": ["R2"]})
    assert pool.to_position(0) == Game.new(2, "official", 1).to_position()
