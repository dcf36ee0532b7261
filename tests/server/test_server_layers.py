"""The server's imports run one way: run -> app -> hub -> outbox, bus, table, store.

Read from the source (the import statements of every module of ``unotable/server``): nothing imports
app.py but run.py; the hub, the outbox, the table actor and the local bus know no socket library
(Starlette, uvicorn, websockets) and no Redis; only the Redis bus imports Redis; the table actor
imports neither the hub nor the store (tests/test_layers.py checks the package's own layers).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "unotable" / "server"
SOCKETS = ("starlette", "uvicorn", "websockets")


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; relative imports are not used here)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            assert node.level == 0, f"{path}: a relative import"
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): imports_of(p) for p in sorted(SERVER.rglob("*.py"))}


def touches(imported: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in imported if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_nothing_imports_app_but_run() -> None:
    for path in sorted((ROOT / "unotable").rglob("*.py")) + sorted((ROOT / "tests").rglob("*.py")):
        name = module_name(path)
        if name in ("unotable.server.run", "unotable.server.app"):
            continue
        found = touches(imports_of(path), "unotable.server.app")
        assert not found, f"{name} imports {found}: only run.py may import app.py"


@pytest.mark.parametrize(
    "name",
    ["unotable.server.hub", "unotable.server.outbox", "unotable.server.table", "unotable.server.entries",
     "unotable.server.bus", "unotable.server.bus.local", "unotable.server.protocol"],
)
def test_the_hub_side_knows_no_socket_and_no_redis(name: str) -> None:
    assert not touches(MODULES[name], *SOCKETS, "redis", "unotable.server.app", "unotable.server.bus.redis")


def test_only_the_redis_bus_imports_redis() -> None:
    users = sorted(n for n, imported in MODULES.items() if touches(imported, "redis"))
    assert users == ["unotable.server.bus.redis"]


def test_the_table_actor_knows_no_hub_no_bus_no_store() -> None:
    for name in ("unotable.server.table", "unotable.server.entries"):
        assert not touches(MODULES[name], "unotable.server.hub", "unotable.server.bus",
                           "unotable.server.store", "unotable.server.outbox")


def test_the_outbox_and_the_buses_do_not_import_the_hub_at_run_time() -> None:
    """The hub imports them; they name the hub in type hints only (under TYPE_CHECKING)."""
    for name in ("unotable.server.outbox", "unotable.server.bus", "unotable.server.bus.local",
                 "unotable.server.bus.redis"):
        path = ROOT / (name.replace(".", "/") + ("/__init__.py" if name.endswith(".bus") else ".py"))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module]
        assert not [n.module for n in top if n.module == "unotable.server.hub"], name

