"""RL environment throughput: steps per second of unotable.env side by side with RLCard's UNO env.

Every row runs official UNO with uniformly random legal actions and counts *environment steps*
(one decision of one seat each), in one process, the rows taking turns in short chunks until each
has run ``--seconds`` (so that all of them share whatever else loads the machine; compare the
ratios, which hold steady, rather than the absolute figures, which do not). That is one repeat;
``--repeats`` (default 5) runs the whole round again, and each row reports the **median** of its
repeats' steps per second (and their range), the ratios taken between medians: a peer's single
slow or fast run moves no headline. ``--quick`` is a one-minute setting (3 repeats of 0.25 s per
row, 256 tables).

- ``unotable raw``: the engine's fast path (``legal_action_list`` + ``apply_unchecked``), no
  observation: the reference that the ratios are taken against.
- ``rlcard env.run``: RLCard 1.2.0's ``env.run`` with its random agents (when the ``bench`` extra
  is installed); ``rlcard step loop``: its ``reset``/``step`` API driven one step at a time.
- ``unotable aec[python]`` / ``[native]``: the PettingZoo AEC env (``agent_iter`` + ``last`` +
  ``step``, the mask read from the observation) on each backend (``[native]``: the table in the
  core, ``unotable.env.native_table``, when the core is built).
- ``unotable parallel[python]`` / ``[native]``: the PettingZoo Parallel env, every live seat
  submitting a random legal action each step (one step: one table action).
- ``unotable gym[python]`` / ``[native]``: the Gymnasium env, one learning seat against rule-v1
  bots (its steps only; ``[native]``: the table and the bots in the core, when it is built).
- ``unotable vector[python]`` / ``[native]``: the vector env in self-play over ``--tables``
  tables, one ``step`` per chunk (every row a step), timing ``step`` alone (the numpy policy
  excluded, as an env's own time); the native rows when the core provides the vector backend
  (``unotable.env.native_vector.VecPool``), in self-play and with the learning seat against ``rule-v1`` bots
  played inside the core (its steps are the learner's decisions only). The rows ``... + numpy
  policy`` time the same loop *with* the policy: a cheap numpy policy choosing from the batch's
  masks (:func:`vector_policy`, a few array operations per step) inside the timed loop, as a
  training loop pays at least that much per step. The AEC, Parallel and Gymnasium rows always
  count their policy (:func:`pick`, per step).
- ``unotable_native VecPool x1 per call``: one table of the core's vector backend stepped one
  decision per Python call (the cost an AEC env over the core would pay before PettingZoo's
  own per-step protocol).
- With ``--peers``, after these and one at a time, each in a virtual environment of its own
  (``benchmarks/env_peers.py``): OpenSpiel's ``crazy_eights`` from Python, and PettingZoo 1.20.1's
  ``uno_v4`` where the package index serves it (reported unavailable, with pip's reason, where not).
- ``unotable_native Pool.step``: the native core's own batched step over ``--tables`` tables
  (its decision points: the active seat decides; a finished match restarts the table), timed
  the same way, when ``unotable_native`` is installed.

The envs run with ``out_of_turn="auto"`` (no out-of-turn decision points), the closest match to
RLCard's turn structure; every step writes an 854-byte observation and a 445-entry mask (RLCard:
a 4x4x15 plane and 61 actions).

    .venv/bin/python benchmarks/env_throughput.py --json
    .venv/bin/python benchmarks/env_throughput.py --seconds 10 --seats 4 --tables 1024

``--trees A,B`` runs each checkout's own copy of this benchmark (its ``unotable`` and its
``native/unotable_native``) in a process of its own, alternating A, B, A, B, ... ``--rounds`` times,
and prints each row's best steps per second of every tree side by side (a tree without the row:
blank). Every tree's package runs over one compiled core, this environment's, unless ``--cores``
names one per tree (``UNOTABLE_NATIVE_CORE``)::

    git worktree add /tmp/base HEAD
    .venv/bin/python benchmarks/env_throughput.py --trees /tmp/base,. --rounds 3 --seconds 2
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
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throughput import choose

from unotable import Game, Ruleset
from unotable.env import aec_env, gym_env, parallel_env, vector_env
from unotable.env.backend import native_available

Chunk = Callable[[], tuple[int, int]]


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """The raw row's policy on a mask: accept a pending penalty; else a random play or colour;
    else draw or pass (as ``throughput.choose``, so that every row plays rounds of one length).

    One numpy call and a short list: numpy's per-call cost on a 445-entry mask is what a policy
    written with four array operations spends most of its time on (a step's mask holds a
    handful of actions), and it would be counted as the environment's."""
    if mask[392]:
        return 392
    legal = mask.nonzero()[0].tolist()
    plays = [i for i in legal if i < 390 or 394 <= i < 434]
    if plays:
        return int(plays[int(rng.random() * len(plays))])
    return int(legal[0])


