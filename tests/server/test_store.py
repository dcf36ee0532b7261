"""The store, against both backends for real: SQLite in a temporary file, PostgreSQL on localhost.

Every backend test takes ``store_url`` (tests/server/conftest.py), parametrized over SQLite and
PostgreSQL, and runs its coroutine with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from unotable.server.store import (
    STATUSES,
    ConflictError,
    Store,
    StoredTable,
    StoreError,
    open_store,
)
from unotable.server.store._common import migrations
from unotable.server.store.postgres import PostgresStore, redact_url
from unotable.server.store.sqlite import SQLiteStore, split_statements

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def run(url: str, body: Callable[[Store], Awaitable[T]]) -> T:
    """Open a store on ``url``, run ``body`` with it, close it."""

    async def main() -> T:
        store = open_store(url)
        await store.open()
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(main())


def raw_query(url: str, sql: str) -> list[tuple[Any, ...]]:
    """Run ``sql`` on the database behind ``url`` with the driver itself (no store)."""
    if url.startswith("sqlite:///"):
        conn = sqlite3.connect(url[len("sqlite:///") :])
        try:
            with conn:  # commits
                return [tuple(row) for row in conn.execute(sql).fetchall()]
        finally:
            conn.close()

    async def main() -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await conn.fetch(sql)]
        finally:
            await conn.close()

    return asyncio.run(main())


# ---------------------------------------------------------------------- open_store


def test_open_store_picks_the_backend_from_the_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    default = open_store(None)
    assert isinstance(default, SQLiteStore) and default.path == tmp_path / "unotable.db"
    in_dir = open_store(None, directory=tmp_path / "data")
    assert isinstance(in_dir, SQLiteStore) and in_dir.path == tmp_path / "data" / "unotable.db"
    absolute = open_store(f"sqlite:///{tmp_path}/x.db")
    assert isinstance(absolute, SQLiteStore) and absolute.path == tmp_path / "x.db"
    relative = open_store("sqlite:///rel/y.db", directory=tmp_path / "d")
    assert isinstance(relative, SQLiteStore) and relative.path == tmp_path / "d" / "rel" / "y.db"
    bare = open_store("tables.db")
    assert isinstance(bare, SQLiteStore) and bare.path == tmp_path / "tables.db"
    assert isinstance(open_store(str(tmp_path / "z.db")), SQLiteStore)
    for url in ("postgresql://u@localhost:5432/db", "postgres://localhost/db", "PostgreSQL://h/d"):
        store = open_store(url)
        assert isinstance(store, PostgresStore) and store.url == url
    for store in (default, absolute, open_store("postgres://h/d")):
        assert isinstance(store, Store)
    for bad in ("mysql://localhost/db", "postgresql+asyncpg://h/d", "sqlite://x.db", "sqlite:", "sqlite:///"):
        with pytest.raises(ValueError, match="URL"):
            open_store(bad)
    assert not list(tmp_path.iterdir())  # nothing is created before open()


def test_postgres_urls_are_shown_without_password() -> None:
    store = open_store("postgresql://alice:s3cret@db:5432/u")
    assert "s3cret" not in repr(store)
    assert redact_url("postgresql://alice:s3cret@db:5432/u") == "postgresql://alice:***@db:5432/u"


def test_migration_files_are_numbered_and_alike() -> None:
    sqlite_files = migrations("sqlite")
    postgres_files = migrations("postgres")
    assert [m.version for m in sqlite_files] == list(range(1, len(sqlite_files) + 1))
    assert [m.name for m in sqlite_files] == [m.name for m in postgres_files]
    for migration in sqlite_files:
        assert split_statements(migration.sql)


def test_split_statements() -> None:
    script = "CREATE TABLE a (x TEXT DEFAULT 'a;b'); -- note; more\nCREATE INDEX i ON a (x);\n-- the end\n"
    assert split_statements(script) == [
        "CREATE TABLE a (x TEXT DEFAULT 'a;b');",
        "-- note; more\nCREATE INDEX i ON a (x);",
    ]
    assert split_statements("SELECT 1; SELECT 2") == ["SELECT 1;", "SELECT 2;"]
    with pytest.raises(StoreError, match="incomplete"):
        split_statements("SELECT 1; SELECT 'unterminated")


# ---------------------------------------------------------------------- migrations


def test_migrations_are_applied_once(store_url: str) -> None:
    expected = [(m.version, m.name) for m in migrations("sqlite")]

    async def body(store: Store) -> None:
        await store.open()  # a second open on an open store is a no-op

    run(store_url, body)
    run(store_url, body)  # reopening applies nothing again

    async def concurrently() -> None:  # two servers starting together: each migration applied once
        stores = [open_store(store_url), open_store(store_url)]
        await asyncio.gather(*(s.open() for s in stores))
        for s in stores:
            await s.close()
            await s.close()  # closing twice is harmless

    asyncio.run(concurrently())
    versions = raw_query(store_url, "SELECT version, name FROM schema_version ORDER BY version")
    assert [tuple(v) for v in versions] == expected
    names = {row[0] for row in raw_query(store_url, _TABLE_NAMES[store_url.split(":")[0]])}
    assert {"schema_version", "tables", "table_log"} <= names


_TABLE_NAMES = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'table'",
    "postgresql": "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
}


def test_a_newer_schema_is_refused(store_url: str) -> None:
    run(store_url, lambda store: asyncio.sleep(0))
    newer = "INSERT INTO schema_version (version, name, applied) VALUES (999, 'x', 0) RETURNING 1"
    raw_query(store_url, newer)

    async def main() -> None:
        store = open_store(store_url)
        with pytest.raises(StoreError, match="newer"):
            await store.open()
        with pytest.raises(StoreError, match="not open"):
            await store.load("t")

    asyncio.run(main())


# ---------------------------------------------------------------------- round trips


DOC = {"settings": {"preset": "official", "seats": 4}, "seed": 2**62 + 1, "bots": {"2": "greedy"}}


def test_create_append_load_round_trip(store_url: str) -> None:
    entries = [
        {"k": "join", "seat": 0, "name": "Ada"},
        {"k": "act", "seat": 0, "action": {"type": "play", "card": "R5"}, "at": 1764590000.25},
        {"k": "chat", "seat": 1, "text": "gg", "flags": [True, False, None], "ratio": 0.1},
    ]

    async def body(store: Store) -> StoredTable | None:
        assert await store.load("t1") is None
        await store.create_table("t1", DOC, 1764590000.123456)
        empty = await store.load("t1")
        assert empty == StoredTable("t1", 1764590000.123456, DOC, "open", [])
        for seq, entry in enumerate(entries, start=1):
            await store.append("t1", seq, entry)
        return await store.load("t1")

    loaded = run(store_url, body)
    assert loaded == StoredTable(
        table_id="t1", created=1764590000.123456, doc=DOC, status="open", entries=entries
    )
    assert isinstance(loaded.created, float)


def test_entries_come_back_in_seq_order(store_url: str) -> None:
    async def body(store: Store) -> StoredTable | None:
        await store.create_table("t", {}, 1.0)
        await store.create_table("other", {}, 2.0)
        for seq in (3, 1, 12, 2, 10):  # whatever the insertion order; numbers, not text
            await store.append("t", seq, {"n": seq})
        await store.append("other", 1, {"n": "other"})
        return await store.load("t")

    loaded = run(store_url, body)
    assert loaded is not None and [e["n"] for e in loaded.entries] == [1, 2, 3, 10, 12]


def test_a_second_store_sees_what_the_first_committed(store_url: str) -> None:
    async def main() -> None:
        writer, reader = open_store(store_url), open_store(store_url)
        await writer.open()
        await reader.open()
        try:
            await writer.create_table("t", {"a": 1}, 5.0)
            await writer.append("t", 1, {"k": "x"})
            loaded = await reader.load("t")
            assert loaded is not None and loaded.entries == [{"k": "x"}]
            await reader.append("t", 2, {"k": "y"})
            again = await writer.load("t")
            assert again is not None and again.entries == [{"k": "x"}, {"k": "y"}]
        finally:
            await writer.close()
            await reader.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- conflicts and errors


def test_a_duplicate_seq_is_a_conflict(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_table("t", {}, 1.0)
        await store.append("t", 1, {"first": True})
        with pytest.raises(ConflictError, match="entry 1"):
            await store.append("t", 1, {"first": False})
        loaded = await store.load("t")
        assert loaded is not None and loaded.entries == [{"first": True}]
        # the same seq in another table is no conflict
        await store.create_table("u", {}, 1.0)
        await store.append("u", 1, {"other": True})

    run(store_url, body)


def test_racing_appends_of_one_seq_store_exactly_one(store_url: str) -> None:
    """Two writers (two stores, so two connections) race for the same numbers: the constraint lets
    exactly one of each win, whatever the order."""

    async def main() -> None:
        stores = [open_store(store_url) for _ in range(3)]
        for store in stores:
            await store.open()
        try:
            await stores[0].create_table("t", {}, 1.0)
            for seq in range(1, 6):
                results = await asyncio.gather(
                    *(store.append("t", seq, {"by": i}) for i, store in enumerate(stores) for _ in range(3)),
                    return_exceptions=True,
                )
                assert sum(r is None for r in results) == 1, results
                assert all(isinstance(r, ConflictError) for r in results if r is not None)
            loaded = await stores[1].load("t")
            assert loaded is not None and len(loaded.entries) == 5
        finally:
            for store in stores:
                await store.close()

    asyncio.run(main())


def test_the_database_itself_refuses_a_duplicate_seq(store_url: str) -> None:
    """The constraint lives in the schema: a raw insert behind the store's back is refused too."""
    run(store_url, lambda store: store.create_table("t", {}, 1.0))
    run(store_url, lambda store: store.append("t", 1, {}))
    if store_url.startswith("sqlite"):
        with pytest.raises(sqlite3.IntegrityError):
            raw_query(store_url, "INSERT INTO table_log (table_id, seq, entry) VALUES ('t', 1, '{}')")
    else:
        with pytest.raises(asyncpg.UniqueViolationError):
            raw_query(store_url, "INSERT INTO table_log (table_id, seq, entry) VALUES ('t', 1, '{}')")


