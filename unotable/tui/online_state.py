"""The state of an online session (``unotable join``): what the server has told this client.

A pure model, with no terminal, no socket and no clock: :class:`OnlineState` keeps the seat, the
table's settings and seats, the static table, the latest view and the last sequence number seen,
takes the server's messages in (:meth:`~OnlineState.welcome`, :meth:`~OnlineState.update`,
:meth:`~OnlineState.new_events`), and answers what the terminal asks of it: the seats' names, the
prompt, the hello to send, the message a typed command makes, and what to show after a change
(:meth:`~OnlineState.to_show`, which remembers what was shown so that nothing is shown twice).
:mod:`unotable.tui.online` is the terminal around it: the connection, the input thread and the
printing.

>>> from unotable.client.links import parse_table_url
>>> state = OnlineState(parse_table_url("http://h:1/t/abc"))
>>> state.info = {"status": "waiting", "seats": [{"seat": 0, "kind": "empty"}, {"seat": 1, "kind": "bot"}]}
>>> state.names, state.prompt(), state.hello()
(['Seat 0', 'Seat 1'], '(watching) > ', {'type': 'hello'})
>>> state.to_show(), state.to_show()
('room', None)
>>> state.command_message("add_bot", ["1", "expert"]), state.command_message("kick", [])
({'type': 'add_bot', 'seat': 1, 'level': 'expert'}, 'type kick N, with N the seat number')
>>> split_command("add_bot 2 expert"), split_command("chat  hello there"), split_command("7 b")
(('add_bot', ['2', 'expert']), ('chat', ['hello there']), None)
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from unotable.client.connection import decode_table, decode_view, message_seq
from unotable.client.links import TableUrl
from unotable.errors import RecordError, UnoError
from unotable.events import Event
from unotable.phase import Phase
from unotable.views import PlayerView, SpectatorView, TableInfo

__all__ = ["ERROR_WORDS", "OnlineState", "clean", "split_command"]

ERROR_WORDS = {
    "not_your_turn": "It is not your turn",
    "illegal": "Not allowed now",
    "invalid": "That does not work here",
    "stale": "The table moved on before that arrived; look again",
    "malformed": "The server did not understand that message",
    "too_large": "That message is too long",
    "rate_limited": "Slow down",
    "forbidden": "Not allowed",
}
"""The server's error codes in a player's words."""

_HOST_WORDS = {
    "start": "start",
    "next_round": "next_round",
    "next": "next_round",
    "deal": "next_round",
    "rematch": "rematch",
    "add_bot": "add_bot",
    "remove_bot": "remove_bot",
    "kick": "kick",
}
_OTHER_WORDS = {"chat": "chat", "say": "chat", "sit": "sit", "leave": "leave"}


def split_command(line: str) -> tuple[str, list[str]] | None:
    """A host command, ``chat`` or ``sit`` with its arguments; None for anything else."""
    body = line.strip()
    word, _, rest = body.partition(" ")
    key = word.lower().replace("-", "_")
    if key in ("chat", "say"):
        return "chat", [rest.strip()] if rest.strip() else []
    kind = _HOST_WORDS.get(key) or _OTHER_WORDS.get(key)
    if kind is None:
        return None
    return kind, rest.split()


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Text from other people, safe to print: no control characters (no terminal escapes).

    >>> clean("Ann\\x1b[2J")
    'Ann?[2J'
    """
    text = _CONTROL.sub("?", text)
    return "".join("?" if unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") else ch for ch in text)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


class OnlineState:
    """What the server has told one client about its table, and what the terminal has shown."""

    def __init__(
        self,
        where: TableUrl,
        *,
        name: str | None = None,
        seat: int | None = None,
        token: str | None = None,
        host_token: str | None = None,
        saved: Mapping[str, Any] | None = None,
    ) -> None:
        saved = saved or {}
        self.where = where
        self.want_name = name.strip() if name and name.strip() else None
        self.want_seat = seat
        self.token = token or _str(saved.get("token"))
        self.host_token = host_token or _str(saved.get("host_token"))
        # what the server told us
        self.me: int | None = None
        self.host = False
        self.info: dict[str, Any] | None = None
        self.static: TableInfo | None = None
        self.view: SpectatorView | None = None
        self.last_seq: int | None = None
        self.connections = 0
        self.need_seat = False
        # what was shown
        self._event_seq = 0
        self._table_key: Any = None
        self._chance_key: Any = None
        self._summary_key: Any = None
        self._room_key: Any = None

    # -- who is who ------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Display names: the table's names, and ``You`` for this seat."""
        n = 0
        names: list[str] = []
        if self.static is not None:
            n = self.static.seats
            names = list(self.static.names or ())
        elif self.info is not None:
            n = len(self.info["seats"])
        if len(names) < n:
            seats = self.info["seats"] if self.info is not None else []
            for i in range(len(names), n):
                s = seats[i] if i < len(seats) else {}
                names.append(s.get("name") or f"Seat {i}")
        names = [clean(str(x)) for x in names]
        if self.me is not None and 0 <= self.me < len(names):
            names[self.me] = "You"
        return names

    def names_raw(self) -> list[str]:
        """The names, with this seat's own name where :attr:`names` says ``You``."""
        names = self.names
        if self.me is not None and self.info is not None and self.me < len(self.info["seats"]):
            names[self.me] = clean(str(self.info["seats"][self.me].get("name") or "You"))
        return names

    def levels(self) -> list[str]:
        """A word per seat for the table: a bot's level, ``autopilot``, ``away`` or nothing."""
        if self.info is None:
            return []
        out = []
        for i, s in enumerate(self.info["seats"]):
            if i == self.me:
                out.append("autopilot" if s.get("autopilot") else "")
            elif s.get("autopilot"):
                out.append("autopilot")
            elif s.get("kind") == "bot":
                out.append(clean(str(s.get("level") or "bot")))
            elif s.get("kind") == "human" and not s.get("connected"):
                out.append("away")
            else:
                out.append("")
        return out

    @property
    def status(self) -> str:
        return str(self.info["status"]) if self.info is not None else "?"

    def setting(self, name: str) -> Any:
        """One of the table's settings (``preset``, ``round_pause``, ...), None when not told."""
        return (self.info or {}).get("settings", {}).get(name)

    def my_view(self) -> PlayerView | None:
        return self.view if isinstance(self.view, PlayerView) else None

    def my_turn(self) -> bool:
        v = self.my_view()
        return v is not None and v.active == v.seat and v.phase < Phase.ROUND_OVER

    def prompt(self) -> str:
        """The prompt, which says what the session waits for when it is not this seat's turn."""
        offer = self.info.get("rematch") if self.info is not None else None
        if offer is not None and self.me is not None and self.me not in offer.get("accepted", []):
            return "(rematch proposed: accept or quit) > "
        v = self.my_view()
        if v is None:
            if self.status != "waiting" or self.me is None:
                return "(watching) > "
            return "(waiting room: type start when everyone is seated) > " if self.host else \
                "(waiting for the host to start) > "
        if self.my_turn():
            return "> "
        if v.legal and v.phase < Phase.ROUND_OVER:
            return "(out of turn) > "
        if v.phase is Phase.MATCH_OVER:
            return "(match over: rematch or quit) > " if self.host else "(match over) > "
        if v.phase is Phase.ROUND_OVER:
            return "(waiting for the next deal) > "
        names = self.names
        who = names[v.active] if 0 <= v.active < len(names) else f"seat {v.active}"
        return f"(waiting for {who}) > "

    # -- what the server says --------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        """The first message of every connection: the tokens held and the last sequence seen."""
        msg: dict[str, Any] = {"type": "hello"}
        if self.token:
            msg["token"] = self.token
        if self.host_token:
            msg["host_token"] = self.host_token
        if self.last_seq is not None:
            msg["last_seq"] = self.last_seq
        return msg

    def note_seq(self, msg: Mapping[str, Any]) -> None:
        seq = message_seq(msg)
        if seq is not None and (self.last_seq is None or seq > self.last_seq):
            self.last_seq = seq

    def welcome(self, msg: dict[str, Any]) -> list[Any]:
        """Take a ``welcome`` in; the events it brings, as sent (:meth:`new_events` reads them)."""
        self.connections += 1
        you = msg.get("you") or {}
        seat = you.get("seat")
        self.me = seat if isinstance(seat, int) else None
        self.host = bool(you.get("host"))
        self.info = msg.get("table")
        if msg.get("static") is not None:
            self.static = decode_table(msg["static"])
        self.note_seq(msg)
        view = msg.get("view")
        if view is not None and self.static is not None:
            self.view = decode_view(view, self.static)
            if self.view.seq < self._event_seq:  # a new match since we last saw the table
                self._event_seq = 0
        return list(msg.get("events") or [])

    def seen_welcome(self, first: bool) -> None:
        """After a ``welcome``'s events are shown: show the table afresh, and whether to sit."""
        if first or self.view is None:
            self._table_key = None
        if first:
            self.need_seat = self.me is None and self.status == "waiting"

    def update(self, msg: dict[str, Any]) -> None:
        """Take an ``update`` in (its events are :meth:`new_events`' to read)."""
        self.note_seq(msg)
        if msg.get("table") is not None:
            self.info = msg["table"]
        if msg.get("static") is not None:
            self.static = decode_table(msg["static"])
            self._event_seq = 0
            self._table_key = None
        view = msg.get("view")
        if view is not None and self.static is not None:
            before = self.view.round_no if self.view is not None else None
            self.view = decode_view(view, self.static)
            if isinstance(self.view, PlayerView):
                self.me = self.view.seat
            if before is not None and self.view.round_no != before:
                self._table_key = None  # a new round: show the table again

    def new_events(self, docs: Sequence[Any]) -> list[Event]:
        """The events of ``docs`` not shown yet (a reconnect may send some again), now counted
        as shown; documents this client cannot read are left out."""
        events: list[Event] = []
        for doc in docs:
            try:
                event = Event.from_dict(doc)
            except (RecordError, UnoError, ValueError, TypeError):
                continue
            if event.seq > self._event_seq:
                events.append(event)
        if events:
            self._event_seq = max(e.seq for e in events)
        return events

    def taken_seat(self, msg: Mapping[str, Any]) -> tuple[str, int] | None:
        """A ``token`` message: the seat's token and number, now held; None when malformed."""
        token, seat = msg.get("token"), msg.get("seat")
        if not (isinstance(token, str) and isinstance(seat, int)):
            return None
        self.token, self.me = token, seat
        return token, seat

    def free_seat(self, seat: int | None = None) -> int | None:
        """The seat to sit at: the one asked for, else the first free one (None: every seat taken)."""
        wanted = seat if seat is not None else self.want_seat
        if wanted is not None:
            return wanted
        free = [s["seat"] for s in (self.info or {}).get("seats", []) if s.get("kind") == "empty"]
        return free[0] if free else None

    # -- what to show ------------------------------------------------------------------------

    def to_show(self, force_room: bool = False) -> str | None:
        """What to show once the table has changed, each thing once: ``room`` (the waiting room),
        ``summary`` (the round's), ``table`` (on our turn, or at first sight of a game in play),
        ``chance`` (an out-of-turn chance) or None."""
        if self.status == "waiting" or self.view is None:
            room = json.dumps(self.info, sort_keys=True) if self.info is not None else None
            if force_room or room != self._room_key:
                self._room_key = room
                return "room"
            return None
        view = self.view
        if view.phase >= Phase.ROUND_OVER:
            over = (view.round_no, view.phase)
            if over != self._summary_key:
                self._summary_key = over
                return "summary"
            return None
        if self.my_turn():
            turn = ("turn", view.seq)
            if turn != self._table_key:
                self._table_key = turn
                return "table"
            return None
        mine = self.my_view()
        if mine is not None and mine.legal:
            key = ("chance", tuple(str(a) for a in mine.legal))
            if key != self._chance_key:
                self._chance_key = key
                return "chance"
            return None
        self._chance_key = None
        if self._table_key is None:  # first sight of a game in play, or a new match
            self._table_key = ("seen", view.seq)
            return "table"
        return None

    # -- what the person types ---------------------------------------------------------------

    def command_message(self, kind: str, args: list[str]) -> dict[str, Any] | str:
        """The message for a host command or ``chat`` (:func:`split_command`), or why it is
        malformed. ``sit`` and ``leave`` depend on the seat and are the terminal's."""
        if kind == "chat":
            return {"type": "chat", "text": args[0][:200]} if args else "chat what? type chat and the text"
        if kind in ("start", "next_round", "rematch"):
            return f"{kind} takes nothing after it" if args else {"type": kind}
        # add_bot N [LEVEL], remove_bot N, kick N
        if not args or not args[0].isdigit() or (len(args) > (2 if kind == "add_bot" else 1)):
            usage = "add_bot N [LEVEL]" if kind == "add_bot" else f"{kind} N"
            return f"type {usage}, with N the seat number"
        msg: dict[str, Any] = {"type": kind, "seat": int(args[0])}
        if kind == "add_bot" and len(args) == 2:
            msg["level"] = args[1]
        return msg
