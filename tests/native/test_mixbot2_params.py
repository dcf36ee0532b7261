"""mixbot2's options in the core (MixParams, native/src/policies/mixbot.hpp) against the Python
bot with the same options: every decision of many seeded rounds, for several non-default option
sets (the tuned set, each option alone, random ones) at several seat counts and presets.

A lineup's specs go through ``unotable.bots.arena.native_lineup`` (the path ``unotable simulate``
takes), the core plays each game with ``game_actions`` and those options per seat, the Python
arbiter plays it with the bots the specs build; the two lists of (seat, action) must be equal.
"""
from __future__ import annotations

import random

import pytest
from arena_check import compare

from unotable.bots.arena import Config, native_lineup, run_arena
from unotable.bots.mixbot import MIXBOT_RULES
from unotable.bots.mixbot2 import KINDS, MixBot2
from unotable.bots.registry import BotSpecError, make_bot
from unotable.bots.tuned import TUNED, MixBot2Tuned
from unotable.rules import Ruleset

native = pytest.importorskip(
    "unotable_native.arena",
    reason="the native core is not built: `pip install -e native/` (make test builds it)",
)

FIXED = (
    "mixbot2-tuned",
    "mixbot2:wild_limit=0:wd4_limit=0:drawn_wild_limit=0",
    "mixbot2:wild_limit=9:wd4_limit=9:drawn_wild_limit=9",
    "mixbot2:ranking=W/W4/R/N/S/D2",
    "mixbot2:attack=N/W/R/S/W4/D2",
)


def _random_spec(rng: random.Random) -> str:
    ranking, attack = list(KINDS), list(KINDS)
    rng.shuffle(ranking)
    rng.shuffle(attack)
    return (f"mixbot2:wild_limit={rng.randrange(7)}:wd4_limit={rng.randrange(7)}"
            f":drawn_wild_limit={rng.randrange(7)}:ranking={'/'.join(ranking)}:attack={'/'.join(attack)}")


def _mix(spec: str, **options: object) -> MixBot2:
    bot = make_bot(spec, **options)
    assert isinstance(bot, MixBot2)
    return bot


@pytest.mark.parametrize(("preset", "seats"),
                         [("mixbot", 2), ("mixbot", 6), ("official", 3), ("official", 4)])
def test_mixbot2_with_options_decides_as_the_python_bot(preset: str, seats: int) -> None:
    rules = MIXBOT_RULES if preset == "mixbot" else Ruleset.preset(preset)
    rng = random.Random(f"{preset}/{seats}")
    decisions = 0
    for k, spec in enumerate([*FIXED, _random_spec(rng), _random_spec(rng)]):
        others = ["mixbot2", "random-stuck", "mixbot2-tuned", "mixbot"]
        lineup = [spec] + [others[(k + i) % len(others)] for i in range(seats - 1)]
        decisions += compare(rules, lineup, seed=rng.randrange(2**40), games=2 * seats, results=False)
    assert decisions > 500


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_mixbot2_with_options_thousands_of_decisions(seats: int) -> None:
    rng = random.Random(f"slow/{seats}")
    for _ in range(8):
        lineup = [_random_spec(rng) for _ in range(seats)]
        compare(MIXBOT_RULES, lineup, seed=rng.randrange(2**64), games=40)


def test_the_defaults_are_todays_mixbot2_and_tuned_is_its_parameter_set() -> None:
    spelled_out = "mixbot2:ranking=D2/S/N/R/W4/W:attack=D2,W4,S,R,N,W"
    config = Config(MIXBOT_RULES.to_dict(), 2, ("mixbot2", spelled_out), 5)
    default = _mix("mixbot2").native_params()
    assert default == [2, 4, 2, 0, 1, 2, 3, 4, 5, 0, 2, 4, 3, 1, 5]  # MixParams' defaults, in the core too
    assert native_lineup(config) == (["mixbot2", "mixbot2"], [default, default])
    plain = run_arena(MIXBOT_RULES, 2, ["mixbot2", "random-stuck"], games=200, seed=5, engine="native")
    limits = "mixbot2:wild_limit=2:wd4_limit=4:drawn_wild_limit=2:ranking=D2/S/N/R/W4/W"
    spelled = run_arena(MIXBOT_RULES, 2, [limits, "random-stuck"], games=200, seed=5, engine="native")
    assert [g.winners for g in plain.results] == [g.winners for g in spelled.results]
    bot = MixBot2Tuned()
    assert {k: getattr(bot, k) for k in TUNED} == TUNED
    assert _mix("mixbot2", **TUNED).native_params() == bot.native_params()
    assert _mix("mixbot2-tuned:wild_limit=2").wild_limit == 2


def test_the_core_plays_mixbot2_options_and_refuses_what_it_lacks() -> None:
    lineup = ["mixbot2-tuned", "mixbot2:wd4_limit=1"]
    assert run_arena(MIXBOT_RULES, 2, lineup, games=4, seed=1).engine == "native"
    assert run_arena(MIXBOT_RULES, 2, ["mixbot2:colors=off", "mixbot2"], games=2, seed=1).engine == "python"
    with pytest.raises(ValueError, match="no native policy"):
        run_arena(MIXBOT_RULES, 2, ["mixbot2:counting=false", "mixbot2"], games=2, seed=1, engine="native")
    with pytest.raises(ValueError, match="mixbot2's options"):
        native.play_rounds(MIXBOT_RULES, 2, ["mixbot", "mixbot2"], 1, 0, 1, params=[[2] * 15, None])
    with pytest.raises(ValueError, match="one per seat"):
        native.play_rounds(MIXBOT_RULES, 2, ["mixbot2", "mixbot2"], 1, 0, 1, params=[None])
    good = _mix("mixbot2").native_params()
    assert good is not None
    for bad, text in (([*good[:3], 0, 0, 1, 2, 3, 4, *good[9:]], "each of the 6 kinds"),
                      ([-1, *good[1:]], "limits"), (good[:14], "15 numbers")):
        with pytest.raises(ValueError, match=text):
            native.play_rounds(MIXBOT_RULES, 2, ["mixbot2", "mixbot2"], 1, 0, 1, params=[bad, None])


@pytest.mark.parametrize(("spec", "text"), [
    ("mixbot2:wild_limit=-1", "wild_limit must be a whole number"),
    ("mixbot2:wd4_limit=200", "wd4_limit must be a whole number"),
    ("mixbot2:drawn_wild_limit=x", "must be int"),
    ("mixbot2:ranking=D2/S/N/R/W4", "ranking must name each of"),
    ("mixbot2:attack=D2/S/N/R/W4/W4", "attack must name each of"),
    ("mixbot2:ranking=D2/S/N/R/W4/X", "ranking must name each of"),
    ("mixbot2-tuned:attack=3", "must be str"),
])
def test_bad_options_get_a_clear_error(spec: str, text: str) -> None:
    with pytest.raises(BotSpecError, match=text):
        make_bot(spec)
