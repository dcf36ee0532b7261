"""Fit the weights of ismcts's position evaluation (:func:`unotable.bots.ismcts.evaluate`).

Plays ``--rounds`` rounds of ``official`` self-play with the fast playout policy
(:mod:`unotable.bots.policy`, the model ismcts uses for every seat), takes a snapshot of about one
normal turn in seven (each seat's features, ordered from the active seat), and fits a conditional
logit (a softmax over the seats, one weight vector for all) to the round's winner by Newton's
method. It prints the held-out negative log-likelihood of the fit and of the weights in the
package, and the fitted weights as an ``EvalWeights``. The bench extra provides numpy.

    .venv/bin/python benchmarks/fit_eval.py --seats 4 --rounds 20000 --seed 2   # EVAL_TABLE
    .venv/bin/python benchmarks/fit_eval.py --seats 2 --rounds 20000 --seed 3   # EVAL_HEADS_UP

``--threat`` also fits three candidate features that the evaluation lacks (a seat's attack cards,
Skips, Draw Twos and Wild Draw Fours, while the seat after it holds one card, or two; whether it
holds any while that seat holds one) and prints the held-out NLL with and without them.
"""
from __future__ import annotations

import argparse
import random

import numpy as np

from unotable.bots import policy
from unotable.bots.ismcts import EVAL_HEADS_UP, EVAL_TABLE, EvalWeights
from unotable.cards import ID_COLOR, ID_DRAW_VALUE, ID_RANK, NUM_COLORED_IDS, WILD_DRAW_FOUR, Rank
from unotable.game import Game
from unotable.phase import Phase
from unotable.state import State

FEATURES = ("cards", "wild", "wild_draw_four", "draw_card", "skip_reverse", "current_color", "colors",
            "one_card", "two_cards")


def features(st: State, seat: int) -> list[float]:
    """The hand terms of ``EvalWeights`` for ``seat``, in the order of :data:`FEATURES`."""
    hand = st.hands[seat]
    colors = [0, 0, 0, 0]
    for c in hand:
        if c < NUM_COLORED_IDS:
            colors[ID_COLOR[c]] += 1
    return [
        len(hand),
        sum(1 for c in hand if c >= NUM_COLORED_IDS),
        sum(1 for c in hand if c == WILD_DRAW_FOUR),
        sum(1 for c in hand if c < NUM_COLORED_IDS and ID_DRAW_VALUE[c] > 0),
        sum(1 for c in hand if c < NUM_COLORED_IDS and ID_RANK[c] in (Rank.SKIP, Rank.REVERSE)),
        colors[st.color] if 0 <= st.color < 4 else 0,
        sum(1 for x in colors if x),
        float(len(hand) == 1),
        float(len(hand) == 2),
    ]


THREAT = ("attack_next_one", "attack_next_two", "any_attack_next_one")


def threat(st: State, seat: int, nxt: int) -> list[float]:
    """The :data:`THREAT` features of ``seat``, whose next seat is ``nxt``."""
    attack = sum(1 for c in st.hands[seat] if c == WILD_DRAW_FOUR or (
        c < NUM_COLORED_IDS and (ID_DRAW_VALUE[c] > 0 or ID_RANK[c] == Rank.SKIP)))
    size = len(st.hands[nxt])
    return [attack * (size == 1), attack * (size == 2), float(attack > 0 and size == 1)]


def snapshots(seats: int, rounds: int, seed: int, extra: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Features (snapshot x seat-from-active x feature, distance one-hots last) and winners; with
    ``extra`` the :data:`THREAT` features follow the hand features."""
    pick = random.Random(seed)
    xs: list[list[list[float]]] = []
    ys: list[int] = []
    for r in range(rounds):
        st = Game.new(seats=seats, ruleset="official", seed=seed * 100_000 + r, events=False).clone_state()
        taken: list[tuple[list[int], list[list[float]]]] = []
        steps = 0
        while st.phase < Phase.ROUND_OVER and steps < 3000:
            if st.phase == Phase.PLAY and pick.random() < 0.15:
                order = [(st.active + k * st.direction) % seats for k in range(seats)]
                rows = [features(st, s) + (threat(st, s, order[(k + 1) % seats]) if extra else [])
                        + [float(k == j) for j in range(1, seats)] for k, s in enumerate(order)]
                taken.append((order, rows))
            policy.step(st)
            steps += 1
        winner = getattr(st.last_round, "winner", None)
        if winner is None:
            continue
        for order, rows in taken:
            xs.append(rows)
            ys.append(order.index(winner))
    return np.array(xs), np.array(ys)


def nll(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    z = x @ w
    z -= z.max(1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean())


def fit(x: np.ndarray, y: np.ndarray, steps: int = 15) -> np.ndarray:
    """Maximum likelihood of the conditional logit by Newton's method."""
    n, _, f = x.shape
    w = np.zeros(f)
    onehot = np.zeros((n, x.shape[1]))
    onehot[np.arange(n), y] = 1
    for _ in range(steps):
        z = x @ w
        z -= z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        grad = ((p - onehot)[:, :, None] * x).sum(1).mean(0)
        mean = (p[:, :, None] * x).sum(1)
        hess = np.einsum("ns,nsf,nsg->fg", p, x, x) / n - mean.T @ mean / n
        w -= np.linalg.solve(hess + 1e-6 * np.eye(f), grad)
    return w


def as_vector(w: EvalWeights, seats: int) -> np.ndarray:
    dist = [w.distance[min(k, len(w.distance) - 1)] - w.distance[0] for k in range(1, seats)]
    return np.array([getattr(w, name) for name in FEATURES] + dist)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=2)
    p.add_argument("--threat", action="store_true", help="also fit the THREAT features and compare")
    args = p.parse_args(argv)
    x, y = snapshots(args.seats, args.rounds, args.seed, extra=args.threat)
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[: int(0.8 * len(y))], order[int(0.8 * len(y)):]
    if args.threat:
        k = len(FEATURES)
        wide = fit(x[train], y[train])
        print(f"with {', '.join(THREAT)}: held-out NLL {nll(wide, x[test], y[test]):.4f}, weights "
              + ", ".join(f"{v:.3f}" for v in wide[k:k + len(THREAT)]))
        x = np.delete(x, range(k, k + len(THREAT)), axis=2)
    w = fit(x[train], y[train])
    current = EVAL_HEADS_UP if args.seats == 2 else EVAL_TABLE
    print(f"{len(y)} snapshots from {args.rounds} rounds, {args.seats} seats")
    print(f"held-out NLL: fitted {nll(w, x[test], y[test]):.4f}, in the package "
          f"{nll(as_vector(current, args.seats), x[test], y[test]):.4f}, uniform {np.log(args.seats):.4f}")
    k = len(FEATURES)
    values = ", ".join(f"{v:.3f}" for v in w[:k])
    dist = ", ".join(["0.0"] + [f"{v:.3f}" for v in w[k:]])
    print(f"EvalWeights({values}, ({dist}))")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
