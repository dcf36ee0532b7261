"""A bot's name is said in the page's language: "Bot 1" in English, its word in Arabic, Persian and
Hebrew (the server names a bot "Bot N", N its seat from 0, as the record does; the page renders
a bot seat with that server-given name as its own word and the number). A name a person chose is
shown as it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
ws_sync = pytest.importorskip("websockets.sync.client", reason="websockets is in the server extra")

from browser_helpers import LAPTOP, PHONE, close_all, create_table, new_page  # noqa: E402

TEXTS = "els => els.map((e) => e.textContent)"
LOCALES = Path(__file__).resolve().parents[2] / "unotable" / "server" / "web" / "locales"


def _word(lang: str) -> str:
    """The language's word for a bot in its name ("Bot" of "Bot {n}")."""
    text: str = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))["seat.bot_name"]
    return text.replace("{n}", "").strip()


def test_bot_names_in_every_language(server: str, browser: Any) -> None:
    words = {lang: _word(lang) for lang in ("en", "ar", "fa", "he")}
    assert words["en"] == "Bot" and len(set(words.values())) == 4, words
    # a waiting room: a person's seat (free), two bots
    waiting = create_table(server, {"seats": 3, "bots": [None, "random", "heuristic"]})
    # a table in play: three bots that hold still (a spectator sees every seat at its place)
    playing = create_table(server, {"seats": 3, "bots": ["random", "random", "random"], "bot_pause": 60})
    with ws_sync.connect(server.replace("http://", "ws://") + f"/ws/{playing['table']}") as ws:
        ws.send(json.dumps({"type": "hello", "host_token": playing["host_token"]}))
        ws.send(json.dumps({"type": "start"}))
        while (json.loads(ws.recv(timeout=10)).get("table") or {}).get("status") != "playing":
            pass
    errors: list[str] = []
    pages = []
    for lang, word in words.items():
        page = new_page(browser, lang, PHONE if lang != "en" else LAPTOP, errors)
        pages.append(page)
        page.goto(f"{server}/t/{waiting['table']}")
        page.wait_for_selector(".waiting .seat-row.kind-bot")
        rows = page.eval_on_selector_all(".seat-row.kind-bot .seat-name", TEXTS)
        assert len(rows) == 2 and all(word in r for r in rows), (lang, rows)
        if lang != "en":
            assert not any("Bot" in r for r in rows), (lang, rows)
        page.goto(f"{server}/t/{playing['table']}")
        page.wait_for_selector(".seats .seat")
        chips = page.eval_on_selector_all(".seats .seat .seat-name", TEXTS)
        assert len(chips) == 3 and all(c.startswith(word) for c in chips), (lang, chips)
        if lang == "en":
            # seats count from 1 on the page (the server and the record count from 0): "Bot 1" sits in
            # seat 1, the first (issue 36)
            assert chips == ["Bot 1", "Bot 2", "Bot 3"], chips
        else:
            assert not any("Bot" in c for c in chips), (lang, chips)
            # the same seat numbers, in the language's digits
            digits = page.evaluate("[1, 2, 3].map((n) => new Intl.NumberFormat(document.documentElement.lang)"
                                   ".format(n))")
            assert [c[-1] for c in chips] == digits, (lang, chips, digits)
    close_all(pages, errors)
