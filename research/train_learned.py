"""Train the learned bot's value network (:mod:`unotable.bots.learned`): collect, then fit.

``collect`` plays official rounds of self-play with the arena's seating and seeds, every seat a
:class:`~unotable.bots.learned.LearnedBot` that explores (a random candidate at ``--explore`` of
its real choices) and records the features of each chosen afterstate; the label of a row is
whether that seat won the round. ``--model`` makes the collecting bots play a network (a second
round of policy improvement); by default they play the heuristic. ``fit`` trains a two-layer ReLU
network (PyTorch, CPU) on one or more collections with the binary cross-entropy, holds out the last
tenth of the rounds, prints the held-out log-loss against the constant's, and writes the JSON the
bot reads::

    python -m research.train_learned collect --seats 4 --rounds 30000 --out d4.npz
    python -m research.train_learned collect --seats 2 --rounds 15000 --out d2.npz
    python -m research.train_learned fit d4.npz d2.npz --out unotable/bots/learned_model.json

``collect`` needs numpy (the ``rl``, ``bench`` or ``dev`` extra) to save; ``fit`` needs PyTorch.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unotable.bots.arena import Config, play_game
from unotable.bots.base import Bot
from unotable.bots.learned import FEATURES, LearnedBot, Network
from unotable.rules import Ruleset

__all__ = ["collect", "fit", "held_out_rows", "main"]


def collect(seats: int, rounds: int, seed: int, explore: float, model: str = "",
            progress: bool = False) -> tuple[list[list[float]], list[int], list[int]]:
    """Rows of features, their labels (1: that seat won the round) and each row's round index."""
    config = Config(Ruleset.preset("official").to_dict(), seats, ("learned",) * seats, seed)
    rows: list[list[float]] = []
    labels: list[int] = []
    games: list[int] = []
    started = time.perf_counter()
    for index in range(rounds):
        records: list[list[list[float]]] = []

        def factory(spec: str, records: list[list[list[float]]] = records) -> Bot:
            rec: list[list[float]] = []
            records.append(rec)
            return LearnedBot(path=model, use_network=bool(model), explore=explore, record=rec)

        result = play_game(config, index, factory)
        for seat, rec in enumerate(records):
            won = int(seat in result.winners)
            rows += rec
            labels += [won] * len(rec)
            games += [index] * len(rec)
        if progress and (index + 1) % 1000 == 0:
            print(f"{index + 1}/{rounds} rounds, {len(rows)} rows, {time.perf_counter() - started:.0f}s",
                  file=sys.stderr, flush=True)
    return rows, labels, games


def held_out_rows(games: Sequence[int]) -> list[bool]:
    """The rows of the last tenth of the rounds of one collection (held out of the fit)."""
    last = max(games, default=0)
    return [g >= 0.9 * last for g in games]


