"""Write a bot and run the arena: a small strategy of our own against the built-in bots.

The bot is an `unotable.agent.Agent`: it gets its seat's view, its legal actions and a seeded RNG,
never the game (so it cannot see another hand), and returns an action, or None to let an
out-of-turn chance pass; the agent's other hooks keep their defaults. Registered
under a name, it plays in the arena like any built-in bot: seeded rounds with the seats rotated,
and a win rate with its 95% interval. The tutorial docs/tutorials/write-a-bot.md walks through it.

    .venv/bin/python examples/write_a_bot.py --games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Sequence

from unotable import Action, Play, PlayerView
from unotable.agent import Agent
from unotable.bots import register
from unotable.bots.arena import run_arena
from unotable.bots.base import is_turn


class ColorKeeper(Agent):
    """A colored card before a wild, UNO with the play, and the color it holds most of."""

    name = "color-keeper"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not is_turn(view):
            return None  # let out-of-turn chances pass (calls, catches, jump-ins)
        held = Counter(card.color for card in view.hand if not card.is_wild)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]  # draw, pass, accept, or a color to name

        def score(play: Play) -> tuple[bool, bool, int]:
            color = play.color if play.card.is_wild else play.card.color
            return (not play.card.is_wild, play.uno, held[color])

        return max(plays, key=score)


# Registered when the module is imported, so that the arena's worker processes know it too.
register("color-keeper", ColorKeeper)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A bot of our own in the arena.")
    parser.add_argument("--games", type=int, default=200, help="rounds per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    for opponent in ("random", "heuristic"):
        result = run_arena("official", 2, ["color-keeper", opponent], games=args.games,
                           seed=args.seed, jobs=args.jobs)
        print(result.table())
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
