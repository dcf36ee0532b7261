"""The cluster for real (issue 11): three node processes, the local Redis and a fresh PostgreSQL.

Each node is ``python -m unotable.server.run --redis redis://127.0.0.1:6379/0 --db postgresql://...``
on its own loopback port; the clients are the ``websockets`` library's, the helpers (scripted people,
the frame-by-frame check against the replayed record, the leak scan) are test_app.py's. Redis is
started when it is not running (``redis-server``, as CI does); each test uses its own Redis
database number's keys... of its own tables (the keys carry the table id), and a fresh PostgreSQL
database. What is checked:

- the fenced store: an append with a fence that is not the table's current one, or out of seq, is
  refused by PostgreSQL itself (the trigger), and a claim cannot lower a fence;
- one 4-seat table whose seats are on three different nodes plays a whole match; every frame of
  every seat and of a spectator is checked against the record (views, events, no secret);
- ``kill -9`` of the owner mid-round: another node owns the table within the bound, every
  acknowledged action is in the record, the match finishes;
- ``SIGSTOP`` of the owner past its lease, another node takes over, ``SIGCONT``: the old owner's
  late write is refused (FencedError, logged) and no client saw a forked game (each client's
  seq -> events is the record's);
- Redis restarted mid-game (``redis-cli shutdown nosave``, then started again): the nodes recover
  and nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
redis_asyncio = pytest.importorskip("redis.asyncio")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_app import (  # noqa: E402
    Client,
    Match,
    Stream,
    _read_line,
    fetch_record,
    finish_and_check,
    http,
    over,
    play_person,
    wait_healthy,
)

from unotable.server.store import ConflictError, FencedError, open_store  # noqa: E402

REDIS_URL = os.environ.get("UNOTABLE_TEST_REDIS", "redis://127.0.0.1:6379/0")
BOT_PAUSE = 0.01
ROUND_PAUSE = 0.05
GRACE = 20.0  # longer than any failover here: a seat is not put on autopilot while its owner moves
LEASE_TTL = 3.0
FAILOVER_BOUND_S = LEASE_TTL + LEASE_TTL / 3 + 2.0  # the lease runs out, a renewal tick, the claim
NODE_START_S = 20.0
REDIS_START = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
    "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
]  # fmt: skip


def _redis_ping() -> bool:
    try:
        done = subprocess.run(["redis-cli", "-p", "6379", "ping"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.stdout.strip() == "PONG"


def start_redis() -> None:
    """Start the local Redis (as CI does) unless it answers; wait until it does."""
    if _redis_ping():
        return
    if shutil.which("redis-server") is None:
        pytest.fail("Redis is not running and redis-server is not installed", pytrace=False)
    subprocess.run(REDIS_START, capture_output=True, timeout=20)
    deadline = time.monotonic() + 20
    while not _redis_ping():
        if time.monotonic() > deadline:
            pytest.fail("Redis did not start", pytrace=False)
        time.sleep(0.1)


@pytest.fixture(scope="session")
def redis_url() -> str:
    start_redis()
    return REDIS_URL


# -------------------------------------------------------------------------------------------------
# node processes


@dataclass
class Node:
    """One cluster node: ``python -m unotable.server.run --redis ...`` (the interface test_app's
    clients and helpers use: ``url``, ``ws_base``)."""

    name: str
    db: str
    redis: str
    workdir: Path
    proc: subprocess.Popen[str] | None = None
    url: str = ""
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.workdir / f"{self.name}.log"

    @property
    def ws_base(self) -> str:
        return self.url.replace("http", "ws", 1)

    def start(self) -> None:
        command = [
            sys.executable, "-m", "unotable.server.run", "--host", "127.0.0.1", "--port", "0",
            "--db", self.db, "--redis", self.redis, "--node-id", self.name,
            "--lease-ttl", str(LEASE_TTL), "--bot-pause", str(BOT_PAUSE),
            "--round-pause", str(ROUND_PAUSE), "--grace", str(GRACE),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log_path.open("a") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.workdir, stdout=subprocess.PIPE, stderr=log, text=True, env=env
            )
        line = _read_line(self.proc, NODE_START_S)
        found = re.search(r"serving at (http://127\.0\.0\.1:(\d+))", line)
        assert found, f"{self.name}: no address in {line!r}; log: {self.log()}"
        self.url = found.group(1)
        wait_healthy(self.url, self.proc, self.log)

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill9(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text()[-4000:] if self.log_path.exists() else ""

    def events(self, name: str) -> list[dict[str, Any]]:
        found = []
        for line in self.log_path.read_text().splitlines() if self.log_path.exists() else []:
            with contextlib.suppress(ValueError):
                doc = json.loads(line)
                if doc.get("event") == name:
                    found.append(doc)
        return found


@pytest.fixture
def cluster(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[list[Node]]:
    """Three nodes on one fresh PostgreSQL database and the local Redis."""
    nodes = [Node(f"n{i}-{secrets.token_hex(3)}", postgres_url, redis_url, tmp_path) for i in range(3)]
    try:
        for node in nodes:
            node.start()
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def owner_of(nodes: list[Node], table: str) -> Node | None:
    """The node holding the table's lease (read in Redis)."""
    done = subprocess.run(
        ["redis-cli", "-p", "6379", "get", f"ut:{{{table}}}:lease"], capture_output=True, text=True, timeout=5
    )
    name = done.stdout.strip()
    return next((n for n in nodes if n.name == name), None)


