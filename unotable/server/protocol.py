"""The wire protocol of the online tables: declared message types, error and close codes, limits,
JSON Schema.

One websocket per client carries JSON text messages. A client's messages form a closed set,
declared here with pydantic and validated strictly on arrival (a number is a JSON number, never
``"12"``, ``true`` or ``2.0`` where an integer is due); anything else is answered with a coded
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
>>> parse_client('{"type": "sit", "seat": "1", "name": "Ann"}')
Traceback (most recent call last):
...
unotable.server.protocol.ProtocolError: malformed: sit: seat: Input should be a valid integer
>>> int(CloseCode.TAKEN_OVER), ReconnectReason.TAKEN_OVER.value
(4001, 'taken_over')
"""

from __future__ import annotations

import json
import sys
from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "HOST_TYPES",
    "LIMITS",
    "REACTIONS",
    "ClientMessage",
    "ClientMsg",
    "CloseCode",
    "ErrorCode",
    "ProtocolError",
    "ReconnectReason",
    "SeatKind",
    "ServerMessage",
    "ServerMsg",
    "TableStatus",
    "client_schema",
    "parse_client",
    "server_schema",
    "to_json",
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

    @classmethod
    def of_engine(cls, code: str) -> ErrorCode:
        """The wire code of an engine error's ``UnoError.code`` (``illegal``, ``not_your_turn``;
        every other engine code, notation and rule-set errors among them, is ``invalid``).

        >>> ErrorCode.of_engine("not_your_turn"), ErrorCode.of_engine("notation")
        (<ErrorCode.NOT_YOUR_TURN: 'not_your_turn'>, <ErrorCode.INVALID: 'invalid'>)
        """
        return _ENGINE_CODES.get(code, cls.INVALID)


_ENGINE_CODES = {
    "not_your_turn": ErrorCode.NOT_YOUR_TURN,
    "illegal": ErrorCode.ILLEGAL,
    "invalid": ErrorCode.INVALID,
}


class CloseCode(IntEnum):
    """The websocket close codes the server uses (RFC 6455 numbers; 4000-4999 are the protocol's)."""

    NORMAL = 1000
    """A refused or missing ``hello`` (the error before it says why), or the client's own close."""
    RESTART = 1012
    """The server restarts (a ``reconnect`` with reason ``restart`` came first): reconnect."""
    TAKEN_OVER = 4001
    """Another connection took this seat over (a ``reconnect`` with reason ``taken_over`` came
    first): do not reconnect by yourself, the seat is played elsewhere."""
    NO_TABLE = 4004
    """There is no such table (an ``error`` came first)."""


class ReconnectReason(StrEnum):
    """Why the server sends ``reconnect`` (clients read this code, never the message's prose)."""

    RESTART = "restart"
    """The server is stopping: reconnect (with the token and ``last_seq``) in a moment."""
    TAKEN_OVER = "taken_over"
    """Another connection took the seat over: this one is closed with 4001 next."""


class SeatKind(StrEnum):
    """Who holds a seat."""

    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class TableStatus(StrEnum):
    """Where a table is in its life."""

    WAITING = "waiting"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


class Limits(BaseModel):
    """The limits the server enforces, per connection."""

    model_config = ConfigDict(frozen=True)
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    chat_length: int = 200
    chats_per_second: float = 1.0
    chat_burst: int = 5
    reactions_per_second: float = 0.5
    reaction_burst: int = 3
    name_length: int = 24


LIMITS = Limits()


class ProtocolError(ValueError):
    """A client message the server refuses, with its :class:`ErrorCode`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


class _Message(BaseModel):
    # strict: a JSON string, boolean or float is no integer (HTTP's create body refuses them too)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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
    """Deal the first round (at least two seats filled), the next round, or propose a rematch
    after a finished match (a second ``rematch`` while one is proposed deals it without waiting)."""

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


class Rename(_Message):
    """Change the name of the seat you hold, in the waiting room."""

    type: Literal["rename"]
    name: str = Field(min_length=1, max_length=LIMITS.name_length)


Reaction: TypeAlias = Literal["gg", "nice", "oops", "wow", "hurry", "thanks"]
REACTIONS: tuple[str, ...] = get_args(Reaction)
"""The quick reactions (a fixed set; anything free-form is chat)."""


class React(_Message):
    """A quick reaction, shown at the sender's seat (players, the host and spectators); rate-limited
    (``rate_limited``), and, unlike chat, not kept for a welcome."""

    type: Literal["react"]
    reaction: Reaction


class HostSettings(_Message):
    """Change the settings in the waiting room (any of them), or after a finished match for the
    rematch (all but ``seats``)."""

    type: Literal["settings"]
    preset: str | None = Field(default=None, max_length=32)
    options: dict[str, bool | int | str] | None = None
    seats: int | None = Field(default=None, ge=2, le=10)
    bot_level: str | None = Field(default=None, max_length=16)
    turn_seconds: float | None = Field(default=None, ge=0, le=600)
    round_pause: float | None = Field(default=None, ge=0, le=86400)
    read_limit: float | None = Field(default=None, ge=0, le=3600)


class Ready(_Message):
    """Done reading the round's summary: the next round starts when every connected player is
    ready, when the host deals, or when the table's countdown (``round_pause``) ends."""

    type: Literal["ready"]


