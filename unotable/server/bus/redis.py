"""The bus of a cluster: many server processes share the tables through Redis and PostgreSQL.

``unotable serve --db postgresql://... --redis redis://...`` gives the hubs a :class:`RedisBus`
instead of the one-process :class:`~unotable.server.bus.local.LocalBus`; without ``--redis`` none of
this module is imported. Each table's hub gets a :class:`RedisLink`: the same hub decides, commits,
applies and tells, the link says whether this node owns the table and carries the rest. The
design (docs/scaling.md has the why, the bounds and the capacity model):

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
  :class:`~unotable.server.table.TableActor` fed the same entries in seq order through the
  deterministic :meth:`TableActor.apply`; a gap, a Redis reconnect or a new subscription reloads
  from PostgreSQL) and
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
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from unotable.server import outbox
from unotable.server.entries import Entry, entry_from_dict
from unotable.server.outbox import Conn
from unotable.server.ports import BusSignal, HubSet, TableHub
from unotable.server.protocol import ClientMsg, ErrorCode, ProtocolError, parse_client
from unotable.server.store import ConflictError, FencedError, StoreError
from unotable.server.table import Role

__all__ = ["RedisBus", "RedisLink"]

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
    """A stream id as a pair to compare.

    >>> _stream_id("1700000000000-3") > _stream_id("1700000000000-2")
    True
    """
    ms, _, n = text.partition("-")
    return int(ms), int(n or 0)


# -- the bus's own commands on a hub's queue ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Published(BusSignal):
    """A message on the table's channel: a committed entry, a new owner, a take-over, a sync."""

    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Forwarded(BusSignal):
    """A command read from the table's stream (by its owner)."""

    stream_id: str
    fields: dict[str, str]


@dataclass(frozen=True, slots=True)
class Replied(BusSignal):
    """The owner's answer to one of this node's connections (``kind``: token or error)."""

    cid: int
    answer: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CatchUp(BusSignal):
    pass


@dataclass(frozen=True, slots=True)
class Own(BusSignal):
    """This node took the table's lease with fencing token ``fence``: claim the table."""

    fence: int


@dataclass(frozen=True, slots=True)
class Lost(BusSignal):
    reason: str


@dataclass(frozen=True, slots=True)
class PresenceTick(BusSignal):
    pass


class RedisReply:
    """The answer to a command that came through the stream: to its connection, on its node."""

    __slots__ = ("cid", "link", "node")

    def __init__(self, link: RedisLink, node: str, cid: int) -> None:
        self.link = link
        self.node = node
        self.cid = cid

    async def error(self, seq: int, code: ErrorCode, message: str) -> None:
        answer = {"kind": "error", "seq": seq, "code": code.value, "message": message}
        await self.link.reply(self.node, self.cid, answer)

    async def seated(self, seq: int, seat: int, token: str) -> None:
        # (published before the entry, on one connection: the token reaches the client first)
        answer = {"kind": "token", "seq": seq, "seat": seat, "token": token}
        await self.link.reply(self.node, self.cid, answer)


