"""Fit the weights of ismcts's model of the other hands (:mod:`unotable.bots.handmodel`).

Plays ``--rounds`` rounds of ``official`` self-play of the heuristic bot (the opponent the model
describes). At every normal turn, the seat to play is the observer: for each other seat it groups
the unseen cards by the features that hold (:meth:`HandModel.features`) and counts how many of
each group that seat truly holds. The fit is the log-linear model of a weighted sample: a card's
chance to be in a hand of ``h`` cards is about ``min(1, lam * w)``, ``lam`` such that the chances
add up to ``h``; the weights are raised or lowered until every feature's expected count matches
its count in the true hands (iterative scaling). It prints the held-out log-loss per unseen card
of the fit, of the weights in the package and of uniform sampling, and the fitted weights as a
tuple aligned with ``FEATURES``. The bench extra provides numpy.

    .venv/bin/python -m research.fit_hands --seats 4 --rounds 3000 --seed 5   # HAND_TABLE
    .venv/bin/python -m research.fit_hands --seats 2 --rounds 3000 --seed 6   # HAND_HEADS_UP

``--pairs`` also fits a richer model, one more weight for every pair of features that hold
together for 200 groups or more (the features' interactions), and prints its held-out log-loss
beside that of the features alone.
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from multiprocessing import Pool

import numpy as np

from unotable.arbiter import derive_seed
from unotable.bots.determinize import unseen_cards
from unotable.bots.handmodel import FEATURES, HAND_HEADS_UP, HAND_TABLE, HandModel
from unotable.bots.heuristic import HeuristicBot
from unotable.game import Game
from unotable.phase import Phase

Group = tuple[int, int, int, tuple[int, ...]]
"""One group of unseen cards for one (observer, seat) position: size of the hand, how many cards
of the group are unseen, how many the seat holds, the features that hold for them."""


def positions(job: tuple[int, int, int]) -> list[list[Group]]:
    """Round ``index`` of heuristic self-play: the groups of every (observer, other seat)."""
    seats, seed, index = job
    game = Game.new(seats=seats, ruleset="official", seed=derive_seed(seed, "fit-hands", index))
    bots = [HeuristicBot() for _ in range(seats)]
    models = [HandModel() for _ in range(seats)]
    seen = [0] * seats
    rng = random.Random(derive_seed(seed, "fit-hands-bots", index))
    out: list[list[Group]] = []
    while game.phase < Phase.ROUND_OVER:
        for s in range(seats):
            events = game.events_for(s)
            bots[s].observe(events[seen[s]:])
            models[s].observe(events[seen[s]:])
            seen[s] = len(events)
        seat = game.active_seat
        if game.phase is Phase.PLAY:
            truth = game.clone_state()
            pool = unseen_cards(game.view(seat))
            for o in range(seats):
                if o == seat or not truth.in_round[o]:
                    continue
                held = Counter(truth.hands[o])
                size = len(truth.hands[o])
                groups: dict[tuple[int, ...], list[int]] = {}
                for c, k in pool.items():
                    key = tuple(models[seat].features(o, size, truth.color, c))
                    g = groups.setdefault(key, [0, 0])
                    g[0] += k
                    g[1] += held[c]
                out.append([(size, n, a, key) for key, (n, a) in groups.items()])
        action = bots[seat].choose(game.view(seat), game.legal_actions_for(seat), rng)
        assert action is not None
        game.play(action)
    return out


class Data:
    """The groups as arrays: position index, unseen count, held count, hand size, features."""

    def __init__(self, positions: list[list[Group]]) -> None:
        rows = [(p, n, a, size, key) for p, groups in enumerate(positions) for size, n, a, key in groups]
        self.pos = np.array([r[0] for r in rows])
        self.n = np.array([r[1] for r in rows], dtype=float)
        self.a = np.array([r[2] for r in rows], dtype=float)
        self.size = np.zeros(len(positions))
        for r in rows:
            self.size[r[0]] = r[3]
        self.x = np.zeros((len(rows), len(FEATURES)))
        for i, r in enumerate(rows):
            self.x[i, list(r[4])] = 1.0
        self.count = len(positions)

    def chances(self, theta: np.ndarray) -> np.ndarray:
        """Each group's chance per card, ``min(1, lam * w)`` with ``lam`` fitting the hand size."""
        w = np.exp(self.x @ theta)
        lo = np.full(self.count, -30.0)
        hi = np.full(self.count, 30.0)
        for _ in range(40):
            mid = (lo + hi) / 2
            total = np.bincount(self.pos, self.n * np.minimum(1.0, np.exp(mid[self.pos]) * w), self.count)
            over = total > self.size
            hi = np.where(over, mid, hi)
            lo = np.where(over, lo, mid)
        chances: np.ndarray = np.minimum(1.0, np.exp(lo[self.pos]) * w)
        return chances

    def log_loss(self, theta: np.ndarray) -> float:
        """Per unseen card: -log of the chance of what the seat truly held."""
        p = np.clip(self.chances(theta), 1e-9, 1 - 1e-9)
        return float(-(self.a * np.log(p) + (self.n - self.a) * np.log(1 - p)).sum() / self.n.sum())