def test_a_taken_table_id_is_a_conflict(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_table("t", {"v": 1}, 1.0)
        with pytest.raises(ConflictError, match="already exists"):
            await store.create_table("t", {"v": 2}, 2.0)
        loaded = await store.load("t")
        assert loaded is not None and loaded.doc == {"v": 1} and loaded.created == 1.0

    run(store_url, body)


def test_errors_that_are_not_conflicts(store_url: str) -> None:
    async def body(store: Store) -> None:
        with pytest.raises(StoreError) as missing:
            await store.append("nowhere", 1, {})
        assert not isinstance(missing.value, ConflictError)
        with pytest.raises(StoreError, match="no table"):
            await store.set_status("nowhere", "finished")
        await store.create_table("t", {}, 1.0)
        for seq in (0, -1, True):
            with pytest.raises(ValueError, match="seq"):
                await store.append("t", seq, {})
        with pytest.raises(ValueError, match="status"):
            await store.set_status("t", "closed")
        for bad in ({"x": float("nan")}, {"x": {1, 2}}, {"x": "\ud800"}, ["not", "a", "dict"]):
            with pytest.raises(StoreError):
                await store.append("t", 1, bad)  # type: ignore[arg-type]
        with pytest.raises(StoreError, match="U\\+0000"):
            await store.append("t", 1, {"text": "a\x00b"})
        with pytest.raises(StoreError, match="U\\+0000"):
            await store.create_table("u", {"k\x00": 1}, 1.0)
        await store.append("t", 1, {"ok": True})  # none of the refused appends took seq 1

    run(store_url, body)


def test_an_unreachable_postgres_is_a_store_error() -> None:
    async def main() -> None:
        store = open_store("postgresql://postgres@127.0.0.1:1/nothing")
        with pytest.raises(StoreError, match="PostgreSQL failed"):
            await store.open()
        with pytest.raises(StoreError, match="not open"):
            await store.append("t", 1, {})

    asyncio.run(main())


def test_an_unopenable_sqlite_file_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "not-a-db").write_bytes(b"this is not an SQLite database file" * 100)

    async def main() -> None:
        store = open_store(str(tmp_path / "not-a-db"))
        with pytest.raises(StoreError):
            await store.open()
        await store.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- statuses and housekeeping


