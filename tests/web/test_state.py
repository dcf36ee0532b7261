"""The table page's state reducer (unotable/server/web/state.js), unit-tested without a server.

The cases are JavaScript (tests/web/state_cases.mjs). They run in node where node is installed,
and in the browser (chromium, through Playwright) where it is: the same module, both ways.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
WEB = HERE.parents[1] / "unotable" / "server" / "web"
CASES = HERE / "state_cases.mjs"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_state_in_node() -> None:
    script = (
        f"const S = await import({json.dumps((WEB / 'state.js').as_uri())});"
        f"const C = await import({json.dumps(CASES.as_uri())});"
        "console.log(JSON.stringify(C.run(S)));"
    )
    # state.js is a plain ES module with a .js name: node reads it as one
    out = subprocess.run(
        [str(NODE), "--experimental-default-type=module", "--input-type=module", "-e", script],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert out.returncode == 0, out.stderr
    failures = json.loads(out.stdout.strip().splitlines()[-1])
    assert failures == []


def test_state_in_the_browser(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/rules")
    cases = CASES.read_text(encoding="utf-8").replace("export function run", "function run")
    page.add_script_tag(type="module", content=(
        'import * as S from "/static/state.js";\n' + cases + "\nwindow.__stateFailures = run(S);"
    ))
    page.wait_for_function("Array.isArray(window.__stateFailures)")
    assert page.evaluate("window.__stateFailures") == []
    page.close()
