"""The bots around a terminal table.

:class:`Table` holds the game, the bots in the other seats and the table's seed. The terminal does
not drive the bots itself: :meth:`Table.arbiter` hands the table, with the person's own agent, to
:class:`unotable.arbiter.Arbiter`, the one driver that the arena, the tests and the server share
(its documented order: out-of-turn seats in turn order from the active seat, then the active seat).
Each bot's generator comes from the table's seed by the one recipe of every driver
(:func:`unotable.agent.seat_rng`), so the same seed and the same input give the same match.

>>> from unotable.game import Game
>>> from unotable.bots import make_bot
>>> table = Table(Game.new(seats=2, seed=3), {0: make_bot("random"), 1: make_bot("heuristic")}, seed=3)
>>> _ = table.arbiter().play_round()
>>> table.game.phase.name in ("ROUND_OVER", "MATCH_OVER")
True
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from unotable.arbiter import Agent, Applied, Arbiter, ArbiterError, seat_rngs
from unotable.bots import BOT_NAMES, Bot, make_bot
from unotable.game import Game

__all__ = ["BOT_LEVELS", "Bot", "BotError", "Table", "make_bot"]

BOT_LEVELS: tuple[str, ...] = BOT_NAMES
"""The bot levels of :func:`unotable.bots.make_bot`, weakest first."""

BotError = ArbiterError
"""A bot broke the protocol: no action on its turn, or an illegal one."""


class Table:
    """A game with bots in some seats; the other seats are played by the caller's agents."""

    def __init__(self, game: Game, bots: Mapping[int, Bot], seed: int) -> None:
        self.game = game
        self.bots = dict(bots)
        self.seed = seed

    def arbiter(
        self, others: Mapping[int, Agent] | None = None, on_applied: Callable[[Applied], None] | None = None
    ) -> Arbiter:
        """The arbiter of this table: the bots, plus ``others`` (seat -> agent) for the other seats."""
        agents: dict[int, Agent] = {**self.bots, **(others or {})}
        return Arbiter(self.game, agents, seat_rngs(self.seed, self.game.seats), on_applied=on_applied)
