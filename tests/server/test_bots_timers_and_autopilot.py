"""What happens without a person's command: bots wait their pause; the presence frames and
the turn clock reach every client; a silent seat times out, then goes on autopilot; the host
leaving, everyone disconnecting, or a player leaving mid-prompt, and the round still ends.
On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

from harness import (
    HANG_S,
    STEP_S,
    TURN_PHASES,
    Client,
    ServerProc,
    Stream,
    ahttp,
    choose,
    is_turn_of,
    over,
    play_person,
    seat_people,
    short,
)
from leak_scan import (
    finish_and_check,
)

from unotable import Game
from unotable.server.table.autopilot import timeout_action


def seat_info(client: Client, seat: int) -> dict[str, Any]:
    assert client.info is not None
    return client.info["seats"][seat]


def test_bots_wait_their_pause(server: ServerProc) -> None:
    """Every bot action comes at least the pause after the table's last change.

    Measured so that no delay of this process can make it look shorter: from the moment seat 0
    sent a command the table then accepted (before the table had it) to the arrival of the k-th
    bot action after it, at least k pauses passed. (The gaps between arrivals, measured before,
    shrink when one frame is read late under load.)"""
    pause = 0.3

    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            humans=(0,),
            bots=[None, "random", "random"],
            seats=3,
            options={"target_score": 5000},
            bot_pause=pause,
            spectator=False,
        )
        a = match.humans[0]

        def actor(msg: dict[str, Any]) -> int | None:
            events = msg.get("events") or []
            return events[0].get("seat") if events else None

        sent_at: float | None = None  # when seat 0 sent the last command of its that was accepted
        chain = 0  # the bot actions seen since
        waits: list[tuple[int, float]] = []  # (k, seconds from that send to the k-th bot action)
        rng = random.Random(1)
        for _ in range(80):
            index = len(a.frames)
            view = a.view
            assert view is not None
            action = choose(view, rng) if view["active"] == 0 or view["legal"] else None
            if action is not None:
                sent = time.monotonic()
                answer = await a.request({"type": "act", "action": action})
                if answer["type"] == "update" and actor(answer) == 0:  # its own update: accepted
                    sent_at, chain = sent, 0
            else:
                msg = await a.wait_for(lambda m: m["type"] == "update", STEP_S, index)
                if sent_at is not None and actor(msg) in (1, 2):
                    chain += 1
                    waits.append((chain, time.monotonic() - sent_at))
            if len(waits) >= 6:
                break
        assert len(waits) >= 6, waits
        early = [(k, round(w, 3)) for k, w in waits if w < k * pause]
        assert not early, f"bot actions before their pause: {early} of {waits}"
        await a.close()

    asyncio.run(main())


def test_who_is_connected_and_the_turn_clock_reach_every_client(server: ServerProc) -> None:
    """A connection coming or going is told to the others at once (a presence frame, no command
    counted); every update carries the seconds left to the timed seat, counted from its turn's
    start, not reset by other frames."""

    async def main() -> None:
        match = await seat_people(
            server, "official", bots=[None, None, "random", "random"], spectator=False, start=False,
            turn_seconds=600, options={"target_score": 5000},
        )
        host, other = match.humans[0], match.humans[1]
        seq = (await host.ping())["seq"]  # (the table's answer comes after every earlier frame)

        told: list[dict[str, Any]] = []
        start = len(host.frames)

        async def presence(check: Callable[[dict[str, Any]], bool]) -> None:
            """The next presence frame the host gets satisfies ``check``."""
            at = host.frames.index(told[-1]) + 1 if told else start
            told.append(await host.wait_for(lambda m: m["type"] == "presence", STEP_S, at))
            assert check(told[-1]["table"]), told[-1]

        watcher = await Client.open(server, match.table, Stream(None))
        await presence(lambda t: t["spectators"] == 1)
        await watcher.close()
        await presence(lambda t: t["spectators"] == 0)
        token = other.token
        await other.drop()
        await presence(lambda t: t["seats"][1]["connected"] is False)
        again = await Client.open(server, match.table, Stream(1), token=token)
        await presence(lambda t: t["seats"][1]["connected"] is True)
        assert [m["seq"] for m in told] == [seq] * 4  # nothing was accepted: the seq is unchanged

        started = await host.request({"type": "start"}, flush=True)
        assert started["type"] == "update"
        rng = random.Random(5)
        for _ in range(60):  # until seat 0 has a turn: its clock starts near 600 s
            if is_turn_of(0)(host) or over(host):
                break
            target = host.seq  # seat 1's copy of the host's last update may still be on its way
            await again.wait_for(lambda m, t=target: isinstance(m.get("seq"), int) and m["seq"] >= t, STEP_S)
            view = again.view
            if view is not None and view["active"] == 1 and view["phase"] in TURN_PHASES:
                action = choose(view, rng)
                if action is not None:
                    await again.request({"type": "act", "action": action})
                    continue
            await host.wait_for(lambda m: m["type"] == "update", STEP_S, len(host.frames))
        assert is_turn_of(0)(host), host.tail()
        updates = [m for m in host.frames if m["type"] == "update"]
        assert all("turn_deadline" in m for m in updates)
        first = updates[-1]["turn_deadline"]
        # (the longest turn there is, so that the bound only allows for a server that hangs)
        assert isinstance(first, float) and 600 - HANG_S < first <= 600, first
        await asyncio.sleep(1.2)
        # a welcome (seat 1 comes back once more) says what is left of the same turn
        late = await Client.open(server, match.table, Stream(1), token=token)
        assert late.welcome is not None
        left = late.welcome["table"]["turn_deadline"]
        assert isinstance(left, float) and left <= first - 1.0, (first, left)
        for c in (host, again, late):
            await c.close()

    asyncio.run(main())


def test_a_silent_seat_times_out_then_autopilot_and_the_round_ends(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            bots=[None, None, "random", "heuristic"],
            options={"target_score": 60},
            start=False,
        )
        host, silent = match.humans[0], match.humans[1]
        changed = await host.request({"type": "settings", "turn_seconds": 0.3}, flush=True)
        assert changed["type"] == "update" and changed["table"]["settings"]["turn_seconds"] == 0.3
        began = time.monotonic()  # before the deal: both turns of seat 1 begin after it
        start = await host.request({"type": "start"}, flush=True)
        assert start["type"] == "update" and start["view"]["phase"] in TURN_PHASES

        def autopilot(on: bool) -> Callable[[dict[str, Any]], bool]:
            return lambda m: bool(m.get("table")) and m["table"]["seats"][1]["autopilot"] is on

        host_plays = asyncio.create_task(play_person(host, random.Random(2), timeout=60))
        # the silent seat: two turns run out (the server plays the autopilot's moves), then a bot
        # of the host's level plays it; the seat is still connected
        on = await silent.wait_for(autopilot(True), HANG_S)
        assert time.monotonic() - began >= 0.5  # two turns of 0.3 s, both after ``began``
        assert on["table"]["seats"][1]["connected"] is True
        # every client was told whose time ran out, with the autopilot move's events
        await host.wait_for(autopilot(True), STEP_S, 0)
        for c in (host, silent):
            late = [m for m in c.frames if m.get("timed_out") is not None]
            assert [m["timed_out"] for m in late] == [1, 1], [short(m) for m in late]
            assert all(m["events"] for m in late)
        # the player comes back by acting: the seat is its own again, and it plays to the end
        await play_person(
            silent,
            random.Random(3),
            until=lambda c: over(c) or (c.info is not None and c.info["seats"][1]["autopilot"] is False),
            timeout=30,
        )
        if not over(silent):
            assert silent.info is not None and silent.info["seats"][1]["autopilot"] is False
            await play_person(silent, random.Random(4), timeout=60)
        await host_plays
        rep = await finish_and_check(match, [])
        # seat 1's first two actions were the autopilot's moves for it, made by the timer
        game = Game.new(rep.game.seats, rep.game.ruleset, rep.game.seed)
        defaults = []
        for seat, action in rep.game.actions:
            if seat == 1 and len(defaults) < 2:
                defaults.append((action, timeout_action(game, 1)))
            game.play(action, seat)
        assert len(defaults) == 2 and all(a == d for a, d in defaults), defaults
        for c in [host, silent, match.spectator]:
            assert c is not None
            await c.close()

    asyncio.run(main())


def test_the_host_leaving_and_everyone_disconnecting_the_round_still_ends(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            bots=[None, None, "random", "random"],
            options={"target_score": 5000},
            spectator=False,
        )
        host, guest = match.humans[0], match.humans[1]
        await asyncio.gather(
            *(
                play_person(
                    c, random.Random(3), until=lambda c: (c.view or {}).get("seq", 0) > 12, timeout=20
                )
                for c in (host, guest)
            )
        )
        left = await host.request({"type": "leave"})
        assert left["type"] == "update", left
        assert left["table"]["seats"][0]["kind"] == "bot"  # a bot takes the host's seat over
        await host.close()
        round_no = guest.view["round_no"] if guest.view else 1
        await guest.close()
        # nobody is connected; the guest's seat goes on autopilot after the grace period and the
        # bots play the round to its end
        deadline = time.monotonic() + HANG_S
        while True:
            status, info = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
            assert status == 200
            if info["status"] in ("round_over", "match_over"):
                break
            assert time.monotonic() < deadline, info
            await asyncio.sleep(0.1)
        assert info["seats"][1]["autopilot"] is True and info["seats"][1]["connected"] is False
        # the guest comes back with its token: the round is over, its seat is still its own
        back = await Client.open(server, match.table, match.streams[1], token=guest.token)
        assert back.welcome is not None and back.welcome["you"]["seat"] == 1
        view = back.welcome["view"]
        assert view["round_no"] == round_no or view["phase"] in ("round_over", "match_over")
        # with someone here again, the next round is dealt after the pause
        dealt = await back.wait_for(lambda m: (m.get("view") or {}).get("round_no", 0) > round_no)
        assert dealt["view"]["phase"] in TURN_PHASES
        await back.close()

    asyncio.run(main())
