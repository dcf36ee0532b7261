"""The PostgreSQL store: asyncpg with a small connection pool, JSON in JSONB columns.

Every write is one statement in autocommit or one explicit transaction, so it is committed (and,
with PostgreSQL's default ``synchronous_commit=on``, flushed to the WAL on disk) before the call
returns. Migrations run in one transaction under an advisory lock, so servers starting together
against one database apply each migration once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from unotable.server.store import ConflictError, FencedError, StoredTable, StoreError
from unotable.server.store._common import (
    SCHEMA_VERSION_DDL,
    check_known,
    check_seq,
    check_status,
    decode_json,
    encode_json,
    migrations,
)

__all__ = ["PostgresStore", "redact_url"]

POOL_MIN_SIZE = 1
POOL_MAX_SIZE = 4
CONNECT_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 10.0

# pg_advisory_xact_lock key held while migrating: the bytes of "unotable" as a bigint.
MIGRATION_LOCK_KEY = int.from_bytes(b"unotable", "big")

# The SQLSTATEs of migrations/postgres/0002_fencing.sql's trigger.
FENCED_STATE = "UTF01"
NOT_NEXT_STATE = "UTS01"


def redact_url(url: str) -> str:
    """``url`` without its password, for messages and logs.

    >>> redact_url("postgresql://alice:s3cret@db.example:5432/unotable")
    'postgresql://alice:***@db.example:5432/unotable'
    >>> redact_url("postgres://localhost/test")
    'postgres://localhost/test'
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable database URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))


