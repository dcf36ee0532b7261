"""One seat's (or a spectator's) connection to a table: hello, resume, reconnect with back-off.

:class:`Connection` connects to the table's websocket, sends ``hello`` (with the seat token, the
host token and the last sequence number seen, so that a resume gets only what it missed), hands
every JSON object the server sends to the caller, and reconnects when the connection drops: the
waits double from :data:`FIRST_DELAY` up to ``max_delay`` seconds, and it gives up after
``give_up`` seconds without a connection. It ends by raising a :class:`Ended` that says why, read
from the close code (:class:`~unotable.client.codes.CloseCode`), never from the reason's words.

:func:`decode_table`, :func:`decode_view` and :func:`decode_events` turn the frames' parts into the
engine's values with the engine's own readers (``TableInfo.from_dict``, ``view_from_dict``,
``Event.from_dict``).

>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=3)
>>> table = decode_table(g.table_info().to_dict())
>>> decode_view(g.view(0).to_dict(), table).seat, decode_events([e.to_dict() for e in g.events]) == g.events
(0, True)
>>> backoff(0, 30.0), backoff(3, 30.0), backoff(20, 30.0)
(0.25, 2.0, 30.0)
"""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidURI, WebSocketException

from unotable.client.codes import CloseCode, close_code
from unotable.client.links import TableUrl
from unotable.errors import RecordError
from unotable.events import Event
from unotable.views import SpectatorView, TableInfo, view_from_dict

__all__ = ["FIRST_DELAY", "GIVE_UP", "MAX_DELAY", "Connection", "Ended", "backoff", "decode_events",
           "decode_table", "decode_view", "message_seq"]

MAX_DELAY = 30.0
"""The longest wait, in seconds, between two tries to reconnect (the waits double up to it)."""
FIRST_DELAY = 0.25
GIVE_UP = 600.0
"""Seconds without a connection after which the client stops trying."""


class Ended(Exception):
    """The connection is over for good: ``why`` is ``taken_over``, ``no_table``, ``refused`` (no
    welcome on the first try; ``detail`` says what failed) or ``gave_up``."""

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(why, detail)
        self.why = why
        self.detail = detail


def backoff(attempt: int, max_delay: float) -> float:
    """The wait before try ``attempt + 1`` after a drop (0 for the first retry)."""
    return float(min(max_delay, FIRST_DELAY * 2.0 ** min(attempt, 60)))


def message_seq(msg: Any) -> int | None:
    """The table sequence number a frame carries (an int, never a bool), or None."""
    value = msg.get("seq") if isinstance(msg, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def decode_table(doc: Any) -> TableInfo:
    """The static part of the views (``welcome``'s and ``update``'s ``static``)."""
    return TableInfo.from_dict(doc)


def decode_view(doc: Any, table: TableInfo) -> SpectatorView:
    """A seat's view (a :class:`~unotable.views.PlayerView`) or the spectator's, on ``table``."""
    try:
        return view_from_dict(doc, table)
    except RecordError as exc:
        raise RecordError(f"the server sent a view this client cannot read: {exc}") from None


def decode_events(docs: Sequence[Any]) -> list[Event]:
    """The events of a frame, in order."""
    return [Event.from_dict(d) for d in docs]


@dataclass
class Connection:
    """Stay connected to ``where``: :meth:`run` until an :class:`Ended` is raised.

    ``hello`` builds the hello to send on each (re)connection; ``on_message`` gets every JSON
    object and answers True to ask for a fresh connection (a ``reconnect`` frame); ``on_retry``
    is told of each wait before a retry (delay in seconds, try number).
    """

    where: TableUrl
    hello: Callable[[], dict[str, Any]]
    on_message: Callable[[dict[str, Any]], Awaitable[bool]]
    on_retry: Callable[[float, int], None]
    max_delay: float = MAX_DELAY
    give_up: float = GIVE_UP
    ws: ClientConnection | None = None
    welcomed: bool = False

    async def run(self) -> None:
        attempt = 0
        lost_at: float | None = None
        while True:
            code: int | None = None
            reason = ""
            try:
                async with connect(
                    self.where.ws, open_timeout=10, ping_interval=20, ping_timeout=20, max_size=2**22
                ) as ws:
                    self.ws = ws
                    await ws.send(json.dumps(self.hello()))
                    async for raw in ws:
                        try:
                            msg = json.loads(raw)
                        except ValueError:
                            continue  # not JSON: nothing a client can use
                        if not isinstance(msg, dict):
                            continue
                        if msg.get("type") == "welcome":
                            attempt, lost_at, self.welcomed = 0, None, True
                        if await self.on_message(msg):
                            break
                code = ws.close_code
            except (OSError, InvalidURI, TimeoutError, WebSocketException) as exc:
                reason = str(exc) or type(exc).__name__
                if isinstance(exc, ConnectionClosed) and exc.rcvd is not None:
                    code = exc.rcvd.code
            finally:
                self.ws = None
            closed = close_code(code)
            if closed is CloseCode.TAKEN_OVER:
                raise Ended("taken_over")
            if closed is CloseCode.NO_TABLE:
                raise Ended("no_table")
            if not self.welcomed:
                raise Ended("refused", reason or "the server closed the connection")
            now = time.monotonic()
            lost_at = lost_at if lost_at is not None else now
            if now - lost_at > self.give_up:
                raise Ended("gave_up", f"no connection for {self.give_up:g} s")
            delay = backoff(attempt, self.max_delay)
            attempt += 1
            self.on_retry(delay, attempt)
            await asyncio.sleep(delay)

    async def send(self, msg: dict[str, Any]) -> bool:
        """Send ``msg``; False when there is no connection now or it dropped before it went."""
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(msg))
        except ConnectionClosed:
            return False
        return True
