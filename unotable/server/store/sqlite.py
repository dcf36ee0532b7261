"""The SQLite store: the standard library's sqlite3, one file, WAL mode.

One connection, used only from one dedicated worker thread (:class:`_Worker`), so calls are
serialised in arrival order and never block the event loop. The connection runs in autocommit
mode with explicit transactions where a call makes several statements. ``journal_mode=WAL`` lets
readers in other processes work while this one writes; ``synchronous=FULL`` makes every commit
reach the disk (the WAL is synced) before :meth:`SQLiteStore.append` returns. ``synchronous=NORMAL``
would only keep the database consistent, and could lose the last commits on power loss after the
server had announced them.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from unotable.server.store import ConflictError, StoredTable, StoreError
from unotable.server.store._common import (
    SCHEMA_VERSION_DDL,
    check_known,
    check_seq,
    check_status,
    decode_json,
    encode_json,
    migrations,
)

__all__ = ["SQLiteStore", "split_statements"]

T = TypeVar("T")

# Seconds between two checkpoints of the write-ahead log into the database file.
CHECKPOINT_S = 2.0

# Seconds a statement waits for another process's write lock before failing.
BUSY_TIMEOUT_S = 10.0

_UNIQUE_ERRORS = {"SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"}


def split_statements(script: str) -> list[str]:
    """The SQL statements of ``script``, each whole (``;`` inside strings, comments or triggers does
    not split), comments-only remainders dropped.

    >>> split_statements("CREATE TABLE a (x TEXT DEFAULT ';'); -- done; really\\nSELECT 1;")
    ["CREATE TABLE a (x TEXT DEFAULT ';');", '-- done; really\\nSELECT 1;']
    """
    statements: list[str] = []
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if _code(buffer) != ";":
                statements.append(buffer.strip())
            buffer = ""
    rest = buffer[:-1]  # the ";" added after the last piece
    if _code(rest):
        raise StoreError(f"incomplete SQL statement at the end of a migration: {rest.strip()[:80]!r}")
    return statements


def _code(text: str) -> str:
    """``text`` without its whole-line ``--`` comments and surrounding blanks."""
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("--"))


@contextmanager
def _transaction(conn: sqlite3.Connection, *, write: bool) -> Iterator[None]:
    # BEGIN IMMEDIATE takes the write lock at once (no deadlock upgrading a read lock later);
    # a plain BEGIN gives readers one consistent snapshot across their statements.
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


_Job = tuple[Callable[[], Any], Callable[[Any, BaseException | None], None]]
"""A call for the worker thread, and what to do with its result (or its exception) there."""


class _Worker:
    """The store's one thread: runs the calls handed to it in order, each answer sent back to the
    event loop by one ``call_soon_threadsafe`` (a lighter hand-over than an executor's futures,
    paid for every group commit)."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, answer = job
            try:
                result, error = fn(), None
            except BaseException as exc:  # (answered to the caller, who raises it)
                result, error = None, exc
            answer(result, error)

    def submit(self, fn: Callable[[], T], answer: Callable[[T | None, BaseException | None], None]) -> None:
        """Run ``fn`` in the thread, then ``answer(result, error)`` there (after the calls before)."""
        self._jobs.put((fn, answer))

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in the thread, awaited on the event loop (its exception raised here)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()

        def settle(result: T | None, error: BaseException | None) -> None:
            if not done.done():
                if error is not None:
                    done.set_exception(error)
                else:
                    done.set_result(result)  # type: ignore[arg-type]

        def answer(result: T | None, error: BaseException | None) -> None:
            with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile)
                loop.call_soon_threadsafe(settle, result, error)

        self.submit(fn, answer)
        return await done

    def stop(self) -> None:
        """End the thread once the calls handed to it are done (waits for them)."""
        self._jobs.put(None)
        self._thread.join()


_INSERT = "INSERT INTO table_log (table_id, seq, entry) VALUES (?, ?, ?)"


def _write_batch(conn: sqlite3.Connection, rows: list[tuple[str, int, str]]) -> list[sqlite3.Error | None]:
    """Commit ``rows`` in one transaction (in the worker thread): each row's outcome, None when it
    was stored. All of them at once; when one is refused, each in a savepoint of its own, so that
    the others are stored all the same."""
    try:
        with _transaction(conn, write=True):
            conn.executemany(_INSERT, rows)
        return [None] * len(rows)
    except sqlite3.IntegrityError:
        pass  # (rolled back: one by one now)
    results: list[sqlite3.Error | None] = []
    with _transaction(conn, write=True):
        for row in rows:
            conn.execute("SAVEPOINT one")
            try:
                conn.execute(_INSERT, row)
                results.append(None)
            except sqlite3.Error as exc:
                conn.execute("ROLLBACK TO one")
                results.append(exc)
            conn.execute("RELEASE one")
    return results


