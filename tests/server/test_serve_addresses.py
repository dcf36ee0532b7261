"""``unotable serve``'s addresses: on every interface (``--host 0.0.0.0``) it prints the LAN
addresses friends open, and the links it makes (a created table's, the page's, through
``/api/options``) use one of them, never 0.0.0.0; ``--public-url`` names the address outright."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unotable.server.run import lan_addresses, link_base


@contextlib.contextmanager
def serve(tmp_path: Path, *extra: str) -> Iterator[tuple[str, list[str]]]:
    """The server in a subprocess (it prints its address once it accepts connections)."""
    command = [sys.executable, "-m", "unotable.server.run", "--port", "0", "--data-dir", str(tmp_path)]
    command += extra
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        port = re.search(r"serving at http://[^\s]+:(\d+)", first)
        assert port, first
        lines = [first]
        if "0.0.0.0" in extra and lan_addresses():
            lines.append(proc.stdout.readline())
        yield f"http://127.0.0.1:{port.group(1)}", lines
    finally:
        proc.terminate()
        proc.wait(10)


def post_table(base: str) -> dict[str, Any]:
    req = urllib.request.Request(base + "/api/tables", data=json.dumps({"seats": 2}).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as res:
        doc: dict[str, Any] = json.loads(res.read())
    return doc


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as res:
        return json.loads(res.read())


def test_link_base_picks_a_reachable_address() -> None:
    assert link_base("127.0.0.1", 8000) == ("http://127.0.0.1:8000", [])
    assert link_base("::1", 8000) == ("http://[::1]:8000", [])
    assert link_base("0.0.0.0", 8000, "https://uno.example.org/") == ("https://uno.example.org", [])
    links, lan = link_base("0.0.0.0", 8000)
    assert "0.0.0.0" not in links
    assert lan == [f"http://{a}:8000" for a in lan_addresses()]
    assert all(not a.startswith("127.") for a in lan_addresses())


def test_every_interface_prints_the_lan_addresses_and_links_use_one(tmp_path: Path) -> None:
    lan = lan_addresses()
    if not lan:
        pytest.skip("this machine has no network address but loopback")
    with serve(tmp_path, "--host", "0.0.0.0") as (base, lines):
        assert lines[1].startswith("friends on this network open: ")
        port = base.rsplit(":", 1)[1]
        assert f"http://{lan[0]}:{port}" in lines[1]
        doc = post_table(base)
        assert doc["url"].startswith(f"http://{lan[0]}:{port}/t/")
        assert get(base, "/api/options")["public_url"] == f"http://{lan[0]}:{port}"


def test_a_public_url_names_the_links(tmp_path: Path) -> None:
    with serve(tmp_path, "--public-url", "https://uno.example.org/") as (base, _):
        doc = post_table(base)
        assert doc["url"].startswith("https://uno.example.org/t/")
        assert get(base, "/api/options")["public_url"] == "https://uno.example.org"
