"""The browser table in Firefox and in WebKit (Safari's engine), beside the chromium tests.

Each test runs once per browser against a real ``unotable serve`` process (the ``server`` fixture):
Debian's firefox-esr driven over WebDriver BiDi, and WebKitGTK's MiniBrowser (the engine and
JavaScriptCore of Safari, not Safari itself) driven by WebKitWebDriver; see webdriver_clients.py.
Screenshots at 1280x800 are saved under tests/web/artifacts/ (gitignored) as BROWSER-*.png.
Beside the landing page and a round against bots, a round's summary waits for the player's "Ready"
and a reaction shows as a bubble at the seat. People's actions are clicks on the page's own
controls (``element.click()``) and choices in its selects (a "change" event), never messages sent
around the page.

``make test`` installs both browsers when they are missing; without one, its tests are skipped
saying why.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import ARTIFACTS, create_table
from webdriver_clients import NAMES, Browser, BrowserUnavailable, launch

# the page is drawn: the create form with its selects filled
LANDING_READY = (
    "!!document.querySelector('#create-form') && document.querySelector('#preset').options.length > 0"
    " && document.querySelector('#seats').options.length > 0"
    " && document.querySelector('#bots').options.length > 0"
)
# where an element sits: its distance from the left edge and from the right edge of the page
# The margins from the page's left and right edges, measured with the page's scroll bar hidden: a
# right-to-left page in Firefox puts its scroll bar on the left, which would shift every margin by
# the bar's width whenever the page is taller than the window.
EDGES = """(() => {
  const root = document.documentElement;
  const before = root.style.overflowY;
  root.style.overflowY = "hidden";
  const out = [...arguments_selectors].map((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return [r.left, root.clientWidth - r.right];
  });
  root.style.overflowY = before;
  return out;
})()"""
MIRRORED = ("header .brand", "#lang-select", "#create-btn")

# One move through the page's controls when there is one for this seat; what it did, with the
# view's seq and hand size before it. A card with more than one way to play it opens a chooser
# (a color, a target), answered at the next step.
ACT = """(() => {
  const q = (s) => document.querySelector(s);
  const page = window.unotable.page;
  const v = page.view;
  if (q("#summary")) return { kind: "over" };
  if (!v || !v.hand) return { kind: "none" };
  const base = { seq: v.seq, hand: v.hand.length, error: page.error || "" };
  const click = (el, kind, detail) => { el.click(); return { ...base, kind, detail: detail ?? "" }; };
  let el;
  if ((el = q(".chooser .color-btn, .chooser .target-btn"))) {
    return click(el, "choose", el.dataset.color ?? el.dataset.target);
  }
  if ((el = q(".controls .color-btn"))) return click(el, "color", el.dataset.action);
  if ((el = q("#call-uno"))) return click(el, "uno");
  if (!q("#your-turn")) return { ...base, kind: "none" };
  // a wild first when there is one, so that its color is chosen through the page too
  if ((el = q(".hand .card.selected"))) return click(el, "card", el.dataset.card);
  // a wild first when there is one, so that its color is chosen through the page too; the first
  // tap chooses the card (the next step taps it again)
  if ((el = q(".hand .card.playable[data-key^='card-W']") || q(".hand .card.playable"))) {
    return click(el, "select", el.dataset.card);
  }
  for (const id of ["accept", "pass", "draw"]) {
    if ((el = q(`#${id}`))) return click(el, id);
  }
  return { ...base, kind: "none" };
})()"""
# something for this seat to do, or the round is over
MY_MOVE = (
    "!!document.querySelector('#summary, #your-turn, .controls .color-btn, .chooser, #call-uno')"
)
# every card is in a hand, the draw pile or the discard pile
CARDS = (
    "(() => { const v = window.unotable.page.view;"
    " return v.hand_sizes.reduce((a, b) => a + b, 0) + v.draw_pile_size + v.discard_pile.length; })()"
)
MY_EVENTS = (
    "(() => { const p = window.unotable.page; const me = p.you.seat;"
    " return p.log.filter((l) => l.e.seat === me && ['card_played', 'drew', 'passed'].includes(l.e.type))"
    ".map((l) => ({ seq: l.seq, type: l.e.type, card: l.e.card ?? null, reason: l.e.reason ?? null })); })()"
)


@pytest.fixture(params=NAMES)
def other_browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """Firefox or WebKit, one page 1280x800; skipped saying why when it is missing or does not start."""
    try:
        b = launch(request.param)
    except BrowserUnavailable as exc:
        pytest.skip(f"{request.param}: {exc}")
    try:
        yield b
    finally:
        b.close()


def edges(b: Browser, selectors: tuple[str, ...]) -> list[list[float]]:
    value: list[list[float]] = b.evaluate(EDGES.replace("arguments_selectors", json.dumps(list(selectors))))
    return value


def assert_clean(b: Browser) -> None:
    assert b.errors() == [], f"{b.version}: errors on the page"
    missing = b.evaluate("window.__missingKeys")
    assert missing == [], f"{b.version}: strings missing: {missing[:10]}"


@pytest.mark.timeout(120)
def test_landing_page_and_arabic_layout(server: str, other_browser: Browser) -> None:
    b = other_browser
    b.open(server + "/")
    b.wait_for(LANDING_READY, what="the create form")
    assert b.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["en", "ltr"]
    presets = b.evaluate("[...document.querySelectorAll('#preset option')].map((o) => o.value)")
    assert "official" in presets and len(presets) >= 5, presets
    assert b.evaluate("document.querySelector('#preset-desc').textContent.length") > 10
    # the seats and bots selects follow each other: 4 seats offer 0..3 bots
    b.select("#seats", "4")
    bots = b.evaluate("[...document.querySelectorAll('#bots option')].map((o) => o.value)")
    assert bots == ["0", "1", "2", "3"]
    ltr = edges(b, MIRRORED)
    b.screenshot(ARTIFACTS / f"{b.name}-landing-en-1280.png")
    title = b.evaluate("document.querySelector('#create-form h1').textContent")
    assert_clean(b)

    # the language switch: Arabic, right to left, the layout mirrored
    b.select("#lang-select", "ar")
    b.wait_for(
        "document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar'"
        f" && document.querySelector('#create-form h1')?.textContent !== {json.dumps(title)}",
        what="the Arabic page",
    )
    b.wait_for(LANDING_READY, what="the Arabic create form")
    assert re.search(r"[\u0600-\u06ff]", b.evaluate("document.querySelector('#create-form h1').textContent"))
    rtl = edges(b, MIRRORED)
    b.screenshot(ARTIFACTS / f"{b.name}-landing-ar-1280.png")
    for sel, (left, right), (left_ar, right_ar) in zip(MIRRORED, ltr, rtl, strict=True):
        # the element moved to the other side: its margin from the left edge in English is its
        # margin from the right edge in Arabic
        assert abs(left - right_ar) <= 2, (b.version, sel, ltr, rtl)
        assert (left < right) != (left_ar < right_ar), (b.version, sel, ltr, rtl)
    assert b.evaluate("getComputedStyle(document.querySelector('#create-form')).direction") == "rtl"
    assert_clean(b)

    # the choice is remembered
    b.open(server + "/")
    b.wait_for(LANDING_READY, what="the create form after a reload")
    assert b.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["ar", "rtl"]
    assert b.evaluate("document.querySelector('#lang-select').value") == "ar"
    assert_clean(b)


@pytest.mark.timeout(180)
def test_a_round_against_bots_through_the_page(server: str, other_browser: Browser) -> None:
    b = other_browser
    b.open(server + "/")
    b.wait_for(LANDING_READY, what="the create form")
    # a table of 4 seats, 3 bots, no turn timer, 1 point to win (the match ends with the round)
    b.select("#preset", "official")
    b.select("#seats", "4")
    b.select("#bots", "3")
    b.select("#timer", "0")
    b.fill("#target", "1")
    b.click("#create-btn")
    b.wait_selector("#share-link")
    link = b.evaluate("document.querySelector('#share-link').value")
    assert re.fullmatch(re.escape(server) + r"/t/[\w-]+", link), link
    href = b.evaluate("document.querySelector('#open-table').href")
    assert href == link
    assert_clean(b)

    b.open(href)
    b.wait_for("document.querySelectorAll('.waiting .seat-row').length === 4", what="the waiting room")
    assert b.evaluate("document.querySelectorAll('.seat-row.kind-bot').length") == 3
    b.fill("#my-name", "Ann")
    b.click("button.sit")
    b.wait_selector(".seat-row.me")
    assert b.evaluate("document.querySelector('.seat-row.me .seat-name').textContent").startswith("Ann")
    b.click("#start")
    b.wait_for("document.querySelectorAll('.hand .card').length >= 7", what="the dealt hand")
    assert b.evaluate("document.querySelectorAll('.seats .seat').length") == 3
    assert b.evaluate("document.querySelector('.hand-head .me-name').textContent") == "Ann"
    total = b.evaluate(CARDS)
    assert total == 108, total
    start_seq = b.evaluate("window.unotable.page.view.seq")
    b.screenshot(ARTIFACTS / f"{b.name}-play-en-1280.png")

    moves: list[dict[str, Any]] = []
    played: list[str] = []  # the cards this seat played, as the hand shows them
    card = ""  # the card whose color (or target) the chooser asks for
    deadline = time.monotonic() + 90
    while len(moves) < 15:
        if time.monotonic() > deadline:
            legal = b.evaluate("window.unotable.page.view?.legal")
            pytest.fail(f"{b.version}: only {len(moves)} moves in time: {moves}; legal now: {legal}")
        step = b.evaluate(ACT)
        if step["kind"] == "over":
            break
        if step["kind"] == "none":
            b.wait_for(MY_MOVE, timeout=20, what="this seat's turn")
            continue
        assert not step["error"], f"{b.version}: the page says {step['error']!r} before {step}"
        moves.append(step)
        if step["kind"] == "select":
            # the first tap chooses the card: it rises, and the next step taps it again
            chosen = ("!!document.querySelector('.hand .card.selected') || !!window.unotable.page.error"
                      f" || window.unotable.page.view.seq !== {step['seq']}")
            b.wait_for(chosen, what=f"the card chosen after {step}")
            continue
        chooser = step["kind"] in ("card", "choose")
        if step["kind"] == "card":
            card = step["detail"]
        changed = f"window.unotable.page.view.seq !== {step['seq']} || !!window.unotable.page.error"
        if step["kind"] == "card":
            # a card with a single way to play is sent at once; a wild first asks for its color
            changed += " || !!document.querySelector('.chooser')"
        elif step["kind"] == "choose":
            # the color chosen, the card is sent (or, with a target to choose, the targets shown)
            changed += " || !!document.querySelector('.chooser .target-btn')"
        b.wait_for(changed, what=f"the table after {step}")
        page_error = b.evaluate("window.unotable.page.error")
        assert not page_error, f"{b.version}: the page says {page_error!r} after {step}"
        now = b.evaluate("window.unotable.page.view.seq")
        if now == step["seq"]:
            choices = b.evaluate("document.querySelectorAll('.chooser button').length")
            assert chooser and choices >= 2, (b.version, step)
        else:
            assert now > step["seq"], (b.version, step, now)
            if chooser:
                played.append(card)
        assert b.evaluate(CARDS) == total, f"{b.version}: cards went missing after {step}"

    over = b.evaluate("!!document.querySelector('#summary')")
    b.screenshot(ARTIFACTS / f"{b.name}-{'summary' if over else 'play-later'}-en-1280.png")
    assert over or len(moves) >= 15, (b.version, moves)
    assert b.evaluate("window.unotable.page.view.seq") > start_seq
    # the table did what the page asked: each card played here is in the log as this seat's play,
    # each click on the draw pile as a draw
    mine = b.evaluate(MY_EVENTS)
    cards_played = [e["card"] for e in mine if e["type"] == "card_played"]
    assert len(cards_played) == len(played), (b.version, mine, moves)
    assert cards_played == played, (b.version, played, cards_played)
    draws = sum(1 for m in moves if m["kind"] == "draw")
    assert sum(1 for e in mine if e["type"] == "drew") >= draws, (b.version, mine, moves)
    if over:
        b.wait_selector("#summary .standings")
        assert b.evaluate("document.querySelectorAll('#summary .standings tbody tr').length") == 4
        b.wait_selector("#rematch")
    assert b.evaluate("document.querySelectorAll('.log li').length") > 0
    assert_clean(b)

    # the table in Arabic: the page mirrors, the table does not (play runs clockwise around it in
    # every language: the seat after this one on the left, over the top, the last on the right)
    xs = "[...document.querySelectorAll('.seats .seat')].map((e) => e.getBoundingClientRect().x)"
    seats = b.evaluate(xs)
    assert len(seats) == 3 and seats == sorted(seats), seats
    b.select("#lang-select", "ar")
    b.wait_for("document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar'")
    seats = b.evaluate(xs)
    assert len(seats) == 3 and seats == sorted(seats), seats
    b.screenshot(ARTIFACTS / f"{b.name}-table-ar-1280.png")
    assert_clean(b)


@pytest.mark.timeout(120)
def test_a_reaction_and_ready_for_the_next_round_through_the_page(
    positioned_server: str, other_browser: Browser
) -> None:
    """The summary waits for "Ready" and a reaction shows at the seat: in Firefox and WebKit too.
    The table starts from positions.py's "19" (Ann holds her last card); the summary's countdown
    is 10 minutes, so only Ann's "Ready" (the one connected person) deals the next round."""
    b = other_browser
    made = create_table(positioned_server, {
        "preset": "official", "seats": 3, "bots": [None, "heuristic", "heuristic"], "bot_pause": 0.3,
        "round_pause": 600, "options": {"target_score": 19},
    })
    table = made["table"]
    b.open(f"{positioned_server}/static/style.css")  # the site's origin, a page that fetches nothing
    b.evaluate(f"localStorage.setItem('ut:host:{table}', {json.dumps(made['host_token'])})")
    b.open(f"{positioned_server}/t/{table}")  # with the host token, as the landing page keeps it
    b.wait_for("document.querySelectorAll('.waiting .seat-row').length === 3", what="the waiting room")
    b.fill("#my-name", "Ann")
    b.click("button.sit")
    b.wait_selector(".seat-row.me")
    b.click("#start")
    b.wait_for("document.querySelectorAll('.hand .card.playable').length === 1", what="Ann's last card")

    # a reaction: the bubble at her place, in the words of its button
    said = b.evaluate("document.querySelector('.reactions .react[data-reaction=\"gg\"]').textContent")
    b.click(".reactions .react[data-reaction='gg']")
    b.wait_selector(".me-spot .bubble[data-reaction='gg']")
    assert b.evaluate("document.querySelector('.me-spot .bubble').textContent") == said
    b.screenshot(ARTIFACTS / f"{b.name}-reaction-en-1280.png")

    # her last card (tap to choose, tap again to play): the round is over, the summary waits
    b.click(".hand .card.playable")
    b.wait_selector(".hand .card.selected")
    b.click(".hand .card.selected")
    b.wait_selector("#summary #ready")
    assert b.evaluate("window.unotable.page.table.status") == "round_over"
    assert b.evaluate("document.querySelector('#ready-list').textContent.length") > 0
    b.screenshot(ARTIFACTS / f"{b.name}-ready-en-1280.png")
    assert_clean(b)
    b.click("#ready")
    b.wait_for("window.unotable.page.view?.round_no === 2 && !document.querySelector('#summary')"
               " && document.querySelectorAll('.hand .card').length === 7", timeout=20,
               what="the next round, dealt on Ann's Ready")
    assert_clean(b)
