"""Engine throughput of two source trees side by side, in one run (before and after a change).

Each tree plays the same seeded rounds with its own ``benchmarks/throughput.py`` policy and fast
path (``Game.new(..., events=False)``, ``legal_action_list``, ``apply_unchecked``), in its own
process (the two trees are the same package), alternating old, new, old, new, ... ``--rounds``
times. Rounds per second are counted in CPU time of that process (``time.process_time``), which
other load on the machine disturbs much less than wall time; the medians are compared.

    git worktree add /tmp/base HEAD~3          # the tree before the change
    .venv/bin/python benchmarks/compare_trees.py --old /tmp/base --new . --rounds 3
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_PROBE = """
import random, sys, time, json
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/benchmarks"]
import throughput
from unotable import Game, Ruleset
import unotable
assert unotable.__file__.startswith(sys.argv[1]), unotable.__file__
out = {}
for preset, seats in throughput.CONFIGS:
    rules = Ruleset.preset(preset)
    rng = random.Random(0)
    n = int(sys.argv[2]) * (4 if preset == "official" else 1)
    start = time.process_time()
    for i in range(n):
        throughput.play_round(Game.new(seats, rules, i, events=False), rng)
    out[f"{preset} {seats}"] = n / (time.process_time() - start)
print(json.dumps(out))
"""


def run(tree: Path, rounds: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    # run from the tree itself: a script given with -c puts the working directory first on sys.path
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tree), str(rounds)], cwd=tree,
                         env=env, capture_output=True, text=True, check=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--old", type=Path, required=True, help="the tree before the change")
    parser.add_argument("--new", type=Path, default=Path("."), help="the tree after the change")
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two trees")
    parser.add_argument("--games", type=int, default=400, help="rounds per configuration (x4 for official)")
    args = parser.parse_args(argv)
    samples: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for _ in range(args.rounds):
        for name, tree in (("old", args.old), ("new", args.new)):
            for key, rate in run(tree.resolve(), args.games).items():
                samples[name].setdefault(key, []).append(rate)
    print(f"{'configuration':<18} {'old rounds/s':>13} {'new rounds/s':>13} {'new/old':>8}  (CPU time)")
    for key in samples["old"]:
        old = statistics.median(samples["old"][key])
        new = statistics.median(samples["new"].get(key, [0.0]))
        print(f"{key + ' seats':<18} {old:>13.0f} {new:>13.0f} {new / old:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
