"""Sitting down and renaming: a player takes an empty seat in the waiting room, under a name;
at a full waiting room, someone watching asks the host for a seat.

A name (and a chat line, :mod:`.decide`) is one line of plain text: :func:`plain_text`.
"""

from __future__ import annotations

from unotable.server.entries import Renamed, SeatAsked, Seated
from unotable.server.ids import new_token, token_hash
from unotable.server.protocol import ErrorCode, ProtocolError, SeatKind, TableStatus
from unotable.server.table.core import Decision, TableCore
from unotable.server.table.seats import Role

__all__ = ["ASKS_KEPT", "MOST_SEATS", "decide_ask_seat", "decide_rename", "decide_sit", "plain_text"]

MOST_SEATS = 10
"""The most seats a table has (the protocol's seat numbers are 0 to 9)."""
ASKS_KEPT = 10
"""The most requests for a seat waiting for the host's answer at once."""


def plain_text(text: str, what: str) -> str:
    """``text`` with its runs of spaces folded into one and its ends trimmed, or ``invalid`` when
    it holds a control character (C0, DEL, C1: tab, LF, CR and NEL among them), a line or paragraph
    separator (U+2028, U+2029) or a lone surrogate: a name or a chat line is one line of text.

    >>> plain_text("  Ann   Bo ", "a name")
    'Ann Bo'
    >>> plain_text("Ann\\nBo", "a name")
    Traceback (most recent call last):
    ...
    unotable.server.protocol.ProtocolError: invalid: a name holds a control character (U+000A)
    """
    for ch in text:
        code = ord(ch)
        if code < 32 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000 or code in (0x2028, 0x2029):
            raise ProtocolError(ErrorCode.INVALID, f"{what} holds a control character (U+{code:04X})")
    return " ".join(text.split())


def _name(name: str) -> str:
    clean = plain_text(name, "a name")
    if not clean:
        raise ProtocolError(ErrorCode.INVALID, "a name needs a letter")
    return clean


def decide_sit(table: TableCore, role: Role, seat: int, name: str) -> Decision:
    """Sit at ``seat`` as ``name``: the entry holds the hash of a new token, the sender the token."""
    if role.seat is not None:  # one seat per connection (it would hold two, one unwatched)
        raise ProtocolError(ErrorCode.FORBIDDEN, f"you hold seat {role.seat}: leave it first")
    if table.status is not TableStatus.WAITING:
        raise ProtocolError(ErrorCode.FORBIDDEN, "seats are taken in the waiting room; you are watching")
    if table.seat(seat).kind is not SeatKind.EMPTY:
        raise ProtocolError(ErrorCode.FORBIDDEN, f"seat {seat} is taken")
    clean = _name(name)
    token = new_token()
    return Decision(Seated(seat, clean, token_hash(token)), token)


def decide_rename(table: TableCore, role: Role, name: str) -> Decision:
    if role.seat is None:
        raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to rename")
    if table.status is not TableStatus.WAITING:
        raise ProtocolError(ErrorCode.FORBIDDEN, "names are changed in the waiting room")
    return Decision(Renamed(role.seat, _name(name)))


def decide_ask_seat(table: TableCore, role: Role, name: str, key: str) -> Decision | None:
    """Ask the host for a seat at a full waiting room (the key's hash becomes the seat's token
    hash if the host adds the seat); asked again with the same key, nothing changes."""
    if role.seat is not None:
        raise ProtocolError(ErrorCode.FORBIDDEN, f"you hold seat {role.seat} already")
    if table.status is not TableStatus.WAITING:
        raise ProtocolError(ErrorCode.ILLEGAL, "seats are added in the waiting room; you are watching")
    free = [i for i, s in enumerate(table.seats) if s.kind is SeatKind.EMPTY]
    if free:
        raise ProtocolError(ErrorCode.ILLEGAL, f"seat {free[0]} is free: sit there")
    if len(table.seats) >= MOST_SEATS:
        raise ProtocolError(ErrorCode.ILLEGAL, f"the table has {MOST_SEATS} seats, the most it may")
    hashed = token_hash(key)
    if any(h == hashed for _, h in table.asks.values()):
        return None
    if len(table.asks) >= ASKS_KEPT:
        raise ProtocolError(ErrorCode.RATE_LIMITED, f"{ASKS_KEPT} requests wait for the host already")
    return Decision(SeatAsked(_name(name), hashed))
