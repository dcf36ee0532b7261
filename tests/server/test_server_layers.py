"""The server's imports run one way: run -> app -> hub -> outbox, ports, table, store; bus -> ports.

Read from the source (the import statements of every module of ``unotable/server``): nothing imports
app.py but run.py; the hub, the outbox, the table actor and the local bus know no socket library
(Starlette, uvicorn, websockets) and no Redis; only the Redis bus imports Redis; the table actor (the
package ``table/``, every module of it) imports neither the hub nor the store; the hub and the buses
meet only in ``ports.py`` (the contracts between them): no bus imports the hub, not even for type
hints (tests/test_layers.py checks the package's own layers, and that the server's modules form no
import cycle).
"""

from __future__ import annotations

import ast
import tempfile
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
TABLE = sorted(n for n in MODULES if n == "unotable.server.table" or n.startswith("unotable.server.table."))
BUS = sorted(n for n in MODULES if n == "unotable.server.bus" or n.startswith("unotable.server.bus."))


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
    ["unotable.server.hub", "unotable.server.outbox", "unotable.server.entries", "unotable.server.ports",
     "unotable.server.bus", "unotable.server.bus.local", "unotable.server.protocol", *TABLE],
)
def test_the_hub_side_knows_no_socket_and_no_redis(name: str) -> None:
    assert not touches(MODULES[name], *SOCKETS, "redis", "unotable.server.app", "unotable.server.bus.redis")


def test_only_the_redis_bus_imports_redis() -> None:
    users = sorted(n for n, imported in MODULES.items() if touches(imported, "redis"))
    assert users == ["unotable.server.bus.redis"]


def test_the_table_actor_knows_no_hub_no_bus_no_store() -> None:
    assert len(TABLE) > 5, "the table actor is a package, a module per concern"
    for name in [*TABLE, "unotable.server.entries"]:
        found = touches(MODULES[name], "unotable.server.hub", "unotable.server.bus", "unotable.server.ports",
                        "unotable.server.store", "unotable.server.outbox")
        assert not found, f"{name} imports {found}"


def bus_imports_of_the_hub(modules: dict[str, set[str]]) -> list[str]:
    """The modules of ``bus/`` that import the hub (anywhere in the file: lazily, for typing)."""
    return [f"{n} imports {touches(modules[n], 'unotable.server.hub')}" for n in BUS
            if touches(modules[n], "unotable.server.hub")]


def test_the_buses_never_import_the_hub() -> None:
    """The hub and a bus meet in ports.py: the buses implement its Bus and Link, and know the hub
    only by its TableHub and HubSet."""
    assert {"unotable.server.bus", "unotable.server.bus.local", "unotable.server.bus.redis"} <= set(BUS)
    assert not bus_imports_of_the_hub(MODULES)
    for name in BUS:  # the contracts are taken from the ports
        assert touches(MODULES[name], "unotable.server.ports"), name
    for name in ("unotable.server.ports", "unotable.server.outbox"):  # (the hub imports them)
        assert not touches(MODULES[name], "unotable.server.hub", "unotable.server.bus"), name


def test_a_bus_importing_the_hub_would_be_found() -> None:
    """The check itself: an import of the hub under ``if TYPE_CHECKING:`` in a bus is reported."""
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from unotable.server.hub import Hub\n"
    with tempfile.TemporaryDirectory() as folder:
        fake = Path(folder) / "local.py"
        fake.write_text(typed, encoding="utf-8")
        assert bus_imports_of_the_hub({**MODULES, "unotable.server.bus.local": imports_of(fake)})
