"""The edges of a connection and of a table: the websocket handshake (no such table, no hello,
a token that holds no seat, a hello twice, a false host token) and the create body's checks (a
coded 400, never a 500). On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from frames import check_frame
from harness import Client, ServerProc, Stream, ahttp, create_table, http
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def test_the_handshake(server: ServerProc) -> None:
    """No such table (4004); a first message that is no hello (malformed, closed); a token that
    holds no seat (forbidden, then a spectator's welcome); a hello twice (malformed, still open)."""

    async def main() -> None:
        created = await create_table(server, preset="official", seats=2, bots=[None, "random"])
        table = created["table"]
        async with connect(f"{server.ws_base}/ws/{'x' * 16}") as ws:
            first = check_frame(await ws.recv())  # (said at once, before any hello)
            assert first["type"] == "error" and first["code"] == "invalid"
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 4004
        async with connect(f"{server.ws_base}/ws/{table}") as ws:
            await ws.send(json.dumps({"type": "ping"}))
            first = check_frame(await ws.recv())
            assert first["type"] == "error" and first["code"] == "malformed"
            with pytest.raises(ConnectionClosed):
                await ws.recv()
        for path in (f"/t/{'x' * 16}/record", "/t/short/record", f"/api/tables/{'x' * 16}"):
            status, body = await ahttp("GET", f"{server.url}{path}")
            assert status == 404 and body["code"] == "invalid", (path, status, body)
        stream = Stream(None)
        stranger = await Client.open(server, table, stream, token="not-a-token-" + "x" * 20)
        assert stream.connections[0][0]["type"] == "error" and stream.connections[0][0]["code"] == "forbidden"
        assert stranger.welcome is not None and stranger.welcome["you"] == {"seat": None, "host": False}
        again = await stranger.request({"type": "hello"})
        assert again["type"] == "error" and again["code"] == "malformed"
        await stranger.ping()
        assert stranger.closed_code is None
        fake_host = await Client.open(server, table, Stream(None), host_token="y" * 32)
        assert fake_host.welcome is not None and fake_host.welcome["you"]["host"] is False
        denied = await fake_host.request({"type": "start"})
        assert denied["type"] == "error" and denied["code"] == "forbidden"
        for c in (stranger, fake_host):
            await c.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"bot_pause": "abc"}', "invalid"),
        (b'{"turn_seconds": -5}', "invalid"),
        (b'{"turn_seconds": 601}', "invalid"),
        (b'{"round_pause": 1e9}', "invalid"),
        (b'{"bot_pause": NaN}', "invalid"),
        (b'{"bot_level": null}', "invalid"),
        (b'{"bot_level": "grandmaster"}', "invalid"),
        (b'{"seats": true}', "invalid"),
        (b'{"seats": 2.5}', "invalid"),
        (b'{"seats": 11}', "invalid"),
        (b'{"preset": "snap"}', "invalid"),
        (b'{"options": {"nonsense": 1}}', "invalid"),
        (b'{"options": []}', "invalid"),
        (b'{"bots": [null, "nope"]}', "invalid"),
        (b'{"bots": "random"}', "invalid"),
        (b'{"colour": "red"}', "invalid"),
        (b"[1]", "malformed"),
        (b"\xff", "malformed"),
        (b"{", "malformed"),
    ],
)
def test_a_table_is_created_from_sound_settings_only(server: ServerProc, raw: bytes, code: str) -> None:
    """The create body is refused with a coded 400 (never a 500, never a table that fails later)."""
    status, body = http("POST", f"{server.url}/api/tables", raw=raw)
    assert status == 400 and body["code"] == code, (raw, status, body)
    status, health = http("GET", f"{server.url}/healthz")
    assert status == 200 and health["ok"] is True
