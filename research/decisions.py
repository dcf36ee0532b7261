"""ismcts's decisions judged with the true hands: which variant would have chosen better.

A round's win rate moves by about 2.5 points between two runs of 400 rounds on the same deals,
too much to see the changes that are left to try. This benchmark judges decisions instead. It
plays the arena's 4-seat ``official`` rounds (its seeds and seat rotation) of the package's
ismcts against three heuristic bots, and at each decision ismcts searches:

- it *judges* every candidate action from the true position: ``--worlds`` times the draw pile is
  shuffled, and the same world is played on after each candidate to the end of the round by the
  fast policy (:mod:`unotable.bots.policy`, the model of the heuristic), scoring 1 for a round
  ismcts's seat wins. A candidate's judged value is its share of those worlds;
- it asks each *variant* which candidate it would choose from the same view, a fresh bot fed
  the seat's events.

For each variant it prints how often its choice differs from the package's, and the mean judged
value it gains over the package's choice per decision, with its standard error (over all
decisions, and where some seat holds two cards or fewer). The rounds follow the package's
choices, so every variant is judged on the same positions. The judge plays on with the policy
for every seat: a variant that models the heuristic better than the policy does gains nothing
here that it might gain in whole rounds (``--rounds``).

Variants: any ``ismcts:...`` spec of :func:`unotable.bots.make_bot` (``ismcts:prior_z=2``),
``heuristic`` (the prior ismcts keeps unless the search beats it), the samplers of
``research/hidden_info.py`` (``oracle``, ``beliefs``, ``plays``, ``beliefs+plays``), and three
playout lengths that are not in the package (:class:`PlayoutIsmcts`): ``extend=K`` (the playout
goes on to the end of the round when some seat holds K cards or fewer at the horizon),
``endgame=K`` (full playouts when some seat holds K cards or fewer at the decision) and ``lap``
(the playout stops at the seat's next turn, or after 20 actions); and ``sharpen=P``, the hand
model's weights raised to the power P (:class:`SharpIsmcts`); ``curse``, a prior threshold that
grows with the number of candidates (:class:`CurseIsmcts`); ``oracle=K``, the true hands of the
seats holding K cards or fewer and the hand model's samples for the others
(:class:`ShortOracleIsmcts`: where the oracle's gain lies); ``named``, samples in which a seat that
has just named a color holds one of it (:class:`NamedIsmcts`). ``--dump FILE`` writes every judged
decision (its candidates, their judged values, each variant's choice, the hand sizes, the seat's
hand and the top card, and the package search's statistics: each candidate's mean reward and its
paired difference from the heuristic's choice in standard errors) as JSON; ``--load FILE``
reports it again, each variant's gain broken down, and replays the package's searches with other
prior thresholds (:func:`thresholds`: the same searches, only the final rule changed).

``--rounds N`` instead plays N whole rounds with each variant in ismcts's seat and prints its
share of rounds, and against the first variant the rounds each won that the other lost; a
variant ``V@policy`` plays against three bots of the fast policy itself instead of the heuristic
(what a perfect model of the opponents would be worth).

    .venv/bin/python -m research.decisions --games 60 --jobs 2 --variants heuristic,oracle,plays
    .venv/bin/python -m research.decisions --rounds 400 --variants plain,extend=1,lap
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from research import hidden_info
from unotable.actions import Action
from unotable.arbiter import derive_seed
from unotable.bots import make_bot, policy
from unotable.bots.arena import wilson
from unotable.bots.base import BaseBot, Bot
from unotable.bots.determinize import Determinizer, Weigh
from unotable.bots.heuristic import HeuristicBot
from unotable.bots.ismcts import IsmctsBot, Node, _reward, _SameSeed, paired_difference
from unotable.cards import ID_COLOR, ID_IS_WILD, ID_RANK, WILD_DRAW_FOUR, Card, Color, Rank
from unotable.events import (
    CardPlayed,
    ColorChosen,
    Drew,
    Event,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    RoundStarted,
)
from unotable.game import Game
from unotable.phase import Phase
from unotable.resolve import apply
from unotable.state import State
from unotable.views import PlayerView


class PlayoutIsmcts(IsmctsBot):
    """ismcts with another playout length (see the module docstring)."""

    def __init__(self, extend: int = 0, endgame: int = 0, lap: bool = False) -> None:
        super().__init__(horizon=20 if lap else None)
        self.extend, self.endgame, self.lap = extend, endgame, lap
        self._full = False

    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        sizes = [view.hand_sizes[s] for s in range(len(view.hand_sizes)) if view.in_round[s]]
        self._full = bool(self.endgame) and min(sizes) <= self.endgame
        return super().search(view, candidates, rng)

    def _descend(
        self, st: State, node: Node, me: int, partners: bool, horizon: int, rng: random.Random
    ) -> tuple[float, int]:
        cap = self.rollout_cap if self._full or not horizon else horizon
        steps = 0
        while st.phase < Phase.ROUND_OVER:
            if steps >= cap:
                if cap == self.rollout_cap or not self.extend:
                    break
                if min(len(st.hands[s]) for s in range(st.n) if st.in_round[s]) > self.extend:
                    break
                cap = self.rollout_cap
            if self.lap and steps and st.active == me and st.phase is Phase.PLAY:
                break
            policy.step(st)
            steps += 1
        return _reward(st, me, partners), steps


class SharpIsmcts(IsmctsBot):
    """ismcts whose hand-model weights are raised to a power (``sharpen=P``): above 1 the samples
    follow the model more closely than the weighted sampling does, below 1 less."""

    def __init__(self, power: float) -> None:
        super().__init__()
        self.power = power

    def _weigh(self, view: PlayerView) -> Weigh | None:
        weigh = super()._weigh(view)
        if weigh is None:
            return None
        power = self.power

        def sharp(seat: int, size: int, cards: Sequence[int]) -> list[float]:
            return [w ** power for w in weigh(seat, size, cards)]

        return sharp


class ShortOracleIsmcts(IsmctsBot):
    """ismcts that sees the true hands of the seats holding ``k`` cards or fewer (``oracle=K``),
    the others dealt by the hand model as in the package: how much of the oracle's gain lies in
    the short hands."""

    game: Game | None = None

    def __init__(self, k: int) -> None:
        super().__init__()
        self.k = k

    def sample_world(self, det: Determinizer, rng: random.Random) -> State:
        world = det.sample(rng)
        assert self.game is not None
        truth = self.game.clone_state()
        me = det.view.seat
        for s in range(world.n):
            if s == me or not world.in_round[s] or len(truth.hands[s]) > self.k:
                continue
            want = list(truth.hands[s])
            have = list(world.hands[s])
            for c in want[:]:
                if c in have:
                    have.remove(c)
                    want.remove(c)
            # each wanted card sits elsewhere in the sample: swap it with one of the unwanted ones
            for c, spare in zip(want, have, strict=True):
                for pile in [world.hands[t] for t in range(world.n) if t not in (s, me)] + [world.draw]:
                    if c in pile:
                        pile[pile.index(c)] = spare
                        break
                else:
                    raise AssertionError(f"card {c} of seat {s} is nowhere in the sample")
            world.hands[s] = list(truth.hands[s])
        return world


class NamedIsmcts(IsmctsBot):
    """ismcts whose samples give a seat that named a color with a wild, and has neither played nor
    taken cards since, at least one card of that color (``named``: the heuristic names the color
    it holds most of, a condition on the hand as a whole that the hand model's per-card weights
    only approach). Up to ``tries`` samples; else the one with the fewest seats wrong."""

    def __init__(self, tries: int = 10) -> None:
        super().__init__()
        self.tries = tries
        self.fresh: dict[int, int] = {}

    def observe(self, events: Sequence[Event]) -> None:
        super().observe(events)
        for e in events:
            if isinstance(e, RoundStarted | HandsSwapped | HandsPassed | HandsShuffled):
                self.fresh = {}
            elif isinstance(e, CardPlayed):
                self.fresh.pop(e.seat, None)
                if e.color is not None and ID_IS_WILD[e.card.id]:
                    self.fresh[e.seat] = int(e.color)
            elif isinstance(e, ColorChosen):
                self.fresh[e.seat] = int(e.color)
            elif isinstance(e, Drew):
                self.fresh.pop(e.seat, None)

    def sample_world(self, det: Determinizer, rng: random.Random) -> State:
        me = det.view.seat
        conds = [(s, col) for s, col in self.fresh.items() if s != me]

        def wrong(world: State) -> int:
            hands = world.hands
            return sum(1 for s, col in conds if hands[s] and all(ID_COLOR[c] != col for c in hands[s]))

        return hidden_info.least_wrong(det, rng, self.tries if conds else 1, wrong, lambda n: n == 0)


class CurseIsmcts(IsmctsBot):
    """ismcts whose prior threshold grows with the number of candidates (``curse``): the best of k
    noisy means beats the prior by one standard error by chance more often the larger k is, so
    the threshold is the one-sided normal quantile of 0.1587 / (k - 1) (Bonferroni over the k - 1
    comparisons with the prior; 1.0 for two candidates, as the package)."""

    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        k = max(2, len(candidates))
        self.prior_z = statistics.NormalDist().inv_cdf(1.0 - 0.15866 / (k - 1))
        return super().search(view, candidates, rng)


def build(spec: str, game: Game) -> BaseBot:
    """The bot a variant names (see the module docstring); ``game`` is what an oracle sees."""
    if spec in ("plain", "ismcts"):
        return IsmctsBot()
    if spec == "heuristic":
        return HeuristicBot()
    if spec.startswith("ismcts:"):
        bot = make_bot(spec)
        assert isinstance(bot, IsmctsBot)
        return bot
    if spec in hidden_info.VARIANTS:
        sampler = hidden_info.build(spec, 0.1, 8)
        if isinstance(sampler, hidden_info.OracleIsmcts):
            sampler.game = game
        return sampler
    if spec == "lap":
        return PlayoutIsmcts(lap=True)
    if spec == "curse":
        return CurseIsmcts()
    if spec == "named":
        return NamedIsmcts()
    name, _, value = spec.partition("=")
    if name == "oracle" and value.isdigit():
        short = ShortOracleIsmcts(int(value))
        short.game = game
        return short
    if name == "sharpen" and value.replace(".", "", 1).isdigit():
        return SharpIsmcts(float(value))
    if name in ("extend", "endgame") and value.isdigit():
        return PlayoutIsmcts(extend=int(value)) if name == "extend" else PlayoutIsmcts(endgame=int(value))
    raise SystemExit(f"unknown variant {spec!r} (see python -m research.decisions --help)")


def judge(truth: State, me: int, candidates: Sequence[Action], worlds: int, seed: int) -> list[float]:
    """Each candidate's share of ``worlds`` won from the true position (the draw pile shuffled,
    the same world after each candidate, full policy playouts)."""
    rng = random.Random(seed)
    won = [0.0] * len(candidates)
    for _ in range(worlds):
        world = truth.copy()
        rng.shuffle(world.draw)
        world.rng = _SameSeed(rng.getrandbits(63))
        for i, a in enumerate(candidates):
            st = world.copy()
            apply(st, me, a, None)
            policy.react(st)
            steps = 0
            while st.phase < Phase.ROUND_OVER and steps < 1000:
                policy.step(st)
                steps += 1
            won[i] += _reward(st, me, False)
    return [w / worlds for w in won]


Record = dict[str, Any]


def judge_round(job: tuple[int, int, int, tuple[str, ...]]) -> list[Record]:
    """Round ``index`` of the arena's run of ``seed``: each of ismcts's searched decisions judged."""
    index, seed, worlds, variants = job
    records: list[Record] = []

    def judged(game: Game) -> Bot:
        class Judged(IsmctsBot):
            def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
                seat = view.seat
                events = game.events_for(seat)
                truth = game.clone_state()
                chosen = super().search(view, candidates, rng)
                n = len(records)
                values = judge(truth, seat, candidates, worlds, derive_seed(seed, "judge", index, n))
                choices = {"": candidates.index(chosen)}
                for spec in variants:
                    bot = build(spec, game)
                    bot.observe(events)
                    vrng = random.Random(derive_seed(seed, "variant", index, n))
                    if isinstance(bot, IsmctsBot):
                        a: Action | None = bot.search(view, candidates, vrng)
                    else:
                        a = bot.choose(view, candidates, vrng)
                    choices[spec] = candidates.index(a) if a in candidates else choices[""]
                records.append(
                    {
                        "values": values,
                        "choices": choices,
                        "search": search_stats(self.last_results, self.last_prior),
                        "fewest": min(view.hand_sizes),
                        "candidates": [str(a) for a in candidates],
                        "sizes": list(view.hand_sizes),
                        "hand": [str(c) for c in view.hand],
                        "top": str(view.top_card),
                        "color": None if view.current_color is None else int(view.current_color),
                        "seat": seat,
                    }
                )
                return chosen

        return Judged()

    hidden_info.arena_round(index, seed, judged)
    return records


def search_stats(results: Sequence[Sequence[float]], prior: int | None) -> Record:
    """What the package's search saw: each candidate's mean reward, and its paired difference
    from the prior's (the heuristic's choice) in standard errors (0 for the prior itself)."""
    means = [sum(r) / len(r) if r else 0.0 for r in results]  # as the package sums them
    z = [0.0] * len(results)
    if prior is not None:
        for i, r in enumerate(results):
            if i != prior:
                mean, se = paired_difference(r, results[prior])  # the package's own statistic
                z[i] = mean / se if se > 0 else math.copysign(1e9, mean) if mean else 0.0
    return {"means": means, "prior": prior, "z": z}


THRESHOLDS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, math.inf)
"""The prior thresholds :func:`thresholds` replays (``inf``: the heuristic wherever it has a choice)."""


def threshold_choice(record: Record, z: float) -> int:
    """The candidate the package's rule picks from the search's statistics with ``prior_z=z``:
    the best mean, unless it beats the heuristic's choice by ``z`` standard errors or fewer."""
    stats = record["search"]
    means, prior = stats["means"], stats["prior"]
    best = max(range(len(means)), key=lambda i: (means[i], -i))
    if prior is None or best == prior or stats["z"][best] > z:
        return best
    return int(prior)


