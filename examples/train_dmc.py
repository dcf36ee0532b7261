"""Deep Monte-Carlo (DouZero's method) by self-play on unotable's vector env (PyTorch, CPU).

Every seat of ``--envs`` heads-up official tables is played by one Q-network, inside the native
core (the vector env's self-play mode: each row is the next decision of one table, whichever seat
it is). A seat picks the legal action with the highest Q-value, or with probability ``--epsilon``
a legal one at random. When a table's round ends, every decision each seat made in it is labelled
with that seat's return (the env's ``win`` reward: +1 for the winner, -1 for the loser), and the
network regresses Q(s, a) on those Monte-Carlo returns (mean squared error, no bootstrapping, no
discount): DouZero's Deep Monte-Carlo. The one change from DouZero: its network takes the action
as an input because a Dou Dizhu move set is huge; UNO has 445 actions, so one head gives Q for
all of them at once. UNO calls and catches are made automatically (``out_of_turn="auto"``).

At the end the greedy policy is measured against ``rule-v1``, ``heuristic`` and ``mixbot`` on
rounds pooled over three seed bases (unotable.env.evaluate), the seats alternating; ``--onnx``
exports it as an ONNX policy that ``unotable serve --policies DIR`` seats at online tables. The
ONNX file holds the Q-values alone: the bot that plays it takes the argmax over the whole mask, so
it may draw with a coloured card in hand where the evaluated policy (:func:`own_mask`) may not.

    python examples/train_dmc.py --minutes 60 --out dmc.pt --onnx policies/dmc.onnx

docs/rl.md reports a 45-minute run and its measured results.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn

from unotable.env import vector_env
from unotable.env.evaluate import evaluate
from unotable.env.spaces import DRAW_INDEX, NUM_ACTIONS, OBS_SIZE, PASS_INDEX, PLAY_WILD

OPPONENTS = ("rule-v1", "heuristic", "mixbot")
MAX_CYCLES = 1000  # actions: a round still on is cut short (in training dropped, in evaluation lost)


class QNet(nn.Module):
    """Q(s, .) for every action; illegal actions are masked to -inf when acting."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_SIZE, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, NUM_ACTIONS))
        head = self.body[-1]
        nn.init.zeros_(head.weight)  # Q starts at 0 for every action but drawing and passing, at -0.5:
        nn.init.zeros_(head.bias)    # the first rounds are random-stuck's (a random play; drawing only
        with torch.no_grad():        # when stuck), which end; uniformly random rounds barely do
            head.bias[DRAW_INDEX] = head.bias[PASS_INDEX] = -0.5

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.body(torch.log1p(obs.float()))


def own_mask(mask: np.ndarray) -> np.ndarray:
    """The legal actions the policy chooses among: all but drawing while a coloured card can be
    played (it may still draw to hold back a wild). Self-play from scratch with voluntary draws
    plays rounds of hundreds of turns, which give Monte-Carlo returns next to no signal."""
    out = mask.copy()
    colored = mask[:, :PLAY_WILD].any(axis=1)
    out[colored, DRAW_INDEX] = False
    return out