def fit(x_rows: Any, y: Any, held: Sequence[bool], hidden: int = 64, epochs: int = 6, seed: int = 0,
        lr: float = 2e-3, batch: int = 512, log: bool = True) -> tuple[Network, float, float]:
    """Fit the network to rows ``x_rows`` and labels ``y`` (the ``held`` rows held out); returns
    it, the held-out log-loss and the constant predictor's."""
    import numpy as np
    import torch
    from torch import nn

    torch.manual_seed(seed)
    x = np.asarray(x_rows, dtype=np.float32)
    t = np.asarray(y, dtype=np.float32)
    test = np.asarray(held, dtype=bool)
    train = ~test
    if not train.any() or not test.any():
        train = test = np.ones(len(t), dtype=bool)
    mean = x[train].mean(axis=0)
    std = x[train].std(axis=0)
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0).astype(np.float32)
    xs = torch.from_numpy((x - mean) * scale)
    ts = torch.from_numpy(t)
    net = nn.Sequential(nn.Linear(x.shape[1], hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                        nn.Linear(hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)
    loss_fn = nn.BCEWithLogitsLoss()
    tr = torch.from_numpy(np.flatnonzero(train))
    te = torch.from_numpy(np.flatnonzero(test))

    def held_out() -> float:
        with torch.no_grad():
            return float(loss_fn(net(xs[te]).squeeze(-1), ts[te]))

    for epoch in range(epochs):
        order = tr[torch.randperm(len(tr))]
        for k in range(0, len(order), batch):
            idx = order[k:k + batch]
            opt.zero_grad()
            loss = loss_fn(net(xs[idx]).squeeze(-1), ts[idx])
            loss.backward()
            opt.step()
        if log:
            print(f"epoch {epoch + 1}: held-out log-loss {held_out():.4f}", file=sys.stderr, flush=True)
    p = float(t[train].mean())
    base = float(-(t[test] * np.log(p) + (1 - t[test]) * np.log(1 - p)).mean())
    linears = [m for m in net if isinstance(m, nn.Linear)]
    layers = [(m.weight.detach().numpy().astype(float).round(6).tolist(),
               m.bias.detach().numpy().astype(float).round(6).tolist()) for m in linears]
    network = Network(layers, mean.astype(float).round(6).tolist(), scale.astype(float).round(6).tolist())
    return network, held_out(), base


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="train_learned", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="self-play rounds with exploration, saved as .npz")
    c.add_argument("--seats", type=int, default=4)
    c.add_argument("--rounds", type=int, default=1000)
    c.add_argument("--seed", type=int, default=101)
    c.add_argument("--explore", type=float, default=0.1)
    c.add_argument("--model", default="", help="play this network while collecting (default: the heuristic)")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the network to collections, write its JSON")
    f.add_argument("data", nargs="+")
    f.add_argument("--hidden", type=int, default=64)
    f.add_argument("--epochs", type=int, default=6)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("--out", required=True)
    t = sub.add_parser("time", help="CPU time per decision of the learned bot and the heuristic")
    t.add_argument("--seats", type=int, default=4)
    t.add_argument("--rounds", type=int, default=40)
    return parser


def decision_times(bot: str, seats: int, rounds: int) -> tuple[float, float, int]:
    """Mean and largest CPU seconds per decision of ``bot`` at every seat of official rounds
    (seeds 0 to ``rounds - 1``), and the decisions timed."""
    import random

    from unotable.bots import make_bot
    from unotable.bots.arena import play_game

    total, worst, count = 0.0, 0.0, 0
    config = Config(Ruleset.preset("official").to_dict(), seats, (bot,) * seats, 0)

    def timed(spec: str) -> Bot:
        bot = make_bot(spec)
        inner = bot.choose

        def choose(view: Any, legal: Any, rng: random.Random) -> Any:
            nonlocal total, worst, count
            t0 = time.process_time()
            out = inner(view, legal, rng)
            dt = time.process_time() - t0
            total, worst, count = total + dt, max(worst, dt), count + 1
            return out

        setattr(bot, "choose", choose)  # noqa: B010 (the instance's method, timed)
        return bot

    for index in range(rounds):
        play_game(config, index, timed)
    return total / max(1, count), worst, count


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import numpy as np

    started = time.perf_counter()
    if args.command == "time":
        for bot in ("heuristic", "learned"):
            mean, worst, count = decision_times(bot, args.seats, args.rounds)
            print(f"{bot}: {mean * 1000:.2f} ms CPU per decision on average, at most {worst * 1000:.1f} ms "
                  f"({count} decisions, {args.rounds} rounds, {args.seats} seats)")
        return 0
    if args.command == "collect":
        rows, labels, games = collect(args.seats, args.rounds, args.seed, args.explore, args.model,
                                      progress=True)
        np.savez_compressed(args.out, x=np.asarray(rows, dtype=np.float32).reshape(-1, len(FEATURES)),
                            y=np.asarray(labels, dtype=np.int8), g=np.asarray(games, dtype=np.int64))
        print(f"{args.rounds} rounds, {len(rows)} rows -> {args.out} ({time.perf_counter() - started:.0f}s)")
        return 0
    import torch

    torch.set_num_threads(args.threads)
    xs, ys, held = [], [], []
    for path in args.data:
        with np.load(path) as d:
            xs.append(d["x"])
            ys.append(d["y"])
            held += held_out_rows(d["g"].tolist())  # each collection's last tenth of rounds
    network, loss, base = fit(np.concatenate(xs), np.concatenate(ys), held, args.hidden, args.epochs,
                              args.seed)
    Path(args.out).write_text(json.dumps(network.to_dict(), separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(held)} rows: held-out log-loss {loss:.4f} (constant {base:.4f}) -> {args.out} "
          f"({time.perf_counter() - started:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
