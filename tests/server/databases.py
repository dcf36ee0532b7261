"""Fresh PostgreSQL databases for the server tests, made and dropped through an admin URL.

Used by conftest.py's ``postgres_url`` fixture and by harness.py's ``database`` (the server
processes' databases); it needs only asyncpg, so conftest.py can import it before anything else.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Iterator


async def admin(url: str, statement: str) -> None:
    """Run one statement (CREATE or DROP DATABASE) on the database at ``url``."""
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


def with_database(url: str, database: str) -> str:
    """``url`` naming ``database`` instead of its own."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{database}"


@contextlib.contextmanager
def fresh_postgres(admin_url: str, prefix: str = "unotable_test") -> Iterator[str]:
    """The URL of a new, empty database ``<prefix>_<random>`` beside ``admin_url``'s, dropped after."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    asyncio.run(admin(admin_url, f"CREATE DATABASE {name}"))
    try:
        yield with_database(admin_url, name)
    finally:
        # FORCE: a connection left by a killed subprocess must not keep the database alive.
        asyncio.run(admin(admin_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
