"""The hub: one writer per table (queue, decide, commit, apply, tell), knowing no socket and no Redis.

A :class:`Hub` owns one table's queue. Sockets only enqueue (:class:`Connect`, :class:`FromClient`,
:class:`Disconnect`); the hub's task takes the commands one at a time, in arrival order (NET-8),
asks the table actor (:mod:`unotable.server.table`) to decide, has its :class:`~unotable.server.ports.Link`
store the entry (durable before anyone is told), applies it, and has the outbox
(:mod:`unotable.server.outbox`) send every connection its own update. Timers (bots, time-outs,
deals) are commands the hub makes itself when the actor says something is due.

Where the table lives is the link's business (:mod:`unotable.server.bus`, which knows the hub
only by the contracts of :mod:`unotable.server.ports`): in one process every
command is decided here; in a cluster the table's owner decides, and the other nodes' hubs keep a
replica fed by the committed entries. :class:`Hubs` is a server process's set of hubs, with the
store, the bus and the metrics.

>>> from unotable.server.bus.local import LocalBus
>>> from unotable.server.store import open_store
>>> hubs = Hubs(open_store(":memory:"), LocalBus(), Metrics())
>>> hubs.hubs
{}
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from unotable.server import outbox
from unotable.server.entries import Entry, Left, Rematched, Seated, entry_from_dict
from unotable.server.ids import new_table_id, new_token
from unotable.server.mailbox import Mailbox
from unotable.server.outbox import Conn
from unotable.server.ports import Bus, BusSignal, Link, Reply
from unotable.server.protocol import (
    LIMITS,
    Act,
    Chat,
    ClientMsg,
    CloseCode,
    ErrorCode,
    Ping,
    ProtocolError,
    React,
)
from unotable.server.protocol import ReconnectReason as Why
from unotable.server.store import ConflictError, Store, StoreError
from unotable.server.table import Decision, Role, TableActor, TableSettings, new_table_doc

__all__ = ["Command", "Connect", "Disconnect", "FromClient", "Hub", "Hubs", "Metrics"]

log = logging.getLogger("unotable.server")

RETRY_S = 0.5
"""How long a table waits before trying a timed action (a bot's, a time-out) again after it failed."""


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge("unotable_tables", "tables in memory", registry=self.registry)
        self.players = Gauge(
            "unotable_connected_players", "connected websocket clients", registry=self.registry
        )
        self.actions = Counter("unotable_actions", "commands accepted", ["kind"], registry=self.registry)
        self.rejected = Counter("unotable_rejected", "messages refused", ["code"], registry=self.registry)
        self.latency = Histogram(
            "unotable_action_latency_seconds",
            "from a message's arrival to its update sent",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.gc_pauses = Histogram(
            "unotable_gc_pause_seconds",
            "the garbage collector's pauses, by generation (unotable.server.gcpolicy)",
            ["generation"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self._accepted: dict[str, Counter] = {}  # each kind's counter, looked up once
        self.gc_source: Callable[[], Iterable[tuple[int, float, int]]] | None = None
        """Where the garbage collector's pauses come from (``GcPolicy.drain``), read at a scrape."""

    def count_gc_pauses(self, pauses: Iterable[tuple[int, float, int]]) -> None:
        """Put the garbage collector's pauses (``GcPolicy.drain()``) into the histogram."""
        for generation, seconds, _ in pauses:
            self.gc_pauses.labels(str(generation)).observe(seconds)

    def accepted(self, kind: str) -> None:
        """Count one accepted command of ``kind``."""
        child = self._accepted.get(kind)
        if child is None:
            child = self._accepted[kind] = self.actions.labels(kind)
        child.inc()


@dataclass(frozen=True, slots=True)
class Connect:
    """A client said hello: welcome it (``last_seq``: what it saw last)."""

    conn: Conn
    last_seq: int | None


@dataclass(frozen=True, slots=True)
class Disconnect:
    conn: Conn


@dataclass(frozen=True, slots=True)
class FromClient:
    """A client's message (parsed; never a hello)."""

    conn: Conn
    msg: ClientMsg
    arrived: float
    done: asyncio.Future[None] | None = None


Command = Connect | Disconnect | FromClient | BusSignal
"""What a hub's queue holds."""


class Hub:
    """The single writer of one table (and, in a cluster, its replica on this node)."""

    def __init__(self, actor: TableActor, store: Store, metrics: Metrics, bus: Bus) -> None:
        self.actor = actor
        self.store = store
        self.metrics = metrics
        self.queue: Mailbox[Command] = Mailbox()
        self.conns: set[Conn] = set()
        self.task: asyncio.Task[None] | None = None
        self._presence_told: object = None  # who was connected, as last told to the clients
        self.link: Link = bus.link(self)

    @property
    def table_id(self) -> str:
        return self.actor.table_id

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    # -- the loop ------------------------------------------------------------------------------

    async def _run(self) -> None:
        queue = self.queue
        while True:
            timeout = self.link.timeout(self.actor.next_due())
            try:  # (no wait_for: it makes a task per command)
                if not queue.empty():
                    cmd = queue.get_nowait()
                elif timeout is None:
                    cmd = await queue.get()
                else:
                    async with asyncio.timeout(timeout):
                        cmd = await queue.get()
            except TimeoutError:
                await self.link.tick()
                due = self.actor.next_due()
                if self.link.owner and due is not None and due <= time.time():
                    await self._timed()
                continue
            await self._serve(cmd)

    async def _timed(self) -> None:
        """Whatever a timer makes due now (a bot's action, a time-out, a deal), committed."""
        try:
            # a bot may think for a while (ismcts): off the event loop, while this table's
            # writer waits for it, so the other tables and every socket go on
            decision = await asyncio.to_thread(self.actor.due, time.time())
            if decision is not None and self.link.owner:  # (still the owner after the bot thought)
                await self.commit(decision, None, None)
        except Exception as exc:  # the store failed (a dropped connection) or a bot did:
            # the table lives on and decides again in a moment
            log.exception("table %s: a timed action failed: %r", self.table_id, exc)
            await asyncio.sleep(RETRY_S)

    async def _serve(self, cmd: Command) -> None:
        """Handle one queued command; a bug answers the sender and never stops the table."""
        try:
            if isinstance(cmd, FromClient):
                await self._from_client(cmd.conn, cmd.msg, cmd.arrived)
            elif isinstance(cmd, Connect):
                await self._connect(cmd.conn, cmd.last_seq)
            elif isinstance(cmd, Disconnect):
                await self._disconnect(cmd.conn)
            else:
                await self.link.handle(cmd)
        except Exception:  # pragma: no cover - a bug must not stop the table
            log.exception("table %s: command failed", self.table_id)
            if isinstance(cmd, FromClient):
                self.refuse(cmd.conn, ErrorCode.INVALID, "the server could not handle that message")
        finally:
            if isinstance(cmd, FromClient) and cmd.done is not None and not cmd.done.done():
                cmd.done.set_result(None)

    # -- connections -----------------------------------------------------------------------------

    async def _connect(self, conn: Conn, last_seq: int | None) -> None:
        if conn.role.seat is not None:  # a second tab takes the seat over cleanly
            self.take_over(conn.role.seat)
        self.conns.add(conn)
        self.link.joined(conn)
        outbox.welcome(self.actor, conn, last_seq, time.time())
        await self.link.arrived(conn)

    def signal(self, signal: BusSignal) -> None:
        """Queue one of the bus's own commands (its link handles it, in order with the clients')."""
        self.queue.put_nowait(signal)

    def take_over(self, seat: int) -> None:
        """Close this process's connections on ``seat`` (a new one holds it now)."""
        for other in [c for c in self.conns if c.role.seat == seat]:
            outbox.reconnect(other, self.actor.seq, Why.TAKEN_OVER)
            other.close(CloseCode.TAKEN_OVER)
            self.conns.discard(other)
            self.link.left(other)

    async def _disconnect(self, conn: Conn) -> None:
        if conn in self.conns:  # (a tab taken over was let go already: not counted twice)
            self.conns.discard(conn)
            self.link.left(conn)
            await self.link.presence_changed()

    def refuse(self, conn: Conn, code: ErrorCode, message: str) -> None:
        self.metrics.rejected.labels(code.value).inc()
        outbox.error(conn, self.actor.seq, code, message)

    def tell_presence(self) -> None:
        """Tell every connection who is connected and how many watch, when that changed."""
        now = self._presence()
        if now == self._presence_told:
            return
        self._presence_told = now
        outbox.presence(self.actor, self.conns, time.time())

    def _presence(self) -> object:
        return ([(s.kind, s.connections > 0) for s in self.actor.seats], self.actor.spectators)

    def notify_shutdown(self) -> None:
        """Tell every client to reconnect (the server is stopping); their sockets close after."""
        for conn in self.conns:
            outbox.reconnect(conn, self.actor.seq, Why.RESTART)
            conn.close()

    # -- commands --------------------------------------------------------------------------------

    async def _from_client(self, conn: Conn, msg: ClientMsg, arrived: float) -> None:
        if isinstance(msg, Ping):
            outbox.pong(conn, self.actor.seq)
            return
        if isinstance(msg, Chat) and not conn.chats.allow():
            self.refuse(
                conn, ErrorCode.RATE_LIMITED, f"at most {LIMITS.chats_per_second:g} chat line per second"
            )
            return
        if isinstance(msg, React) and not conn.reactions.allow():
            self.refuse(
                conn, ErrorCode.RATE_LIMITED,
                f"at most {LIMITS.reaction_burst} reactions at once, then one every "
                f"{1 / LIMITS.reactions_per_second:g} seconds",
            )
            return
        await self.link.submit(conn, msg, arrived)

    async def decide(
        self, role: Role, msg: ClientMsg, reply: Reply, arrived: float, source: str | None = None
    ) -> None:
        """Decide a client's command (on the table's owner) and commit what it makes."""
        actor = self.actor
        back = actor.back_from_autopilot(role.seat) if isinstance(msg, Act) else None
        if back is not None and not await self.commit(back, None, None):
            return
        try:
            decision = actor.decide(role, msg, time.time())
        except ProtocolError as exc:
            await reply.error(actor.seq, exc.code, exc.message)
            return
        if decision is None:
            return
        if await self.commit(decision, reply, source):
            self.metrics.latency.observe(time.time() - arrived)

    async def commit(self, decision: Decision, reply: Reply | None, source: str | None) -> bool:
        """Store the decision's entry, then apply it and tell everyone (the sender its token first):
        True when it was stored."""
        seq = self.actor.seq + 1
        entry = decision.entry
        if not await self.link.append(seq, entry, source):
            return False
        if decision.token is not None and reply is not None and isinstance(entry, Seated):
            await reply.seated(seq, entry.seat, decision.token)
        await self.apply(entry)
        await self._stored_status(entry)
        await self.link.committed(seq, entry)
        return True

    async def _stored_status(self, entry: Entry) -> None:
        status = "finished" if self.actor.finished else "open" if isinstance(entry, Rematched) else None
        if status is None:
            return
        try:
            await self.store.set_status(self.table_id, status)  # a rematch is rebuilt after a restart
        except StoreError as exc:
            log.warning(json.dumps({"event": "status_failed", "table": self.table_id, "error": str(exc)}))

    async def apply(self, entry: Entry) -> None:
        """Apply a stored entry and send every connection of this process its own update."""
        actor = self.actor
        before = actor.public()
        actor.apply(entry, time.time())
        self.metrics.accepted(entry.kind)
        changed = before != actor.public()
        demoted = []
        if isinstance(entry, Left):  # the seat's connections (a leaver, a kicked player) now watch
            for other in [c for c in self.conns if c.role.seat == entry.seat]:
                self.link.left(other)
                other.role = Role(None, other.role.host)
                self.link.joined(other)
                demoted.append(other)
        if outbox.updates(actor, self.conns, entry, changed, time.time()):
            self._presence_told = self._presence()
        for other in demoted:
            outbox.welcome(actor, other, None, time.time())
        if demoted:
            await self.link.presence_changed()

    async def catch_up(self) -> None:
        """Apply, in order, every stored entry this hub has not (:class:`StoreError` passes)."""
        stored = await self.store.load(self.table_id)
        if stored is None:
            return
        for doc in stored.entries[self.actor.seq :]:
            await self.apply(entry_from_dict(doc))


class Hubs:
    """A server process's hubs by table id, with its store, its bus and its metrics."""

    def __init__(self, store: Store, bus: Bus, metrics: Metrics, *, max_tables: int = 10_000) -> None:
        self.store = store
        self.bus = bus
        self.metrics = metrics
        self.max_tables = max_tables
        self.hubs: dict[str, Hub] = {}
        self.notified = False

    async def start(self) -> None:
        await self.store.open()
        await self.bus.start(self)

    def notify_shutdown(self) -> None:
        """Tell every client to reconnect, before the sockets are closed (see run.py)."""
        if self.notified:
            return
        self.notified = True
        for hub in self.hubs.values():
            hub.notify_shutdown()

    async def hand_over(self) -> None:
        await self.bus.hand_over()

    async def stop(self) -> None:
        self.notify_shutdown()
        await asyncio.sleep(0.2)  # let the writers flush the reconnect notices
        await self.bus.hand_over()
        for hub in self.hubs.values():
            await hub.stop()
        await self.bus.close()
        await self.store.close()

    def connections(self) -> int:
        return sum(len(h.conns) for h in self.hubs.values())

    async def hub_for(self, table_id: str) -> Hub | None:
        """The hub of a table this process serves, or None. A table not served yet (a finished one,
        which a restart does not rebuild; in a cluster, one another node owns) is loaded from the
        store on demand."""
        hub = self.hubs.get(table_id)
        if hub is None and await self.bus.load(self, table_id) is not None:
            hub = self.hubs.get(table_id)  # (the bus served it: Hubs.serve)
        return hub

    async def stored_actor(self, table_id: str) -> TableActor | None:
        """A table rebuilt from its stored log (None when the store has no such table)."""
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        actor = TableActor(table_id, stored.doc)
        actor.replay([entry_from_dict(e) for e in stored.entries], time.time())
        return actor

    def serve(self, actor: TableActor) -> Hub:
        """Start the hub of ``actor`` (the one already serving it, when another request won)."""
        hub = self.hubs.get(actor.table_id)
        if hub is not None:
            return hub
        hub = Hub(actor, self.store, self.metrics, self.bus)
        self.hubs[actor.table_id] = hub
        hub.start()
        self.metrics.tables.set(len(self.hubs))
        return hub

    async def create(self, settings: TableSettings, bots: dict[int, str]) -> tuple[str, str]:
        """A new table: its id and its host token (sent once)."""
        if len(self.hubs) >= self.max_tables:
            raise ProtocolError(ErrorCode.RATE_LIMITED, "the server holds as many tables as it may")
        host = new_token()
        doc = new_table_doc(settings, host, bots)
        while True:
            table_id = new_table_id()
            try:
                await self.store.create_table(table_id, doc, time.time())
                break
            except ConflictError:  # pragma: no cover - 96 random bits
                continue
        hub = self.serve(TableActor(table_id, doc))
        await self.bus.created(hub)
        log.info(json.dumps({"event": "table_created", "table": table_id, "preset": settings.preset}))
        return table_id, host