def thresholds(records: Sequence[Record]) -> list[str]:
    """The judged gain of other prior thresholds over the package's, replayed from the search
    statistics of a ``--dump`` (the same searches, only the final rule changed)."""
    lines = []
    for z in THRESHOLDS:
        picks = [(r, threshold_choice(r, z)) for r in records]
        gains = [r["values"][i] - r["values"][r["choices"][""]] for r, i in picks]
        differ = sum(1 for r, i in picks if i != r["choices"][""])
        m, se = _mean_se(gains)
        lines.append(f"  prior_z={z:g}: differs {differ:5d}   gain {m:+.4f} (se {se:.4f})")
    return lines


HOLDS = ("draw", "pass")
"""The candidates (as text) that keep the hand: a draw or a pass."""

CORRECTION_FEATURES = ("draw", "pass", "wild short", "wild long", "wd4 short", "wd4 long", "named held",
                       "skip or reverse", "draw two", "high", "switch", "color held")
"""What :func:`corrections` fits a correction of the search's means on, per candidate ("short": a
hand of three cards or fewer; "named held", "color held": cards of the color named or played that
stay in the hand)."""


def candidate_features(record: Record, candidate: str) -> list[float]:
    """The :data:`CORRECTION_FEATURES` of one candidate (its text: ``R7!``, ``W4:G``, ``draw``)."""
    f = dict.fromkeys(CORRECTION_FEATURES, 0.0)
    colors = [ID_COLOR[Card.parse(h).id] for h in record["hand"]]
    if candidate in HOLDS:
        f[candidate] = 1.0
    elif not candidate.startswith("color:"):
        text, _, named = candidate.rstrip("!").partition(":")
        card = Card.parse(text).id
        if ID_IS_WILD[card]:
            length = "short" if len(colors) <= 3 else "long"
            f[f"{'wd4' if card == WILD_DRAW_FOUR else 'wild'} {length}"] = 1.0
            f["named held"] = colors.count(int(Color.parse(named)))
        else:
            rank = ID_RANK[card]
            f["skip or reverse"] = float(rank in (Rank.SKIP, Rank.REVERSE))
            f["draw two"] = float(rank == Rank.DRAW_TWO)
            f["high"] = float(5 <= rank <= 9)
            f["switch"] = float(ID_COLOR[card] != record["color"])
            f["color held"] = colors.count(ID_COLOR[card]) - 1
    return [f[n] for n in CORRECTION_FEATURES]


