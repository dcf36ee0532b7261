"""Playing: a seat's action in the game, checked by the engine (the table's seq guards a stale one)."""

from __future__ import annotations

from unotable.errors import UnoError
from unotable.server.entries import Acted, ActedBy
from unotable.server.protocol import ErrorCode, ProtocolError, TableStatus
from unotable.server.table.core import Decision, TableCore
from unotable.server.table.seats import Role

__all__ = ["decide_act"]


def decide_act(table: TableCore, role: Role, text: str, seq: int | None) -> Decision:
    """``role``'s action ``text`` (``seq``: the table seq the client saw, if it says), or the
    engine's refusal with its code (``not_your_turn``, ``illegal``, ``invalid``)."""
    if role.seat is None:
        raise ProtocolError(ErrorCode.FORBIDDEN, "spectators cannot act")
    if table.game is None or table.status is not TableStatus.PLAYING:
        raise ProtocolError(ErrorCode.ILLEGAL, f"no round is in play (the table is {table.status})")
    if seq is not None and seq != table.seq:
        raise ProtocolError(ErrorCode.STALE, f"the table is at {table.seq}, not {seq}")
    try:
        action = table.game.check(text, role.seat)
    except UnoError as exc:
        raise ProtocolError(ErrorCode.of_engine(exc.code), str(exc)) from None
    return Decision(Acted(role.seat, str(action), ActedBy.PLAYER))
