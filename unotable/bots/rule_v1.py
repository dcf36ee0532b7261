"""rule-v1: the baseline rule agent that RLCard ships for UNO (``UNORuleAgentV1``), in our rules.

RLCard's agent draws when drawing is legal (in RLCard that is exactly when nothing is playable),
plays a Wild Draw Four whenever it holds one, naming the color it holds most of, and otherwise plays
a uniformly random non-wild playable card (a random wild, color included, when only wilds are
playable). Re-expressed here, so that our bots are measured against a public reference:

- Normal turn: with no playable card, draw. Otherwise play a Wild Draw Four if one is playable
  (naming the most common color among its non-wild cards, ties in R, Y, G, B order, a random color
  when it holds none), else a random non-wild play, else a random wild play. It never draws while
  it holds a playable card, as in RLCard.
- After drawing a playable card: play it, by the same rule (RLCard plays a playable drawn card
  automatically).
- Facing a penalty: RLCard has neither challenges nor stacking; the agent's "play when you can,
  draw when you cannot" becomes: stack, bounce or defend by the same play rule when it can,
  otherwise accept. It never challenges.
- Naming a color (first-card wild, Color Roulette): its most common color. A required target seat
  (a 7 under seven_zero, Wild Swap Hands) is chosen at random, like any random legal action.
- UNO: RLCard has no UNO call, so nothing there punishes forgetting it; here the agent always puts
  the UNO flag on a play and calls when it must, and it never catches anyone or jumps in.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from unotable.actions import Action, CallUno, ChooseColor, Play
from unotable.bots.base import BaseBot, best_uno, is_turn
from unotable.cards import WILD_DRAW_FOUR, Color
from unotable.views import PlayerView

__all__ = ["RuleV1Bot"]


def most_common_color(view: PlayerView, rng: random.Random) -> Color:
    counts = [0, 0, 0, 0]
    for card in view.hand:
        if card.color is not None:
            counts[card.color] += 1
    best = max(counts)
    if best == 0:
        return Color(rng.randrange(4))
    return Color(counts.index(best))


class RuleV1Bot(BaseBot):
    """RLCard's UNORuleAgentV1 under our rules (see the module docstring)."""

    name = "rule-v1"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        for a in legal:
            if isinstance(a, CallUno):
                return a
        if not is_turn(view):
            return None
        legal = best_uno(legal)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays, rng)
        colors = [a for a in legal if isinstance(a, ChooseColor)]
        if colors:
            color = most_common_color(view, rng)
            named = [a for a in colors if a.color is color]
            return named[rng.randrange(len(named))]
        for word in ("draw", "accept", "pass"):
            for a in legal:
                if str(a) == word:
                    return a
        return legal[0]

    def _play(self, view: PlayerView, plays: list[Play], rng: random.Random) -> Action:
        wd4 = [a for a in plays if a.card.id == WILD_DRAW_FOUR]
        if wd4:
            color = most_common_color(view, rng)
            named = [a for a in wd4 if a.color is color or a.color is None]
            if named:
                return named[0]
            return wd4[0]
        plain = [a for a in plays if not a.card.is_wild]
        pool = plain or plays
        return pool[rng.randrange(len(pool))]
