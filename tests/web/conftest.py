"""Fixtures of the browser tests: a server started as ``unotable serve`` would be, and chromium.

Playwright drives Debian's chromium (``/usr/bin/chromium``, installed by ``make test`` when missing;
``playwright install`` is never run). Without chromium or Playwright these tests are skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright import sync_api
except ImportError:  # pragma: no cover - playwright is in the dev extra
    sync_api = None  # type: ignore[assignment]

# the tests import their shared helpers by name (browser_helpers.py)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_helpers import served
from positions import POSITIONS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = None
    if sync_api is None:
        reason = "playwright is not installed (it is in the dev extra)"
    elif not os.path.exists(CHROMIUM):
        reason = "chromium is not installed (make test installs it)"
    if reason is None:
        return
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("web-server")
    with served(["-m", "unotable.server.run", "--port", "0", "--data-dir", str(data),
                 "--bot-pause", "0.3", "--round-pause", "3"]) as url:
        yield url


@pytest.fixture(scope="session")
def positioned_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server, started by position_server.py: a table whose target score names one of
    positions.py's positions starts from it."""
    data = tmp_path_factory.mktemp("web-positions")
    path = data / "positions.json"
    path.write_text(json.dumps(POSITIONS))
    launcher = Path(__file__).with_name("position_server.py")
    with served([str(launcher), "--port", "0", "--data-dir", str(data), "--bot-pause", "0.3"],
                env={**os.environ, "UNOTABLE_TEST_POSITIONS": str(path)}) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


