"""The wire protocol of the online tables: declared message types, error codes, limits, JSON Schema.

One websocket per client carries JSON text messages. A client's messages form a closed set,
declared here with pydantic and validated on arrival; anything else is answered with a coded
error (``malformed``) that changes nothing and keeps the connection open. Every server message
carries ``seq``, the table's sequence number: the count of commands the table has accepted, which
only grows. ``docs/protocol.md`` documents the protocol; ``python -m unotable.server.protocol``
prints the JSON Schema of both directions, generated from these types.

>>> msg = parse_client('{"type": "act", "action": "R7"}')
>>> msg.type, msg.action, msg.seq
('act', 'R7', None)
>>> parse_client('{"type": "act"}')
Traceback (most recent call last):
...
unotable.server.protocol.ProtocolError: malformed: act: action: Field required
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "LIMITS",
    "ClientMessage",
    "ErrorCode",
    "ProtocolError",
    "client_schema",
    "parse_client",
    "server_schema",
]


class ErrorCode(StrEnum):
    """Why the server refused a message. A refusal changes nothing and keeps the connection open."""

    NOT_YOUR_TURN = "not_your_turn"
    """The engine's: a seat that may not act now tried to."""
    ILLEGAL = "illegal"
    """The engine's: an action the rules forbid now."""
    INVALID = "invalid"
    """An action or a command that is malformed for this table (bad notation, no such seat)."""
    STALE = "stale"
    """The message names a table sequence number that is not the current one."""
    MALFORMED = "malformed"
    """Not JSON, or not one of the declared client messages."""
    TOO_LARGE = "too_large"
    """A message over the size limit (the connection stays open)."""
    RATE_LIMITED = "rate_limited"
    """Too many messages, or chat lines, too fast."""
    FORBIDDEN = "forbidden"
    """Not allowed to this connection: a host command without the host token, an action from a
    spectator, a seat already taken, a bad token."""


class Limits(BaseModel):
    """The limits the server enforces, per connection."""

    model_config = ConfigDict(frozen=True)
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    chat_length: int = 200
    chats_per_second: float = 1.0
    chat_burst: int = 5
    name_length: int = 24


LIMITS = Limits()


class ProtocolError(ValueError):
    """A client message the server refuses, with its :class:`ErrorCode`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    """The first message of a connection: which table, and who the client is.

    ``token`` resumes a seat (a second connection with it takes the seat over); ``host_token``
    grants the host's commands; neither makes the client a spectator until it sits down.
    ``last_seq`` is the last table sequence number the client saw: it receives what it missed.
    """

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)
    host_token: str | None = Field(default=None, max_length=64)
    last_seq: int | None = Field(default=None, ge=0)


class Sit(_Message):
    """Take a free seat in the waiting room, under ``name``; the reply carries the seat's token."""

    type: Literal["sit"]
    seat: int = Field(ge=0, le=9)
    name: str = Field(min_length=1, max_length=LIMITS.name_length)


class Act(_Message):
    """Play an action of the game in its notation (``R7``, ``W4:B``, ``draw``, ``catch:2``...).

    With ``seq``, the action applies only if the table is still at that sequence number (else
    ``stale``); without it, actions race in arrival order (calls, catches and jump-ins, NET-8).
    """

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=16)
    seq: int | None = Field(default=None, ge=0)


class Chat(_Message):
    """A chat line to the table (plain text: clients must never render it as HTML)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=LIMITS.chat_length)


class Ping(_Message):
    type: Literal["ping"]


class Leave(_Message):
    """Give the seat up (in the waiting room it becomes free; in play a bot takes it over)."""

    type: Literal["leave"]


class HostStart(_Message):
    """Deal the first round (at least two seats filled), the next round, or a rematch."""

    type: Literal["start", "next_round", "rematch"]


class HostBot(_Message):
    """Put a bot of ``level`` in a free seat, or take one out."""

    type: Literal["add_bot", "remove_bot"]
    seat: int = Field(ge=0, le=9)
    level: str | None = Field(default=None, max_length=16)


class HostKick(_Message):
    """Remove the player of a seat (waiting room: the seat is freed; in play: a bot takes it)."""

    type: Literal["kick"]
    seat: int = Field(ge=0, le=9)


class HostSettings(_Message):
    """Change the settings in the waiting room (any of them)."""

    type: Literal["settings"]
    preset: str | None = Field(default=None, max_length=32)
    options: dict[str, bool | int | str] | None = None
    seats: int | None = Field(default=None, ge=2, le=10)
    bot_level: str | None = Field(default=None, max_length=16)
    turn_seconds: float | None = Field(default=None, ge=0, le=600)


ClientMessage = Annotated[
    Hello | Sit | Act | Chat | Ping | Leave | HostStart | HostBot | HostKick | HostSettings,
    Field(discriminator="type"),
]
_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)

HOST_TYPES = frozenset({"start", "next_round", "rematch", "add_bot", "remove_bot", "kick", "settings"})


def parse_client(text: str | bytes) -> Any:
    """The client message in ``text``, or :class:`ProtocolError` (``too_large``, ``malformed``)."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > LIMITS.max_message_bytes:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"{size} bytes; the limit is {LIMITS.max_message_bytes}")
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as exc:
        raise ProtocolError(ErrorCode.MALFORMED, _describe(exc)) from None


