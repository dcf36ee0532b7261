"""A websocket that connects and never says hello: after the hello time-out it gets one coded
error frame (``malformed``, "no hello within N s", the table's seq) and then the documented close
(1000, ``CloseCode.NORMAL``; docs/protocol.md). Through a real socket, against ``unotable serve``
with a short ``--hello-timeout``."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

websockets = pytest.importorskip("websockets")

from unotable.server.protocol import CloseCode  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import check_frame  # noqa: E402
from harness import SERVER_START_S, ahttp, read_line, wait_healthy  # noqa: E402

HELLO_TIMEOUT_S = 0.4


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    log = tmp_path / "server.log"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "unotable.server.run", "--port", "0", "--data-dir", str(tmp_path),
             "--hello-timeout", str(HELLO_TIMEOUT_S)],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=err, text=True,
        )  # fmt: skip
    try:
        found = re.search(r"serving at (http://127\.0\.0\.1:\d+)", read_line(proc, SERVER_START_S))
        assert found, log.read_text()
        wait_healthy(found.group(1), proc, log.read_text)
        yield found.group(1)
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_socket_without_hello_gets_a_coded_error_then_the_close(base_url: str) -> None:
    async def main() -> None:
        status, made = await ahttp("POST", f"{base_url}/api/tables", {"seats": 2})
        assert status == 201
        ws_url = made["ws"]
        opened = time.monotonic()  # before the server has the socket: it waits at least the time-out
        async with websockets.connect(ws_url) as ws:
            frame = check_frame(await asyncio.wait_for(ws.recv(), 10))
            waited = time.monotonic() - opened
            assert frame == {
                "seq": 0,
                "type": "error",
                "code": "malformed",
                "message": f"no hello within {HELLO_TIMEOUT_S:g} s",
            }
            assert waited >= HELLO_TIMEOUT_S * 0.8  # told at the time-out, not at once
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == CloseCode.NORMAL == 1000
        # the table is untouched: a client that says hello in time is welcomed
        async with websockets.connect(ws_url) as ws:
            await ws.send('{"type": "hello"}')
            welcome = check_frame(await asyncio.wait_for(ws.recv(), 10))
            assert welcome["type"] == "welcome" and welcome["seq"] == 0

    asyncio.run(main())


def test_the_hello_timeout_must_be_positive(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "unotable.server.run", "--port", "0", "--hello-timeout", "0"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0 and "--hello-timeout must be positive" in done.stderr