def act(q: QNet, obs: np.ndarray, mask: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """Epsilon-greedy over the legal actions, ties broken at random (a row with no legal action
    gets any: its action is ignored, it is being reset)."""
    mask = own_mask(mask)
    with torch.no_grad():
        values = q(torch.from_numpy(obs)).numpy()
    values = values + rng.random(values.shape, dtype=np.float32) * 1e-6
    actions = np.where(mask, values, -np.inf).argmax(-1)
    explore = rng.random(len(actions)) < epsilon
    for i in np.flatnonzero(explore & mask.any(axis=1)):
        actions[i] = rng.choice(np.flatnonzero(mask[i]))
    return actions


def greedy_policy(q: QNet):
    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = torch.from_numpy(own_mask(mask))
        with torch.no_grad():
            return q(torch.from_numpy(obs)).masked_fill(~legal, -1e9).argmax(-1).numpy()
    return policy


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=256, help="tables stepped together")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--max-steps", type=int, default=0, help="stop after this many decisions (0: none)")
    ap.add_argument("--batch", type=int, default=2048, help="labelled decisions per gradient step")
    ap.add_argument("--epsilon", type=float, default=0.05)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log-every", type=int, default=50, help="gradient steps between log lines")
    ap.add_argument("--eval", type=int, default=1000, help="rounds per seed base and opponent at the end")
    ap.add_argument("--opponents", default=",".join(OPPONENTS), help="the bots evaluated against")
    ap.add_argument("--out", default="", help="save the network's state_dict here")
    ap.add_argument("--onnx", default="", help="export the greedy policy as ONNX here (the onnx extra)")
    ap.add_argument("--torch-threads", type=int, default=1, help="PyTorch's threads (small nets: 1)")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    q = QNet(args.hidden)
    opt = torch.optim.Adam(q.parameters(), lr=args.lr)
    envs = vector_env(args.envs, "official", seats=2, opponents=None, out_of_turn="auto",
                      max_cycles=MAX_CYCLES)
    print(f"backend {envs.backend_name}, {args.envs} tables, self-play")
    obs, infos = envs.reset(seed=args.seed)
    n = args.envs
    trail: list[list[tuple[np.ndarray, int, int]]] = [[] for _ in range(n)]  # (obs, action, seat) this round
    returns = np.zeros((n, 2), dtype=np.float64)
    resetting = np.zeros(n, dtype=bool)  # the row's last step ended its round: this step resets it
    x_buf: list[np.ndarray] = []
    a_buf: list[int] = []
    g_buf: list[float] = []
    t0, steps, updates, rounds, loss_sum = time.perf_counter(), 0, 0, 0, 0.0
    while time.perf_counter() - t0 < args.minutes * 60 and (not args.max_steps or steps < args.max_steps):
        mask = infos["action_mask"].astype(bool)
        actions = act(q, obs, mask, args.epsilon, rng)
        seats = infos["seat"]
        for i in np.flatnonzero(~resetting):
            trail[i].append((obs[i].copy(), int(actions[i]), int(seats[i])))
        steps += int((~resetting).sum())
        obs, _rewards, terms, truncs, infos = envs.step(actions)
        returns += infos["seat_rewards"]
        ended = terms | truncs
        for i in np.flatnonzero(ended):
            for o, a, s in (trail[i] if terms[i] else ()):  # a round cut short teaches nothing
                x_buf.append(o)
                a_buf.append(a)
                g_buf.append(float(returns[i, s]))
            trail[i].clear()
            returns[i] = 0.0
            rounds += 1
        resetting = ended
        while len(a_buf) >= args.batch:
            x = torch.from_numpy(np.stack(x_buf[:args.batch]))
            a = torch.tensor(a_buf[:args.batch])
            g = torch.tensor(g_buf[:args.batch], dtype=torch.float32)
            del x_buf[:args.batch], a_buf[:args.batch], g_buf[:args.batch]
            pred = q(x).gather(1, a.unsqueeze(1)).squeeze(1)
            loss = (pred - g).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(q.parameters(), 10.0)
            opt.step()
            updates += 1
            loss_sum += float(loss.detach())
            if updates % args.log_every == 0:
                print(f"update {updates} steps {steps} rounds {rounds} loss {loss_sum / args.log_every:.4f} "
                      f"steps/s {steps / (time.perf_counter() - t0):.0f}", flush=True)
                loss_sum = 0.0
    minutes = (time.perf_counter() - t0) / 60
    print(f"trained: {updates} updates, {steps} decisions, {rounds} rounds in {minutes:.1f} min")
    q.eval()
    if args.out:
        torch.save(q.state_dict(), args.out)
    if args.onnx:
        from unotable.env.export import export_torch

        export_torch(q, args.onnx)  # Q-values as logits: the bot plays their masked argmax
        print(f"exported {args.onnx}")
    if args.eval:
        for name in filter(None, args.opponents.split(",")):
            result = evaluate(greedy_policy(q), opponents=name, rounds=args.eval, out_of_turn="auto",
                              max_cycles=MAX_CYCLES)
            print(f"evaluation: {result}", flush=True)


if __name__ == "__main__":
    main()
