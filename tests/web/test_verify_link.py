"""Fair deals anyone can check, in the player's language. During play the table's "Fair deals"
shows the seed commitment the server published before the first deal; once the match is over the
summary links to the verify page (/t/ID/verify), which says what was checked and the result of
each check, shows the commitment to compare with the one shown during play, each round's deal
recomputed from the revealed seed, and the command that checks it anywhere. A match of two bots is
played to its end (the host deals each round over a websocket); the pages open in English and in
Arabic (right to left) on a phone (360x740) and a laptop (1280x800)."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
ws_sync = pytest.importorskip("websockets.sync.client", reason="websockets is in the server extra")

from browser_helpers import LAPTOP, PHONE, close_all, new_page, no_missing_strings, shot  # noqa: E402

CHECKS = ["record", "commitment", "seed", "deals", "final"]


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


def _fits(page: Any, viewport: dict[str, int], what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.right > w + 0.5 || r.left < -0.5;
      }).slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className}`)""", viewport["width"])
    assert width <= viewport["width"], f"{what}: the page overflows ({width} px): {wide}"


@contextlib.contextmanager
def match_in_play(server: str) -> Iterator[str]:
    """A table mid-match: a person's seat (the host's connection, held open) that never plays, so
    the table waits on it; its id."""
    created = _http("POST", f"{server}/api/tables", {
        "preset": "official", "seats": 2, "bots": [None, "heuristic"], "bot_pause": 0.01,
    })
    table: str = created["table"]
    with ws_sync.connect(server.replace("http://", "ws://") + f"/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "host_token": created["host_token"]}))
        ws.send(json.dumps({"type": "sit", "seat": 0, "name": "Ann"}))
        ws.send(json.dumps({"type": "start"}))
        deadline = time.monotonic() + 20
        while _http("GET", f"{server}/api/tables/{table}")["status"] != "playing":
            assert time.monotonic() < deadline, "the match did not start"
            time.sleep(0.1)
        yield table


def test_the_commitment_shows_during_play_under_fair_deals(server: str, browser: Any) -> None:
    errors: list[str] = []
    pages = []
    with match_in_play(server) as table:
        deal = _http("GET", f"{server}/api/tables/{table}")["deal"]
        assert deal["commitment"].startswith("sha256:") and deal["seed"] is None
        for lang, viewport in (("en", LAPTOP), ("ar", PHONE)):
            page = new_page(browser, lang, viewport, errors)
            pages.append(page)
            page.goto(f"{server}/t/{table}")
            box = page.locator("#fair-deals")
            box.locator("summary").click()
            shown = page.locator("#fair-commitment")
            shown.wait_for()
            assert shown.inner_text() == deal["commitment"]
            assert box.locator("summary").inner_text() == ("Fair deals" if lang == "en" else "توزيع عادل")
            assert not page.query_selector("#fair-verify")  # no check before the seed is revealed
            shown.scroll_into_view_if_needed()
            assert shown.is_visible()
            _fits(page, viewport, f"{lang} table")
            shot(page, f"fair-deals-{lang}-{viewport['width']}")
        close_all(pages, errors)


def test_the_summary_opens_the_check_in_the_players_language(server: str, browser: Any) -> None:
    table = bots_match_over(server)
    expected = _http("GET", f"{server}/api/tables/{table}/verify")
    assert expected["verified"] is True and expected["failed"] is None
    rounds = expected["result"]["rounds"]
    errors: list[str] = []
    pages = []
    for lang, viewport in (("en", LAPTOP), ("ar", PHONE), ("en", PHONE), ("ar", LAPTOP)):
        page = new_page(browser, lang, viewport, errors)
        pages.append(page)
        page.goto(f"{server}/t/{table}")
        # a locator, not an element handle: the summary may be drawn again (a late update) before the click
        link = page.locator("#summary #verify-link")
        link.wait_for()
        assert link.get_attribute("href") == f"/t/{table}/verify"
        assert f"python3 -m unotable verify {server}/t/{table}" in page.inner_text("#verify")
        with page.context.expect_page() as opened:
            link.click()
        check = opened.value
        check.wait_for_selector("#verify-verdict")
        assert check.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        assert check.get_attribute("#verify-verdict", "data-verified") == "true"
        verdict = check.inner_text("#verify-verdict")
        if lang == "en":
            assert verdict.startswith("✓ Verified: every deal of this match came from the seed")
        else:
            assert verdict.startswith("✓") and "Verified" not in verdict
        # the commitment shown during play and the seed revealed after it
        assert check.inner_text("#verify-commitment") == expected["commitment"]["digest"]
        assert check.inner_text("#verify-seed") == expected["seed"] == str(expected["reveal"]["seed"])
        # what was checked, each one passed
        items = check.query_selector_all("#verify-checks li")
        assert [i.get_attribute("data-check") for i in items] == CHECKS
        assert all(i.get_attribute("data-ok") == "true" for i in items)
        # each round recomputed from the seed: as many rows as deals
        assert len(check.query_selector_all("#verify-rounds tbody tr")) == len(rounds) >= 1
        assert check.inner_text("#verify-command") == expected["command"]
        assert check.get_attribute("#verify-record", "href") == f"/t/{table}/record"
        _fits(check, viewport, f"{lang} verify page")
        shot(check, f"verify-{lang}-{viewport['width']}")
        no_missing_strings(check)  # (closed with its opener's context)
    close_all(pages, errors)


def test_a_record_that_does_not_verify_says_which_check_failed(server: str, browser: Any) -> None:
    """The page draws the server's answer for a record that fails (the answer is replaced on its
    way to the page: a finished match on a real server always verifies)."""
    table = bots_match_over(server)
    good = _http("GET", f"{server}/api/tables/{table}/verify")
    failed = {**good, "verified": False, "failed": "deals", "failed_round": 2, "result": None,
              "message": "the record does not replay from its seed: round 2, action 40 (1, R5): no R5"}
    errors: list[str] = []
    pages = []
    for lang, viewport in (("en", PHONE), ("ar", LAPTOP)):
        page = new_page(browser, lang, viewport, errors)
        pages.append(page)
        page.route(f"**/api/tables/{table}/verify", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(failed)))
        page.goto(f"{server}/t/{table}/verify")
        page.wait_for_selector("#verify-verdict")
        assert page.get_attribute("#verify-verdict", "data-verified") == "false"
        oks = [i.get_attribute("data-ok") for i in page.query_selector_all("#verify-checks li")]
        assert oks == ["true", "true", "true", "false", "skip"]
        if lang == "en":
            assert page.inner_text("#verify-verdict").startswith("✗ Not verified")
            assert "Round 2 does not replay from the seed." in page.inner_text("#verify-page")
        assert "no R5" in page.inner_text("#verify-detail")
        _fits(page, viewport, f"{lang} failed verify page")
    # a match still being played: the seed is secret, the page says when to come back
    with match_in_play(server) as playing:
        page = new_page(browser, "en", PHONE, errors)
        pages.append(page)
        page.goto(f"{server}/t/{playing}/verify")
        page.wait_for_selector("#verify-verdict")
        assert page.inner_text("#verify-verdict").startswith("The seed is revealed when the match is over")
        refused = "en: Failed to load resource: the server responded with a status of 409 (Conflict)"
        assert refused in errors  # (the browser's own line for the refusal the page explains)
        errors.remove(refused)
        close_all(pages, errors)
