"""The host's commands: start, deal the next round, propose a rematch; remove a player; bots and
settings; add a seat for someone who asked.

Only the connection holding the host token gets here (:mod:`.decide` refuses the others). Seeds
are drawn here, before the entry is stored, with the salt of their commitment.
"""

from __future__ import annotations

import secrets

from unotable.server.entries import (
    BotAdded,
    BotRemoved,
    Dealt,
    Left,
    RematchProposed,
    SeatAnswered,
    SettingsChanged,
    Started,
)
from unotable.server.protocol import (
    ErrorCode,
    HostAnswerSeat,
    HostBot,
    HostKick,
    HostSettings,
    HostStart,
    ProtocolError,
    SeatKind,
    TableStatus,
)
from unotable.server.table.core import Decision, TableCore
from unotable.server.table.offer import current as offered
from unotable.server.table.seats import Role
from unotable.server.table.settings import TableSettings
from unotable.server.table.sit import MOST_SEATS
from unotable.verify import new_salt

__all__ = ["decide_host"]


def decide_host(
    table: TableCore, role: Role, msg: HostStart | HostBot | HostKick | HostSettings | HostAnswerSeat
) -> Decision:
    if isinstance(msg, HostStart):
        return _match(table, role, msg.type)
    if isinstance(msg, HostKick):
        if table.seat(msg.seat).kind is not SeatKind.HUMAN:
            raise ProtocolError(ErrorCode.ILLEGAL, f"seat {msg.seat} holds no player")
        return Decision(Left(msg.seat))
    if isinstance(msg, HostSettings) and table.status is TableStatus.MATCH_OVER:
        return _settings(table, msg, rematch=True)
    if table.status is not TableStatus.WAITING:
        raise ProtocolError(ErrorCode.ILLEGAL, f"{msg.type} belongs to the waiting room")
    if isinstance(msg, HostBot):
        return _bot(table, msg)
    if isinstance(msg, HostAnswerSeat):
        return _answer(table, msg)
    return _settings(table, msg)


def _answer(table: TableCore, msg: HostAnswerSeat) -> Decision:
    """Add a seat for request ``ask`` and seat its asker (``accept``), or decline it."""
    if msg.ask not in table.asks:
        raise ProtocolError(ErrorCode.INVALID, f"there is no request {msg.ask} waiting")
    if msg.accept:
        if len(table.seats) >= MOST_SEATS:
            raise ProtocolError(ErrorCode.ILLEGAL, f"the table has {MOST_SEATS} seats, the most it may")
        trial = TableSettings.from_dict({**table.settings.to_dict(), "seats": len(table.seats) + 1})
        try:
            trial.check()  # (a rule set may allow fewer seats)
        except ProtocolError as exc:
            raise ProtocolError(ErrorCode.ILLEGAL, exc.message) from None
    return Decision(SeatAnswered(msg.ask, msg.accept))


def _match(table: TableCore, role: Role, kind: str) -> Decision:
    """``start``, ``next_round`` or ``rematch`` (proposed first; dealt when everyone accepted)."""
    if kind == "start":
        if table.status is not TableStatus.WAITING:
            raise ProtocolError(ErrorCode.ILLEGAL, f"the table is {table.status}, not waiting")
        filled = [i for i, s in enumerate(table.seats) if s.kind is not SeatKind.EMPTY]
        if len(filled) < 2:
            raise ProtocolError(ErrorCode.ILLEGAL, "at least two seats must be filled to start")
        return Decision(Started(secrets.randbits(63), new_salt()))
    if kind == "next_round":
        if table.status is not TableStatus.ROUND_OVER:
            raise ProtocolError(ErrorCode.ILLEGAL, f"the table is {table.status}: no round to deal")
        return Decision(Dealt())
    if table.status is not TableStatus.MATCH_OVER:
        raise ProtocolError(ErrorCode.ILLEGAL, "a rematch follows a finished match")
    if table.rematch is not None:  # proposed already: the host deals it without waiting
        return table.rematch_now()
    mine = {role.seat} if role.seat is not None else set()
    if table.rematch_agreed(mine):  # nobody else to ask (bots accept)
        return table.rematch_now()
    return Decision(RematchProposed(role.seat))


def _bot(table: TableCore, msg: HostBot) -> Decision:
    """``add_bot`` or ``remove_bot`` (in the waiting room)."""
    seat = table.seat(msg.seat)
    if msg.type == "remove_bot":
        if seat.kind is not SeatKind.BOT:
            raise ProtocolError(ErrorCode.ILLEGAL, f"seat {msg.seat} holds no bot")
        return Decision(BotRemoved(msg.seat))
    if seat.kind is not SeatKind.EMPTY:  # the condition sit refuses, with sit's code
        raise ProtocolError(ErrorCode.FORBIDDEN, f"seat {msg.seat} is taken")
    level = offered().key(msg.level or table.settings.bot_level)  # the bots the operator offers
    if level is None:
        raise ProtocolError(ErrorCode.INVALID, offered().refusal(msg.level))
    return Decision(BotAdded(msg.seat, level))


def _settings(table: TableCore, msg: HostSettings, *, rematch: bool = False) -> Decision:
    """New settings (in the waiting room, or after a match for the rematch: all but the seats),
    checked whole; a table shrinks only over empty seats."""
    changes = {k: v for k, v in msg.model_dump().items() if k != "type" and v is not None}
    if rematch and changes.get("seats", len(table.seats)) != len(table.seats):
        raise ProtocolError(ErrorCode.ILLEGAL, "seats are added and removed in the waiting room")
    trial = TableSettings.from_dict({**table.settings.to_dict(), **changes})
    try:
        trial.check()
    except ValueError as exc:
        raise ProtocolError(ErrorCode.INVALID, str(exc)) from None
    taken = [i for i, s in enumerate(table.seats) if s.kind is not SeatKind.EMPTY and i >= trial.seats]
    if taken:
        raise ProtocolError(
            ErrorCode.ILLEGAL, f"seats {taken} are taken: free them before shrinking the table"
        )
    return Decision(SettingsChanged(trial.to_dict()))
