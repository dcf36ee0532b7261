"""Engine throughput: complete rounds per second, side by side with RLCard's raw UNO game.

Each round is a fresh ``Game.new`` (dealer selection, shuffle and deal included) played to its end
with a policy equivalent to RLCard's random agent: a uniformly random legal play (a wild's four
colors are four plays, as in RLCard), drawing only when nothing is playable, playing a drawn card
when it is playable, always calling UNO (the flag on the play), never challenging, always
accepting a penalty. It uses the engine's public fast path (``legal_action_list`` and
``apply_unchecked``), as bots and search do.

With the ``bench`` extra installed (``rlcard==1.2.0``), RLCard's raw ``UnoGame`` is run in the
same process with uniformly random legal actions, and the ratio is printed.

    .venv/bin/python benchmarks/throughput.py             # 3 s per configuration
    .venv/bin/python benchmarks/throughput.py --seconds 10 --json
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from unotable import Game, Phase, Ruleset
from unotable.actions import ACCEPT, CHOOSE_COLOR, DRAW, PASS, PLAY, Action

CONFIGS = [("official", 2), ("official", 4), ("house", 4), ("no-mercy", 4)]


def choose(game: Game, rng: random.Random) -> Action:
    """The RLCard-equivalent random policy over the active seat's legal actions."""
    legal = game.legal_action_list()
    plays: list[Action] = []
    fallback: Action | None = None
    flagged = False
    for a in legal:
        kind = a.kind
        if kind == PLAY:
            if a.uno:  # type: ignore[union-attr]
                if not flagged:  # once UNO can be called, keep only the flagged plays
                    flagged = True
                    plays = []
                plays.append(a)
            elif not flagged:
                plays.append(a)
        elif kind == CHOOSE_COLOR:
            plays.append(a)
        elif kind in (DRAW, ACCEPT, PASS) and fallback is None:
            fallback = a
    if game.phase is Phase.RESPOND:  # never challenge or stack: accept the penalty
        assert fallback is not None
        return fallback
    if plays:
        return plays[int(rng.random() * len(plays))]
    assert fallback is not None
    return fallback


def run_unotable(preset: str, seats: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    rules = Ruleset.preset(preset)
    rng = random.Random(seed)
    rounds = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while time.perf_counter() < deadline:
        for _ in range(20):
            game = Game.new(seats, rules, game_seed, events=False)
            game_seed += 1
            while game.phase < Phase.ROUND_OVER:
                game.apply_unchecked(choose(game, rng))
                decisions += 1
            rounds += 1
    elapsed = time.perf_counter() - start
    return {"engine": "unotable", "preset": preset, "seats": seats, "rounds": rounds,
            "games_per_s": rounds / elapsed, "decisions_per_s": decisions / elapsed,
            "decisions_per_game": decisions / rounds}


def run_rlcard(seats: int, seconds: float, seed: int = 0) -> dict[str, Any] | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=seats)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    rounds = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            state, _ = game.init_game()
            while not game.is_over():
                legal = state["legal_actions"]
                state, _ = game.step(legal[int(rng.random() * len(legal))])
                decisions += 1
            rounds += 1
    elapsed = time.perf_counter() - start
    return {"engine": "rlcard 1.2.0 UnoGame", "preset": "rlcard", "seats": seats, "rounds": rounds,
            "games_per_s": rounds / elapsed, "decisions_per_s": decisions / elapsed,
            "decisions_per_game": decisions / rounds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    for preset, seats in CONFIGS:
        ours = run_unotable(preset, seats, args.seconds, args.seed)
        results.append(ours)
        if preset == "official":
            theirs = run_rlcard(seats, args.seconds, args.seed)
            if theirs is not None:
                results.append(theirs)
                ours["ratio_vs_rlcard"] = ours["games_per_s"] / theirs["games_per_s"]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return 0
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per row")
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
