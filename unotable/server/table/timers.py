"""What is due at a table, and when: the turn timer, the pause between rounds, autopilot, the bots.

The hub waits until :meth:`Timers.next_due` and then asks :meth:`Timers.due` for the entry a timer
makes. With a turn timer, a seat whose time runs out gets the engine's
:meth:`~unotable.game.Game.default_action`; a seat that times out twice in a row (see
:mod:`.actor`), or stays disconnected past ``grace`` seconds, is played by a bot of the host's
level until its player acts again (``autopilot``). After a round the next is dealt when every
connected player is ready, or after ``round_pause``. A bot acts ``bot_pause`` after the last change.
"""

from __future__ import annotations

from unotable.phase import Phase
from unotable.server.entries import Acted, ActedBy, AutopilotSet, Dealt
from unotable.server.protocol import SeatKind, TableStatus
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
            proposal = self.bot_proposal()
            if proposal is not None:
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

    def _someone_here(self) -> bool:
        return any(s.kind is SeatKind.HUMAN and s.connections > 0 for s in self.seats)
