"""Engine throughput: complete rounds per second, side by side with RLCard's raw UNO game.

Each round is a fresh ``Game.new`` (dealer selection, shuffle and deal included) played to its end
with a policy equivalent to RLCard's random agent: a uniformly random legal play (a wild's four
colors are four plays, as in RLCard), drawing only when nothing is playable, playing a drawn card
when it is playable, always calling UNO (the flag on the play), never challenging, always
accepting a penalty. It uses the engine's public fast path (``legal_action_list`` and
``apply_unchecked``), as bots and search do.

With the ``bench`` extra installed (``rlcard==1.2.0``), RLCard's raw ``UnoGame`` is run in the
same process with uniformly random legal actions, and the ratio is printed. The two engines take
turns every 20 rounds until each has run for ``--seconds``, so that both see the same load.

    .venv/bin/python benchmarks/throughput.py             # 3 s per configuration
    .venv/bin/python benchmarks/throughput.py --seconds 10 --json
"""
from __future__ import annotations

import argparse
import itertools
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from unotable import Game, Ruleset
from unotable.actions import ACCEPT, CHOOSE_COLOR, DRAW, PASS, PLAY, Action

CONFIGS = [("official", 2), ("official", 4), ("house", 4), ("no-mercy", 4)]


def choose(legal: list[Action], rng: random.Random) -> Action:
    """The RLCard-equivalent random policy over the active seat's legal actions ``legal``.

    Accept whenever a penalty is pending (never challenge or stack); else a uniformly random play
    (or color choice), keeping only the plays with the UNO flag once one has it; else draw or pass.
    """
    plays: list[Action] = []
    flagged: list[Action] | None = None
    fallback: Action | None = None
    for a in legal:
        kind = a.kind
        if kind == PLAY:
            if a.uno:  # type: ignore[union-attr]
                if flagged is None:  # once UNO can be called, keep only the flagged plays
                    flagged = plays = []
                plays.append(a)
            elif flagged is None:
                plays.append(a)
        elif kind == CHOOSE_COLOR:
            plays.append(a)
        elif kind == ACCEPT:
            return a
        elif kind in (DRAW, PASS) and fallback is None:
            fallback = a
    if plays:
        return plays[int(rng.random() * len(plays))]
    assert fallback is not None
    return fallback


def play_round(game: Game, rng: random.Random) -> int:
    """Play ``game``'s round to its end with :func:`choose`; return the number of decisions.

    The round is live while the active seat has a legal action (the engine guarantees one until
    the round is over, when the list is empty).
    """
    legal_action_list = game.legal_action_list
    apply_unchecked = game.apply_unchecked
    decisions = 0
    legal = legal_action_list()
    while legal:
        apply_unchecked(choose(legal, rng))
        decisions += 1
        legal = legal_action_list()
    return decisions


Chunk = Callable[[], tuple[int, int]]
"""Plays a few rounds and returns (rounds, decisions)."""


def unotable_chunks(preset: str, seats: int, seed: int = 0) -> Chunk:
    """Rounds of unotable under ``preset``, 20 at a time, each a fresh ``Game.new`` from the next seed."""
    rules = Ruleset.preset(preset)
    rng = random.Random(seed)
    game_seeds = itertools.count(seed)
    new = Game.new

    def chunk() -> tuple[int, int]:
        decisions = 0
        for game_seed in itertools.islice(game_seeds, 20):
            decisions += play_round(new(seats, rules, game_seed, events=False), rng)
        return 20, decisions

    return chunk


def rlcard_chunks(seats: int, seed: int = 0) -> Chunk | None:
    """Rounds of RLCard's raw ``UnoGame`` with uniformly random legal actions, 20 at a time."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=seats)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)

    def chunk() -> tuple[int, int]:
        decisions = 0
        for _ in range(20):
            state, _ = game.init_game()
            while not game.is_over():
                legal = state["legal_actions"]
                state, _ = game.step(legal[int(rng.random() * len(legal))])
                decisions += 1
        return 20, decisions

    return chunk


def measure(chunks: list[Chunk], seconds: float) -> list[tuple[int, int, float]]:
    """Run the chunks in turn until each has run ``seconds``: (rounds, decisions, seconds) each.

    Taking turns every 20 rounds (milliseconds) lets engines compared side by side share whatever
    else loads the machine, so that their ratio stays steady from run to run.
    """
    totals = [(0, 0, 0.0)] * len(chunks)
    while min(t[2] for t in totals) < seconds:
        for k, chunk in enumerate(chunks):
            start = time.perf_counter()
            rounds, decisions = chunk()
            elapsed = time.perf_counter() - start
            r, d, e = totals[k]
            totals[k] = (r + rounds, d + decisions, e + elapsed)
    return totals


def _row(engine: str, preset: str, seats: int, total: tuple[int, int, float]) -> dict[str, Any]:
    rounds, decisions, elapsed = total
    return {"engine": engine, "preset": preset, "seats": seats, "rounds": rounds,
            "games_per_s": rounds / elapsed, "decisions_per_s": decisions / elapsed,
            "decisions_per_game": decisions / rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time per engine and configuration (default 3)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    for preset, seats in CONFIGS:
        chunks = [unotable_chunks(preset, seats, args.seed)]
        theirs = rlcard_chunks(seats, args.seed) if preset == "official" else None
        if theirs is not None:
            chunks.append(theirs)
        totals = measure(chunks, args.seconds)
        ours = _row("unotable", preset, seats, totals[0])
        results.append(ours)
        if theirs is not None:
            results.append(_row("rlcard 1.2.0 UnoGame", "rlcard", seats, totals[1]))
            ours["ratio_vs_rlcard"] = ours["games_per_s"] / results[-1]["games_per_s"]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per row, "
          "engines taking turns")
    print(f"{'engine':<22} {'preset':<10} {'seats':>5} {'games/s':>9} {'decisions/s':>12} {'dec/game':>9} "
          f"{'vs RLCard':>9}")
    for r in results:
        ratio = f"{r['ratio_vs_rlcard']:.2f}x" if "ratio_vs_rlcard" in r else ""
        print(f"{r['engine']:<22} {r['preset']:<10} {r['seats']:>5} {r['games_per_s']:>9.0f} "
              f"{r['decisions_per_s']:>12.0f} {r['decisions_per_game']:>9.1f} {ratio:>9}")
    if not any("ratio_vs_rlcard" in r for r in results):
        print("(install the bench extra, `make bench`, to compare with RLCard)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
