"""The anchors: our bots against chausner/UnoAI's published figures, under that project's rules.

chausner/UnoAI's README reports, over 10,000,000 games, MixBot winning 66.4% heads-up and 23.6% at
six seats (one MixBot, five random bots) against its random bot, a bot that plays a random playable
card and draws only when it has nothing to play (our ``random-stuck``), under its rules: a Wild Draw
Four is never challenged, there is no UNO call, a game is one round
(:data:`unotable.bots.mixbot.MIXBOT_RULES`).

This script first checks our re-implementation of MixBot against those two figures, then measures
heuristic and ismcts (and rule-v1) against random-stuck and against mixbot under the same rules,
heads-up and at six seats (the bot in one seat, the other bot in the rest), and mixbot2-tuned
(issue 34's tuned rule policy) against random-stuck and against mixbot2, every pairing through
the arena (seeded, seats rotated, the same deals for each rotation). It prints one table, with the
95% Wilson interval of each win rate, the fair share and the published figure where there is one.

    .venv/bin/python -m research.anchors --games 6000 --ismcts-games 120 --jobs 2
    .venv/bin/python -m research.anchors --only mixbot --games 60000 --json
    .venv/bin/python -m research.anchors --only random-stuck --bots mixbot2,mixbot --games 8004 --seeds 1,2,3
    .venv/bin/python -m research.anchors --bots mixbot2-tuned --games 24000 --seeds 1,2,3 --jobs 2
    .venv/bin/python -m research.anchors --bots ismcts --only mixbot2 --ismcts ismcts:opponents=mixbot2 \
        --ismcts-games 1000 --seeds 1,2,3,4 --jobs 2

A pairing whose bots all have a policy in the native core (random-stuck, mixbot, mixbot2 and
mixbot2-tuned, rule-v1)
runs there (``--engine auto``, the default; ``--engine python`` forces the Python arena; the same
seeds give the same results on both), some hundred times faster. ``--seeds`` pools the rounds
of several seed bases into one line (one Wilson interval over all of them).

``--games`` sets the rounds of the pairings without ismcts, ``--ismcts-games`` those with it (a
search bot takes about a fifth of a second per decision). Both are rounded up to a multiple of the
seat count, so that every rotation of the seats is played equally often.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from unotable.bots.arena import ENGINES, ArenaResult, ProgressBar, run_arena, wilson
from unotable.bots.mixbot import MIXBOT_RULES

PUBLISHED: dict[tuple[str, str, int], float] = {
    ("mixbot", "random-stuck", 2): 0.664,
    ("mixbot", "random-stuck", 6): 0.236,
    ("mixbot2", "random-stuck", 2): 0.688,
    ("mixbot2", "random-stuck", 6): 0.242,
}
"""chausner/UnoAI's README: MixBot (parameters optimised for win rate) and MixBot2 against its random bot."""

PAIRINGS: tuple[tuple[str, str], ...] = (
    ("mixbot2-tuned", "random-stuck"),
    ("mixbot2-tuned", "mixbot2"),
    ("mixbot2", "random-stuck"),
    ("mixbot", "random-stuck"),
    ("rule-v1", "random-stuck"),
    ("heuristic", "random-stuck"),
    ("ismcts", "random-stuck"),
    ("rule-v1", "mixbot"),
    ("heuristic", "mixbot"),
    ("ismcts", "mixbot"),
    ("ismcts", "mixbot2"),
)
SEATS = (2, 6)


@dataclass(frozen=True)
class Line:
    """One pairing's result: ``bot`` in one seat, ``other`` in the rest."""

    bot: str
    other: str
    seats: int
    rounds: int
    wins: int
    win_rate: float
    ci_low: float
    ci_high: float
    published: float | None
    seconds: float
    engine: str = "python"
    seeds: tuple[int, ...] = ()

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot, "against": self.other, "seats": self.seats, "rounds": self.rounds,
            "wins": self.wins, "win_rate": round(self.win_rate, 4),
            "ci95": [round(self.ci_low, 4), round(self.ci_high, 4)],
            "fair_share": round(1 / self.seats, 4), "published": self.published,
            "seconds": round(self.seconds, 1), "engine": self.engine,
            "rounds_per_s": round(self.rounds_per_s, 1), "seeds": list(self.seeds),
        }


