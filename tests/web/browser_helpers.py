"""Helpers of the browser tests (imported by name: tests/web/conftest.py puts this folder on the path)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
# a locale key shown raw instead of its text
RAW_KEY = re.compile(
    r"\b(?:app|create|preset|opt|bot|share|conn|wait|seat|table|hand|act|sum|log|chat|error|ev|color|card|move|lang|a11y|list)"
    r"\.[a-z_0-9-]+(?:\.[a-z_0-9-]+)*\b"
)

Page = Any


def new_page(browser: Any, lang: str, viewport: dict[str, int], errors: list[str]) -> Page:
    phone = viewport["width"] < 500
    ctx = browser.new_context(viewport=viewport, locale=lang, has_touch=phone, is_mobile=phone)
    page = ctx.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{lang}: {exc}"))
    page.on("console", lambda msg: errors.append(f"{lang}: {msg.text}") if msg.type == "error" else None)
    return page


def shot(page: Page, name: str, viewport: dict[str, int] | None = None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    before = page.viewport_size
    if viewport is not None and viewport != before:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), animations="disabled")
    if viewport is not None and viewport != before:
        page.set_viewport_size(before)


def no_missing_strings(page: Page) -> None:
    missing = page.evaluate("window.__missingKeys")
    assert missing == [], f"strings missing: {missing[:10]}"
    text = page.inner_text("body")
    raw = RAW_KEY.findall(text)
    assert not raw, f"raw keys on the page: {raw[:10]}"




def wait_ready(url: str, seconds: float = 20.0) -> None:
    """Wait until the server answers /healthz (its socket is bound before it listens)."""
    import time
    import urllib.request

    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as res:
                if res.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)
