"""Tune mixbot2's options by coordinate ascent in the native core, against mixbot2.

The options (``unotable.bots.mixbot2.MixBot2``): ``wild_limit``, ``wd4_limit``,
``drawn_wild_limit`` (each moved by one), ``ranking`` and ``attack`` (each moved by swapping two
neighbours). Each step plays the current set and every neighbour of it on the same fresh rounds
(seed ``--seed * 1000 + step``, seats rotated on shared deals, MixBot's rules): ``--rounds`` rounds
against ``mixbot2`` at each seat count of ``--seats`` (heads-up by default; ``2,6`` adds six
seats against five mixbot2). The score is the win rate scaled so that a fair share is 0.5 at
every seat count (the rate times seats / 2), averaged over the seat counts. The best neighbour
replaces the current set when its score beats the current's by more than ``--margin``; the search
stops when no neighbour does (a local optimum at this noise), after ``--steps`` steps or after
``--minutes``. Each step prints every candidate's win rate with its 95% Wilson interval.

    .venv/bin/python -m research.tune_mixbot2 --rounds 40000 --steps 6 --jobs 2
    .venv/bin/python -m research.tune_mixbot2 --start "wild_limit=3:wd4_limit=1" --rounds 100000

``--start`` resumes from a set (the options of a ``mixbot2:`` spec, ``/`` between a ranking's
names). The result is printed as a bot spec; verify it on other seeds with ``unotable simulate``.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from unotable.bots.arena import run_arena, wilson
from unotable.bots.mixbot import MIXBOT_RULES
from unotable.bots.mixbot2 import ATTACK, KINDS, RANKING, MixBot2
from unotable.bots.registry import parse_bot_spec

LIMIT_MAX = 12


@dataclass(frozen=True)
class Params:
    """One set of mixbot2's options (rankings best first, as names of ``KINDS``)."""

    wild_limit: int = 2
    wd4_limit: int = 4
    drawn_wild_limit: int = 2
    ranking: tuple[str, ...] = tuple(RANKING.split(","))
    attack: tuple[str, ...] = tuple(ATTACK.split(","))

    def spec(self) -> str:
        """The bot spec (``/`` in the rankings, so that ``--bots`` can part seats with commas)."""
        return (f"mixbot2:wild_limit={self.wild_limit}:wd4_limit={self.wd4_limit}"
                f":drawn_wild_limit={self.drawn_wild_limit}:ranking={'/'.join(self.ranking)}"
                f":attack={'/'.join(self.attack)}")

    @classmethod
    def parse(cls, text: str) -> Params:
        """A set from a spec's options (``wild_limit=3:ranking=D2/S/N/R/W/W4``) or a whole spec;
        the options not named keep mixbot2's defaults. Checked by building the bot."""
        text = text.strip()
        if not text.startswith("mixbot2"):
            text = "mixbot2:" + text if text else "mixbot2"
        _, options = parse_bot_spec(text)
        bot = MixBot2(**options)  # type: ignore[arg-type]  # a bad option raises ValueError / TypeError
        return cls(bot.wild_limit, bot.wd4_limit, bot.drawn_wild_limit, tuple(bot.ranking.split(",")),
                   tuple(bot.attack.split(",")))

    def neighbours(self) -> list[tuple[str, Params]]:
        """Each set one move away, with what the move is."""
        out: list[tuple[str, Params]] = []
        for name in ("wild_limit", "wd4_limit", "drawn_wild_limit"):
            value = getattr(self, name)
            for v in (value - 1, value + 1):
                if 0 <= v <= LIMIT_MAX:
                    out.append((f"{name} {value}->{v}", replace(self, **{name: v})))
        for name in ("ranking", "attack"):
            order: tuple[str, ...] = getattr(self, name)
            for i in range(len(order) - 1):
                swapped = list(order)
                swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
                moved = replace(self, ranking=tuple(swapped)) if name == "ranking" else replace(
                    self, attack=tuple(swapped))
                out.append((f"{name} {order[i]}<->{order[i + 1]}", moved))
        return out


@dataclass(frozen=True)
class Score:
    """A set's result on one step's rounds: per seat count, (wins, seat-games)."""

    results: tuple[tuple[int, int, int], ...]  # (seats, wins, seat-games)

    @property
    def value(self) -> float:
        return sum(w / g * s / 2 for s, w, g in self.results) / len(self.results)

    def text(self) -> str:
        parts = []
        for s, w, g in self.results:
            lo, hi = wilson(w, g)
            parts.append(f"{s} seats {100 * w / g:.2f}% [{100 * lo:.2f}-{100 * hi:.2f}] of {g}")
        return "; ".join(parts)


def evaluate(params: Params, seats: Sequence[int], rounds: int, seed: int, jobs: int) -> Score:
    """``rounds`` rounds of the set against mixbot2 at each seat count, in the core."""
    spec = params.spec()
    out = []
    for n in seats:
        games = max(n, -(-rounds // n) * n)
        result = run_arena(MIXBOT_RULES, n, [spec] + ["mixbot2"] * (n - 1), games, seed=seed, jobs=jobs,
                           engine="native")
        row = result.row(spec)
        out.append((n, row.wins, row.seat_games))
    return Score(tuple(out))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--start", default="",
                   help="the set to start from (mixbot2 spec options); default mixbot2's")
    p.add_argument("--rounds", type=int, default=40_000, help="rounds per candidate and seat count per step")
    p.add_argument("--seats", default="2", help="seat counts, comma-separated (default 2: heads-up)")
    p.add_argument("--seed", type=int, default=1, help="step k plays the rounds of seed SEED * 1000 + k")
    p.add_argument("--steps", type=int, default=20, help="at most this many steps")
    p.add_argument("--minutes", type=float, default=60.0, help="stop starting steps after this long")
    p.add_argument("--margin", type=float, default=0.002, help="a neighbour must beat the current by this")
    p.add_argument("--jobs", type=int, default=1, help="threads of the core")
    args = p.parse_args(argv)
    try:
        current = Params.parse(args.start) if args.start else Params()
        seats = [int(s) for s in args.seats.split(",") if s.strip()]
    except (ValueError, TypeError) as exc:
        p.error(str(exc))
    if not seats or args.rounds < 1:
        p.error("name at least one seat count and one round")
    started = time.perf_counter()
    print(f"start: {current.spec()}; kinds {', '.join(KINDS)}; {args.rounds} rounds per candidate "
          "and seat count")
    for step in range(args.steps):
        if time.perf_counter() - started > 60 * args.minutes:
            print("stopped: --minutes reached")
            break
        seed = args.seed * 1000 + step
        base = evaluate(current, seats, args.rounds, seed, args.jobs)
        print(f"step {step} (seed {seed}): current {base.text()}", flush=True)
        best: tuple[float, str, Params, Score] | None = None
        for move, cand in current.neighbours():
            score = evaluate(cand, seats, args.rounds, seed, args.jobs)
            print(f"  {move:32} {score.value - base.value:+.4f}  {score.text()}", flush=True)
            if best is None or score.value > best[0]:
                best = (score.value, move, cand, score)
        if best is None or best[0] <= base.value + args.margin:
            print(f"step {step}: no neighbour beats the current by more than {args.margin} "
                  f"({time.perf_counter() - started:.0f}s): a local optimum")
            break
        current = best[2]
        print(f"step {step}: take {best[1]} ({best[0] - base.value:+.4f}): {current.spec()} "
              f"({time.perf_counter() - started:.0f}s)", flush=True)
    print(f"result: {current.spec()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
