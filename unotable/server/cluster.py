"""One node of a cluster: many server processes share the tables through Redis and PostgreSQL.

``unotable serve --db postgresql://... --redis redis://...`` builds a :class:`ClusterServer` instead
of the single-process :class:`~unotable.server.app.Server`; without ``--redis`` none of this module
is imported. The design (docs/scaling.md has the why, the bounds and the capacity model):

- **One owner per table.** A node owns a table while it holds the Redis lease ``ut:{T}:lease``
  (``SET NX PX ttl``, renewed every ttl/3 by a compare-and-pexpire script). Each time it acquires
  the lease it takes a fencing token (``INCR ut:{T}:fence``, never below the database's fence) and
  raises the table's fence in PostgreSQL (:meth:`Store.claim`) before it catches up from the log.
  PostgreSQL accepts an entry only with the current fence and the next seq (a trigger, see
  ``store/migrations/postgres/0002_fencing.sql``), so an owner that was paused or cut off past its
  lease can never write again: its appends raise :class:`~unotable.server.store.FencedError`.
- **Forwarding.** Every client command, on whichever node its socket landed, is appended to the
  table's Redis Stream ``ut:{T}:in`` (XADD); the owner reads it (one blocking XREAD per node over
  every stream it owns) in stream order, decides, commits (the log row records the stream id, so a
  new owner resumes right after the last command that made an entry), and applies.
- **Fan-out.** The owner publishes each committed entry ``{seq, e, f, p}`` on ``ut:{T}:out``.
  Every node keeps a read replica of each table its clients watch (a
  :class:`~unotable.server.table.Table` fed the same entries in seq order through the deterministic
  :meth:`Table.apply`; a gap, a Redis reconnect or a new subscription reloads from PostgreSQL) and
  computes each of its connections' view and events from the engine, as the single server does.
- **Replies to one sender** (a coded error, the seat token after a sit) go to the sender's node on
  its channel ``ut:node:{N}``, published before the entry on the same connection, so the token
  reaches the client before the update that seats it.
- **Presence** (who is connected, which decides the grace period and the next round) is each
  node's snapshot, sent through the stream on every change and every 2 s; the owner sums them and
  forgets a node silent for 6 s.
- **Failover.** Each node renews a liveness key ``ut:node:{N}:alive`` with its leases; every ttl/3
  a node checks the liveness of the owners of the unfinished tables it serves (once per owner
  node) and tries the lease of those whose owner is gone or unknown (``SET NX GET``); a scanner
  picks up unfinished tables nobody serves. When an owner dies, another node takes the table
  within ttl + ttl/3 (about 4 s with the default ttl of 3 s), raises the fence, catches up from
  PostgreSQL, and goes on reading the stream; clients reconnect to any node with ``last_seq``. A
  node stopped with SIGTERM releases its leases and liveness key: the handover takes under a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from unotable.server.app import Command, Conn, Runner, Server, ServerSettings
from unotable.server.protocol import LIMITS, ErrorCode, ProtocolError, parse_client
from unotable.server.store import ConflictError, FencedError, StoreError
from unotable.server.table import Decision, Role, Table

__all__ = ["ClusterRunner", "ClusterServer"]

log = logging.getLogger("unotable.server")

PRESENCE_EVERY_S = 2.0
PRESENCE_TTL_S = 6.0
SCAN_EVERY_S = 15.0
STREAM_MAXLEN = 256
"""Commands kept per table stream (approximately): far more than a table has in flight (a table's
commands are read within milliseconds while it has an owner); bounds Redis memory per table."""
XREAD_BLOCK_MS = 2000
SUBSCRIBE_WAIT_S = 2.0

# KEYS[1] the lease; ARGV[1] this node; ARGV[2] the ttl in ms. 1 when still ours and renewed.
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# KEYS[1] the fence counter; ARGV[1] the database's fence: the next token, above both (the counter
# is lost when Redis restarts without persistence; the database's fence never goes back).
NEXT_FENCE = """
local c = redis.call('INCR', KEYS[1])
local floor = tonumber(ARGV[1])
if c <= floor then c = floor + 1; redis.call('SET', KEYS[1], c) end
return c
"""


def lease_key(table_id: str) -> str:
    return f"ut:{{{table_id}}}:lease"  # {table_id}: a Redis Cluster hash tag, sharded by table


def fence_key(table_id: str) -> str:
    return f"ut:{{{table_id}}}:fence"


def in_key(table_id: str) -> str:
    return f"ut:{{{table_id}}}:in"


def out_key(table_id: str) -> str:
    return f"ut:{{{table_id}}}:out"


def alive_key(node: str) -> str:
    return f"ut:node:{node}:alive"


def node_channel(node: str) -> str:
    return f"ut:node:{node}"


def _table_of(key: str) -> str:
    return key[key.index("{") + 1 : key.index("}")]


def _stream_id(text: str) -> tuple[int, int]:
    ms, _, n = text.partition("-")
    return int(ms), int(n or 0)


class ClusterRunner(Runner):
    """A table on one node: its read replica and local connections, and its writer while owned."""

    server: ClusterServer

    def __init__(self, table: Table, server: ClusterServer) -> None:
        super().__init__(table, server.store, server.metrics)
        self.server = server
        self.fence: int | None = None  # the fencing token while this node owns the table
        self.owner_node: str | None = None  # who owns it, as far as this node knows
        self.claiming = False
        self.unsynced = False  # a publish failed: the replicas are told the log's length later
        self.read_after: tuple[int, int] = (0, 0)  # the newest stream id handled as owner
        self.presence: dict[str, tuple[list[int], int, float]] = {}  # node -> (seats, spectators, at)
        self.idle_since = time.monotonic()

    # -- the loop ------------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            timeout: float | None = None
            if self.fence is not None:
                due = self.table.next_due()
                timeout = 1.0 if due is None else min(1.0, max(0.0, due - time.time()))
            try:
                cmd = await asyncio.wait_for(self.queue.get(), timeout)
            except TimeoutError:
                if self.fence is not None:
                    self._refresh_presence()
                    if self.unsynced:
                        await self._sync()
                    due = self.table.next_due()
                    if due is not None and due <= time.time():  # (else: the presence tick only)
                        await self._timed(self._commit_timed)
                continue
            await self._serve(cmd, self._dispatch)

    async def _commit_timed(self, decision: Decision) -> None:
        if self.fence is not None:  # still the owner after the bot thought
            await self._commit_owned(decision, None, None)

    async def _dispatch(self, cmd: Command) -> None:
        msg = cmd.msg
        if isinstance(msg, tuple):
            kind = msg[0]
            if kind == "entry":
                await self._on_entry(msg[1])
            elif kind == "fwd":
                await self._on_forwarded(msg[1], msg[2])
            elif kind == "reply":
                await self._on_reply(msg[1], msg[2])
            elif kind == "catchup":
                await self._catch_up()
            elif kind == "own":
                await self._own(msg[1])
            elif kind == "lost":
                self._demote(msg[1])
            elif kind == "presence":
                await self._presence_changed()
            return
        conn = cmd.conn
        assert conn is not None
        if msg == "connect":
            self._connect_local(conn, cmd)
            if conn.role.seat is not None:  # a tab on this seat on another node is taken over too
                with contextlib.suppress(RedisError, OSError):
                    await self.server.redis.publish(
                        out_key(self.table.table_id),
                        json.dumps({"takeover": conn.role.seat, "by": self.server.node}),
                    )
            await self._presence_changed()
            return
        if msg == "disconnect":
            self.conns.discard(conn)
            self.server.conns.pop(id(conn), None)
            if not self.conns:
                self.idle_since = time.monotonic()
            await self._presence_changed()
            return
        if msg.type == "ping":
            conn.send({"type": "pong", "seq": self.table.seq})
            return
        if msg.type == "chat" and not conn.chats.allow():
            self._error(
                conn, ErrorCode.RATE_LIMITED, f"at most {LIMITS.chats_per_second:g} chat line per second"
            )
            return
        await self._forward(conn, msg)

    # -- local connections ---------------------------------------------------------------------

    def _connect_local(self, conn: Conn, cmd: Command) -> None:
        if conn.role.seat is not None:  # a second tab on this node takes the seat over cleanly
            self._take_over(conn.role.seat)
        self.conns.add(conn)
        self.server.conns[id(conn)] = conn
        conn.send(self._welcome(conn, cmd.last_seq))

    def _take_over(self, seat: int) -> None:
        for other in [c for c in self.conns if c.role.seat == seat]:
            other.send(
                {"type": "reconnect", "seq": self.table.seq, "reason": "taken over by another connection"}
            )
            other.close_code = 4001
            other.send(None)
            self.conns.discard(other)
            self.server.conns.pop(id(other), None)

    def _local_presence(self) -> tuple[list[int], int]:
        seats = [0] * len(self.table.seats)
        spectators = 0
        for conn in self.conns:
            seat = conn.role.seat
            if seat is None or seat >= len(seats):
                spectators += 1
            else:
                seats[seat] += 1
        return seats, spectators

    async def _presence_changed(self) -> None:
        """Tell the owner what this node's connections hold (the owner sums every node's)."""
        seats, spectators = self._local_presence()
        if self.fence is not None:
            self.presence[self.server.node] = (seats, spectators, time.monotonic())
            self._refresh_presence()
            return
        fields = {"k": "presence", "node": self.server.node, "p": json.dumps([seats, spectators])}
        with contextlib.suppress(RedisError, OSError):
            await self.server.xadd(self.table.table_id, fields)

    def _refresh_presence(self) -> None:
        """The owner: the table's connection counts from every node's snapshot (a silent node's go)."""
        now = time.monotonic()
        self.presence[self.server.node] = (*self._local_presence(), now)
        seats = [0] * len(self.table.seats)
        spectators = 0
        for node, (counts, watching, at) in list(self.presence.items()):
            if now - at > PRESENCE_TTL_S:
                del self.presence[node]
                continue
            for i, n in enumerate(counts[: len(seats)]):
                seats[i] += n
            spectators += watching
        self._set_presence(seats, spectators)

    def _set_presence(self, seats: list[int], spectators: int) -> None:
        table = self.table
        now = time.time()
        for i, want in enumerate(seats[: len(table.seats)]):
            have = table.seats[i].connections
            for _ in range(want - have):
                table.connected(i, now)
            for _ in range(have - want):
                table.disconnected(i, now)
        table.spectators = max(0, spectators)
        self.tell_presence()

    def _presence_now(self) -> list[Any]:
        return [[s.connections for s in self.table.seats], self.table.spectators]

    async def _forward(self, conn: Conn, msg: Any) -> None:
        """A client command goes to the owner through the table's stream (the owner too reads it
        there: one order for every node's commands)."""
        fields = {
            "k": "cmd",
            "node": self.server.node,
            "cid": str(id(conn)),
            "seat": "-1" if conn.role.seat is None else str(conn.role.seat),
            "host": "1" if conn.role.host else "0",
            "m": msg.model_dump_json(),
        }
        for attempt in range(10):
            try:
                await self.server.xadd(self.table.table_id, fields)
                return
            except (RedisError, OSError):
                await asyncio.sleep(0.1 * (attempt + 1))
        self._error(conn, ErrorCode.INVALID, "the table cannot be reached just now: send it again")

    async def _on_reply(self, cid: int, msg: dict[str, Any]) -> None:
        conn = self.server.conns.get(cid)
        if conn is None or conn not in self.conns:
            return
        if msg.get("type") == "token":  # the seat is stored: this connection holds it
            conn.role = Role(msg["seat"], conn.role.host)
            conn.send(msg)
            await self._presence_changed()
            return
        if msg.get("type") == "error":
            self.metrics.rejected.labels(msg.get("code", "")).inc()
        conn.send(msg)

    # -- the replica -----------------------------------------------------------------------------

    async def _on_entry(self, payload: dict[str, Any]) -> None:
        fence = payload.get("f")
        if self.fence is not None and isinstance(fence, int) and fence > self.fence:
            self._demote("a newer owner published")  # it claimed the table: this node was fenced out
        if "takeover" in payload:  # a new tab on that seat, on another node
            if payload["by"] != self.server.node and any(
                c.role.seat == payload["takeover"] for c in self.conns
            ):
                self._take_over(payload["takeover"])
                await self._presence_changed()
            return
        if isinstance(payload.get("o"), str):
            self.owner_node = payload["o"]
        if isinstance(payload.get("sync"), int) and payload["sync"] > self.table.seq:
            # entries committed but never published (an owner that died or lost Redis between
            # its commit and its publish): from the log
            await self._catch_up()
        if "owner" in payload:  # a new owner: tell it who is connected here
            self.owner_node = payload["owner"]
            if payload["owner"] != self.server.node and self.conns:
                await self._presence_changed()
            return
        if "sync" in payload:
            return
        seq = payload["seq"]
        if seq <= self.table.seq:
            return  # this node's own entry, or one it already caught up with
        if seq > self.table.seq + 1:
            await self._catch_up()  # a gap: what was missed is in PostgreSQL
            if seq > self.table.seq:
                return
        else:
            await self._apply_local(payload["e"])
        if self.fence is None and isinstance(payload.get("p"), list):
            seats, spectators = payload["p"]
            self._set_presence(list(seats), int(spectators))

    async def _catch_up(self) -> None:
        """Apply, in order, every entry PostgreSQL has that this replica has not."""
        try:
            stored = await self.store.load(self.table.table_id)
        except StoreError as exc:
            log.warning(
                json.dumps({"event": "catch_up_failed", "table": self.table.table_id, "error": str(exc)})
            )
            return
        if stored is None:
            return
        for entry in stored.entries[self.table.seq :]:
            await self._apply_local(entry)

    async def _apply_local(self, entry: dict[str, Any]) -> None:
        """Apply a committed entry and send every local connection its own update."""
        table = self.table
        before = (table.status, [s.info(i) for i, s in enumerate(table.seats)])
        table.apply(entry, time.time())
        self.metrics.actions.labels(entry["k"]).inc()
        after = (table.status, [s.info(i) for i, s in enumerate(table.seats)])
        demoted = []
        if entry["k"] == "leave":  # the seat's connections (a leaver, a kicked player) now watch
            for other in [c for c in self.conns if c.role.seat == entry["seat"]]:
                other.role = Role(None, other.role.host)
                demoted.append(other)
        self._broadcast(entry, before != after)
        for other in demoted:
            other.send(self._welcome(other, None))
        if demoted:
            await self._presence_changed()

    # -- the owner -------------------------------------------------------------------------------

    async def _own(self, fence: int) -> None:
        table_id = self.table.table_id
        self.claiming = False
        try:
            await self.store.claim(table_id, fence)
        except (FencedError, StoreError) as exc:
            log.warning(
                json.dumps({"event": "claim_refused", "table": table_id, "fence": fence, "error": str(exc)})
            )
            await self.server.release(table_id)
            return
        self.fence = fence
        self.owner_node = self.server.node
        await self._catch_up()  # nobody else can write now: this is the whole log
        try:
            source = await self.store.last_source(table_id)
        except StoreError:
            self._demote("the database is unreachable")
            await self.server.release(table_id)
            return
        self.read_after = _stream_id(source) if source else (0, 0)
        self.presence = {}
        for s in self.table.seats:  # the grace period starts now for seats no node reports
            if s.kind == "human" and s.connections == 0:
                s.away_since = time.time()
        self._refresh_presence()
        await self.server.start_reading(table_id, source or "0-0")
        log.info(json.dumps({"event": "owner", "table": table_id, "fence": fence, "seq": self.table.seq}))
        with contextlib.suppress(RedisError, OSError):
            await self.server.redis.publish(
                out_key(table_id), json.dumps({"owner": self.server.node, "f": fence, "sync": self.table.seq})
            )

    def _demote(self, reason: str) -> None:
        if self.fence is None:
            return
        log.info(
            json.dumps(
                {"event": "demoted", "table": self.table.table_id, "fence": self.fence, "reason": reason}
            )
        )
        self.fence = None
        self.owner_node = None  # unknown: this node tries the lease again at its next tick
        self.presence = {}
        self.server.stop_reading(self.table.table_id)

    async def _on_forwarded(self, stream_id: str, fields: dict[str, str]) -> None:
        if self.fence is None:
            return  # read before this node lost the table: its new owner reads it again
        at = _stream_id(stream_id)
        if at <= self.read_after:
            return
        self.read_after = at
        if fields.get("k") == "presence":
            seats, spectators = json.loads(fields["p"])
            self.presence[fields["node"]] = (list(seats), int(spectators), time.monotonic())
            self._refresh_presence()
            return
        seat = int(fields["seat"])
        role = Role(None if seat < 0 else seat, fields["host"] == "1")
        origin = (fields["node"], int(fields["cid"]))
        try:
            msg = parse_client(fields["m"])
        except ProtocolError as exc:
            await self._reply(origin, self._error_msg(exc.code, exc.message))
            return
        arrived = time.time()
        back = self.table.back_from_autopilot(role.seat) if msg.type == "act" else None
        if back is not None and not await self._commit_owned(back, None, None):
            return
        try:
            decision = self.table.decide(role, msg, time.time())
        except ProtocolError as exc:
            await self._reply(origin, self._error_msg(exc.code, exc.message))
            return
        if decision is None:
            return
        await self._commit_owned(decision, origin, stream_id)
        self.metrics.latency.observe(time.time() - arrived)

    def _error_msg(self, code: ErrorCode, message: str) -> dict[str, Any]:
        return {"type": "error", "seq": self.table.seq, "code": code.value, "message": message}

    async def _reply(self, origin: tuple[str, int], msg: dict[str, Any]) -> None:
        node, cid = origin
        if node == self.server.node:
            await self._on_reply(cid, msg)
            return
        with contextlib.suppress(RedisError, OSError):
            await self.server.redis.publish(
                node_channel(node), json.dumps({"t": self.table.table_id, "c": cid, "m": msg})
            )

    async def _commit_owned(
        self, decision: Decision, origin: tuple[str, int] | None, source: str | None
    ) -> bool:
        """Commit (fenced), apply, tell the sender its token, publish: True when committed."""
        table = self.table
        table_id = table.table_id
        entry = decision.entry
        seq = table.seq + 1
        assert self.fence is not None
        try:
            await self.store.append_fenced(table_id, seq, entry, self.fence, source)
        except (FencedError, ConflictError) as exc:
            # another node claimed the table (a pause or a partition outlived the lease): refused
            # by PostgreSQL; this node becomes a replica again and catches up with the real log
            self.server.fenced += 1
            log.warning(
                json.dumps(
                    {"event": "fenced", "table": table_id, "fence": self.fence, "seq": seq, "error": str(exc)}
                )
            )
            self._demote("fenced")
            await self._catch_up()
            return False
        token_msg = None
        if decision.token is not None and entry["k"] == "sit":
            token_msg = {"type": "token", "seq": seq, "seat": entry["seat"], "token": decision.token}
            if origin is not None and origin[0] == self.server.node:
                await self._on_reply(origin[1], token_msg)
                token_msg = None
        await self._apply_local(entry)
        if table.finished:
            with contextlib.suppress(StoreError):
                await self.store.set_status(table_id, "finished")
            ms, n = self.read_after
            with contextlib.suppress(RedisError, OSError):  # the commands read so far are answered
                await self.server.redis.xtrim(in_key(table_id), minid=f"{ms}-{n + 1}")
        payload = json.dumps(
            {"seq": seq, "e": entry, "f": self.fence, "o": self.server.node, "p": self._presence_now()},
            separators=(",", ":"),
        )
        try:
            pipe = self.server.redis.pipeline(transaction=False)
            if token_msg is not None and origin is not None:  # before the entry, on one connection
                pipe.publish(
                    node_channel(origin[0]), json.dumps({"t": table_id, "c": origin[1], "m": token_msg})
                )
            pipe.publish(out_key(table_id), payload)
            await pipe.execute()
        except (RedisError, OSError) as exc:  # the replicas catch up from PostgreSQL
            log.warning(json.dumps({"event": "publish_failed", "table": table_id, "error": str(exc)}))
            self.unsynced = True
        return True

    async def _sync(self) -> None:
        """After a failed publish: tell the replicas how far the log goes (they read the rest)."""
        message = json.dumps({"sync": self.table.seq, "o": self.server.node})
        try:
            await self.server.redis.publish(out_key(self.table.table_id), message)
            self.unsynced = False
        except (RedisError, OSError):
            pass

    def notify_shutdown(self) -> None:
        for conn in self.conns:
            conn.send({"type": "reconnect", "seq": self.table.seq, "reason": "the server is restarting"})
            conn.send(None)


class ClusterServer(Server):
    """A node: the store (PostgreSQL), Redis, and a :class:`ClusterRunner` per table it serves."""

    def __init__(self, settings: ServerSettings) -> None:
        db = (settings.db or "").lower()
        if not db.startswith(("postgresql://", "postgres://")):
            raise SystemExit("unotable serve --redis needs a PostgreSQL --db (postgresql://...)")
        super().__init__(settings)
        assert settings.redis is not None
        self.node = settings.node_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.redis_url = settings.redis
        self.redis: Any = aioredis.Redis.from_url(settings.redis, decode_responses=True)
        self.blocking: Any = aioredis.Redis.from_url(settings.redis, decode_responses=True)
        self.ttl_ms = max(300, int(settings.lease_ttl * 1000))
        self.conns: dict[int, Conn] = {}
        self.reading: dict[str, list[str]] = {}  # owned table -> [the last stream id read]
        self.loading: dict[str, asyncio.Future[ClusterRunner | None]] = {}
        self.subscribing: dict[str, asyncio.Future[None]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.fenced = 0
        self.wake_key = f"ut:node:{self.node}:wake"

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        await self.store.open()
        for coro in (self._subscriber(), self._leases(), self._reader(), self._heartbeat()):
            self.tasks.append(asyncio.create_task(coro))
        log.info(json.dumps({"event": "started", "node": self.node, "cluster": True}))

    async def hand_over(self) -> None:
        """Stop renewing: end the background tasks, drop the liveness key and release every lease,
        so that other nodes take the tables over at once (on SIGTERM this runs before the
        sockets are drained, which may take seconds; PostgreSQL's fence still guards the logs).
        Every step may run twice: :meth:`stop` runs it again after a hook that timed out."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(RedisError, OSError):  # the other nodes look for new owners now
            await self.redis.delete(alive_key(self.node))
        for runner in list(self.runners.values()):
            if isinstance(runner, ClusterRunner) and runner.fence is not None:
                runner.fence = None
                await self.release(runner.table.table_id)  # the next owner need not wait

    async def stop(self) -> None:
        self.notify_shutdown()
        await asyncio.sleep(0.2)
        await self.hand_over()
        for runner in self.runners.values():
            await runner.stop()
        for client in (self.redis, self.blocking):
            with contextlib.suppress(Exception):
                await client.aclose()
        await self.store.close()

    def new_runner(self, table: Table) -> Runner:
        return ClusterRunner(table, self)

    async def runner_for(self, table_id: str) -> Runner | None:
        runner = self.runners.get(table_id)
        if runner is not None:
            return runner
        pending = self.loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self.loading[table_id] = pending
            try:
                pending.set_result(await self._load(table_id))
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self.loading[table_id]
        return await asyncio.shield(pending)

    async def _load(self, table_id: str) -> ClusterRunner | None:
        # subscribed first, loaded after: what is published from now on arrives, what was committed
        # before is in the load (a replica applies each seq once, in order)
        subscribed = asyncio.get_running_loop().create_future()
        self.subscribing[table_id] = subscribed
        try:
            # (when Redis is away, the reconnection catches the replica up)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(subscribed), SUBSCRIBE_WAIT_S)
            table = await self.stored_table(table_id)
            if table is None:
                return None
            runner = self._run(table)
        finally:
            self.subscribing.pop(table_id, None)
        assert isinstance(runner, ClusterRunner)
        if not table.finished:
            await self._try_acquire([runner])
        return runner

    async def create(self, settings: Any, bots: dict[int, str]) -> tuple[str, str]:
        table_id, host = await super().create(settings, bots)
        runner = self.runners[table_id]
        assert isinstance(runner, ClusterRunner)
        await self._try_acquire([runner])
        return table_id, host

    # -- Redis -------------------------------------------------------------------------------------

    async def xadd(self, table_id: str, fields: dict[str, str]) -> None:
        await self.redis.xadd(in_key(table_id), fields, maxlen=STREAM_MAXLEN, approximate=True)

    async def release(self, table_id: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.redis.eval(RELEASE, 1, lease_key(table_id), self.node)

    async def start_reading(self, table_id: str, after: str) -> None:
        self.reading[table_id] = [after]
        with contextlib.suppress(RedisError, OSError):
            await self.redis.xadd(self.wake_key, {"t": table_id}, maxlen=100, approximate=True)

    def stop_reading(self, table_id: str) -> None:
        self.reading.pop(table_id, None)

    async def _try_acquire(self, runners: list[ClusterRunner]) -> None:
        """Take the lease of each table that has none; then claim it (in its runner's loop)."""
        if not runners:
            return
        pipe = self.redis.pipeline(transaction=False)
        for r in runners:  # SET NX GET: None when this node took it, else who holds it
            pipe.set(lease_key(r.table.table_id), self.node, nx=True, px=self.ttl_ms, get=True)
        try:
            results = await pipe.execute()
        except (RedisError, OSError):
            return
        for r, holder in zip(runners, results, strict=True):
            if holder is not None and holder != self.node:
                r.owner_node = holder
                continue
            # taken now, or still this node's (it dropped the table, say after a refused append whose
            # first answer was lost): either way a new fence and a claim make it the owner again
            table_id = r.table.table_id
            r.claiming = True
            try:
                floor = await self.store.fence_of(table_id)
                fence = int(await self.redis.eval(NEXT_FENCE, 1, fence_key(table_id), floor))
            except (RedisError, OSError, StoreError):
                r.claiming = False
                await self.release(table_id)
                continue
            r.queue.put_nowait(Command(None, ("own", fence), time.time()))

    async def _leases(self) -> None:
        """Every ttl/3: renew the leases held, try those of watched tables nobody holds, and now and
        then take up unfinished tables that no node holds at all."""
        period = self.ttl_ms / 3000
        last_ok = time.monotonic()
        last_scan = 0.0
        while True:
            await asyncio.sleep(period)
            runners = [r for r in self.runners.values() if isinstance(r, ClusterRunner)]
            held = [r for r in runners if r.fence is not None or r.claiming]
            try:
                if held:
                    pipe = self.redis.pipeline(transaction=False)
                    for r in held:
                        pipe.eval(RENEW, 1, lease_key(r.table.table_id), self.node, self.ttl_ms)
                    results = await pipe.execute()
                    for r, ok in zip(held, results, strict=True):
                        if not ok and r.fence is not None:
                            r.queue.put_nowait(Command(None, ("lost", "lease lost"), time.time()))
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(alive_key(self.node), "1", px=self.ttl_ms)
                await pipe.execute()
                last_ok = time.monotonic()
                await self._try_acquire(await self._orphans(runners))
                if time.monotonic() - last_scan > SCAN_EVERY_S:
                    last_scan = time.monotonic()
                    await self._scan()
            except (RedisError, OSError, StoreError) as exc:
                if time.monotonic() - last_ok > period * 2:  # the lease may have run out
                    for r in held:
                        r.queue.put_nowait(Command(None, ("lost", f"redis: {exc}"), time.time()))

    async def _orphans(self, runners: list[ClusterRunner]) -> list[ClusterRunner]:
        """The tables this node serves whose owner is unknown or gone: a node's liveness key
        (``ut:node:N:alive``, renewed with its leases) is checked once for all its tables, so a
        replica costs Redis nothing while its owner lives."""
        free = [r for r in runners if r.fence is None and not r.claiming and not r.table.finished]
        owners = {r.owner_node for r in free if r.owner_node is not None and r.owner_node != self.node}
        alive: dict[str, bool] = {}
        if owners:
            pipe = self.redis.pipeline(transaction=False)
            for node in sorted(owners):
                pipe.exists(alive_key(node))
            alive = dict(zip(sorted(owners), [bool(x) for x in await pipe.execute()], strict=True))
        return [r for r in free if r.owner_node is None or not alive.get(r.owner_node, False)]

    async def _scan(self) -> None:
        """Unfinished tables with no owner and no watcher (their owner died alone with them)."""
        ids = [t for t in await self.store.unfinished() if t not in self.runners][:200]
        if not ids:
            return
        pipe = self.redis.pipeline(transaction=False)
        for table_id in ids:
            pipe.exists(lease_key(table_id))
        held = await pipe.execute()
        for table_id, exists in zip(ids, held, strict=True):
            if not exists:
                await self.runner_for(table_id)  # loads it and tries its lease

    async def _reader(self) -> None:
        """One blocking XREAD over the streams of every table this node owns (and the node's wake
        stream, written when it starts owning a table, so the new stream joins the read at once)."""
        wake_id = ""
        while True:
            marks = dict(self.reading)
            try:
                if not wake_id:
                    wake_id = await self.blocking.xadd(
                        self.wake_key, {"w": "1"}, maxlen=100, approximate=True
                    )
                streams = {self.wake_key: wake_id, **{in_key(t): mark[0] for t, mark in marks.items()}}
                result = await self.blocking.xread(streams, count=500, block=XREAD_BLOCK_MS)
            except (RedisError, OSError):
                wake_id = ""
                await asyncio.sleep(0.3)
                continue
            for key, messages in result or []:
                if key == self.wake_key:
                    wake_id = messages[-1][0]
                    continue
                table_id = _table_of(key)
                mark = marks.get(table_id)
                runner = self.runners.get(table_id)
                if mark is None or self.reading.get(table_id) is not mark or runner is None:
                    continue
                for stream_id, fields in messages:
                    mark[0] = stream_id
                    runner.queue.put_nowait(Command(None, ("fwd", stream_id, fields), time.time()))

    async def _subscriber(self) -> None:
        """One pub/sub connection: this node's reply channel and the channel of each table it
        serves. A new subscription, and every reconnection, catches the replicas up from the log."""
        first = True
        while True:
            pubsub = self.redis.pubsub()
            subscribed: set[str] = set()
            try:
                await pubsub.subscribe(node_channel(self.node))
                if not first:
                    log.info(json.dumps({"event": "redis_reconnected", "node": self.node}))
                first = False
                while True:
                    asked = dict(self.subscribing)
                    wanted = set(self.runners) | set(asked)
                    new = wanted - subscribed
                    if new:
                        await pubsub.subscribe(*(out_key(t) for t in new))
                        subscribed |= new
                        for t in new:
                            if t in asked:  # a table about to be loaded (after this subscription)
                                if not asked[t].done():
                                    asked[t].set_result(None)
                            else:  # entries published before the subscription: from the log
                                self.runners[t].queue.put_nowait(Command(None, ("catchup",), time.time()))
                    gone = subscribed - wanted
                    if gone:
                        await pubsub.unsubscribe(*(out_key(t) for t in gone))
                        subscribed -= gone
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.05)
                    if msg is not None and msg.get("type") == "message":
                        self._route(msg["channel"], msg["data"])
            except (RedisError, OSError) as exc:
                log.warning(json.dumps({"event": "redis_lost", "node": self.node, "error": str(exc)}))
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _route(self, channel: str, data: str) -> None:
        payload = json.loads(data)
        if channel == node_channel(self.node):
            runner = self.runners.get(payload["t"])
            if runner is not None:
                runner.queue.put_nowait(Command(None, ("reply", payload["c"], payload["m"]), time.time()))
            return
        runner = self.runners.get(_table_of(channel))
        if runner is not None:
            runner.queue.put_nowait(Command(None, ("entry", payload), time.time()))

    async def _heartbeat(self) -> None:
        """This node's presence, to each owner, every few seconds (an owner forgets a silent node)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY_S)
            for runner in list(self.runners.values()):
                if isinstance(runner, ClusterRunner) and runner.conns and runner.fence is None:
                    runner.queue.put_nowait(Command(None, ("presence",), time.time()))
