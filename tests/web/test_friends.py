"""The table friends enjoy (issue 24), in real chromium through the page's own controls.

Each test names the finding of the evening it checks (docs: the table's tutorial). Positions come
from positions.py through the positioned server; tables with bots from the plain server. The
shared helpers are in browser_helpers.py.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
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
    tap_card,
    three_friends,
)

LANDSCAPE = {"width": 740, "height": 360}
SHOTS = Path(__file__).resolve().parent / "artifacts"  # docs/screenshots/ holds copies of these
# the visible part of every control: the element at its centre is the control (nothing covers it)
UNCOVERED = """() => [...document.querySelectorAll('main button')].filter((b) => b.offsetParent)
.every((b) => {
  const r = b.getBoundingClientRect();
  if (r.bottom < 0 || r.top > innerHeight) return true;
  const x = Math.min(innerWidth - 1, r.left + Math.min(r.width / 2, 10)), y = r.top + r.height / 2;
  const at = document.elementFromPoint(x, Math.min(innerHeight - 1, y));
  return !at || b.contains(at) || !document.getElementById('banners').contains(at);
})"""
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth"
# each card of the hand: the width of the strip where a tap lands on it (sampled every pixel
# across the card at its middle height, the fan scrolled so that the card shows)
OWN_STRIPS = """() => [...document.querySelectorAll('.hand .card')].map((c) => {
  c.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const r = c.getBoundingClientRect();
  let own = 0;
  for (let x = Math.round(r.left); x < r.right; x++) {
    const at = document.elementFromPoint(x, r.top + r.height / 2);
    if (at && at.closest('.card') === c) own++;
  }
  return [c.dataset.key, own];
})"""


def create(server: str, seats: int, bots: int, **extra: Any) -> dict[str, Any]:
    body = {"preset": "official", "seats": seats, "bots": [None] * (seats - bots) + ["random"] * bots,
            "turn_seconds": 0, **extra}
    req = urllib.request.Request(server + "/api/tables", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as res:
        doc: dict[str, Any] = json.loads(res.read())
    return doc


def host_page(browser: Any, server: str, doc: dict[str, Any], lang: str, viewport: dict[str, int],
              errors: list[str], init: str | None = None) -> Page:
    """The host opens the table (its token in localStorage, as the landing page keeps it) and sits."""
    page = new_page(browser, lang, viewport, errors)
    if init:
        page.add_init_script(init)
    page.add_init_script(f"localStorage.setItem('ut:host:{doc['table']}', {json.dumps(doc['host_token'])})")
    page.goto(f"{server}/t/{doc['table']}")
    page.wait_for_selector(".waiting")
    page.fill("#my-name", "Ann")
    page.click("button.sit >> nth=0")
    page.wait_for_selector(".seat-row.me")
    return page


def start(page: Page) -> None:
    page.click("#start")
    page.wait_for_selector(".hand .card")


# -- 1: no stray "null" ---------------------------------------------------------------------------


def test_no_stray_null_for_people_not_seated(server: str, browser: Any) -> None:
    errors: list[str] = []
    doc = create(server, 3, 1)
    for lang in ("en-US", "ar"):
        page = new_page(browser, lang, PHONE, errors)
        page.goto(f"{server}/t/{doc['table']}")
        page.wait_for_selector(".waiting")
        assert "null" not in page.inner_text(".side")
        assert not re.search(r"\bnull\b", page.inner_text("body"))
        page.context.close()
    assert not errors, errors


# -- the table around the viewer, at each size ----------------------------------------------------


def overlaps(page: Page) -> list[Any]:
    return page.evaluate("""() => {
      const r = [...document.querySelectorAll('.seats .seat')].map((e) => e.getBoundingClientRect());
      r.push(document.querySelector('.center .piles').getBoundingClientRect());  // last: the piles
      const bad = [];
      for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
        const a = r[i], b = r[j];
        const apart = a.right - 1 <= b.left || b.right - 1 <= a.left
          || a.bottom - 1 <= b.top || b.bottom - 1 <= a.top;
        if (!apart) bad.push([i, j]);
      }
      return bad;
    }""")


# each seat's height against its slot's (--chip-h) and the ring's top margin, and any seat that
# reaches into the table's head
SEATS_IN_THEIR_SLOTS = """() => {
  const ring = document.querySelector('.ring');
  const slot = parseFloat(getComputedStyle(ring).getPropertyValue('--chip-h'));
  const margin = parseFloat(getComputedStyle(ring).marginBlockStart) || 0;
  const head = document.querySelector('.play-head').getBoundingClientRect();
  const out = [];
  for (const seat of document.querySelectorAll('.ring .seat')) {
    const r = seat.getBoundingClientRect();
    const id = seat.dataset.seat;
    if ((r.height - slot) / 2 > margin + 1) out.push(['outgrows its slot', id, r.height, slot, margin]);
    if (head.height > 0 && r.top < head.bottom - 1 && r.bottom > head.top) out.push(['in the head', id]);
  }
  return out;
}"""


@pytest.mark.parametrize("seats", [2, 4, 10])
@pytest.mark.parametrize(("name", "viewport"), [("360", PHONE), ("740", LANDSCAPE), ("1280", LAPTOP)])
def test_the_table_in_turn_order_at_each_size(server: str, browser: Any, seats: int, name: str,
                                              viewport: dict[str, int]) -> None:
    errors: list[str] = []
    lang = "ar" if seats == 4 else "en-US"
    doc = create(server, seats, seats - 1, bot_pause=30)  # the bots wait: the table holds still
    page = host_page(browser, server, doc, lang, viewport, errors)
    start(page)
    page.wait_for_selector(".seats .seat")
    order = page.eval_on_selector_all(".seats .seat", "els => els.map((e) => Number(e.dataset.seat))")
    assert order == list(range(1, seats)), order  # from the seat after the viewer's, in turn order
    xs = page.eval_on_selector_all(".seats .seat", "els => els.map((e) => e.getBoundingClientRect().x)")
    assert xs[0] <= xs[-1]  # clockwise: from the left over the top to the right, in every language
    assert overlaps(page) == [], f"seats overlap at {name} with {seats} seats"
    assert page.evaluate(NO_SIDEWAYS), "the page scrolls sideways"
    # a seat stands inside its slot and the ring's top margin (a badge included, the dealer's say),
    # so whichever seat sits at the top of the arc stays below the rules chips and the round line
    assert page.evaluate(SEATS_IN_THEIR_SLOTS) == [], f"a seat outgrows its slot at {name}"
    # the direction and the next player at a glance; each seat's count at its place
    assert page.locator("#direction .arrow").is_visible()
    assert page.locator(".seat.next, .me-spot.next").count() == 1
    assert page.locator("#next-player").is_visible()
    for chip in page.locator(".seats .seat").all():
        assert re.search(r"\d", chip.locator(".count").inner_text())
    # the whole hand in the viewport without scrolling, the seats and the piles too (the deal is the
    # server's own: a first Draw Two on the viewer makes 9 cards, which scroll inside the fan on a
    # phone, where 7 strips of 44 px fill the hand's width)
    scrolls = page.locator(".hand .card").count() > 7 and name in ("360", "740")
    for sel in (".hand .card", ".seats .seat", "#discard")[scrolls:]:
        boxes = page.eval_on_selector_all(sel, "els => els.map((e) => { const r = e.getBoundingClientRect();"
                                               " return [r.left, r.top, r.right, r.bottom]; })")
        for left, top, right, bottom in boxes:
            assert left >= -1 and right <= viewport["width"] + 1, (sel, left, right)
            assert top >= -30 and bottom <= viewport["height"] + 1, (sel, top, bottom, name)
    # touch targets of at least 44 px
    small = page.evaluate("""() => [...document.querySelectorAll('main button, main select, main summary')]
      .filter((e) => e.offsetParent)
      .map((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height, e.id || e.className]; })
      .filter(([w, h]) => w < 44 || h < 44)""")
    assert not small, small
    # each card of the dealt hand shows a touch target's width of its own, whole on the screen
    strips = page.evaluate(OWN_STRIPS)
    assert len(strips) >= 7 and all(own >= 44 for _, own in strips), strips  # (7, or a first +2)
    assert scrolls or page.evaluate(
        "(() => { const h = document.querySelector('.hand'); return h.scrollWidth <= h.clientWidth; })()"
    ), "the dealt hand scrolls"
    if seats in (4, 10):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-{seats}-seats-{'ar' if lang == 'ar' else 'en'}-{name}.png"),
                        animations="disabled")
    close_all([page], errors)


def on_screen(page: Page, viewport: dict[str, int]) -> list[Any]:
    """The hand's cards, the seats and the discard pile that stand outside the viewport."""
    out = []
    for sel in (".hand .card", ".seats .seat", "#discard"):
        boxes = page.eval_on_selector_all(sel, "els => els.map((e) => { const r = e.getBoundingClientRect();"
                                               " return [r.left, r.top, r.right, r.bottom]; })")
        out += [(sel, box) for box in boxes if not (box[0] >= -1 and box[2] <= viewport["width"] + 1
                                                  and box[1] >= -30 and box[3] <= viewport["height"] + 1)]
    return out


