"""The waiting room over real sockets: sitting (one seat per connection, a taken or missing
seat, a name the store cannot keep), the host's commands (settings, bots, a kick) and the start,
where the empty seats are given to bots. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random

from harness import (
    Client,
    ServerProc,
    Stream,
    create_table,
    is_turn_of,
    over,
    play_person,
    seat_people,
)


def test_the_waiting_room_over_sockets(server: ServerProc) -> None:
    async def main() -> None:
        created = await create_table(server, preset="official", seats=4, options={"target_score": 5000})
        table, host_token = created["table"], created["host_token"]
        streams = {i: Stream(i) for i in range(4)}
        host = await Client.open(server, table, streams[0], host_token=host_token)
        guest = await Client.open(server, table, streams[1])
        late = await Client.open(server, table, streams[2])
        assert (await host.request({"type": "sit", "seat": 0, "name": "  Ann   Lee "}, flush=True))[
            "type"
        ] == "token"
        named = await host.wait_for(lambda m: m["type"] == "update" and m.get("table") is not None)
        assert named["table"]["seats"][0] == {
            "seat": 0,
            "kind": "human",
            "name": "Ann Lee",
            "level": None,
            "connected": True,
            "autopilot": False,
        }
        await guest.ping()  # the host's update has reached the guest: what comes next answers it
        twice = await host.request({"type": "sit", "seat": 3, "name": "Ann again"}, flush=True)
        assert twice["type"] == "error" and twice["code"] == "forbidden"  # one seat per connection
        taken = await guest.request({"type": "sit", "seat": 0, "name": "Bob"}, flush=True)
        assert taken["type"] == "error" and taken["code"] == "forbidden"
        nowhere = await guest.request({"type": "sit", "seat": 7, "name": "Bob"}, flush=True)
        assert nowhere["type"] == "error" and nowhere["code"] == "invalid"
        # a name the store cannot keep (U+0000) is refused, and the seat stays free
        odd = await guest.request({"type": "sit", "seat": 1, "name": "Bo\u0000b"}, flush=True)
        assert odd["type"] == "error" and odd["code"] in ("invalid", "malformed"), odd
        still_spectator = await guest.request({"type": "leave"}, flush=True)
        assert still_spectator["type"] == "error" and still_spectator["code"] == "forbidden"
        assert (await guest.request({"type": "sit", "seat": 1, "name": "Bob"}, flush=True))["type"] == "token"
        await late.ping()
        assert (await late.request({"type": "sit", "seat": 2, "name": "Cy"}, flush=True))["type"] == "token"
        await host.ping()
        await guest.ping()
        # host commands: settings (the update carries the new settings), bots, a kick
        changed = await host.request(
            {"type": "settings", "turn_seconds": 12, "bot_level": "random"}, flush=True
        )
        assert changed["type"] == "update" and changed.get("table"), changed
        assert changed["table"]["settings"]["turn_seconds"] == 12
        assert changed["table"]["settings"]["bot_level"] == "random"
        added = await host.request({"type": "add_bot", "seat": 3, "level": "heuristic"}, flush=True)
        assert (
            added["table"]["seats"][3]["kind"] == "bot" and added["table"]["seats"][3]["level"] == "heuristic"
        )
        await guest.ping()
        forbidden = await guest.request({"type": "remove_bot", "seat": 3}, flush=True)
        assert forbidden["type"] == "error" and forbidden["code"] == "forbidden"
        removed = await host.request({"type": "remove_bot", "seat": 3}, flush=True)
        assert removed["table"]["seats"][3]["kind"] == "empty"
        kicked = await host.request({"type": "kick", "seat": 2}, flush=True)
        assert kicked["type"] == "update" and kicked["table"]["seats"][2]["kind"] == "empty"
        await late.ping()
        # the kicked connection watches now: it holds no seat and cannot act for one
        gone = await late.request({"type": "leave"}, flush=True)
        assert gone["type"] == "error" and gone["code"] == "forbidden"
        # two seats filled: the host starts; the empty seats are played by bots, seats keep numbers
        started = await host.request({"type": "start"}, flush=True)
        assert started["type"] == "update" and started["view"]["seat"] == 0
        assert [s["kind"] for s in started["table"]["seats"]] == ["human", "human", "bot", "bot"]
        await guest.ping()
        assert guest.view is not None and guest.view["seat"] == 1 and guest.view["hand"]
        await late.ping()
        assert late.view is not None and "hand" not in late.view  # a spectator's view
        # the bots play on meanwhile: their updates may come first, so wait for the answer itself
        sit_late = await late.request(
            {"type": "sit", "seat": 2, "name": "Cy"}, answer=lambda m: m["type"] in ("error", "token")
        )
        assert sit_late["type"] == "error" and sit_late["code"] == "forbidden"
        for c in (host, guest, late):
            await c.close()

    asyncio.run(main())


def test_a_player_leaving_mid_prompt_is_replaced_and_the_round_ends(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server, "official", bots=[None, None, "random", "random"], options={"target_score": 5000}
        )
        leaver, stayer = match.humans[0], match.humans[1]
        rng = random.Random(8)

        left_in: list[int] = []  # the round the leaver left in

        def round_ended(c: Client) -> bool:
            v = c.view
            return (
                bool(left_in)
                and v is not None
                and (v["phase"] in ("round_over", "match_over") or v["round_no"] > left_in[0])
            )

        stays = asyncio.create_task(play_person(stayer, random.Random(9), until=round_ended, timeout=60))
        # the leaver draws on its turns until the drawn card is playable: a prompt (play it or keep
        # it); rounds may end meanwhile, the next is dealt
        prompt = None
        for _ in range(80):
            await play_person(leaver, rng, until=is_turn_of(0), timeout=30)
            view = leaver.view
            assert view is not None and not over(leaver)
            if view["phase"] in ("play_drawn", "choose_color", "respond"):
                prompt = view
                break
            answer = await leaver.request({"type": "act", "action": "draw"})
            assert answer["type"] in ("update", "error"), answer
        assert prompt is not None, "no prompt came up for the leaver in its turns"
        left_in.append(prompt["round_no"])
        left = await leaver.request({"type": "leave"}, answer=lambda m: m["type"] == "error" or "table" in m)
        assert left["type"] == "update", left
        assert left["table"]["seats"][0]["kind"] == "bot"
        # the leaver's connection watches now: it cannot act for the seat any more
        await leaver.wait_for(lambda m: m["type"] == "welcome" and m["you"]["seat"] is None)
        denied = await leaver.request(
            {"type": "act", "action": "pass"}, answer=lambda m: m["type"] == "error"
        )
        assert denied["code"] == "forbidden"
        # a bot answers the prompt for the seat, and the round plays on to its end
        await stays
        assert round_ended(stayer), "the round did not end after the player left"
        for c in [leaver, stayer, match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())
