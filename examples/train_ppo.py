"""Masked PPO on unotable's vector env, in one file (PyTorch, CPU).

One learning seat plays heads-up official UNO against bots (``rule-v1`` by default) on
``--envs`` tables at once; the network sees the observation of :mod:`unotable.env.spaces` and
samples only legal actions (illegal logits are masked out). UNO calls and catches are made
automatically (``out_of_turn="auto"``), so the policy learns the cards. The trained weights are
saved as a NumPy ``.npz`` that ``make_bot("policy", path=...)`` plays with NumPy alone, and with
``--onnx FILE`` as an ONNX policy too (the extra ``onnx``), which ``make_bot("onnx", path=...)``
plays and ``unotable serve --policies DIR`` seats at online tables.

    python examples/train_ppo.py --minutes 30 --out policy.npz --curve curve.csv --onnx policies/ppo.onnx
    unotable simulate --bots policy:path=policy.npz,rule-v1 ...   (or the arena, see docs/rl.md)

The network reads every block of the observation except the per-seat history, which the
arena's policy bot does not rebuild (the history block is zeroed in training and in play).
"""
from __future__ import annotations

import argparse
import csv
import math
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from unotable.env import vector_env
from unotable.env.policy_bot import features
from unotable.env.spaces import HISTORY_OFF, RULESET_OFF

HIDDEN = 256


class Net(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int = HIDDEN) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.zeros_(self.pi.bias)
        self.pi.weight.data.mul_(0.01)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)

    def save_npz(self, path: str) -> None:
        layers = [self.body[0], self.body[2], self.pi, self.v]
        arrays = {}
        for i, layer in enumerate(layers):
            arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
            arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32)
        np.savez(path, **arrays)