class RedisLink:
    """A table on one node: its read replica and local connections, and its writer while owned."""

    def __init__(self, hub: TableHub, bus: RedisBus) -> None:
        self.hub = hub
        self.bus = bus
        self.fence: int | None = None  # the fencing token while this node owns the table
        self.owner_node: str | None = None  # who owns it, as far as this node knows
        self.claiming = False
        self.unsynced = False  # a publish failed: the replicas are told the log's length later
        self.read_after: tuple[int, int] = (0, 0)  # the newest stream id handled as owner
        self.presence: dict[str, tuple[list[int], int, float]] = {}  # node -> (seats, spectators, at)

    @property
    def owner(self) -> bool:
        return self.fence is not None

    @property
    def table_id(self) -> str:
        return self.hub.table_id

    def timeout(self, due: float | None) -> float | None:
        if self.fence is None:
            return None
        return 1.0 if due is None else min(1.0, max(0.0, due - time.time()))

    async def tick(self) -> None:
        if self.fence is not None:
            self._refresh_presence()
            if self.unsynced:
                await self._sync()

    async def handle(self, signal: BusSignal) -> None:
        if isinstance(signal, Published):
            await self._on_published(signal.payload)
        elif isinstance(signal, Forwarded):
            await self._on_forwarded(signal.stream_id, signal.fields)
        elif isinstance(signal, Replied):
            await self._on_reply(signal.cid, signal.answer)
        elif isinstance(signal, CatchUp):
            await self._catch_up()
        elif isinstance(signal, Own):
            await self._own(signal.fence)
        elif isinstance(signal, Lost):
            self._demote(signal.reason)
        elif isinstance(signal, PresenceTick):
            await self.presence_changed()

    # -- local connections ---------------------------------------------------------------------

    def joined(self, conn: Conn) -> None:
        self.bus.conns[id(conn)] = conn

    def left(self, conn: Conn) -> None:
        self.bus.conns.pop(id(conn), None)

    async def arrived(self, conn: Conn) -> None:
        if conn.role.seat is not None:  # a tab on this seat on another node is taken over too
            with contextlib.suppress(RedisError, OSError):
                await self.bus.redis.publish(
                    out_key(self.table_id), json.dumps({"takeover": conn.role.seat, "by": self.bus.node})
                )
        await self.presence_changed()

    def _local_presence(self) -> tuple[list[int], int]:
        seats = [0] * len(self.hub.actor.seats)
        spectators = 0
        for conn in self.hub.conns:
            seat = conn.role.seat
            if seat is None or seat >= len(seats):
                spectators += 1
            else:
                seats[seat] += 1
        return seats, spectators

    async def presence_changed(self) -> None:
        """Tell the owner what this node's connections hold (the owner sums every node's)."""
        seats, spectators = self._local_presence()
        if self.fence is not None:
            self.presence[self.bus.node] = (seats, spectators, time.monotonic())
            self._refresh_presence()
            return
        fields = {"k": "presence", "node": self.bus.node, "p": json.dumps([seats, spectators])}
        with contextlib.suppress(RedisError, OSError):
            await self.bus.xadd(self.table_id, fields)

    def _refresh_presence(self) -> None:
        """The owner: the table's connection counts from every node's snapshot (a silent node's go)."""
        now = time.monotonic()
        self.presence[self.bus.node] = (*self._local_presence(), now)
        seats = [0] * len(self.hub.actor.seats)
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
        actor = self.hub.actor
        now = time.time()
        for i, want in enumerate(seats[: len(actor.seats)]):
            have = actor.seats[i].connections
            for _ in range(want - have):
                actor.connected(i, now)
            for _ in range(have - want):
                actor.disconnected(i, now)
        actor.spectators = max(0, spectators)
        self.hub.tell_presence()

    def _presence_now(self) -> list[Any]:
        actor = self.hub.actor
        return [[s.connections for s in actor.seats], actor.spectators]

    async def submit(self, conn: Conn, msg: ClientMsg, arrived: float) -> None:
        """A client command goes to the owner through the table's stream (the owner too reads it
        there: one order for every node's commands)."""
        fields = {
            "k": "cmd",
            "node": self.bus.node,
            "cid": str(id(conn)),
            "seat": "-1" if conn.role.seat is None else str(conn.role.seat),
            "host": "1" if conn.role.host else "0",
            "m": msg.model_dump_json(),
        }
        for attempt in range(10):
            try:
                await self.bus.xadd(self.table_id, fields)
                return
            except (RedisError, OSError):
                await asyncio.sleep(0.1 * (attempt + 1))
        self.hub.refuse(conn, ErrorCode.INVALID, "the table cannot be reached just now: send it again")

    async def reply(self, node: str, cid: int, answer: dict[str, Any]) -> None:
        if node == self.bus.node:
            await self._on_reply(cid, answer)
            return
        with contextlib.suppress(RedisError, OSError):
            await self.bus.redis.publish(
                node_channel(node), json.dumps({"t": self.table_id, "c": cid, "m": answer})
            )

    async def _on_reply(self, cid: int, answer: dict[str, Any]) -> None:
        conn = self.bus.conns.get(cid)
        if conn is None or conn not in self.hub.conns:
            return
        if answer.get("kind") == "token":  # the seat is stored: this connection holds it
            conn.role = Role(answer["seat"], conn.role.host)
            outbox.token(conn, answer["seq"], answer["seat"], answer["token"])
            await self.presence_changed()
            return
        self.hub.refuse(conn, ErrorCode(answer["code"]), answer["message"])

    # -- the replica -----------------------------------------------------------------------------

    async def _on_published(self, payload: dict[str, Any]) -> None:
        actor = self.hub.actor
        fence = payload.get("f")
        if self.fence is not None and isinstance(fence, int) and fence > self.fence:
            self._demote("a newer owner published")  # it claimed the table: this node was fenced out
        if "takeover" in payload:  # a new tab on that seat, on another node
            if payload["by"] != self.bus.node and any(
                c.role.seat == payload["takeover"] for c in self.hub.conns
            ):
                self.hub.take_over(payload["takeover"])
                await self.presence_changed()
            return
        if isinstance(payload.get("o"), str):
            self.owner_node = payload["o"]
        if isinstance(payload.get("sync"), int) and payload["sync"] > actor.seq:
            # entries committed but never published (an owner that died or lost Redis between
            # its commit and its publish): from the log
            await self._catch_up()
        if "owner" in payload:  # a new owner: tell it who is connected here
            self.owner_node = payload["owner"]
            if payload["owner"] != self.bus.node and self.hub.conns:
                await self.presence_changed()
            return
        if "sync" in payload:
            return
        seq = payload["seq"]
        if seq <= actor.seq:
            return  # this node's own entry, or one it already caught up with
        if seq > actor.seq + 1:
            await self._catch_up()  # a gap: what was missed is in PostgreSQL
            if seq > actor.seq:
                return
        else:
            await self.hub.apply(entry_from_dict(payload["e"]))
        if self.fence is None and isinstance(payload.get("p"), list):
            seats, spectators = payload["p"]
            self._set_presence(list(seats), int(spectators))

    async def _catch_up(self) -> None:
        """Apply, in order, every entry PostgreSQL has that this replica has not."""
        try:
            await self.hub.catch_up()
        except StoreError as exc:
            log.warning(json.dumps({"event": "catch_up_failed", "table": self.table_id, "error": str(exc)}))

    # -- the owner -------------------------------------------------------------------------------

    async def _own(self, fence: int) -> None:
        table_id = self.table_id
        store = self.hub.store
        self.claiming = False
        try:
            await store.claim(table_id, fence)
        except (FencedError, StoreError) as exc:
            log.warning(
                json.dumps({"event": "claim_refused", "table": table_id, "fence": fence, "error": str(exc)})
            )
            await self.bus.release(table_id)
            return
        self.fence = fence
        self.owner_node = self.bus.node
        await self._catch_up()  # nobody else can write now: this is the whole log
        try:
            source = await store.last_source(table_id)
        except StoreError:
            self._demote("the database is unreachable")
            await self.bus.release(table_id)
            return
        self.read_after = _stream_id(source) if source else (0, 0)
        self.presence = {}
        for s in self.hub.actor.seats:  # the grace period starts now for seats no node reports
            if s.kind == "human" and s.connections == 0:
                s.away_since = time.time()
        self._refresh_presence()
        await self.bus.start_reading(table_id, source or "0-0")
        seq = self.hub.actor.seq
        log.info(json.dumps({"event": "owner", "table": table_id, "fence": fence, "seq": seq}))
        with contextlib.suppress(RedisError, OSError):
            await self.bus.redis.publish(
                out_key(table_id), json.dumps({"owner": self.bus.node, "f": fence, "sync": seq})
            )

    def _demote(self, reason: str) -> None:
        if self.fence is None:
            return
        said = {"event": "demoted", "table": self.table_id, "fence": self.fence, "reason": reason}
        log.info(json.dumps(said))
        self.fence = None
        self.owner_node = None  # unknown: this node tries the lease again at its next tick
        self.presence = {}
        self.bus.stop_reading(self.table_id)

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
        reply = RedisReply(self, fields["node"], int(fields["cid"]))
        try:
            msg = parse_client(fields["m"])
        except ProtocolError as exc:
            await reply.error(self.hub.actor.seq, exc.code, exc.message)
            return
        await self.hub.decide(role, msg, reply, time.time(), stream_id)

    async def append(self, seq: int, entry: Entry, source: str | None) -> bool:
        """Commit fenced: False when PostgreSQL refused it (this node is a replica again)."""
        table_id = self.table_id
        if self.fence is None:
            return False
        try:
            await self.hub.store.append_fenced(table_id, seq, entry.to_dict(), self.fence, source)
        except (FencedError, ConflictError) as exc:
            # another node claimed the table (a pause or a partition outlived the lease): refused
            # by PostgreSQL; this node becomes a replica again and catches up with the real log
            self.bus.fenced += 1
            log.warning(
                json.dumps(
                    {"event": "fenced", "table": table_id, "fence": self.fence, "seq": seq, "error": str(exc)}
                )
            )
            self._demote("fenced")
            await self._catch_up()
            return False
        return True

    async def committed(self, seq: int, entry: Entry) -> None:
        """Publish the committed entry to every node's replica (with the owner's presence)."""
        table_id = self.table_id
        if self.hub.actor.finished:
            ms, n = self.read_after
            with contextlib.suppress(RedisError, OSError):  # the commands read so far are answered
                await self.bus.redis.xtrim(in_key(table_id), minid=f"{ms}-{n + 1}")
        published = {"seq": seq, "e": entry.to_dict(), "f": self.fence, "o": self.bus.node}
        payload = json.dumps({**published, "p": self._presence_now()}, separators=(",", ":"))
        try:
            await self.bus.redis.publish(out_key(table_id), payload)
        except (RedisError, OSError) as exc:  # the replicas catch up from PostgreSQL
            log.warning(json.dumps({"event": "publish_failed", "table": table_id, "error": str(exc)}))
            self.unsynced = True

    async def _sync(self) -> None:
        """After a failed publish: tell the replicas how far the log goes (they read the rest)."""
        message = json.dumps({"sync": self.hub.actor.seq, "o": self.bus.node})
        try:
            await self.bus.redis.publish(out_key(self.table_id), message)
            self.unsynced = False
        except (RedisError, OSError):
            pass