def _describe(exc: ValidationError) -> str:
    first = exc.errors(include_url=False)[0]
    where = ": ".join(str(p) for p in first["loc"] if not isinstance(p, int))
    kind = first["type"]
    if kind == "json_invalid":
        return "not JSON"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return "type must be one of hello, sit, act, chat, ping, leave, " + ", ".join(sorted(HOST_TYPES))
    return f"{where}: {first['msg']}" if where else str(first["msg"])


# ---------------------------------------------------------------------------------------------
# server messages (documented and exported to JSON Schema; the server builds them as dicts)


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(description="the table's sequence number: commands accepted so far")


class SeatInfo(BaseModel):
    seat: int
    kind: Literal["empty", "human", "bot"]
    name: str | None
    level: str | None = Field(description="the bot level, for a bot or a player's stand-in")
    connected: bool
    autopilot: bool = Field(description="a bot plays for this absent or timed-out player")


class TableInfo(BaseModel):
    table: str
    status: Literal["waiting", "playing", "round_over", "match_over"]
    settings: dict[str, Any]
    seats: list[SeatInfo]
    spectators: int
    turn_deadline: float | None = Field(description="seconds left for the seat to act, when timed")


class Welcome(_Out):
    type: Literal["welcome"]
    you: dict[str, Any] = Field(description="{seat: int | null, host: bool}")
    token: str | None = Field(default=None, description="the seat token, sent once when a seat is taken")
    table: TableInfo
    static: dict[str, Any] | None = Field(description="the engine's TableInfo: ruleset, seats, names")
    view: dict[str, Any] | None = Field(description="the seat's (or the spectator's) live view")
    events: list[dict[str, Any]] = Field(description="game events missed since last_seq, in order")


class Update(_Out):
    type: Literal["update"]
    events: list[dict[str, Any]] = Field(description="new game events this client may see")
    view: dict[str, Any] | None
    table: TableInfo | None = Field(default=None, description="when the table's seats or status changed")
    static: dict[str, Any] | None = Field(
        default=None, description="the engine's TableInfo, when a match starts"
    )
    turn_deadline: float | None = Field(
        default=None, description="seconds left for the seat to act, when timed (every update carries it)"
    )
    timed_out: int | None = Field(
        default=None, description="the seat whose time ran out: the server made its default action"
    )


class Presence(_Out):
    """Who is connected changed (a player or a spectator came or went): no command was accepted."""

    type: Literal["presence"]
    table: TableInfo


class ChatOut(_Out):
    type: Literal["chat"]
    seat: int | None
    name: str
    text: str


class TokenOut(_Out):
    """The seat's token, sent once, to the connection that sat down: keep it to come back."""

    type: Literal["token"]
    seat: int
    token: str


class ErrorOut(_Out):
    type: Literal["error"]
    code: ErrorCode
    message: str


class Pong(_Out):
    type: Literal["pong"]


class Reconnect(_Out):
    type: Literal["reconnect"]
    reason: str


ServerMessage = Annotated[
    Welcome | TokenOut | Update | Presence | ChatOut | ErrorOut | Pong | Reconnect,
    Field(discriminator="type"),
]


def client_schema() -> dict[str, Any]:
    return TypeAdapter(ClientMessage).json_schema()


def server_schema() -> dict[str, Any]:
    return TypeAdapter(ServerMessage).json_schema()


if __name__ == "__main__":  # pragma: no cover - the docs' generator
    json.dump({"client": client_schema(), "server": server_schema()}, sys.stdout, indent=2)
    sys.stdout.write("\n")