def corrections(records: Sequence[Record], folds: int = 2) -> list[str]:
    """A learned correction of the search, judged out of sample: a linear model of how far the
    judged values stand from the search's means (both centred per decision) on the candidates'
    features, fitted on all folds but one; in the held-out fold the decision is the best corrected
    mean, against the best plain mean (``prior_z=0``). The bench extra provides numpy."""
    import numpy as np

    def rows(r: Record) -> tuple[Any, Any, Any]:
        x = np.array([candidate_features(r, c) for c in r["candidates"]])
        m, v = np.array(r["search"]["means"]), np.array(r["values"])
        return x - x.mean(0), m, v

    data = [rows(r) for r in records]
    gains: list[float] = []
    plain: list[float] = []
    for k in range(folds):
        train = [d for i, d in enumerate(data) if i % folds != k]
        x = np.vstack([t[0] for t in train])
        y = np.concatenate([(v - v.mean()) - (m - m.mean()) for _, m, v in train])
        beta = np.linalg.lstsq(x, y, rcond=None)[0]
        for i, r in enumerate(records):
            if i % folds == k:
                xr, m, v = data[i]
                base = v[r["choices"][""]]
                gains.append(float(v[int(np.argmax(m + xr @ beta))] - base))
                plain.append(float(v[int(np.argmax(m))] - base))
    lines = []
    for name, g in (("best plain mean", plain), ("best corrected mean", gains)):
        m_, se = _mean_se(g)
        lines.append(f"  {name}: gain {m_:+.4f} (se {se:.4f}) over the package's choice, {folds}-fold")
    return lines


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return (statistics.fmean(xs) if xs else 0.0), 0.0
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def report(records: Sequence[Record], variants: Sequence[str]) -> list[str]:
    """One line per variant: choices that differ, the mean judged gain over ismcts's choice."""
    lines = [f"{len(records)} decisions; gain: the judged value of the variant's choice less ismcts's"]
    for spec in variants:
        gains, near = [], []
        differ = 0
        for r in records:
            v, c = r["values"], r["choices"]
            g = v[c[spec]] - v[c[""]]
            differ += c[spec] != c[""]
            gains.append(g)
            if r["fewest"] <= 2:
                near.append(g)
        m, se = _mean_se(gains)
        mn, sen = _mean_se(near)
        lines.append(
            f"{spec:28s} differs {differ:5d}   gain {m:+.4f} (se {se:.4f})   "
            f"where a seat holds <= 2 cards ({len(near)}): {mn:+.4f} (se {sen:.4f})"
        )
    return lines


