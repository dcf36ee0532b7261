"""Do ismcts's playouts gain from the native core? Time per playout, then strength at equal budgets.

ismcts (``unotable.bots.ismcts``) plays each iteration's candidate forward with the fast Python
policy for ``horizon`` actions (4 in classic play) and then scores the position with a fitted
evaluation. The native core (``unotable_native``, built from native/) can play a whole round inside
C++ with one of its built-in policies (``Pool.selfplay``: random, random-stuck, rule-v1), so a
search could afford full playouts to the end of the round. This script measures both sides:

- ``--timing``: from decision positions of seeded four-seat heuristic rounds, the CPU cost of one
  playout start as ismcts does it now (copy, 4 policy steps, evaluation), of a full Python playout,
  and of a full native playout (loading the state into the core, playing, reading the winner back);
- ``--rounds N``: ismcts with native full playouts (``ismcts-native:policy=rule-v1``) against three
  heuristic bots, at the same iteration budget, next to the default ismcts on the same deals.

    .venv/bin/python -m research.native_playouts --timing
    .venv/bin/python -m research.native_playouts --rounds 200 --policy rule-v1

It needs the native core (``make`` builds it into .venv; ``pip install ./native``); without it,
the timing prints the Python side only and ``--rounds`` says so and stops.
"""
from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from typing import Any

from unotable.arbiter import Arbiter
from unotable.bots import make_bot, policy
from unotable.bots.arena import run_arena
from unotable.bots.determinize import Determinizer, Tracker
from unotable.bots.ismcts import IsmctsBot, Node, _turn_candidates, evaluate
from unotable.bots.registry import register
from unotable.game import Game
from unotable.phase import Phase
from unotable.resolve import apply
from unotable.rng import Rng
from unotable.state import State

unotable_native: Any
try:
    unotable_native = importlib.import_module("unotable_native")
except ImportError:  # pragma: no cover - the core is its own distribution
    unotable_native = None


class NativePlayoutIsmcts(IsmctsBot):
    """ismcts whose iterations end in a full native playout (one round, a built-in core policy)."""

    name = "ismcts-native"

    def __init__(self, policy: str = "rule-v1", **options: Any) -> None:
        super().__init__(**options)
        if unotable_native is None:
            raise ValueError("ismcts-native needs the native core (pip install ./native)")
        self.policy = policy
        self._pools: dict[tuple[str, int], Any] = {}

    def _pool(self, st: State) -> Any:
        key = (repr(st.rules), st.n)
        pool = self._pools.get(key)
        if pool is None:
            pool = self._pools[key] = unotable_native.Pool(1, st.rules, st.n)
        return pool

    def _descend(self, st: State, node: Node, me: int, partners: bool, horizon: int,
                 rng: random.Random) -> tuple[float, int]:
        if st.phase >= Phase.ROUND_OVER:
            return super()._descend(st, node, me, partners, horizon, rng)
        pool = self._pool(st)
        before = list(st.round_wins)
        pool.load_state(0, st)
        pool.selfplay(self.policy, 1, seed=rng.getrandbits(32))
        after = pool._core.get_state(0)["round_wins"]
        won = [s for s in range(st.n) if after[s] > before[s]]
        reward = 0.0
        if won:
            w = won[0]
            reward = 1.0 if (w % 2 == me % 2 if partners else w == me) else 0.0
        return reward, 4  # counted as the Python horizon's work, so both run the same iterations


def _positions(rounds: int) -> list[tuple[Any, list[Any]]]:
    out = []
    for seed in range(rounds):
        g = Game.new(seats=4, seed=seed)
        arbiter = Arbiter(g, {s: make_bot("heuristic") for s in range(4)},
                          {s: random.Random(s) for s in range(4)})
        while g.phase < Phase.ROUND_OVER:
            if g.active_seat == 0 and g.phase is Phase.PLAY:
                view = g.view(0)
                cands = _turn_candidates(g.legal_action_list(0), len(view.hand))
                if len(cands) > 1:
                    out.append((view, cands))
            if arbiter.step() is None:
                break
    return out


