"""Count Wild Draw Four challenges in bot-only rounds, and how often the challenged WD4 was legal.

Plays ``--rounds`` rounds of ``--preset`` with ``--bots`` (one spec per seat, the last repeated,
seats rotated as in the arena) by the arena's protocol, and reads every response to a Wild Draw
Four: the ``Challenged`` events of the log give each challenge and its verdict; for a WD4 that was
accepted, the verdict the engine recorded with the play (CL-ACT-6) is read off the referee's state.
Per responding bot it prints the WD4s it faced, how many it challenged, how many of those were
legal (a lost challenge: 6 cards), and how many it accepted that were illegal (a missed win).

For each ``heuristic`` response under its default challenge rule it also prints the calibration of
its estimate (``HeuristicBot.challenge_odds``): the WD4s in each band of its bluff chance and the
share that were illegal, and the maximum-likelihood bluff factor by the victim's hand size (the
factor that, applied to the chance from the cards, best predicts the verdicts). ``--dump`` writes
every response as CSV. ``--reckless 0.2,0.05`` also asks, at each of those answers, what the odds
would have decided under each prior chance that the player is reckless (the ``reckless`` option
of the heuristic, and of ismcts, which answers by the heuristic's odds with 0.05), and prints the
legal Wild Draw Fours each would have challenged and the illegal ones it would have let pass.

``--fit-win`` instead fits the heuristic's :class:`~unotable.bots.heuristic.WinModel` (a softmax of
hand sizes over the seats, by which it prices a challenge's outcomes) to the winners of the same
rounds, from the hand sizes at about one turn in five, by Newton's method, and prints it.

    .venv/bin/python benchmarks/challenges.py --seats 2 --rounds 400 --bots heuristic:challenge=odds-v1
    .venv/bin/python benchmarks/challenges.py --seats 4 --rounds 400 --bots heuristic
    .venv/bin/python benchmarks/challenges.py --seats 4 --rounds 400 --bots heuristic --reckless 0.2,0.05,0
    .venv/bin/python benchmarks/challenges.py --seats 2 --rounds 3000 --seed 11 --fit-win  # WIN_HEADS_UP
    .venv/bin/python benchmarks/challenges.py --seats 4 --rounds 3000 --seed 11 --fit-win  # WIN_TABLE
"""
from __future__ import annotations

import argparse
import csv
import math
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from unotable.actions import Action, Challenge
from unotable.agent import Agent
from unotable.arbiter import Arbiter, derive_seed
from unotable.bots import make_bot
from unotable.bots.arena import game_rngs
from unotable.bots.base import Bot
from unotable.bots.heuristic import HeuristicBot
from unotable.cards import WILD_DRAW_FOUR
from unotable.events import Challenged, Event
from unotable.game import Game
from unotable.phase import Phase
from unotable.views import PlayerView


@dataclass
class Response:
    """One response to a Wild Draw Four: who answered, what, and what was true."""

    bot: str
    seats: int
    challenged: bool
    illegal: bool
    victim_size: int
    player_size: int
    held: float = math.nan
    bluff: float = math.nan
    gain: float = math.nan
    would: tuple[bool, ...] = ()
    """For each prior of ``--reckless``, whether the heuristic's odds would have challenged."""


class Recorder(Agent):
    """A seat's agent: its bot, and a record of every Wild Draw Four it answers."""

    def __init__(
        self, spec: str, bot: Bot, game: Game, out: list[Response], reckless: Sequence[float] = ()
    ) -> None:
        self.spec = spec
        self.reckless = tuple(reckless)
        self.bot = bot
        self.game = game
        self.out = out
        self.open: Response | None = None

    def observe(self, events: Sequence[Event]) -> None:
        if self.open is not None:
            self.open.challenged = any(isinstance(e, Challenged) for e in events)
            for e in events:
                if isinstance(e, Challenged):
                    assert e.guilty == self.open.illegal
            self.open = None
        self.bot.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if (
            view.phase is Phase.RESPOND
            and view.seat == view.active
            and view.pending_card is not None
            and view.pending_card.id == WILD_DRAW_FOUR
            and Challenge() in legal
        ):
            player = view.top_player if view.top_player is not None else view.seat
            record = Response(self.spec, view.seats, False, self.game.clone_state().wd4_illegal,
                              view.hand_sizes[view.seat], view.hand_sizes[player])
            bot = self.bot
            if isinstance(bot, HeuristicBot) and bot.challenge == "odds":
                odds = bot.challenge_odds(view)
                record.held, record.bluff, record.gain = odds.held, odds.bluff, odds.gain
                if self.reckless:
                    saved = bot.reckless
                    would = []
                    for r in self.reckless:
                        bot.reckless = r
                        would.append(bot.challenge_odds(view).gain > 0.0)
                    bot.reckless = saved
                    record.would = tuple(would)
            self.out.append(record)
            self.open = record
        return self.bot.choose(view, legal, rng)


