"""Whole matches step by step in both engines: legal lists, states and positions after every action.

Every preset at several seat counts, random rulesets drawn as the property tests draw them
(tests/test_properties.py), with probes of actions that the engines must refuse alike (or punish
alike: a false UNO call or catch). The numbers of matches and actions are printed with ``-s``.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unotable import Game, Ruleset
from unotable.rules import PRESET_NAMES

from lockstep import Pool, lockstep

GAMES_PER_PRESET = 6


def _load_property_tests() -> Any:
    """tests/test_properties.py, for its ruleset strategies (one definition of a random ruleset)."""
    path = Path(__file__).resolve().parents[1] / "test_properties.py"
    name = "unotable_tests_properties"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_props = _load_property_tests()


@pytest.mark.rule("GEN-2", "GEN-3", "CL-TURN-1", "CL-UNO-1", "CL-UNO-5", "HOUSE-6")
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_matches(preset: str) -> None:
    rules = Ruleset.preset(preset)
    counts = rules.seat_counts
    seat_list = sorted({counts[0], counts[len(counts) // 2], counts[-1]})
    actions = 0
    for k in range(GAMES_PER_PRESET):
        seats = seat_list[k % len(seat_list)]
        seed = 1_000 + 37 * k + len(preset)
        game = Game.new(seats, rules, seed)
        pool = Pool(1, rules, seats, [seed])
        actions += lockstep(game, pool, 0, policy_seed=seed, probe=0.05)
    assert actions > 50 * GAMES_PER_PRESET
    print(f"{preset}: {GAMES_PER_PRESET} matches, {actions} actions in lockstep")


def test_many_tables_in_one_pool() -> None:
    """Tables are independent: table i of a pool plays table i's game whatever the others do."""
    seeds = [11, 2**70 + 5, 13, 14]
    pool = Pool(len(seeds), "house", 4, seeds)
    for i in (2, 0, 3, 1):
        lockstep(Game.new(4, "house", seeds[i]), pool, i, policy_seed=i, max_actions=400)


def _rounds(ruleset: Ruleset, seats: int, seed: int, policy_seed: int) -> None:
    rules = ruleset
    if ruleset.scoring.value != "none":
        rules = ruleset.replace(target_score=min(ruleset.target_score, 150))
    game = Game.new(seats, rules, seed)
    lockstep(game, Pool(1, rules, seats, [seed]), 0, policy_seed, probe=0.08, max_actions=1500)


def _native_plays(ruleset: Ruleset) -> bool:
    """The core refuses uno_grace (tests/native/test_uno_grace_refused.py): lockstep the others."""
    return not ruleset.uno_grace


@pytest.mark.rule("GEN-1", "GEN-2", "HOUSE-1", "HOUSE-6", "HOUSE-9", "HOUSE-10", "HOUSE-13", "HOUSE-14")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=_props.classic_rulesets().filter(_native_plays), data=st.data(), seed=_props.seeds,
       policy_seed=_props.policy_seeds)
def test_random_classic_rulesets(ruleset: Ruleset, data: st.DataObject, seed: int, policy_seed: int) -> None:
    seats = data.draw(st.sampled_from(ruleset.seat_counts), label="seats")
    _rounds(ruleset, seats, seed, policy_seed)


@pytest.mark.rule("NM-1", "NM-4", "NM-6", "NM-8", "NM-9", "NM-10", "NM-11", "NM-14", "NM-17")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=_props.no_mercy_rulesets().filter(_native_plays), data=st.data(), seed=_props.seeds,
       policy_seed=_props.policy_seeds)
def test_random_no_mercy_rulesets(ruleset: Ruleset, data: st.DataObject, seed: int, policy_seed: int) -> None:
    seats = data.draw(st.sampled_from(ruleset.seat_counts), label="seats")
    _rounds(ruleset, seats, seed, policy_seed)
