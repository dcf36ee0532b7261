"""research.native_playouts (research/native_playouts.py): ismcts with full playouts
on the native core (skipped without the core)."""
from __future__ import annotations

import random

import pytest

from research import native_playouts as bench
from unotable import Game, Phase
from unotable.arbiter import Arbiter
from unotable.bots import make_bot

pytest.importorskip("unotable_native")


def test_native_playout_search_plays_legal_rounds_and_scores_a_decided_playout() -> None:
    bot = bench.NativePlayoutIsmcts(policy="random-stuck", iterations=30)
    game = Game.new(seats=3, seed=5)
    bots = {0: bot, 1: make_bot("heuristic"), 2: make_bot("heuristic")}
    Arbiter(game, bots, {s: random.Random(s) for s in range(3)}).play_round()  # raises on illegal
    assert game.phase >= Phase.ROUND_OVER
    # a playout from a position one play from the end: seat 0 goes out whatever the policy does
    end = Game.from_position({"hands": [["R5"], ["G1", "G2"], ["B1", "B2"]], "discard": ["R3"]})
    st = end.clone_state()
    reward, _ = bot._descend(st, bench.Node(), 0, False, 4, random.Random(0))
    assert reward == 1.0
    st = end.clone_state()
    assert bot._descend(st, bench.Node(), 1, False, 4, random.Random(0))[0] == 0.0
