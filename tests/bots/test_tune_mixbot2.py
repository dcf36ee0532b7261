"""research/tune_mixbot2.py: its parameter sets, their neighbours, and a short run in the core."""
from __future__ import annotations

import pytest

from research.tune_mixbot2 import Params, main
from unotable.bots import make_bot
from unotable.bots.tuned import TUNED

pytest.importorskip("unotable_native.arena", reason="the tuner plays in the native core")


def test_a_set_reads_and_writes_a_spec_and_its_defaults_are_mixbot2s() -> None:
    assert Params.parse("") == Params() == Params.parse("mixbot2")
    tuned = Params.parse(":".join(f"{k}={str(v).replace(',', '/')}" for k, v in TUNED.items()))
    assert (tuned.wild_limit, tuned.wd4_limit, tuned.ranking[-2:]) == (3, 1, ("W", "W4"))
    assert Params.parse(tuned.spec()) == tuned
    assert make_bot(tuned.spec()).native_params() == make_bot("mixbot2-tuned").native_params()  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="ranking must name"):
        Params.parse("ranking=D2/S")


def test_each_neighbour_is_one_move_away() -> None:
    start = Params(wild_limit=0)
    moves = start.neighbours()
    assert len(moves) == 1 + 2 + 2 + 5 + 5  # wild_limit cannot go below 0
    for text, p in moves:
        changed = [f for f in ("wild_limit", "wd4_limit", "drawn_wild_limit", "ranking", "attack")
                   if getattr(p, f) != getattr(start, f)]
        assert len(changed) == 1 and text.startswith(changed[0])


def test_a_short_run_prints_each_candidate_with_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rounds", "40", "--steps", "1", "--seats", "2", "--margin", "1.0"]) == 0
    out = capsys.readouterr().out
    assert out.count("2 seats") == 1 + len(Params().neighbours())
    assert "a local optimum" in out and out.rstrip().endswith(Params().spec())
    with pytest.raises(SystemExit):
        main(["--start", "wild_limit=-1"])
