"""What a client written from docs/protocol.md alone found, each checked on a real server.

A real ``unotable serve`` process per backend (conftest.py's ``server`` fixture) and real sockets:

- a wrong JSON type where the schema says integer (``"seat": "1"``, ``2.0``, ``true``, ``"seq":
  "12"``, the host's ``"seats": "4"``) is ``malformed`` over the websocket, as over HTTP;
- a name or a chat line with LF, CR, TAB, NEL or U+2028 is refused (``invalid``), not folded;
- ``POST /api/tables`` with JSON nested 1,000 deep, or a body of 5 MB, answers a JSON error
  (``malformed``, ``too_large``), never a plain-text 500;
- ``GET /t/TABLE/record`` before any match has begun is 404, as ``?match=1`` is;
- ``add_bot`` on a seat a person holds answers ``forbidden``, as ``sit`` on it does; a ``bots`` list
  that is not one entry per seat is refused, and says so;
- ``unotable serve`` prints its address only once the port accepts connections.

``UNOTABLE_TEST_SERVER_TREE=/path/to/an/older/checkout`` runs these against that tree's server.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from frames import check_frame  # noqa: E402
from harness import Client, ServerProc, Stream, create_table, database, http, seat_people  # noqa: E402


async def _answer(ws: Any, msg: dict[str, Any] | str) -> dict[str, Any]:
    """Send ``msg`` and the first frame that is no presence notice."""
    await ws.send(msg if isinstance(msg, str) else json.dumps(msg))
    while True:
        got = check_frame(await asyncio.wait_for(ws.recv(), 10))
        if got["type"] not in ("presence", "update"):
            return got


@pytest.mark.parametrize(
    ("msg", "host"),
    [
        ({"type": "sit", "seat": "1", "name": "Ann"}, False),
        ({"type": "sit", "seat": 1.0, "name": "Ann"}, False),
        ({"type": "sit", "seat": True, "name": "Ann"}, False),
        ({"type": "act", "action": "draw", "seq": "12"}, False),
        ({"type": "act", "action": "draw", "seq": True}, False),
        ({"type": "settings", "seats": "4"}, True),
        ({"type": "add_bot", "seat": "2"}, True),
    ],
)
def test_wrong_json_types_are_malformed(server: ServerProc, msg: dict[str, Any], host: bool) -> None:
    async def main() -> None:
        created = await create_table(server, seats=4)
        async with connect(f"{server.ws_base}/ws/{created['table']}") as ws:
            hello: dict[str, Any] = {"type": "hello"}
            if host:
                hello["host_token"] = created["host_token"]
            welcome = await _answer(ws, hello)
            assert welcome["type"] == "welcome"
            answer = await _answer(ws, msg)
            assert answer["type"] == "error" and answer["code"] == "malformed", answer
            again = await _answer(ws, {"type": "ping"})
            assert again["type"] == "pong" and again["seq"] == welcome["seq"]  # nothing changed
        _, table = http("GET", f"{server.url}/api/tables/{created['table']}")
        assert [s["kind"] for s in table["seats"]] == ["empty"] * 4 and table["settings"]["seats"] == 4

    asyncio.run(main())


@pytest.mark.parametrize("bad", ["A\nB", "A\rB", "A\tB", "A\u0085B", "A\u2028B"])
def test_line_breaks_and_tabs_in_names_and_chat_are_refused(server: ServerProc, bad: str) -> None:
    async def main() -> None:
        created = await create_table(server, seats=2, bots=[None, "random"])
        async with connect(f"{server.ws_base}/ws/{created['table']}") as ws:
            await _answer(ws, {"type": "hello", "host_token": created["host_token"]})
            named = await _answer(ws, {"type": "sit", "seat": 0, "name": bad})
            assert named["type"] == "error" and named["code"] == "invalid", named
            said = await _answer(ws, {"type": "chat", "text": bad})
            assert said["type"] == "error" and said["code"] == "invalid", said
            sat = await _answer(ws, {"type": "sit", "seat": 0, "name": "  Ann   Lee "})
            assert sat["type"] == "token"
        _, table = http("GET", f"{server.url}/api/tables/{created['table']}")
        assert table["seats"][0]["name"] == "Ann Lee"  # what was stored is what everyone sees

    asyncio.run(main())


def test_create_bodies_too_deep_or_too_large_get_a_json_error(server: ServerProc) -> None:
    deep = b'{"options": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    status, body = http("POST", f"{server.url}/api/tables", raw=deep)
    assert status == 400 and isinstance(body, dict) and body["code"] == "malformed", (status, body)
    # 5 MB announced: the answer comes before the body is sent (it is never read)
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        head = f"POST /api/tables HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        sock.sendall(f"{head}Content-Length: 5000000\r\n\r\n".encode() + b'{"pad": "xxxx')
        reply = b""
        while b"}" not in reply.partition(b"\r\n\r\n")[2]:
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    status_line, _, rest = reply.partition(b"\r\n")
    assert status_line.split()[1] == b"413", reply[:300]
    body = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert body["code"] == "too_large", body
    over = json.dumps({"preset": "official", "pad": "x" * 20_000}).encode()  # just over the limit
    status, body = http("POST", f"{server.url}/api/tables", raw=over)
    assert status == 413 and body["code"] == "too_large", (status, str(body)[:200])
    status, health = http("GET", f"{server.url}/healthz")
    assert status == 200 and health["ok"] is True


def test_a_record_before_any_match_is_404(server: ServerProc) -> None:
    async def main() -> None:
        created = await create_table(server, seats=2, bots=[None, "random"])
        for query in ("", "?match=1"):
            status, body = http("GET", f"{server.url}/t/{created['table']}/record{query}")
            assert status == 404 and body["code"] == "invalid", (query, status, body)

    asyncio.run(main())


def test_add_bot_on_a_persons_seat_has_sits_code(server: ServerProc) -> None:
    async def main() -> None:
        match = await seat_people(server, "official", humans=(0, 1), bots=[None, None], seats=2,
                                  spectator=False, start=False)
        host = match.humans[0]
        other = await Client.open(server, match.table, Stream(None))
        sat = await other.request({"type": "sit", "seat": 1, "name": "Zed"})
        added = await host.request({"type": "add_bot", "seat": 1, "level": "random"})
        assert sat["type"] == added["type"] == "error", (sat, added)
        assert sat["code"] == added["code"] == "forbidden", (sat, added)
        for c in (*match.humans.values(), other):
            await c.close()

    asyncio.run(main())


@pytest.mark.parametrize("bots", [["random"] * 5, ["random"], []])
def test_a_bots_list_is_one_entry_per_seat(server: ServerProc, bots: list[str]) -> None:
    status, body = http("POST", f"{server.url}/api/tables", {"seats": 3, "bots": bots})
    assert status == 400 and body["code"] == "invalid", body
    assert f"bots has {len(bots)} entries for 3 seats" in body["message"], body


def _connect_once(url: str) -> str:
    """One try at once (no retry hides a port that is not listening yet)."""
    host, port = url.removeprefix("http://").split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            return "accepted"
    except OSError as exc:
        return f"refused: {exc}"


@pytest.mark.parametrize("kind", ["sqlite"])
def test_serve_prints_its_address_once_the_port_accepts(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The first connection tried right after the line is printed is accepted (five starts)."""
    for n in range(5):
        workdir = tmp_path / f"start-{n}"
        workdir.mkdir()
        with database(kind, workdir, request) as db:
            proc = ServerProc(db, workdir)
            tried: list[str] = []
            try:
                proc.start(on_address=lambda url, tried=tried: tried.append(_connect_once(url)))
            finally:
                proc.stop()
            assert tried == ["accepted"], (n, tried)
