"""The random bot: uniform over the legal actions.

On its turn it picks uniformly among all its legal actions (calls and catches included). Out of
turn it picks uniformly among its legal actions and "let it pass".

>>> import random
>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=1)
>>> s = g.active_seat
>>> a = RandomBot().choose(g.view(s), g.legal_action_list(s), random.Random(0))
>>> a in g.legal_actions
True
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from unotable.actions import Action
from unotable.bots.base import BaseBot, is_turn
from unotable.views import PlayerView

__all__ = ["RandomBot"]


class RandomBot(BaseBot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        if is_turn(view):
            return legal[rng.randrange(len(legal))]
        i = rng.randrange(len(legal) + 1)
        return legal[i] if i < len(legal) else None
