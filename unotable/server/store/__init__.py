"""Persistence for the online tables: one small interface, SQLite or PostgreSQL behind it.

A table is a row (its id, when it was created, its status, and ``doc``: whatever the server needs
to rebuild it, as JSON) plus its log: one entry per accepted command, numbered ``seq`` 1, 2, 3...
by the table's single writer. :meth:`Store.append` returns only once the entry is committed
(durable), so the server tells nobody about a command before it is stored; the primary key on
``(table_id, seq)`` refuses a second append with the same number (:class:`ConflictError`).

:func:`open_store` picks the backend from a URL::

    store = open_store(None, directory=data_dir)    # SQLite, data_dir / "unotable.db"
    store = open_store("sqlite:////var/lib/unotable/tables.db")
    store = open_store("postgresql://user@localhost:5432/unotable")
    await store.open()                              # connects and applies the migrations
    ...
    await store.close()

Both backends keep the same schema (numbered SQL files in ``migrations/<backend>/``, applied in
order at :meth:`Store.open` and recorded in ``schema_version``) and behave the same. What comes
back from :meth:`Store.load` is equal (``==``) to what was stored, but callers must not rely on
two details PostgreSQL's JSONB does not keep: the order of an object's keys, and the type of a
float with no fraction that ``json`` writes with an exponent (``1e+16`` comes back as the int
``10000000000000000``). Neither backend stores the character U+0000 in JSON: PostgreSQL's JSONB
refuses it, and the SQLite backend refuses it too (:class:`StoreError`), so both agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "StoreError",
    "ConflictError",
    "FencedError",
    "StoredTable",
    "Store",
    "STATUSES",
    "open_store",
]

#: The statuses a table can have. ``open`` tables are rebuilt when the server starts.
STATUSES = ("open", "finished", "abandoned")


class StoreError(Exception):
    """The backend failed: unreachable, refused the statement, or the data cannot be stored."""


class ConflictError(StoreError):
    """An insert whose key already exists: a table id already taken, or a ``(table_id, seq)`` appended
    before (the constraint refused it, so the existing row is unchanged)."""


class FencedError(StoreError):
    """A fenced write refused by the database (cluster only, see docs/scaling.md): the fencing token
    is not the table's current one (another node has claimed the table since), or a claim with a
    token not above the current fence. ``current`` is the table's fence when it is known."""

    def __init__(self, message: str, current: int | None = None) -> None:
        super().__init__(message)
        self.current = current


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its row and its log entries ordered by ``seq`` (each the dict appended)."""

    table_id: str
    created: float
    doc: dict[str, Any]
    status: str
    entries: list[dict[str, Any]]


@runtime_checkable
class Store(Protocol):
    """What the server needs from a database. Every method may raise :class:`StoreError`."""

    async def open(self) -> None:
        """Connect and apply the pending migrations (idempotent: a second open applies nothing)."""

    async def close(self) -> None:
        """Release the connection(s). Safe to call twice or without :meth:`open`."""

    async def create_table(self, table_id: str, doc: dict[str, Any], created: float) -> None:
        """Store a new table with status ``open``. :class:`ConflictError` if the id exists."""

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Add one log entry, committed before this returns. :class:`ConflictError` if the table
        already has an entry ``seq``; :class:`StoreError` if the table does not exist."""

    async def set_status(self, table_id: str, status: str) -> None:
        """Set the status (one of :data:`STATUSES`). :class:`StoreError` if the table does not exist."""

    async def load(self, table_id: str) -> StoredTable | None:
        """The table and its whole log, or None when there is no such table."""

    async def unfinished(self) -> list[str]:
        """Ids of the tables whose status is ``open``, oldest (``created``) first."""

    async def delete_older_than(self, cutoff: float) -> int:
        """Delete finished and abandoned tables created before ``cutoff`` (with their logs);
        return how many tables were deleted. Open tables are never deleted."""

    # -- the cluster's fenced writes (PostgreSQL only; SQLite raises StoreError) ----------------

    async def claim(self, table_id: str, fence: int) -> None:
        """Raise the table's fence to ``fence`` (a new owner, before it replays the table); from then
        on only :meth:`append_fenced` with this token may write. :class:`FencedError` when the table's
        fence is already ``fence`` or higher (its ``current`` says which)."""

    async def fence_of(self, table_id: str) -> int:
        """The table's current fence (0 when no cluster ever claimed it)."""

    async def append_fenced(
        self, table_id: str, seq: int, entry: dict[str, Any], fence: int, source: str | None = None
    ) -> None:
        """:meth:`append` for the owner holding ``fence``: the database refuses it
        (:class:`FencedError`) unless ``fence`` is the table's current fence, and (:class:`ConflictError`)
        unless ``seq`` is the next entry. ``source`` is the id of the stream message it answers."""

    async def last_source(self, table_id: str) -> str | None:
        """The newest ``source`` appended for the table (where a new owner resumes its stream)."""


DEFAULT_SQLITE_FILE = "unotable.db"


def open_store(url: str | None, *, directory: Path | None = None) -> Store:
    """The store for ``url`` (not opened yet: call :meth:`Store.open`).

    - None or "": SQLite in ``directory / "unotable.db"`` (``directory`` defaults to the current directory);
    - ``sqlite:///path/file.db`` (relative path) or ``sqlite:////abs/path/file.db``, or a bare path:
      SQLite in that file; a relative path is taken from ``directory`` when given, else from the
      current directory; ``:memory:`` is a private in-memory database;
    - ``postgresql://...`` or ``postgres://...``: PostgreSQL (any libpq-style URL asyncpg accepts).

    >>> open_store("mysql://localhost/db")
    Traceback (most recent call last):
    ...
    ValueError: unsupported database URL scheme 'mysql://': use sqlite:///path/file.db, ...
    """
    base = directory if directory is not None else Path.cwd()
    if url is None or not url.strip():
        from unotable.server.store.sqlite import SQLiteStore

        return SQLiteStore(base / DEFAULT_SQLITE_FILE)
    lowered = url.lower()
    if lowered.startswith(("postgresql://", "postgres://")):
        from unotable.server.store.postgres import PostgresStore

        return PostgresStore(url)
    if lowered.startswith("sqlite:"):
        if not lowered.startswith("sqlite:///") or len(url) == len("sqlite:///"):
            raise ValueError(
                f"malformed SQLite URL {url!r}: use sqlite:///relative/file.db or sqlite:////absolute/file.db"
            )
        path_text = url[len("sqlite:///") :]
    elif "://" in url:
        scheme = url.split("://", 1)[0]
        raise ValueError(
            f"unsupported database URL scheme {scheme + '://'!r}: "
            "use sqlite:///path/file.db, a file path, or postgresql://..."
        )
    else:
        path_text = url
    from unotable.server.store.sqlite import SQLiteStore

    if path_text == ":memory:":
        return SQLiteStore(path_text)
    path = Path(path_text).expanduser()
    return SQLiteStore(path if path.is_absolute() else base / path)
