"""The positions the rule scenario tests build (tests/native/data/scenarios.json, written by
make_scenarios.py from tests/rules) load in both engines alike and step identically: 20 actions
of each in lockstep (probes included), every fourth with every seat's observation compared too."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unotable import Game
from unotable.errors import UnoError
from unotable.position import read_position

from lockstep import Pool, lockstep

DATA = Path(__file__).resolve().parent / "data" / "scenarios.json"
POSITIONS: list[Any] = json.loads(DATA.read_text(encoding="utf-8"))["positions"]
CHUNKS = 8


def test_there_are_scenarios() -> None:
    assert len(POSITIONS) > 500


@pytest.mark.rule("GEN-2", "GEN-5")
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_scenarios_load_and_step_alike(chunk: int) -> None:
    loaded = refused = actions = 0
    for k, doc in enumerate(POSITIONS):
        if k % CHUNKS != chunk:
            continue
        try:
            st = read_position(doc)
        except UnoError as exc:
            refused += 1
            with pytest.raises(type(exc)):
                Pool(1, "official", 2).from_position(0, doc)
            continue
        pool = Pool(1, st.rules, st.n)
        pool.from_position(0, doc)
        game = Game.from_position(doc)
        actions += lockstep(game, pool, 0, policy_seed=k, probe=0.1, max_actions=20, observe=k % 4 == 0)
        loaded += 1
    assert loaded > 0
    print(f"chunk {chunk}: {loaded} positions stepped ({actions} actions), {refused} refused alike")
