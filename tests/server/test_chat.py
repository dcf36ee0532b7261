"""Chat over real sockets: limited (length, blank, control characters, the rate), stored with
the table, echoed to everyone as plain text; a spectator does not chat. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from harness import (
    ServerProc,
    seat_people,
)


def test_chat_is_limited_stored_and_echoed_as_plain_text(server: ServerProc) -> None:
    from unotable.server.protocol import LIMITS
    from unotable.server.store import open_store

    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            bots=[None, None, "heuristic"],
            seats=3,
            options={"target_score": 5000},
            bot_pause=30,
        )
        a, b = match.humans[0], match.humans[1]
        spectator = match.spectator
        assert spectator is not None
        line = "<b>hi</b> & <script>alert('x')</script>   \\u0041  &amp;"

        def mine(seat: int) -> Callable[[dict[str, Any]], bool]:
            return lambda m: m["type"] == "error" or (m["type"] == "chat" and m["seat"] == seat)

        echo = await a.request({"type": "chat", "text": line}, answer=mine(0))
        assert echo["type"] == "chat", echo
        plain = " ".join(line.split())  # runs of spaces fold; nothing is escaped or rendered
        assert echo["text"] == plain and echo["seat"] == 0 and echo["name"] == "P0"
        for other in (b, spectator):
            got = await other.wait_for(lambda m: m["type"] == "chat" and m["seq"] == echo["seq"])
            assert got == echo
        # limits: the length (the longest line passes, one more character is refused) ...
        longest = await b.request({"type": "chat", "text": "y" * LIMITS.chat_length}, answer=mine(1))
        assert longest["type"] == "chat" and longest["text"] == "y" * LIMITS.chat_length
        refused = await b.request({"type": "chat", "text": "y" * (LIMITS.chat_length + 1)}, answer=mine(1))
        assert refused["type"] == "error" and refused["code"] == "malformed"
        blank = await b.request({"type": "chat", "text": "   "}, answer=mine(1))
        assert blank["type"] == "error" and blank["code"] == "invalid"
        control = await b.request({"type": "chat", "text": "bell\u0007 nul\u0000"}, answer=mine(1))
        assert control["type"] == "error" and control["code"] == "invalid"
        # ... the rate (a burst, then rate_limited) ...
        codes = []
        for i in range(LIMITS.chat_burst + 3):
            answer = await a.request({"type": "chat", "text": f"line {i}"}, answer=mine(0))
            codes.append(answer["type"] if answer["type"] == "chat" else answer["code"])
        assert "rate_limited" in codes and codes[0] == "chat"
        assert codes.count("chat") <= LIMITS.chat_burst + 1
        # ... and a spectator does not chat
        denied = await spectator.request(
            {"type": "chat", "text": "hello"}, answer=lambda m: m["type"] == "error"
        )
        assert denied["type"] == "error" and denied["code"] == "forbidden"
        # the table serves on: a refused chat changed nothing for the game
        await b.ping()
        assert b.view is not None and a.view is not None and b.view["seq"] == a.view["seq"]

        store = open_store(server.db)
        await store.open()
        try:
            stored = await store.load(match.table)
        finally:
            await store.close()
        assert stored is not None
        chats = [e for e in stored.entries if e["k"] == "chat"]
        assert chats[0]["text"] == plain and chats[0]["seat"] == 0
        assert [c["text"] for c in chats][:2] == [plain, "y" * LIMITS.chat_length]
        assert len(chats) == 2 + codes.count("chat")
        for c in [a, b, spectator]:
            await c.close()

    asyncio.run(main())
