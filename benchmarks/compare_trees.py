"""Engine throughput of two source trees side by side, in one run (before and after a change).

Each tree's ``benchmarks/throughput.py`` measure runs in its own process (the two trees are the
same package), alternating old, new, old, new, ... for ``--rounds`` rounds of ``--seconds`` per
configuration, so that both see the same machine load; the medians are compared.

    git worktree add /tmp/base HEAD~3          # the tree before the change
    .venv/bin/python benchmarks/compare_trees.py --old /tmp/base --new . --rounds 5 --seconds 2
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def run(tree: Path, seconds: float) -> dict[tuple[str, int], float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, str(tree / "benchmarks" / "throughput.py"), "--seconds", str(seconds), "--json"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    rows = json.loads(out)
    rows = rows["results"] if isinstance(rows, dict) else rows
    return {(r["preset"], r["seats"]): r["games_per_s"] for r in rows if r.get("engine", "").startswith("unotable")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, required=True, help="the tree before the change")
    parser.add_argument("--new", type=Path, default=Path("."), help="the tree after the change")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    samples: dict[str, dict[tuple[str, int], list[float]]] = {"old": {}, "new": {}}
    for _ in range(args.rounds):
        for name, tree in (("old", args.old), ("new", args.new)):
            for key, rate in run(tree.resolve(), args.seconds).items():
                samples[name].setdefault(key, []).append(rate)
    print(f"{'configuration':<18} {'old rounds/s':>13} {'new rounds/s':>13} {'new/old':>8}")
    for key in samples["old"]:
        old = statistics.median(samples["old"][key])
        new = statistics.median(samples["new"].get(key, [0.0]))
        print(f"{key[0] + ' ' + str(key[1]) + ' seats':<18} {old:>13.0f} {new:>13.0f} {new / old:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