def test_unfinished_lists_open_tables_oldest_first(store_url: str) -> None:
    async def body(store: Store) -> None:
        assert await store.unfinished() == []
        for table_id, created in (("c", 30.0), ("a", 10.0), ("b", 20.0), ("b2", 20.0)):
            await store.create_table(table_id, {}, created)
        assert await store.unfinished() == ["a", "b", "b2", "c"]
        await store.set_status("b", "finished")
        await store.set_status("a", "abandoned")
        assert await store.unfinished() == ["b2", "c"]
        loaded = await store.load("b")
        assert loaded is not None and loaded.status == "finished"
        await store.set_status("b", "open")  # a rematch reopens a finished table
        assert await store.unfinished() == ["b", "b2", "c"]
        for status in STATUSES:
            await store.set_status("c", status)
            loaded = await store.load("c")
            assert loaded is not None and loaded.status == status

    run(store_url, body)


def test_delete_older_than_removes_only_old_closed_tables(store_url: str) -> None:
    async def body(store: Store) -> None:
        for table_id, created, status in (
            ("old-finished", 10.0, "finished"),
            ("old-abandoned", 11.0, "abandoned"),
            ("old-open", 12.0, "open"),
            ("new-finished", 100.0, "finished"),
            ("edge", 50.0, "finished"),
        ):
            await store.create_table(table_id, {"id": table_id}, created)
            for seq in (1, 2):
                await store.append(table_id, seq, {"seq": seq})
            await store.set_status(table_id, status)
        assert await store.delete_older_than(50.0) == 2  # strictly before the cutoff
        for gone in ("old-finished", "old-abandoned"):
            assert await store.load(gone) is None
        for kept in ("old-open", "new-finished", "edge"):
            loaded = await store.load(kept)
            assert loaded is not None and len(loaded.entries) == 2
        assert await store.delete_older_than(50.0) == 0
        # the logs went with their tables: the id can start again from seq 1
        await store.create_table("old-finished", {}, 200.0)
        await store.append("old-finished", 1, {"again": True})

    run(store_url, body)
    counts = raw_query(store_url, "SELECT count(*) FROM table_log")
    assert counts[0][0] == 7


