"""Situations set up exactly, then played through the page: a missed UNO caught with the catch
control, a Wild Draw Four challenged from the prompt with its color named in the chooser, a 7 aimed
at a chosen seat, a stack and a jump-in under ``house``, a Color Roulette's color named under
``no-mercy``.

Three people (Ann in English at 1280x800, the host; Bo in Arabic on a phone; Cy in Hebrew) create
and join each table through the page; the server is the real one, started by
``tests/web/position_server.py`` so that a table whose target score names a position of
``tests/web/positions.py`` starts from it. Everything after that is clicks on the page's controls.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")

from browser_helpers import Page, close_all, play_card, shot, three_friends  # noqa: E402


def hand(page: Page) -> int:
    return page.locator(".hand .card").count()


@pytest.mark.rule("CL-ACT-12", "CL-ACT-13")
def test_a_wild_draw_four_named_in_the_chooser_and_challenged_from_the_prompt(
    positioned_server: str, browser: Any
) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 11, errors)
    play_card(ann, "W4")
    ann.wait_for_selector(".chooser .color-btn")
    shot(ann, "chooser-en-1280")
    ann.click(".chooser .color-btn[data-color='B']")  # the color is named in the chooser
    bo.wait_for_selector("#challenge")
    assert bo.locator("#accept").count() == 1
    # the prompt says what is at stake: 6 if wrong, 4 for Ann if right (CL-ACT-12, CL-ACT-13), in
    # the digits Arabic uses here (Western or Arabic-Indic)
    stakes = bo.inner_text("#stakes")
    assert re.search("[6٦]", stakes) and re.search("[4٤]", stakes), stakes
    shot(bo, "challenge-ar-360")
    bo.click("#challenge")
    ann.wait_for_function("document.querySelectorAll('.hand .card').length === 6")  # guilty: +4
    for page in (ann, bo, cy):
        page.wait_for_selector("#discard[data-color='B']")
        page.wait_for_selector("#banners .banner[data-event='challenged']")  # the verdict, for all
    close_all([ann, bo, cy], errors)


def test_a_missed_uno_is_caught_with_the_catch_control(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 12, errors)
    # choosing R1 (it leaves one card) offers the UNO call as a large control; Ann taps the card
    # again instead, and forgets to call
    ann.click(".hand .card.playable[data-card='R1']")
    ann.wait_for_selector("#uno-play")
    ann.click(".hand .card.selected[data-card='R1']")
    bo.wait_for_selector(".controls .catch")
    cy.wait_for_selector(".seat[data-seat='0'] .catch")  # the catch sits by the exposed seat too
    assert ann.locator("#call-uno").count() == 1  # Ann may still call it herself
    shot(bo, "catch-ar-360")
    bo.click(".controls .catch")
    ann.wait_for_function("document.querySelectorAll('.hand .card').length === 3")  # caught: +2
    cy.wait_for_function("!document.querySelector('.catch')")
    close_all([ann, bo, cy], errors)


def test_a_seven_aimed_at_a_chosen_seat(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "house", 13, errors)
    play_card(ann, "R7")
    ann.wait_for_selector(".chooser .target-btn")
    assert ann.locator(".chooser .target-btn").count() == 2
    ann.click(".chooser .target-btn[data-target='2']")
    ann.wait_for_function("document.querySelectorAll('.hand .card').length === 4")  # Cy's hand
    cy.wait_for_function("document.querySelectorAll('.hand .card').length === 2")  # Ann's G1 B2
    assert hand(bo) == 3
    close_all([ann, bo, cy], errors)


def test_a_jump_in_and_a_stack_under_house_rules(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "house", 14, errors)
    play_card(ann, "R6")
    # Bo's turn, but Cy holds the same R6: it rises in Cy's hand, with the jump-in note
    cy.wait_for_selector(".hand .card.playable[data-card='R6']")
    cy.wait_for_selector(".controls .jump")
    play_card(cy, "R6")
    ann.wait_for_selector("#your-turn")  # the turn goes on from Cy: back to Ann
    play_card(ann, "RD2")
    bo.wait_for_selector("#penalty")
    bo.wait_for_selector(".hand .card.playable[data-card='GD2']")  # stacking is a play
    play_card(bo, "GD2")
    cy.wait_for_selector("#accept")
    assert "4" in cy.inner_text("#accept")
    cy.click("#accept")
    cy.wait_for_function("document.querySelectorAll('.hand .card').length === 6")  # 2 + 4
    close_all([ann, bo, cy], errors)


def test_the_roulette_color_is_named_by_the_next_seat(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "no-mercy", 15, errors)
    play_card(ann, "WCR")
    bo.wait_for_selector(".controls .color-btn")
    assert bo.locator(".controls .color-btn").count() == 4
    assert cy.locator(".controls .color-btn").count() == 0
    shot(bo, "roulette-ar-360")
    before = hand(bo)
    bo.click(".controls .color-btn[data-action='color:G']")
    # Bo turns up Y7, then G9 (the color named): both go to Bo's hand
    bo.wait_for_function("n => document.querySelectorAll('.hand .card').length === n + 2", arg=before)
    ann.wait_for_selector("#discard[data-color='G']")
    close_all([ann, bo, cy], errors)