class RedisBus:
    """A node: Redis, and a :class:`RedisLink` per table it serves."""

    def __init__(self, url: str, *, node_id: str = "", lease_ttl: float = 3.0) -> None:
        self.node = node_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.redis_url = url
        self.redis: Any = aioredis.Redis.from_url(url, decode_responses=True)
        self.blocking: Any = aioredis.Redis.from_url(url, decode_responses=True)
        self.ttl_ms = max(300, int(lease_ttl * 1000))
        self.hubs: HubSet | None = None
        self.links: dict[str, RedisLink] = {}
        self.conns: dict[int, Conn] = {}
        self.reading: dict[str, list[str]] = {}  # owned table -> [the last stream id read]
        self.loading: dict[str, asyncio.Future[TableHub | None]] = {}
        self.subscribing: dict[str, asyncio.Future[None]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.fenced = 0
        self.wake_key = f"ut:node:{self.node}:wake"

    def link(self, hub: TableHub) -> RedisLink:
        link = RedisLink(hub, self)
        self.links[hub.table_id] = link
        return link

    def _hub(self, table_id: str) -> TableHub | None:
        return None if self.hubs is None else self.hubs.hubs.get(table_id)

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self, hubs: HubSet) -> None:
        self.hubs = hubs
        for coro in (self._subscriber(), self._leases(), self._reader(), self._heartbeat()):
            self.tasks.append(asyncio.create_task(coro))
        log.info(json.dumps({"event": "started", "node": self.node, "cluster": True}))

    async def hand_over(self) -> None:
        """Stop renewing: end the background tasks, drop the liveness key and release every lease,
        so that other nodes take the tables over at once (on SIGTERM this runs before the
        sockets are drained, which may take seconds; PostgreSQL's fence still guards the logs).
        Every step may run twice: :meth:`Hubs.stop` runs it again after a hook that timed out."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(RedisError, OSError):  # the other nodes look for new owners now
            await self.redis.delete(alive_key(self.node))
        for link in list(self.links.values()):
            if link.fence is not None:
                link.fence = None
                await self.release(link.table_id)  # the next owner need not wait

    async def close(self) -> None:
        for client in (self.redis, self.blocking):
            with contextlib.suppress(Exception):
                await client.aclose()

    async def load(self, hubs: HubSet, table_id: str) -> TableHub | None:
        hub = hubs.hubs.get(table_id)
        if hub is not None:
            return hub
        pending = self.loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self.loading[table_id] = pending
            try:
                pending.set_result(await self._load(hubs, table_id))
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                del self.loading[table_id]
        return await asyncio.shield(pending)

    async def _load(self, hubs: HubSet, table_id: str) -> TableHub | None:
        # subscribed first, loaded after: what is published from now on arrives, what was committed
        # before is in the load (a replica applies each seq once, in order)
        subscribed = asyncio.get_running_loop().create_future()
        self.subscribing[table_id] = subscribed
        try:
            # (when Redis is away, the reconnection catches the replica up)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(subscribed), SUBSCRIBE_WAIT_S)
            actor = await hubs.stored_actor(table_id)
            if actor is None:
                return None
            hub = hubs.serve(actor)
        finally:
            self.subscribing.pop(table_id, None)
        if not actor.finished:
            await self._try_acquire([self.links[table_id]])
        return hub

    async def created(self, hub: TableHub) -> None:
        await self._try_acquire([self.links[hub.table_id]])

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

    async def _try_acquire(self, links: list[RedisLink]) -> None:
        """Take the lease of each table that has none; then claim it (in its hub's loop)."""
        if not links:
            return
        pipe = self.redis.pipeline(transaction=False)
        for r in links:  # SET NX GET: None when this node took it, else who holds it
            pipe.set(lease_key(r.table_id), self.node, nx=True, px=self.ttl_ms, get=True)
        try:
            results = await pipe.execute()
        except (RedisError, OSError):
            return
        for r, holder in zip(links, results, strict=True):
            if holder is not None and holder != self.node:
                r.owner_node = holder
                continue
            # taken now, or still this node's (it dropped the table, say after a refused append whose
            # first answer was lost): either way a new fence and a claim make it the owner again
            table_id = r.table_id
            r.claiming = True
            try:
                floor = await r.hub.store.fence_of(table_id)
                fence = int(await self.redis.eval(NEXT_FENCE, 1, fence_key(table_id), floor))
            except (RedisError, OSError, StoreError):
                r.claiming = False
                await self.release(table_id)
                continue
            r.hub.signal(Own(fence))

    async def _leases(self) -> None:
        """Every ttl/3: renew the leases held, try those of watched tables nobody holds, and now and
        then take up unfinished tables that no node holds at all."""
        period = self.ttl_ms / 3000
        last_ok = time.monotonic()
        last_scan = 0.0
        while True:
            await asyncio.sleep(period)
            links = list(self.links.values())
            held = [r for r in links if r.fence is not None or r.claiming]
            try:
                if held:
                    pipe = self.redis.pipeline(transaction=False)
                    for r in held:
                        pipe.eval(RENEW, 1, lease_key(r.table_id), self.node, self.ttl_ms)
                    results = await pipe.execute()
                    for r, ok in zip(held, results, strict=True):
                        if not ok and r.fence is not None:
                            r.hub.signal(Lost("lease lost"))
                pipe = self.redis.pipeline(transaction=False)
                pipe.set(alive_key(self.node), "1", px=self.ttl_ms)
                await pipe.execute()
                last_ok = time.monotonic()
                await self._try_acquire(await self._orphans(links))
                if time.monotonic() - last_scan > SCAN_EVERY_S:
                    last_scan = time.monotonic()
                    await self._scan()
            except (RedisError, OSError, StoreError) as exc:
                if time.monotonic() - last_ok > period * 2:  # the lease may have run out
                    for r in held:
                        r.hub.signal(Lost(f"redis: {exc}"))

    async def _orphans(self, links: list[RedisLink]) -> list[RedisLink]:
        """The tables this node serves whose owner is unknown or gone: a node's liveness key
        (``ut:node:N:alive``, renewed with its leases) is checked once for all its tables, so a
        replica costs Redis nothing while its owner lives."""
        free = [r for r in links if r.fence is None and not r.claiming and not r.hub.actor.finished]
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
        hubs = self.hubs
        assert hubs is not None
        ids = [t for t in await hubs.store.unfinished() if t not in hubs.hubs][:200]
        if not ids:
            return
        pipe = self.redis.pipeline(transaction=False)
        for table_id in ids:
            pipe.exists(lease_key(table_id))
        held = await pipe.execute()
        for table_id, exists in zip(ids, held, strict=True):
            if not exists:
                await hubs.hub_for(table_id)  # loads it and tries its lease

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
                hub = self._hub(table_id)
                if mark is None or self.reading.get(table_id) is not mark or hub is None:
                    continue
                for stream_id, fields in messages:
                    mark[0] = stream_id
                    hub.signal(Forwarded(stream_id, fields))

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
                    wanted = set(self.links) | set(asked)
                    new = wanted - subscribed
                    if new:
                        await pubsub.subscribe(*(out_key(t) for t in new))
                        subscribed |= new
                        for t in new:
                            if t in asked:  # a table about to be loaded (after this subscription)
                                if not asked[t].done():
                                    asked[t].set_result(None)
                            else:  # entries published before the subscription: from the log
                                hub = self._hub(t)
                                if hub is not None:
                                    hub.signal(CatchUp())
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
            hub = self._hub(payload["t"])
            if hub is not None:
                hub.signal(Replied(payload["c"], payload["m"]))
            return
        hub = self._hub(_table_of(channel))
        if hub is not None:
            hub.signal(Published(payload))

    async def _heartbeat(self) -> None:
        """This node's presence, to each owner, every few seconds (an owner forgets a silent node)."""
        while True:
            await asyncio.sleep(PRESENCE_EVERY_S)
            for link in list(self.links.values()):
                if link.hub.conns and link.fence is None:
                    link.hub.signal(PresenceTick())
