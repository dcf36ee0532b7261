"""Self-play against a league of past snapshots, at the native core's speed (PyTorch, CPU).

One learning seat plays heads-up official UNO on ``--envs`` tables; its opponent is a *batched
policy* (unotable.env.batched): a callable that the vector env hands the observations and masks of
every table whose opponent must decide, once per round of waiting tables, so the tables stay in
the native core instead of falling back to the Python backend. The opponent is a league: every
``--snapshot-every`` updates a frozen copy of the learner joins it, and each update's opponent is
the newest snapshot half of the time, else one drawn uniformly from the older ones (fictitious
self-play's mix, which keeps the learner from forgetting how to beat its past selves). The
learner is a small masked PPO (the same loss as examples/train_ppo.py), with UNO calls and catches
made automatically. At the end it is measured greedily against ``rule-v1``, ``heuristic`` and
``mixbot`` on rounds pooled over three seed bases (unotable.env.evaluate; a round still on after
1,000 actions counts as lost), and ``--onnx`` exports it as an ONNX policy that ``unotable serve
--policies DIR`` seats at online tables. docs/rl.md reports an hour's run and its results.

    python examples/selfplay_league.py --minutes 60 --envs 64 --out league.pt --onnx policies/league.onnx
"""
from __future__ import annotations

import argparse
import copy
import time

import numpy as np
import torch
from torch import nn

from unotable.env import vector_env
from unotable.env.evaluate import evaluate
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE


class Net(nn.Module):
    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_SIZE, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, NUM_ACTIONS)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(torch.log1p(obs.float()))
        return self.pi(h).masked_fill(~mask, -1e9), self.v(h).squeeze(-1)


class League:
    """The opponents: frozen snapshots of the learner, one of them playing per update. Called by
    the vector env as ``league(obs, mask) -> actions`` for all waiting tables at once."""

    def __init__(self, first: Net, rng: np.random.Generator) -> None:
        self.snapshots = [self._frozen(first)]
        self.current = self.snapshots[0]
        self.rng = rng
        self.calls = 0

    @staticmethod
    def _frozen(net: Net) -> Net:
        snap = copy.deepcopy(net).eval()
        for p in snap.parameters():
            p.requires_grad_(False)
        return snap

    def add(self, net: Net) -> None:
        self.snapshots.append(self._frozen(net))

    def pick(self) -> int:
        """The opponent of the next update: the newest half of the time, else an older one."""
        k = len(self.snapshots) - 1
        if k and self.rng.random() >= 0.5:
            k = int(self.rng.integers(k))
        self.current = self.snapshots[k]
        return k

    @torch.no_grad()
    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> torch.Tensor:
        self.calls += 1
        logits, _ = self.current(torch.from_numpy(obs), torch.from_numpy(mask))
        return torch.distributions.Categorical(logits=logits).sample()


def greedy(net: Net):
    """The learner's greedy policy: the legal action of highest probability."""
    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(obs), torch.from_numpy(mask))
        return logits.argmax(-1).numpy()
    return policy


