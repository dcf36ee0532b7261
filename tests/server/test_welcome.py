"""A welcome carries what a reload would otherwise lose: the current round's events the seat may
see (its log) and the table's latest chat lines. Through real websockets against a real server
(tests/server/harness.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import Client, ServerProc, Stream, seat_people


def test_a_reload_gets_the_rounds_log_and_the_chat_without_another_seats_cards(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", bots=[None, None, "random"], seats=3, bot_pause=30)
        a, b = match.humans[0], match.humans[1]
        spectator = match.spectator
        assert spectator is not None
        said = await a.request({"type": "chat", "text": "hello  there"}, answer=lambda m: m["type"] == "chat")
        assert said["text"] == "hello there"
        await b.wait_for(lambda m: m["type"] == "chat")
        token, last = b.token, b.seq
        assert b.view is not None
        mine = sorted(b.view["hand"])
        await b.close()
        # the reload: the same seat, the last seq it saw (nothing missed), an empty log
        again = await Client.open(server, match.table, Stream(1), token=token, last_seq=last)
        welcome = again.welcome
        assert welcome is not None and welcome["you"]["seat"] == 1
        assert welcome["events"] == []  # nothing was missed ...
        history = welcome["history"]  # ... and the round's log is there all the same
        kinds = [e["type"] for e in history]
        assert kinds[0] == "round_started" and "hand_dealt" in kinds and "first_card" in kinds
        dealt = [e for e in history if e["type"] == "hand_dealt"]
        assert len(dealt) == 1 and sorted(dealt[0]["cards"]) == mine  # its own hand only
        assert [(c["seat"], c["name"], c["text"]) for c in welcome["chat"]] == [(0, "P0", "hello there")]
        # a spectator's welcome: the same log without any hand, and the chat
        watcher = await Client.open(server, match.table, Stream(None))
        assert watcher.welcome is not None
        assert all("cards" not in e or e["type"] in ("challenge_reveal",) for e in watcher.welcome["history"])
        assert not [e for e in watcher.welcome["history"] if e["type"] == "hand_dealt"]
        assert len(watcher.welcome["chat"]) == 1
        for c in (a, again, spectator, watcher):
            await c.close()

    asyncio.run(main())


def test_a_welcome_before_the_start_has_no_history_and_the_chat(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", bots=[None, None, "random"], seats=3, start=False)
        a = match.humans[0]
        await a.request({"type": "chat", "text": "ready?"}, answer=lambda m: m["type"] == "chat")
        late = await Client.open(server, match.table, Stream(None))
        assert late.welcome is not None
        assert late.welcome["history"] == [] and [c["text"] for c in late.welcome["chat"]] == ["ready?"]
        for c in (*match.humans.values(), match.spectator, late):
            assert c is not None
            await c.close()

    asyncio.run(main())