async def wait_owner(nodes: list[Node], table: str, *, not_: Node | None = None, bound: float = 10.0) -> Node:
    deadline = time.monotonic() + bound
    while True:
        node = await asyncio.to_thread(owner_of, nodes, table)
        if node is not None and node is not not_:
            return node
        assert time.monotonic() < deadline, f"no new owner of {table} within {bound}s"
        await asyncio.sleep(0.1)


# -------------------------------------------------------------------------------------------------
# a table spread over the nodes


async def spread_table(
    nodes: list[Node], placement: dict[int, Node], *, target: int = 100, spectator_on: Node | None = None,
    bots: list[str | None] | None = None, bot_pause: float = BOT_PAUSE,
) -> Match:
    """Create a 4-seat table on the first node; each person sits through the node ``placement``
    gives its seat (seat 0 holds the host token), a spectator watches from ``spectator_on``; start."""
    body: dict[str, Any] = {
        "preset": "official", "seats": 4, "options": {"target_score": target},
        "bot_pause": bot_pause, "round_pause": ROUND_PAUSE, "bots": bots or [None] * 4,
    }  # fmt: skip
    status, created = await asyncio.to_thread(http, "POST", f"{nodes[0].url}/api/tables", body)
    assert status == 201, created
    table, host = created["table"], created["host_token"]
    clients: dict[int, Client] = {}
    streams: dict[int | None, Stream] = {}
    for seat, node in sorted(placement.items()):
        stream = streams[seat] = Stream(seat)
        client = await Client.open(node, table, stream, host_token=host if seat == 0 else None)  # type: ignore[arg-type]
        answer = await client.request({"type": "sit", "seat": seat, "name": f"P{seat}"}, flush=True)
        assert answer["type"] == "token" and answer["seat"] == seat, answer
        await client.wait_for(lambda m: m["type"] == "update")
        clients[seat] = client
    match = Match(nodes[0], table, host, clients, streams)  # type: ignore[arg-type]
    if spectator_on is not None:
        match.spectator_stream = Stream(None)
        match.spectator = await Client.open(spectator_on, table, match.spectator_stream)  # type: ignore[arg-type]
    answer = await clients[0].request({"type": "start"}, flush=True)
    assert answer["type"] == "update" and answer["view"] is not None, answer
    return match


async def close_all(match: Match) -> None:
    for c in [*match.humans.values(), match.spectator]:
        if c is not None:
            with contextlib.suppress(Exception):
                await c.close()


# -------------------------------------------------------------------------------------------------
# the fenced store


