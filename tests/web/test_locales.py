"""The browser table's strings: every key in every language (English, Arabic, Persian, Hebrew).

Each locale is a flat JSON object under ``unotable/server/web/locales``: a key maps to a string,
or, for a plural, to an object keyed by the language's ``Intl.PluralRules`` categories. These
tests run without a browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "unotable" / "server" / "web"
LANGS = ("en", "ar", "fa", "he")
# CLDR plural categories each language uses (Intl.PluralRules(lang).resolvedOptions().pluralCategories)
CATEGORIES = {
    "en": {"one", "other"},
    "ar": {"zero", "one", "two", "few", "many", "other"},
    "fa": {"one", "other"},
    "he": {"one", "two", "many", "other"},
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(lang: str) -> dict[str, object]:
    doc = json.loads((WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def texts(value: object) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]  # type: ignore[list-item]


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys_as_english(lang: str) -> None:
    en, other = load("en"), load(lang)
    missing = sorted(set(en) - set(other))
    extra = sorted(set(other) - set(en))
    assert not missing, f"{lang}.json lacks {missing}"
    assert not extra, f"{lang}.json has keys English lacks: {extra}"


@pytest.mark.parametrize("lang", LANGS)
def test_values_are_strings_or_plurals(lang: str) -> None:
    en = load("en")
    for key, value in load(lang).items():
        if isinstance(value, dict):
            assert isinstance(en[key], dict), f"{lang}:{key} is a plural, English's is not"
            assert "other" in value, f"{lang}:{key} needs an 'other' form"
            assert set(value) <= CATEGORIES[lang], f"{lang}:{key}: {sorted(set(value) - CATEGORIES[lang])}"
        else:
            assert isinstance(value, str) and value.strip(), f"{lang}:{key} is empty"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_placeholders_match_english(lang: str) -> None:
    en, other = load("en"), load(lang)
    for key, value in other.items():
        want = {p for text in texts(en[key]) for p in PLACEHOLDER.findall(str(text))} - {"n"}
        for text in texts(value):
            got = set(PLACEHOLDER.findall(str(text))) - {"n"}
            assert got == want, f"{lang}:{key}: placeholders {sorted(got)}, English has {sorted(want)}"


def test_every_key_the_scripts_use_exists() -> None:
    en = load("en")
    used: set[str] = set()
    for script in WEB.glob("*.js"):
        source = script.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([\w.-]+)["']""", source))
        used |= set(re.findall(r"""data-i18n(?:-title|-label)?=["']([\w.-]+)["']""", source))
    used |= set(re.findall(r'data-i18n(?:-title|-label)?="([\w.-]+)"', (WEB / "index.html").read_text()))
    assert used, "no keys found: the pattern is stale"
    assert not sorted(used - set(en)), f"keys used but not in en.json: {sorted(used - set(en))}"


def test_rtl_languages_are_the_three() -> None:
    source = (WEB / "i18n.js").read_text(encoding="utf-8")
    assert 'new Set(["ar", "fa", "he"])' in source
