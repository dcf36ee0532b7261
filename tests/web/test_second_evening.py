"""The second evening's findings on the page (issue 36, items 3, 7, 8 and 9), in real chromium.

Each test drives the page's own controls at 360x740, 740x360 and 1280x800, in English and a right
to left language (three_friends: Ann in English, Bo in Arabic, Cy in Hebrew), and asserts geometry
(boxes that fit the viewport and do not overlap) and computed contrast ratios.
"""

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
MIXED = (LAPTOP, PHONE, LANDSCAPE)
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth"

BOX = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.offsetParent || e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""


def boxes(page: Page, sel: str) -> list[list[float]]:
    found: list[list[float]] = page.evaluate(BOX, sel)
    return found


def apart(a: list[float], b: list[float]) -> bool:
    return a[2] - 1 <= b[0] or b[2] - 1 <= a[0] or a[3] - 1 <= b[1] or b[3] - 1 <= a[1]


def inside(box: list[float], viewport: dict[str, int]) -> bool:
    return (box[0] >= -1 and box[1] >= -1
            and box[2] <= viewport["width"] + 1 and box[3] <= viewport["height"] + 1)


# -- 7: layout ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_the_colour_chooser_fits_and_banners_clear_the_turn_bar(
        positioned_server: str, browser: Any, name: str, viewport: dict[str, int]) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 11, errors, (viewport,) * 3)
    for page in (ann,):
        play_card(page, "W4")  # a wild: the colours to name
        page.wait_for_selector(".chooser .color-row button")
        assert page.evaluate(NO_SIDEWAYS), f"the colour chooser overflows at {name}"
        buttons = boxes(page, ".chooser .color-row button")
        assert len(buttons) == 4, buttons
        assert all(b[0] >= -1 and b[2] <= viewport["width"] + 1 for b in buttons), buttons
        assert all(apart(a, b) for i, a in enumerate(buttons) for b in buttons[i + 1:]), buttons
    # in Hebrew too (the chooser stays open across the change of language)
    ann.select_option("#lang-select", "he")
    ann.wait_for_function("document.documentElement.dir === 'rtl'")
    ann.wait_for_selector(".chooser .color-row button")
    assert ann.evaluate(NO_SIDEWAYS), f"the colour chooser overflows in Hebrew at {name}"
    shot(ann, f"colour-chooser-he-{name}")
    ann.click(".chooser [data-color='G']")
    bo.wait_for_selector("#accept")
    bo.click("#accept")  # Bo takes four: banners for everyone
    for page in (ann, bo, cy):
        page.wait_for_selector("#banners .banner")
        banners = boxes(page, "#banners .banner")
        assert all(apart(a, b) for i, a in enumerate(banners) for b in banners[i + 1:]), banners
        for sel in (".topbar", "#your-turn", ".play-head .rules-chip a"):
            for box in boxes(page, sel):
                if box[3] <= 0 or box[1] >= viewport["height"] * 0.4:
                    continue
                assert all(apart(box, b) for b in banners), (name, sel, box, banners)
    close_all([ann, bo, cy], errors)


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_the_pending_penalty_covers_nobody(positioned_server: str, browser: Any, name: str,
                                           viewport: dict[str, int]) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "house", 14, errors, (viewport,) * 3)
    play_card(ann, "RD2")
    for page in (bo, cy):
        page.wait_for_selector("#penalty")
        pill = boxes(page, "#penalty")[0]
        assert inside(pill, viewport) or pill[3] > viewport["height"], pill
        for sel in (".me-spot", ".seats .seat", ".center .piles", ".center .table-info"):
            for box in boxes(page, sel):
                assert apart(pill, box), (name, sel, pill, box)
    shot(bo, f"penalty-ar-{name}")
    close_all([ann, bo, cy], errors)


