"""Summaries that wait: after a round the next is dealt when every connected player is ready,
when the host deals, or when the table's countdown (``round_pause``) ends; the countdown and
who is ready are in the public table. Through real websockets against a real server
(tests/server/harness.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from unotable.server.protocol import LIMITS

pytest.importorskip("websockets")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import HANG_S, Client, ServerProc, play_person, seat_people

# a round played at full speed spends the message allowance; this refills it, so that a
# refusal the test expects is the rule's, not the rate limit's
REFILL = LIMITS.message_burst / LIMITS.messages_per_second
COUNTDOWN = 10 * HANG_S  # the round pause: no wait here comes near its end


def answered(m: dict[str, Any]) -> bool:
    return m["type"] in ("update", "error")


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


async def _round_over_with(
    server: ServerProc, round_pause: float, read_limit: float
) -> tuple[Client, Client]:
    """Two people and a bot play a round to its summary; the host set ``read_limit`` first."""
    match = await seat_people(
        server, "official", bots=[None, None, "random"], seats=3, round_pause=round_pause,
        options={"target_score": 5000}, spectator=False, start=False,
    )
    a, b = match.humans[0], match.humans[1]
    got = await a.request({"type": "settings", "read_limit": read_limit}, flush=True)
    assert got["type"] == "update" and got["table"]["settings"]["read_limit"] == read_limit, got
    await a.request({"type": "start"}, flush=True)
    rng = random.Random(11)
    await asyncio.gather(play_person(a, rng, until=round_over), play_person(b, rng, until=round_over))
    await asyncio.sleep(REFILL)
    return a, b


def test_the_countdown_stands_still_while_someone_reads(server: ServerProc) -> None:
    async def main() -> None:
        pause = 2 * REFILL + 1  # short (the test waits past it), longer than the refill before "reading"
        a, b = await _round_over_with(server, pause, 10 * HANG_S)
        # "reading" from a page that shows the summary: the countdown stands still
        got = await a.request({"type": "reading", "on": True}, answer=answered)
        assert got["type"] == "update" and got["table"]["reading"] == [0], got
        held = got["table"]["next_round_in"]
        assert 0 < held <= pause
        await a.send({"type": "reading", "on": True})  # said twice: no entry
        await asyncio.sleep(pause)  # past the countdown: still the summary, nobody dealt
        again = await b.request({"type": "ready"}, answer=lambda m: m["type"] == "update")
        assert again["table"]["status"] == "round_over", again["table"]
        assert again["table"]["ready"] == [1] and again["table"]["reading"] == [0]
        assert again["table"]["next_round_in"] == held  # it stood still
        # the reader's page is hidden: the countdown runs on from where it stood, and deals
        index = len(b.frames)
        await a.send({"type": "reading", "on": False})
        dealt = await b.wait_for(
            lambda m: m["type"] == "update" and (m.get("table") or {}).get("status") == "playing", start=index
        )
        assert dealt["table"].get("reading", []) == [] and dealt["table"]["ready"] == []
        # outside a summary "reading" changes nothing and is no error
        index = len(a.frames)
        await a.send({"type": "reading", "on": True})
        await a.ping()
        assert not [m for m in a.frames[index:] if m["type"] == "error"]
        for c in (a, b):
            await c.close()

    asyncio.run(main())


def test_the_read_limit_ends_the_wait(server: ServerProc) -> None:
    async def main() -> None:
        a, b = await _round_over_with(server, 2 * REFILL + 1, 0.5)
        index = len(b.frames)
        got = await a.request({"type": "reading", "on": True}, answer=answered)
        assert got["type"] == "update", got
        await b.request({"type": "ready"}, answer=lambda m: m["type"] == "update")
        # Ann reads on and never says ready: after the host's limit the next round is dealt anyway
        await b.wait_for(
            lambda m: m["type"] == "update" and (m.get("table") or {}).get("status") == "playing", start=index
        )
        for c in (a, b):
            await c.close()

    asyncio.run(main())
