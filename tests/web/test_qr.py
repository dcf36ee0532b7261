"""The share panel's QR code: ``unotable/server/web/qr.js``, an encoder of our own (byte mode, level
M, versions 1 to 10), run in chromium and checked module for module against QR codes made by a
reference encoder (the python-qrcode package) with the same version and mask, kept in
``tests/web/data/qr_reference.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REFERENCE = json.loads((Path(__file__).parent / "data" / "qr_reference.json").read_text())

ENCODE = """async ([text, version, mask]) => {
  const qr = await import("/static/qr.js");
  return qr.qrMatrix(text, {version, mask}).map(row => row.map(d => (d ? "1" : "0")).join(""));
}"""


@pytest.fixture(scope="module")
def page(server: str, browser: Any) -> Any:
    page = browser.new_page()
    page.goto(server + "/")
    yield page
    page.close()


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: f"v{c['version']}-mask{c['mask']}")
def test_matches_the_reference_encoder(page: Any, case: dict[str, Any]) -> None:
    rows = page.evaluate(ENCODE, [case["text"], case["version"], case["mask"]])
    assert rows == case["rows"]


def test_picks_the_smallest_version_and_a_mask(page: Any) -> None:
    sizes = page.evaluate(
        """async (texts) => { const qr = await import("/static/qr.js");
           return texts.map(t => qr.qrMatrix(t).length); }""",
        ["a" * 14, "a" * 15, "http://127.0.0.1:8000/t/AbCdEfGhIjKlMnOp", "x" * 213],
    )
    assert sizes == [21, 25, 29, 57]  # versions 1, 2, 3 (40 bytes: 42 fit) and 10
    with pytest.raises(Exception, match="too long"):
        page.evaluate(ENCODE, ["x" * 214, None, None])
