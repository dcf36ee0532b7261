"""The protocol's close codes and reconnect reasons, as a client reads them.

These mirror ``CloseCode`` and ``ReconnectReason`` of :mod:`unotable.server.protocol` (and of
docs/protocol.schema.json) without importing the server, whose messages need pydantic; a test
checks that the two agree whenever the server extra is installed. A client acts on these codes,
never on the words of a close reason or a message.

>>> CloseCode.TAKEN_OVER == 4001, ReconnectReason("restart") is ReconnectReason.RESTART
(True, True)
>>> close_code(4004), close_code(3999), close_code(None)
(<CloseCode.NO_TABLE: 4004>, 3999, None)
"""
from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["CloseCode", "ReconnectReason", "close_code"]


class CloseCode(IntEnum):
    """The websocket close codes the server uses (4000-4999 are the protocol's own)."""

    NORMAL = 1000
    """A refused or missing ``hello`` (an error came first), or the client's own close."""
    RESTART = 1012
    """The server restarts: reconnect with the token and the last sequence number."""
    TAKEN_OVER = 4001
    """Another connection took this seat over: do not reconnect by yourself."""
    NO_TABLE = 4004
    """There is no such table."""


class ReconnectReason(StrEnum):
    """Why the server sends ``reconnect``."""

    RESTART = "restart"
    """The server is stopping: reconnect in a moment."""
    TAKEN_OVER = "taken_over"
    """Another connection took the seat over; the close (4001) follows."""


def close_code(code: int | None) -> CloseCode | int | None:
    """``code`` as a :class:`CloseCode` when it is one of the protocol's, else as it came."""
    if code is None:
        return None
    try:
        return CloseCode(code)
    except ValueError:
        return code