def search_cpu(positions: list[tuple[Any, list[Any]]], native: bool) -> tuple[float, float]:
    """CPU seconds per searched decision and per playout, over ``positions`` (a fresh bot each)."""
    cpu = 0.0
    playouts = 0
    for view, cands in positions:
        bot = NativePlayoutIsmcts(policy="rule-v1") if native else IsmctsBot()
        t = time.process_time()
        bot.search(view, list(cands), random.Random(1))
        cpu += time.process_time() - t
        playouts += bot.last_iterations
    return cpu / len(positions), cpu / max(1, playouts)


def timing(rounds: int, worlds: int) -> None:
    rng = random.Random(1)
    starts: list[State] = []
    positions = _positions(rounds)
    for view, cands in positions:
        det = Determinizer(view, Tracker(0))
        for _ in range(worlds):
            w = det.sample(rng)
            w.rng = Rng(rng.getrandbits(63))
            for a in cands:
                st = w.copy()
                apply(st, 0, a, None)
                policy.react(st)
                starts.append(st)
    n = len(starts)

    def per(seconds: float) -> str:
        return f"{1e6 * seconds / n:7.1f} us"

    t = time.process_time()
    for w in starts:
        st = w.copy()
        k = 0
        while st.phase < Phase.ROUND_OVER and k < 4:
            policy.step(st)
            k += 1
        if st.phase < Phase.ROUND_OVER:
            evaluate(st, 0, False)
    horizon = time.process_time() - t
    t = time.process_time()
    for w in starts:
        st = w.copy()
        k = 0
        while st.phase < Phase.ROUND_OVER and k < 3000:
            policy.step(st)
            k += 1
    full = time.process_time() - t
    print(f"{n} playout starts from {rounds} rounds' decisions of seat 0 ({worlds} worlds each)")
    print(f"python, ismcts's playout (copy, 4 policy steps, evaluation): {per(horizon)}")
    print(f"python, full playout with the policy:                        {per(full)}")
    if unotable_native is None:
        print("native: not installed")
        return
    pool = unotable_native.Pool(1, "official", 4)
    for name in ("rule-v1", "random-stuck"):
        load = play = read = 0.0
        for i, w in enumerate(starts):
            a = time.process_time()
            pool.load_state(0, w)
            b = time.process_time()
            pool.selfplay(name, 1, seed=i)
            c = time.process_time()
            pool._core.get_state(0)
            d = time.process_time()
            load, play, read = load + b - a, play + c - b, read + d - c
        print(f"native {name:12s} full playout: {per(load + play + read)} "
              f"(load {per(load)}, play {per(play)}, read back {per(read)})")
    few = positions[:30]
    for label, native in (("ismcts", False), ("ismcts-native:policy=rule-v1", True)):
        decision, playout = search_cpu(few, native)
        print(f"{label}: {decision:.3f} s CPU per searched decision ({1e6 * playout:.0f} us per "
              f"playout), {len(few)} decisions")


def strength(rounds: int, name: str, seed: int, jobs: int) -> None:
    register("ismcts-native", NativePlayoutIsmcts)
    for spec in (f"ismcts-native:policy={name}", "ismcts"):
        t = time.process_time()
        result = run_arena("official", 4, [spec, "heuristic", "heuristic", "heuristic"], rounds,
                           seed=seed, jobs=jobs)
        row = result.row(spec)
        print(f"{spec:32s} {row.wins}/{row.seat_games} = {100 * row.win_rate:.1f}% "
              f"[{100 * row.ci_low:.1f}-{100 * row.ci_high:.1f}] ({time.process_time() - t:.0f}s CPU)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="ismcts playouts in Python and on the native core")
    p.add_argument("--timing", action="store_true", help="time one playout each way")
    p.add_argument("--timing-rounds", type=int, default=6)
    p.add_argument("--worlds", type=int, default=10)
    p.add_argument("--rounds", type=int, default=0, help="four-seat rounds against three heuristic")
    p.add_argument("--policy", default="rule-v1", help="the core's playout policy")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    if unotable_native is None and args.rounds:
        print("native_playouts.py: the native core is not installed (pip install ./native)",
              file=sys.stderr)
        return 2
    if args.timing:
        timing(args.timing_rounds, args.worlds)
    if args.rounds:
        strength(args.rounds, args.policy, args.seed, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
