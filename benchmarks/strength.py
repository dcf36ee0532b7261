"""Bot strength: cross-tables in 2-seat and 4-seat official play, and ismcts against heuristic
under house and no-mercy, all through the arena (seeded, seats rotated), with the targets checked.

- 2-seat table: the row bot's share of the rounds it plays heads-up against the column bot
  (fair share 50%).
- 4-seat table: the row bot's share of the rounds it plays against three copies of the column bot
  (fair share 25%).
- ismcts against three heuristic bots (4 seats) and heads-up (2 seats) under ``house`` and
  ``no-mercy``.
- timing: ismcts's CPU time per searched decision, per preset (``--timing-rounds`` rounds each).

Targets: heuristic beats rule-v1 and random with the whole 95% interval above the fair share (in
both tables); ismcts wins at least 35% of 4-seat rounds against three heuristic bots and at least
60% of 2-seat rounds against heuristic, at its default budget (official).

    .venv/bin/python benchmarks/strength.py --games 2000 --ismcts-games 150 --target-games 600 --jobs 2
    .venv/bin/python benchmarks/strength.py --only targets --json

ismcts is slow (a fifth of a second per decision), so ``--ismcts-games`` sets the rounds of the
pairings that involve it (divided by the number of ismcts seats, so that a row against three ismcts
bots costs about the same), and ``--target-games`` those of the two target pairings.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from unotable.bots.arena import ArenaResult, Config, ProgressBar, play_game, run_arena

BOTS = ("random", "rule-v1", "heuristic", "ismcts")
SECTIONS = ("cross2", "cross4", "house", "no-mercy", "timing")


def _run(preset: str, seats: int, bots: list[str], games: int, args: argparse.Namespace) -> ArenaResult:
    label = f"{preset} {seats} seats: {', '.join(bots)}"
    if not args.quiet:
        print(label, file=sys.stderr)
    progress = None if args.quiet else ProgressBar(sys.stderr)
    return run_arena(preset, seats, bots, games, seed=args.seed, jobs=args.jobs, progress=progress)


def _games(bots: list[str], args: argparse.Namespace) -> int:
    """Rounds for a lineup: ``--games``, or for lineups with ismcts ``--ismcts-games`` divided by
    the number of ismcts seats (``--target-games`` for the two target pairings)."""
    searching = sum(1 for b in bots if b == args.ismcts)
    if not searching:
        return int(args.games)
    if searching == 1 and len(set(bots)) == 2 and "heuristic" in bots:
        return int(args.target_games)
    return max(1, int(args.ismcts_games) // searching)


def _cell(result: ArenaResult, bot: str) -> dict[str, Any]:
    row = result.row(bot)
    return {
        "win_rate": round(row.win_rate, 4),
        "ci95": [round(row.ci_low, 4), round(row.ci_high, 4)],
        "fair_share": row.fair_share,
        "rounds": result.games,
        "mean_points": round(row.mean_points, 2),
        "seconds": round(result.seconds, 1),
    }


def cross_table(seats: int, bots: list[str], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Row bot against the column bot (heads-up with 2 seats, against three copies with 4)."""
    table: dict[str, dict[str, Any]] = {}
    for a in bots:
        table[a] = {}
        for b in bots:
            if a == b:
                continue
            lineup = [a, b] if seats == 2 else [a, b, b, b]
            if seats == 2 and b in table and a in table[b]:  # reuse the mirror game
                mirror = table[b][a]
                table[a][b] = {
                    **mirror,
                    "win_rate": round(1 - mirror["win_rate"] - mirror.get("no_winner", 0), 4),
                    "ci95": [round(1 - mirror["ci95"][1], 4), round(1 - mirror["ci95"][0], 4)],
                }
                continue
            result = _run("official", seats, lineup, _games(lineup, args), args)
            table[a][b] = _cell(result, a)
            table[a][b]["no_winner"] = round(result.no_winner / result.games, 4)
    return table


