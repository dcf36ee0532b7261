"""The import rule of the whole package, read from the source (ast), not by importing anything.

Layers, lowest first (docs/explanation/architecture.md, its opening: dependencies point one way):

- the **engine**: every module at the top level of ``unotable/`` but ``cli.py`` and
  ``__main__.py`` (``python3 -m unotable``, the command's other door: the cli). It imports only
  the standard library and the engine, and its modules form no import cycle (a lazy import inside
  a function, or one under ``TYPE_CHECKING``, counts: it is a circle all the same).
- **bots** (``unotable.bots``, with ``determinize``, the hidden worlds its search samples): the
  engine, the standard library and third-party packages.
- **client** (the protocol client), **tui**, **server**, **env**: the engine and the bots; the
  terminal (``tui``) also uses the protocol client, and the learning environment (``env``) the
  terminal's text renderer (its ``render_mode="ansi"``). None of them imports another otherwise.
- **cli**: the command; it may import anything, the server only lazily (inside a function), so that
  ``unotable play`` works without the server extra.

Nothing imports ``unotable.server`` from outside it but the cli's lazy serve entry, and nothing
imports ``unotable.server.app`` (the routes) but the server's runner.
A new subpackage must be given its layer here: the test names any it does not know. The scan
reads ``unotable/`` only: the experiment harnesses of ``research/`` live outside the package.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "unotable"

# layer -> the layers (besides itself) it may import
MAY_IMPORT: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "bots": frozenset({"engine"}),
    "client": frozenset({"engine", "bots"}),
    "tui": frozenset({"engine", "bots", "client"}),
    "server": frozenset({"engine", "bots", "env"}),  # env: trained policies the operator offers
    "env": frozenset({"engine", "bots", "tui"}),  # tui: its text renderer, for render_mode="ansi"
    "cli": frozenset({"engine", "bots", "client", "tui", "server", "env"}),
}
APP_IMPORTERS = frozenset({"unotable.server.run"})
"""The only modules that may import ``unotable.server.app``."""


@dataclass(frozen=True)
class Import:
    source: str
    """The importing module's dotted name."""
    target: str
    """The imported module's dotted name (a name imported from a package is the package)."""
    line: int
    top_level: bool
    """At module level (not inside a function)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "unotable":
        return None
    if len(parts) == 1:
        return "engine"
    if len(parts) == 2 and (PACKAGE / f"{parts[1]}.py").is_file():
        return "cli" if parts[1] in ("cli", "__main__") else "engine"
    return parts[1] if parts[1] in MAY_IMPORT else f"unknown subpackage unotable.{parts[1]}"


def _resolve(source: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = source.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(source: str, path: Path, known: set[str]) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    top = {id(n) for n in tree.body}
    for n in tree.body:  # module-level blocks: if TYPE_CHECKING, try/except ImportError
        if isinstance(n, ast.If | ast.Try):
            top.update(id(m) for m in ast.walk(n) if isinstance(m, ast.Import | ast.ImportFrom))
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(source, a.name, node.lineno, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(source, is_package, node)
            if base == "__future__":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                target = sub if sub in known else base  # `from unotable import movegen` is the module
                found.append(Import(source, target, node.lineno, id(node) in top))
    return found


MODULES = modules()
IMPORTS = [i for name, path in MODULES.items() for i in imports_of(name, path, set(MODULES))]


def test_the_scan_sees_the_package() -> None:
    assert {"unotable.game", "unotable.record", "unotable.bots.base", "unotable.tui.play"} <= set(MODULES)
    # a lazy import is found, and is not counted as top level
    lazy = [i for i in IMPORTS if i.source == "unotable.cli" and not i.top_level]
    assert lazy, "the cli imports the server lazily"
    # every module belongs to a known layer
    unknown = sorted({str(layer(m)) for m in MODULES if str(layer(m)).startswith("unknown")})
    assert not unknown, f"give these subpackages a layer in tests/test_layers.py: {unknown}"


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    bad = []
    for i in IMPORTS:
        if layer(i.source) != "engine":
            continue
        root = i.target.split(".")[0]
        if root == "unotable":
            if layer(i.target) != "engine":
                bad.append(f"{i.source}:{i.line} imports {i.target}")
        elif root not in sys.stdlib_module_names:
            bad.append(f"{i.source}:{i.line} imports {i.target}, not in the standard library")
    assert not bad, "\n".join(bad)


def test_each_layer_imports_only_the_layers_below_it() -> None:
    bad = []
    for i in IMPORTS:
        src, dst = layer(i.source), layer(i.target)
        if src is None or dst is None or src == dst:
            continue
        if dst not in MAY_IMPORT.get(src, frozenset()):
            bad.append(f"{i.source}:{i.line} ({src}) imports {i.target} ({dst})")
    assert not bad, "\n".join(bad)


def test_nothing_imports_the_server_but_itself_and_the_lazy_serve_entry() -> None:
    bad = []
    for i in IMPORTS:
        if layer(i.target) != "server" or layer(i.source) == "server":
            continue
        if i.source == "unotable.cli" and not i.top_level:
            continue
        bad.append(f"{i.source}:{i.line} imports {i.target}")
    assert not bad, "\n".join(bad)


def test_nothing_imports_the_routes_module() -> None:
    bad = [f"{i.source}:{i.line}" for i in IMPORTS
           if i.target == "unotable.server.app" and i.source not in APP_IMPORTERS]
    assert not bad, "unotable.server.app is imported by " + ", ".join(bad)


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> the modules it imports), each as a closed path."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def engine_cycles(imports: list[Import]) -> list[list[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES if layer(m) == "engine"}
    for i in imports:
        if i.source in graph and i.target in graph and i.source != i.target:
            graph[i.source].add(i.target)
    # the package's __init__ re-exports the engine: an edge into it from a module is a cycle
    return find_cycles(graph)


def server_cycles(imports: list[Import]) -> list[list[str]]:
    """The server's cycles through module-level imports, those under ``if TYPE_CHECKING:`` among
    them (the store's lazy choice of its driver, inside ``open_store``, is not a circle of design)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES if layer(m) == "server"}
    for i in imports:
        if i.top_level and i.source in graph and i.target in graph and i.source != i.target:
            graph[i.source].add(i.target)
    return find_cycles(graph)


def test_the_engine_modules_form_no_import_cycle() -> None:
    cycles = engine_cycles(IMPORTS)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_server_modules_form_no_import_cycle() -> None:
    """The hub and the buses meet in ``server/ports.py``; a bus never imports the hub, not even for
    type hints (tests/server/test_server_layers.py checks that by name)."""
    cycles = server_cycles(IMPORTS)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)
    typed = Import("unotable.server.ports", "unotable.server.hub", 1, top_level=True)  # under TYPE_CHECKING
    assert server_cycles([*IMPORTS, typed]), "the check finds a contract that imports the hub"


