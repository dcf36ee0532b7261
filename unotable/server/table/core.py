"""What one table holds, in one place: :class:`TableCore`, the state every concern of the actor reads.

The concerns are classes on top of it, each in a file named for it (:mod:`.bots`, :mod:`.timers`,
:mod:`.frames`, :mod:`.decide`, :mod:`.records`), joined in :class:`~.actor.TableActor`, which alone
changes the state (:meth:`~.actor.TableActor.apply`). A :class:`Decision` is what deciding makes
(a client's command, or a timer's): the entry to store and apply.

>>> core = TableCore("t" * 16, {"settings": {"seats": 3}, "host_hash": "", "bots": {"2": "random"}})
>>> core.names(), sorted(core.controlled())
(['Seat 0', 'Seat 1', 'Bot 2'], [2])
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from dataclasses import dataclass
from typing import Any

from unotable.actions import Action
from unotable.bots import Bot
from unotable.game import Game
from unotable.record import Record
from unotable.server.entries import Chatted, Entry, Rematched
from unotable.server.ids import matches
from unotable.server.protocol import ErrorCode, ProtocolError, SeatKind, TableStatus
from unotable.server.table.seats import Seat
from unotable.server.table.settings import TableSettings
from unotable.verify import new_salt
from unotable.views import TableInfo, ViewParts

__all__ = ["CHAT_KEPT", "Decision", "TableCore"]

CHAT_KEPT = 100
"""The chat lines a table keeps for the welcome of a client that comes (back) in."""


@dataclass(frozen=True, slots=True)
class Decision:
    """An accepted command: the entry to persist and apply, and a token for the sender alone."""

    entry: Entry
    token: str | None = None


class TableCore:
    """One table's state: seats, settings, the game in play, its bots, and the caches of its frames."""

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
        self.spectators = 0
        self.finished = False
        self.chat_log: deque[Chatted] = deque(maxlen=CHAT_KEPT)  # the latest lines, for a welcome
        self.ready: set[int] = set()  # after a round: the seats done reading its summary
        self.reading: set[int] = set()  # after a round: the seats whose page shows the summary
        self.asks: dict[int, tuple[str, str]] = {}  # seat requests at a full table: n -> (name, token hash)
        self.asks_made = 0
        self.rematch: set[int] | None = None  # a proposed rematch: the seats that accepted
        self.game_seq_at: list[tuple[int, int]] = [(0, 0)]  # per table seq: (game number, game's last_seq)
        self.static_info: tuple[int, TableInfo | None] = (-1, None)  # (seq, the engine's TableInfo)
        # bots (.bots): each seat's bot and generator, the game's last event seq each bot has
        # observed, and what they proposed at a table seq (asked once per state)
        self.bots: dict[int, Bot] = {}
        self.bot_rngs: dict[int, random.Random] = {}
        self.fed: dict[int, int] = {}
        self.proposal: tuple[int, tuple[int, Action] | None] = (-1, None)
        # timers (.timers): when the table last changed, the turn began, the round ended
        self.changed_at = 0.0
        self.turn_started = 0.0
        self.turn_key: tuple[int, int] | None = None
        self.round_ended_at = 0.0
        self.held = 0.0  # after a round: the seconds the countdown stood still while players read
        self.held_since: float | None = None  # since when it stands still (None: it runs)
        # frames (.frames): the views' parts and the public part's text for one state, and the
        # current game's events as dicts and as JSON text, by seq
        self.parts_key: tuple[int, ...] = ()
        self.parts: ViewParts | None = None
        self.public_text = ""
        self.event_game = 0
        self.event_dicts: dict[int, dict[str, Any]] = {}
        self.event_texts: dict[int, str] = {}

    def names(self) -> list[str]:
        bot = SeatKind.BOT
        return [s.name or (f"Bot {i}" if s.kind is bot else f"Seat {i}") for i, s in enumerate(self.seats)]

    def table_info(self, game: Game) -> TableInfo:
        """The engine's static part of the views (ruleset, seats, names), made once per table seq."""
        seq, info = self.static_info
        if seq != self.seq or info is None:
            info = game.table_info(self.names())
            self.static_info = (self.seq, info)
        return info

    def seat(self, seat: int) -> Seat:
        """Seat ``seat``, or ``invalid`` when the table has no such seat."""
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

    def controlled(self) -> set[int]:
        """The seats a bot plays now: bot seats, and players' seats on autopilot."""
        return {
            i
            for i, s in enumerate(self.seats)
            if s.kind is SeatKind.BOT or (s.kind is SeatKind.HUMAN and s.autopilot)
        }

    def game_seq(self, table_seq: int) -> tuple[int, int] | None:
        """The (game number, game event seq) right after table command ``table_seq``."""
        if 0 <= table_seq < len(self.game_seq_at):
            return self.game_seq_at[table_seq]
        return None

    def rematch_agreed(self, accepted: set[int] | None = None) -> bool:
        """Whether the proposed rematch (or these ``accepted`` seats) has the consent of every
        connected player who is not on autopilot (bots accept)."""
        accepted = self.rematch if accepted is None else accepted
        if accepted is None:
            return False
        return all(
            i in accepted for i, s in enumerate(self.seats)
            if s.kind is SeatKind.HUMAN and s.connections > 0 and not s.autopilot
        )

    def rematch_now(self) -> Decision:
        """The rematch dealt: a new seed and the salt of its commitment."""
        return Decision(Rematched(secrets.randbits(63), new_salt()))