def play_round(
    preset: str,
    specs: Sequence[str],
    seed: int,
    index: int,
    out: list[Response],
    reckless: Sequence[float] = (),
) -> None:
    """Play round ``index`` as the arena does (its seeds and seat rotation), recording responses
    (and, for each prior in ``reckless``, whether the heuristic's odds would have challenged)."""
    n = len(specs)
    block, rotation = divmod(index, n)
    seat_specs = [specs[(s + rotation) % n] for s in range(n)]
    game = Game.new(seats=n, ruleset=preset, seed=derive_seed(seed, "deal", block))
    agents = {s: Recorder(seat_specs[s], make_bot(seat_specs[s]), game, out, reckless) for s in range(n)}
    rngs = game_rngs(seed, index, n)
    Arbiter(game, agents, rngs).play_round(max_actions=100_000)


def snapshots(preset: str, specs: Sequence[str], seed: int, rounds: int) -> list[tuple[list[int], int]]:
    """Hand sizes in turn order from the seat to act, at about one normal turn in five, each with
    the place of the round's winner in that order."""
    pick = random.Random(seed)
    n = len(specs)
    out: list[tuple[list[int], int]] = []
    for index in range(rounds):
        game = Game.new(seats=n, ruleset=preset, seed=derive_seed(seed, "fit", index))
        taken: list[list[int]] = []

        def look(_: object, game: Game = game, taken: list[list[int]] = taken) -> None:
            if game.phase is Phase.PLAY and pick.random() < 0.2:
                a, d = game.active_seat, game.direction
                taken.append([(a + k * d) % n for k in range(n)] + list(game.hand_sizes))

        agents = {s: make_bot(specs[s]) for s in range(n)}
        rngs = game_rngs(seed, index, n)
        Arbiter(game, agents, rngs, on_applied=look).play_round(max_actions=100_000)
        result = game.round_result()
        if result is None or result.winner is None:
            continue
        for row in taken:
            order, sizes = row[:n], row[n:]
            out.append(([sizes[s] for s in order], order.index(result.winner)))
    return out


def _features(sizes: Sequence[int], k: int, far: int) -> list[float]:
    size = sizes[k]
    out = [float(size), float(size == 1), float(size == 2)] + [0.0] * far
    if k:
        out[2 + min(k, far)] = 1.0
    return out


