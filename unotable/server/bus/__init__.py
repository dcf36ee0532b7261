"""How a server's hubs reach their store's log and each other: a :class:`Bus` composed into the hubs.

A hub (:mod:`unotable.server.hub`) is the single writer of one table and knows no socket and no
Redis. What depends on where the table lives is its :class:`Link`, made by the server's bus:

- :mod:`unotable.server.bus.local` (one process): every table is owned here; a client's command is
  decided at once, an entry is appended to the store and told to this process's connections;
- :mod:`unotable.server.bus.redis` (a cluster): a table is owned by the node holding its Redis lease
  (with a fencing token checked by PostgreSQL); commands reach the owner through the table's stream,
  committed entries reach every node's replica through pub/sub, and another node takes a table
  over when its owner dies.

The hub calls its link at each step (a command arrives, an entry is to be stored, a connection
came or went); the link calls the hub back (decide this forwarded command, apply this committed
entry). Nothing subclasses the hub.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from unotable.server.protocol import ClientMsg, ErrorCode

if TYPE_CHECKING:
    from unotable.server.entries import Entry
    from unotable.server.hub import Hub, Hubs
    from unotable.server.outbox import Conn

__all__ = ["Bus", "BusSignal", "Link", "Reply"]


class BusSignal:
    """A command of the bus's own on a hub's queue (a forwarded command, a committed entry, a
    lease won or lost...): the hub hands it to its link, in queue order with the clients' commands."""

    __slots__ = ()


class Reply(Protocol):
    """Where the answer to one command goes (the connection that sent it, here or on another node)."""

    async def error(self, seq: int, code: ErrorCode, message: str) -> None: ...

    async def seated(self, seq: int, seat: int, token: str) -> None:
        """The seat is stored: the sender holds it now, and receives its token (before the update)."""
        ...


class Link(Protocol):
    """One table's way to the store and to the other nodes (made by :meth:`Bus.link`)."""

    @property
    def owner(self) -> bool:
        """Whether this process may write the table now."""
        ...

    def timeout(self, due: float | None) -> float | None:
        """How long the hub's loop may wait for a command, given the actor's next due time."""
        ...

    async def tick(self) -> None:
        """The wait ran out (before a timer's action is decided)."""

    async def submit(self, conn: Conn, msg: ClientMsg, arrived: float) -> None:
        """A client's command (ping and chat limits are checked already)."""

    async def append(self, seq: int, entry: Entry, source: str | None) -> bool:
        """Store the table's entry ``seq``; False when it was refused (nothing is applied then)."""
        ...

    async def committed(self, seq: int, entry: Entry) -> None:
        """The entry is stored, applied and told here: tell the rest of the cluster."""

    def joined(self, conn: Conn) -> None:
        """A connection of this process now holds ``conn.role`` (counted at once, or not)."""

    def left(self, conn: Conn) -> None:
        """A connection of this process gave up ``conn.role``."""

    async def arrived(self, conn: Conn) -> None:
        """A new connection was welcomed (tell whoever counts the connections)."""

    async def presence_changed(self) -> None:
        """Who is connected here changed."""

    async def handle(self, signal: BusSignal) -> None:
        """One of the bus's own commands, taken from the hub's queue."""


class Bus(Protocol):
    """How the hubs of one server process reach the store and each other."""

    def link(self, hub: Hub) -> Link: ...

    async def start(self, hubs: Hubs) -> None:
        """The store is open: start (the local bus rebuilds every unfinished table)."""

    async def load(self, hubs: Hubs, table_id: str) -> Hub | None:
        """The hub of a table this process does not serve yet, from the store (None: no such table)."""
        ...

    async def created(self, hub: Hub) -> None:
        """A table was just created here."""

    async def hand_over(self) -> None:
        """Let other processes take this one's tables now (stopping)."""

    async def close(self) -> None: ...