def raw_chunks(seats: int, seed: int) -> Chunk:
    rules = Ruleset.preset("official")
    rng = random.Random(seed)
    seeds = itertools.count(seed)

    def chunk() -> tuple[int, int]:
        steps = 0
        for s in itertools.islice(seeds, 10):
            game = Game.new(seats, rules, s, events=False)
            legal = game.legal_action_list()
            while legal:
                game.apply_unchecked(choose(legal, rng))
                steps += 1
                legal = game.legal_action_list()
        return 10, steps

    return chunk


def rlcard_run_chunks(seats: int, seed: int) -> Chunk | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": seed, "game_num_players": seats})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(seats)])

    def chunk() -> tuple[int, int]:
        steps = 0
        for _ in range(10):
            trajectories, _ = env.run(is_training=False)
            steps += sum((len(t) - 1) // 2 for t in trajectories)
        return 10, steps

    return chunk


def rlcard_step_chunks(seats: int, seed: int) -> Chunk | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": seed, "game_num_players": seats})
    rng = random.Random(seed)

    def chunk() -> tuple[int, int]:
        steps = 0
        for _ in range(10):
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(rng.random() * len(legal))])
                steps += 1
        return 10, steps

    return chunk


def episode_chunks(seed: int, episode: Callable[[int], int]) -> Chunk:
    """Chunks of 10 episodes seeded ``seed``, ``seed + 1``, ...: ``episode(s)`` plays one and
    returns its steps."""
    seeds = itertools.count(seed)

    def chunk() -> tuple[int, int]:
        return 10, sum(episode(s) for s in itertools.islice(seeds, 10))

    return chunk


def aec_chunks(seats: int, seed: int, backend: str = "python") -> Chunk:
    env = aec_env("official", seats=seats, out_of_turn="auto", backend=backend)
    rng = np.random.default_rng(seed)

    def episode(s: int) -> int:
        steps = 0
        env.reset(seed=s)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(pick(obs["action_mask"], rng))
            steps += 1
        return steps

    return episode_chunks(seed, episode)


def parallel_chunks(seats: int, seed: int, backend: str = "python") -> Chunk:
    """The Parallel env: each live seat a random legal action of its mask (the active seat's
    :func:`pick`, NOOP for the others), one table action per step."""
    env = parallel_env("official", seats=seats, out_of_turn="auto", backend=backend)
    rng = np.random.default_rng(seed)

    def episode(s: int) -> int:
        steps = 0
        obs, _ = env.reset(seed=s)
        while env.agents:
            obs, *_ = env.step({a: pick(obs[a]["action_mask"], rng) for a in env.agents})
            steps += 1
        return steps

    return episode_chunks(seed, episode)


def gym_chunks(seats: int, seed: int, backend: str = "python") -> Chunk:
    env = gym_env("official", seats=seats, opponents="rule-v1", out_of_turn="auto", backend=backend)
    rng = np.random.default_rng(seed)
    seeds = itertools.count(seed)

    def chunk() -> tuple[int, int]:
        steps = 0
        for s in itertools.islice(seeds, 10):
            _, info = env.reset(seed=s)
            done = False
            while not done:
                _, _, term, trunc, info = env.step(pick(info["action_mask"], rng))
                done = term or trunc
                steps += 1
        return 10, steps

    return chunk


