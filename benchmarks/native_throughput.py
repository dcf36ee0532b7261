"""The native core's throughput, side by side in one process with the Python engine and RLCard.

Rows, each in rounds and decisions per second on one core:

- ``rlcard 1.2.0 UnoGame``: RLCard's raw game with uniformly random legal actions (official
  rules only, with the ``bench`` extra installed), as benchmarks/throughput.py runs it;
- ``unotable python``: the Python engine's fast path (``legal_action_list``/``apply_unchecked``)
  with throughput.py's RLCard-equivalent random policy;
- ``native per call``: one table of ``unotable_native.Pool`` driven from Python, one ``legal`` and
  one ``play`` call per decision (notation strings), a random play or else the first turn action;
- ``native selfplay``: ``Pool.selfplay("random-stuck", ...)`` over 64 tables, the loop inside the
  core, each decision's 854-byte observation and 445-byte mask written;
- ``native selfplay no obs``: the same without the observations and masks (the rules alone);
- ``native step``: ``Pool.step`` over 1,024 tables, observations, masks, rewards and done flags
  written into numpy buffers, a numpy policy (the first legal index of each mask row: ``argmax``
  of the mask read as booleans) timed with it; decisions only (a row is one decision).

Engines take turns in short chunks until each has run ``--seconds`` per configuration, so that
they share whatever else loads the machine; the ratios are the figures to read.

    .venv/bin/python benchmarks/native_throughput.py --seconds 3 --json
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import throughput

CONFIGS = [("official", 2), ("official", 4), ("house", 4), ("no-mercy", 4)]
_WORDS = ("accept", "draw", "pass")


def native_per_call_chunks(preset: str, seats: int, seed: int) -> throughput.Chunk:
    from unotable_native import Pool

    pool = Pool(1, preset, seats, [seed])
    rng = random.Random(seed)
    next_seed = [seed]

    def chunk() -> tuple[int, int]:
        decisions = 0
        for _ in range(20):
            next_seed[0] += 1
            pool.reset(0, next_seed[0])
            while pool.phase(0) < 4:
                legal = pool.legal(0)
                plays = [a for a in legal if a[0] in "RYGBW" or a.startswith("color:")]
                if plays:
                    action = plays[int(rng.random() * len(plays))]
                else:
                    action = next(a for w in _WORDS for a in legal if a == w)
                pool.play(0, action)
                decisions += 1
        return 20, decisions

    return chunk


def native_selfplay_chunks(preset: str, seats: int, seed: int, tables: int = 64,
                           observe: bool = True) -> throughput.Chunk:
    from unotable_native import Pool

    from unotable.env.spaces import ruleset_block

    pool = Pool(tables, preset, seats, list(range(seed, seed + tables)), ruleset_block=ruleset_block)
    calls = [0]

    def chunk() -> tuple[int, int]:
        calls[0] += 1
        # 5 rounds a table a call: each call seeds the tables' policy RNGs (MT19937, 64 of them)
        stats = pool.selfplay("random-stuck", 5, seed=calls[0] * tables, observe=observe)
        return stats["rounds"], stats["decisions"]

    return chunk


def native_step_chunks(preset: str, seats: int, seed: int, tables: int = 1024) -> throughput.Chunk:
    import numpy as np
    from unotable_native import Pool

    from unotable.env.spaces import ruleset_block

    pool = Pool(tables, preset, seats, list(range(seed, seed + tables)), ruleset_block=ruleset_block)
    bufs = pool.buffers()
    def chunk() -> tuple[int, int]:
        for _ in range(4):
            # the first legal index of each row; read as booleans, numpy stops at the first one
            # (uint8's argmax scans the whole row: 5 times the time, more than the step itself)
            actions = bufs["mask"].view(np.bool_).argmax(axis=1).astype(np.int32)
            pool.step(actions, bufs)
        return 0, 4 * tables

    return chunk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per engine and configuration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    for preset, seats in CONFIGS:
        names = ["unotable python", "native per call", "native selfplay", "native selfplay no obs",
                 "native step"]
        chunks = [
            throughput.unotable_chunks(preset, seats, args.seed),
            native_per_call_chunks(preset, seats, args.seed),
            native_selfplay_chunks(preset, seats, args.seed),
            native_selfplay_chunks(preset, seats, args.seed, observe=False),
            native_step_chunks(preset, seats, args.seed),
        ]
        theirs = throughput.rlcard_chunks(seats, args.seed) if preset == "official" else None
        if theirs is not None:
            names.append("rlcard 1.2.0 UnoGame")
            chunks.append(theirs)
        totals = throughput.measure(chunks, args.seconds)
        rows: list[dict[str, Any]] = []
        for name, (rounds, decisions, elapsed) in zip(names, totals, strict=True):
            rows.append({"engine": name, "preset": preset, "seats": seats,
                         "rounds_per_s": rounds / elapsed if rounds else None,
                         "decisions_per_s": decisions / elapsed})
        python = rows[0]
        rlcard = rows[-1] if theirs is not None else None
        for row in rows:
            if row["rounds_per_s"] is not None:
                row["ratio_vs_python"] = row["rounds_per_s"] / python["rounds_per_s"]
            else:
                row["ratio_vs_python_decisions"] = row["decisions_per_s"] / python["decisions_per_s"]
            if rlcard is not None and row["rounds_per_s"] is not None:
                row["ratio_vs_rlcard"] = row["rounds_per_s"] / rlcard["rounds_per_s"]
        results += rows
    if args.json:
        print(json.dumps({"python": platform.python_version(), "seconds": args.seconds, "results": results},
                         indent=2))
        return 0
    print(f"Python {platform.python_version()}, {args.seconds:g} s per engine and row, engines taking turns")
    print(f"{'engine':<24} {'preset':<9} {'seats':>5} {'rounds/s':>10} {'decisions/s':>12} {'vs python':>10} "
          f"{'vs RLCard':>10}")
    for r in results:
        vs_py = r.get("ratio_vs_python", r.get("ratio_vs_python_decisions"))
        shown = f"{r['rounds_per_s']:.0f}" if r["rounds_per_s"] else "-"
        vs_rl = f"{r['ratio_vs_rlcard']:.1f}x" if "ratio_vs_rlcard" in r else ""
        print(f"{r['engine']:<24} {r['preset']:<9} {r['seats']:>5} {shown:>10} "
              f"{r['decisions_per_s']:>12.0f} {vs_py:>9.1f}x {vs_rl:>10}")
    print("(native step: decisions only, its ratio is to the Python engine's decisions/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
