"""Every golden record of tests/data replays through the core to its digest (GEN-4)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from unotable.record import Record, position_digest

from lockstep import Pool

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = sorted(DATA.glob("golden_*.json"))


def test_there_are_golden_records() -> None:
    assert len(GOLDEN) >= 8


@pytest.mark.rule("GEN-4")
@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_records_replay_to_their_digests(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    for entry in doc["games"]:
        record = Record.from_dict(entry["record"])
        assert record.seed is not None
        pool = Pool(1, record.ruleset, record.seats, [record.seed])
        for seat, action in record.actions:
            if seat is None:
                pool.next_round(0)
            else:
                pool.play(0, action, seat)
        final = pool.to_position(0)
        assert final == entry["final"]
        assert position_digest(final) == record.digest