class Policy(nn.Module):
    """The trained network as an ONNX policy reads it: observations (the bytes as float32) to the
    action logits, :func:`features` inside (log1p, the history block zeroed), no mask (the bot's)."""

    def __init__(self, net: Net) -> None:
        super().__init__()
        self.net = net
        keep = torch.ones(net.body[0].in_features)
        keep[HISTORY_OFF:RULESET_OFF] = 0.0
        self.register_buffer("keep", keep)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        x = torch.log1p(obs) * self.keep
        out: torch.Tensor = self.net.pi(self.net.body(x))
        return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def train(args: argparse.Namespace) -> Net:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    envs = vector_env(args.envs, "official", seats=2, opponents=args.opponent, out_of_turn="auto")
    obs_np, info = envs.reset(seed=args.seed)
    net = Net(obs_np.shape[1], info["action_mask"].shape[1])
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    n, t_len = args.envs, args.steps
    start = time.time()
    deadline = start + 60 * args.minutes
    total = 0
    recent: list[float] = []
    curve_rows = []
    update = 0
    while time.time() < deadline and total < args.max_steps:
        obs_b = torch.zeros((t_len, n, obs_np.shape[1]))
        mask_b = torch.zeros((t_len, n, info["action_mask"].shape[1]), dtype=torch.bool)
        act_b = torch.zeros((t_len, n), dtype=torch.long)
        logp_b = torch.zeros((t_len, n))
        val_b = torch.zeros((t_len, n))
        rew_b = torch.zeros((t_len, n))
        done_b = torch.zeros((t_len, n))
        valid_b = torch.zeros((t_len, n))  # rows that were a decision (not an auto-reset step)
        for t in range(t_len):
            x = torch.from_numpy(features(obs_np))
            mask = torch.from_numpy(info["action_mask"].astype(bool))
            valid = mask.any(dim=1)
            mask[~valid, 0] = True  # an auto-reset row: its action is ignored
            with torch.no_grad():
                logits, value = net(x, mask)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            obs_np, reward, term, trunc, info = envs.step(action.numpy())
            obs_b[t], mask_b[t], act_b[t] = x, mask, action
            logp_b[t], val_b[t] = dist.log_prob(action), value
            rew_b[t] = torch.from_numpy(reward)
            done_b[t] = torch.from_numpy((term | trunc).astype(np.float32))
            valid_b[t] = valid.float()
            for i in np.flatnonzero(term):
                recent.append(1.0 if reward[i] > 0 else 0.0)
        total += t_len * n
        with torch.no_grad():
            x = torch.from_numpy(features(obs_np))
            mask = torch.from_numpy(info["action_mask"].astype(bool))
            mask[~mask.any(dim=1), 0] = True
            _, next_value = net(x, mask)
        # GAE over the rollout; a done row (or an auto-reset row) cuts the bootstrap
        adv = torch.zeros((t_len, n))
        last = torch.zeros(n)
        for t in reversed(range(t_len)):
            nv = next_value if t == t_len - 1 else val_b[t + 1]
            nonterminal = 1.0 - done_b[t]
            delta = rew_b[t] + args.gamma * nv * nonterminal - val_b[t]
            last = delta + args.gamma * args.lam * nonterminal * last
            last = last * valid_b[t]
            adv[t] = last
        ret = adv + val_b
        keep = valid_b.flatten() > 0
        b_obs = obs_b.reshape(-1, obs_b.shape[-1])[keep]
        b_mask = mask_b.reshape(-1, mask_b.shape[-1])[keep]
        b_act, b_logp = act_b.flatten()[keep], logp_b.flatten()[keep]
        b_adv, b_ret = adv.flatten()[keep], ret.flatten()[keep]
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        m = b_obs.shape[0]
        for _ in range(args.epochs):
            perm = torch.randperm(m)
            for k in range(0, m, args.minibatch):
                idx = perm[k:k + args.minibatch]
                logits, value = net(b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                pg = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
                vloss = 0.5 * (value - b_ret[idx]).pow(2).mean()
                ent = dist.entropy().mean()
                loss = pg + args.vf * vloss - args.ent * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        update += 1
        if args.anneal:  # the learning rate falls linearly to zero at the time budget's end
            left = max(0.0, 1.0 - (time.time() - start) / (60 * args.minutes))
            for group in opt.param_groups:
                group["lr"] = args.lr * left
        window = recent[-400:]
        rate = sum(window) / len(window) if window else 0.0
        elapsed = time.time() - start
        curve_rows.append((update, total, round(elapsed, 1), len(recent), round(rate, 4)))
        if update % args.log_every == 0:
            print(f"update {update} steps {total} {elapsed:.0f}s {total / elapsed:.0f} steps/s "
                  f"episodes {len(recent)} win rate (last 400) {rate:.3f}", flush=True)
            if args.out:
                net.save_npz(args.out)
        if args.curve:
            with open(args.curve, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["update", "steps", "seconds", "episodes", "win_rate_last_400"])
                w.writerows(curve_rows)
    if args.out:
        net.save_npz(args.out)
    return net


def evaluate(path: str, rounds: int, opponent: str, seed: int) -> tuple[int, int]:
    """Heads-up official rounds of the trained policy bot (seat 0 and 1 in turn) against the
    opponent, full rules, through the arbiter: (wins, rounds)."""
    from unotable.arbiter import Arbiter
    from unotable.bots import make_bot
    from unotable.game import Game

    wins = 0
    for k in range(rounds):
        game = Game.new(seats=2, ruleset="official", seed=seed + k)
        me = k % 2
        agents = {me: make_bot("policy", path=path), 1 - me: make_bot(opponent)}
        Arbiter(game, agents, seed=seed + k).play_round()
        result = game.round_result()
        wins += result is not None and result.winner == me
    return wins, rounds


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=30.0, help="training time budget")
    p.add_argument("--max-steps", type=int, default=10**12, help="stop after this many env steps")
    p.add_argument("--envs", type=int, default=32)
    p.add_argument("--steps", type=int, default=128, help="rollout length per env")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--anneal", action="store_true", help="anneal the learning rate to 0 over --minutes")
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--vf", type=float, default=0.5)
    p.add_argument("--opponent", default="rule-v1")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log-every", type=int, default=5)
    p.add_argument("--out", default="policy.npz")
    p.add_argument("--curve", default="")
    p.add_argument("--eval", type=int, default=0, help="evaluate over this many rounds after training")
    p.add_argument("--eval-seed", type=int, default=10**9)
    p.add_argument("--onnx", default="", help="also save the policy as ONNX there (the extra onnx)")
    args = p.parse_args(argv)
    net = train(args)
    if args.onnx:
        from unotable.env.export import export_torch

        print(f"saved {export_torch(Policy(net), args.onnx).resolve()}")
    if args.eval and args.out:
        wins, n = evaluate(args.out, args.eval, args.opponent, args.eval_seed)
        lo, hi = wilson(wins, n)
        print(f"evaluation: {wins} wins in {n} heads-up rounds against {args.opponent}: "
              f"{wins / n:.3f} (95% Wilson {lo:.3f}-{hi:.3f})")
    if args.out:
        print(f"saved {Path(args.out).resolve()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
