"""Renaming in the waiting room and quick reactions, through real websockets against a real server
(tests/server/harness.py), on SQLite and PostgreSQL. A refusal has its code and changes
nothing."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Client, ServerProc, Stream, seat_people

from unotable.server.protocol import LIMITS, REACTIONS


def answer_to(kind: str, seat: Any = "any") -> Any:
    """The answer to one's own request: an error, or the frame of ``kind`` (from ``seat``)."""
    return lambda m: m["type"] == "error" or (m["type"] == kind and (seat == "any" or m.get("seat") == seat))


def test_a_player_renames_in_the_waiting_room_only(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", bots=[None, None, "random"], seats=3, start=False)
        a, b = match.humans[0], match.humans[1]
        spectator = match.spectator
        assert spectator is not None
        got = await b.request({"type": "rename", "name": "  Bo   Bo "}, answer=answer_to("update"))
        assert got["type"] == "update", got
        assert got["table"]["seats"][1]["name"] == "Bo Bo"  # spaces folded, as a sat name's
        for other in (a, spectator):
            await other.wait_for(lambda m: bool(m.get("table")) and m["table"]["seats"][1]["name"] == "Bo Bo")
        # refused, each with its code, and nothing changes
        blank = await b.request({"type": "rename", "name": "   "}, answer=answer_to("update"))
        assert blank["type"] == "error" and blank["code"] == "invalid"
        too_long = await b.request(
            {"type": "rename", "name": "x" * (LIMITS.name_length + 1)}, answer=answer_to("update")
        )
        assert too_long["type"] == "error" and too_long["code"] == "malformed"
        watching = await spectator.request({"type": "rename", "name": "Me"}, answer=answer_to("update"))
        assert watching["type"] == "error" and watching["code"] == "forbidden"
        started = await a.request({"type": "start"}, answer=answer_to("update"))
        assert started["type"] == "update" and started["static"]["names"][1] == "Bo Bo"
        late = await b.request({"type": "rename", "name": "Later"}, answer=lambda m: m["type"] == "error")
        assert late["code"] == "forbidden"
        await b.ping()
        assert b.info is not None and b.info["seats"][1]["name"] == "Bo Bo"
        for c in (a, b, spectator):
            await c.close()

    asyncio.run(main())


def test_reactions_reach_everyone_and_are_rate_limited(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", bots=[None, None, "random"], seats=3, bot_pause=30)
        a, b = match.humans[0], match.humans[1]
        spectator = match.spectator
        assert spectator is not None
        sent = await b.request({"type": "react", "reaction": "gg"}, answer=answer_to("reaction", 1))
        assert sent == {**sent, "type": "reaction", "seat": 1, "name": "P1", "reaction": "gg"}
        for other in (a, spectator):
            got = await other.wait_for(lambda m: m["type"] == "reaction" and m["seq"] == sent["seq"])
            assert got == sent
        # a spectator reacts too, under no seat
        wow = {"type": "react", "reaction": "wow"}
        seen = await spectator.request(wow, answer=answer_to("reaction", None))
        assert seen["type"] == "reaction" and seen["seat"] is None and seen["name"] == "spectator"
        # only the fixed set
        odd = await a.request({"type": "react", "reaction": "<b>lol</b>"}, answer=answer_to("reaction", 0))
        assert odd["type"] == "error" and odd["code"] == "malformed"
        # a burst, then rate_limited; the game is untouched
        before = a.view["seq"] if a.view else None
        codes = []
        for i in range(LIMITS.reaction_burst + 3):
            got = await a.request({"type": "react", "reaction": REACTIONS[i % len(REACTIONS)]},
                                  answer=answer_to("reaction", 0))
            codes.append(got["type"] if got["type"] == "reaction" else got["code"])
        assert codes[0] == "reaction" and "rate_limited" in codes
        assert codes.count("reaction") <= LIMITS.reaction_burst + 1
        await a.ping()
        assert a.view is not None and a.view["seq"] == before
        # a reaction is not kept for a welcome
        again = await Client.open(server, match.table, Stream(None))
        assert again.welcome is not None and "reaction" not in str(again.welcome.get("chat"))
        for c in (a, b, spectator, again):
            await c.close()

    asyncio.run(main())
