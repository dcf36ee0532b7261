"""The summary that waits for its readers, the full table that asks its host for a seat, and the
rematch proposed with new settings (issue 36, items 3 to 5), through the page's own controls in
real chromium at 360x740, 740x360 and 1280x800, in English and right to left (three_friends: Ann
in English, Bo in Arabic, Cy in Hebrew; Dara, who finds the table full, in Hebrew)."""

from __future__ import annotations

from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")

from browser_helpers import (  # noqa: E402
    LAPTOP,
    PHONE,
    Page,
    close_all,
    new_page,
    play_card,
    shot,
    three_friends,
)

LANDSCAPE = {"width": 740, "height": 360}
SIZES = [("360", PHONE), ("740", LANDSCAPE), ("1280", LAPTOP)]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth"


def box(page: Page, sel: str) -> list[float]:
    found: list[float] = page.evaluate(
        "(sel) => { const r = document.querySelector(sel).getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; }", sel)
    return found


def on_screen(page: Page, sel: str, viewport: dict[str, int]) -> bool:
    """``sel`` is inside the viewport once the page is at its top (above the fold)."""
    page.evaluate("window.scrollTo(0, 0)")
    b = box(page, sel)
    return b[0] >= -1 and b[1] >= -1 and b[2] <= viewport["width"] + 1 and b[3] <= viewport["height"] + 1


TOPBAR_FITS = """(() => { const bar = document.querySelector('.topbar');
  const inside = [...bar.children].filter((e) => e.getClientRects().length).every((e) => {
    const r = e.getBoundingClientRect(); return r.left >= -1 && r.right <= innerWidth + 1; });
  return inside && bar.scrollWidth <= bar.clientWidth + 1; })()"""

HIDE = """() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
  document.dispatchEvent(new Event('visibilitychange')); }"""


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_the_countdown_waits_while_they_read(positioned_server: str, browser: Any, name: str,
                                            viewport: dict[str, int]) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 19, errors, (viewport,) * 3)
    play_card(ann, "R1")  # her last card: the round is over, and its summary shows on every page
    for page in (ann, bo, cy):
        page.wait_for_selector("#summary #ready")
    # each page says that it shows the summary: the countdown stands still for the three readers
    ann.wait_for_function("(window.unotable.page.table.reading || []).length === 3")
    for page in (ann, bo, cy):
        page.wait_for_selector("#reading-list")
        assert on_screen(page, "#ready", viewport) and on_screen(page, "#next-round-in", viewport), name
        assert page.evaluate(NO_SIDEWAYS)
    held = ann.inner_text("#next-round-in")
    ann.wait_for_timeout(1200)
    assert ann.inner_text("#next-round-in") == held  # it stands still
    shot(ann, f"summary-reading-en-{name}")
    shot(cy, f"summary-reading-he-{name}")
    # Ann is ready; Bo's phone goes to his pocket (the page is hidden): only Cy reads now
    ann.click("#ready")
    bo.evaluate(HIDE)
    ann.wait_for_function("JSON.stringify(window.unotable.page.table.reading) === '[2]'")
    assert "Cy" in ann.inner_text("#reading-list")
    # Cy is ready too: Bo is not reading, so nobody holds the countdown; it runs on and deals
    cy.click("#ready")
    for page in (ann, bo, cy):
        page.wait_for_function("window.unotable.page.table.status === 'playing'", timeout=60_000)
    close_all([ann, bo, cy], errors)


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_a_full_table_says_so_and_the_host_adds_a_seat(positioned_server: str, browser: Any, name: str,
                                                       viewport: dict[str, int]) -> None:
    errors: list[str] = []
    pages: list[Page] = []

    def dara_arrives(ann: Page) -> None:
        link = ann.url.split("#")[0]
        dara = new_page(browser, "he", viewport, errors)
        pages.append(dara)
        dara.goto(link)
        dara.wait_for_selector("#full-table")  # told the table is full, watching, and offered a seat
        shot(dara, f"table-full-he-{name}")
        assert on_screen(dara, "#ask-seat", viewport), name
        assert dara.locator("button.sit").count() == 0
        assert dara.evaluate(NO_SIDEWAYS)
        dara.fill("#my-name", "Dara")
        dara.click("#ask-seat")
        dara.wait_for_selector("#asked")
        ann.wait_for_selector("#seat-asks [data-ask]")  # the host sees the request...
        assert "Dara" in ann.inner_text("#seat-asks")
        assert on_screen(ann, "#seat-asks button.primary", viewport), name
        assert ann.evaluate(NO_SIDEWAYS)
        shot(ann, f"seat-ask-en-{name}")
        ann.click("#seat-asks button.primary")  # ...and adds the seat in one tap
        dara.wait_for_selector(".seat-row.me")  # Dara sits in it
        ann.wait_for_function("document.querySelectorAll('.seat-row.kind-human').length === 4")

    ann, bo, cy = three_friends(browser, positioned_server, "official", 500, errors, (viewport,) * 3,
                                before_start=dara_arrives)
    dara = pages[0]
    dara.wait_for_selector(".hand .card")  # and plays
    assert dara.evaluate("window.unotable.page.you.seat") == 3
    close_all([ann, bo, cy, dara], errors)


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_a_rematch_is_proposed_with_a_new_target_and_accepted(positioned_server: str, browser: Any, name: str,
                                                              viewport: dict[str, int]) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 5, errors, (viewport,) * 3)
    play_card(ann, "R1")  # 6 points: the match (to 5) is over
    for page in (ann, bo, cy):
        page.wait_for_selector("#summary .standings")
        page.wait_for_selector("#rematch-box")
        assert page.evaluate(NO_SIDEWAYS)
        assert page.evaluate(TOPBAR_FITS), (name, page.evaluate("document.documentElement.lang"))
    # the top bar after a match, in Persian too (it overflowed at 360 px)
    bo.select_option("#lang-select", "fa")
    bo.wait_for_function("document.documentElement.lang === 'fa'")
    assert bo.evaluate(TOPBAR_FITS) and bo.evaluate(NO_SIDEWAYS), name
    shot(bo, f"match-over-fa-{name}")
    # the host chooses the points to win of the rematch and proposes it: no new link
    ann.fill("#rematch-target", "19")
    ann.click("#rematch")
    for page in (bo, cy):
        page.wait_for_selector("#accept-rematch")
        assert any(n in page.inner_text("#rematch-terms") for n in ("19", "١٩", "۱۹"))  # (its digits)
        # the summary and the review stay while they read
        assert page.locator("#summary .standings").count() == 1
        assert page.evaluate("window.unotable.page.table.status") == "match_over"
    shot(ann, f"rematch-proposed-en-{name}")
    shot(cy, f"rematch-proposed-he-{name}")
    bo.click("#accept-rematch")
    cy.wait_for_function("JSON.stringify(window.unotable.page.table.rematch.accepted) === '[0,1]'")
    assert cy.locator("#summary").count() == 1  # still Cy's summary: she has not accepted
    cy.click("#accept-rematch")
    for page in (ann, bo, cy):
        page.wait_for_selector(".hand .card")
        page.wait_for_function("window.unotable.page.state.static.ruleset.target_score === 19")
        assert page.locator("#summary").count() == 0
    close_all([ann, bo, cy], errors)
