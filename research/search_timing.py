"""CPU time per decision of one bot in arena rounds (the arena's seats, seeds and rotation).

Plays ``--games`` rounds of ``unotable simulate``'s run on one core (no worker processes) and times
every ``choose`` call of the seats that play the first bot spec with :func:`time.process_time`;
prints the median, 99th percentile and maximum in milliseconds, over all its decisions and over
the searched ones (a bot with ``last_iterations`` that searched), and its win rate.

    .venv/bin/python -m research.search_timing --seats 4 --bots ismcts,heuristic --games 40
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence

from unotable.actions import Action
from unotable.bots import make_bot
from unotable.bots.arena import Config, play_game, wilson
from unotable.bots.base import Bot
from unotable.rules import Ruleset
from unotable.views import PlayerView


def timed(bot: Bot, all_ms: list[float], searched_ms: list[float]) -> Bot:
    """``bot`` with its decisions timed (CPU milliseconds), the searched ones also apart."""
    choose = bot.choose

    def timed_choose(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        start = time.process_time()
        action = choose(view, legal, rng)
        ms = (time.process_time() - start) * 1000.0
        all_ms.append(ms)
        if getattr(bot, "last_iterations", 0):
            searched_ms.append(ms)
        return action

    bot.choose = timed_choose  # type: ignore[method-assign]
    return bot


def _quantiles(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return {"n": len(s), "median": round(s[len(s) // 2], 2), "p99": round(p99, 2),
            "max": round(s[-1], 2)}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--bots", default="ismcts,heuristic")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--preset", default="official")
    p.add_argument("--option", action="append", default=[], help="OPTION=VALUE, as unotable simulate")
    args = p.parse_args(argv)
    specs = [s.strip() for s in args.bots.split(",")]
    bots = tuple(specs + [specs[-1]] * (args.seats - len(specs)))
    rules = Ruleset.preset(args.preset)
    if args.option:
        from unotable.bots.arena import _option

        rules = rules.replace(**dict(_option(o) for o in args.option))
    config = Config(rules.to_dict(), args.seats, bots, args.seed)
    all_ms: list[float] = []
    searched_ms: list[float] = []
    wins = 0

    def factory(spec: str) -> Bot:
        bot = make_bot(spec)
        return timed(bot, all_ms, searched_ms) if spec == specs[0] else bot

    started = time.perf_counter()
    for index in range(args.games):
        res = play_game(config, index, factory)
        wins += any(res.bots[w] == specs[0] for w in res.winners)
    lo, hi = wilson(wins, args.games)
    print(json.dumps({"bot": specs[0], "games": args.games, "wins": wins,
                      "win_rate": round(wins / args.games, 4),
                      "ci": [round(lo, 4), round(hi, 4)], "decision_ms": _quantiles(all_ms),
                      "searched_ms": _quantiles(searched_ms),
                      "seconds": round(time.perf_counter() - started, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
