"""The outbox's update frames, written as text from pieces encoded once, against the ``Update``
model built field by field (what the outbox sent before it spliced text): at every step of whole
rounds, for every seat and two spectators, each frame is a declared server message (strictly) and
holds exactly what the model would."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from unotable.server import outbox
from unotable.server.entries import Acted, ActedBy, Dealt, Entry, Left, Seated, Started
from unotable.server.ids import token_hash
from unotable.server.outbox import TABLE_KINDS, Conn
from unotable.server.protocol import Update, parse_client
from unotable.server.table import Role, TableActor, TableSettings, new_table_doc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import check_frame


def model_update(actor: TableActor, conn: Conn, entry: Entry, changed: bool, now: float) -> dict[str, Any]:
    """The update ``conn`` is due, as the ``Update`` model (the reference: every field set)."""
    info = actor.info(now) if changed or entry.kind in TABLE_KINDS else None
    fields: dict[str, Any] = {
        "seq": actor.seq, "type": "update", "events": [], "view": None,
        "turn_deadline": actor.deadline(now) if info is None else info.turn_deadline,
    }  # fmt: skip
    if isinstance(entry, Acted) and entry.by is ActedBy.TIMEOUT:
        fields["timed_out"] = entry.seat
    game = actor.game
    if game is not None:
        since = conn.game_seq if conn.game_no == actor.games else 0
        fields["events"] = actor.events_for(conn.role, since)
        fields["view"] = actor.view_for(conn.role)
        fields["static"] = actor.static() if isinstance(entry, Started) else None
    if info is not None:
        fields["table"] = info
    doc: dict[str, Any] = json.loads(Update.model_construct(**fields).model_dump_json(exclude_unset=True))
    return doc


def step(actor: TableActor, conns: list[Conn], entry: Entry, now: float) -> int:
    """Apply ``entry`` and check every connection's frame against the model: the frames checked."""
    before = actor.public()
    actor.apply(entry, now)
    changed = before != actor.public()
    want = [model_update(actor, c, entry, changed, now) for c in conns]
    outbox.updates(actor, conns, entry, changed, now)
    for conn, expected in zip(conns, want, strict=True):
        text = conn.out.get_nowait()
        assert text is not None and conn.out.qsize() == 0
        assert check_frame(text) == expected, (conn.role, entry)
        assert conn.seq == actor.seq
    return len(conns)


@pytest.mark.parametrize(("preset", "seed"), [("official", 5), ("house", 6), ("no-mercy", 7)])
def test_update_frames_are_the_models_own(preset: str, seed: int) -> None:
    seats = 4
    settings = TableSettings(preset=preset, seats=seats, turn_seconds=30)
    actor = TableActor("t" * 16, new_table_doc(settings, "host-token"))
    conns = [Conn(Role(s, s == 0)) for s in range(seats)] + [Conn(Role()), Conn(Role())]
    rng = random.Random(seed)
    now = 1000.0
    checked = 0
    for s in range(seats):
        checked += step(actor, conns, Seated(s, f"P{s} ✓", token_hash(str(s))), now)
    checked += step(actor, conns, Started(seed), now)
    late = Conn(Role())  # a spectator that comes in the middle: it was sent nothing of this game
    for turn in range(400):
        game = actor.game
        assert game is not None
        if turn == 50:
            conns.append(late)
        if game.phase.name == "MATCH_OVER":
            break
        now += 1.5
        if game.phase.name == "ROUND_OVER":
            checked += step(actor, conns, Dealt(), now)
            continue
        movers = [s for s in range(seats) if game.legal_actions_for(s)]
        seat = rng.choice(movers)
        action = rng.choice(list(game.legal_actions_for(seat)))
        command = parse_client(json.dumps({"type": "act", "action": str(action)}))
        decision = actor.decide(Role(seat), command, now)
        assert decision is not None
        checked += step(actor, conns, decision.entry, now)
    # a seat's player leaves mid-round (the table changes: the frame carries it)
    checked += step(actor, conns, Left(3), now)
    assert checked > 400
