"""An accessibility scan with axe-core (from the npm registry) of the landing page, the waiting
room and a table in play, in English and Arabic, on a phone and a laptop: no serious or critical
violation.

axe-core is installed by the test itself on first use (``npm install`` into tests/web/.npm/,
gitignored); without npm, or offline, the scan is skipped with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")

from browser_helpers import LAPTOP, PHONE, Page, close_all, new_page, three_friends  # noqa: E402

AXE_VERSION = "4.10"
PREFIX = Path(__file__).resolve().parent / ".npm"
AXE = PREFIX / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed (axe-core comes from the npm registry)")
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-package-lock", "--prefix", str(PREFIX),
             f"axe-core@{AXE_VERSION}"],
            capture_output=True, text=True, timeout=300, check=False,
        )
        if done.returncode != 0 or not AXE.exists():
            pytest.skip(f"npm could not install axe-core: {done.stderr.strip()[-300:]}")
    return AXE.read_text(encoding="utf-8")


def serious(page: Page, axe: str) -> list[Any]:
    """The serious and critical violations axe finds on the page as it is now."""
    page.add_script_tag(content=axe)
    found = page.evaluate("""async () => {
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, impact: v.impact,
                       nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    }""")
    return list(found)


def test_landing_page(server: str, browser: Any, axe_source: str) -> None:
    errors: list[str] = []
    for lang, viewport in (("en-US", LAPTOP), ("ar", PHONE)):
        page = new_page(browser, lang, viewport, errors)
        page.goto(server + "/")
        page.wait_for_selector("#create-form")
        assert serious(page, axe_source) == [], lang
        page.click("#create-btn")  # the share panel, with its warning and QR code
        page.wait_for_selector("#share-link")
        assert serious(page, axe_source) == [], lang
        page.context.close()
    assert not errors, errors


def test_waiting_room_and_table_in_play(positioned_server: str, browser: Any, axe_source: str) -> None:
    errors: list[str] = []
    watcher = new_page(browser, "he", PHONE, errors)
    ann, bo, cy = three_friends(browser, positioned_server, "house", 12, errors)
    watcher.goto(ann.url)
    watcher.wait_for_selector(".play")
    for page in (ann, bo, watcher):
        assert serious(page, axe_source) == [], page.evaluate("document.documentElement.lang")
    ann.click(".hand .card.playable[data-card='R1']")  # the chosen card and the UNO control
    ann.wait_for_selector("#uno-play")
    assert serious(ann, axe_source) == []
    close_all([ann, bo, cy, watcher], errors)


def test_the_waiting_room(server: str, browser: Any, axe_source: str) -> None:
    errors: list[str] = []
    ann = new_page(browser, "en-US", LAPTOP, errors)
    ann.goto(server + "/")
    ann.click("#create-btn")
    ann.wait_for_selector("#open-table")
    link = ann.input_value("#share-link")
    ann.click("#open-table")
    ann.wait_for_selector(".waiting")
    ann.click("#settings summary")
    assert serious(ann, axe_source) == []
    friend = new_page(browser, "fa", PHONE, errors)
    friend.goto(link)
    friend.wait_for_selector(".waiting")
    assert serious(friend, axe_source) == []
    close_all([ann, friend], errors)
