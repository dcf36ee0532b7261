"""A finished table outlives a restart: its page, its record and a rematch (loaded on demand)."""
from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import check_frame


def _start(data: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "unotable.server.run", "--port", "0", "--data-dir", str(data),
         "--bot-pause", "0.01", "--round-pause", "0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=data,
    )
    assert proc.stdout is not None
    base = proc.stdout.readline().split("serving at ", 1)[1].split()[0]
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, base


def _get(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


async def _play_to_the_end(ws_url: str, host: str) -> None:
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "host_token": host}))
        check_frame(await ws.recv())
        await ws.send(json.dumps({"type": "start"}))
        while True:
            msg = check_frame(await asyncio.wait_for(ws.recv(), 60))
            if (msg.get("table") or {}).get("status") == "match_over":
                return


async def _rematch(ws_url: str, host: str) -> tuple[str, str]:
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "host_token": host}))
        welcome = check_frame(await ws.recv())
        await ws.send(json.dumps({"type": "rematch"}))
        while True:
            msg = check_frame(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "update" and msg.get("table"):
                return welcome["table"]["status"], msg["table"]["status"]


def test_a_finished_table_is_loaded_after_a_restart_and_can_rematch(tmp_path: Path) -> None:
    proc, base = _start(tmp_path)
    try:
        body = json.dumps({"seats": 2, "bots": ["random", "random"], "options": {"scoring": "none"}}).encode()
        req = urllib.request.Request(f"{base}/api/tables", data=body, method="POST",
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            made = json.load(resp)
        asyncio.run(_play_to_the_end(made["ws"], made["host_token"]))
        status, record = _get(f"{base}/t/{made['table']}/record")
        assert status == 200
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, base = _start(tmp_path)  # the same database: the finished table is not rebuilt at start
    try:
        status, again = _get(f"{base}/t/{made['table']}/record")
        assert status == 200 and json.loads(again) == json.loads(record)
        assert json.loads(_get(f"{base}/api/tables/{made['table']}")[1])["status"] == "match_over"
        ws_url = made["ws"].rsplit("/ws/", 1)[0].rsplit(":", 1)[0] + ":" + base.rsplit(":", 1)[1] + \
            "/ws/" + made["table"]
        before, after = asyncio.run(_rematch(ws_url, made["host_token"]))
        assert (before, after) == ("match_over", "playing")
        # the first match's record stays: by default (the latest finished match) and by number;
        # the match being played keeps its seed until it is over
        table = f"{base}/t/{made['table']}/record"
        assert json.loads(_get(table)[1]) == json.loads(record)
        assert json.loads(_get(table + "?match=1")[1]) == json.loads(record)
        assert _get(table + "?match=2")[0] == 409
        assert _get(table + "?match=3")[0] == 404
        assert _get(table + "?match=first")[0] == 400
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
