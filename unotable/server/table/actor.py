"""The table actor: one online table's state, its commands, its timers and its bots.

The actor knows nothing of sockets or SQL. The hub (:mod:`unotable.server.hub`) gives it client
messages (:meth:`TableActor.decide`) and timer firings (:meth:`TableActor.due`); each accepted
command becomes a *log entry* (:mod:`unotable.server.entries`: a frozen value holding everything
needed to apply it again; tokens are hashed first, seeds drawn first). The hub persists the entry,
then applies it (:meth:`TableActor.apply`) and the outbox (:mod:`unotable.server.outbox`) sends
every connection its own update from :meth:`TableActor.view_for` and :meth:`TableActor.events_for`:
the engine's view and the events its seat may see (``Game.view``, ``Game.events_since``); the
public part of the views and each event's dict are made once for every connection. Rebuilding a
table after a crash is replaying its entries through
:meth:`TableActor.apply`, so a table ends up exactly where it was.

The lifecycle: ``waiting`` (players sit down, the host adds and removes bots, changes the
settings, removes a player, starts with at least two seats filled) -> ``playing`` -> ``round_over``
(the next round is dealt when the host says so, or after a pause) -> ``match_over`` (a rematch
keeps the seats). Bots act after a short pause (``bot_pause``), out of turn too, in the arbiter's
order (:func:`unotable.arbiter.seats_to_ask`), and catch a person only after that pause. With a
turn timer, a seat whose time runs out gets the engine's :meth:`~unotable.game.Game.default_action`;
a seat that times out twice in a row, or stays disconnected past ``grace`` seconds, is played by a
bot of the host's level until its player acts again (``autopilot``).

>>> actor = TableActor("t" * 16, new_table_doc(TableSettings(seats=2), "host-token", {1: "random"}))
>>> actor.status.value, [s.kind.value for s in actor.seats]
('waiting', ['empty', 'bot'])
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from unotable.actions import Action, parse_action
from unotable.agent import seat_rng
from unotable.arbiter import seats_to_ask
from unotable.bots import Bot, make_bot
from unotable.bots.registry import BOT_NAMES, canonical
from unotable.errors import UnoError
from unotable.events import Event
from unotable.game import ALL, Game
from unotable.record import Record
from unotable.rules import PRESET_NAMES, Ruleset
from unotable.server.entries import (
    Acted,
    ActedBy,
    AutopilotSet,
    BotAdded,
    BotRemoved,
    Chatted,
    Dealt,
    Entry,
    Left,
    Reacted,
    ReadySet,
    Rematched,
    Renamed,
    Seated,
    SettingsChanged,
    Started,
)
from unotable.server.ids import matches, new_token, token_hash
from unotable.server.protocol import (
    HOST_TYPES,
    Act,
    Chat,
    ClientMsg,
    DealProof,
    ErrorCode,
    Hello,
    HostBot,
    HostKick,
    HostSettings,
    HostStart,
    Leave,
    Ping,
    ProtocolError,
    PublicTable,
    React,
    Ready,
    Rename,
    SeatInfo,
    SeatKind,
    Sit,
    TableStatus,
    to_json,
)
from unotable.state import Phase
from unotable.verify import RECIPE, commitment, new_salt, with_proof
from unotable.views import TableInfo

__all__ = ["Decision", "Role", "Seat", "TableActor", "TableSettings", "new_table_doc"]


@dataclass(frozen=True, slots=True)
class Role:
    """Who a connection is: a seat (or None for a spectator), and whether it holds the host token."""

    seat: int | None = None
    host: bool = False


@dataclass(slots=True)
class Seat:
    kind: SeatKind = SeatKind.EMPTY
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    autopilot: bool = False
    timeouts: int = 0
    connections: int = 0
    away_since: float | None = None

    def info(self, seat: int) -> SeatInfo:
        return SeatInfo.model_construct(
            seat=seat,
            kind=self.kind,
            name=self.name,
            level=self.level,
            connected=self.kind is SeatKind.BOT or self.connections > 0,
            autopilot=self.autopilot,
        )

    def public(self) -> tuple[Any, ...]:
        """What :meth:`info` shows, as a cheap value to compare (a change is told to everyone)."""
        return (self.kind, self.name, self.level, self.kind is SeatKind.BOT or self.connections > 0,
                self.autopilot)


CHAT_KEPT = 100
HISTORY_KEPT = 200
"""The chat lines a table keeps for the welcome of a client that comes (back) in."""

TIMING_LIMITS = {"turn_seconds": 600.0, "bot_pause": 3600.0, "round_pause": 86400.0}
"""The most seconds a table's timings may be (the turn timer's is the protocol's; 0: none)."""