# ---------------------------------------------------------------------- contents


def test_large_entries(store_url: str) -> None:
    big_text = "0123456789abcdef" * 200_000  # 3.2 MB
    big_list = list(range(100_000))
    deep: dict[str, Any] = {"leaf": True}
    for depth in range(60):
        deep = {f"level{depth}": deep, "n": depth}
    entries = [{"text": big_text}, {"numbers": big_list}, deep]

    async def body(store: Store) -> StoredTable | None:
        await store.create_table("big", {"record": big_list}, 1.0)
        for seq, entry in enumerate(entries, start=1):
            await store.append("big", seq, entry)
        return await store.load("big")

    loaded = run(store_url, body)
    assert loaded is not None
    assert loaded.doc == {"record": big_list}
    assert loaded.entries == entries


UNICODE = {
    "name": "Zoë Ångström-Þórsdóttir",
    "emoji": "🃏🂡 👩🏽‍💻 🇺🇳",
    "cjk": "牌局 ウノ 카드",
    "rtl": "مرحبا שלום",
    "combining": "e\u0301 n\u0303",
    "separators": "a\u2028b\u2029c",
    "controls": "tab\tnewline\ncr\rbell\x07 escape\x1b del\x7f",
    "quotes": "\"'`\\ <script>alert(1)</script>",
    "literal_escape": "\\u0000 is six characters here",
    "bmp_edge": "\uffff\ufffd",
    "astral": "\U0001f600\U0010fffd",
    "ключ 🗝": ["значение", {"🔑": "ü"}],
}


def test_unicode_round_trips(store_url: str) -> None:
    async def body(store: Store) -> StoredTable | None:
        await store.create_table("tablé-🃏", UNICODE, 1.0)
        await store.append("tablé-🃏", 1, UNICODE)
        assert await store.unfinished() == ["tablé-🃏"]
        return await store.load("tablé-🃏")

    loaded = run(store_url, body)
    assert loaded is not None and loaded.doc == UNICODE and loaded.entries == [UNICODE]


def test_numbers_round_trip(store_url: str) -> None:
    entry = {"big": 2**64 + 7, "neg": -(2**70), "zero": 0, "f": 0.1, "half": 2.5, "tiny": 5e-324, "t": 1.5e9}

    async def body(store: Store) -> StoredTable | None:
        await store.create_table("n", entry, 0.0)
        await store.append("n", 1, entry)
        return await store.load("n")

    loaded = run(store_url, body)
    assert loaded is not None and loaded.doc == entry and loaded.entries == [entry]
    assert loaded.entries[0]["big"] == 2**64 + 7 and isinstance(loaded.entries[0]["big"], int)


# ---------------------------------------------------------------------- durability


CHILD = textwrap.dedent(
    """
    import asyncio, os, signal, sys
    from unotable.server.store import open_store

    async def main(url, count):
        store = open_store(url)
        await store.open()
        await store.create_table("crash", {"by": "child"}, 1.0)
        for seq in range(1, count + 1):
            await store.append("crash", seq, {"seq": seq, "pad": "x" * 1000})
            print(seq, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # right after the last append returned: no close()

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


def test_an_acknowledged_append_survives_sigkill(store_url: str) -> None:
    """A writer process killed with SIGKILL right after append returned: a new store (a new
    process's view of the same database) finds every entry the writer was told was stored."""
    count = 25
    child = subprocess.run(
        [sys.executable, "-c", CHILD, store_url, str(count)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    acknowledged = [int(line) for line in child.stdout.split()]
    assert acknowledged == list(range(1, count + 1))

    async def body(store: Store) -> StoredTable | None:
        assert await store.unfinished() == ["crash"]
        return await store.load("crash")

    loaded = run(store_url, body)
    assert loaded is not None
    assert [e["seq"] for e in loaded.entries] == acknowledged


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    async def main() -> tuple[Any, ...]:
        store = open_store(str(tmp_path / "deep" / "er" / "t.db"))  # parent folders are created
        assert isinstance(store, SQLiteStore)
        await store.open()
        try:
            return await store._call(
                lambda conn: (
                    conn.execute("PRAGMA journal_mode").fetchone()[0],
                    conn.execute("PRAGMA synchronous").fetchone()[0],
                    conn.execute("PRAGMA foreign_keys").fetchone()[0],
                )
            )
        finally:
            await store.close()

    assert asyncio.run(main()) == ("wal", 2, 1)  # synchronous 2 is FULL