@pytest.mark.parametrize(("module", "expected"), [
    ("unotable", "engine"), ("unotable.game", "engine"), ("unotable.cli", "cli"),
    ("unotable.__main__", "cli"),
    ("unotable.bots.base", "bots"), ("unotable.server.bus.local", "server"), ("json", None),
])
def test_layers_are_told_apart(module: str, expected: str | None) -> None:
    assert layer(module) == expected


def test_a_cycle_would_be_found() -> None:
    """The checker itself: a lazy back-import between two engine modules is reported."""
    back = Import("unotable.cards", "unotable.game", 1, top_level=False)
    assert any("unotable.cards" in c and "unotable.game" in c for c in engine_cycles([*IMPORTS, back]))


def test_the_package_never_imports_the_harnesses_outside_it() -> None:
    """research/, benchmarks/ and tests/ stay out of the wheel, so the package may not need them."""
    outside = {"research", "benchmarks", "tests", "examples"}
    bad = [f"{i.source}:{i.line} imports {i.target}" for i in IMPORTS if i.target.split(".")[0] in outside]
    assert not bad, "\n".join(bad)


# The modules outside the engine that work on the compact internal state itself: the search and its
# worlds, the rule policies' compiled tables, the review's replays and the RL env's start positions.
# Everyone else reads the public enums from unotable.phase and the views.
STATE_READERS = frozenset({
    "unotable.bots.determinize",
    "unotable.bots.ismcts",
    "unotable.bots.policy",
    "unotable.bots.review",
    "unotable.env.positions",
})


def test_only_the_engine_and_the_search_reach_into_the_internal_state() -> None:
    bad = [
        f"{i.source}:{i.line} imports unotable.state"
        for i in IMPORTS
        if i.target == "unotable.state" and layer(i.source) != "engine" and i.source not in STATE_READERS
    ]
    assert not bad, "\n".join(bad) + "\n(the public enums live in unotable.phase)"
    assert all(name in MODULES for name in STATE_READERS), "a reader listed here no longer exists"