class Reading(_Message):
    """The page shows the round's summary to its player (``on``), or stopped showing it (hidden,
    closed). While a player who is not ready reads, the countdown waits, for ``read_limit`` seconds
    at most in a round. Outside a round's summary it changes nothing (no error)."""

    type: Literal["reading"]
    on: bool


class AskSeat(_Message):
    """Someone watching a full waiting room asks the host for a seat, under ``name``. ``key`` (32
    to 64 letters, digits, ``-`` or ``_``, drawn at random by the client and kept secret) becomes
    the seat's token if the host adds the seat: the client then says hello with it."""

    type: Literal["ask_seat"]
    name: str = Field(min_length=1, max_length=LIMITS.name_length)
    key: str = Field(min_length=32, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


class HostAnswerSeat(_Message):
    """The host's answer to request ``ask`` (``asks`` in the public table): ``accept`` adds a seat
    (10 at most) and seats the asker."""

    type: Literal["answer_seat"]
    ask: int = Field(ge=1)
    accept: bool


class AcceptRematch(_Message):
    """Accept the rematch the host proposed, with the settings as they stand (a change of the
    settings asks everyone again). The match is dealt when every connected player accepted."""

    type: Literal["accept_rematch"]


ClientMsg: TypeAlias = (
    Hello | Sit | Act | Chat | Ping | Leave | Rename | React | Ready | Reading | AskSeat | AcceptRematch
    | HostStart | HostBot | HostKick | HostSettings | HostAnswerSeat
)
"""Any client message (the type of what :func:`parse_client` returns)."""
ClientMessage = Annotated[ClientMsg, Field(discriminator="type")]
_CLIENT: TypeAdapter[ClientMsg] = TypeAdapter(ClientMessage)

HOST_TYPES = frozenset(
    {"start", "next_round", "rematch", "add_bot", "remove_bot", "kick", "settings", "answer_seat"}
)


def parse_client(text: str | bytes) -> ClientMsg:
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
        return "type must be one of hello, sit, act, chat, ping, leave, rename, react, ready, reading, " \
            "ask_seat, accept_rematch, " + ", ".join(
            sorted(HOST_TYPES)
        )
    return f"{where}: {first['msg']}" if where else str(first["msg"])


# ---------------------------------------------------------------------------------------------
# server messages (documented, exported to JSON Schema, and the only way outbox.py builds a frame)


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(description="the table's sequence number: commands accepted so far")


class SeatInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    kind: SeatKind
    name: str | None
    level: str | None = Field(description="the bot level, for a bot or a player's stand-in")
    connected: bool
    autopilot: bool = Field(description="a bot plays for this absent or timed-out player")


class DealProof(BaseModel):
    """The match's seed commitment (docs/protocol.md, "Deals anyone can verify"): published when
    the match starts; its seed and salt are revealed (non-null) once the match is over."""

    model_config = ConfigDict(extra="forbid")
    recipe: str = Field(description="the commitment recipe, unotable-deal-v1")
    commitment: str = Field(description="sha256:HEX of the recipe's bytes over the seed and the salt")
    seed: int | None = Field(default=None, description="the match's seed, once the match is over")
    salt: str | None = Field(default=None, description="the salt (64 hex digits), once the match is over")


class SeatAsk(BaseModel):
    """A request for a seat at a full waiting room, waiting for the host's answer."""

    model_config = ConfigDict(extra="forbid")
    ask: int = Field(description="the request's number, for answer_seat")
    name: str


class RematchInfo(BaseModel):
    """A rematch the host proposed: who accepted (bots accept; it is dealt when every connected
    player did)."""

    model_config = ConfigDict(extra="forbid")
    accepted: list[int] = Field(description="the seats that accepted (bots' seats among them)")


class PublicTable(BaseModel):
    """The public table (also ``GET /api/tables/{table}``): no token, no hidden card."""

    model_config = ConfigDict(extra="forbid")
    table: str
    status: TableStatus
    settings: dict[str, Any]
    seats: list[SeatInfo]
    spectators: int
    turn_deadline: float | None = Field(description="seconds left for the seat to act, when timed")
    next_round_in: float | None = Field(
        default=None, description="after a round: seconds to the next deal (standing still while one reads)"
    )
    ready: list[int] = Field(default_factory=list, description="after a round: the seats that are ready")
    reading: list[int] = Field(
        default_factory=list,
        description="after a round: the seats whose players read the summary (not ready yet): it waits",
    )
    asks: list[SeatAsk] = Field(default_factory=list, description="requests for a seat at a full table")
    rematch: RematchInfo | None = Field(default=None, description="a rematch proposed after the match")
    deal: DealProof | None = Field(
        default=None, description="the current match's seed commitment (and its reveal once it is over)"
    )


class You(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(description="the seat this connection holds (null: a spectator)")
    host: bool = Field(description="whether it holds the host token")


class ChatLine(BaseModel):
    """A chat line kept by the table (a welcome carries the latest)."""

    seat: int | None
    name: str
    text: str


class Welcome(_Out):
    type: Literal["welcome"]
    you: You
    token: str | None = Field(default=None, description="the seat token, sent once when a seat is taken")
    table: PublicTable
    static: dict[str, Any] | None = Field(description="the engine's TableInfo: ruleset, seats, names")
    view: dict[str, Any] | None = Field(description="the seat's (or the spectator's) live view")
    events: list[dict[str, Any]] = Field(description="game events missed since last_seq, in order")
    history: list[dict[str, Any]] | None = Field(
        default=None, description="the current round's events this client may see, in order (its log)"
    )
    chat: list[ChatLine] | None = Field(default=None, description="the table's latest chat lines, oldest 1st")


class Update(_Out):
    type: Literal["update"]
    events: list[dict[str, Any]] = Field(description="new game events this client may see")
    view: dict[str, Any] | None
    table: PublicTable | None = Field(default=None, description="when the table's seats or status changed")
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
    table: PublicTable


class ChatOut(_Out):
    """A chat line as stored (runs of spaces folded, ends trimmed); ``seq`` is the entry's."""

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
    reason: ReconnectReason
    message: str = Field(description="the reason in words, for people (clients read reason)")


class ReactionOut(_Out):
    """A quick reaction: who (the seat, or None for the host or a spectator), its name, which."""

    type: Literal["reaction"]
    seat: int | None
    name: str
    reaction: Reaction


ServerMsg: TypeAlias = (
    Welcome | TokenOut | Update | Presence | ChatOut | ReactionOut | ErrorOut | Pong | Reconnect
)
"""Any server message."""
ServerMessage = Annotated[ServerMsg, Field(discriminator="type")]


to_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
"""JSON-ready data as frame text: compact, UTF-8 (as pydantic's ``model_dump_json`` writes it).
The outbox splices pieces encoded once (a view's public part, an event) into each seat's frame.

>>> to_json({"hand": ["R7", "W"], "name": "Zoë", "seat": None})
'{"hand":["R7","W"],"name":"Zoë","seat":null}'
"""


def client_schema() -> dict[str, Any]:
    return TypeAdapter(ClientMessage).json_schema()


def server_schema() -> dict[str, Any]:
    return TypeAdapter(ServerMessage).json_schema()


def codes_schema() -> dict[str, Any]:
    """The close codes (``CloseCode``), reconnect reasons and error codes, as JSON Schema ``const``
    values (the close codes are no message field, so they are listed here)."""
    return {
        "CloseCode": {
            "description": CloseCode.__doc__,
            "oneOf": [{"const": int(c), "title": c.name, "description": _doc(c)} for c in CloseCode],
        },
        "ReconnectReason": {
            "description": ReconnectReason.__doc__,
            "enum": [r.value for r in ReconnectReason],
        },
        "ErrorCode": {"description": ErrorCode.__doc__, "enum": [c.value for c in ErrorCode]},
    }


_CLOSE_DOCS = {
    CloseCode.NORMAL: "a refused or missing hello, or the client's own close",
    CloseCode.RESTART: "the server restarts: reconnect",
    CloseCode.TAKEN_OVER: "another connection took the seat over: do not reconnect by yourself",
    CloseCode.NO_TABLE: "there is no such table",
}


def _doc(code: CloseCode) -> str:
    return _CLOSE_DOCS[code]


def full_schema() -> dict[str, Any]:
    """What docs/protocol.schema.json holds: both directions and the codes."""
    return {"client": client_schema(), "server": server_schema(), "codes": codes_schema()}


if __name__ == "__main__":  # pragma: no cover - the docs' generator
    json.dump(full_schema(), sys.stdout, indent=2)
    sys.stdout.write("\n")
