"""Deals anyone can verify: a match's start publishes its seed commitment to every seat and the
spectators, no frame carries the seed or its salt before the match is over, the end reveals both
to everyone, and the record (and ``GET /api/tables/ID/verify``, the verify page's answer) verifies
with :mod:`unotable.verify`, with ``python3 -m unotable verify URL`` too.
Through real websockets against a real server (tests/server/harness.py), on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Client, ServerProc, Stream, ahttp, play_person, seat_people
from leak_scan import fetch_record_doc, finish_and_check

from unotable.verify import RECIPE, VerifyError, commitment, verify

ROOT = Path(__file__).resolve().parents[2]


def _deal(msg: dict[str, Any]) -> dict[str, Any] | None:
    table = msg.get("table")
    return table.get("deal") if isinstance(table, dict) else None


def test_the_commitment_is_sent_at_the_start_and_the_seed_only_at_the_end(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 40})
        host = match.humans[0]
        started = next(m for m in host.frames if m["type"] == "update" and m.get("static"))
        deal = _deal(started)
        assert deal is not None and set(deal) == {"recipe", "commitment"}, started.get("table")
        assert deal["recipe"] == RECIPE and deal["commitment"].startswith("sha256:")
        published = deal["commitment"]
        status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert info["deal"] == {"recipe": RECIPE, "commitment": published, "seed": None, "salt": None}
        status, body = await ahttp("GET", f"{server.url}/api/tables/{match.table}/verify")
        assert status == 409 and body["code"] == "forbidden"
        await asyncio.gather(*(play_person(c, random.Random(s)) for s, c in match.humans.items()))
        rep = await finish_and_check(match, [])  # the leak scan of every frame, the salt's too
        doc = await asyncio.to_thread(fetch_record_doc, server, match.table)
        seed, salt = doc["reveal"]["seed"], doc["reveal"]["salt"]
        assert doc["commitment"] == {"recipe": RECIPE, "digest": published}
        assert commitment(seed, salt) == published and str(seed) == rep.seed_text
        result = verify(doc)
        assert result.seed == seed and result.actions == len(doc["actions"])
        # every seat and the spectator: the commitment from the start, no seed or salt in any
        # frame before the one that reveals them, and that frame says the match is over
        streams = [*match.streams.values(), match.spectator_stream]
        for stream in streams:
            assert stream is not None
            frames = [m for conn in stream.connections for m in conn]
            at = next(i for i, m in enumerate(frames) if (_deal(m) or {}).get("seed") is not None)
            for m in frames[:at]:
                text = json.dumps(m)
                assert str(seed) not in text and salt not in text, (stream.seat, m["type"])
            assert any((_deal(m) or {}).get("commitment") == published for m in frames[:at]), stream.seat
            revealed = frames[at]
            assert revealed["table"]["status"] == "match_over"
            assert revealed["table"]["deal"] == {
                "recipe": RECIPE, "commitment": published, "seed": seed, "salt": salt
            }
        # the page's "verify this match", and a late visitor's welcome
        status, body = await ahttp("GET", f"{server.url}/api/tables/{match.table}/verify")
        assert status == 200 and body["verified"] is True and body["failed"] is None, body
        assert body["reveal"] == {"seed": seed, "salt": salt} and body["seed"] == str(seed)
        assert body["commitment"] == {"recipe": RECIPE, "digest": published}
        assert body["result"] == verify(doc).to_dict() and body["names"] == doc["names"]
        assert len(body["result"]["rounds"]) == body["result"]["deals"] >= 1
        assert body["command"] == f"python3 -m unotable verify {server.url}/t/{match.table}"
        assert body["record"] == f"/t/{match.table}/record" and body["file"] == f"unotable-{match.table}.json"
        # the command as the page prints it, from the root of the source with nothing installed
        # (-S: no site-packages): it downloads the record and checks it
        cli = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-S", "-m", "unotable", "verify", body["command"].split()[-1]],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )
        assert cli.returncode == 0 and cli.stdout.startswith(f"verified: seed {seed} matches"), cli.stderr
        late = await Client.open(server, match.table, Stream(None))
        assert late.welcome is not None and _deal(late.welcome) == revealed["table"]["deal"]
        # a rematch: a new commitment, its seed secret again; the first match still verifies
        await host.request({"type": "rematch"}, flush=True)  # proposed: the other player accepts
        again = await match.humans[1].request({"type": "accept_rematch"}, flush=True)
        fresh = _deal(again)
        assert fresh is not None and set(fresh) == {"recipe", "commitment"}
        assert fresh["commitment"] != published
        status, first = await ahttp("GET", f"{server.url}/t/{match.table}/record?match=1")
        assert status == 200 and verify(first).commitment == published
        status, body = await ahttp("GET", f"{server.url}/api/tables/{match.table}/verify?match=1")
        assert body["verified"] is True and body["record"] == f"/t/{match.table}/record?match=1"
        assert body["command"] == f"python3 -m unotable verify {server.url}/t/{match.table}?match=1"
        tampered = {**first, "reveal": {"seed": seed + 1, "salt": salt}}
        with pytest.raises(VerifyError, match="do not give the published commitment"):
            verify(tampered)
        for c in [*match.humans.values(), match.spectator, late]:
            assert c is not None
            await c.close()

    asyncio.run(main())