def _rounds(wanted: int, seats: int) -> int:
    return max(seats, -(-wanted // seats) * seats)


def run_pairing(bot: str, other: str, seats: int, rounds: int, seed: int, jobs: int,
                quiet: bool = True, engine: str = "auto", seeds: tuple[int, ...] = ()) -> Line:
    """``rounds`` rounds of ``bot`` against ``seats - 1`` copies of ``other`` under MixBot's rules,
    for each seed of ``seeds`` (default: ``seed`` alone), pooled into one line.

    >>> line = run_pairing("mixbot", "random-stuck", 2, 4, seed=1, jobs=1)
    >>> line.rounds, 0 <= line.wins <= 4, line.published
    (4, True, 0.664)
    >>> run_pairing("mixbot2", "random-stuck", 2, 4, seed=1, jobs=1, seeds=(1, 2)).rounds
    8
    """
    lineup = [bot] + [other] * (seats - 1)
    wins = games = 0
    seconds = 0.0
    engines = set()
    for one in seeds or (seed,):
        progress = None if quiet else ProgressBar(sys.stderr)
        result: ArenaResult = run_arena(MIXBOT_RULES, seats, lineup, rounds, seed=one, jobs=jobs,
                                        progress=progress, engine=engine)
        row = result.row(bot)
        wins += row.wins
        games += row.seat_games
        seconds += result.seconds
        engines.add(result.engine)
    low, high = wilson(wins, games)
    return Line(bot, other, seats, games, wins, wins / games, low, high, PUBLISHED.get((bot, other, seats)),
                seconds, "+".join(sorted(engines)), tuple(seeds or (seed,)))


def table(lines: list[Line]) -> str:
    """The results as a text table, next to the published figures."""
    cols = ("bot", "against", "seats", "rounds", "win rate", "95% CI", "fair", "published", "engine",
            "rounds/s")
    rows = [
        (
            ln.bot, ln.other, str(ln.seats), str(ln.rounds), f"{100 * ln.win_rate:.1f}%",
            f"{100 * ln.ci_low:.1f}-{100 * ln.ci_high:.1f}%", f"{100 / ln.seats:.1f}%",
            "" if ln.published is None else f"{100 * ln.published:.1f}%", ln.engine,
            f"{ln.rounds_per_s:,.0f}",
        )
        for ln in lines
    ]
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]

    def fmt(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths,
                                                                                         strict=True)))

    out = [f"MixBot's rules ({MIXBOT_RULES.describe()}), one round per game, seats rotated", "",
           fmt(cols), "  ".join("-" * w for w in widths)]
    out += [fmt(r) for r in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--games", type=int, default=600, help="rounds of a pairing without ismcts")
    p.add_argument("--ismcts-games", type=int, default=60, help="rounds of a pairing with ismcts")
    p.add_argument("--seats", default="2,6", help="seat counts, comma-separated (default 2,6)")
    p.add_argument("--only", default="", help="only the pairings whose bots contain this name")
    p.add_argument("--ismcts", default="ismcts", help="the ismcts spec to measure (default ismcts)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seeds", default="", help="seed bases to pool, comma-separated (default: --seed alone)")
    p.add_argument("--bots", default="",
                   help="only the pairings whose first bot is one of these, comma-separated")
    p.add_argument("--engine", choices=ENGINES, default="auto",
                   help="auto (default): the native core where every bot has a policy there; native; python")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    seat_counts = [int(s) for s in args.seats.split(",") if s.strip()]
    seeds = tuple(int(s) for s in args.seeds.split(",") if s.strip())
    lines: list[Line] = []
    started = time.perf_counter()
    for bot, other in PAIRINGS:
        if args.only and args.only not in (bot, other):
            continue
        if args.bots and bot not in args.bots.split(","):
            continue
        if bot == "ismcts":
            bot = args.ismcts
        for seats in seat_counts:
            wanted = args.ismcts_games if bot.startswith("ismcts") else args.games
            rounds = _rounds(wanted, seats)
            if not args.quiet:
                print(f"{bot} against {seats - 1} {other}: {rounds} rounds", file=sys.stderr)
            lines.append(run_pairing(bot, other, seats, rounds, args.seed, args.jobs, args.quiet, args.engine,
                                     seeds))
    if args.json:
        print(json.dumps({"ruleset": MIXBOT_RULES.to_dict(), "seed": args.seed, "seeds": list(seeds),
                          "lines": [ln.to_dict() for ln in lines]}, indent=2))
    else:
        print(table(lines))
        which = f"seeds {', '.join(map(str, seeds))}" if seeds else f"seed {args.seed}"
        print(f"\n({which}, {time.perf_counter() - started:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
