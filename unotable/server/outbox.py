"""Every message a table sends, built from :mod:`unotable.server.protocol`'s models, per connection.

A :class:`Conn` is one client of a table as the hub sees it: its role (seat, host), what it was
sent so far (the table seq, the game and the game's event seq), and its queue of outgoing text
frames (None closes it; the app's writer task drains the queue into the websocket). The functions
here build each frame from the protocol's pydantic models (never a dict literal) and from the
table actor's per-seat accessors (``view_for``, ``events_for``): each connection gets the engine's
view of its own seat and the events that seat may see, nothing else. The update, sent to every
seat after every action, is the one frame written as text: the ``Update`` model's fields in its
order, from pieces encoded once (``view_text_for``, ``events_text_for``); a test holds it equal
to the model built field by field.

>>> from unotable.server.table import Role
>>> conn = Conn(Role(None, False))
>>> error(conn, 3, ErrorCode.STALE, "the table is at 3, not 2")
>>> conn.out.get_nowait()
'{"seq":3,"type":"error","code":"stale","message":"the table is at 3, not 2"}'
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from unotable.server.entries import Acted, ActedBy, Chatted, Entry, Reacted, Rematched, Started
from unotable.server.mailbox import Mailbox
from unotable.server.protocol import (
    LIMITS,
    ChatLine,
    ChatOut,
    CloseCode,
    ErrorCode,
    ErrorOut,
    Pong,
    Presence,
    PublicTable,
    ReactionOut,
    Reconnect,
    ReconnectReason,
    TokenOut,
    Welcome,
    You,
    to_json,
)
from unotable.server.table import Role, TableActor

__all__ = [
    "Conn",
    "RateLimiter",
    "chat",
    "error",
    "pong",
    "presence",
    "reconnect",
    "token",
    "updates",
    "welcome",
]

RECONNECT_WORDS = {
    ReconnectReason.RESTART: "the server is restarting",
    ReconnectReason.TAKEN_OVER: "taken over by another connection",
}


class RateLimiter:
    """A token bucket: ``rate`` per second, up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Conn:
    """One client of a table: its role, what it was sent, and its queue of text frames."""

    __slots__ = ("chats", "close_code", "game_no", "game_seq", "messages", "out", "reactions", "role", "seq")

    def __init__(self, role: Role) -> None:
        self.role = role
        self.game_no = 0
        self.game_seq = 0
        self.out: Mailbox[str | None] = Mailbox()
        self.close_code = CloseCode.RESTART
        self.messages = RateLimiter(LIMITS.messages_per_second, LIMITS.message_burst)
        self.chats = RateLimiter(LIMITS.chats_per_second, LIMITS.chat_burst)
        self.reactions = RateLimiter(LIMITS.reactions_per_second, LIMITS.reaction_burst)
        self.seq = -1  # the highest table seq this client was sent

    def send(self, msg: BaseModel, seq: int) -> None:
        """Queue ``msg`` (a protocol model carrying table seq ``seq``) as JSON text."""
        self.send_text(msg.model_dump_json(exclude_unset=True), seq)

    def send_text(self, text: str, seq: int) -> None:
        """Queue a frame's text (carrying table seq ``seq``)."""
        if seq > self.seq:
            self.seq = seq
        self.out.put_nowait(text)

    def close(self, code: CloseCode | None = None) -> None:
        """Close the connection once the frames queued before are sent."""
        if code is not None:
            self.close_code = code
        self.out.put_nowait(None)


def error(conn: Conn, seq: int, code: ErrorCode, message: str) -> None:
    conn.send(ErrorOut.model_construct(seq=seq, type="error", code=code, message=message), seq)


def pong(conn: Conn, seq: int) -> None:
    conn.send(Pong.model_construct(seq=seq, type="pong"), seq)


def token(conn: Conn, seq: int, seat: int, secret: str) -> None:
    conn.send(TokenOut.model_construct(seq=seq, type="token", seat=seat, token=secret), seq)


def reconnect(conn: Conn, seq: int, reason: ReconnectReason) -> None:
    msg = Reconnect.model_construct(seq=seq, type="reconnect", reason=reason, message=RECONNECT_WORDS[reason])
    conn.send(msg, seq)


