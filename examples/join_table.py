"""A client joining a table over the protocol: HTTP to create it, one websocket to play it.

It speaks docs/protocol.md directly, with the `websockets` package and the standard library:

1. ``POST /api/tables`` creates a two-seat table with a bot in seat 1 and answers the table id,
   the websocket address and the host token;
2. on the websocket, ``hello`` (with the host token) is answered by ``welcome``; ``sit`` takes
   seat 0 and is answered by the seat's ``token``; the host's ``start`` deals;
3. after every accepted command the server sends an ``update`` with this seat's own view, whose
   ``legal`` lists the actions the seat may take now; the client answers with ``act``, naming the
   table's ``seq`` so that an answer to an outdated view is refused (``stale``) instead of applied.

It plays one round on its own turns (a card when it can, the first legal action otherwise), at a
pace the server's rate limit allows, and prints the result.
A program that stays at a table would rather use :mod:`unotable.client`, which also resumes
after a dropped connection and decodes the frames into the engine's own values. Start a server
first (``make serve``, or ``unotable serve --port 8000``), then:

    .venv/bin/python examples/join_table.py http://127.0.0.1:8000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import urllib.request
from typing import Any

import websockets

PACE = 0.1
"""Seconds to wait before each action: the server takes at most 20 messages a second from a
connection (``rate_limited`` beyond), and the bot seats here act without a pause."""


def create_table(server: str) -> dict[str, Any]:
    """``POST /api/tables``: the table id, its link, its websocket address and the host token."""
    body = json.dumps({"preset": "official", "seats": 2, "bots": [None, "heuristic"]}).encode()
    request = urllib.request.Request(f"{server}/api/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def pick(legal: list[str]) -> str:
    """A card when the seat can play one (the UNO flag `!` on it when it has that form), else the
    first legal action (draw, pass, accept, a color)."""
    plays = [a for a in legal if a[0] in "RYGBW" and not a.startswith("color:")]
    flagged = [a for a in plays if a.endswith("!")]
    return (flagged or plays or legal)[0]


async def play(server: str, name: str) -> int:
    table = create_table(server)
    print(f"created table {table['table']}: {table['url']}")
    async with websockets.connect(table["ws"]) as ws:

        async def send(message: dict[str, Any]) -> None:
            await ws.send(json.dumps(message))

        async def receive() -> dict[str, Any]:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            if message["type"] == "error" and message["code"] != "stale":
                raise RuntimeError(f"the server refused: {message['code']}: {message['message']}")
            return message

        await send({"type": "hello", "host_token": table["host_token"]})
        welcome = await receive()
        assert welcome["type"] == "welcome", welcome
        await send({"type": "sit", "seat": 0, "name": name})
        await send({"type": "start"})
        acted = -1  # the table seq of the view we last answered
        while True:
            message = await receive()
            if message["type"] == "token":
                print(f"seat {message['seat']} is ours (its token comes back to it later)")
            if message["type"] not in ("welcome", "update") or message.get("view") is None:
                continue
            view = message["view"]
            if view.get("last_round") is not None and view["phase"] in ("round_over", "match_over"):
                result = view["last_round"]
                print(f"round over: seat {result['winner']} went out; scores {view['scores']}")
                return 0
            # Act on our own turn, once per table state; out-of-turn chances (a catch) are let pass.
            if view.get("active") == 0 and view["legal"] and message["seq"] > acted:
                acted = message["seq"]
                await asyncio.sleep(PACE)
                await send({"type": "act", "action": pick(view["legal"]), "seq": acted})


def main() -> int:
    parser = argparse.ArgumentParser(description="Create a table and play a round over the protocol.")
    parser.add_argument("server", help="the server's address, as unotable serve prints it")
    parser.add_argument("--name", default="Example")
    args = parser.parse_args()
    return asyncio.run(play(args.server.rstrip("/"), args.name))


if __name__ == "__main__":
    raise SystemExit(main())
