"""The table's bots: what they are told (each its seat's events) and when one acts (the arbiter's order).

A bot plays a bot's seat, or a player's on autopilot or after it left. It acts after the table's
``bot_pause``, out of turn too, in the arbiter's order (:func:`unotable.arbiter.seats_to_ask`),
and catches a person who did not call UNO only ``catch_reaction`` after the last change (a
person's reaction time: a bot catches no faster than a person could; :meth:`Bots.bot_wait`);
:mod:`.timers` asks :meth:`Bots.bot_proposal` when the pause is over. The bots are asked once per
table state.
"""

from __future__ import annotations

from unotable.actions import Action, Catch
from unotable.arbiter import seats_to_ask
from unotable.game import ALL
from unotable.phase import Phase
from unotable.server.protocol import SeatKind
from unotable.server.table.core import TableCore

__all__ = ["Bots"]


class Bots(TableCore):
    def feed(self) -> None:
        """The bots that play now follow the record of their seat (the events it may see). A
        player's stand-in is fed only once it plays (autopilot, a player who left): then it
        catches up with the whole game's events of its seat, in order, at once."""
        game = self.game
        if game is None:
            return
        last = game.last_seq
        for seat in self.controlled():
            since = self.fed.get(seat, 0)
            if since == last:
                continue
            self.fed[seat] = last
            mine = [e for e in game.events_since(since, ALL) if e.visible_to(seat)]
            if mine:
                self.bots[seat].observe(mine)

    def bot_may_act(self) -> bool:
        """Whether a bot-played seat has a legal action now (cheap: the bots are not asked)."""
        game = self.game
        if game is None or game.phase >= Phase.ROUND_OVER:
            return False
        if self.proposal[0] == self.seq:
            return self.proposal[1] is not None
        return any(game.legal_actions_for(s) for s in self.controlled())

    def bot_wait(self) -> float:
        """Seconds after the last change before the bots' proposal is made: ``bot_pause``, or
        ``catch_reaction`` when the proposal (once asked for this state) catches a person (a
        player's seat that is not on autopilot; a bot may catch a bot at once)."""
        pause = self.settings.bot_pause
        seq, proposal = self.proposal
        if seq == self.seq and proposal is not None and isinstance(proposal[1], Catch):
            target = self.seats[proposal[1].target]
            if target.kind is SeatKind.HUMAN and not target.autopilot:
                return max(pause, self.settings.catch_reaction)
        return pause

    def bot_proposal(self) -> tuple[int, Action] | None:
        """What a bot-played seat does now, in the arbiter's order: out of turn first, then the turn
        (asked once per table state: the bots are not asked again until something changes)."""
        if self.proposal[0] != self.seq:
            self.proposal = (self.seq, self._ask_bots())
        return self.proposal[1]

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
            view = game.view(seat, self.table_info(game))
            ask = bot.react if seat != active else bot.choose  # the Agent protocol's declared hooks
            choice = ask(view, view.legal, self.bot_rngs[seat])
            if choice is not None:
                return seat, choice
        return None