@pytest.mark.parametrize(("first", "target"), [("card", 20), ("wild", 40)])
@pytest.mark.parametrize("seats", [2, 4, 10])
@pytest.mark.parametrize(("name", "viewport"), [("360", PHONE), ("740", LANDSCAPE), ("1280", LAPTOP)])
def test_the_whole_table_on_screen_when_the_viewer_plays_first(
        positioned_server: str, browser: Any, seats: int, name: str, viewport: dict[str, int],
        first: str, target: int) -> None:
    # the tallest tables: the turn banner and the prompt above the hand, the dealer's badge on the
    # last seat (positions 22, 24 and 30), and the colours to name when the first card is a wild
    # (42, 44, 50); a deal of the plain server gives each now and then
    errors: list[str] = []
    doc = create(positioned_server, seats, seats - 1, bot_pause=30, options={"target_score": target + seats})
    page = host_page(browser, positioned_server, doc, "ar" if seats == 4 else "en-US", viewport, errors)
    start(page)
    page.wait_for_selector(".seats .seat")
    assert page.locator(".hand .card").count() == 7
    if first == "wild":
        assert page.locator(".color-row button").count() == 4  # the viewer names the colour
    else:
        assert page.locator(".hand .card.playable").count() >= 1  # the viewer's turn
    assert on_screen(page, viewport) == [], f"{seats} seats at {name}"
    assert overlaps(page) == [] and page.evaluate(SEATS_IN_THEIR_SLOTS) == []
    close_all([page], errors)


