"""The table actor: one online table, changed only by applying log entries, live and on replay.

:class:`TableActor` joins the table's concerns (each in its file: :mod:`.decide` and its verbs,
:mod:`.timers` and :mod:`.bots`, :mod:`.frames`, :mod:`.records`, on the state of :mod:`.core`)
and is the one place the table changes: :meth:`TableActor.apply` takes a log entry (already
decided, or read back from the store) and returns the game's new events. Rebuilding a table after
a crash is replaying its entries (:meth:`TableActor.replay`), so a table ends up exactly where it
was. Connections are counted here too, but not logged: they change no game state.

>>> actor = TableActor("t" * 16, new_table_doc(TableSettings(seats=2), "host-token", {1: "random"}))
>>> actor.status.value, [s.kind.value for s in actor.seats]
('waiting', ['empty', 'bot'])
"""

from __future__ import annotations

from collections.abc import Sequence

from unotable.actions import parse_action
from unotable.agent import seat_rng
from unotable.events import Event
from unotable.game import Game
from unotable.phase import Phase
from unotable.record import Record
from unotable.server.entries import (
    Acted,
    ActedBy,
    BotAdded,
    BotRemoved,
    Chatted,
    Dealt,
    Entry,
    Left,
    Reacted,
    ReadingSet,
    ReadySet,
    RematchAccepted,
    Rematched,
    RematchProposed,
    Renamed,
    SeatAnswered,
    SeatAsked,
    Seated,
    SettingsChanged,
    Started,
)
from unotable.server.protocol import SeatKind, TableStatus
from unotable.server.table.decide import Decisions
from unotable.server.table.frames import Frames
from unotable.server.table.offer import make_seated
from unotable.server.table.records import Records
from unotable.server.table.seats import Seat
from unotable.server.table.settings import TableSettings, new_table_doc
from unotable.verify import commitment

__all__ = ["TableActor", "new_table_doc"]


class TableActor(Decisions, Frames, Records):
    """One table: seats, settings, the game in play and its bots."""

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
            if self.rematch is not None:  # new terms for the rematch: everyone is asked again
                self.rematch = set()
        elif isinstance(entry, Chatted):
            self.chat_log.append(entry)
        elif isinstance(entry, Renamed):
            self.seats[entry.seat].name = entry.name
        elif isinstance(entry, Reacted):
            pass
        elif isinstance(entry, ReadySet):
            self.ready.add(entry.seat)
        elif isinstance(entry, ReadingSet):
            (self.reading.add if entry.on else self.reading.discard)(entry.seat)
        elif isinstance(entry, SeatAsked):
            self.asks_made += 1
            self.asks[self.asks_made] = (entry.name, entry.token_hash)
        elif isinstance(entry, SeatAnswered):
            name, token = self.asks.pop(entry.ask)
            if entry.accept:  # a seat more, and the asker in it (their key is its token)
                self.settings.seats += 1
                self.seats.append(Seat(SeatKind.HUMAN, name, None, token))
        elif isinstance(entry, RematchProposed):
            self.rematch = set() if entry.seat is None else {entry.seat}
        elif isinstance(entry, RematchAccepted):
            self.rematch = (self.rematch or set()) | {entry.seat}
        elif isinstance(entry, Started | Rematched):
            if isinstance(entry, Rematched) and self.game is not None:
                self.past.append(Record.from_game(self.game, names=self.names()))
                self.past_proofs.append(self.proof)
            self.proof = (commitment(entry.seed, entry.salt), entry.seed, entry.salt) if entry.salt else None
            events = self._start_game(entry.seed)
            self.ready.clear()
            self.reading.clear()
            self.asks.clear()
            self.rematch = None
        elif isinstance(entry, Dealt):
            assert self.game is not None
            events = self.game.next_round()
            self.status = TableStatus.PLAYING
            self.ready.clear()
            self.reading.clear()
        elif isinstance(entry, Acted):
            events = self._apply_act(entry)
        else:
            self.seats[entry.seat].autopilot = entry.on
            self.seats[entry.seat].timeouts = 0
        self._after(now)
        return events

    def _start_game(self, seed: int) -> list[Event]:
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
            self.bots[i] = make_seated(level)
            self.bot_rngs[i] = seat_rng(seed, i)
            s.timeouts = 0
        self.fed = {}
        self.status = TableStatus.PLAYING
        self.finished = False
        self.feed()
        return self.game.events_since(0)

    def _apply_act(self, entry: Acted) -> list[Event]:
        assert self.game is not None
        s = self.seats[entry.seat]
        if entry.by is ActedBy.TIMEOUT:  # twice in a row: a bot plays the seat (autopilot)
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
            self.feed()
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
            if key != self.turn_key:
                self.turn_key = key
                self.turn_started = now
        self.game_seq_at.append((self.games, game.last_seq if game is not None else 0))
        self.hold(now)

    def replay(self, entries: Sequence[Entry], now: float) -> None:
        for entry in entries:
            self.apply(entry, now)
        for s in self.seats:  # after a restart nobody is connected yet: the grace period starts now
            if s.kind is SeatKind.HUMAN:
                s.away_since = now

    # -- connections (not logged: they change no game state) ---------------------------------------

    def connected(self, seat: int | None, now: float) -> None:
        if seat is None:
            self.spectators += 1
            return
        s = self.seats[seat]
        s.connections += 1
        s.away_since = None
        self.hold(now)

    def disconnected(self, seat: int | None, now: float) -> None:
        if seat is None:
            self.spectators = max(0, self.spectators - 1)
            return
        s = self.seats[seat]
        s.connections = max(0, s.connections - 1)
        if s.connections == 0:
            s.away_since = now
        self.hold(now)