@dataclass(slots=True)
class TableSettings:
    """A table's settings: the rule set (a preset and options), seats, bots and timings."""

    preset: str = "official"
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 4
    bot_level: str = "heuristic"
    turn_seconds: float = 0.0
    """0: no turn timer."""
    bot_pause: float = 0.8
    round_pause: float = 8.0
    grace: float = 30.0

    def ruleset(self) -> Ruleset:
        rules = Ruleset.preset(self.preset)
        return rules.replace(**self.options) if self.options else rules

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "options": dict(self.options),
            "seats": self.seats,
            "bot_level": self.bot_level,
            "turn_seconds": self.turn_seconds,
            "bot_pause": self.bot_pause,
            "round_pause": self.round_pause,
            "grace": self.grace,
        }

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> TableSettings:
        return cls(**doc)

    def check(self) -> None:
        """Raise :class:`ProtocolError` (``invalid``) for settings that make no table."""
        if self.preset not in PRESET_NAMES:
            raise ProtocolError(
                ErrorCode.INVALID, f"unknown preset {self.preset!r}; presets: {', '.join(PRESET_NAMES)}"
            )
        if not isinstance(self.bot_level, str) or canonical(self.bot_level) not in BOT_NAMES:
            raise ProtocolError(
                ErrorCode.INVALID, f"unknown bot level {self.bot_level!r}; levels: {', '.join(BOT_NAMES)}"
            )
        for name, most in TIMING_LIMITS.items():  # a create body is JSON: any type, NaN too
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= most:
                raise ProtocolError(
                    ErrorCode.INVALID, f"{name} is a number of seconds from 0 to {most:g}, not {value!r}"
                )
        if isinstance(self.seats, bool):
            raise ProtocolError(ErrorCode.INVALID, "seats is a number of seats")
        try:
            self.ruleset().validate_seats(self.seats)
        except UnoError as exc:
            raise ProtocolError(ErrorCode.INVALID, str(exc)) from None


def new_table_doc(
    settings: TableSettings, host_token: str, bots: dict[int, str] | None = None
) -> dict[str, Any]:
    """The document a table starts from: its settings, the hash of its host token, and the bots
    seated from the start (seat -> level)."""
    settings.check()
    seated: dict[str, str] = {}
    for seat, level in (bots or {}).items():
        key = canonical(level)
        if key not in BOT_NAMES or not 0 <= seat < settings.seats:
            raise ProtocolError(
                ErrorCode.INVALID, f"no bot {level!r} for seat {seat}; levels: {', '.join(BOT_NAMES)}"
            )
        seated[str(seat)] = key
    return {"settings": settings.to_dict(), "host_hash": token_hash(host_token), "bots": seated}


def _plain_text(text: str, what: str) -> str:
    """``text`` with its runs of spaces folded into one and its ends trimmed, or ``invalid`` when
    it holds a control character (C0, DEL, C1: tab, LF, CR and NEL among them), a line or paragraph
    separator (U+2028, U+2029) or a lone surrogate: a name or a chat line is one line of text.

    >>> _plain_text("  Ann   Bo ", "a name")
    'Ann Bo'
    >>> _plain_text("Ann\\nBo", "a name")
    Traceback (most recent call last):
    ...
    unotable.server.protocol.ProtocolError: invalid: a name holds a control character (U+000A)
    """
    for ch in text:
        code = ord(ch)
        if code < 32 or 0x7F <= code < 0xA0 or 0xD800 <= code < 0xE000 or code in (0x2028, 0x2029):
            raise ProtocolError(ErrorCode.INVALID, f"{what} holds a control character (U+{code:04X})")
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Decision:
    """An accepted command: the entry to persist and apply, and a token for the sender alone."""

    entry: Entry
    token: str | None = None