def vector_policy(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """:func:`pick`, vectorised over the rows of ``mask``: accept, else a random play or colour,
    else draw or pass (an auto-reset row, whose mask is empty, gets 0)."""
    m = mask.astype(bool)
    plays = m.copy()
    plays[:, 390:394] = False
    plays[:, 434:] = False
    scores = rng.random(m.shape) * plays
    scores[:, 392] += 2.0 * m[:, 392]
    return np.where(scores.max(axis=1) > 0, scores.argmax(axis=1), m.argmax(axis=1)).astype(np.int32)


def vector_chunks(seats: int, seed: int, tables: int, backend: str, repeat: int = 1,
                  opponents: str | None = None, policy: bool = False) -> TimedChunk:
    """``repeat`` vector steps per chunk (the fast rows take several, so that the rows' turns stay
    short without the slow rows running many times their share); with ``opponents`` each row is
    the learning seat against those bots (played inside ``step``); with ``policy`` the numpy
    policy's time counts too."""
    envs = vector_env(tables, "official", seats=seats, opponents=opponents, out_of_turn="auto",
                      backend=backend)
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    state = {"infos": infos}

    def chunk() -> tuple[int, int, float]:
        episodes = steps = 0
        elapsed = 0.0
        for _ in range(repeat):
            start = time.perf_counter()
            mask = state["infos"]["action_mask"]
            actions = vector_policy(mask, rng)
            if not policy:
                start = time.perf_counter()
            _, _, term, _, state["infos"] = envs.step(actions)
            elapsed += time.perf_counter() - start
            episodes += int(term.sum())
            steps += int(mask.any(axis=1).sum())
        return episodes, steps, elapsed

    return chunk


def vecpool_single_chunks(seats: int, seed: int) -> TimedChunk | None:
    """One table of the core's ``VecPool`` stepped one decision per Python call: what an AEC env
    over the core would pay per step before PettingZoo's own protocol."""
    try:
        from unotable.env.native_vector import VecPool
    except ImportError:
        return None
    pool = VecPool(1, "official", seats, out_of_turn="auto")
    pool.reset([seed])
    rng = np.random.default_rng(seed)
    action = np.zeros(1, np.int32)

    def chunk() -> tuple[int, int, float]:
        start = time.perf_counter()
        episodes = 0
        for _ in range(200):
            if pool.terminated[0]:
                episodes += 1
            action[0] = pick(pool.mask[0], rng) if pool.mask[0].any() else 0
            pool.step(action)
        return episodes, 200, time.perf_counter() - start

    return chunk


def native_pool_chunks(seats: int, seed: int, tables: int) -> TimedChunk | None:
    """The native core's own batched ``Pool.step`` (its decision points: the active seat decides,
    a match restarts its table), when ``unotable_native`` is installed."""
    try:
        import unotable_native
    except ImportError:
        return None
    from unotable.env.spaces import ruleset_block

    pool = unotable_native.Pool(tables, "official", seats, seeds=list(range(seed, seed + tables)),
                                ruleset_block=ruleset_block)
    bufs = pool.buffers()
    rng = np.random.default_rng(seed)

    def chunk() -> tuple[int, int, float]:
        elapsed = 0.0
        done = 0
        for _ in range(20):
            actions = vector_policy(bufs["mask"], rng)
            start = time.perf_counter()
            pool.step(actions, bufs)
            elapsed += time.perf_counter() - start
            done += int(bufs["done"].sum())
        return done, 20 * tables, elapsed

    return chunk


TimedChunk = Callable[[], tuple[int, int, float]]
"""A chunk that times itself: (episodes, steps, seconds inside the environment)."""


def timed(chunk: Chunk) -> TimedChunk:
    def run() -> tuple[int, int, float]:
        start = time.perf_counter()
        episodes, steps = chunk()
        return episodes, steps, time.perf_counter() - start
    return run


def measure_timed(chunks: list[TimedChunk], seconds: float) -> list[tuple[int, int, float]]:
    """As ``throughput.measure``: the chunks take turns until each has run ``seconds``."""
    totals = [(0, 0, 0.0)] * len(chunks)
    while min(t[2] for t in totals) < seconds:
        for k, chunk in enumerate(chunks):
            e, s, t = chunk()
            a, b, c = totals[k]
            totals[k] = (a + e, b + s, c + t)
    return totals


_TREE_PROBE = r"""
import os, runpy, sys
tree, script = sys.argv[1], os.path.join(sys.argv[1], "benchmarks", "env_throughput.py")
# this tree's packages, not the ones the environment installed (an editable native install is a finder)
sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith("_editable_skbc_")]
sys.path[:0] = [tree, os.path.join(tree, "native")]
sys.argv = [script, *sys.argv[2:]]
runpy.run_path(script, run_name="__main__")
"""


def run_trees(args: argparse.Namespace, passed: list[str]) -> int:
    """``--trees``: each tree's benchmark with ``passed`` (and ``--json``), alternated, side by side."""
    import importlib.util
    import os
    import subprocess

    trees = [str(Path(t).resolve()) for t in args.trees.split(",") if t]
    spec = importlib.util.find_spec("unotable_native._core")
    installed = spec.origin if spec is not None and spec.origin else ""
    cores = args.cores.split(",") if args.cores else [installed] * len(trees)
    if len(cores) != len(trees):
        raise SystemExit(f"--cores names {len(cores)} cores for {len(trees)} trees")
    best: list[dict[str, float]] = [{} for _ in trees]
    order: list[str] = []
    for _ in range(args.rounds):
        for k, (tree, core) in enumerate(zip(trees, cores, strict=True)):
            env = dict(os.environ)
            if core:
                env["UNOTABLE_NATIVE_CORE"] = str(Path(core).resolve())
            out = subprocess.run([sys.executable, "-c", _TREE_PROBE, tree, *passed, "--json"],
                                 capture_output=True, text=True, check=True, env=env, cwd=tree)
            for r in json.loads(out.stdout)["results"]:
                if "steps_per_s" in r:
                    best[k][r["env"]] = max(best[k].get(r["env"], 0.0), r["steps_per_s"])
                    if r["env"] not in order:
                        order.append(r["env"])
    names = [Path(t).name or t for t in trees]
    print(f"best steps/s of {args.rounds} alternated runs per tree ({', '.join(trees)})")
    ratio_head = f"{'last/first':>12}" if len(trees) > 1 else ""
    print(f"{'env':<40}" + "".join(f"{n:>14}" for n in names) + ratio_head)
    for env_name in order:
        values = [b.get(env_name) for b in best]
        cells = "".join(f"{v:>14.0f}" if v else f"{'':>14}" for v in values)
        ratio = f"{values[-1] / values[0]:>11.2f}x" if len(values) > 1 and values[0] and values[-1] else ""
        print(f"{env_name:<40}{cells}{ratio}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row and repeat (default 3)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats; each row reports "
                        "the median (default 5)")
    parser.add_argument("--quick", action="store_true", help="about a minute: --repeats 3 --seconds 0.25 "
                        "--tables 256 (unless given)")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--tables", type=int, default=1024, help="tables of the vector env (default 1024)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="run only the rows whose name holds one of these "
                        "comma-separated words (the raw row always runs: the ratios' reference)")
    parser.add_argument("--peers", action="store_true", help="then time the peers that need their own "
                        "virtual environment (benchmarks/env_peers.py: OpenSpiel's crazy_eights, "
                        "PettingZoo 1.20.1's uno_v4), one after another")
    parser.add_argument("--trees", default="", help="checkouts to compare, alternated (/tmp/base,.)")
    parser.add_argument("--cores", default="", help="with --trees: each tree's compiled core "
                        "(_core*.so), comma-separated (default: this environment's)")
    parser.add_argument("--rounds", type=int, default=3, help="with --trees: runs per tree (default 3)")
    given = argv if argv is not None else sys.argv[1:]
    args = parser.parse_args(argv)
    if args.quick:
        for flag, value in (("--repeats", 3), ("--seconds", 0.25), ("--tables", 256)):
            if not any(a == flag or a.startswith(flag + "=") for a in given):
                setattr(args, flag[2:], value)
    if args.trees:
        passed = [f"--seconds={args.seconds}", f"--seats={args.seats}", f"--tables={args.tables}",
                  f"--seed={args.seed}"] + ([f"--only={args.only}"] if args.only else [])
        return run_trees(args, passed)
    rows: list[tuple[str, TimedChunk]] = [("unotable raw", timed(raw_chunks(args.seats, args.seed)))]
    theirs = (("rlcard 1.2.0 env.run", rlcard_run_chunks), ("rlcard 1.2.0 step loop", rlcard_step_chunks))
    for name, make in theirs:
        chunk = make(args.seats, args.seed)
        if chunk is not None:
            rows.append((name, timed(chunk)))
    rows.append(("unotable aec[python]", timed(aec_chunks(args.seats, args.seed))))
    if native_available():
        rows.append(("unotable aec[native]", timed(aec_chunks(args.seats, args.seed, "native"))))
    rows.append(("unotable parallel[python]", timed(parallel_chunks(args.seats, args.seed))))
    if native_available():
        rows.append(("unotable parallel[native]", timed(parallel_chunks(args.seats, args.seed, "native"))))
    rows.append(("unotable gym[python] vs rule-v1", timed(gym_chunks(args.seats, args.seed))))
    if native_available():
        rows.append(("unotable gym[native] vs rule-v1", timed(gym_chunks(args.seats, args.seed, "native"))))
    rows.append((f"unotable vector[python] x{args.tables}",
                 vector_chunks(args.seats, args.seed, args.tables, "python")))
    if native_available():
        rows.append((f"unotable vector[native] x{args.tables}",
                     vector_chunks(args.seats, args.seed, args.tables, "native", repeat=20)))
        rows.append((f"unotable vector[native] x{args.tables} + numpy policy",
                     vector_chunks(args.seats, args.seed, args.tables, "native", repeat=10, policy=True)))
        rows.append((f"unotable vector[native] x{args.tables} vs rule-v1",
                     vector_chunks(args.seats, args.seed, args.tables, "native", repeat=10,
                                   opponents="rule-v1")))
        rows.append((f"unotable vector[native] x{args.tables} vs rule-v1 + numpy policy",
                     vector_chunks(args.seats, args.seed, args.tables, "native", repeat=10,
                                   opponents="rule-v1", policy=True)))
        single = vecpool_single_chunks(args.seats, args.seed)
        if single is not None:
            rows.append(("unotable_native VecPool x1 per call", single))
    pool = native_pool_chunks(args.seats, args.seed, args.tables)
    if pool is not None:
        rows.append((f"unotable_native Pool.step x{args.tables}", pool))
    if args.only:
        words = [w.strip() for w in args.only.split(",") if w.strip()]
        rows = [rows[0], *[r for r in rows[1:] if any(w in r[0] for w in words)]]
    runs = [measure_timed([c for _, c in rows], args.seconds) for _ in range(max(1, args.repeats))]
    results: list[dict[str, Any]] = []
    for k, (name, _) in enumerate(rows):
        rates = sorted(run[k][1] / run[k][2] for run in runs)
        results.append({"env": name, "steps": sum(run[k][1] for run in runs),
                        "seconds": round(sum(run[k][2] for run in runs), 3),
                        "steps_per_s": float(np.median(rates)), "min_steps_per_s": rates[0],
                        "max_steps_per_s": rates[-1], "repeats": len(rates),
                        "episodes": sum(run[k][0] for run in runs)})
    if args.peers:  # after the rows above, each in its own virtual environment
        from env_peers import PEERS, run_peer

        results += [run_peer(p, args.seats, args.seconds, args.seed) for p in PEERS]
    raw = results[0]["steps_per_s"]
    run = next((r["steps_per_s"] for r in results if r["env"].endswith("env.run")), None)
    for r in results:
        if "unavailable" in r:
            continue
        r["vs_raw"] = r["steps_per_s"] / raw
        if run is not None:
            r["vs_rlcard_env_run"] = r["steps_per_s"] / run
    meta = {"python": platform.python_version(), "seats": args.seats, "seconds_per_row": args.seconds,
            "repeats": args.repeats, "tables": args.tables, "native": native_available()}
    if args.json:
        print(json.dumps({**meta, "results": results}, indent=2))
        return 0
    print(f"Python {meta['python']}, official, {args.seats} seats, {args.seconds:g} s per row and repeat, "
          f"rows taking turns, the median of {args.repeats} repeats (range in brackets)")
    print(f"{'env':<52} {'steps/s':>10} {'range':>21} {'vs raw':>8} {'vs env.run':>11}")
    for r in results:
        if "unavailable" in r:
            print(f"{r['env']:<52} unavailable: {r['unavailable']}")
            continue
        vs_run = f"{r['vs_rlcard_env_run']:.2f}x" if "vs_rlcard_env_run" in r else ""
        span = f"[{r['min_steps_per_s']:.0f}-{r['max_steps_per_s']:.0f}]" if "min_steps_per_s" in r else ""
        print(f"{r['env']:<52} {r['steps_per_s']:>10.0f} {span:>21} {r['vs_raw']:>7.2f}x {vs_run:>11}")
    if run is None:
        print("(install the bench extra, `make bench`, to compare with RLCard)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