def test_more_cards_beyond_the_fan_are_counted(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 17, errors, (PHONE, PHONE, LANDSCAPE))
    for lang in ("en", "he"):
        if lang == "he":
            ann.select_option("#lang-select", "he")
            ann.wait_for_function("document.documentElement.dir === 'rtl'")
        ann.evaluate("document.querySelector('.hand-wrap').scrollIntoView({block: 'end'})")
        counts = ann.evaluate("(() => { const w = document.querySelector('.hand-wrap');"
                              " return [Number(w.dataset.moreLeft), Number(w.dataset.moreRight)]; })()")
        assert sum(counts) > 0, counts  # 26 cards: many sit beyond the fan
        shown = [s for s, n in zip(("left", "right"), counts, strict=True) if n]
        for side in shown:
            pill = ann.locator(f".more-{side}")
            assert pill.is_visible()
            assert str(counts[("left", "right").index(side)]) in pill.inner_text() or lang == "he"
        # swiped to the other end: the other side counts the cards now beyond it
        ann.evaluate("(() => { const h = document.querySelector('.hand');"
                     " const rtl = document.documentElement.dir === 'rtl';"
                     " h.scrollLeft = rtl ? -h.scrollWidth : h.scrollWidth; })()")
        ann.wait_for_function("(c) => Number(document.querySelector('.hand-wrap').dataset.moreLeft) !== c[0]"
                              " || Number(document.querySelector('.hand-wrap').dataset.moreRight) !== c[1]",
                              arg=counts, timeout=5000)
        after = ann.evaluate("(() => { const w = document.querySelector('.hand-wrap');"
                             " return [Number(w.dataset.moreLeft), Number(w.dataset.moreRight)]; })()")
        assert after != counts and sum(after) > 0, (counts, after)
        shot(ann, f"fan-26-cards-{lang}-360")
    # three cards fit: no count
    assert not bo.locator(".more-left").is_visible() and not bo.locator(".more-right").is_visible()
    close_all([ann, bo, cy], errors)


def test_after_chat_a_phone_is_back_at_the_table(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 12, errors, MIXED)
    for page in (bo, cy):
        page.fill("#chat-input", "hello")
        page.press("#chat-input", "Enter")
        page.wait_for_function("document.querySelectorAll('#chat-list li').length >= 1")
        page.wait_for_timeout(200)
        assert page.evaluate("document.activeElement.id") != "chat-input"  # the keyboard goes
        top = page.evaluate("document.querySelector('.play').getBoundingClientRect().top")
        assert -2 <= top <= 80, top  # the table is back at the top of the screen
    close_all([ann, bo, cy], errors)


# -- 7: sound ----------------------------------------------------------------------------------------


def test_sound_defaults_to_what_matters_to_you(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 12, errors, MIXED)
    for page, viewport in ((ann, LAPTOP), (bo, PHONE), (cy, LANDSCAPE)):
        # the setting is in the top bar, on the screen of a phone, and defaults to "mine"
        assert page.input_value("#sound-mode") == "mine"
        box = boxes(page, "#sound-mode")[0]
        top = boxes(page, ".topbar")[0]
        assert inside(box, viewport) and box[1] >= top[1] - 1 and box[3] <= top[3] + 1, (box, top)
        assert page.evaluate(NO_SIDEWAYS)
    cy.select_option("#sound-mode", "all")
    play_card(ann, "R2")  # Ann plays: Bo's turn
    bo.wait_for_selector("#your-turn")
    cy.wait_for_function("window.unotable.sounds.includes('play')")  # "all": every play
    bo.wait_for_function("window.unotable.sounds.includes('turn')")
    assert "play" not in bo.evaluate("window.unotable.sounds")  # "mine": a play by someone else is silent
    # the setting is remembered
    cy.reload()
    cy.wait_for_selector("#sound-mode")
    assert cy.input_value("#sound-mode") == "all"
    # "off": nothing at all, not even your turn
    bo.select_option("#sound-mode", "off")
    heard = bo.evaluate("""async () => { const s = await import('/static/sound.js');
      const before = s.played.length; s.play('turn'); s.play('uno'); s.play('play');
      return s.played.length - before; }""")
    assert heard == 0
    close_all([ann, bo, cy], errors)


# -- 3 (the page's half): the summary's "Ready" first ------------------------------------------------