class SQLiteStore:
    """A :class:`~unotable.server.store.Store` in one SQLite file (or ``":memory:"``)."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._worker: _Worker | None = None
        self._pending: list[tuple[str, int, str, asyncio.Future[None]]] = []
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self._writing = False  # a batch of appends is with the worker thread

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    # ------------------------------------------------------------------ plumbing

    async def _call(self, fn: Callable[[sqlite3.Connection], T], *, conflict: str = "") -> T:
        conn, worker = self._conn, self._worker
        if conn is None or worker is None:
            raise StoreError(f"{self!r} is not open")
        try:
            return await worker.run(lambda: fn(conn))
        except sqlite3.IntegrityError as exc:
            if getattr(exc, "sqlite_errorname", "") in _UNIQUE_ERRORS:
                raise ConflictError(conflict or str(exc)) from exc
            raise StoreError(f"SQLite refused the statement: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite failed: {exc}") from exc

    def _connect(self) -> sqlite3.Connection:
        if isinstance(self.path, Path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal" and self.path != ":memory:":
                raise StoreError(f"SQLite refused WAL mode for {self.path} (journal_mode={mode})")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            if self.path != ":memory:":
                # the writer never checkpoints (a checkpoint's syncs would stall every table's
                # commit behind it); a background thread does, on its own connection (see _checkpoints)
                conn.execute("PRAGMA wal_autocheckpoint=0")
            self._migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _migrate(self, conn: sqlite3.Connection) -> None:
        known = migrations("sqlite")
        with _transaction(conn, write=True):  # one writer migrates; the others wait, then see it done
            conn.execute(SCHEMA_VERSION_DDL)
            applied = {row[0] for row in conn.execute("SELECT version FROM schema_version")}
            check_known(applied, known, str(self.path))
            for migration in known:
                if migration.version in applied:
                    continue
                for statement in split_statements(migration.sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)",
                    (migration.version, migration.name, time.time()),
                )

    # ------------------------------------------------------------------ the Store interface

    async def open(self) -> None:
        if self._conn is not None:
            return
        worker = _Worker("unotable-sqlite")
        try:
            self._conn = await worker.run(self._connect)
        except sqlite3.Error as exc:
            worker.stop()
            raise StoreError(f"cannot open SQLite database {self.path}: {exc}") from exc
        except BaseException:
            worker.stop()
            raise
        self._worker = worker
        if self.path != ":memory:":
            self._stop_checkpoints.clear()
            self._checkpointer = threading.Thread(target=self._checkpoints, name="unotable-sqlite-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        """Copy the write-ahead log into the database every CHECKPOINT_S seconds, on a connection of
        its own: a PASSIVE checkpoint never blocks the writer, which goes on committing meanwhile."""
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error:  # pragma: no cover - the writer opened the same file just before
            return
        try:
            conn.execute("PRAGMA synchronous=FULL")
            while not self._stop_checkpoints.wait(CHECKPOINT_S):
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            conn.close()

    async def close(self) -> None:
        conn, worker = self._conn, self._worker
        self._conn, self._worker = None, None
        self._stop_checkpoints.set()
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.join)
            self._checkpointer = None
        if conn is None or worker is None:
            return
        with contextlib.suppress(sqlite3.Error):  # leave a small WAL behind
            await worker.run(lambda: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)"))
        try:
            await worker.run(conn.close)
        finally:
            await asyncio.get_running_loop().run_in_executor(None, worker.stop)

    async def create_table(self, table_id: str, doc: dict[str, Any], created: float) -> None:
        text = encode_json(doc, "doc")
        created = float(created)

        def insert(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO tables (table_id, created, status, doc) VALUES (?, ?, 'open', ?)",
                (table_id, created, text),
            )

        await self._call(insert, conflict=f"table {table_id!r} already exists")

    async def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Append and return once committed. Appends that arrive while a commit is on the disk are
        committed together in the next transaction (group commit: one disk sync for many tables'
        entries); each still succeeds or fails on its own."""
        check_seq(seq)
        text = encode_json(entry, "entry")
        if self._conn is None:
            raise StoreError(f"{self!r} is not open")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((table_id, seq, text, done))
        if not self._writing:
            self._write_next(loop)
        await done

    def _write_next(self, loop: asyncio.AbstractEventLoop) -> None:
        """Hand the pending appends to the worker thread as one transaction (on the event loop).
        (Its answer comes back as one call of :meth:`_written`, not through a task.)"""
        batch, self._pending = self._pending, []
        conn, worker = self._conn, self._worker
        if conn is None or worker is None:
            self._writing = False
            for *_, done in batch:
                if not done.done():
                    done.set_exception(StoreError(f"{self!r} is not open"))
            return
        self._writing = True
        rows = [(table_id, seq, text) for table_id, seq, text, _ in batch]

        def answer(results: list[sqlite3.Error | None] | None, error: BaseException | None) -> None:
            with contextlib.suppress(RuntimeError):  # (the loop closed meanwhile)
                loop.call_soon_threadsafe(self._written, loop, batch, results, error)

        worker.submit(lambda: _write_batch(conn, rows), answer)

    def _written(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[tuple[str, int, str, asyncio.Future[None]]],
        results: list[sqlite3.Error | None] | None,
        error: BaseException | None,
    ) -> None:
        """The worker committed (or failed) ``batch``: answer each append, then write what came
        meanwhile."""
        if error is not None or results is None:  # (the disk, the lock: the whole batch failed)
            failed = StoreError(f"SQLite failed: {error}")
            for *_, done in batch:
                if not done.done():
                    done.set_exception(failed)
        else:
            for (table_id, seq, _, done), error in zip(batch, results, strict=True):
                if done.done():
                    continue
                if error is None:
                    done.set_result(None)
                elif getattr(error, "sqlite_errorname", "") in _UNIQUE_ERRORS:
                    done.set_exception(ConflictError(f"table {table_id!r} already has entry {seq}"))
                else:
                    done.set_exception(StoreError(f"SQLite refused the statement: {error}"))
        if self._pending:
            self._write_next(loop)
        else:
            self._writing = False

    async def set_status(self, table_id: str, status: str) -> None:
        check_status(status)

        def update(conn: sqlite3.Connection) -> int:
            cursor = conn.execute("UPDATE tables SET status = ? WHERE table_id = ?", (status, table_id))
            return cursor.rowcount

        if await self._call(update) == 0:
            raise StoreError(f"no table {table_id!r}")

    async def load(self, table_id: str) -> StoredTable | None:
        def read(conn: sqlite3.Connection) -> tuple[Any, list[Any]] | None:
            with _transaction(conn, write=False):
                row = conn.execute(
                    "SELECT created, status, doc FROM tables WHERE table_id = ?", (table_id,)
                ).fetchone()
                if row is None:
                    return None
                entries = conn.execute(
                    "SELECT entry FROM table_log WHERE table_id = ? ORDER BY seq", (table_id,)
                ).fetchall()
            return row, entries

        found = await self._call(read)
        if found is None:
            return None
        (created, status, doc), entries = found
        return StoredTable(
            table_id=table_id,
            created=float(created),
            doc=decode_json(doc, "doc"),
            status=status,
            entries=[decode_json(entry, "entry") for (entry,) in entries],
        )

    async def unfinished(self) -> list[str]:
        def read(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute(
                "SELECT table_id FROM tables WHERE status = 'open' ORDER BY created, table_id"
            ).fetchall()
            return [table_id for (table_id,) in rows]

        return await self._call(read)

    async def delete_older_than(self, cutoff: float) -> int:
        cutoff = float(cutoff)
        condition = "status IN ('finished', 'abandoned') AND created < ?"
        doomed = f"SELECT table_id FROM tables WHERE {condition}"

        def delete(conn: sqlite3.Connection) -> int:
            with _transaction(conn, write=True):
                conn.execute(f"DELETE FROM table_log WHERE table_id IN ({doomed})", (cutoff,))
                return conn.execute(f"DELETE FROM tables WHERE {condition}", (cutoff,)).rowcount

        return await self._call(delete)

    # -- the cluster's fenced writes: PostgreSQL only ------------------------------------------

    def _no_cluster(self) -> StoreError:
        return StoreError("a cluster (--redis) needs PostgreSQL: the SQLite store has no fenced writes")

    async def claim(self, table_id: str, fence: int) -> None:
        raise self._no_cluster()

    async def fence_of(self, table_id: str) -> int:
        raise self._no_cluster()

    async def append_fenced(
        self, table_id: str, seq: int, entry: dict[str, Any], fence: int, source: str | None = None
    ) -> None:
        raise self._no_cluster()

    async def last_source(self, table_id: str) -> str | None:
        raise self._no_cluster()
