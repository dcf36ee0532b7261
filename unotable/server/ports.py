"""The contracts between a table's hub and the server's bus, declared on neither side.

The hub (:mod:`unotable.server.hub`) needs a bus: a :class:`Bus` makes each table's :class:`Link`
(its way to the store and to the other nodes), a :class:`Reply` carries the answer to one command,
and a :class:`BusSignal` is a command of the bus's own on a hub's queue. A bus
(:mod:`unotable.server.bus`) needs a hub back: :class:`TableHub` is what a link may ask of its
table's hub (decide this forwarded command, apply this committed entry, take this signal), and
:class:`HubSet` what a bus may ask of the server's hubs (serve a table rebuilt from the store).

Both sides import this module and neither imports the other, not even for type hints: the hub
satisfies :class:`TableHub` and :class:`HubSet` by its shape, the buses :class:`Bus` and
:class:`Link` by theirs (mypy checks both where they meet: ``Hubs(store, LocalBus(), ...)``).

>>> from unotable.server.bus.local import LocalBus
>>> from unotable.server.hub import Hubs, Metrics
>>> from unotable.server.store import open_store
>>> hubs: HubSet = Hubs(open_store(":memory:"), LocalBus(), Metrics())
>>> dict(hubs.hubs)
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from unotable.server.entries import Entry
from unotable.server.outbox import Conn
from unotable.server.protocol import ClientMsg, ErrorCode
from unotable.server.store import Store
from unotable.server.table import Role, TableActor

__all__ = ["Bus", "BusSignal", "HubSet", "Link", "Reply", "TableHub"]


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


class TableHub(Protocol):
    """What a link may ask of its table's hub (:class:`unotable.server.hub.Hub`)."""

    @property
    def table_id(self) -> str: ...

    @property
    def actor(self) -> TableActor:
        """The table (a link reads it: its seats, its seq; it never applies an entry itself)."""
        ...

    @property
    def store(self) -> Store: ...

    @property
    def conns(self) -> set[Conn]:
        """This process's connections to the table."""
        ...

    @property
    def link(self) -> Link: ...

    def signal(self, signal: BusSignal) -> None:
        """Queue one of the bus's own commands (handed back to the link, in queue order)."""

    def refuse(self, conn: Conn, code: ErrorCode, message: str) -> None:
        """Tell one of this process's connections that its command was refused."""

    def tell_presence(self) -> None:
        """Tell every connection here who is connected, if that changed."""

    def take_over(self, seat: int) -> None:
        """Another connection took ``seat`` over: close this process's connections to it."""

    async def decide(
        self, role: Role, msg: ClientMsg, reply: Reply, arrived: float, source: str | None = None
    ) -> None:
        """Decide a command (on the table's owner) and commit what it makes."""

    async def apply(self, entry: Entry) -> None:
        """Apply a stored entry and tell this process's connections."""

    async def catch_up(self) -> None:
        """Apply every stored entry this hub has not."""


class HubSet(Protocol):
    """What a bus may ask of the server's hubs (:class:`unotable.server.hub.Hubs`)."""

    @property
    def store(self) -> Store: ...

    @property
    def hubs(self) -> Mapping[str, TableHub]:
        """The tables this process serves, by id."""
        ...

    async def hub_for(self, table_id: str) -> TableHub | None:
        """The hub of a table, loaded from the store when it is not served yet."""
        ...

    async def stored_actor(self, table_id: str) -> TableActor | None:
        """A table rebuilt from its stored log (None: no such table)."""
        ...

    def serve(self, actor: TableActor) -> TableHub:
        """Start serving ``actor`` (the hub already serving it, when another request won)."""
        ...


class Bus(Protocol):
    """How the hubs of one server process reach the store and each other."""

    def link(self, hub: TableHub) -> Link: ...

    async def start(self, hubs: HubSet) -> None:
        """The store is open: start (the local bus rebuilds every unfinished table)."""

    async def load(self, hubs: HubSet, table_id: str) -> TableHub | None:
        """The hub of a table this process does not serve yet, from the store (None: no such table)."""
        ...

    async def created(self, hub: TableHub) -> None:
        """A table was just created here."""

    async def hand_over(self) -> None:
        """Let other processes take this one's tables now (stopping)."""

    async def close(self) -> None: ...
