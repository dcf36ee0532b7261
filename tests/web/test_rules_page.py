"""The rules page (/rules): a section for every preset and every house rule, in every language.

The first tests need no browser: they take the presets from the engine (the page has them from
the server's /api/options) and the house-rule switches from options.js, and check that every one
of them has its rules text in every locale. The browser tests open /rules in English, Arabic,
Persian and Hebrew (chromium's locale picks the language, as for a first visit) at phone and laptop
sizes, and check the sections, the mirrored layout, the anchors and the links that lead there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LAPTOP, PHONE, Page, new_page, no_missing_strings, shot

from unotable.rules import PRESET_NAMES

WEB = Path(__file__).resolve().parents[2] / "unotable" / "server" / "web"
LANGS = ("en", "ar", "fa", "he")
# a key of the rules page shown raw ("rules.opt.x"); the rule book's file name is not one
RAW_RULES_KEY = re.compile(r"\b(?:rules|preset|opt)\.(?!md\b)[a-z_0-9-]+(?:\.[a-z_0-9-]+)*")


def _js_list(name: str) -> str:
    source = (WEB / "options.js").read_text(encoding="utf-8")
    match = re.search(rf"export const {name} = \[(.*?)\n?\];", source, re.S)
    assert match, f"options.js no longer has `export const {name} = [...]`"
    return match.group(1)


PRESETS = list(PRESET_NAMES)
OPTIONS = re.findall(r'\{\s*opt:\s*"(\w+)"', _js_list("TOGGLES"))


def _locale(lang: str) -> dict[str, Any]:
    doc = json.loads((WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def test_the_lists_are_read() -> None:
    assert "official" in PRESETS and "no-mercy" in PRESETS and len(PRESETS) == len(set(PRESETS)) >= 8
    assert "stacking" in OPTIONS and "jump_in" in OPTIONS and len(OPTIONS) == len(set(OPTIONS)) >= 7


@pytest.mark.parametrize("lang", LANGS)
def test_every_preset_and_house_rule_has_its_rules_text(lang: str) -> None:
    strings = _locale(lang)
    wanted = [f"rules.preset.{p}" for p in PRESETS] + [f"preset.{p}" for p in PRESETS]
    wanted += [f"rules.opt.{o}" for o in OPTIONS] + [f"opt.{o}" for o in OPTIONS]
    missing = [k for k in wanted if not str(strings.get(k, "")).strip()]
    assert not missing, f"{lang}.json lacks {missing}"


def test_the_page_takes_its_lists_from_options_js() -> None:
    source = (WEB / "rules.js").read_text(encoding="utf-8")
    assert re.search(r'import \{[^}]*\bPRESETS\b[^}]*\bTOGGLES\b[^}]*\} from "\./options\.js"', source)
    # every preset has its rule IDs on the page
    ids = re.search(r"const PRESET_IDS = \{(.*?)\n\};", source, re.S)
    assert ids
    named = set(re.findall(r'^\s*"?([\w-]+)"?:', ids.group(1), re.M))
    assert named == set(PRESETS)


def _open(
    browser: Any, server: str, lang: str, viewport: dict[str, int], errors: list[str], path: str = "/rules"
) -> Page:
    page = new_page(browser, "en-US" if lang == "en" else lang, viewport, errors)
    page.goto(server + path)
    page.wait_for_selector("#rules-page h1")
    return page


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_page_in_each_language(server: str, browser: Any, lang: str) -> None:
    errors: list[str] = []
    rtl = lang != "en"
    for viewport, size in ((LAPTOP, "1280"), (PHONE, "360")):
        page = _open(browser, server, lang, viewport, errors)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.evaluate("document.documentElement.dir") == ("rtl" if rtl else "ltr")
        # a section per preset and per house rule, each with a heading and its own text
        for anchor in [f"preset-{p}" for p in PRESETS] + [f"opt-{o}" for o in OPTIONS]:
            section = page.locator(f"section#{anchor}")
            assert section.count() == 1, anchor
            assert section.locator("h3").inner_text().strip(), anchor
            text = section.locator("p").first.inner_text()
            assert len(text) > 80, (anchor, text)
            assert page.locator(f".toc a[href='#{anchor}']").count() == 1, anchor
        # the house rules show their rule IDs, left to right
        ids = page.locator("#opt-jump_in .rule-ids")
        assert "HOUSE-6" in ids.inner_text() and ids.get_attribute("dir") == "ltr"
        assert page.locator("h1").count() == 1 and page.locator("h2").count() >= 4
        # no key is shown raw, and no string fell back to English
        no_missing_strings(page)
        raw = RAW_RULES_KEY.findall(page.inner_text("body"))
        assert not raw, f"raw keys on the page: {raw[:10]}"
        # the text starts on the right in Arabic, Persian and Hebrew, on the left in English
        left_gap, right_gap = page.evaluate(
            """() => {
              const h1 = document.querySelector('#rules-page h1');
              const range = document.createRange();
              range.selectNodeContents(h1);
              const text = range.getBoundingClientRect(), box = h1.getBoundingClientRect();
              return [text.left - box.left, box.right - text.right];
            }"""
        )
        if rtl:
            assert right_gap < 2 < left_gap, (left_gap, right_gap)
        else:
            assert left_gap < 2 < right_gap, (left_gap, right_gap)
        # readable on a phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        shot(page, f"rules-{lang}-{size}")
        page.context.close()
    assert not errors, errors


def test_an_anchor_opens_its_section(server: str, browser: Any) -> None:
    errors: list[str] = []
    page = _open(browser, server, "he", PHONE, errors, "/rules#opt-jump_in")
    page.wait_for_function("window.scrollY > 0")
    top = page.evaluate("document.getElementById('opt-jump_in').getBoundingClientRect().top")
    assert 0 <= top < 40, top
    # the table of contents leads to every section
    page.click(".toc a[href='#preset-no-mercy']")
    page.wait_for_function(
        "Math.abs(document.getElementById('preset-no-mercy').getBoundingClientRect().top) < 40"
    )
    # another language redraws the page in place
    page.select_option("#lang-select", "fa")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    page.wait_for_function("document.querySelector('#rules-page h1').textContent === 'طرز بازی'")
    no_missing_strings(page)
    page.context.close()
    assert not errors, errors


def test_the_landing_page_leads_to_the_rules(server: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, "ar", LAPTOP, errors)
    page.goto(server + "/")
    page.wait_for_selector("#create-form")
    # each house-rule switch links to its own section, and every page's header to the whole page
    for option in OPTIONS:
        link = page.locator(f"label[for='opt-{option}'] a.rule-link")
        assert link.get_attribute("href") == f"/rules#opt-{option}"
        assert link.get_attribute("aria-label")
    assert page.get_attribute("#help-link", "href") == "/rules"
    page.click("#rules-link")
    page.wait_for_url("**/rules")
    page.wait_for_selector("#rules-page h1")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # and back
    page.click("#rules-back")
    page.wait_for_selector("#create-form")
    page.context.close()
    assert not errors, errors