class TableActor:
    """One table: seats, settings, the game in play and its bots."""

    def __init__(self, table_id: str, doc: dict[str, Any]) -> None:
        self.table_id = table_id
        self.settings = TableSettings.from_dict(dict(doc["settings"]))
        self.host_hash: str = doc["host_hash"]
        self.seats = [Seat() for _ in range(self.settings.seats)]
        for seat, level in doc.get("bots", {}).items():
            self.seats[int(seat)] = Seat(SeatKind.BOT, f"Bot {seat}", level)
        self.status = TableStatus.WAITING
        self.seq = 0
        self.game: Game | None = None
        self.games = 0
        self.past: list[Record] = []  # the records of the matches before a rematch, in order
        self.proof: tuple[str, int, str] | None = None  # this match's (commitment, seed, salt)
        self.past_proofs: list[tuple[str, int, str] | None] = []  # those of ``past``, in order
        self.bots: dict[int, Bot] = {}
        self.bot_rngs: dict[int, random.Random] = {}
        self._fed: dict[int, int] = {}  # seat -> the game's last event seq its bot has observed
        self._game_seq_at: list[tuple[int, int]] = [(0, 0)]  # per table seq: (game number, game's last_seq)
        self.spectators = 0
        self.changed_at = 0.0
        self.turn_started = 0.0
        self._turn_key: tuple[int, int] | None = None
        self.round_ended_at = 0.0
        self.finished = False
        self._proposal: tuple[int, tuple[int, Action] | None] = (-1, None)
        self._static: tuple[int, TableInfo | None] = (-1, None)  # (seq, the engine's TableInfo)
        self._public_key: tuple[int, ...] = ()
        self._public_view: dict[str, Any] = {}
        self._public_text_key: tuple[int, ...] = ()
        self._public_text = ""  # the public view as JSON text, for the same state as _public_view
        self._event_game = 0
        self._event_dicts: dict[int, dict[str, Any]] = {}  # this game's events by seq, as dicts
        self._event_texts: dict[int, str] = {}  # ... and as JSON text
        self.chat_log: deque[Chatted] = deque(maxlen=CHAT_KEPT)  # the latest lines, for a welcome
        self.ready: set[int] = set()  # after a round: the seats done reading its summary

    # -- what the clients see --------------------------------------------------------------------

    def deadline(self, now: float) -> float | None:
        """Seconds left for the seat whose turn is timed (None when nothing is timed)."""
        if self.settings.turn_seconds and self._timed_seat() is not None:
            return max(0.0, self.turn_started + self.settings.turn_seconds - now)
        return None

    def info(self, now: float) -> PublicTable:
        """The public table (no token, no hidden card; the seed commitment, and once the match is
        over its seed and salt)."""
        extra: dict[str, Any] = {}
        if self.proof is not None:
            commit, seed, salt = self.proof
            shown: dict[str, Any] = {"recipe": RECIPE, "commitment": commit}
            if self.status is TableStatus.MATCH_OVER:  # no seed field at all before (a frame omits it)
                shown.update(seed=seed, salt=salt)
            extra["deal"] = DealProof.model_construct(**shown)
        return PublicTable.model_construct(
            table=self.table_id,
            status=self.status,
            settings=self.settings.to_dict(),
            seats=[s.info(i) for i, s in enumerate(self.seats)],
            spectators=self.spectators,
            turn_deadline=self.deadline(now),
            next_round_in=(
                max(0.0, self.round_ended_at + self.settings.round_pause - now)
                if self.status is TableStatus.ROUND_OVER
                else None
            ),
            ready=sorted(self.ready),
            **extra,
        )

    def public(self) -> tuple[Any, ...]:
        """The status and every seat as :meth:`info` shows them, as a cheap value to compare."""
        return (self.status, tuple(s.public() for s in self.seats))

    def names(self) -> list[str]:
        bot = SeatKind.BOT
        return [s.name or (f"Bot {i}" if s.kind is bot else f"Seat {i}") for i, s in enumerate(self.seats)]

    def game_seq(self, table_seq: int) -> tuple[int, int] | None:
        """The (game number, game event seq) right after table command ``table_seq``."""
        if 0 <= table_seq < len(self._game_seq_at):
            return self._game_seq_at[table_seq]
        return None

    def _table_info(self, game: Game) -> TableInfo:
        """The engine's static part of the views (ruleset, seats, names), made once per table seq."""
        seq, info = self._static
        if seq != self.seq or info is None:
            info = game.table_info(self.names())
            self._static = (self.seq, info)
        return info

    def _public(self, game: Game) -> dict[str, Any]:
        """The spectator's view as a dict, made once per table state (every seat's view holds it)."""
        key = (self.seq, self.games, game.last_seq, game.action_count)
        if self._public_key != key:
            self._public_view = game.spectator_view(self._table_info(game)).to_dict()
            self._public_key = key
        return self._public_view

    def view_for(self, role: Role) -> dict[str, Any] | None:
        """The engine's view of ``role``'s seat (the spectator's for None) as a JSON-ready dict,
        equal to ``Game.view(seat).to_dict()``: the public part is the engine's spectator view,
        made once per table state for every seat; the seat's own part is what ``PlayerView`` adds
        to it, read from the engine (its hand, the card it drew, its legal actions). A test checks
        the two against each other at every step of whole games."""
        game = self.game
        if game is None:
            return None
        out = dict(self._public(game))
        if role.seat is not None:
            out.update(self._own(game, role.seat))
        return out

    def view_text_for(self, role: Role) -> str:
        """:meth:`view_for` as JSON text (``null`` before the first game): the public part is
        encoded once per table state, and only the seat's own part once per seat."""
        game = self.game
        if game is None:
            return "null"
        key = (self.seq, self.games, game.last_seq, game.action_count)
        if self._public_text_key != key:
            self._public_text = to_json(self._public(game))
            self._public_text_key = key
        if role.seat is None:
            return self._public_text
        # (the seat's keys are not among the spectator view's: appended, as view_for has them)
        return f"{self._public_text[:-1]},{to_json(self._own(game, role.seat))[1:]}"

    def _own(self, game: Game, seat: int) -> dict[str, Any]:
        """What ``PlayerView`` adds to the spectator's view for ``seat``, as a JSON-ready dict."""
        drawn = game.drawn_card if game.phase is Phase.PLAY_DRAWN and game.active_seat == seat else None
        legal = game.legal_actions_for(seat) if game.phase < Phase.ROUND_OVER else ()
        return {
            "seat": seat,
            "hand": [str(c) for c in game.hand(seat)],
            "drawn_card": None if drawn is None else str(drawn),
            "legal": [str(a) for a in legal],
        }

    def static(self) -> dict[str, Any] | None:
        return None if self.game is None else self._table_info(self.game).to_dict()

    def round_history(self, role: Role) -> list[dict[str, Any]]:
        """The current round's events that ``role`` may see, from its ``round_started`` on (the
        whole match's when a round was not started yet); the last HISTORY_KEPT of them."""
        events = self.events_for(role, 0)
        start = 0
        for i in range(len(events) - 1, -1, -1):
            if events[i].get("type") == "round_started":
                start = i
                break
        return events[start:][-HISTORY_KEPT:]

    def events_for(self, role: Role, since: int) -> list[dict[str, Any]]:
        """The game's events after ``since`` that ``role``'s seat may see, as dicts (each event's
        dict is made once, whoever it is sent to: ``Event.to_dict`` knows no viewer)."""
        game = self.game
        if game is None:
            return []
        cache = self._event_cache()
        out = []
        for e in game.events_since(since, role.seat):
            doc = cache.get(e.seq)
            if doc is None:
                doc = cache[e.seq] = e.to_dict()
            out.append(doc)
        return out

    def events_text_for(self, role: Role, since: int) -> str:
        """:meth:`events_for` as a JSON array (each event encoded once, whoever it is sent to)."""
        game = self.game
        if game is None:
            return "[]"
        dicts, texts = self._event_cache(), self._event_texts
        out = []
        for e in game.events_since(since, role.seat):
            text = texts.get(e.seq)
            if text is None:
                doc = dicts.get(e.seq)
                if doc is None:
                    doc = dicts[e.seq] = e.to_dict()
                text = texts[e.seq] = to_json(doc)
            out.append(text)
        return f"[{','.join(out)}]"

    def _event_cache(self) -> dict[int, dict[str, Any]]:
        if self._event_game != self.games:
            self._event_game, self._event_dicts, self._event_texts = self.games, {}, {}
        return self._event_dicts

    def record(self, match: int | None = None) -> Record | None:
        """A finished match's record with its seed (the seed is secret until the match is over):
        match ``n`` (1 for the table's first), or by default the latest finished one (the match
        before a rematch while the new one is played). None when there is no such finished match."""
        n = self._finished(match)
        if n is None:
            return None
        if n <= len(self.past):
            return self.past[n - 1]
        assert self.game is not None
        return Record.from_game(self.game, names=self.names())

    def _finished(self, match: int | None) -> int | None:
        """The number of finished match ``match`` (default: the latest), or None."""
        over = self.game is not None and self.status is TableStatus.MATCH_OVER
        finished = len(self.past) + (1 if over else 0)
        n = finished if match is None else match
        return n if 1 <= n <= finished else None

    def record_doc(self, match: int | None = None) -> dict[str, Any] | None:
        """:meth:`record` as a JSON-ready dict with the match's seed commitment and its reveal
        (:func:`unotable.verify.with_proof`), for ``unotable verify``."""
        rec = self.record(match)
        n = self._finished(match)
        if rec is None or n is None:
            return None
        proof = self.past_proofs[n - 1] if n <= len(self.past) else self.proof
        doc = rec.to_dict()
        return doc if proof is None else with_proof(doc, *proof)

    # -- deciding: a client message becomes a log entry, or a ProtocolError ------------------------

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
            if role.seat is not None:  # one seat per connection (it would hold two, one unwatched)
                raise ProtocolError(ErrorCode.FORBIDDEN, f"you hold seat {role.seat}: leave it first")
            return self._decide_sit(msg.seat, msg.name)
        if isinstance(msg, Leave):
            if role.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to leave")
            return Decision(Left(role.seat))
        if isinstance(msg, Chat):
            if role.seat is None and not role.host:
                raise ProtocolError(ErrorCode.FORBIDDEN, "spectators cannot chat")
            text = _plain_text(msg.text, "a chat line")
            if not text:
                raise ProtocolError(ErrorCode.INVALID, "an empty chat line")
            name = self.names()[role.seat] if role.seat is not None else "host"
            return Decision(Chatted(role.seat, name, text))
        if isinstance(msg, Act):
            return self._decide_act(role, msg.action, msg.seq)
        if isinstance(msg, Rename):
            return self._decide_rename(role, msg.name)
        if isinstance(msg, Ready):
            if role.seat is None:
                raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to be ready in")
            if self.status is not TableStatus.ROUND_OVER:
                raise ProtocolError(ErrorCode.ILLEGAL, f"the table is {self.status}: no summary to read")
            return None if role.seat in self.ready else Decision(ReadySet(role.seat))
        if isinstance(msg, React):
            name = self.names()[role.seat] if role.seat is not None else "host" if role.host else "spectator"
            return Decision(Reacted(role.seat, name, msg.reaction))
        return self._decide_host(msg)

    def _decide_rename(self, role: Role, name: str) -> Decision:
        if role.seat is None:
            raise ProtocolError(ErrorCode.FORBIDDEN, "a spectator holds no seat to rename")
        if self.status is not TableStatus.WAITING:
            raise ProtocolError(ErrorCode.FORBIDDEN, "names are changed in the waiting room")
        clean = _plain_text(name, "a name")
        if not clean:
            raise ProtocolError(ErrorCode.INVALID, "a name needs a letter")
        return Decision(Renamed(role.seat, clean))

    def _decide_sit(self, seat: int, name: str) -> Decision:
        if self.status is not TableStatus.WAITING:
            raise ProtocolError(ErrorCode.FORBIDDEN, "seats are taken in the waiting room; you are watching")
        self._seat(seat)
        if self.seats[seat].kind is not SeatKind.EMPTY:
            raise ProtocolError(ErrorCode.FORBIDDEN, f"seat {seat} is taken")
        clean = _plain_text(name, "a name")
        if not clean:
            raise ProtocolError(ErrorCode.INVALID, "a name needs a letter")
        token = new_token()
        return Decision(Seated(seat, clean, token_hash(token)), token)

    def _decide_act(self, role: Role, text: str, seq: int | None) -> Decision:
        if role.seat is None:
            raise ProtocolError(ErrorCode.FORBIDDEN, "spectators cannot act")
        if self.game is None or self.status is not TableStatus.PLAYING:
            raise ProtocolError(ErrorCode.ILLEGAL, f"no round is in play (the table is {self.status})")
        if seq is not None and seq != self.seq:
            raise ProtocolError(ErrorCode.STALE, f"the table is at {self.seq}, not {seq}")
        try:
            action = self.game.check(text, role.seat)
        except UnoError as exc:
            raise ProtocolError(ErrorCode.of_engine(exc.code), str(exc)) from None
        return Decision(Acted(role.seat, str(action), ActedBy.PLAYER))

    def _decide_host(self, msg: HostStart | HostBot | HostKick | HostSettings) -> Decision:
        if isinstance(msg, HostStart):
            if msg.type == "start":
                if self.status is not TableStatus.WAITING:
                    raise ProtocolError(ErrorCode.ILLEGAL, f"the table is {self.status}, not waiting")
                filled = [i for i, s in enumerate(self.seats) if s.kind is not SeatKind.EMPTY]
                if len(filled) < 2:
                    raise ProtocolError(ErrorCode.ILLEGAL, "at least two seats must be filled to start")
                return Decision(Started(secrets.randbits(63), new_salt()))
            if msg.type == "next_round":
                if self.status is not TableStatus.ROUND_OVER:
                    raise ProtocolError(ErrorCode.ILLEGAL, f"the table is {self.status}: no round to deal")
                return Decision(Dealt())
            if self.status is not TableStatus.MATCH_OVER:
                raise ProtocolError(ErrorCode.ILLEGAL, "a rematch follows a finished match")
            return Decision(Rematched(secrets.randbits(63), new_salt()))
        if isinstance(msg, HostKick):
            if self._seat(msg.seat).kind is not SeatKind.HUMAN:
                raise ProtocolError(ErrorCode.ILLEGAL, f"seat {msg.seat} holds no player")
            return Decision(Left(msg.seat))
        if self.status is not TableStatus.WAITING:
            raise ProtocolError(ErrorCode.ILLEGAL, f"{msg.type} belongs to the waiting room")
        if isinstance(msg, HostBot):
            seat = self._seat(msg.seat)
            if msg.type == "remove_bot":
                if seat.kind is not SeatKind.BOT:
                    raise ProtocolError(ErrorCode.ILLEGAL, f"seat {msg.seat} holds no bot")
                return Decision(BotRemoved(msg.seat))
            if seat.kind is not SeatKind.EMPTY:  # the condition sit refuses, with sit's code
                raise ProtocolError(ErrorCode.FORBIDDEN, f"seat {msg.seat} is taken")
            level = canonical(msg.level or self.settings.bot_level)
            if level not in BOT_NAMES:
                raise ProtocolError(
                    ErrorCode.INVALID, f"unknown bot level {msg.level!r}; levels: {', '.join(BOT_NAMES)}"
                )
            return Decision(BotAdded(msg.seat, level))
        changes = {k: v for k, v in msg.model_dump().items() if k != "type" and v is not None}
        trial = TableSettings.from_dict({**self.settings.to_dict(), **changes})
        try:
            trial.check()
        except ValueError as exc:
            raise ProtocolError(ErrorCode.INVALID, str(exc)) from None
        taken = [i for i, s in enumerate(self.seats) if s.kind is not SeatKind.EMPTY and i >= trial.seats]
        if taken:
            raise ProtocolError(
                ErrorCode.ILLEGAL, f"seats {taken} are taken: free them before shrinking the table"
            )
        return Decision(SettingsChanged(trial.to_dict()))

    def _seat(self, seat: int) -> Seat:
        if seat >= len(self.seats):
            raise ProtocolError(
                ErrorCode.INVALID, f"there is no seat {seat}: this table has {len(self.seats)}"
            )
        return self.seats[seat]

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (constant-time comparisons), or None."""
        found = None
        for i, s in enumerate(self.seats):
            if s.kind is SeatKind.HUMAN and matches(token, s.token_hash):
                found = i
        return found

    def is_host(self, token: str | None) -> bool:
        return matches(token, self.host_hash)

    # -- applying: the one way the table changes (live and on replay) ------------------------------

    def apply(self, entry: Entry, now: float) -> list[Event]:
        """Apply a log entry (already decided, or read back from the store); the game's new events."""
        events: list[Event] = []
        self.seq += 1
        self.changed_at = now
        if isinstance(entry, Seated):
            # the connection that sat down is already counted on the seat (connections are not logged)
            here = self.seats[entry.seat].connections
            self.seats[entry.seat] = Seat(
                SeatKind.HUMAN, entry.name, None, entry.token_hash, connections=here
            )
        elif isinstance(entry, BotAdded):
            self.seats[entry.seat] = Seat(SeatKind.BOT, f"Bot {entry.seat}", entry.level)
        elif isinstance(entry, BotRemoved):
            self.seats[entry.seat] = Seat()
        elif isinstance(entry, Left):
            seat = self.seats[entry.seat]
            if self.status is TableStatus.WAITING:
                self.seats[entry.seat] = Seat()
            else:  # in play a bot takes the seat over, for good
                seat.kind, seat.token_hash, seat.level, seat.autopilot = (
                    SeatKind.BOT,
                    None,
                    self.settings.bot_level,
                    False,
                )
        elif isinstance(entry, SettingsChanged):
            self.settings = TableSettings.from_dict(dict(entry.settings))
            self.seats = (self.seats + [Seat() for _ in range(self.settings.seats)])[: self.settings.seats]
        elif isinstance(entry, Chatted):
            self.chat_log.append(entry)
        elif isinstance(entry, Renamed):
            self.seats[entry.seat].name = entry.name
        elif isinstance(entry, Reacted):
            pass
        elif isinstance(entry, ReadySet):
            self.ready.add(entry.seat)
        elif isinstance(entry, Started | Rematched):
            if isinstance(entry, Rematched) and self.game is not None:
                self.past.append(Record.from_game(self.game, names=self.names()))
                self.past_proofs.append(self.proof)
            self.proof = (commitment(entry.seed, entry.salt), entry.seed, entry.salt) if entry.salt else None
            events = self._start_game(entry.seed, now)
            self.ready.clear()
        elif isinstance(entry, Dealt):
            assert self.game is not None
            events = self.game.next_round()
            self.status = TableStatus.PLAYING
            self.ready.clear()
        elif isinstance(entry, Acted):
            events = self._apply_act(entry)
        else:
            self.seats[entry.seat].autopilot = entry.on
            self.seats[entry.seat].timeouts = 0
        self._after(now)
        return events

    def _start_game(self, seed: int, now: float) -> list[Event]:
        for i, s in enumerate(self.seats):  # bots fill the empty seats (seats keep their numbers)
            if s.kind is SeatKind.EMPTY:
                self.seats[i] = Seat(SeatKind.BOT, f"Bot {i}", self.settings.bot_level)
        rules = self.settings.ruleset()
        self.game = Game.new(len(self.seats), rules, seed)
        self.games += 1
        self.bots = {}
        self.bot_rngs = {}
        for i, s in enumerate(self.seats):  # (each seat's generator: the one recipe, seat_rng)
            level = s.level if s.kind is SeatKind.BOT and s.level else self.settings.bot_level
            self.bots[i] = make_bot(level)
            self.bot_rngs[i] = seat_rng(seed, i)
            s.timeouts = 0
        self._fed = {}
        self.status = TableStatus.PLAYING
        self.finished = False
        self._feed()
        return self.game.events_since(0)

    def _apply_act(self, entry: Acted) -> list[Event]:
        assert self.game is not None
        s = self.seats[entry.seat]
        if entry.by is ActedBy.TIMEOUT:
            s.timeouts += 1
            if s.timeouts >= 2:
                s.autopilot = True
        elif entry.by is ActedBy.PLAYER:
            s.timeouts = 0
            s.autopilot = False
        return self.game.play(parse_action(entry.action), entry.seat)

    def _after(self, now: float) -> None:
        game = self.game
        if game is not None:
            self._feed()
            if game.phase is Phase.MATCH_OVER:
                if self.status is not TableStatus.MATCH_OVER:
                    self.round_ended_at = now
                self.status = TableStatus.MATCH_OVER
                self.finished = True
            elif game.phase is Phase.ROUND_OVER:
                if self.status is not TableStatus.ROUND_OVER:
                    self.round_ended_at = now
                self.status = TableStatus.ROUND_OVER
            key = (game.action_count, game.active_seat)
            if key != self._turn_key:
                self._turn_key = key
                self.turn_started = now
        self._game_seq_at.append((self.games, game.last_seq if game is not None else 0))

    def _feed(self) -> None:
        """The bots that play now follow the record of their seat (the events it may see). A
        player's stand-in is fed only once it plays (autopilot, a player who left): then it
        catches up with the whole game's events of its seat, in order, at once."""
        game = self.game
        if game is None:
            return
        last = game.last_seq
        for seat in self.controlled():
            since = self._fed.get(seat, 0)
            if since == last:
                continue
            self._fed[seat] = last
            mine = [e for e in game.events_since(since, ALL) if e.visible_to(seat)]
            if mine:
                self.bots[seat].observe(mine)

    # -- timers: what is due, and when -------------------------------------------------------------

    def controlled(self) -> set[int]:
        """The seats a bot plays now: bot seats, and players' seats on autopilot."""
        return {
            i
            for i, s in enumerate(self.seats)
            if s.kind is SeatKind.BOT or (s.kind is SeatKind.HUMAN and s.autopilot)
        }

    def _timed_seat(self) -> int | None:
        game = self.game
        if game is None or self.status is not TableStatus.PLAYING or game.phase >= Phase.ROUND_OVER:
            return None
        active = game.active_seat
        s = self.seats[active]
        return active if s.kind is SeatKind.HUMAN and not s.autopilot else None

    def _away(self, s: Seat) -> bool:
        human = s.kind is SeatKind.HUMAN and not s.autopilot
        return human and s.connections == 0 and s.away_since is not None

    def next_due(self) -> float | None:
        """When :meth:`due` may next have something to do (None: nothing is scheduled)."""
        times: list[float] = []
        if self.status is TableStatus.PLAYING and self._bot_may_act():
            times.append(self.changed_at + self.settings.bot_pause)
        if self.settings.turn_seconds and self._timed_seat() is not None:
            times.append(self.turn_started + self.settings.turn_seconds)
        if self.status is TableStatus.ROUND_OVER and self._someone_here():
            pause_ends = self.round_ended_at + self.settings.round_pause
            times.append(self.changed_at if self._all_ready() else pause_ends)
        if self.status in (TableStatus.PLAYING, TableStatus.ROUND_OVER):
            for s in self.seats:
                if self._away(s):
                    assert s.away_since is not None
                    times.append(s.away_since + self.settings.grace)
        return min(times) if times else None

    def due(self, now: float) -> Decision | None:
        """The entry a timer makes now: a bot's action, a time-out, a deal, an autopilot."""
        game = self.game
        if game is None:
            return None
        if self.status in (TableStatus.PLAYING, TableStatus.ROUND_OVER):
            for i, s in enumerate(self.seats):
                if self._away(s) and s.away_since is not None and now >= s.away_since + self.settings.grace:
                    return Decision(AutopilotSet(i, True))
        if self.status is TableStatus.ROUND_OVER:
            ends = self.round_ended_at + self.settings.round_pause
            if self._someone_here() and (self._all_ready() or now >= ends):
                return Decision(Dealt())
            return None
        if self.status is not TableStatus.PLAYING:
            return None
        timed = self._timed_seat()
        if (
            timed is not None
            and self.settings.turn_seconds
            and now >= self.turn_started + self.settings.turn_seconds
        ):
            action = game.default_action(timed)
            if action is not None:
                return Decision(Acted(timed, str(action), ActedBy.TIMEOUT))
        if now >= self.changed_at + self.settings.bot_pause:
            proposal = self._bot_proposal()
            if proposal is not None:
                seat, action = proposal
                return Decision(Acted(seat, str(action), ActedBy.BOT))
        return None

    def _bot_may_act(self) -> bool:
        """Whether a bot-played seat has a legal action now (cheap: the bots are not asked)."""
        game = self.game
        if game is None or game.phase >= Phase.ROUND_OVER:
            return False
        if self._proposal[0] == self.seq:
            return self._proposal[1] is not None
        return any(game.legal_actions_for(s) for s in self.controlled())

    def _all_ready(self) -> bool:
        """Every connected player (a bot's seat never waits) is done reading the summary."""
        here = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN and s.connections]
        here = [i for i in here if not self.seats[i].autopilot]
        return bool(here) and all(i in self.ready for i in here)

    def _someone_here(self) -> bool:
        return any(s.kind is SeatKind.HUMAN and s.connections > 0 for s in self.seats)

    def _bot_proposal(self) -> tuple[int, Action] | None:
        """What a bot-played seat does now, in the arbiter's order: out of turn first, then the turn
        (asked once per table state: the bots are not asked again until something changes)."""
        if self._proposal[0] != self.seq:
            self._proposal = (self.seq, self._ask_bots())
        return self._proposal[1]

    def _ask_bots(self) -> tuple[int, Action] | None:
        game = self.game
        if game is None or game.phase >= Phase.ROUND_OVER:
            return None
        controlled = self.controlled()
        if not controlled:
            return None
        active = game.active_seat
        for seat in seats_to_ask(game):  # the arbiter's order, a pure function of the game
            if seat not in controlled:
                continue
            bot = self.bots[seat]
            view = game.view(seat, self._table_info(game))
            ask = bot.react if seat != active else bot.choose  # the Agent protocol's declared hooks
            choice = ask(view, view.legal, self.bot_rngs[seat])
            if choice is not None:
                return seat, choice
        return None

    # -- connections (not logged: they change no game state) ---------------------------------------

    def connected(self, seat: int | None, now: float) -> None:
        if seat is None:
            self.spectators += 1
            return
        s = self.seats[seat]
        s.connections += 1
        s.away_since = None

    def disconnected(self, seat: int | None, now: float) -> None:
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
            return
        s = self.seats[seat]
        s.connections = max(0, s.connections - 1)
        if s.connections == 0:
            s.away_since = now

    def back_from_autopilot(self, seat: int | None) -> Decision | None:
        """A player on autopilot who acts again takes the seat back (an entry, logged)."""
        if seat is None or not self.seats[seat].autopilot or self.seats[seat].kind is not SeatKind.HUMAN:
            return None
        return Decision(AutopilotSet(seat, False))

    def replay(self, entries: Sequence[Entry], now: float) -> None:
        for entry in entries:
            self.apply(entry, now)
        for s in self.seats:  # after a restart nobody is connected yet: the grace period starts now
            if s.kind is SeatKind.HUMAN:
                s.away_since = now