# -- the hand --------------------------------------------------------------------------------------


def test_seven_cards_whole_at_360_and_a_long_hand_usable(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 17, errors, (PHONE, PHONE, PHONE))
    assert ann.locator(".hand .card").count() == 26
    # the long hand scrolls sideways inside the fan, never the page
    assert ann.evaluate(NO_SIDEWAYS)
    fan = ann.evaluate("(() => { const h = document.querySelector('.hand');"
                       " const r = h.getBoundingClientRect();"
                       " return [r.left, r.right, h.scrollWidth > h.clientWidth]; })()")
    assert fan[0] >= 0 and fan[1] <= PHONE["width"] and fan[2], fan
    # every card shows a strip of its own at least a touch target wide: a tap on it chooses that
    # card (measured with the fan scrolled to each card in turn)
    ann.evaluate("document.querySelector('.hand-wrap').scrollIntoView({block: 'end'})")
    strips = ann.evaluate(OWN_STRIPS)
    assert len(strips) == 26 and all(own >= 44 for _, own in strips), strips
    # the swipe stays where it was when the table changes (a re-render keeps the fan's scroll)
    ann.evaluate("document.querySelector('.hand').scrollLeft = 200")
    before = ann.evaluate("document.querySelector('.hand').scrollLeft")
    ann.evaluate("window.unotable.page.render()")
    assert ann.evaluate("document.querySelector('.hand').scrollLeft") == before != 0
    # the last card (a Wild Draw Four, playable), scrolled to and tapped on its own strip: chosen
    last = ann.locator(".hand .card").last
    last.scroll_into_view_if_needed()
    key = last.get_attribute("data-key")
    tap_card(ann, last)
    assert ann.evaluate("document.querySelector('.hand .card.selected')?.dataset.key") == key
    # Bo's 3 cards (a 7-card hand's room to spare) sit whole on the phone, uncut
    spans = bo.eval_on_selector_all(".hand .card", "els => els.map((e) => [e.getBoundingClientRect().left,"
                                                   " e.getBoundingClientRect().right])")
    assert all(a >= 0 and b <= PHONE["width"] for a, b in spans)
    close_all([ann, bo, cy], errors)


