"""A trained policy seated from the page (issue 35, item 3), in real chromium: the server's operator
offers a policy exported from a short training run (``unotable serve --policies DIR``); the host
picks it on the landing page as the bots' level, and plays a round against it through the page's
controls to its end. The table's public record names the policy as the bot's level."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from browser_helpers import LAPTOP, act_once, new_page, no_missing_strings, served, wait_changed  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def policy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server, offering ``dmc``: a Deep Monte-Carlo policy trained for a few thousand
    decisions by examples/train_dmc.py and exported to ONNX."""
    base = tmp_path_factory.mktemp("policy-server")
    policies = base / "policies"
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_dmc.py"), "--max-steps", "3000", "--envs", "16",
         "--batch", "256", "--eval", "0", "--onnx", str(policies / "dmc.onnx")],
        check=True, timeout=280, capture_output=True, cwd=ROOT,
    )
    with served(["-m", "unotable.server.run", "--port", "0", "--data-dir", str(base / "data"),
                 "--bot-pause", "0.2", "--round-pause", "3", "--policies", str(policies)]) as url:
        yield url


@pytest.mark.timeout(600)
def test_the_host_seats_a_trained_policy_from_the_page_and_plays_a_round(policy_server: str,
                                                                         browser: Any) -> None:
    errors: list[str] = []
    host = new_page(browser, "en-US", LAPTOP, errors)
    host.goto(policy_server + "/")
    host.wait_for_selector("#create-form")
    levels = host.eval_on_selector_all("#bot-level option", "els => els.map((e) => [e.value, e.textContent])")
    assert ["dmc", "dmc"] in levels, levels  # the operator's policy, listed after the levels
    assert [v for v, _ in levels][:4] == ["random", "rule-v1", "heuristic", "ismcts"]
    host.select_option("#seats", "2")
    host.select_option("#bots", "1")
    host.select_option("#bot-level", "dmc")
    host.select_option("#timer", "0")
    host.fill("#target", "1")  # the match ends with the first round
    host.click("#create-btn")
    host.wait_for_selector("#share-link")
    table = host.input_value("#share-link").rsplit("/", 1)[-1]
    host.click("#open-table")
    host.wait_for_selector(".waiting .seat-row.kind-bot")
    host.fill("#my-name", "Ann")
    host.click("button.sit >> nth=0")
    host.wait_for_selector(".seat-row.me")
    no_missing_strings(host)
    host.click("#start")
    host.wait_for_selector(".hand .card")

    deadline = time.monotonic() + 300
    moves = 0
    state: dict[str, Any] = {}
    while not host.locator("#summary").count():
        assert time.monotonic() < deadline, f"the round did not end within the time ({moves} moves)"
        if not (host.locator("#your-turn").count() or host.locator(".controls .color-btn").count()):
            host.wait_for_timeout(50)
            continue
        seq = host.evaluate("window.unotable.page.view.seq")
        if act_once(host, keyboard=False, state=state):
            moves += 1
            with contextlib.suppress(sync_api.TimeoutError):
                wait_changed(host, seq)
    host.wait_for_selector("#summary .standings")
    assert host.locator("#summary .standings tbody tr").count() == 2
    no_missing_strings(host)
    with urllib.request.urlopen(f"{policy_server}/api/tables/{table}", timeout=10) as resp:
        public = json.loads(resp.read())
    bot = public["seats"][1]
    assert bot["kind"] == "bot" and bot["level"] == "dmc", bot
    assert public["status"] in ("round_over", "match_over", "finished"), public["status"]
    assert not errors, errors
    host.context.close()