def welcome(actor: TableActor, conn: Conn, last_seq: int | None, now: float) -> None:
    """The first frame after ``hello``: the table, the seat's view, and the events it missed since
    ``last_seq`` (none without it; all of the current game's when ``last_seq`` is of another)."""
    events: list[dict[str, Any]] = []
    since = 0
    if last_seq is not None:
        mark = actor.game_seq(last_seq)
        if mark is not None and mark[0] == actor.games:
            since = mark[1]
    if actor.game is not None:
        events = actor.events_for(conn.role, since) if last_seq is not None else []
        conn.game_no, conn.game_seq = actor.games, actor.game.last_seq
    msg = Welcome.model_construct(
        seq=actor.seq,
        type="welcome",
        you=You.model_construct(seat=conn.role.seat, host=conn.role.host),
        table=actor.info(now),
        static=actor.static(),
        view=actor.view_for(conn.role),
        events=events,
        history=actor.round_history(conn.role) if actor.game is not None else [],
        chat=[ChatLine.model_construct(seat=c.seat, name=c.name, text=c.text) for c in actor.chat_log],
    )
    conn.send(msg, actor.seq)


def presence(actor: TableActor, conns: Iterable[Conn], now: float) -> None:
    """Tell each connection who is connected (no command was accepted: ``seq`` is unchanged)."""
    msg = Presence.model_construct(seq=actor.seq, type="presence", table=actor.info(now))
    text = msg.model_dump_json(exclude_unset=True)
    for conn in conns:
        # (a cluster node's replica may lag an answer its client got from the table's owner:
        # the update that follows carries the table then, and seq never goes back)
        if conn.seq <= actor.seq:
            conn.out.put_nowait(text)


def _to_all(actor: TableActor, conns: Iterable[Conn], msg: BaseModel) -> None:
    """The same frame to every connection (a chat line, a reaction: nothing per seat in it)."""
    text = msg.model_dump_json(exclude_unset=True)
    for conn in conns:
        conn.seq = max(conn.seq, actor.seq)
        conn.out.put_nowait(text)


def chat(actor: TableActor, conns: Iterable[Conn], entry: Chatted) -> None:
    _to_all(actor, conns, ChatOut.model_construct(
        seq=actor.seq, type="chat", seat=entry.seat, name=entry.name, text=entry.text
    ))


def reaction(actor: TableActor, conns: Iterable[Conn], entry: Reacted) -> None:
    _to_all(actor, conns, ReactionOut.model_construct(
        seq=actor.seq, type="reaction", seat=entry.seat, name=entry.name, reaction=entry.reaction
    ))


TABLE_KINDS = frozenset({
    "start", "rematch", "deal", "autopilot", "settings", "rename", "ready", "reading", "ask_seat",
    "answer_seat", "propose_rematch", "accept_rematch",
})
"""The entries whose update carries the table even when no seat changed."""


def updates(actor: TableActor, conns: Iterable[Conn], entry: Entry, table_changed: bool, now: float) -> bool:
    """Send every connection its update after ``entry`` was applied (a chat line goes as ``chat``).
    True when the update carried the table (who is connected was told too).

    Each frame is an :class:`~unotable.server.protocol.Update` with its fields in the model's order
    and only those the model's builder would set; the parts every seat shares (the table, the static
    part, the view's public part, each event) are encoded once and spliced into each seat's text,
    and connections of the same seat that saw the same events (spectators) share one text. A test
    checks every frame against the model built field by field."""
    if isinstance(entry, Chatted):
        chat(actor, conns, entry)
        return False
    if isinstance(entry, Reacted):
        reaction(actor, conns, entry)
        return False
    info: PublicTable | None = actor.info(now) if table_changed or entry.kind in TABLE_KINDS else None
    deadline = actor.deadline(now) if info is None else info.turn_deadline
    game = actor.game
    seq = actor.seq
    # the fields after "view", in Update's order: table, static, turn_deadline, timed_out
    tail = "" if info is None else f',"table":{info.model_dump_json(exclude_unset=True)}'
    if game is not None:
        tail += f',"static":{to_json(actor.static() if isinstance(entry, Started | Rematched) else None)}'
    tail += f',"turn_deadline":{to_json(deadline)}'
    if isinstance(entry, Acted) and entry.by is ActedBy.TIMEOUT:
        tail += f',"timed_out":{entry.seat}'
    tail += "}"
    head = f'{{"seq":{seq},"type":"update","events":'
    if game is None:
        text = f'{head}[],"view":null{tail}'
        for conn in conns:
            conn.send_text(text, seq)
        return info is not None
    made: dict[tuple[int | None, int], str] = {}  # (seat, events seen) -> the frame
    for conn in conns:
        if conn.game_no != actor.games:
            conn.game_no, conn.game_seq = actor.games, 0
        key = (conn.role.seat, conn.game_seq)
        frame = made.get(key)
        if frame is None:
            events = actor.events_text_for(conn.role, conn.game_seq)
            frame = made[key] = f'{head}{events},"view":{actor.view_text_for(conn.role)}{tail}'
        conn.game_seq = game.last_seq
        conn.send_text(frame, seq)
    return info is not None