def test_tap_to_choose_tap_again_or_drag_up_to_play(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 13, errors)
    ann.click(".hand .card.playable[data-card='R7']")
    assert ann.locator(".hand .card.selected[data-card='R7']").count() == 1
    assert ann.locator("#play-selected").is_visible()
    assert ann.evaluate("window.unotable.page.view.hand.length") == 3  # a first tap plays nothing
    # drag it up: played
    box = ann.locator(".hand .card.selected[data-card='R7']").bounding_box()
    assert box is not None
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] - 40, steps=4)
    ann.mouse.up()
    ann.wait_for_function("window.unotable.page.log.some((l) => l.e.type === 'card_played'"
                          " && l.e.card === 'R7')")
    close_all([ann, bo, cy], errors)


# -- the UNO moment, the catch, and the banners ----------------------------------------------------


@pytest.mark.rule("CL-UNO-2")
def test_the_uno_call_is_one_large_control_with_the_play(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 12, errors)
    assert ann.locator("#uno-toggle, input[type=checkbox]").count() == 0  # nothing pre-ticked
    ann.click(".hand .card.playable[data-card='R1']")
    uno = ann.locator("#uno-play")
    box = uno.bounding_box()
    assert box is not None and box["height"] >= 60 and box["width"] >= 150
    uno.click()
    for page in (ann, bo, cy):
        page.wait_for_function("window.unotable.page.log.some((l) => l.e.type === 'card_played' && l.e.uno)")
    assert bo.locator(".catch").count() == 0  # called in time: nothing to catch
    assert ann.locator(".hand-head .badge.uno").count() == 1
    close_all([ann, bo, cy], errors)


def test_a_forgotten_call_stays_open_and_the_catch_is_a_banner_for_all(
    positioned_server: str, browser: Any
) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 12, errors, (LAPTOP, PHONE, PHONE))
    play_card(ann, "R1")  # tapped twice: played without the call
    ann.wait_for_selector("#call-uno.huge")  # the call stays open until someone catches it
    bo.wait_for_selector(".controls .catch.huge")
    box = bo.locator(".controls .catch").bounding_box()
    assert box is not None and box["height"] >= 56
    assert cy.locator(".seat[data-seat='0'].exposed .catch").count() == 1  # at Ann's place too
    bo.click(".controls .catch")
    for page, mine in ((ann, True), (bo, True), (cy, False)):
        page.wait_for_selector("#banners .banner[data-event='caught']")
        assert page.locator("#banners .banner.mine").count() == (1 if mine else 0)
        assert page.evaluate(UNCOVERED), "a banner covers a control"
        live = page.inner_text("#live")
        assert page.inner_text("#banners .banner[data-event='caught']") in live  # read out too
    # the banner is brief
    ann.wait_for_selector("#banners .banner[data-event='caught']", state="detached", timeout=6000)
    close_all([ann, bo, cy], errors)


def test_skip_reverse_and_challenge_banners_above_the_fold(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 16, errors, (PHONE, PHONE, PHONE))
    ann.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # a page left scrolled down
    play_card(ann, "RS")
    for page in (ann, bo, cy):
        page.wait_for_selector("#banners .banner[data-event='skipped']")
    top = ann.locator("#banners .banner").first.bounding_box()
    assert top is not None and 0 <= top["y"] < PHONE["height"] / 2
    assert bo.locator("#banners .banner.mine[data-event='skipped']").count() == 1
    close_all([ann, bo, cy], errors)


def test_no_banner_motion_under_reduced_motion(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 16, errors)
    for page in (ann, bo, cy):
        page.emulate_media(reduced_motion="reduce")
    play_card(ann, "RS")
    bo.wait_for_selector("#banners .banner")
    assert bo.evaluate("getComputedStyle(document.querySelector('#banners .banner')).animationName") == "none"
    close_all([ann, bo, cy], errors)


# -- the log in right-to-left languages ------------------------------------------------------------


def test_card_lists_in_the_log_are_isolated_and_in_the_languages_list_form(
    positioned_server: str, browser: Any
) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 18, errors)
    play_card(ann, "W4")  # Ann holds red: guilty if challenged, and her hand is shown to Bo
    ann.click(".chooser .color-btn[data-color='B']")
    bo.wait_for_selector("#challenge")
    bo.click("#challenge")
    bo.wait_for_function("window.unotable.page.log.some((l) => l.e.type === 'challenge_reveal')")
    line = bo.evaluate("""() => { const p = window.unotable.page;
      const i = p.log.findIndex((l) => l.e.type === 'challenge_reveal');
      const lines = [...document.querySelectorAll('#log li')].map((li) => li.textContent);
      return lines.find((t) => t.includes('\\u2068' + '\\u2068')) || ''; }""")
    names = bo.evaluate("new Intl.ListFormat('ar', {type: 'unit', style: 'long'}).format(['a', 'b', 'c'])")
    assert line, "no isolated card list in the log"
    sep = names[1:-1].split("b")[0]  # the Arabic separator between two items
    assert sep in line
    # each card of the list is isolated on its own: the list keeps its order right to left
    assert line.count("\u2068") >= 4, ascii(line)
    close_all([ann, bo, cy], errors)


