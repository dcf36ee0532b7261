"""Helpers of the browser tests (imported by name: tests/web/conftest.py puts this folder on the path)."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
# a locale key shown raw instead of its text
RAW_KEY = re.compile(
    r"\b(?:app|create|preset|opt|bot|share|conn|wait|seat|table|hand|act|sum|log|chat|error|ev|color|card|move|lang|a11y|list|react|sound|verify|fair)"
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


def close_all(pages: list[Page], errors: list[str]) -> None:
    """Each page has every string it shows; close them; no page logged an error."""
    for page in pages:
        no_missing_strings(page)
        page.context.close()
    assert not errors, errors


# The middle of the strip of a card that no other card covers, at half its height, after scrolling
# it into view (a person taps what they see); null when no part of it shows.
_OWN_POINT = """(c) => {
  c.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = c.getBoundingClientRect();
  const y = r.top + r.height / 2;
  const xs = [];
  for (let x = Math.ceil(r.left); x < r.right; x++) {
    const at = document.elementFromPoint(x, y);
    if (at && at.closest('.card') === c) xs.push(x);
  }
  return xs.length ? [xs[Math.floor(xs.length / 2)], y] : null;
}"""


def tap_card(page: Page, locator: Any) -> None:
    """Tap a card of the fan where it shows: on the part of it that the next card does not cover."""
    locator.wait_for(state="visible")
    point = locator.evaluate(_OWN_POINT)
    assert point is not None, "no part of the card shows"
    page.mouse.click(point[0], point[1])


def play_card(page: Page, card: str, uno: bool = False) -> None:
    """Play a card from the hand as a person does: tap it to choose it, then tap it again (or,
    with ``uno``, tap the large UNO control that plays it with the call)."""
    tap_card(page, page.locator(f".hand .card.playable[data-card='{card}']").first)
    if uno:
        page.click("#uno-play")
    else:
        tap_card(page, page.locator(f".hand .card.selected[data-card='{card}']"))


def wait_changed(page: Page, seq: int, timeout: float = 5000) -> None:
    page.wait_for_function(
        "s => (window.unotable.page.view?.seq ?? -1) !== s || window.unotable.page.error",
        arg=seq,
        timeout=timeout,
    )


def act_once(page: Page, keyboard: bool, state: dict[str, Any]) -> bool:
    """Make one move through the page's controls; False when the page offers none."""
    chooser = page.locator(".chooser .color-btn, .chooser .target-btn")
    if chooser.count():
        chooser.first.click()
        return True
    colors = page.locator(".controls .color-btn")
    if colors.count():
        colors.first.click()
        state["named_color"] = True
        return True
    if page.locator("#challenge").count() and not state.get("challenged"):
        state["challenged"] = True
        page.click("#challenge")
        return True
    playable = page.locator(".hand .card.playable")
    if playable.count():
        if keyboard:
            # arrows choose a card, Enter plays it (focus starts on the first playable card)
            page.focus(".hand .card[tabindex='0']")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            focused = page.evaluate("document.activeElement.classList.contains('playable')")
            if focused:
                page.keyboard.press("Enter")
                state["keyboard_plays"] = state.get("keyboard_plays", 0) + 1
                return True
        tap_card(page, playable.first)  # tap to choose, tap again to play
        tap_card(page, page.locator(".hand .card.selected").first)
        return True
    for button, key in (("#accept", "a"), ("#pass", "p"), ("#draw", "d")):
        if page.locator(button).count():
            if keyboard:
                page.locator("body").focus()
                page.keyboard.press(key)
            else:
                page.click(button)
            return True
    return False


def three_friends(browser: Any, server: str, preset: str, target: int, errors: list[str],
                  viewports: tuple[dict[str, int], ...] | None = None,
                  before_start: Callable[[Page], None] | None = None) -> list[Page]:
    """Ann creates a 3-seat table on the landing page (English); Bo (Arabic) and Cy (Hebrew) join
    by its link; Ann starts (after ``before_start(ann)``, when given). By default Ann and Cy at
    1280x800, Bo on a phone."""
    sizes = viewports or (LAPTOP, PHONE, LAPTOP)
    ann = new_page(browser, "en-US", sizes[0], errors)
    ann.goto(server + "/")
    ann.wait_for_selector("#create-form")
    ann.select_option("#preset", preset)
    ann.select_option("#seats", "3")
    ann.select_option("#bots", "0")
    ann.select_option("#timer", "0")
    ann.fill("#target", str(target))
    ann.click("#create-btn")
    ann.wait_for_selector("#share-link")
    link = ann.input_value("#share-link")
    ann.click("#open-table")
    ann.wait_for_selector(".waiting")
    pages = [ann]
    for page, name in ((ann, "Ann"), (new_page(browser, "ar", sizes[1], errors), "Bo"),
                       (new_page(browser, "he", sizes[2], errors), "Cy")):
        if page is not ann:
            page.goto(link)
            page.wait_for_selector(".waiting")
            page.wait_for_function(
                "n => document.querySelectorAll('.seat-row.kind-empty').length === 3 - n", arg=len(pages)
            )
            pages.append(page)
        page.fill("#my-name", name)
        page.click("button.sit >> nth=0")
        page.wait_for_selector(".seat-row.me")
    ann.wait_for_function("document.querySelectorAll('.seat-row.kind-human').length === 3")
    if before_start is not None:
        before_start(ann)
    ann.click("#start")
    for page in pages:
        page.wait_for_selector(".hand .card")
    return pages


def create_table(server: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/tables`` with ``body``: the table id, its link and the host token."""
    req = urllib.request.Request(f"{server}/api/tables", data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        made: dict[str, Any] = json.loads(answer.read())
    return made


@contextlib.contextmanager
def served(args: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """A server started as a subprocess (``args`` after the interpreter, ``--port 0`` among them):
    its address, read from its first line once it answers; stopped on exit."""
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://[\d.]+:\d+", line)
    assert match, f"no address in the server's first line: {line!r}"
    wait_ready(match.group(0))
    try:
        yield match.group(0)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()


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
