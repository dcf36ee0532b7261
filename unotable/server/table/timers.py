"""What is due at a table, and when: the turn timer, the pause between rounds, autopilot, the bots.

The hub waits until :meth:`Timers.next_due` and then asks :meth:`Timers.due` for the entry a timer
makes. With a turn timer, a seat whose time runs out plays the strongest fast bot's move
(:func:`.autopilot.timeout_action`: a card whenever it can play one, never a draw instead); a
seat that times out twice in a row (see :mod:`.actor`), or stays disconnected past ``grace``
seconds, is played by a bot of the host's level until its player acts again (``autopilot``).
After a round the next is dealt when every
connected player is ready, or after ``round_pause``: a countdown that starts when the summary is
shown and stands still while a connected player who is not ready reads it (their page says so),
for ``read_limit`` seconds at most in a round. A rematch the host proposed is dealt when every
connected player accepted. A bot acts ``bot_pause`` after the last change, and catches a person
who did not call UNO only ``catch_reaction`` after it (:meth:`.bots.Bots.bot_wait`).
"""

from __future__ import annotations

from unotable.phase import Phase
from unotable.server.entries import Acted, ActedBy, AutopilotSet, Dealt
from unotable.server.protocol import SeatKind, TableStatus
from unotable.server.table.autopilot import timeout_action
from unotable.server.table.bots import Bots
from unotable.server.table.core import Decision
from unotable.server.table.seats import Seat

__all__ = ["Timers"]


class Timers(Bots):
    def deadline(self, now: float) -> float | None:
        """Seconds left for the seat whose turn is timed (None when nothing is timed)."""
        if self.settings.turn_seconds and self._timed_seat() is not None:
            return max(0.0, self.turn_started + self.settings.turn_seconds - now)
        return None

    def next_due(self) -> float | None:
        """When :meth:`due` may next have something to do (None: nothing is scheduled)."""
        times: list[float] = []
        if self.status is TableStatus.PLAYING and self.bot_may_act():
            times.append(self.changed_at + self.bot_wait())
        if self.settings.turn_seconds and self._timed_seat() is not None:
            times.append(self.turn_started + self.settings.turn_seconds)
        if self.status is TableStatus.ROUND_OVER and self._someone_here():
            times.append(self.changed_at if self._all_ready() else self._deal_at())
        if self.status is TableStatus.MATCH_OVER and self.rematch_agreed():
            times.append(self.changed_at)
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
            if self._someone_here() and (self._all_ready() or now >= self._deal_at()):
                return Decision(Dealt())
            return None
        if self.status is TableStatus.MATCH_OVER and self.rematch_agreed():
            return self.rematch_now()  # (the last to accept left: the others do not wait)
        if self.status is not TableStatus.PLAYING:
            return None
        timed = self._timed_seat()
        if (
            timed is not None
            and self.settings.turn_seconds
            and now >= self.turn_started + self.settings.turn_seconds
        ):
            action = timeout_action(game, timed, self.table_info(game))
            if action is not None:
                return Decision(Acted(timed, str(action), ActedBy.TIMEOUT))
        if now >= self.changed_at + self.settings.bot_pause:
            proposal = self.bot_proposal()
            if proposal is not None and now >= self.changed_at + self.bot_wait():
                seat, action = proposal
                return Decision(Acted(seat, str(action), ActedBy.BOT))
        return None

    def _timed_seat(self) -> int | None:
        game = self.game
        if game is None or self.status is not TableStatus.PLAYING or game.phase >= Phase.ROUND_OVER:
            return None
        active = game.active_seat
        s = self.seats[active]
        return active if s.kind is SeatKind.HUMAN and not s.autopilot else None

    @staticmethod
    def _away(s: Seat) -> bool:
        human = s.kind is SeatKind.HUMAN and not s.autopilot
        return human and s.connections == 0 and s.away_since is not None

    def _all_ready(self) -> bool:
        """Every connected player (a bot's seat never waits) is done reading the summary."""
        here = [i for i, s in enumerate(self.seats) if s.kind is SeatKind.HUMAN and s.connections]
        here = [i for i in here if not self.seats[i].autopilot]
        return bool(here) and all(i in self.ready for i in here)

    # -- the summary's countdown, which waits for readers ------------------------------------------

    def readers(self) -> list[int]:
        """The seats whose players read the round's summary now: connected, not ready, not on
        autopilot, their page showing it. The countdown stands still while there is one."""
        return [
            i for i in sorted(self.reading)
            if i not in self.ready and self.seats[i].kind is SeatKind.HUMAN
            and self.seats[i].connections > 0 and not self.seats[i].autopilot
        ]

    def hold(self, now: float) -> None:
        """Stop or restart the countdown as readers come and go (after every change of the table
        and of who is connected)."""
        if self.status is not TableStatus.ROUND_OVER:
            self.held, self.held_since = 0.0, None
            return
        reading = bool(self.readers())
        if reading and self.held_since is None:
            self.held_since = now
        elif not reading and self.held_since is not None:
            self.held += now - self.held_since
            self.held_since = None

    def _deal_at(self) -> float:
        """When the countdown ends: ``round_pause`` after the summary was shown, plus the time it
        stood still (``read_limit`` at most; while it stands still, the latest it may end)."""
        s = self.settings
        held = s.read_limit if self.held_since is not None else min(self.held, s.read_limit)
        return self.round_ended_at + s.round_pause + held

    def countdown(self, now: float) -> float:
        """The countdown's seconds left (they stand still while someone reads)."""
        s = self.settings
        held = self.held + (now - self.held_since if self.held_since is not None else 0.0)
        return max(0.0, self.round_ended_at + s.round_pause + min(held, s.read_limit) - now)

    def _someone_here(self) -> bool:
        return any(s.kind is SeatKind.HUMAN and s.connections > 0 for s in self.seats)
