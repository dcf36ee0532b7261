"""Fixtures for the server tests: a database URL for each backend, real ones.

The folder needs the ``server`` extra: when Starlette is not installed it is left out (CI installs
the extra, so there these tests always run).

PostgreSQL is the one on localhost:5432 (trust authentication, user ``postgres`` or ``root``,
database ``test``), or the admin URL in ``UNOTABLE_TEST_POSTGRES``. When nothing answers there, the
``postgres_admin_url`` fixture starts the local cluster with ``pg_ctlcluster`` and waits up to 20
seconds; if PostgreSQL is still unreachable the tests that need it FAIL (never skip): both backends
are part of the suite. Each test gets a fresh database ``unotable_test_<random>``, dropped after it.

``server`` (one process per module and backend) and ``own_server`` (one per test, which it may
kill and restart) start harness.py's ``ServerProc``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    import starlette  # noqa: F401
except ImportError:  # the server extra is not installed: nothing here can run
    collect_ignore_glob = ["*"]

# The tests' shared modules (harness.py, leak_scan.py, frames.py, databases.py) sit beside them
# and are imported by name (pytest runs with --import-mode=importlib, which adds no folder).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from databases import fresh_postgres

POSTGRES_CANDIDATES = (
    "postgresql://postgres@localhost:5432/test",
    "postgresql://root@localhost:5432/test",
)
START_TIMEOUT_S = 20.0
BACKENDS = ("sqlite", "postgres")


async def _try_connect(url: str) -> str | None:
    """None when ``url`` accepts a connection, else why not."""
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=3)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


def _first_reachable(candidates: tuple[str, ...]) -> tuple[str | None, list[str]]:
    errors = []
    for url in candidates:
        error = asyncio.run(_try_connect(url))
        if error is None:
            return url, errors
        errors.append(f"{url}: {error}")
    return None, errors


def _start_local_cluster() -> str:
    """Start the local PostgreSQL cluster(s) as Debian lays them out; return what the command said."""
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    if not versions:
        return "no /etc/postgresql/<version> to start"
    said = []
    for version in versions:
        command = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=START_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            said.append(f"{' '.join(command)}: {exc}")
            continue
        output = f"{done.stdout.strip()} {done.stderr.strip()}".strip()
        said.append(f"{' '.join(command)}: exit {done.returncode} {output}")
    return "; ".join(said)


@pytest.fixture(scope="session")
def postgres_admin_url() -> str:
    """A URL of a reachable PostgreSQL database with the right to create databases."""
    override = os.environ.get("UNOTABLE_TEST_POSTGRES")
    candidates = (override,) if override else POSTGRES_CANDIDATES
    url, errors = _first_reachable(candidates)
    if url is not None:
        return url
    started = _start_local_cluster()
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        url, errors = _first_reachable(candidates)
        if url is not None:
            return url
        time.sleep(0.5)
    pytest.fail(
        f"PostgreSQL is unreachable (tried {', '.join(candidates)}); started it with: {started}; "
        f"last errors: {'; '.join(errors)}",
        pytrace=False,
    )


@pytest.fixture
def postgres_url(postgres_admin_url: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test (dropped afterwards)."""
    with fresh_postgres(postgres_admin_url) as url:
        yield url


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL for each backend: an SQLite file in tmp_path, a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'unotable.db'}"  # tmp_path is absolute: sqlite:////tmp/...
    return str(request.getfixturevalue("postgres_url"))


@contextlib.contextmanager
def _serving(kind: str, workdir: Path, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A started harness.ServerProc on a fresh database of ``kind``, stopped (and dropped) after."""
    from harness import ServerProc, database

    with database(kind, workdir, request) as db:
        proc = ServerProc(db, workdir)
        proc.start()
        try:
            yield proc
        finally:
            proc.stop()


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server process per backend (harness.ServerProc) for a module's tests that do not stop it."""
    with _serving(request.param, tmp_path_factory.mktemp(f"server-{request.param}"), request) as proc:
        yield proc


@pytest.fixture(params=BACKENDS)
def own_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A server process of this test's own (it may kill and restart it), per backend."""
    with _serving(request.param, tmp_path, request) as proc:
        yield proc
