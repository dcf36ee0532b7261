"""What every bot shares: the agent protocol it implements, and helpers (the registry is
:mod:`unotable.bots.registry`).

A bot is an :class:`unotable.agent.Agent` (``Bot`` and ``BaseBot`` are its names here): it
defines ``choose(view, legal, rng) -> Action | None`` and may override the declared hooks
(``react``, ``observe``, ``rejected``, ``restart``), whose defaults do nothing. It receives the
seat's :class:`~unotable.views.PlayerView`, the seat's legal actions and a seeded
:class:`random.Random`, never the :class:`~unotable.game.Game` (hidden information is removed by
construction, docs/explanation/architecture.md). A bot that follows the public record (cards
played, draws, reveals) that a view alone does not keep overrides ``observe(events)``: the driver
feeds it, in order, every event its seat may see.

Out-of-turn actions (calling UNO, catching, jumping in) are offered through ``react`` (by default
``choose``); a seat that is not the active seat returns None to let the chance pass. The active
seat must return an action; it may return a call or a catch first, and is then asked again.

>>> from unotable.bots.random_bot import RandomBot
>>> isinstance(RandomBot(), Bot), RandomBot().name, Bot is Agent is BaseBot
(True, 'random', True)
"""
from __future__ import annotations

from collections.abc import Sequence

from unotable.actions import Action, Play
from unotable.agent import Agent
from unotable.cards import WILD_COLOR_ROULETTE, WILD_SHUFFLE_HANDS, WILD_SWAP_HANDS
from unotable.phase import Phase
from unotable.rules import ShuffleLastCard, SwapLastCard
from unotable.views import PlayerView

__all__ = ["Agent", "BaseBot", "Bot", "best_uno", "goes_out", "is_turn"]

Bot = Agent
"""The agent protocol, under the name the bots have always used."""

BaseBot = Agent
"""The base class of the built-in bots: the agent protocol with its no-op hooks."""


def is_turn(view: PlayerView) -> bool:
    """True when ``view``'s seat is the active seat of a round in progress."""
    return view.active == view.seat and view.phase < Phase.ROUND_OVER and view.in_round[view.seat]


def goes_out(view: PlayerView, action: Action) -> bool:
    """True when ``action`` plays the seat's last card and so ends the round with this seat the
    winner, whatever is hidden: not a Color Roulette (it is resolved first), nor a Swap Hands or
    Shuffle Hands whose rules swap or shuffle the hands when it is the last card. The search and
    the heuristic play such a card before anything else.

    >>> from unotable.actions import Draw
    >>> from unotable.cards import Card
    >>> from unotable.game import Game
    >>> view = Game.from_position({"hands": [["R7"], ["Y1", "Y2"]], "discard": ["R3"], "active": 0}).view(0)
    >>> goes_out(view, Play(Card.parse("R7"))), goes_out(view, Draw())
    (True, False)
    """
    if not isinstance(action, Play) or len(view.hand) != 1:
        return False
    c = action.card.id
    rules = view.ruleset
    if c == WILD_SWAP_HANDS and rules.swap_hands_last_card is SwapLastCard.SWAP:
        return False
    if c == WILD_SHUFFLE_HANDS and rules.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE:
        return False
    return c != WILD_COLOR_ROULETTE


def best_uno(actions: Sequence[Action]) -> list[Action]:
    """The actions with every play that could carry the UNO flag replaced by its flagged twin.

    A flagged play is never worse than the same play unflagged (CL-UNO-2), so bots keep only it.
    """
    flagged = {
        (a.card, a.color, a.target) for a in actions if isinstance(a, Play) and a.uno
    }
    return [
        a for a in actions
        if not (isinstance(a, Play) and not a.uno and (a.card, a.color, a.target) in flagged)
    ]
