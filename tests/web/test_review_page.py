"""The match summary's "Review this match": a seated player's own decisions, judged by the server.

A person (a scripted client over a real websocket, as a second tab of the same player would be)
plays a one-round heads-up match against a bot; the player's page then opens with that seat's
token (kept in localStorage, as the page keeps it), clicks "Review this match", sees the progress,
then the costliest decisions. A reload shows the kept review at once; a spectator's page offers no
review; the page in Arabic says it right to left.
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
ws_sync = pytest.importorskip("websockets.sync.client", reason="websockets is in the server extra")

from browser_helpers import ARTIFACTS, LAPTOP, PHONE, close_all, new_page  # noqa: E402

WORLDS = 20  # a rough, quick review (the page's knob: localStorage ut:review_worlds)
TURN = ("play", "play_drawn", "choose_color", "respond")


def _http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read())


def _pick(view: dict[str, Any]) -> str | None:
    """The scripted person's move: a card when it has one (with UNO), else draw, pass or take."""
    legal: list[str] = view["legal"]
    if view["active"] != view["seat"] or view["phase"] not in TURN:
        return None
    plays = [a for a in legal if a not in ("uno", "draw", "pass", "accept", "challenge")
             and not a.startswith("catch:")]
    uno = [a for a in plays if a.endswith("!")]
    for choice in (uno, plays, [a for a in legal if a in ("pass", "draw", "accept")], legal):
        if choice:
            return choice[0]
    return None


def played_match(server: str) -> tuple[str, str]:
    """A one-round match of a person (seat 0) and a random bot, played to its end: table, token."""
    created = _http("POST", f"{server}/api/tables", {
        "preset": "official", "seats": 2, "bots": [None, "random"], "bot_pause": 0.01,
        "options": {"scoring": "none"},
    })
    table = created["table"]
    with ws_sync.connect(server.replace("http://", "ws://") + f"/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "host_token": created["host_token"]}))
        ws.send(json.dumps({"type": "sit", "seat": 0, "name": "Ann"}))
        token = None
        sent_at = -1
        last: dict[str, Any] | None = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "token":
                token = msg["token"]
                ws.send(json.dumps({"type": "start"}))
            if (msg.get("table") or {}).get("status") == "match_over":
                assert token
                return table, token
            if msg["type"] == "error":  # refused (too fast, a race): the same view, asked again
                time.sleep(0.3)
                sent_at = -1
            view = msg.get("view") or last
            last = view
            if view and view["seq"] > sent_at:
                action = _pick(view)
                if action is not None:
                    sent_at = view["seq"]
                    ws.send(json.dumps({"type": "act", "action": action}))
    raise AssertionError(f"table {table}: the match is not over after 90 s")


def test_review_this_match_shows_progress_then_the_costliest_decisions(server: str, browser: Any) -> None:
    table, token = played_match(server)
    errors: list[str] = []
    page = new_page(browser, "en", LAPTOP, errors)
    page.add_init_script(
        f"localStorage.setItem('ut:seat:{table}', {json.dumps(token)});"
        f"localStorage.setItem('ut:review_worlds', '{WORLDS}');"
    )
    # the answers are replaced by one of a review under way, with the server's estimate of the
    # time left, until the test has read it (a real review of this short match may be done before
    # the page could show it); then the server answers
    under_way = {"status": "running", "seat": 0, "worlds": WORLDS, "done": 3, "total": 10,
                 "elapsed_s": 6.0, "eta_s": 42.4}
    seen: list[str] = []

    def first_running(route: Any) -> None:
        if seen:
            route.continue_()
            return
        route.fulfill(status=202, content_type="application/json", body=json.dumps(under_way))

    page.route(f"**/t/{table}/review", first_running)
    page.goto(f"{server}/t/{table}")
    # a locator, not an element handle: the summary may be drawn again (a late update, the welcome
    # of a resumed connection) between finding the button and clicking it
    button = page.locator("#summary #review-btn")
    button.wait_for()
    assert button.inner_text() == "Review this match"
    assert not page.query_selector("#review-list")
    button.click()
    # the progress first (the server answers 202 while its worker judges the decisions)...
    page.wait_for_selector("#review #review-progress", state="attached")
    assert page.get_attribute("#review", "aria-busy") == "true"
    said = page.inner_text("#review-title")
    assert said == "Reviewing your decisions: 3 of 10 · about 42 seconds left", said
    seen.append(said)
    # ... then the costliest decisions, with the better action
    page.wait_for_selector("#review-list, #review-none", timeout=120_000)
    answer = page.request.post(f"{server}/t/{table}/review", data={"token": token, "worlds": WORLDS}).json()
    assert answer["status"] == "done" and answer["seat"] == 0
    items = page.query_selector_all("#review-list .review-item")
    assert len(items) == len(answer["worst"])
    assert page.get_attribute("#review", "aria-busy") == "false"
    if items:  # the unit of the losses, once
        assert page.inner_text("#review-unit").startswith("A loss is in points of win chance")
    for item, d in zip(items, answer["worst"], strict=True):
        text = item.inner_text()
        assert text.startswith(f"−{round(100 * d['cost'])} point"), (text, d)
        assert "of win chance" in text and f"Round {d['round']}, turn {d['turn']}: you chose" in text, text
        assert "was better" in text and "Your hand:" in text, text
        assert item.get_attribute("data-index") == str(d["index"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "review-en-1280.png"))

    # a reload: the kept review, at once, without asking again
    page.reload()
    page.wait_for_selector("#review-list, #review-none", timeout=10_000)
    assert not page.query_selector("#review-btn")

    # a spectator's page offers no review; the server refuses one without a seat's token
    watcher = new_page(browser, "ar", PHONE, errors)
    watcher.goto(f"{server}/t/{table}")
    watcher.wait_for_selector("#summary #verify-link")
    assert not watcher.query_selector("#review, #review-btn")
    refused = watcher.request.post(f"{server}/t/{table}/review", data={})
    assert refused.status == 403 and refused.json()["code"] == "forbidden"

    # the player's page in Arabic, where this match's review was asked for before (the page keeps
    # the match's seed commitment): the review at once, its words right to left
    commitment = _http("GET", f"{server}/api/tables/{table}")["deal"]["commitment"]
    mine = new_page(browser, "ar", PHONE, errors)
    mine.add_init_script(f"localStorage.setItem('ut:seat:{table}', {json.dumps(token)});"
                         f"localStorage.setItem('ut:review_worlds', '{WORLDS}');"
                         f"localStorage.setItem('ut:review:{table}', {json.dumps(commitment)});")
    mine.goto(f"{server}/t/{table}")
    mine.wait_for_selector("#review-list, #review-none", timeout=10_000)
    assert mine.evaluate("document.documentElement.dir") == "rtl"
    assert "you chose" not in mine.inner_text("#review")
    width = mine.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page overflows ({width} px)"
    # asked for another match of the table (before a rematch): this one's review waits for a click
    before = new_page(browser, "en", PHONE, errors)
    before.add_init_script(f"localStorage.setItem('ut:seat:{table}', {json.dumps(token)});"
                           f"localStorage.setItem('ut:review:{table}', 'sha256:another-match');")
    before.goto(f"{server}/t/{table}")
    before.wait_for_selector("#summary #review-btn")
    assert not before.query_selector("#review-list, #review-none, #review-progress")
    close_all([page, watcher, mine, before], errors)