class Logits(nn.Module):
    """The exported policy: observations to the learner's action logits (the mask is the bot's)."""

    def __init__(self, net: Net) -> None:
        super().__init__()
        self.net = net

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.net.pi(self.net.body(torch.log1p(obs.float())))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=64, help="rollout length per update")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--max-updates", type=int, default=0, help="stop after this many updates (0: none)")
    ap.add_argument("--snapshot-every", type=int, default=20)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval", type=int, default=1000,
                    help="greedy rounds per seed base and opponent at the end")
    ap.add_argument("--opponents", default="rule-v1,heuristic,mixbot", help="the bots evaluated against")
    ap.add_argument("--onnx", default="", help="export the learner as ONNX here (the onnx extra)")
    ap.add_argument("--out", default="", help="save the learner's state_dict here")
    ap.add_argument("--torch-threads", type=int, default=1, help="PyTorch's threads (small nets: 1)")
    args = ap.parse_args(argv)

    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    league = League(net, rng)
    envs = vector_env(args.envs, "official", seats=2, opponents=league, seat="random", out_of_turn="auto")
    print(f"backend {envs.backend_name}, {args.envs} tables")
    obs, infos = envs.reset(seed=args.seed)
    t0, steps, update = time.perf_counter(), 0, 0
    while time.perf_counter() - t0 < args.minutes * 60 and update < (args.max_updates or 10**9):
        opponent = league.pick()
        buf_obs, buf_mask, buf_act, buf_logp, buf_val, buf_rew, buf_done = [], [], [], [], [], [], []
        wins = ended_rounds = 0
        for _ in range(args.steps):
            o = torch.from_numpy(obs)
            m = torch.from_numpy(infos["action_mask"].astype(bool))
            with torch.no_grad():
                logits, value = net(o, m)
            dist = torch.distributions.Categorical(logits=logits)
            act = dist.sample()
            obs, rew, term, trunc, infos = envs.step(act.numpy())
            done = term | trunc
            buf_obs.append(o)
            buf_mask.append(m)
            buf_act.append(act)
            buf_logp.append(dist.log_prob(act))
            buf_val.append(value)
            buf_rew.append(torch.from_numpy(rew))
            buf_done.append(torch.from_numpy(done.astype(np.float32)))
            wins += int(((rew > 0) & done).sum())
            ended_rounds += int(done.sum())
            steps += args.envs
        with torch.no_grad():
            _, last_value = net(torch.from_numpy(obs), torch.from_numpy(infos["action_mask"].astype(bool)))
        adv, gae = [], torch.zeros(args.envs)
        for t in reversed(range(args.steps)):  # GAE (gamma 0.99, lambda 0.95); a row's episode ends at done
            nxt = last_value if t == args.steps - 1 else buf_val[t + 1]
            nonterminal = 1.0 - buf_done[t]
            delta = buf_rew[t] + 0.99 * nxt * nonterminal - buf_val[t]
            gae = delta + 0.99 * 0.95 * nonterminal * gae
            adv.append(gae)
        adv_t = torch.stack(adv[::-1]).reshape(-1)
        ret = adv_t + torch.stack(buf_val).reshape(-1)
        b_obs, b_mask = torch.cat(buf_obs), torch.cat(buf_mask)
        b_act, b_logp = torch.cat(buf_act), torch.cat(buf_logp)
        adv_t = (adv_t - adv_t.mean()) / (adv_t.std() + 1e-8)
        for _epoch in range(2):
            for idx in torch.randperm(len(b_act)).split(max(64, len(b_act) // 4)):
                logits, value = net(b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                clip = torch.min(ratio * adv_t[idx], ratio.clamp(0.8, 1.2) * adv_t[idx])
                loss = -clip.mean() + 0.5 * (value - ret[idx]).pow(2).mean() - 0.01 * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        update += 1
        if update % args.snapshot_every == 0:
            league.add(net)
        rate = wins / ended_rounds if ended_rounds else float("nan")
        print(f"update {update} steps {steps} opponent {opponent}/{len(league.snapshots)} "
              f"wins {rate:.3f} steps/s {steps / (time.perf_counter() - t0):.0f}", flush=True)
    print(f"league: {len(league.snapshots)} snapshots, {league.calls} batched opponent calls")
    if args.out:
        torch.save(net.state_dict(), args.out)
    minutes = (time.perf_counter() - t0) / 60
    print(f"trained: {update} updates, {steps} learner steps in {minutes:.1f} min")
    net.eval()
    if args.onnx:
        from unotable.env.export import export_torch

        export_torch(Logits(net), args.onnx)
        print(f"exported {args.onnx}")
    if args.eval:  # greedy, pooled over three seed bases, the seats alternating (unotable.env.evaluate)
        for name in filter(None, args.opponents.split(",")):
            result = evaluate(greedy(net), opponents=name, rounds=args.eval, out_of_turn="auto",
                              max_cycles=1000)
            print(f"evaluation: {result}", flush=True)


if __name__ == "__main__":
    main()
