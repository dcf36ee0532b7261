"""sb3-contrib's MaskablePPO on unotable, with nothing of ours but the env's id (``make rl`` runs it).

The env comes from Gymnasium's registry (``gymnasium.make("unotable/Uno-v1", ...)``, registered by
``import unotable.env``); MaskablePPO reads the legal actions from the env's ``action_masks()``.
The model is trained for ``--steps`` steps, saved, loaded back and evaluated greedily, pooled over
several seed bases with a 95% interval (:func:`unotable.env.evaluate.evaluate`).

    python examples/sb3_maskable_ppo.py --steps 20000 --out uno_maskable_ppo.zip --rounds 200
"""
from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

import unotable.env  # noqa: F401  (registers unotable/Uno-v1)
from unotable.env.evaluate import evaluate


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20_000, help="training steps")
    p.add_argument("--opponent", default="rule-v1")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="uno_maskable_ppo.zip")
    p.add_argument("--rounds", type=int, default=200, help="evaluation rounds per seed base (0: none)")
    p.add_argument("--bases", type=int, default=3, help="seed bases to pool the evaluation over")
    args = p.parse_args(argv)

    env = gymnasium.make("unotable/Uno-v1", ruleset="official", seats=2, opponents=args.opponent,
                         out_of_turn="auto")
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s")
    model.save(args.out)
    loaded = MaskablePPO.load(args.out)
    print(f"saved and loaded {args.out}")
    if args.rounds:
        def act(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            actions, _ = loaded.predict(obs, action_masks=mask, deterministic=True)
            return np.asarray(actions)

        result = evaluate(act, opponents=args.opponent, rounds=args.rounds,
                          seed_bases=tuple(10**9 * (k + 1) for k in range(args.bases)), out_of_turn="auto")
        print(f"evaluation (greedy): {result}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