def fit_win(data: Sequence[tuple[list[int], int]], far: int, steps: int = 10) -> list[float]:
    """The conditional logit's weights (card, one, two, distance 1..far) by Newton's method."""
    xs = [[_features(sizes, k, far) for k in range(len(sizes))] for sizes, _ in data]
    m = 3 + far
    w = [0.0] * m
    for _ in range(steps):
        grad = [0.0] * m
        hess = [[0.0] * m for _ in range(m)]
        for x, (_, y) in zip(xs, data, strict=True):
            scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in x]
            top = max(scores)
            ex = [math.exp(v - top) for v in scores]
            z = sum(ex)
            p = [e / z for e in ex]
            mean = [sum(pi * f[j] for pi, f in zip(p, x, strict=True)) for j in range(m)]
            for j in range(m):
                grad[j] += x[y][j] - mean[j]
                for i in range(m):
                    second = sum(pi * f[j] * f[i] for pi, f in zip(p, x, strict=True))
                    hess[j][i] += second - mean[j] * mean[i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` (Gauss-Jordan with partial pivoting; ``a`` is small and positive definite)."""
    m = len(b)
    rows = [[*row, v] for row, v in zip(a, b, strict=True)]
    for i in range(m):
        pivot = max(range(i, m), key=lambda r: abs(rows[r][i]))
        rows[i], rows[pivot] = rows[pivot], rows[i]
        for r in range(m):
            if r != i:
                f = rows[r][i] / rows[i][i]
                rows[r] = [u - f * v for u, v in zip(rows[r], rows[i], strict=True)]
    return [rows[i][m] / rows[i][i] for i in range(m)]


def summary(responses: Sequence[Response], file: object = sys.stdout) -> None:
    """The challenge counts per responding bot."""
    rows: dict[str, list[Response]] = defaultdict(list)
    for r in responses:
        rows[r.bot].append(r)
    print(f"{'bot':34} {'WD4s':>5} {'challenged':>10} {'legal':>6} {'accepted':>8} {'illegal':>7}",
          file=file)  # type: ignore[call-overload]
    for bot, rs in sorted(rows.items()):
        ch = [r for r in rs if r.challenged]
        acc = [r for r in rs if not r.challenged]
        print(f"{bot:34} {len(rs):5} {len(ch):10} {sum(not r.illegal for r in ch):6} {len(acc):8} "
              f"{sum(r.illegal for r in acc):7}", file=file)  # type: ignore[call-overload]


def calibration(responses: Sequence[Response]) -> None:
    """The heuristic's bluff estimate against the verdicts, and the fitted bluff factor."""
    rs = [r for r in responses if not math.isnan(r.bluff)]
    if not rs:
        return
    print("\nbluff chance   WD4s  illegal  (heuristic, challenge=odds)")
    for lo, hi in ((0, 0.1), (0.1, 0.2), (0.2, 0.35), (0.35, 0.5), (0.5, 0.75), (0.75, 1.01)):
        band = [r for r in rs if lo <= r.bluff < hi]
        if band:
            mean = sum(r.bluff for r in band) / len(band)
            rate = sum(r.illegal for r in band) / len(band)
            print(f"{lo:4.2f}-{min(hi, 1):4.2f} {len(band):10} {rate:8.1%}  (mean estimate {mean:.1%})")
    print("\nvictim cards  WD4s  illegal  mean held  fitted bluff factor")
    for lo, hi in ((1, 2), (2, 3), (3, 4), (4, 5), (5, 7), (7, 9), (9, 99)):
        band = [r for r in rs if lo <= r.victim_size < hi and r.held < 1.0]
        if band:
            rate = sum(r.illegal for r in band) / len(band)
            held = sum(r.held for r in band) / len(band)
            print(f"{lo:3}-{hi - 1:<3} {len(band):11} {rate:8.1%} {held:10.1%} {fit_factor(band):12.3f}")


def priors(responses: Sequence[Response], reckless: Sequence[float]) -> None:
    """What the heuristic's odds would have done under each prior recklessness: the legal Wild
    Draw Fours they would have challenged (2 cards more each) and the illegal ones let pass."""
    rs = [r for r in responses if r.would]
    if not rs:
        return
    print(f"\nreckless  challenged  legal  illegal accepted  ({len(rs)} answers, heuristic, challenge=odds)")
    for k, r0 in enumerate(reckless):
        ch = [r for r in rs if r.would[k]]
        missed = sum(r.illegal and not r.would[k] for r in rs)
        print(f"{r0:8.2f} {len(ch):11} {sum(not r.illegal for r in ch):6} {missed:17}")


def fit_factor(rs: Sequence[Response]) -> float:
    """The factor b maximizing the likelihood of the verdicts under held*b / (held*b + 1 - held)."""
    best, best_ll = 1.0, -math.inf
    for i in range(-300, 101):
        b = 10 ** (i / 100)
        ll = 0.0
        for r in rs:
            q = r.held * b / (r.held * b + 1.0 - r.held)
            q = min(max(q, 1e-9), 1 - 1e-9)
            ll += math.log(q if r.illegal else 1.0 - q)
        if ll > best_ll:
            best, best_ll = b, ll
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="official")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--bots", default="heuristic", help="comma-separated specs, the last repeated")
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", help="write every response as CSV to this path")
    ap.add_argument("--reckless", default="", help="comma-separated priors to compare (see the docstring)")
    ap.add_argument("--fit-win", action="store_true", help="fit the WinModel to these rounds instead")
    args = ap.parse_args(argv)
    specs = args.bots.split(",")
    specs += [specs[-1]] * (args.seats - len(specs))
    if args.fit_win:
        data = snapshots(args.preset, specs[: args.seats], args.seed, args.rounds)
        far = min(args.seats - 1, 3)
        w = [round(v, 3) for v in fit_win(data, far)]
        print(f"{len(data)} positions from {args.rounds} rounds, {args.seats} seats")
        print(f"WinModel({w[0]}, {w[1]}, {w[2]}, {(0.0, *w[3:])})")
        return 0
    reckless = [float(r) for r in args.reckless.split(",") if r.strip()]
    responses: list[Response] = []
    for i in range(args.rounds):
        play_round(args.preset, specs[: args.seats], args.seed, i, responses, reckless)
    print(f"{args.rounds} rounds, {args.preset}, {args.seats} seats, seed {args.seed}: {', '.join(specs)}")
    summary(responses)
    calibration(responses)
    priors(responses, reckless)
    if args.dump:
        with open(args.dump, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(list(Response.__dataclass_fields__))
            for r in responses:
                out.writerow([getattr(r, k) for k in Response.__dataclass_fields__])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