def breakdown(records: Sequence[Record], spec: str) -> list[str]:
    """Where a variant's summed gain over ismcts's choices lies: another card, holding (a draw or
    a pass) against playing, another color or flag of the same card (records from ``--dump``)."""
    parts: dict[str, list[float]] = {"another card": [], "hold or play": [], "another color or flag": []}
    for r in records:
        v, c, cands = r["values"], r["choices"], r["candidates"]
        mine, theirs = cands[c[""]], cands[c[spec]]
        if mine == theirs:
            continue
        if (mine in HOLDS) != (theirs in HOLDS):
            part = "hold or play"
        elif mine.rstrip("!").partition(":")[0] == theirs.rstrip("!").partition(":")[0]:
            part = "another color or flag"
        else:
            part = "another card"
        parts[part].append(v[c[spec]] - v[c[""]])
    return [f"  {spec}: {name} {len(gs)} decisions, summed gain {sum(gs):+.2f}" for name, gs in parts.items()]


def play_round(job: tuple[str, int, int]) -> tuple[str, int, bool]:
    """Round ``index`` of the arena's 4-seat official run of ``seed``, ``spec`` in ismcts's seat
    (``spec@policy``: against three :class:`hidden_info.PolicyBot` instead of heuristic bots)."""
    spec, index, seed = job
    bot, _, opponent = spec.partition("@")
    won = hidden_info.arena_round(index, seed, lambda game: build(bot, game), opponent or "heuristic")
    return spec, index, won


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="rounds whose decisions are judged")
    parser.add_argument("--start", type=int, default=0, help="the first round's index in the arena's run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=400, help="worlds per judged decision")
    parser.add_argument("--variants", default="heuristic,oracle")
    parser.add_argument("--dump", default="", help="write every judged decision to this JSON file")
    parser.add_argument("--load", default="", help="report a --dump file again, each gain broken down")
    parser.add_argument("--rounds", type=int, default=0, help="play N whole rounds per variant instead")
    args = parser.parse_args(argv)
    if args.load:
        with open(args.load) as f:
            dumped: list[Record] = json.load(f)
        names = [v for v in dumped[0]["choices"] if v] if dumped else []
        for line in report(dumped, names):
            print(line)
        for v in names:
            for line in breakdown(dumped, v):
                print(line)
        if dumped and "search" in dumped[0]:
            print("the package's searches replayed with other prior thresholds:")
            for line in thresholds(dumped):
                print(line)
            print("a correction of the search's means learned from the judged values:")
            for line in corrections(dumped):
                print(line)
        return 0
    variants = tuple(v.strip() for v in args.variants.split(",") if v.strip())
    for v in variants:
        bot, _, opponent = v.partition("@")
        if opponent not in ("", "policy") or (opponent and not args.rounds):
            raise SystemExit(f"{v!r}: '@policy' is the only other opponent, and only with --rounds")
        build(bot, Game.new(seats=4, seed=0))  # an unknown name stops here
    started = time.perf_counter()
    if args.rounds:
        ids = range(args.start, args.start + args.rounds)
        won: dict[str, dict[int, bool]] = {v: {} for v in variants}
        with Pool(args.jobs) as pool:
            games = [(v, i, args.seed) for v in variants for i in ids]
            for v, i, w in pool.imap_unordered(play_round, games, 2):
                won[v][i] = w
        print(f"4-seat official, one ismcts against three heuristic, {args.rounds} rounds from {args.start}, "
              f"seed {args.seed} ({time.perf_counter() - started:.0f} s)")
        first = variants[0]
        for v in variants:
            wins = sum(won[v].values())
            lo, hi = wilson(wins, args.rounds)
            up = sum(1 for i in ids if won[v][i] and not won[first][i])
            down = sum(1 for i in ids if won[first][i] and not won[v][i])
            print(f"{v:28s} {wins:5d}/{args.rounds} = {wins / args.rounds:.1%} [{lo:.1%}-{hi:.1%}]"
                  + (f"   vs {first}: won {up} it lost, lost {down} it won" if v != first else ""))
        return 0
    jobs = [(i, args.seed, args.worlds, variants) for i in range(args.start, args.start + args.games)]
    records: list[Record] = []
    with Pool(args.jobs) as pool:
        for recs in pool.imap_unordered(judge_round, jobs):
            records.extend(recs)
    print(f"4-seat official, ismcts against three heuristic: {args.games} rounds from {args.start}, "
          f"seed {args.seed}, "
          f"{args.worlds} worlds per decision ({time.perf_counter() - started:.0f} s)")
    for line in report(records, variants):
        print(line)
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump(records, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
