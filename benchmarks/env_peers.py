"""The RL environments that cannot share unotable's virtual environment, each timed in its own.

``benchmarks/env_throughput.py --peers`` runs this after its own rows and prints these beside them
(its ratios are to RLCard's ``env.run`` of that run). Each peer gets a virtual environment under
``.venv-peers/NAME``, made on first use with the peer's pinned packages from the package index;
a peer whose packages the index does not serve is reported as unavailable with pip's reason,
never replaced by another version.

- ``openspiel crazy_eights``: OpenSpiel's Crazy Eights (the closest game OpenSpiel has: no UNO),
  driven from Python as an RL loop drives it: at each decision the acting player's observation
  tensor and legal actions, a uniformly random legal action applied; chance nodes (the deal, the
  draws) are sampled and not counted as steps.
- ``pettingzoo 1.20.1 uno_v4``: PettingZoo's UNO (an RLCard 1.0.5 wrapper, removed from PettingZoo
  in 1.22), the AEC loop of PettingZoo's docs with a random legal action from the mask.

Run one row directly (inside its environment): ``python benchmarks/env_peers.py --row openspiel``.

    .venv/bin/python benchmarks/env_peers.py --seconds 3 --seats 4
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENVS = ROOT / ".venv-peers"

PEERS: dict[str, dict[str, Any]] = {
    "openspiel": {"name": "openspiel 2.0.2 crazy_eights", "packages": ["open_spiel==2.0.2"]},
    "pettingzoo": {"name": "pettingzoo 1.20.1 uno_v4",
                   "packages": ["pettingzoo[classic]==1.20.1", "rlcard==1.0.5"]},
}


def openspiel_row(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("crazy_eights", {"players": seats})
    rng = random.Random(seed)
    episodes = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            player = state.current_player()
            state.observation_tensor(player)
            legal = state.legal_actions(player)
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        episodes += 1
    return episodes, steps, time.perf_counter() - start


def pettingzoo_row(seats: int, seconds: float, seed: int) -> tuple[int, int, float]:
    import numpy as np
    from pettingzoo.classic import uno_v4  # type: ignore[import-not-found]

    if seats != 2:
        raise SystemExit("uno_v4 plays two seats only")
    env = uno_v4.env()
    rng = np.random.default_rng(seed)
    episodes = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + episodes)
        for agent in env.agent_iter():
            obs, _, done, *_ = env.last()
            if done:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
            del agent
        episodes += 1
    return episodes, steps, time.perf_counter() - start


ROWS = {"openspiel": openspiel_row, "pettingzoo": pettingzoo_row}


def ensure_venv(peer: str) -> tuple[Path | None, str]:
    """The peer's Python, made on first use; (None, why) when its packages cannot be installed."""
    venv = VENVS / peer
    python = venv / "bin" / "python"
    stamp = venv / ".installed"
    packages = PEERS[peer]["packages"]
    if stamp.exists() and stamp.read_text() == " ".join(packages):
        return python, ""
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           *packages], capture_output=True, text=True)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.splitlines() if ln.startswith("ERROR")] or ["pip failed"]
        return None, lines[-1]
    stamp.write_text(" ".join(packages))
    return python, ""


def run_peer(peer: str, seats: int, seconds: float, seed: int) -> dict[str, Any]:
    """One peer's row: ``{"env", "steps_per_s", ...}`` or ``{"env", "unavailable": why}``."""
    name = PEERS[peer]["name"]
    python, why = ensure_venv(peer)
    if python is None:
        return {"env": name, "unavailable": why}
    done = subprocess.run([str(python), __file__, "--row", peer, "--seats", str(seats), "--seconds",
                           str(seconds), "--seed", str(seed)], capture_output=True, text=True)
    if done.returncode != 0:
        return {"env": name, "unavailable": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    row: dict[str, Any] = json.loads(done.stdout)
    return {"env": name, **row}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--row", choices=sorted(ROWS), help="time one row here (inside its environment)")
    parser.add_argument("--only", default="", help="comma-separated peers (default: all)")
    args = parser.parse_args(argv)
    if args.row:
        episodes, steps, elapsed = ROWS[args.row](args.seats, args.seconds, args.seed)
        print(json.dumps({"episodes": episodes, "steps": steps, "seconds": elapsed,
                          "steps_per_s": steps / elapsed}))
        return 0
    peers = [p for p in PEERS if not args.only or p in args.only.split(",")]
    results = [run_peer(p, args.seats, args.seconds, args.seed) for p in peers]
    print(json.dumps({"results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