def print_table(title: str, table: dict[str, dict[str, Any]], bots: list[str]) -> None:
    print(f"\n{title}")
    width = max(len(b) for b in bots) + 2
    cellw = 22
    print(" " * width + "".join(b.rjust(cellw) for b in bots))
    for a in bots:
        cells = []
        for b in bots:
            c = table.get(a, {}).get(b)
            if c is None:
                cells.append("-".rjust(cellw))
            else:
                lo, hi = c["ci95"]
                cells.append(f"{100 * c['win_rate']:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}]".rjust(cellw))
        print(a.ljust(width) + "".join(cells))


class _Timed:
    """A bot that records the CPU time of each of its decisions that needed a search."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot = bot
        self.times = times

    def observe(self, events: Any) -> None:
        self.bot.observe(events)

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        t0 = time.process_time()
        choice = self.bot.choose(view, legal, rng)
        if getattr(self.bot, "last_iterations", 0):
            self.times.append(time.process_time() - t0)
        return choice


def timing(spec: str, rounds: int, seed: int) -> dict[str, Any]:
    """CPU seconds per decision of ``spec`` (one seat, against heuristic bots), per preset and seats.

    The rounds are the arena's (:func:`unotable.bots.arena.play_game`), with ``spec``'s bot wrapped
    to time it. Only the decisions that needed a search count (forced and obvious moves take no
    time); CPU time of this process (``time.process_time``) is measured, so other load on the
    machine does not inflate it.
    """
    from unotable import Ruleset
    from unotable.bots import make_bot

    out: dict[str, Any] = {}
    for preset, seats in (("official", 2), ("official", 4), ("house", 4), ("no-mercy", 4)):
        times: list[float] = []

        def factory(name: str, times: list[float] = times) -> Any:
            bot = make_bot(name)
            return _Timed(bot, times) if name == spec else bot

        config = Config(Ruleset.preset(preset).to_dict(), seats, (spec,) + ("heuristic",) * (seats - 1), seed)
        for r in range(rounds):
            play_game(config, r, factory)
        times.sort()
        out[f"{preset}, {seats} seats"] = {
            "searched_moves": len(times),
            "mean_s": round(sum(times) / len(times), 4) if times else None,
            "p95_s": round(times[int(0.95 * (len(times) - 1))], 4) if times else None,
            "max_s": round(times[-1], 4) if times else None,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400, help="rounds per pairing (default: 400)")
    p.add_argument("--ismcts-games", type=int, default=None,
                   help="rounds per pairing that involves ismcts (default: --games)")
    p.add_argument("--target-games", type=int, default=None,
                   help="rounds of ismcts against heuristic, the target pairings (default: --ismcts-games)")
    p.add_argument("--jobs", type=int, default=2, help="parallel processes (default: 2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", default=",".join(BOTS), help="bots of the cross-tables (comma-separated specs)")
    p.add_argument("--ismcts", default="ismcts", help="the ismcts spec to measure (default: its defaults)")
    p.add_argument("--only", default=",".join(SECTIONS),
                   help=f"sections to run, comma-separated: {', '.join(SECTIONS)}, or 'targets' "
                        "(only the pairings the targets need)")
    p.add_argument("--timing-rounds", type=int, default=4, help="rounds per preset for the timing section")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--json-out", metavar="FILE", help="also write the results as JSON to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    if args.ismcts_games is None:
        args.ismcts_games = args.games
    if args.target_games is None:
        args.target_games = args.ismcts_games
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    bots = [args.ismcts if b == "ismcts" else b for b in bots]
    ismcts = args.ismcts
    only = {s.strip() for s in args.only.split(",")}
    started = time.perf_counter()
    out: dict[str, Any] = {"games": args.games, "ismcts_games": args.ismcts_games, "seed": args.seed,
                           "ismcts": ismcts}
    if "targets" in only:
        pairs: dict[str, Any] = {}
        for seats in (2, 4):
            for opp in ("rule-v1", "random"):
                lineup = ["heuristic", opp] if seats == 2 else ["heuristic", opp, opp, opp]
                result = _run("official", seats, lineup, _games(lineup, args), args)
                pairs[f"heuristic vs {opp}, {seats} seats"] = _cell(result, "heuristic")
            lineup = [ismcts, "heuristic"] if seats == 2 else [ismcts, "heuristic", "heuristic", "heuristic"]
            pairs[f"ismcts vs heuristic, {seats} seats"] = _cell(
                _run("official", seats, lineup, _games(lineup, args), args), ismcts)
        out["targets_only"] = pairs
        cross2 = {"heuristic": {"rule-v1": pairs["heuristic vs rule-v1, 2 seats"],
                                "random": pairs["heuristic vs random, 2 seats"]},
                  ismcts: {"heuristic": pairs["ismcts vs heuristic, 2 seats"]}}
        cross4 = {"heuristic": {"rule-v1": pairs["heuristic vs rule-v1, 4 seats"],
                                "random": pairs["heuristic vs random, 4 seats"]},
                  ismcts: {"heuristic": pairs["ismcts vs heuristic, 4 seats"]}}
    else:
        cross2 = cross_table(2, bots, args) if "cross2" in only else {}
        cross4 = cross_table(4, bots, args) if "cross4" in only else {}
    out["cross2"] = cross2
    out["cross4"] = cross4
    for preset in ("house", "no-mercy"):
        if preset in only:
            out[preset] = {
                "4 seats": _cell(_run(preset, 4, [ismcts, "heuristic"], args.ismcts_games, args), ismcts),
                "2 seats": _cell(_run(preset, 2, [ismcts, "heuristic"], args.ismcts_games, args), ismcts),
            }
    if "timing" in only:
        out["timing"] = timing(ismcts, args.timing_rounds, args.seed)
    targets = []

    def target(name: str, cell: dict[str, Any] | None, ok: bool | None) -> None:
        targets.append({"target": name, "met": ok, "measured": cell})

    for seats, table in ((2, cross2), (4, cross4)):
        for opp in ("rule-v1", "random"):
            cell = table.get("heuristic", {}).get(opp)
            target(f"heuristic beats {opp}, {seats} seats: 95% CI above the fair share", cell,
                   None if cell is None else cell["ci95"][0] > cell["fair_share"])
    cell = cross4.get(ismcts, {}).get("heuristic")
    target("ismcts wins >= 35% of 4-seat rounds against three heuristic", cell,
           None if cell is None else cell["win_rate"] >= 0.35)
    cell = cross2.get(ismcts, {}).get("heuristic")
    target("ismcts wins >= 60% of 2-seat rounds against heuristic", cell,
           None if cell is None else cell["win_rate"] >= 0.60)
    out["targets"] = targets
    out["seconds"] = round(time.perf_counter() - started, 1)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(out, f, indent=2)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    names = sorted({*cross2, *(k for row in cross2.values() for k in row)}, key=_order)
    if cross2:
        print_table("official, 2 seats: row bot's share of heads-up rounds against the column bot "
                    "(fair 50%)", cross2, names)
    names = sorted({*cross4, *(k for row in cross4.values() for k in row)}, key=_order)
    if cross4:
        print_table("official, 4 seats: row bot's share of rounds against three column bots (fair 25%)",
                    cross4, names)
    for preset in ("house", "no-mercy"):
        if preset in out:
            print(f"\n{preset}: {ismcts} against heuristic")
            for label, c in out[preset].items():
                lo, hi = c["ci95"]
                print(f"  {label}: {100 * c['win_rate']:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] "
                      f"(fair {100 * c['fair_share']:.0f}%, {c['rounds']} rounds)")
    if "timing" in out:
        print(f"\n{ismcts}: CPU time per searched decision (one core, against heuristic bots)")
        for label, t in out["timing"].items():
            print(f"  {label}: {t['searched_moves']} moves, mean {t['mean_s']:.3f}s, p95 {t['p95_s']:.3f}s, "
                  f"max {t['max_s']:.3f}s")
    print("\ntargets")
    for t in targets:
        mark = {True: "met", False: "NOT met", None: "not measured"}[t["met"]]
        c = t["measured"]
        shown = ""
        if c is not None:
            shown = f": {100 * c['win_rate']:.1f}% [{100 * c['ci95'][0]:.1f}-{100 * c['ci95'][1]:.1f}]"
        print(f"  {mark:12s} {t['target']}{shown}")
    print(f"\n({out['seconds']}s)")
    return 0


def _order(name: str) -> int:
    for i, b in enumerate(BOTS):
        if name.startswith(b):
            return i
    return len(BOTS)


if __name__ == "__main__":
    sys.exit(main())