# -- history survives a reload --------------------------------------------------------------------


def test_the_log_and_the_chat_survive_a_reload(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 16, errors)
    play_card(ann, "RS")  # Bo is skipped
    bo.wait_for_function("window.unotable.page.log.some((l) => l.e.type === 'skipped')")
    bo.fill("#chat-input", "nice one")
    bo.press("#chat-input", "Enter")
    ann.wait_for_selector("#chat-list li")
    lines = ann.eval_on_selector_all("#log li", "els => els.map((e) => e.textContent)")
    ann.reload()
    ann.wait_for_selector(".play")
    ann.wait_for_selector("#log li")
    assert ann.eval_on_selector_all("#log li", "els => els.map((e) => e.textContent)") == lines
    assert "nice one" in ann.inner_text("#chat-list")
    close_all([ann, bo, cy], errors)


# -- summaries that wait ---------------------------------------------------------------------------


def long_summaries(ann: Page) -> None:
    """The host gives each summary five minutes (the table's countdown setting)."""
    ann.click("#settings summary")
    ann.select_option("#set-pause", "300")
    ann.click("#apply-settings")
    ann.wait_for_function("window.unotable.page.table.settings.round_pause === 300")


def test_the_summary_waits_for_everyone_ready(positioned_server: str, browser: Any) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 19, errors, (LAPTOP, PHONE, PHONE),
                                before_start=long_summaries)
    play_card(ann, "R1")  # her last card: the round is won
    for page in (ann, bo, cy):
        page.wait_for_selector("#summary #ready")
    assert re.search(r"\d", ann.inner_text("#next-round-in"))  # a visible countdown
    ann.click("#ready")
    bo.click("#ready")
    cy.wait_for_function("document.querySelector('#ready-list').textContent.includes('Bo')")
    ann.wait_for_timeout(1500)  # two of three ready: the summary stays
    assert ann.locator("#summary").count() == 1 and ann.locator("#you-ready").count() == 1
    cy.click("#ready")  # everyone: the next round is dealt at once
    for page in (ann, bo, cy):
        page.wait_for_selector("#summary", state="detached", timeout=8000)
        page.wait_for_selector(".hand .card")
    close_all([ann, bo, cy], errors)


# -- rename, reactions ----------------------------------------------------------------------------


def test_a_name_is_changed_in_the_waiting_room_without_leaving(server: str, browser: Any) -> None:
    errors: list[str] = []
    doc = create(server, 3, 1)
    ann = host_page(browser, server, doc, "en-US", LAPTOP, errors)
    friend = new_page(browser, "he", PHONE, errors)
    friend.goto(f"{server}/t/{doc['table']}")
    friend.wait_for_selector(".waiting")
    ann.fill("#rename-input", "Annie")
    ann.click("#rename-btn")
    friend.wait_for_function("[...document.querySelectorAll('.seat-row .seat-name')]"
                             ".some((e) => e.textContent.includes('Annie'))")
    ann.wait_for_selector(".seat-row.me")  # still seated
    assert "Annie" in ann.inner_text(".seat-row.me")
    close_all([ann, friend], errors)


def test_reactions_are_bubbles_at_the_seat_and_rate_limited(
    positioned_server: str, browser: Any
) -> None:
    errors: list[str] = []
    ann, bo, cy = three_friends(browser, positioned_server, "official", 13, errors, (LAPTOP, PHONE, PHONE))
    bo.click("#reactions .react[data-reaction='gg']")
    ann.wait_for_selector(".seat[data-seat='1'] .bubble[data-reaction='gg']")
    cy.wait_for_selector(".seat[data-seat='1'] .bubble")
    bo.wait_for_selector(".me-spot .bubble")
    assert "GG" in ann.inner_text(".seat[data-seat='1'] .bubble")
    ann.wait_for_selector(".seat[data-seat='1'] .bubble", state="detached", timeout=6000)  # for a moment
    for _ in range(5):  # a burst: the server slows it down with its coded error
        bo.click("#reactions .react[data-reaction='wow']")
    bo.wait_for_function("window.unotable.page.state.error?.code === 'rate_limited'")
    assert bo.inner_text("#error")
    close_all([ann, bo, cy], errors)


