"""random-stuck: a random card from the hand, a draw only when nothing can be played.

This is the opponent that chausner/UnoAI measures its bots against (that project's "RandomBot";
our ``random`` bot is another one: uniform over every legal action, drawing included):

- Normal turn: among the cards of its hand that can be played, one at random (each copy counts, so
  two playable R7 are twice as likely as one G3), then a random variant of that play (a wild's
  color, a target seat). It draws only when no card can be played.
- After drawing a playable card: it always plays it.
- Naming a color (a first-card wild, Color Roulette): a random color.
- Facing a penalty: a random play where stacking, bouncing or defending is allowed, else a random
  choice between accepting and (where the rules allow it) challenging.
- UNO: the anchor's rules have no call, so the bot cannot forget one there; under rules that have a
  call it always puts the UNO flag on the play and calls when it must, so that its figures measure
  its card play. It never catches anyone and never jumps in.

>>> import random
>>> from unotable.game import Game
>>> g = Game.from_position({"hands": [["R7", "R7", "G2", "B5"], ["Y1"]], "discard": ["R3"]})
>>> bot = RandomStuckBot()
>>> picks = {str(bot.choose(g.view(0), g.legal_action_list(0), random.Random(i))) for i in range(40)}
>>> sorted(picks)
['R7']
>>> g = Game.from_position({"hands": [["G2", "B5"], ["Y1"]], "discard": ["R3"], "draw": ["Y9"]})
>>> str(bot.choose(g.view(0), g.legal_action_list(0), random.Random(0)))
'draw'
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from unotable.actions import Action, CallUno, Catch, Draw, Play
from unotable.bots.base import BaseBot, best_uno, is_turn
from unotable.views import PlayerView

__all__ = ["RandomStuckBot", "random_card_play"]


def random_card_play(view: PlayerView, plays: Sequence[Play], rng: random.Random) -> Play:
    """A card of the hand at random among those ``plays`` use (each copy counts), then one of its plays.

    >>> from unotable.cards import Card
    >>> from unotable.game import Game
    >>> g = Game.from_position({"hands": [["W", "R1"], ["Y1"]], "discard": ["R3"]})
    >>> plays = [a for a in g.legal_action_list(0) if isinstance(a, Play)]
    >>> cards = [random_card_play(g.view(0), plays, random.Random(i)).card for i in range(400)]
    >>> 150 < cards.count(Card.parse("W")) < 250  # one card in two, though W has four variants
    True
    """
    by_card: dict[int, list[Play]] = {}
    for a in plays:
        by_card.setdefault(a.card.id, []).append(a)
    ids = sorted(by_card)
    copies = [max(1, sum(1 for c in view.hand if c.id == cid)) for cid in ids]
    pick = rng.randrange(sum(copies))
    for cid, k in zip(ids, copies, strict=True):
        if pick < k:
            options = by_card[cid]
            return options[rng.randrange(len(options))]
        pick -= k
    raise AssertionError("unreachable: pick is below the total")  # pragma: no cover


class RandomStuckBot(BaseBot):
    """A random playable card; draws only when it has nothing to play (see the module docstring)."""

    name = "random-stuck"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        calls = [a for a in legal if isinstance(a, CallUno)]
        if not is_turn(view):
            return calls[0] if calls else None
        if calls:
            return calls[0]
        actions = best_uno(legal)
        plays = [a for a in actions if isinstance(a, Play)]
        if plays:
            return random_card_play(view, plays, rng)
        for a in actions:
            if isinstance(a, Draw):
                return a
        others = [a for a in actions if not isinstance(a, Catch)]
        return others[rng.randrange(len(others))]
