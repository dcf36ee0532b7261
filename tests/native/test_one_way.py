"""The native core one way: ``unotable_native`` (the compiled core, its stubs, the conversion of a
ruleset) never imports ``unotable.env``; the env's adapters (``unotable.env.native_table``,
``unotable.env.native_vector``) import it. Read from the source (ast), as tests/test_layers.py
reads the package, so it holds whether the core is built or not."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

NATIVE = Path(__file__).resolve().parents[2] / "native" / "unotable_native"


def imported_modules(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports (lazily too), with its line."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
    return found


def env_imports(paths: list[Path]) -> list[str]:
    return [f"{p.name}:{line} imports {name}" for p in paths for name, line in imported_modules(p)
            if name == "unotable.env" or name.startswith("unotable.env.")]


def test_the_native_package_never_imports_the_env() -> None:
    sources = sorted(NATIVE.glob("*.py")) + sorted(NATIVE.glob("*.pyi"))
    assert any(p.name == "__init__.py" for p in sources), "the scan sees the package"
    bad = env_imports(sources)
    assert not bad, "\n".join(bad)


def test_an_env_import_would_be_found(tmp_path: Path) -> None:
    for text in ("from unotable.env.spaces import OBS_SIZE\n", "def f():\n    import unotable.env.table\n",
                 "from unotable.env import spaces\n"):
        (tmp_path / "m.py").write_text(text, encoding="utf-8")
        assert env_imports([tmp_path / "m.py"]), text


def test_the_core_layout_sizes_are_the_references() -> None:
    native = pytest.importorskip("unotable_native", reason="the native core is not built")
    from unotable.env import spaces

    core = native._core
    assert (core.OBS_SIZE, core.NUM_ACTIONS, core.RULESET_SIZE) == (
        spaces.OBS_SIZE, spaces.NUM_ACTIONS, spaces.RULESET_SIZE)


def test_a_pool_without_the_ruleset_block_plays_and_refuses_to_observe() -> None:
    native = pytest.importorskip("unotable_native", reason="the native core is not built")
    from unotable.env import spaces
    from unotable.env.spaces import ruleset_block

    bare = native.Pool(1, "official", 2, [4])
    seeing = native.Pool(1, "official", 2, [4], ruleset_block=ruleset_block)
    assert bare.legal(0) == seeing.legal(0) and bare.mask(0, 0) == seeing.mask(0, 0)
    assert bare.selfplay("random", 1)["rounds"] == 1
    refusals = (lambda: bare.observe(0, 0), bare.buffers, lambda: bare.selfplay("random", 1, observe=True))
    for refused in refusals:
        with pytest.raises(ValueError, match="ruleset_block"):
            refused()
    assert len(seeing.observe(0, 0)) == spaces.OBS_SIZE
