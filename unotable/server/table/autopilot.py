"""What a person's seat plays when its turn timer runs out: the strongest fast bot's move, never a
draw that a play would have avoided.

The heuristic (:class:`unotable.bots.heuristic.HeuristicBot`, about 1.5 ms a decision: the
strongest of the bots that need no search) decides, having read the seat's whole record as a bot
of the seat would have. In a turn where the seat may play a card, it plays one: the heuristic
chooses among the plays alone, so a time-out never draws (under draw until playable, a chain of
draws) while a card could be played, and a playable drawn card is played rather than kept. Facing
a penalty it stacks, challenges or accepts as the heuristic does; a color is named as the
heuristic names it. The UNO flag rides on a play that leaves one card; calls and catches are not
made for the seat (they are not turn actions). Ties are broken by a generator seeded with the
number of actions so far, so the choice is a function of what the seat may see: it tells nobody
anything about the hidden cards or the seed.

>>> from unotable import Game
>>> g = Game.from_position({"ruleset": {"draw_until_playable": True}, "hands": [["R5", "G7", "B1"], ["Y2"]],
...                         "discard": ["R3"], "draw": ["Y9", "Y8"], "called": [1]})
>>> str(g.default_action(0)), str(timeout_action(g, 0))
('draw', 'R5')
"""
from __future__ import annotations

import random

from unotable.actions import Action, CallUno, Catch, Play
from unotable.bots.heuristic import HeuristicBot
from unotable.game import Game
from unotable.phase import Phase
from unotable.views import TableInfo

__all__ = ["timeout_action"]


def timeout_action(game: Game, seat: int, info: TableInfo | None = None) -> Action | None:
    """The action taken for ``seat`` when its time runs out (None when it has nothing to do: it is
    not the active seat, or the round is over). Always one of its legal turn actions."""
    fallback = game.default_action(seat)
    if fallback is None:
        return None
    legal: list[Action] = [a for a in game.legal_actions_for(seat) if not isinstance(a, CallUno | Catch)]
    if game.phase in (Phase.PLAY, Phase.PLAY_DRAWN):
        plays: list[Action] = [a for a in legal if isinstance(a, Play)]
        if plays:
            legal = plays  # play when it can: never a draw (or a kept card) instead
    bot = HeuristicBot()
    bot.observe(game.events_since(0, seat))
    view = game.view(seat, info)
    choice = bot.choose(view, legal, random.Random(len(game.actions)))
    return choice if choice in legal else fallback