# -- autopilot, rules, share warning, taken-over pill ----------------------------------------------


def test_the_player_sees_the_bot_playing_for_them_and_takes_the_seat_back(server: str, browser: Any) -> None:
    errors: list[str] = []
    doc = create(server, 2, 1, turn_seconds=1.5)
    page = host_page(browser, server, doc, "en-US", PHONE, errors)
    start(page)
    page.wait_for_selector("#autopilot", timeout=30000)  # after two time-outs
    assert "bot" in page.inner_text("#autopilot").lower()
    assert page.locator("#your-turn").count() == 0  # not "Your turn" while the bot plays
    page.click("#im-back")
    page.wait_for_selector("#autopilot", state="detached", timeout=10000)
    assert page.inner_text("#error") == ""
    close_all([page], errors)


def test_the_rules_in_force_are_a_chip_that_links_each_rule(server: str, browser: Any) -> None:
    errors: list[str] = []
    doc = create(server, 2, 1, preset="official", options={"seven_zero": True})
    page = host_page(browser, server, doc, "en-US", LAPTOP, errors)
    # (an online table gives a seat handed one card time to call UNO unless its host says no)
    in_force = ["/rules#preset-official", "/rules#opt-seven_zero", "/rules#opt-uno_grace"]
    hrefs = page.eval_on_selector_all("#rules-chip a", "els => els.map((a) => a.getAttribute('href'))")
    assert hrefs == in_force
    assert "bots catch after 2.5 s" in page.inner_text(".waiting .hint")  # the bots' reaction time
    start(page)
    hrefs = page.eval_on_selector_all(".play #rules-chip a", "els => els.map((a) => a.getAttribute('href'))")
    assert hrefs == in_force
    assert page.get_attribute(".play #rules-chip a.rule", "target") == "_blank"  # the table stays
    close_all([page], errors)


def test_a_loopback_link_warns_that_it_works_only_here(server: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, "en-US", LAPTOP, errors)
    page.goto(server + "/")
    page.click("#create-btn")
    page.wait_for_selector("#share-link")
    assert "127.0.0.1" in page.input_value("#share-link")
    assert "only on this computer" in page.inner_text("#share-link-local")
    page.click("#open-table")
    page.wait_for_selector(".waiting")
    assert page.locator("#share-link-small-local").is_visible()
    close_all([page], errors)


def test_the_seat_moved_pill_fits_the_phone_header(server: str, browser: Any) -> None:
    errors: list[str] = []
    doc = create(server, 2, 1)
    first = host_page(browser, server, doc, "fa", PHONE, errors)
    token = first.evaluate(f"localStorage.getItem('ut:seat:{doc['table']}')")
    other = new_page(browser, "fa", PHONE, errors)
    other.goto(f"{server}/t/{doc['table']}#seat={token}")
    other.wait_for_selector(".seat-row.me")
    first.wait_for_selector("#conn[data-state='taken_over']")
    header = first.locator(".topbar").bounding_box()
    assert header is not None and header["height"] <= 64, header
    assert first.evaluate(NO_SIDEWAYS)
    close_all([first, other], errors)


# -- sound, vibration, title, notification ---------------------------------------------------------

SIGNALS = """
window.__vibrations = []; window.__notes = [];
navigator.vibrate = (p) => { window.__vibrations.push(p); return true; };
window.Notification = class {
  constructor(text) { window.__notes.push(text); }
  static requestPermission() { return Promise.resolve('granted'); }
};
window.Notification.permission = 'granted';
Object.defineProperty(document, 'hidden', { get: () => Boolean(window.__hidden) });
"""