def _count(status: str) -> int:
    """The row count of a command status such as ``"UPDATE 1"`` or ``"DELETE 3"``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


async def _keep_session(conn: Any) -> None:
    """The pool's reset of a released connection: nothing beyond asyncpg's own (an open transaction
    rolled back). This store sets no session state (no SET, LISTEN, cursor or session-level lock:
    the migrations' lock is a transaction's), so the default reset query, a second round trip and
    a second transaction after every append, has nothing to undo."""
    del conn


class PostgresStore:
    """A :class:`~unotable.server.store.Store` in a PostgreSQL database."""

    def __init__(self, url: str, *, min_size: int = POOL_MIN_SIZE, max_size: int = POOL_MAX_SIZE) -> None:
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self._pool: Any = None  # asyncpg.Pool (asyncpg has no type hints)

    def __repr__(self) -> str:
        return f"PostgresStore({redact_url(self.url)!r})"

    # ------------------------------------------------------------------ plumbing

    @asynccontextmanager
    async def _errors(self, conflict: str = "") -> AsyncIterator[None]:
        try:
            yield
        except asyncpg.PostgresError as exc:
            state = getattr(exc, "sqlstate", None)
            if state == FENCED_STATE:  # migrations/postgres/0002_fencing.sql's trigger
                raise FencedError(str(exc)) from exc
            if state == NOT_NEXT_STATE or isinstance(exc, asyncpg.UniqueViolationError):
                raise ConflictError(conflict or str(exc)) from exc
            if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
                raise StoreError(f"PostgreSQL refused the statement: {exc}") from exc
            raise StoreError(f"PostgreSQL failed ({redact_url(self.url)}): {exc}") from exc
        except (asyncpg.InterfaceError, OSError) as exc:
            # OSError includes TimeoutError and refused connections.
            raise StoreError(f"PostgreSQL failed ({redact_url(self.url)}): {exc}") from exc

    def _require_pool(self) -> Any:
        if self._pool is None:
            raise StoreError(f"{self!r} is not open")
        return self._pool

    async def _migrate(self, conn: Any) -> None:
        known = migrations("postgres")
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
            await conn.execute(SCHEMA_VERSION_DDL)
            applied = {row["version"] for row in await conn.fetch("SELECT version FROM schema_version")}
            check_known(applied, known, redact_url(self.url))
            for migration in known:
                if migration.version in applied:
                    continue
                await conn.execute(migration.sql)  # no arguments: several statements allowed
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    time.time(),
                )

    # ------------------------------------------------------------------ the Store interface

    async def open(self) -> None:
        if self._pool is not None:
            return
        async with self._errors():
            pool = await asyncpg.create_pool(
                self.url,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=CONNECT_TIMEOUT_S,
                reset=_keep_session,
            )
            try:
                async with pool.acquire() as conn:
                    await self._migrate(conn)
            except BaseException:
                pool.terminate()
                raise
        self._pool = pool

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), CLOSE_TIMEOUT_S)
        except TimeoutError:
            pool.terminate()

    async def create_table(self, table_id: str, doc: dict[str, Any], created: float) -> None:
        text = encode_json(doc, "doc")
        pool = self._require_pool()
        async with self._errors(conflict=f"table {table_id!r} already exists"):
            await pool.execute(
                "INSERT INTO tables (table_id, created, status, doc) VALUES ($1, $2, 'open', $3::jsonb)",
                table_id,
                float(created),
                text,
            )

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        check_seq(seq)
        text = encode_json(entry, "entry")
        pool = self._require_pool()
        async with self._errors(conflict=f"table {table_id!r} already has entry {seq}"):
            await pool.execute(
                "INSERT INTO table_log (table_id, seq, entry) VALUES ($1, $2, $3::jsonb)", table_id, seq, text
            )

    async def set_status(self, table_id: str, status: str) -> None:
        check_status(status)
        pool = self._require_pool()
        async with self._errors():
            result = await pool.execute("UPDATE tables SET status = $1 WHERE table_id = $2", status, table_id)
        if _count(result) == 0:
            raise StoreError(f"no table {table_id!r}")

    async def load(self, table_id: str) -> StoredTable | None:
        pool = self._require_pool()
        async with (
            self._errors(),
            pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            row = await conn.fetchrow(
                "SELECT created, status, doc::text AS doc FROM tables WHERE table_id = $1", table_id
            )
            if row is None:
                return None
            entries = await conn.fetch(
                "SELECT entry::text AS entry FROM table_log WHERE table_id = $1 ORDER BY seq", table_id
            )
        return StoredTable(
            table_id=table_id,
            created=float(row["created"]),
            doc=decode_json(row["doc"], "doc"),
            status=str(row["status"]),
            entries=[decode_json(r["entry"], "entry") for r in entries],
        )

    async def unfinished(self) -> list[str]:
        pool = self._require_pool()
        async with self._errors():
            # COLLATE "C": ties on created ordered by code point, as SQLite does.
            rows = await pool.fetch(
                "SELECT table_id FROM tables WHERE status = 'open' ORDER BY created, table_id COLLATE \"C\""
            )
        return [str(row["table_id"]) for row in rows]

    async def delete_older_than(self, cutoff: float) -> int:
        pool = self._require_pool()
        condition = "status IN ('finished', 'abandoned') AND created < $1"
        async with self._errors(), pool.acquire() as conn, conn.transaction():
            await conn.execute(
                f"DELETE FROM table_log WHERE table_id IN (SELECT table_id FROM tables WHERE {condition})",
                float(cutoff),
            )
            result = await conn.execute(f"DELETE FROM tables WHERE {condition}", float(cutoff))
        return _count(str(result))

    # ------------------------------------------------------------------ the cluster's fenced writes

    async def claim(self, table_id: str, fence: int) -> None:
        pool = self._require_pool()
        async with self._errors(), pool.acquire() as conn, conn.transaction():
            raised = await conn.fetchval(
                "INSERT INTO table_fence (table_id, fence) VALUES ($1, $2) "
                "ON CONFLICT (table_id) DO UPDATE SET fence = EXCLUDED.fence "
                "WHERE table_fence.fence < EXCLUDED.fence RETURNING fence",
                table_id,
                fence,
            )
            if raised is None:
                current = await conn.fetchval("SELECT fence FROM table_fence WHERE table_id = $1", table_id)
        if raised is None:
            raise FencedError(f"table {table_id!r}: fence {fence} is not above {current}", current)

    async def fence_of(self, table_id: str) -> int:
        pool = self._require_pool()
        async with self._errors():
            value = await pool.fetchval("SELECT fence FROM table_fence WHERE table_id = $1", table_id)
        return int(value or 0)

    async def append_fenced(
        self, table_id: str, seq: int, entry: dict[str, Any], fence: int, source: str | None = None
    ) -> None:
        check_seq(seq)
        text = encode_json(entry, "entry")
        pool = self._require_pool()
        async with self._errors(conflict=f"table {table_id!r} already has entry {seq}"):
            await pool.execute(
                "INSERT INTO table_log (table_id, seq, entry, fence, source)"
                " VALUES ($1, $2, $3::jsonb, $4, $5)",
                table_id,
                seq,
                text,
                fence,
                source,
            )

    async def last_source(self, table_id: str) -> str | None:
        pool = self._require_pool()
        async with self._errors():
            value = await pool.fetchval(
                "SELECT source FROM table_log WHERE table_id = $1 AND source IS NOT NULL "
                "ORDER BY seq DESC LIMIT 1",
                table_id,
            )
        return None if value is None else str(value)