def fit(data: Data, steps: int = 40, rate: float = 0.8) -> np.ndarray:
    """Iterative scaling: each feature's expected count toward its count in the true hands."""
    theta = np.zeros(data.x.shape[1])
    held = data.x.T @ data.a
    for _ in range(steps):
        expected = data.x.T @ (data.n * data.chances(theta))
        theta = np.clip(theta + rate * np.log((held + 0.5) / (expected + 0.5)), -6.0, 6.0)
    return theta


def co_occurring(data: Data, least: int = 200) -> list[tuple[int, int]]:
    """The pairs of features that hold together for at least ``least`` groups of ``data``."""
    together = data.x.T @ data.x
    k = len(FEATURES)
    return [(i, j) for i in range(k) for j in range(i + 1, k) if together[i, j] >= least]


def with_pairs(data: Data, pairs: list[tuple[int, int]]) -> Data:
    """Add to ``data`` (in place, and return it) one more feature per pair: both hold (a weight for
    the interaction)."""
    if pairs:
        data.x = np.hstack([data.x, np.stack([data.x[:, i] * data.x[:, j] for i, j in pairs], 1)])
    return data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3000)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--pairs", action="store_true",
                   help="also fit a weight to every pair of features that hold together (a richer model)")
    args = p.parse_args(argv)
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        rounds = pool.map(positions, [(args.seats, args.seed, i) for i in range(args.rounds)], chunksize=20)
    cut = int(0.8 * len(rounds))
    train = Data([g for r in rounds[:cut] for g in r])
    test = Data([g for r in rounds[cut:] for g in r])
    theta = fit(train)
    package = np.array(HAND_HEADS_UP if args.seats == 2 else HAND_TABLE)
    uniform = np.zeros(len(FEATURES))
    print(f"{train.count + test.count} (observer, seat) positions from {args.rounds} rounds, "
          f"{args.seats} seats ({time.perf_counter() - started:.0f} s)")
    print(f"held-out log-loss per unseen card: fitted {test.log_loss(theta):.4f}, "
          f"in the package {test.log_loss(package):.4f}, uniform {test.log_loss(uniform):.4f}")
    for name, value in zip(FEATURES, theta, strict=True):
        print(f"  {name:12s} {value:+.3f}")
    print("(" + ", ".join(f"{v:.3f}" for v in theta) + ")")
    if args.pairs:  # smaller steps: the pairs are correlated with their features
        single = test.log_loss(fit(train, steps=300, rate=0.3))
        pairs = co_occurring(train)
        rich = fit(with_pairs(train, pairs), steps=300, rate=0.3)
        print(f"held-out log-loss with {len(pairs)} pairs of features as well: "
              f"{with_pairs(test, pairs).log_loss(rich):.4f}, without them in the same steps {single:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
