"""The bots around a table: their turns, their out-of-turn reactions, and what they observe.

A bot (:mod:`unotable.bots`) has ``choose(view, legal, rng) -> Action | None`` and, optionally,
``react`` (the same for out-of-turn chances) and ``observe(events)``. It sees the table through
``game.view(seat)`` and the events its seat may see, never the game itself. :class:`Table` owns
the game and the bots and drives them by the arena's protocol (:mod:`unotable.bots.arena`):
out-of-turn seats are offered their legal actions (UNO calls, catches, jump-ins) in turn order
from the active seat, each at most once per game state, and may decline with None; the active
seat must answer an action. The terminal loop puts the human's own chances in between.

>>> from unotable.game import Game
>>> from unotable.bots import make_bot
>>> table = Table(Game.new(seats=2, seed=3), {0: make_bot("random"), 1: make_bot("heuristic")}, seed=3)
>>> while table.game.phase < Phase.ROUND_OVER:
...     if table.react() is None:
...         _ = table.bot_turn(table.game.active_seat)
>>> table.game.phase.name in ("ROUND_OVER", "MATCH_OVER")
True
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from unotable.actions import Action
from unotable.bots import BOT_NAMES, Bot, make_bot
from unotable.errors import UnoError
from unotable.events import Event
from unotable.game import Game
from unotable.state import Phase

__all__ = ["BOT_LEVELS", "Bot", "BotError", "Table", "make_bot"]

BOT_LEVELS: tuple[str, ...] = BOT_NAMES
"""The bot levels of :func:`unotable.bots.make_bot`, weakest first."""


class BotError(RuntimeError):
    """A bot broke the protocol: no action on its turn, or an illegal one."""


class Table:
    """A game with bots in some seats; the other seats are played by the caller."""

    def __init__(self, game: Game, bots: Mapping[int, Bot], seed: int) -> None:
        self.game = game
        self.bots = dict(bots)
        # One generator per bot seat, from the match seed: the same seed and the same human
        # input give the same match.
        self.rngs = {seat: random.Random(seed * 16 + seat) for seat in self.bots}
        self._observed = 0
        self._asked: dict[int, int] = {}

    @property
    def version(self) -> int:
        """Changes with every applied action (and every deal)."""
        return len(self.game.actions) * 1024 + self.game.round_no

    def observe(self) -> None:
        """Give every bot with ``observe`` the new events its seat may see."""
        events = self.game.events
        new = events[self._observed:]
        self._observed = len(events)
        if not new:
            return
        for seat, bot in self.bots.items():
            observe = getattr(bot, "observe", None)
            if observe is not None:
                mine = [e for e in new if e.visible_to(seat)]
                if mine:
                    observe(mine)

    def _act(self, seat: int, action: Action) -> list[Event]:
        try:
            return self.game.play(action, seat)
        except UnoError as exc:
            raise BotError(f"the {self.bots[seat].name} bot at seat {seat} chose {action}: {exc}") from exc

    def bot_turn(self, seat: int) -> list[Event]:
        """The bot at ``seat`` (the active seat) takes one action; returns the events.

        The action may be a call or a catch, after which the seat is still active and is asked
        again on the next call.
        """
        self.observe()
        bot = self.bots[seat]
        legal = self.game.legal_action_list(seat)
        action = bot.choose(self.game.view(seat), legal, self.rngs[seat])
        if action is None:
            raise BotError(f"the {bot.name} bot at seat {seat} chose no action on its turn")
        return self._act(seat, action)

    def react(self, skip: int | None = None) -> list[Event] | None:
        """Let one bot take an out-of-turn action (call UNO, catch, jump in), if any wants to.

        Bots are asked in turn order from the active seat; each at most once per game state.
        Returns the events of the reaction, or None when no bot acted.
        """
        game = self.game
        if game.phase >= Phase.ROUND_OVER:
            return None
        self.observe()
        n = game.seats
        active = game.active_seat
        version = self.version
        for step in range(1, n + 1):
            seat = (active + step * game.direction) % n
            if seat in (active, skip) or seat not in self.bots:
                continue
            if self._asked.get(seat) == version:
                continue
            self._asked[seat] = version
            legal = game.legal_action_list(seat)
            if not legal:
                continue
            bot = self.bots[seat]
            react = getattr(bot, "react", None)
            view = game.view(seat)
            choice: Action | None
            if react is not None:
                choice = react(view, legal, self.rngs[seat])
            else:
                choice = bot.choose(view, legal, self.rngs[seat])
            if choice is not None:
                return self._act(seat, choice)
        return None
