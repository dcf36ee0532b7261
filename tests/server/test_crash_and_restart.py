"""The server process dying or stopping under live tables, and its database failing.

``kill -9`` in the middle of three tables, a restart on the same database: every client is back
with its token, nothing acknowledged is lost, the matches are played to the end. A graceful SIGTERM
tells every client to reconnect (close code 4002) and keeps the table. PostgreSQL dropping every
connection of the server while bots play: a coded error, then the table goes on. On SQLite and
PostgreSQL (the last on PostgreSQL only).
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from typing import Any

import pytest
from harness import (
    HANG_S,
    STEP_S,
    Client,
    ServerProc,
    ahttp,
    options_for,
    over,
    play_person,
    seat_people,
)
from leak_scan import (
    finish_and_check,
    missed,
)

from unotable.server.protocol import CloseCode, ReconnectReason


def test_kill_9_in_the_middle_of_three_tables_loses_nothing_acknowledged(own_server: ServerProc) -> None:
    server = own_server

    async def main() -> None:
        matches = [
            await seat_people(server, preset, options=options_for(preset))
            for preset in ("official", "no-mercy", "official")  # (house rounds run long)
        ]
        rng = random.Random(9)
        players = {(i, seat): c for i, m in enumerate(matches) for seat, c in m.humans.items()}
        tasks = [
            asyncio.create_task(play_person(c, random.Random(rng.random()), timeout=120))
            for c in players.values()
        ]
        # let every table get going, then kill the server with actions in flight
        deadline = time.monotonic() + HANG_S
        while any(c.seq < 14 for c in players.values()):  # (no round ends that soon)
            assert time.monotonic() < deadline, "the tables did not get going"
            await asyncio.sleep(0.02)
        assert not any(over(c) for c in players.values()), "the kill comes in the middle of play"
        server.kill9()
        await asyncio.gather(*tasks, return_exceptions=True)  # they fail on the closed sockets
        spectators = [m.spectator for m in matches]
        for c in [*players.values(), *spectators]:
            assert c is not None
            await c.close()
            assert c.closed_code is not None
        acknowledged = {key: (c.seq, c.view["seq"] if c.view else 0) for key, c in players.items()}

        server.start()  # the same database; a new port
        assert server.starts == 2
        status, health = await ahttp("GET", f"{server.url}/healthz")
        assert status == 200 and health["tables"] >= 3
        resumed: dict[tuple[int, int], Client] = {}
        for (i, seat), old in players.items():
            m = matches[i]
            host = m.host_token if seat == 0 else None
            c = await Client.open(
                server, m.table, m.streams[seat], token=old.token, host_token=host, last_seq=old.seq
            )
            assert c.welcome is not None and c.welcome["you"] == {"seat": seat, "host": seat == 0}
            seq, game_seq = acknowledged[(i, seat)]
            assert c.welcome["seq"] >= seq, "the table went back in time"
            assert c.welcome["view"]["seq"] >= game_seq
            resumed[(i, seat)] = c
            m.humans[seat] = c
        for m, old_spectator in zip(matches, spectators, strict=True):
            assert m.spectator_stream is not None and old_spectator is not None
            m.spectator = await Client.open(server, m.table, m.spectator_stream, last_seq=old_spectator.seq)
        await asyncio.gather(
            *(play_person(c, random.Random(rng.random()), timeout=120) for c in resumed.values())
        )
        for (i, seat), c in resumed.items():
            assert over(c), (i, seat)
        for i, m in enumerate(matches):
            rep = await finish_and_check(m, [])
            # what each seat saw before the crash is in the record: its views at those points are
            # the replay's (check_streams), and the resumed welcome carried exactly what it missed
            for seat in m.humans:
                _, game_seq = acknowledged[(i, seat)]
                welcome = resumed[(i, seat)].welcome
                assert welcome is not None
                assert welcome["events"] == missed(rep, seat, game_seq, welcome["view"]["seq"])
        for c in [*resumed.values(), *(m.spectator for m in matches)]:
            assert c is not None
            await c.close()

    asyncio.run(main())


def test_sigterm_tells_every_client_to_reconnect_and_keeps_the_table(own_server: ServerProc) -> None:
    server = own_server

    async def main() -> None:
        match = await seat_people(server, "official", options={"target_score": 60})
        people = list(match.humans.values())
        halt = asyncio.Event()
        tasks = [
            asyncio.create_task(play_person(c, random.Random(s), timeout=60, stop=halt))
            for s, c in match.humans.items()
        ]
        deadline = time.monotonic() + HANG_S
        while any(c.seq < 12 and not over(c) for c in people):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        halt.set()
        await asyncio.gather(*tasks)
        assert not any(over(c) for c in people), "the shutdown comes in the middle of the match"
        server.stop()  # SIGTERM: a graceful shutdown
        # uvicorn shuts down gracefully, then lets the signal end the process as it would have
        assert server.proc is not None and server.proc.returncode in (0, -signal.SIGTERM), server.log()
        everyone = [*people, match.spectator]
        for c in everyone:
            assert c is not None
            notice = await c.wait_for(lambda m: m["type"] == "reconnect")
            assert notice["reason"] == ReconnectReason.RESTART and notice["message"]
            await c.close()
            assert c.closed_code == CloseCode.RESTART, c.closed_code
        server.start()
        for seat, old in list(match.humans.items()):
            c = await Client.open(
                server,
                match.table,
                match.streams[seat],
                token=old.token,
                host_token=match.host_token if seat == 0 else None,
                last_seq=old.seq,
            )
            assert c.welcome is not None and c.welcome["seq"] >= old.seq
            match.humans[seat] = c
        assert match.spectator_stream is not None and match.spectator is not None
        match.spectator = await Client.open(
            server, match.table, match.spectator_stream, last_seq=match.spectator.seq
        )
        await asyncio.gather(*(play_person(c, random.Random(7)) for c in match.humans.values()))
        await finish_and_check(match, [])
        for c in [*match.humans.values(), match.spectator]:
            await c.close()

    asyncio.run(main())


def test_a_table_outlives_its_database_connections_dropping(
    server: ServerProc, request: pytest.FixtureRequest
) -> None:
    """PostgreSQL drops every connection of the server (a failover, an admin) while bots play:
    the commands in flight fail with a coded error, and the table goes on once the pool reconnects."""
    if not server.db.startswith("postgresql"):
        pytest.skip("dropping the connections is PostgreSQL's (SQLite has none)")
    admin = str(request.getfixturevalue("postgres_admin_url"))
    database = server.db.rpartition("/")[2]

    async def drop_connections() -> int:
        import asyncpg

        conn = await asyncpg.connect(admin, timeout=10)
        try:
            rows = await conn.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                database,
            )
        finally:
            await conn.close()
        return len(rows)

    async def main() -> None:
        match = await seat_people(
            server,
            "official",
            humans=(0,),
            bots=[None, "random", "random", "random"],
            options={"target_score": 5000},
            spectator=False,
        )
        a = match.humans[0]
        halt = asyncio.Event()
        errors: list[dict[str, Any]] = []
        plays = asyncio.create_task(
            play_person(a, random.Random(1), stop=halt, errors=errors, tolerate=("invalid",), timeout=60)
        )
        for _ in range(3):
            seen = a.seq
            await a.wait_for(lambda m, seen=seen: m["type"] == "update" and m["seq"] > seen + 5, STEP_S)
            assert await drop_connections() >= 1
        # the table goes on: bots (on the timer) and the person keep being served
        mark = a.seq
        deadline = time.monotonic() + HANG_S
        while a.seq < mark + 30 and not over(a):
            assert time.monotonic() < deadline, f"the table stopped at {a.seq}; {a.tail()}"
            await asyncio.sleep(0.05)
        halt.set()
        await plays
        assert all(e["code"] != "invalid" or "could not" in e["message"] for e in errors)
        await a.close()

    asyncio.run(main())