@pytest.mark.parametrize(("name", "viewport"), SIZES)
def test_the_summary_opens_with_ready_and_the_countdown(positioned_server: str, browser: Any, name: str,
                                                         viewport: dict[str, int]) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 19, errors, (viewport,) * 3)
    play_card(ann, "R1")  # her last card: the round is over
    for page in (ann, bo, cy):
        page.wait_for_selector("#summary #ready")
        # at the top of the page too: nobody has to scroll to find it
        page.evaluate("window.scrollTo(0, 0)")
        for sel in ("#ready", "#ready-list"):
            box = boxes(page, sel)[0]
            assert inside(box, viewport), (name, sel, box, page.evaluate("document.documentElement.lang"))
        countdown = boxes(page, "#next-round-in")
        assert not countdown or inside(countdown[0], viewport), countdown
        # before the standings
        assert boxes(page, "#ready")[0][3] <= boxes(page, ".standings")[0][1] + 1
    shot(cy, f"summary-he-{name}")
    shot(ann, f"summary-en-{name}")
    close_all([ann, bo, cy], errors)


# -- 8: contrast -------------------------------------------------------------------------------------

CONTRAST = """(sel) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = c.map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  return [...document.querySelectorAll(sel)].map((el) => {
    let bg = el; while (bg && getComputedStyle(bg).backgroundColor.endsWith(', 0)')) bg = bg.parentElement;
    const a = lum(rgb(getComputedStyle(el).color)), b = lum(rgb(getComputedStyle(bg).backgroundColor));
    return [el.textContent, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
  });
}"""


def test_card_letters_and_colour_buttons_meet_aa(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 11, errors, MIXED[::-1])
    play_card(ann, "W4")
    ann.wait_for_selector(".chooser .color-row button")
    ratios = ann.evaluate(CONTRAST, ".chooser .color-btn, .hand .card:not(.c-W) .corner, #discard .corner")
    assert len(ratios) >= 6, ratios
    low = [(text, round(r, 2)) for text, r in ratios if r < 4.5]
    assert not low, low
    # every colour's card corner on its own card colour: green is the one that failed (3.75:1)
    ann.evaluate("""() => { const box = document.createElement('div'); box.id = 'samples';
      for (const c of ['R', 'Y', 'G', 'B']) {
        const card = document.createElement('div'); card.className = `card c-${c}`;
        const corner = document.createElement('span'); corner.className = 'corner'; corner.textContent = c;
        card.append(corner); box.append(card); }
      document.querySelector('main').append(box); }""")
    samples = ann.evaluate(CONTRAST, "#samples .corner")
    assert len(samples) == 4 and all(r >= 4.5 for _, r in samples), samples
    close_all([ann, bo, cy], errors)


# -- 9: words ----------------------------------------------------------------------------------------


def test_the_deal_is_said_once(server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, server, "official", 500, errors)  # the server's own deal
    ann.wait_for_selector("#log li")
    lines = ann.eval_on_selector_all("#log li", "els => els.map((e) => e.textContent)")
    assert sum("deals" in line for line in lines) == 1, lines
    close_all([ann, bo, cy], errors)


def test_the_landing_page_creates_above_the_fold_and_keeps_rule_ids_for_the_rules(
        server: str, browser: Any) -> None:
    errors: list[str] = []
    for lang, viewport in (("en-US", LAPTOP), ("he", LAPTOP), ("ar", PHONE)):
        page = new_page(browser, lang, viewport, errors)
        page.goto(server + "/")
        page.wait_for_selector("#create-form")
        assert page.locator("#create-form .rule-ids").count() == 0  # on the rules page, not here
        assert page.locator("#create-form .rule-link").count() >= 7  # each switch still links its rule
        if viewport is LAPTOP:
            box = boxes(page, "#create-btn")[0]
            assert inside(box, viewport), (lang, box)
            shot(page, f"landing-{lang[:2]}-1280")
        page.context.close()
    page = new_page(browser, "en-US", LAPTOP, errors)
    page.goto(server + "/rules#opt-jump_in")
    page.wait_for_selector("#opt-jump_in .rule-ids")
    page.context.close()
    assert not errors, errors
