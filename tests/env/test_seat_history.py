"""The history rebuilt from one seat's events equals the environment's, observation for observation."""
from __future__ import annotations

import random

import pytest

from unotable.env.seat_history import SeatHistory
from unotable.env.spaces import encode
from unotable.env.table import Table
from unotable.rules import PRESET_NAMES, Ruleset


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("seats", [2, 4])
def test_every_observation_equals_the_envs(preset: str, seats: int) -> None:
    if seats not in Ruleset.preset(preset).seat_counts:
        pytest.skip(f"{preset} has no table of {seats}")
    rng = random.Random(f"{preset}/{seats}")
    compared = 0
    for episode in range(4):
        table = Table(preset, seats, out_of_turn="full", episode="match" if episode % 2 else "round",
                      max_cycles=3000)
        rules = Ruleset.preset(preset)
        trackers = [SeatHistory(rules, seats) for _ in range(seats)]
        # each seat's tracker fed as the table feeds its opponents: every event the seat may see
        table._observers = {s: tracker.observe for s, tracker in enumerate(trackers)}
        table.reset(seed=1000 * seats + episode)
        game = table.game
        while not table.done:
            seat = table.seat
            expected = bytes(table.observation(seat))
            assert bytes(encode(game.view(seat), trackers[seat].history)) == expected, (
                f"{preset}, {seats} seats, episode {episode}: seat {seat}'s history differs")
            compared += 1
            legal = [i for i, m in enumerate(table.mask()) if m]
            table.step(rng.choice(legal))
    assert compared > 100
