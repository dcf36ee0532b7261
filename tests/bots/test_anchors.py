"""research.anchors (research/anchors.py): our bots against chausner/UnoAI's
published MixBot figures, under MixBot's rules, through the arena."""
from __future__ import annotations

import json

import pytest

from research import anchors
from unotable.bots.arena import run_arena
from unotable.bots.mixbot import MIXBOT_RULES


def test_the_anchor_table_runs_the_arenas_rounds_next_to_the_published_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert anchors.main(["--only", "mixbot", "--seats", "2,6", "--games", "8", "--ismcts-games", "2",
                         "--ismcts", "ismcts:iterations=4", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ruleset"] == MIXBOT_RULES.to_dict()
    lines = {(ln["bot"], ln["against"], ln["seats"]): ln for ln in doc["lines"]}
    assert lines[("mixbot", "random-stuck", 2)]["published"] == 0.664
    assert lines[("mixbot", "random-stuck", 6)]["published"] == 0.236
    assert lines[("heuristic", "mixbot", 2)]["published"] is None
    for (_, _, seats), ln in lines.items():
        assert ln["rounds"] % seats == 0 and ln["rounds"] >= seats  # whole rotations
        assert 0 <= ln["wins"] <= ln["rounds"] and ln["ci95"][0] <= ln["win_rate"] <= ln["ci95"][1]
    # the same rounds as the arena's, seeded alike
    direct = run_arena(MIXBOT_RULES, 6, ["mixbot"] + ["random-stuck"] * 5, 12, seed=1)
    assert lines[("mixbot", "random-stuck", 6)]["wins"] == direct.row("mixbot").wins
    assert ("ismcts:iterations=4", "mixbot", 2) in lines
    anchors.main(["--only", "rule-v1", "--seats", "2", "--games", "2", "--quiet"])
    table = capsys.readouterr().out
    assert "rule-v1" in table and "mixbot" in table and "wd4_rule=free" in table
