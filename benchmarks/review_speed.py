"""How long ``unotable review`` takes on one seat of a finished match: Python against the native core.

Plays one match of ``--preset`` (house rules by default, four seats of the heuristic bot, to the
preset's target score, seeded), then reviews one seat's decisions with each engine and budget in
turn, in this one run, and prints for each the decisions judged, the CPU seconds, the wall seconds
how many judged decisions had a cost "within the noise" (under two standard errors), and how many
of the five costliest decisions the report lists are within the noise:

    .venv/bin/python benchmarks/review_speed.py                       # python 400, native 400/1000
    .venv/bin/python benchmarks/review_speed.py --runs native:1000:1 native:1000:2
    .venv/bin/python benchmarks/review_speed.py --max-rounds 3 --runs python:100 native:1000

A run is ``ENGINE:WORLDS[:THREADS]``. CPU time is the process's (all threads); wall time is what a
person waits, and depends on the other load of the machine.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from unotable import Game
from unotable.arbiter import Arbiter
from unotable.bots import make_bot, native_search
from unotable.bots.review import review_record
from unotable.phase import Phase
from unotable.record import Record
from unotable.rules import Ruleset


def play_match(preset: str, seats: int, seed: int, max_rounds: int) -> Record:
    """One match of heuristic bots (at most ``max_rounds`` rounds), as a record."""
    game = Game.new(seats, Ruleset.preset(preset), seed)
    bots = {s: make_bot("heuristic") for s in range(seats)}
    arbiter = Arbiter(game, bots, {s: random.Random(seed * 31 + s) for s in range(seats)})
    for _ in range(max_rounds):
        arbiter.play_round()
        if game.phase is not Phase.ROUND_OVER:
            break
        arbiter.deal()
    return Record.from_game(game)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="house")
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--seat", type=int, default=0, help="the seat reviewed")
    p.add_argument("--seed", type=int, default=9)
    p.add_argument("--max-rounds", type=int, default=20)
    p.add_argument("--runs", nargs="+", default=["python:400", "native:400", "native:1000"],
                   metavar="ENGINE:WORLDS[:THREADS]")
    args = p.parse_args(argv)
    record = play_match(args.preset, args.seats, args.seed, args.max_rounds)
    rounds = replay_rounds(record)
    print(f"match: {args.preset}, {args.seats} seats, seed {args.seed}: {rounds} rounds, "
          f"{len(record.actions)} actions; seat {args.seat} reviewed")
    print(f"{'engine':>8} {'worlds':>7} {'threads':>7} {'decisions':>9} {'cpu s':>8} {'wall s':>8} "
          f"{'noise':>6} {'of top 5':>8}")
    for run in args.runs:
        engine, worlds, *rest = run.split(":")
        threads = int(rest[0]) if rest else None
        if engine == "native" and not native_search.available():
            print(f"{engine:>8} {worlds:>7}: the native core is not built", file=sys.stderr)
            continue
        cpu, wall = time.process_time(), time.perf_counter()
        review = review_record(record, args.seat, worlds=int(worlds), seed=1, engine=engine, threads=threads)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        judged = review.decisions
        noise = sum(1 for d in judged if d.best != d.played and 0 < d.cost < 2 * d.stderr)
        top = sum(1 for d in review.worst(5) if d.cost < 2 * d.stderr)
        print(f"{engine:>8} {worlds:>7} {threads or '-':>7} {len(judged):>9} {cpu:>8.1f} {wall:>8.1f} "
              f"{noise:>6} {top:>8}")
    return 0


def replay_rounds(record: Record) -> int:
    """The number of rounds the record's match played."""
    from unotable.record import replay

    return replay(record).round_no


if __name__ == "__main__":
    raise SystemExit(main())
