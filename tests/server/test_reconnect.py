"""Reconnecting over real sockets: a lost connection resumes mid-turn and mid-prompt with
``last_seq`` (the missed events, in order), and a second tab on a seat takes it over (the first is
told to reconnect and closed with 4001). On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from harness import (
    TURN_PHASES,
    Client,
    ServerProc,
    ahttp,
    is_turn_of,
    over,
    play_person,
    seat_people,
    short,
)
from leak_scan import (
    check_streams,
    missed,
    record_from_log,
    replay_views,
)
from websockets.exceptions import ConnectionClosed

from unotable.server.protocol import ReconnectReason


def test_reconnect_mid_turn_mid_prompt_and_a_second_tab(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 5000})
        a, b = match.humans[0], match.humans[1]
        rng = random.Random(4)
        resumes: list[tuple[int, int, dict[str, Any]]] = []  # (seat, game seq it had seen, welcome)

        async def resume(old: Client, last_seq: int) -> Client:
            """Seat 0 (the host) back on a new connection, from ``last_seq``."""
            return await Client.open(
                server, match.table, match.streams[0], token=old.token, host_token=match.host_token,
                last_seq=last_seq,
            )

        # mid-turn: A's connection is lost while others play; A comes back on its own turn
        await play_person(a, rng, until=lambda c: c.view is not None and c.view["active"] != 0)
        seen_seq, seen_game = a.seq, a.view["seq"] if a.view else 0
        await a.drop()
        await b.ping()  # B's view is at least as new as A's last one (else it may still show A to act)
        await play_person(b, rng, until=is_turn_of(0))
        assert not over(b)
        a = await resume(a, seen_seq)
        assert a.welcome is not None and a.welcome["you"] == {"seat": 0, "host": True}
        view = a.welcome["view"]
        assert not a.welcome["table"]["seats"][0]["autopilot"], "away past the grace period"
        assert view["active"] == 0 and view["phase"] in TURN_PHASES and view["legal"], (
            short(a.welcome),
            a.welcome["events"][-4:],
            b.tail(),
        )
        assert a.welcome["events"], "A missed events while away"
        assert a.welcome["events"][0]["seq"] > seen_game
        resumes.append((0, seen_game, a.welcome))
        match.humans[0] = a

        # mid-prompt: A draws and its connection dies before the answer; it comes back to the
        # prompt (play the drawn card or keep it), with the draw among the missed events
        b_stop = asyncio.Event()
        b_plays = asyncio.create_task(play_person(b, random.Random(6), stop=b_stop))
        prompt = None
        for _attempt in range(30):
            await play_person(
                a,
                rng,
                until=lambda c: (
                    over(c)
                    or (
                        c.view is not None
                        and c.view["active"] == 0
                        and c.view["phase"] == "play"
                        and "draw" in c.view["legal"]
                    )
                ),
            )
            assert not over(a), "the match ended before a prompt came up"
            seen_seq, seen_game = a.seq, a.view["seq"] if a.view else 0
            await a.send({"type": "act", "action": "draw"})
            await a.drop()
            a = await resume(a, seen_seq)
            assert a.welcome is not None
            resumes.append((0, seen_game, a.welcome))
            match.humans[0] = a
            drew = [e for e in a.welcome["events"] if e["type"] == "drew_cards" and e["seat"] == 0]
            assert drew and drew[0]["cards"], a.welcome["events"]
            view = a.welcome["view"]
            if view["phase"] == "play_drawn" and view["active"] == 0:
                prompt = view
                break
        b_stop.set()
        await b_plays
        assert prompt is not None, "no prompt in 30 draws"
        assert prompt["drawn_card"] == drew[-1]["cards"][-1] and "pass" in prompt["legal"]

        # two tabs on B's seat: the first is told to reconnect and closed with 4001
        first = b
        second = await Client.open(server, match.table, match.streams[1], token=b.token, last_seq=b.seq)
        assert second.welcome is not None and second.welcome["you"]["seat"] == 1
        notice = await first.wait_for(lambda m: m["type"] == "reconnect")
        assert notice["seq"] >= 0 and notice["reason"] == ReconnectReason.TAKEN_OVER
        for _ in range(100):
            if first.closed_code is not None:
                break
            await asyncio.sleep(0.05)
        assert first.closed_code == 4001
        with pytest.raises(ConnectionClosed):
            await first.send({"type": "ping"})
        await second.ping()  # (the first tab's end has reached the table by now)
        _, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
        assert info["seats"][1]["connected"] is True, "the seat's second tab is connected"
        match.humans[1] = second
        resumes.append((1, b.view["seq"] if b.view else 0, second.welcome))

        # the second tab plays on (a dozen more commands), then every frame is checked against the
        # game as the server's log rebuilds it
        target = second.seq + 12
        await asyncio.gather(
            *(
                play_person(c, random.Random(c.seq), until=lambda c: over(c) or c.seq >= target)
                for c in (a, second)
            )
        )
        for c in (a, second, match.spectator):  # no frame after this: the log is read after
            assert c is not None
            await c.close()
        rep = replay_views(await record_from_log(server, match.table))
        streams = [*match.streams.values(), match.spectator_stream]
        check_streams(rep, [s for s in streams if s is not None], complete=False)
        for seat, after, welcome in resumes:
            got = welcome["events"]
            assert got == missed(rep, seat, after, welcome["view"]["seq"]), "missed events, in order"

    asyncio.run(main())