def test_postgres_refuses_a_stale_fence_and_a_skipped_seq(postgres_url: str) -> None:
    async def main() -> None:
        store = open_store(postgres_url)
        await store.open()
        try:
            await store.create_table("t" * 16, {"x": 1}, 1.0)
            await store.append("t" * 16, 1, {"k": "chat"})  # never clustered: unfenced appends as before
            await store.claim("t" * 16, 3)
            with pytest.raises(FencedError):  # a single-node writer on a clustered table
                await store.append("t" * 16, 2, {"k": "chat"})
            await store.append_fenced("t" * 16, 2, {"k": "chat"}, 3, "5-0")
            with pytest.raises(ConflictError):  # not the next seq (a gap)
                await store.append_fenced("t" * 16, 4, {"k": "chat"}, 3)
            with pytest.raises(ConflictError):  # an entry already there
                await store.append_fenced("t" * 16, 2, {"k": "chat"}, 3)
            with pytest.raises(FencedError) as refused:  # a claim never lowers the fence
                await store.claim("t" * 16, 2)
            assert refused.value.current == 3
            await store.claim("t" * 16, 4)  # a new owner
            with pytest.raises(FencedError):  # the old owner, late
                await store.append_fenced("t" * 16, 3, {"k": "chat"}, 3)
            await store.append_fenced("t" * 16, 3, {"k": "chat"}, 4, "9-0")
            assert await store.fence_of("t" * 16) == 4
            assert await store.last_source("t" * 16) == "9-0"
            stored = await store.load("t" * 16)
            assert stored is not None and len(stored.entries) == 3
        finally:
            await store.close()

    asyncio.run(main())


def test_the_sqlite_store_refuses_cluster_writes(tmp_path: Path) -> None:
    async def main() -> None:
        store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
        await store.open()
        try:
            with pytest.raises(Exception, match="PostgreSQL"):
                await store.claim("t" * 16, 1)
        finally:
            await store.close()

    asyncio.run(main())


# -------------------------------------------------------------------------------------------------
# a whole match over three nodes


def test_a_table_spread_over_three_nodes_plays_a_whole_match(cluster: list[Node]) -> None:
    a, b, c = cluster

    async def main() -> None:
        match = await spread_table(cluster, {0: a, 1: b, 2: c, 3: c}, spectator_on=b)
        # chat from one node reaches every other node's seats
        said = await match.humans[0].request({"type": "chat", "text": "hello from a"}, flush=True)
        assert said["type"] == "chat" and said["text"] == "hello from a", said
        heard = await match.humans[3].wait_for(lambda m: m["type"] == "chat")
        assert heard["seat"] == 0 and heard["name"] == "P0"
        # a second tab of seat 3 (on c) opened on a: the first is told, and closed with 4001
        first = match.humans[3]
        second = await Client.open(a, match.table, match.streams[3], token=first.token, last_seq=first.seq)  # type: ignore[arg-type]
        assert second.welcome is not None and second.welcome["you"]["seat"] == 3
        await first.wait_for(lambda m: m["type"] == "reconnect")
        await first.reader  # type: ignore[misc]
        assert first.closed_code == 4001, first.closed_code
        match.humans[3] = second
        rng = random.Random(11)
        await asyncio.gather(
            *(play_person(p, random.Random(rng.random()), timeout=120) for p in match.humans.values())
        )
        rep = await finish_and_check(match, [])  # every frame of every seat and the spectator
        assert rep.game.is_over()
        records = [await asyncio.to_thread(fetch_record, node, match.table) for node in cluster]  # type: ignore[arg-type]
        assert all(r.to_dict() == records[0].to_dict() for r in records)  # every node publishes it
        assert len(records[0].actions) > 20
        await close_all(match)

    asyncio.run(main())
    for node in cluster:
        assert node.proc is not None and node.proc.poll() is None, node.log()


# -------------------------------------------------------------------------------------------------
# failover


async def play_robust(client: Client, rng: random.Random, *, timeout: float = 120.0) -> None:
    """test_app's scripted person, patient with a cluster that moves: an action that gets no
    answer (lost with Redis, or sent while no node owned the table) is decided again from the
    newest view; 'cannot be reached just now' is tried again."""
    from test_app import choose

    deadline = time.monotonic() + timeout
    while not over(client):
        assert time.monotonic() < deadline, f"seat {client.seat}: not over after {timeout}s; {client.tail()}"
        index = len(client.frames)
        view = client.view
        action = None if view is None else choose(view, rng)
        if action is None:
            with contextlib.suppress(AssertionError):
                await client.wait_for(lambda m: m["type"] in ("update", "reconnect"), 3.0, index)
            continue
        try:
            answer = await client.request({"type": "act", "action": action}, timeout=3.0)
        except AssertionError:
            if client.closed_code is not None:
                raise
            continue  # no answer: the next decision is made on the newest view
        if answer["type"] == "error":
            assert answer["code"] in ("illegal", "not_your_turn", "rate_limited", "invalid"), answer
            if answer["code"] == "invalid":
                assert "cannot be reached" in answer["message"], answer
            await asyncio.sleep(0.25 if answer["code"] in ("rate_limited", "invalid") else 0)


