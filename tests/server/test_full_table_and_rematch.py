"""A full table asks its host for a seat, and a rematch is proposed, accepted and dealt with the
settings the host chose after the match (issue 36, items 4 and 5). Through real websockets against
a real server (tests/server/harness.py), on SQLite and PostgreSQL; every wait is on a frame."""

from __future__ import annotations

import asyncio
import random
import secrets
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Client, ServerProc, Stream, over, play_person, seat_people

from unotable.server.protocol import LIMITS

REFILL = LIMITS.message_burst / LIMITS.messages_per_second


def is_update(m: dict[str, Any]) -> bool:
    return m["type"] == "update"


def answered(m: dict[str, Any]) -> bool:
    return m["type"] in ("update", "error")


def test_a_full_table_asks_the_host_for_a_seat(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server, "official", bots=[None, None], seats=2, spectator=False, start=False
        )
        host, guest = match.humans[0], match.humans[1]
        dara = await Client.open(server, match.table, Stream(None))
        assert dara.welcome is not None and dara.welcome["you"]["seat"] is None
        taken = await dara.request({"type": "sit", "seat": 0, "name": "Dara"})
        assert taken["type"] == "error" and taken["code"] == "forbidden"
        short = await dara.request({"type": "ask_seat", "name": "Dara", "key": "short"})
        assert short["type"] == "error" and short["code"] == "malformed"
        key = secrets.token_urlsafe(32)
        ask = {"type": "ask_seat", "name": " Dara ", "key": key}
        asked = await dara.request(ask, answer=answered, flush=True)
        assert asked["type"] == "update" and asked["table"]["asks"] == [{"ask": 1, "name": "Dara"}], asked
        await dara.send({"type": "ask_seat", "name": "Dara", "key": key})  # again: nothing new
        await dara.ping()
        assert dara.info is not None and len(dara.info["asks"]) == 1
        # the host alone answers, a request that is there
        no = await guest.request({"type": "answer_seat", "ask": 1, "accept": True}, flush=True)
        assert no["type"] == "error" and no["code"] == "forbidden"
        no = await host.request({"type": "answer_seat", "ask": 9, "accept": True}, flush=True)
        assert no["type"] == "error" and no["code"] == "invalid"
        # accepted: a seat more, Dara in it, her key its token
        added = await host.request({"type": "answer_seat", "ask": 1, "accept": True}, flush=True)
        assert added["type"] == "update", added
        table = added["table"]
        assert table["settings"]["seats"] == 3 and len(table["seats"]) == 3 and not table.get("asks")
        assert table["seats"][2]["kind"] == "human" and table["seats"][2]["name"] == "Dara"
        await dara.close()
        dara = await Client.open(server, match.table, Stream(2), token=key)
        assert dara.welcome is not None and dara.welcome["you"] == {"seat": 2, "host": False}
        # a free seat: sit there rather than ask; a declined request adds nothing
        left = await guest.request({"type": "leave"}, flush=True)
        assert left["type"] == "update"
        eve = await Client.open(server, match.table, Stream(None))
        free = await eve.request({"type": "ask_seat", "name": "Eve", "key": secrets.token_urlsafe(32)})
        assert free["type"] == "error" and free["code"] == "illegal"
        await host.request({"type": "add_bot", "seat": 1}, flush=True)
        asked = await eve.request({"type": "ask_seat", "name": "Eve", "key": secrets.token_urlsafe(32)},
                                  answer=answered, flush=True)
        assert asked["type"] == "update" and asked["table"]["asks"] == [{"ask": 2, "name": "Eve"}], asked
        declined = await host.request({"type": "answer_seat", "ask": 2, "accept": False}, flush=True)
        assert declined["type"] == "update" and len(declined["table"]["seats"]) == 3
        assert not declined["table"].get("asks")
        # the three play
        started = await host.request({"type": "start"}, flush=True)
        assert started["type"] == "update" and started["table"]["status"] == "playing"
        assert (await dara.wait_for(lambda m: is_update(m) and m["view"] is not None))["view"]["seat"] == 2
        for c in (host, guest, dara, eve):
            await c.close()

    asyncio.run(main())


async def _match_over(server: ServerProc, seed: int) -> tuple[Client, Client]:
    """Two people (the host in seat 0) and a bot play a one-point match to its end."""
    match = await seat_people(
        server, "official", bots=[None, None, "random"], seats=3, options={"target_score": 1},
        spectator=False,
    )
    host, guest = match.humans[0], match.humans[1]
    rng = random.Random(seed)
    await asyncio.gather(play_person(host, rng), play_person(guest, rng))
    await asyncio.sleep(REFILL)
    return host, guest


def test_a_rematch_is_proposed_accepted_and_dealt_with_new_settings(server: ServerProc) -> None:
    async def main() -> None:
        host, guest = await _match_over(server, 3)
        early = await guest.request({"type": "accept_rematch"}, flush=True)
        assert early["type"] == "error" and early["code"] == "illegal"  # nothing proposed yet
        # the host changes the settings for the rematch (the seats stay), then proposes it
        wider = await host.request({"type": "settings", "seats": 4}, flush=True)
        assert wider["type"] == "error" and wider["code"] == "illegal"
        longer = await host.request({"type": "settings", "options": {"target_score": 777}}, flush=True)
        assert longer["type"] == "update" and longer["table"]["status"] == "match_over", longer
        assert longer["table"]["settings"]["options"] == {"target_score": 777}
        proposed = await host.request({"type": "rematch"}, flush=True)
        assert proposed["type"] == "update" and proposed["table"]["status"] == "match_over", proposed
        assert proposed["table"]["rematch"] == {"accepted": [0, 2]}  # the host and the bot
        assert proposed["static"] is None and proposed["view"]["phase"] == "match_over"  # the summary stays
        # new terms: everyone is asked again (the bot accepts)
        again = await host.request({"type": "settings", "options": {"target_score": 250}}, flush=True)
        assert again["table"]["rematch"] == {"accepted": [2]}
        mine = await host.request({"type": "accept_rematch"}, flush=True)
        assert mine["type"] == "update" and mine["table"]["rematch"] == {"accepted": [0, 2]}
        await host.send({"type": "accept_rematch"})  # twice: nothing new
        index = len(host.frames)
        dealt = await guest.request({"type": "accept_rematch"}, flush=True)
        assert dealt["type"] == "update" and dealt["table"]["status"] == "playing", dealt
        assert dealt["static"]["ruleset"]["target_score"] == 250
        assert not dealt["table"].get("rematch")
        seen = await host.wait_for(lambda m: is_update(m) and m.get("static") is not None, start=index)
        assert seen["view"]["round_no"] == 1 and seen["view"]["scores"] == [0, 0, 0]
        assert not over(host)
        for c in (host, guest):
            await c.close()

    asyncio.run(main())


def test_a_rematch_waits_for_nobody_who_left(server: ServerProc) -> None:
    async def main() -> None:
        host, guest = await _match_over(server, 5)
        proposed = await host.request({"type": "rematch"}, flush=True)
        assert proposed["table"]["rematch"] == {"accepted": [0, 2]}
        index = len(host.frames)
        await guest.close()  # the one still to accept goes: the others do not wait for them
        await host.wait_for(
            lambda m: m["type"] == "update" and (m.get("table") or {}).get("status") == "playing", start=index
        )
        await host.close()

    asyncio.run(main())
