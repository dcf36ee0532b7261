"""The bus of one server process: every table is owned here, nobody else writes its log.

A client's command is decided at once by the table's hub; its entry is appended to the store (a
conflict means that an earlier append committed although its answer was lost: the entries stored
but not applied are applied now, and the command is refused); the connections counted are this
process's. On start every unfinished table is rebuilt from its log.

>>> LocalBus().node
'local'
"""

from __future__ import annotations

import json
import logging
import time

from unotable.server import outbox
from unotable.server.entries import Entry, entry_from_dict
from unotable.server.outbox import Conn
from unotable.server.ports import BusSignal, HubSet, TableHub
from unotable.server.protocol import ClientMsg, ErrorCode
from unotable.server.store import ConflictError
from unotable.server.table import Role

__all__ = ["LocalBus", "LocalLink", "LocalReply"]

log = logging.getLogger("unotable.server")


class LocalReply:
    """The answer to a command of one of this process's connections."""

    __slots__ = ("conn", "hub")

    def __init__(self, hub: TableHub, conn: Conn) -> None:
        self.hub = hub
        self.conn = conn

    async def error(self, seq: int, code: ErrorCode, message: str) -> None:
        self.hub.refuse(self.conn, code, message)

    async def seated(self, seq: int, seat: int, token: str) -> None:
        conn = self.conn
        if conn not in self.hub.conns:
            return
        self.hub.link.left(conn)
        conn.role = Role(seat, conn.role.host)
        self.hub.link.joined(conn)
        outbox.token(conn, seq, seat, token)  # (the update that follows tells the table)


class LocalLink:
    """A table of this process: always its owner."""

    owner = True

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub

    def timeout(self, due: float | None) -> float | None:
        return None if due is None else max(0.0, due - time.time())

    async def tick(self) -> None:
        pass

    async def submit(self, conn: Conn, msg: ClientMsg, arrived: float) -> None:
        await self.hub.decide(conn.role, msg, LocalReply(self.hub, conn), arrived)

    async def append(self, seq: int, entry: Entry, source: str | None) -> bool:
        """Store the table's next entry. A commit whose answer was lost (the database connection
        dropped after it committed) shows up as a conflict on the next append: the entries stored
        but not applied here are applied (and told) now; the append is done when the entry is the
        one stored, else it fails (the command is refused, a timed action is decided again)."""
        hub = self.hub
        doc = entry.to_dict()
        try:
            await hub.store.append(hub.table_id, seq, doc)
        except ConflictError:
            stored = await hub.store.load(hub.table_id)
            behind = [] if stored is None else stored.entries[hub.actor.seq :]
            if behind == [doc]:
                return True
            for missed in behind:
                await hub.apply(entry_from_dict(missed))
            raise
        return True

    async def committed(self, seq: int, entry: Entry) -> None:
        pass

    def joined(self, conn: Conn) -> None:
        self.hub.actor.connected(conn.role.seat, time.time())

    def left(self, conn: Conn) -> None:
        self.hub.actor.disconnected(conn.role.seat, time.time())

    async def arrived(self, conn: Conn) -> None:
        self.hub.tell_presence()

    async def presence_changed(self) -> None:
        self.hub.tell_presence()

    async def handle(self, signal: BusSignal) -> None:  # pragma: no cover - the local bus sends none
        raise TypeError(f"the local bus has no signal {signal!r}")


class LocalBus:
    """One process: its hubs, and nothing else."""

    node = "local"

    def link(self, hub: TableHub) -> LocalLink:
        return LocalLink(hub)

    async def start(self, hubs: HubSet) -> None:
        for table_id in await hubs.store.unfinished():
            actor = await hubs.stored_actor(table_id)
            if actor is not None:
                hubs.serve(actor)
        log.info(json.dumps({"event": "started", "tables_rebuilt": len(hubs.hubs)}))

    async def load(self, hubs: HubSet, table_id: str) -> TableHub | None:
        actor = await hubs.stored_actor(table_id)
        return None if actor is None else hubs.serve(actor)

    async def created(self, hub: TableHub) -> None:
        pass

    async def hand_over(self) -> None:
        """A single server has nobody to hand its tables to."""

    async def close(self) -> None:
        pass