def test_kill_9_of_the_owner_another_node_takes_over_and_nothing_acknowledged_is_lost(
    cluster: list[Node],
) -> None:
    a, b, c = cluster

    async def main() -> None:
        match = await spread_table(cluster, {0: a, 1: b, 2: c, 3: b}, spectator_on=c)
        assert await wait_owner(cluster, match.table) is a  # the node that created it
        rng = random.Random(21)
        tasks = {
            seat: asyncio.create_task(play_person(p, random.Random(rng.random()), timeout=120))
            for seat, p in match.humans.items()
        }
        deadline = time.monotonic() + 30
        while any(p.seq < 25 for p in match.humans.values()):
            assert time.monotonic() < deadline, "the table did not get going"
            finished = [t.exception() for t in tasks.values() if t.done()]
            assert not finished, finished
            await asyncio.sleep(0.02)
        assert not any(over(p) for p in match.humans.values()), "the kill comes mid-match"
        killed_at = time.monotonic()
        a.kill9()
        with contextlib.suppress(Exception):  # seat 0's socket was on the killed node: its task ends
            await tasks.pop(0)  # with whatever the dead socket raised (an assertion, a closed connection)
        old = match.humans[0]
        await old.close()
        acknowledged = {seat: p.seq for seat, p in match.humans.items()}
        new_owner = await wait_owner(cluster, match.table, not_=a, bound=FAILOVER_BOUND_S + 5)
        while not new_owner.events("owner"):  # the lease is taken; then the claim and the replay
            assert time.monotonic() - killed_at < FAILOVER_BOUND_S + 5, new_owner.log()
            await asyncio.sleep(0.05)
        took = time.monotonic() - killed_at
        assert took <= FAILOVER_BOUND_S, f"the table was taken over after {took:.1f}s"
        # seat 0 reconnects to another node with its token and last seq, and resumes
        back = await Client.open(
            b, match.table, match.streams[0], token=old.token, host_token=match.host_token, last_seq=old.seq
        )  # type: ignore[arg-type]
        assert back.welcome is not None and back.welcome["you"] == {"seat": 0, "host": True}
        assert back.welcome["seq"] >= acknowledged[0], "the table went back in time"
        match.humans[0] = back
        tasks[0] = asyncio.create_task(play_person(back, random.Random(5), timeout=120))
        await asyncio.gather(*tasks.values())
        match.server = b  # type: ignore[assignment]
        await finish_and_check(match, [])  # every frame before and after the kill is the record's
        await close_all(match)
        print(f"failover after kill -9: {took:.2f}s")

    asyncio.run(main())


def test_sigstop_of_the_owner_its_late_write_is_fenced_and_nobody_sees_a_fork(cluster: list[Node]) -> None:
    a, b, c = cluster

    async def main() -> None:
        # two bots that think for 1 s: the stopped owner has a bot's move due when it wakes up
        match = await spread_table(
            cluster, {0: b, 1: c}, spectator_on=a, bots=[None, None, "heuristic", "random"], bot_pause=1.0,
            target=50,
        )
        assert await wait_owner(cluster, match.table) is a
        rng = random.Random(31)
        tasks = [
            asyncio.create_task(play_robust(p, random.Random(rng.random()), timeout=150))
            for p in match.humans.values()
        ]
        spectator = match.spectator
        assert spectator is not None
        deadline = time.monotonic() + 30
        while True:  # a bot's turn, in play, some way into the match
            view = spectator.view
            if (
                view is not None and spectator.seq >= 15 and view["phase"] == "play"
                and view["active"] in (2, 3)
            ):
                break
            assert time.monotonic() < deadline, spectator.tail()
            await asyncio.sleep(0.001)
        a.signal(signal.SIGSTOP)
        stopped_at = time.monotonic()
        new_owner = await wait_owner(cluster, match.table, not_=a, bound=FAILOVER_BOUND_S + 5)
        took = time.monotonic() - stopped_at
        await asyncio.sleep(0.5)  # the new owner claims, catches up and goes on
        a.signal(signal.SIGCONT)
        deadline = time.monotonic() + 10
        while not a.events("fenced") and not a.events("demoted"):
            assert time.monotonic() < deadline, a.log()
            await asyncio.sleep(0.1)
        await asyncio.gather(*tasks)
        match.server = new_owner  # type: ignore[assignment]
        await finish_and_check(match, [])  # the spectator on the old owner saw no fork either
        fenced = a.events("fenced")
        demoted = a.events("demoted")
        print(f"new owner after {took:.2f}s; old owner: fenced={len(fenced)} demoted={demoted}")
        # the old owner woke with a bot's move due: it tried to write it and PostgreSQL refused
        # (usually), or a message from the new owner (an entry with a higher fence, a failed
        # renewal) reached its loop first and it stepped down without writing; either way it
        # wrote nothing after the takeover, and its token is refused by the database:
        assert fenced or any(d["reason"] != "fenced" for d in demoted), a.log()
        for doc in fenced:
            assert "is not the current one" in doc["error"], doc
        old_fence = a.events("owner")[0]["fence"]
        store = open_store(match.server.db)  # type: ignore[attr-defined]
        await store.open()
        try:
            stored = await store.load(match.table)
            assert stored is not None
            with pytest.raises(FencedError):  # the old owner's late write, by hand
                await store.append_fenced(match.table, len(stored.entries) + 1, {"k": "chat"}, old_fence)
            assert await store.fence_of(match.table) > old_fence
            after = await store.load(match.table)
            assert after is not None and after.entries == stored.entries
        finally:
            await store.close()
        await close_all(match)

    asyncio.run(main())


