"""Summaries that wait: after a round the next is dealt when every connected player is ready,
when the host deals, or when the table's countdown (``round_pause``) ends; the countdown and
who is ready are in the public table. Through real websockets against a real server
(tests/server/harness.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest

from unotable.server.protocol import LIMITS

pytest.importorskip("websockets")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import HANG_S, Client, ServerProc, play_person, seat_people

# a round played at full speed spends the message allowance; this refills it, so that a
# refusal the test expects is the rule's, not the rate limit's
REFILL = LIMITS.message_burst / LIMITS.messages_per_second
COUNTDOWN = 10 * HANG_S  # the round pause: no wait here comes near its end


def round_over(client: Client) -> bool:
    return client.status == "round_over"


def test_the_summary_waits_for_everyone_ready(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server, "official", bots=[None, None, "random"], seats=3, round_pause=COUNTDOWN,
            options={"target_score": 5000},
        )
        a, b = match.humans[0], match.humans[1]
        rng = random.Random(7)
        await asyncio.gather(play_person(a, rng, until=round_over), play_person(b, rng, until=round_over))
        await asyncio.sleep(REFILL)
        assert a.info is not None and COUNTDOWN - HANG_S < a.info["next_round_in"] <= COUNTDOWN  # told
        assert a.info["ready"] == []
        # refused: a spectator, and (below) a table not after a round
        assert match.spectator is not None
        no = await match.spectator.request({"type": "ready"}, answer=lambda m: m["type"] == "error")
        assert no["code"] == "forbidden"
        got = await a.request({"type": "ready"}, answer=lambda m: m["type"] in ("update", "error"))
        assert got["type"] == "update" and got["table"]["ready"] == [0]
        assert got["table"]["status"] == "round_over"
        seq = a.seq
        await a.send({"type": "ready"})  # a second time: no entry, nothing told
        await a.ping()
        assert a.seq == seq
        index = len(a.frames)
        await b.request({"type": "ready"}, answer=lambda m: m["type"] == "update")
        dealt = await a.wait_for(
            lambda m: m["type"] == "update" and (m.get("table") or {}).get("status") == "playing", start=index
        )
        assert dealt["table"]["ready"] == []
        # everyone ready: dealt at once, not at the countdown's end (the wait's bound, a hang's,
        # is far shorter than the countdown)
        assert a.info is not None and a.info["ready"] == [] and a.info["next_round_in"] is None
        late = await a.request({"type": "ready"}, answer=lambda m: m["type"] == "error")
        assert late["code"] == "illegal"
        for c in (a, b, match.spectator):
            await c.close()

    asyncio.run(main())
