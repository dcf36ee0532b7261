"""Evaluate a policy on the env: pooled rounds over several seed bases, with a 95% interval.

A policy is a function of a batch of observations and masks to actions,
``act(obs: uint8[N, 854], mask: bool[N, 445]) -> int[N]`` (a trained network, a model's
``predict``, a numpy rule). :func:`evaluate` plays ``rounds`` rounds for each seed base against
the opponents, the learning seat taking each seat in turn, on the vector env (table ``i`` of a
base ``b`` deals ``Game.new(..., seed=b + i)``), and reports each base's wins and the pooled
wins with their 95% Wilson interval: one base's figure moves with its deals, so compare policies
on the pooled figure over the same bases.

>>> import numpy as np
>>> def first_legal(obs, mask):
...     return mask.argmax(axis=1)
>>> result = evaluate(first_legal, rounds=8, seed_bases=(1, 2), backend="python")
>>> result.rounds, len(result.bases), 0.0 <= result.low <= result.rate <= result.high <= 1.0
(16, 2, True)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from unotable.bots.arena import wilson
from unotable.env.vector import UnoVectorEnv

__all__ = ["SEED_BASES", "Evaluation", "evaluate"]

SEED_BASES = (10**9, 2 * 10**9, 3 * 10**9)
"""The default seed bases (far from the seeds training usually draws)."""

Policy = Callable[[np.ndarray, np.ndarray], Any]


@dataclass(frozen=True)
class Evaluation:
    """Wins per seed base (``(base, wins, rounds)``) and pooled, with the 95% Wilson interval."""

    bases: tuple[tuple[int, int, int], ...]
    opponents: str

    @property
    def wins(self) -> int:
        return sum(w for _, w, _ in self.bases)

    @property
    def rounds(self) -> int:
        return sum(n for _, _, n in self.bases)

    @property
    def rate(self) -> float:
        return self.wins / self.rounds if self.rounds else 0.0

    @property
    def low(self) -> float:
        return wilson(self.wins, self.rounds)[0]

    @property
    def high(self) -> float:
        return wilson(self.wins, self.rounds)[1]

    def __str__(self) -> str:
        per = ", ".join(f"{w}/{n} from seed {b}" for b, w, n in self.bases)
        return (f"{self.wins} wins in {self.rounds} rounds against {self.opponents}: {100 * self.rate:.1f}% "
                f"[{100 * self.low:.1f}-{100 * self.high:.1f}] (95% Wilson, pooled over "
                f"{len(self.bases)} seed bases: {per})")


def evaluate(act: Policy, *, ruleset: Any = "official", seats: int = 2, opponents: str = "rule-v1",
             rounds: int = 200, seed_bases: Sequence[int] = SEED_BASES, max_steps: int = 100_000,
             **options: Any) -> Evaluation:
    """``rounds`` rounds per seed base of ``act`` against ``opponents`` (the module docstring);
    ``options`` go to the vector env (``out_of_turn``, ``backend``...; one round an episode, rewards
    ``win``). A round counts as won when the learning seat's final reward is positive."""
    if rounds < 1 or not seed_bases:
        raise ValueError("give at least one round and one seed base")
    per_seat = [len(range(s, rounds, seats)) for s in range(seats)]
    out = []
    for base in seed_bases:
        wins = done_total = 0
        first = base
        for seat, count in enumerate(per_seat):
            if count == 0:
                continue
            envs = UnoVectorEnv(count, ruleset, seats, opponents=opponents, seat=seat, episode="round",
                                reward="win", **options)
            obs, infos = envs.reset(seed=first)
            first += count
            done = np.zeros(count, dtype=bool)
            for _ in range(max_steps):
                actions = np.asarray(act(obs, infos["action_mask"].astype(bool))).reshape(count)
                obs, rewards, terms, truncs, infos = envs.step(actions)
                ended = (terms | truncs) & ~done
                wins += int(np.count_nonzero(ended & (rewards > 0)))
                done |= ended
                if done.all():
                    break
            else:
                raise RuntimeError(f"{int((~done).sum())} rounds did not end within {max_steps} steps")
            envs.close()
            done_total += count
        out.append((int(base), wins, done_total))
    return Evaluation(tuple(out), opponents)
