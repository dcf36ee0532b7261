"""The match summary's "verify this match": a link to the server's check of the record against
the seed commitment published at the start, and the command that checks it anywhere. A match of
two bots is played to its end (the host deals each round over a websocket), then the table's page
is opened in English and in Arabic (right to left)."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
ws_sync = pytest.importorskip("websockets.sync.client", reason="websockets is in the server extra")

from browser_helpers import LAPTOP, PHONE, close_all, new_page  # noqa: E402


def _http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read())


def bots_match_over(server: str) -> str:
    """A table of two bots played to the end of a short match; its id."""
    created = _http("POST", f"{server}/api/tables", {
        "preset": "official", "seats": 2, "bots": ["heuristic", "heuristic"], "bot_pause": 0.01,
        "options": {"target_score": 10},
    })
    table: str = created["table"]
    ws_url = server.replace("http://", "ws://") + f"/ws/{table}"
    with ws_sync.connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "host_token": created["host_token"]}))
        ws.send(json.dumps({"type": "start"}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            status = _http("GET", f"{server}/api/tables/{table}")["status"]
            if status == "match_over":
                return table
            if status == "round_over":  # nobody is seated: the host deals the next round
                ws.send(json.dumps({"type": "next_round"}))
            time.sleep(0.2)
    raise AssertionError(f"table {table}: the match is not over after 60 s")


def test_the_summary_links_to_the_check_of_the_match(server: str, browser: Any) -> None:
    table = bots_match_over(server)
    errors: list[str] = []
    pages = []
    for lang, viewport in (("en", LAPTOP), ("ar", PHONE)):
        page = new_page(browser, lang, viewport, errors)
        pages.append(page)
        page.goto(f"{server}/t/{table}")
        link = page.wait_for_selector("#summary #verify-link")
        assert link.get_attribute("href") == f"/t/{table}/verify"
        hint = page.inner_text("#verify")
        assert f"unotable verify unotable-{table}.json" in hint
        if lang == "en":
            assert link.inner_text() == "Verify this match"
        else:
            assert page.evaluate("document.documentElement.dir") == "rtl"
            assert link.inner_text() != "Verify this match"
        answer = page.request.get(f"{server}/t/{table}/verify")
        assert answer.ok
        body = answer.json()
        assert body["verified"] is True and body["message"].startswith("verified: seed ")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{lang}: the page overflows ({width} px)"
    close_all(pages, errors)