def test_redis_restarted_mid_game_the_nodes_recover_and_nothing_is_lost(cluster: list[Node]) -> None:
    a, b, c = cluster

    async def main() -> None:
        match = await spread_table(cluster, {0: a, 1: b, 2: c, 3: c}, spectator_on=b)
        rng = random.Random(41)
        tasks = [
            asyncio.create_task(play_robust(p, random.Random(rng.random()), timeout=150))
            for p in match.humans.values()
        ]
        deadline = time.monotonic() + 30
        while any(p.seq < 20 for p in match.humans.values()):
            assert time.monotonic() < deadline, "the table did not get going"
            await asyncio.sleep(0.02)
        before = {seat: p.seq for seat, p in match.humans.items()}
        subprocess.run(["redis-cli", "-p", "6379", "shutdown", "nosave"], capture_output=True, timeout=10)
        await asyncio.sleep(1.0)
        await asyncio.to_thread(start_redis)
        await asyncio.gather(*tasks)
        assert all(p.seq > before[s] for s, p in match.humans.items())
        await finish_and_check(match, [])  # nothing acknowledged before the restart went missing
        assert any(n.events("redis_reconnected") for n in cluster)
        await close_all(match)

    asyncio.run(main())


def test_sigterm_of_the_owner_hands_its_tables_over_at_once(cluster: list[Node]) -> None:
    a, b, c = cluster

    async def main() -> None:
        match = await spread_table(
            cluster, {0: b, 1: c}, spectator_on=c, bots=[None, None, "heuristic", "random"], target=300
        )
        assert await wait_owner(cluster, match.table) is a
        rng = random.Random(51)
        tasks = [
            asyncio.create_task(play_robust(p, random.Random(rng.random()), timeout=120))
            for p in match.humans.values()
        ]
        deadline = time.monotonic() + 30
        while any(p.seq < 12 for p in match.humans.values()):
            assert time.monotonic() < deadline, "the table did not get going"
            await asyncio.sleep(0.02)
        stopped_at = time.monotonic()
        a.signal(signal.SIGTERM)  # it releases its leases and its liveness key before it drains
        assert not all(over(p) for p in match.humans.values()), "the stop comes mid-match"
        new_owner = await wait_owner(cluster, match.table, not_=a, bound=FAILOVER_BOUND_S)
        while not new_owner.events("owner"):
            await asyncio.sleep(0.05)
        took = time.monotonic() - stopped_at
        assert took < LEASE_TTL, f"a graceful stop still waited {took:.1f}s for the lease to run out"
        await asyncio.to_thread(a.stop)  # (it has exited, or is stopped now)
        await asyncio.gather(*tasks)
        match.server = new_owner  # type: ignore[assignment]
        await finish_and_check(match, [])
        await close_all(match)
        print(f"handed over after SIGTERM in {took:.2f}s")

    asyncio.run(main())
