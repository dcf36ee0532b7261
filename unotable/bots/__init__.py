"""Bots: the protocol, the registry, four bots and the arena.

Every bot implements ``choose(view, legal, rng) -> Action | None`` on a
:class:`~unotable.views.PlayerView`, never the game (see :mod:`unotable.bots.base`):

- ``random`` (:mod:`~unotable.bots.random_bot`): uniform over the legal actions;
- ``rule-v1`` (:mod:`~unotable.bots.rule_v1`): RLCard's baseline UNO rule agent, in our rules;
- ``heuristic`` (:mod:`~unotable.bots.heuristic`): a documented hand-written strategy;
- ``ismcts`` (:mod:`~unotable.bots.ismcts`): information-set Monte Carlo tree search.

:mod:`unotable.bots.registry` names them (:func:`make_bot`, :func:`register`);
:mod:`unotable.bots.arena` plays them against each other (``unotable simulate``).

>>> from unotable.bots import make_bot
>>> make_bot("heuristic").name
'heuristic'
"""
from unotable.bots.base import BaseBot, Bot
from unotable.bots.registry import BOT_NAMES, BotSpecError, make_bot, parse_bot_spec, register, unregister

__all__ = ["BOT_NAMES", "BaseBot", "Bot", "BotSpecError", "make_bot", "parse_bot_spec", "register",
           "unregister"]
