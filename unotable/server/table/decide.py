"""Deciding: a client's message becomes a log entry (a :class:`~.core.Decision`), or a ProtocolError.

:meth:`Decisions.decide` checks who may send the message, then hands each verb to its file:
sitting down and renaming (:mod:`.sit`), playing (:mod:`.act`), the host's commands
(:mod:`.host`); leaving, chat, reactions and ``ready`` are decided here. Deciding changes
nothing: the entry is stored and then applied (:meth:`~.actor.TableActor.apply`).
"""

from __future__ import annotations

from unotable.server.entries import (
    AutopilotSet,
    Chatted,
    Left,
    Reacted,
    ReadingSet,
    ReadySet,
    RematchAccepted,
)
from unotable.server.protocol import (
    HOST_TYPES,
    AcceptRematch,
    Act,
    AskSeat,
    Chat,
    ClientMsg,
    ErrorCode,
    Hello,
    Leave,
    Ping,
    ProtocolError,
    React,
    Reading,
    Ready,
    Rename,
    SeatKind,
    Sit,
    TableStatus,
)
from unotable.server.table.act import decide_act
from unotable.server.table.core import Decision, TableCore
from unotable.server.table.host import decide_host
from unotable.server.table.seats import Role
from unotable.server.table.sit import decide_ask_seat, decide_rename, decide_sit, plain_text

__all__ = ["Decisions"]


class Decisions(TableCore):
    def decide(self, role: Role, msg: ClientMsg, now: float) -> Decision | None:
        """The entry a client message makes, or None when it changes nothing (a ping).

        Raises :class:`ProtocolError` with the code the client is told; nothing changes then.
        """
        kind = msg.type
        if kind in HOST_TYPES and not role.host:
            raise ProtocolError(ErrorCode.FORBIDDEN, f"{kind} is the host's command")
        if isinstance(msg, Ping | Hello):
            return None
        if isinstance(msg, Sit):
            return decide_sit(self, role, msg.seat, msg.name)
        if isinstance(msg, Leave):
            if role.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to leave")
            return Decision(Left(role.seat))
        if isinstance(msg, Chat):
            if role.seat is None and not role.host:
                raise ProtocolError(ErrorCode.FORBIDDEN, "spectators cannot chat")
            text = plain_text(msg.text, "a chat line")
            if not text:
                raise ProtocolError(ErrorCode.INVALID, "an empty chat line")
            name = self.names()[role.seat] if role.seat is not None else "host"
            return Decision(Chatted(role.seat, name, text))
        if isinstance(msg, Act):
            return decide_act(self, role, msg.action, msg.seq)
        if isinstance(msg, Rename):
            return decide_rename(self, role, msg.name)
        if isinstance(msg, Ready):
            if role.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to be ready in")
            if self.status is not TableStatus.ROUND_OVER:
                raise ProtocolError(ErrorCode.ILLEGAL, f"the table is {self.status}: no summary to read")
            return None if role.seat in self.ready else Decision(ReadySet(role.seat))
        if isinstance(msg, Reading):
            if role.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to read in")
            if self.status is not TableStatus.ROUND_OVER or (role.seat in self.reading) == msg.on:
                return None  # (a page may say so just as the next round is dealt: no error)
            return Decision(ReadingSet(role.seat, msg.on))
        if isinstance(msg, AskSeat):
            return decide_ask_seat(self, role, msg.name, msg.key)
        if isinstance(msg, AcceptRematch):
            if role.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to play a rematch in")
            if self.status is not TableStatus.MATCH_OVER or self.rematch is None:
                raise ProtocolError(ErrorCode.ILLEGAL, "no rematch is proposed")
            if role.seat in self.rematch:
                return None
            if self.rematch_agreed(self.rematch | {role.seat}):
                return self.rematch_now()  # the last to accept: dealt
            return Decision(RematchAccepted(role.seat))
        if isinstance(msg, React):
            name = self.names()[role.seat] if role.seat is not None else "host" if role.host else "spectator"
            return Decision(Reacted(role.seat, name, msg.reaction))
        return decide_host(self, role, msg)

    def back_from_autopilot(self, seat: int | None) -> Decision | None:
        """A player on autopilot who acts again takes the seat back (an entry, logged)."""
        if seat is None or not self.seats[seat].autopilot or self.seats[seat].kind is not SeatKind.HUMAN:
            return None
        return Decision(AutopilotSet(seat, False))