def test_the_sound_setting_is_remembered_and_the_turn_signals_fire(server: str, browser: Any) -> None:
    errors: list[str] = []
    doc = create(server, 2, 1, bot_pause=0.2)
    page = host_page(browser, server, doc, "en-US", PHONE, errors, init=SIGNALS)
    page.evaluate("window.__hidden = true")
    start(page)
    page.wait_for_function("window.unotable.page.view.active === 0", timeout=20000)
    page.wait_for_function("window.__vibrations.length > 0 && window.__notes.length > 0", timeout=10000)
    assert page.title().startswith("●")
    assert "turn" in page.evaluate("window.unotable.sounds")
    assert page.input_value("#sound-mode") == "mine"  # the sounds that matter to you (issue 36)
    page.select_option("#sound-mode", "off")
    page.reload()
    page.wait_for_selector("#sound-mode")
    assert page.input_value("#sound-mode") == "off"  # remembered
    close_all([page], errors)


# -- the options come from the server --------------------------------------------------------------


def test_the_forms_offer_what_the_server_offers(server: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, "en-US", LAPTOP, errors)
    with urllib.request.urlopen(server + "/api/options", timeout=10) as res:
        doc = json.loads(res.read())
    doc["bot_levels"] = ["random", "heuristic"]  # what a server with two levels would say
    doc["presets"] = [p for p in doc["presets"] if p["name"] in ("official", "no-mercy")]
    page.route("**/api/options", lambda route: route.fulfill(json=doc))
    page.goto(server + "/")
    page.wait_for_selector("#create-form")
    values = "els => els.map((e) => e.value)"
    assert page.eval_on_selector_all("#bot-level option", values) == ["random", "heuristic"]
    assert page.eval_on_selector_all("#preset option", values) == ["official", "no-mercy"]
    page.select_option("#preset", "no-mercy")
    no_mercy = next(p for p in doc["presets"] if p["name"] == "no-mercy")
    assert page.input_value("#target") == str(no_mercy["values"]["target_score"])
    assert [int(n) for n in page.eval_on_selector_all("#seats option", values)] == no_mercy["seats"]
    page.context.close()
    assert not errors, errors


# -- an installable app ----------------------------------------------------------------------------


def test_manifest_icons_and_service_worker(server: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, "en-US", LAPTOP, errors)
    page.goto(server + "/")
    page.wait_for_selector("#create-form")
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href
    manifest = page.evaluate("href => fetch(href).then((r) => r.json())", href)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        size = page.evaluate("""src => new Promise((ok) => { const i = new Image();
          i.onload = () => ok(i.naturalWidth + 'x' + i.naturalHeight);
          i.onerror = () => ok('broken'); i.src = src; })""",
                             icon["src"])
        assert size == icon["sizes"], icon
    registered = ("navigator.serviceWorker.getRegistration('/')"
                  ".then((r) => Boolean(r && r.active && r.scope.endsWith('/')))")
    for _ in range(100):  # the worker installs (it keeps the static files), then is active
        if page.evaluate(registered):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(registered)
    close_all([page], errors)


def test_the_icons_are_the_projects_own_drawing() -> None:
    import icons

    for name, (size, maskable) in icons.FILES.items():
        assert (icons.ICONS / name).read_bytes() == icons.draw(size, maskable), name


def test_offline_the_kept_page_says_the_server_cannot_be_reached(browser: Any, tmp_path: Path) -> None:
    """A server of its own: the page opens once (the worker keeps it), the server stops, and a
    table's link opened again shows the kept page saying so, not the browser's error."""
    import subprocess
    import sys

    from browser_helpers import wait_ready

    command = [sys.executable, "-m", "unotable.server.run", "--port", "0", "--data-dir", str(tmp_path)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        found = re.search(r"http://[\d.]+:\d+", proc.stdout.readline())
        assert found
        url = found.group(0)
        wait_ready(url)
        errors: list[str] = []
        page = new_page(browser, "ar", PHONE, errors)
        page.goto(url + "/")
        page.wait_for_selector("#create-form")
        # the worker takes the page (clients.claim) once it kept the files
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=15000)
    finally:
        proc.terminate()
        proc.wait(10)
    page.goto(url + "/t/abcdefgh")
    page.wait_for_selector("#conn[data-state='offline']")
    assert page.inner_text("#conn") == "تعذّر الوصول إلى الخادم"
    page.context.close()


def test_an_unreachable_server_is_said_in_words(server: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, "en-US", PHONE, errors)
    page.route("**/healthz", lambda route: route.abort())
    page.goto(server + "/")
    page.wait_for_selector("#conn[data-state='offline']")
    assert "cannot be reached" in page.inner_text("#conn")
    page.context.close()
    assert all("healthz" in e or "Failed to load" in e for e in errors), errors
