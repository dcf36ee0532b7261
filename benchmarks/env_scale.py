"""Self-play and scale-out throughput of the vector env: batched opponents, threads, Ray workers.

Rows, in one process, taking turns in chunks of ``--chunk`` seconds until each has run
``--seconds`` (so they share whatever else loads the machine; compare ratios):

- ``selfplay vs batched opponent [native]``: heads-up official UNO on ``--tables`` tables, the
  learner a numpy MLP (the examples' network, 256 x 256, random weights) sampling from the mask,
  the opponent the same network given as a *batched policy* (unotable.env.batched): the tables
  stay in the native core. Counts the learner's steps.
- ``selfplay vs policy bot [python fallback]``: the same learner and the same network as the
  opponent, but given as a bot object (``make_bot("policy", path=...)``), which the core cannot
  play: the env falls back to the Python backend (before batched policies, the only way).
- ``VecPool self-play, N thread(s)``: the core's vector backend alone in self-play over
  ``--pool-tables`` tables with ``threads=N`` (1 and 2), a cheap numpy choice from the masks in
  the loop; all environment steps.
- ``Ray, 2 workers x VecPool``: two Ray actors (a local instance, one CPU each), each stepping a
  ``threads=1`` VecPool as the row above, all running during the row's chunks; their steps summed
  (when Ray is installed: the extra ``rl-ray``).

BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1`` unless set): the policies' small matrix
products gain nothing from more, and on a loaded machine BLAS threads that spin cost more than
the work.

    .venv/bin/python benchmarks/env_scale.py --json
"""
from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy is imported (Ray's workers inherit it)

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from unotable.env.policy_bot import features  # noqa: E402
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE  # noqa: E402

HIDDEN = 256


def mlp(seed: int = 0) -> dict[str, np.ndarray]:
    """Random weights in the layout of examples/train_ppo.py's .npz (w0..w3, b0..b3)."""
    rng = np.random.default_rng(seed)
    shapes = [(OBS_SIZE, HIDDEN), (HIDDEN, HIDDEN), (HIDDEN, NUM_ACTIONS), (HIDDEN, 1)]
    out = {}
    for i, (a, b) in enumerate(shapes):
        out[f"w{i}"] = (rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32)
        out[f"b{i}"] = np.zeros(b, np.float32)
    return out


def batched(weights: dict[str, np.ndarray], seed: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The network as a batched policy: a sample from the masked softmax of each row."""
    rng = np.random.default_rng(seed)
    w0, b0, w1, b1, w2, b2 = (weights[k] for k in ("w0", "b0", "w1", "b1", "w2", "b2"))

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        h = np.maximum(features(obs) @ w0 + b0, 0.0)
        h = np.maximum(h @ w1 + b1, 0.0)
        logits = np.where(mask, h @ w2 + b2, -np.inf)
        g = logits - np.log(-np.log(rng.random(logits.shape)))  # Gumbel-max: a sample of the softmax
        return np.asarray(g.argmax(axis=1))

    return policy


def cheap(rng: np.random.Generator) -> Callable[[np.ndarray], np.ndarray]:
    def choose(mask: np.ndarray) -> np.ndarray:
        return np.asarray((mask * rng.random(mask.shape, dtype=np.float32)).argmax(axis=1))
    return choose


class Row:
    def __init__(self, name: str, run: Callable[[float], int]) -> None:
        self.name, self.run, self.steps, self.time = name, run, 0, 0.0


def selfplay_row(name: str, tables: int, opponent: Any, weights: dict[str, np.ndarray], backend: str) -> Row:
    from unotable.env import vector_env

    envs = vector_env(tables, "official", seats=2, opponents=opponent, seat="random", out_of_turn="auto",
                      backend=backend)
    assert envs.backend_name == backend, envs.backend_name
    learner = batched(weights, 1)
    state: dict[str, Any] = {}
    state["obs"], state["infos"] = envs.reset(seed=1)

    def run(seconds: float) -> int:
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            acts = learner(state["obs"], state["infos"]["action_mask"].astype(bool))
            state["obs"], _r, _te, _tr, state["infos"] = envs.step(acts)
            n += tables
        return n

    return Row(name, run)


def pool_row(tables: int, threads: int) -> Row:
    from unotable.env.native_vector import VecPool

    pool = VecPool(tables, "official", 4, out_of_turn="auto", threads=threads)
    pool.reset(list(range(tables)))
    choose = cheap(np.random.default_rng(threads))

    def run(seconds: float) -> int:
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            pool.step(choose(pool.mask))
            n += tables
        return n

    return Row(f"VecPool self-play x{tables}, {threads} thread{'s' if threads > 1 else ''}", run)


def ray_row(tables: int, workers: int) -> Row | str:
    try:
        import ray
    except ImportError:
        return "Ray is not installed (pip install -e '.[rl-ray]')"
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)

    @ray.remote(num_cpus=1)
    class Worker:
        def __init__(self, tables: int, seed: int) -> None:
            from unotable.env.native_vector import VecPool

            self.tables = tables
            self.pool = VecPool(tables, "official", 4, out_of_turn="auto", threads=1)
            self.pool.reset(list(range(seed, seed + tables)))
            self.choose = cheap(np.random.default_rng(seed))

        def run(self, seconds: float) -> int:
            n, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                self.pool.step(self.choose(self.pool.mask))
                n += self.tables
            return n

    actors = [Worker.remote(tables, 1000 * k) for k in range(workers)]  # type: ignore[attr-defined]
    ray.get([a.run.remote(0.01) for a in actors])  # started and warm

    def run(seconds: float) -> int:
        return int(sum(ray.get([a.run.remote(seconds) for a in actors])))

    return Row(f"Ray, {workers} workers x VecPool x{tables}, 1 thread each", run)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=6.0, help="time per row")
    ap.add_argument("--chunk", type=float, default=0.5)
    ap.add_argument("--tables", type=int, default=64, help="tables of the self-play rows")
    ap.add_argument("--pool-tables", type=int, default=1024, help="tables of the VecPool and Ray rows")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    weights = mlp(0)
    path = os.path.join(tempfile.mkdtemp(), "policy.npz")
    np.savez(path, **weights)
    from unotable.bots import make_bot

    rows: list[Row] = [
        selfplay_row("selfplay vs batched opponent [native]", args.tables, batched(weights, 2), weights,
                     "native"),
        selfplay_row("selfplay vs policy bot [python fallback]", args.tables,
                     make_bot("policy", path=path, greedy=False), weights, "python"),
        pool_row(args.pool_tables, 1),
        pool_row(args.pool_tables, 2),
    ]
    notes: list[str] = []
    if not args.no_ray:
        made = ray_row(args.pool_tables, 2)
        if isinstance(made, str):
            notes.append(made)
        else:
            rows.append(made)
    while min(r.time for r in rows) < args.seconds:
        for r in rows:
            t0 = time.perf_counter()
            r.steps += r.run(args.chunk)
            r.time += time.perf_counter() - t0
    out = {"machine": {"cpus": os.cpu_count(), "load": os.getloadavg()[0]},
           "rows": {r.name: round(r.steps / r.time) for r in rows}, "notes": notes}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for name, rate in out["rows"].items():
            print(f"{name:55s} {rate:>12,} steps/s")
        for n in notes:
            print(n)


if __name__ == "__main__":
    main()
