"""Whole matches over real sockets: people and bots to the end, the record, the leak scan.

4-seat matches to their target under ``official``, ``house`` and ``no-mercy``, two seats played by
scripted clients (legal actions from their views, UNO calls, catches) and two by bots; the record
published at ``/t/{id}/record`` (409 before the match is over) replays to the same scores, and every
frame of every seat and of a spectator is checked against it (leak_scan.py): each view is the
engine's view of that seat at that point, the events are exactly the seat's, and nothing carries
the seed, the RNG state, a hand or the draw pile. The leak scan is shown to catch a tampered frame,
and a rematch, once the players accept it, deals a new game to the same seats. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from harness import (
    ServerProc,
    Stream,
    ahttp,
    options_for,
    play_person,
    seat_people,
)
from leak_scan import (
    check_streams,
    fetch_record_doc,
    finish_and_check,
    replay_views,
)

from unotable import Record


@pytest.mark.parametrize("preset", ["official", "house", "no-mercy"])
def test_a_whole_match_with_people_and_bots_replays_and_leaks_nothing(
    server: ServerProc, preset: str
) -> None:
    async def main() -> None:
        match = await seat_people(server, preset, options=options_for(preset))
        status, body = await ahttp("GET", f"{server.url}/t/{match.table}/record")
        assert status == 409 and body["code"] == "forbidden", (status, body)
        status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert status == 200 and info["status"] == "playing" and info["table"] == match.table
        rng = random.Random(preset)
        await asyncio.gather(
            *(play_person(c, random.Random(rng.random()), errors=match.errors) for c in match.humans.values())
        )
        rep = await finish_and_check(match, [])
        assert rep.game.round_no >= 1
        status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert info["status"] == "match_over"
        status, metrics = await ahttp("GET", f"{server.url}/metrics")
        assert status == 200 and isinstance(metrics, str)
        assert re.search(r"^unotable_tables \d", metrics, re.M)
        assert re.search(r'^unotable_actions_total\{kind="act"\} [1-9]', metrics, re.M)
        assert "unotable_action_latency_seconds_bucket" in metrics
        for c in [*match.humans.values(), match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())


def test_the_leak_scan_catches_a_leak(server: ServerProc) -> None:
    """The checker itself: a frame given another seat's card, the seed or an event of another
    seat fails it (so a pass above means something)."""

    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 30})
        await asyncio.gather(*(play_person(c, random.Random(s)) for s, c in match.humans.items()))
        doc = await asyncio.to_thread(fetch_record_doc, server, match.table)
        rep = replay_views(Record.from_dict(doc), doc["reveal"]["salt"])
        streams = [*match.streams.values(), match.spectator_stream]
        check_streams(rep, [s for s in streams if s is not None])
        frames = match.streams[0].connections[0]
        at = next(
            i for i, m in enumerate(frames) if m.get("view") and m["view"]["hand"] and m["view"]["seq"] > 10
        )
        view = frames[at]["view"]
        other = next(at_[1]["hand"] for at_ in rep.views[view["seq"]] if at_[1]["hand"])
        foreign = next(c for c in other if c not in view["hand"]) if set(other) - set(view["hand"]) else None
        tampered: list[tuple[str, dict[str, Any]]] = [
            (
                "another seat's event",
                {**frames[at], "events": [e for e in rep.events[1] if e["type"] == "hand_dealt"]},
            ),
            ("the seed", {**frames[at], "seed_note": rep.seed_text}),
            ("the salt", {**frames[at], "salt_note": rep.salt_text}),
            (
                "a reveal during the match",
                {**frames[at], "table": {"status": "playing", "deal": {"commitment": "sha256:0", "seed": 1}}},
            ),
            ("a hand outside the view", {**frames[at], "table": {"hands": [other]}}),
        ]
        if foreign is not None:
            tampered.append(
                ("another seat's card", {**frames[at], "view": {**view, "hand": [*view["hand"], foreign]}})
            )
        for what, frame in tampered:
            stream = Stream(0)
            stream.connections = [[*frames[:at], frame, *frames[at + 1 :]]]
            with pytest.raises(AssertionError):
                check_streams(rep, [stream])
                raise RuntimeError(f"the leak scan missed {what}")

        # a rematch keeps the seats: a new game, dealt from the start, its events numbered anew
        host, guest = match.humans[0], match.humans[1]
        await guest.ping()
        refused = await guest.request({"type": "rematch"}, flush=True)
        assert refused["type"] == "error" and refused["code"] == "forbidden"
        proposed = await host.request({"type": "rematch"}, flush=True)  # proposed: the guest accepts
        assert proposed["type"] == "update" and proposed["table"]["rematch"] == {"accepted": [0, 2, 3]}
        again = await guest.request({"type": "accept_rematch"}, flush=True)
        assert again["type"] == "update" and again["static"] is not None, again
        assert again["table"]["status"] == "playing"
        assert [s["name"] for s in again["table"]["seats"]] == ["P0", "P1", "Bot 2", "Bot 3"]
        assert again["view"]["round_no"] == 1 and again["view"]["scores"] == [0, 0, 0, 0]
        assert again["events"][0]["seq"] == 1 and again["events"][0]["type"] == "dealer_chosen"
        for c in [*match.humans.values(), match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())
