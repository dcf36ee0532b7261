"""Situations set up exactly, then played through the page: a missed UNO caught with the catch
control, a Wild Draw Four challenged from the prompt with its color named in the chooser, a 7 aimed
at a chosen seat, a stack and a jump-in under ``house``, a Color Roulette's color named under
``no-mercy``.

Three people (Ann in English at 1280x800, the host; Bo in Arabic on a phone; Cy in Hebrew) create
and join each table through the page; the server is the real one, started by
``tests/web/position_server.py`` so that a table whose target score names a position below starts
from it. Everything after that is clicks on the page's controls.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")

from browser_helpers import LAPTOP, PHONE, Page, new_page, no_missing_strings, shot, wait_ready  # noqa: E402

BASE = {"fill": "draw", "dealer": 2, "active": 0}
POSITIONS = {
    # target score -> position (seat 0 Ann, 1 Bo, 2 Cy); the top card is R5
    "11": {**BASE, "hands": [["W4", "R1", "G7"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"]},
    "12": {**BASE, "hands": [["R1", "R2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"]},
    "13": {**BASE, "hands": [["R7", "G1", "B2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6", "Y9"]],
           "discard": ["R5"]},
    "14": {**BASE, "hands": [["R6", "RD2", "B2"], ["GD2", "Y3", "Y4"], ["R6", "Y9", "G3"]],
           "discard": ["R5"]},
    "15": {**BASE, "hands": [["WCR", "G1", "B2"], ["Y3", "Y4", "B5"], ["G3", "G4", "B6"]], "discard": ["R5"],
           "draw": ["Y7", "G9"]},
}


@pytest.fixture(scope="module")
def positioned_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("web-positions")
    path = data / "positions.json"
    path.write_text(json.dumps(POSITIONS))
    launcher = Path(__file__).with_name("position_server.py")
    proc = subprocess.Popen(
        [sys.executable, str(launcher), "--port", "0", "--data-dir", str(data), "--bot-pause", "0.3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "UNOTABLE_TEST_POSITIONS": str(path)},
    )
    assert proc.stdout is not None
    match = re.search(r"http://[\d.]+:\d+", proc.stdout.readline())
    assert match
    wait_ready(match.group(0))
    try:
        yield match.group(0)
    finally:
        proc.terminate()
        proc.wait(10)


def table(browser: Any, server: str, preset: str, target: int, errors: list[str]) -> list[Page]:
    """Ann creates a 3-seat table on the landing page; Bo and Cy join by its link; Ann starts."""
    ann = new_page(browser, "en-US", LAPTOP, errors)
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
    for page, name in ((ann, "Ann"), (new_page(browser, "ar", PHONE, errors), "Bo"),
                       (new_page(browser, "he", LAPTOP, errors), "Cy")):
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
    ann.click("#start")
    for page in pages:
        page.wait_for_selector(".hand .card")
    return pages


def hand(page: Page) -> int:
    return page.locator(".hand .card").count()


def close(pages: list[Page], errors: list[str]) -> None:
    for page in pages:
        no_missing_strings(page)
        page.context.close()
    assert not errors, errors


def test_a_wild_draw_four_named_in_the_chooser_and_challenged_from_the_prompt(
    positioned_server: str, browser: Any
) -> None:
    errors: list[str] = []
    ann, bo, cy = table(browser, positioned_server, "official", 11, errors)
    ann.click(".hand .card.playable[data-card='W4']")
    ann.wait_for_selector(".chooser .color-btn")
    shot(ann, "chooser-en-1280")
    ann.click(".chooser .color-btn[data-color='B']")  # the color is named in the chooser
    bo.wait_for_selector("#challenge")
    assert bo.locator("#accept").count() == 1
    shot(bo, "challenge-ar-360")
    bo.click("#challenge")
    ann.wait_for_function("document.querySelectorAll('.hand .card').length === 6")  # guilty: +4
    for page in (ann, bo, cy):
        page.wait_for_selector("#discard[data-color='B']")
    close([ann, bo, cy], errors)


def test_a_missed_uno_is_caught_with_the_catch_control(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = table(browser, positioned_server, "official", 12, errors)
    ann.uncheck("#uno-toggle")  # Ann forgets to say UNO with her play
    ann.click(".hand .card.playable[data-card='R1']")
    bo.wait_for_selector(".controls .catch")
    cy.wait_for_selector(".seat[data-seat='0'] .catch")  # the catch sits by the exposed seat too
    assert ann.locator("#call-uno").count() == 1  # Ann may still call it herself
    shot(bo, "catch-ar-360")
    bo.click(".controls .catch")
    ann.wait_for_function("document.querySelectorAll('.hand .card').length === 3")  # caught: +2
    cy.wait_for_function("!document.querySelector('.catch')")
    close([ann, bo, cy], errors)


def test_a_seven_aimed_at_a_chosen_seat(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = table(browser, positioned_server, "house", 13, errors)
    ann.click(".hand .card.playable[data-card='R7']")
    ann.wait_for_selector(".chooser .target-btn")
    assert ann.locator(".chooser .target-btn").count() == 2
    ann.click(".chooser .target-btn[data-target='2']")
    ann.wait_for_function("document.querySelectorAll('.hand .card').length === 4")  # Cy's hand
    cy.wait_for_function("document.querySelectorAll('.hand .card').length === 2")  # Ann's G1 B2
    assert hand(bo) == 3
    close([ann, bo, cy], errors)


def test_a_jump_in_and_a_stack_under_house_rules(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = table(browser, positioned_server, "house", 14, errors)
    ann.click(".hand .card.playable[data-card='R6']")
    # Bo's turn, but Cy holds the same R6: it rises in Cy's hand, with the jump-in note
    cy.wait_for_selector(".hand .card.playable[data-card='R6']")
    cy.wait_for_selector(".controls .jump")
    cy.click(".hand .card.playable[data-card='R6']")
    ann.wait_for_selector("#your-turn")  # the turn goes on from Cy: back to Ann
    ann.click(".hand .card.playable[data-card='RD2']")
    bo.wait_for_selector("#penalty")
    bo.wait_for_selector(".hand .card.playable[data-card='GD2']")  # stacking is a play
    bo.click(".hand .card.playable[data-card='GD2']")
    cy.wait_for_selector("#accept")
    assert "4" in cy.inner_text("#accept")
    cy.click("#accept")
    cy.wait_for_function("document.querySelectorAll('.hand .card').length === 6")  # 2 + 4
    close([ann, bo, cy], errors)


def test_the_roulette_color_is_named_by_the_next_seat(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = table(browser, positioned_server, "no-mercy", 15, errors)
    ann.click(".hand .card.playable[data-card='WCR']")
    bo.wait_for_selector(".controls .color-btn")
    assert bo.locator(".controls .color-btn").count() == 4
    assert cy.locator(".controls .color-btn").count() == 0
    shot(bo, "roulette-ar-360")
    before = hand(bo)
    bo.click(".controls .color-btn[data-action='color:G']")
    # Bo turns up Y7, then G9 (the color named): both go to Bo's hand
    bo.wait_for_function("n => document.querySelectorAll('.hand .card').length === n + 2", arg=before)
    ann.wait_for_selector("#discard[data-color='G']")
    close([ann, bo, cy], errors)
