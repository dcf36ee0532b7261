"""What the hidden hands are worth to ismcts, and what reading the other seats' plays recovers.

ismcts samples the other hands under the sound inferences of :class:`~unotable.bots.determinize.Tracker`,
by the weights of its hand model (:mod:`unotable.bots.handmodel`). This benchmark plays 4-seat
(``--seats``: 2 to 10) ``official`` rounds of one ismcts against three heuristic bots (the arena's
seats, seeds and seat rotation, so ``plain`` reproduces ``unotable simulate``) with other samplers
in its place:

- ``plain``: the package's ismcts;
- ``uniform``: ``ismcts:hand_model=false``, the other hands dealt uniformly (the package's
  sampler before the hand model; the next three build on it);
- ``oracle``: every sample holds the true hands (the draw pile is still shuffled): the most any
  inference about the hands could give;
- ``beliefs``: ``ismcts:beliefs=true`` (a draw read as "held nothing playable");
- ``plays``: rejection sampling on each other seat's last two plays since it last took cards: a
  sample whose hand would have made the fast policy (the model of the heuristic) choose another
  card, or name another color, is kept with chance ``--eps`` per such play (``--tries`` samples
  at most, then the one with the fewest misses);
- ``beliefs+plays``: both;
- ``hands+beliefs``: ``ismcts:beliefs=true`` over the hand model's samples;
- ``hands+plays``: ``plays`` over the package's samples (the hand model's weights) instead of
  uniform ones.
- ``sir4``, ``sir4h``, ``sir8h``: sampling-importance-resampling over the package's samples: of 4
  (8) samples one is kept with weight ``eps ** misses`` (the same misses as ``plays``); with
  ``h`` the fast policy judges each play at the hand sizes of that moment rather than now
  (``--fit-rate 60``: the true hands then explain 97.5% of the other seats' last plays instead of
  95.7%, at seat 0's turns in 60 rounds of heuristic self-play); ``sir8h-all`` judges every play
  of a seat since it last took cards, not only the last two.

It prints each variant's share of rounds with its 95% interval, and against the first variant
the rounds each one won that the other lost (the same deals). ``--quality N`` instead measures how
close each sampler's hands are to the true ones over N rounds: the Brier score of "this seat
holds a card of color c / a wild" (summed over the 3 other seats and 5 features, per decision;
0 is the oracle), averaged over ismcts's decisions.

    .venv/bin/python -m research.hidden_info --games 400 --jobs 2 --variants uniform,plain,oracle
    .venv/bin/python -m research.hidden_info --games 400 --jobs 2 --seats 2 --variants plain,oracle
    .venv/bin/python -m research.hidden_info --quality 30
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing import Pool
from typing import NamedTuple

from unotable.actions import Action, CallUno, Catch
from unotable.arbiter import Arbiter, derive_seed
from unotable.bots import make_bot, policy
from unotable.bots.arena import Config, game_rngs, seating, wilson
from unotable.bots.base import BaseBot, Bot, is_turn
from unotable.bots.determinize import Determinizer
from unotable.bots.heuristic import HeuristicBot
from unotable.bots.ismcts import IsmctsBot
from unotable.cards import ID_COLOR, ID_RANK, NUM_COLORED_IDS, WILD_DRAW_FOUR
from unotable.events import (
    CardPlayed,
    Challenged,
    ColorChosen,
    DirectionChanged,
    DrawReason,
    Drew,
    Event,
    FirstCard,
    HandDealt,
    Passed,
    RoundStarted,
)
from unotable.game import Game
from unotable.phase import Phase
from unotable.rules import Ruleset
from unotable.state import State
from unotable.views import PlayerView

VARIANTS = (
    "plain", "uniform", "oracle", "beliefs", "plays", "beliefs+plays", "hands+plays", "hands+beliefs", "sir4",
    "sir4h", "sir8h", "sir8h-all",
)


class PlayContext(NamedTuple):
    """One play from a seat's own turn: the card, and the top card, color and direction it met
    (``top`` is -1 for a play that proves nothing: a jump-in, a drawn card, a Wild Draw Four)."""

    card: int
    top: int
    color: int
    direction: int
    named: int
    sizes: tuple[int, ...] = ()
    """Every seat's hand size before the play (the ``h`` variants judge the play at these: the fast
    policy's attacks depend on the next seat's hand size then, not now)."""


class PlayRecord:
    """Each seat's plays since it last took cards: its hand at a play was its hand now plus the
    cards it played from then on."""

    def __init__(self) -> None:
        self.plays: dict[int, list[PlayContext]] = {}
        self.top = -1
        self.color = -1
        self.direction = 1
        self.drew: set[int] = set()
        self.sizes: list[int] = []
        self.in_round: tuple[bool, ...] = ()

    def observe(self, events: Sequence[Event]) -> None:
        for e in events:
            if isinstance(e, RoundStarted):
                self.plays, self.drew = {}, set()
                self.top, self.color, self.direction = -1, -1, 1
                self.in_round = tuple(e.in_round)
                self.sizes = [0] * len(e.in_round)
            elif isinstance(e, HandDealt):
                self.sizes = [len(e.cards) if inr else 0 for inr in self.in_round]
            elif isinstance(e, FirstCard):
                self.top, self.color = e.card.id, ID_COLOR[e.card.id]
            elif isinstance(e, CardPlayed):
                c, s = e.card.id, e.seat
                named = int(e.color) if e.color is not None else -1
                proves = not (e.jump_in or s in self.drew or self.top < 0 or c == WILD_DRAW_FOUR)
                self.plays.setdefault(s, []).append(
                    PlayContext(c, self.top, self.color, self.direction, named, tuple(self.sizes))
                    if proves
                    else PlayContext(c, -1, -1, 0, -1)
                )
                if 0 <= s < len(self.sizes):
                    self.sizes[s] = max(0, self.sizes[s] - 1)
                self.drew.discard(s)
                self.top = c
                self.color = ID_COLOR[c] if ID_COLOR[c] >= 0 else named
            elif isinstance(e, ColorChosen):
                self.color = int(e.color)
            elif isinstance(e, DirectionChanged):
                self.direction = e.direction
            elif isinstance(e, Drew):
                self.plays[e.seat] = []
                if 0 <= e.seat < len(self.sizes):
                    self.sizes[e.seat] += e.count
                if e.reason is DrawReason.DRAW:
                    self.drew.add(e.seat)
            elif isinstance(e, Passed):
                self.drew.discard(e.seat)
            elif isinstance(e, Challenged):
                self.plays = {}

    def misses(self, st: State, me: int, depth: int, history: bool = False) -> int:
        """How many of the last ``depth`` plays of each other seat the policy would not have
        chosen from the hand that ``st`` gives the seat then."""
        out = 0
        for s, plays in self.plays.items():
            if s == me or not plays:
                continue
            hand = st.hands[s][:]
            for ctx in reversed(plays[-depth:]):
                hand.append(ctx.card)
                if ctx.top >= 0 and not fits(st, s, hand, ctx if history else ctx._replace(sizes=())):
                    out += 1
        return out


def fits(st: State, s: int, hand: list[int], ctx: PlayContext) -> bool:
    """Whether the fast policy holding ``hand`` (the played card included) would have played that
    card, or one it scores as high, on the top card and color it met, naming a color it holds
    most of."""
    top_rank = ID_RANK[ctx.top] if ID_COLOR[ctx.top] >= 0 else -1
    saved = st.color, st.direction, st.hands
    st.color, st.direction = ctx.color, ctx.direction
    if ctx.sizes:  # the other hands as large as they were then (only their sizes are read)
        st.hands = [hand if t == s else [0] * ctx.sizes[t] for t in range(len(ctx.sizes))]
    try:
        cnt = policy._colors(hand)
        bestcol = policy._best(cnt)
        best = mine = -1e9
        for c in set(hand):
            if ID_COLOR[c] >= 0 and ID_COLOR[c] != ctx.color and ID_RANK[c] != top_rank:
                continue
            score, _ = policy._score_card(st, s, c, hand, cnt, bestcol)
            best = max(best, score)
            if c == ctx.card:
                mine = score
        return mine >= best - 1e-9 and (ctx.named < 0 or cnt[ctx.named] == cnt[bestcol])
    finally:
        st.color, st.direction, st.hands = saved


class PlaysIsmcts(IsmctsBot):
    """ismcts whose samples are weighted by the other seats' plays (see the module docstring)."""

    def __init__(
        self, eps: float = 0.1, depth: int = 2, tries: int = 8, sir: int = 0, history: bool = False,
        **options: object,
    ) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.eps, self.depth, self.tries = eps, depth, tries
        self.sir, self.history = sir, history
        self.record = PlayRecord()

    def observe(self, events: Sequence[Event]) -> None:
        super().observe(events)
        self.record.observe(events)

    def sample_world(self, det: Determinizer, rng: random.Random) -> State:
        if self.sir:  # sampling-importance-resampling: one of ``sir`` samples, by eps ** misses
            worlds = [det.sample(rng) for _ in range(self.sir)]
            me = det.view.seat
            weights = [self.eps ** self.record.misses(w, me, self.depth, self.history) for w in worlds]
            return rng.choices(worlds, weights)[0]
        me, eps = det.view.seat, self.eps
        return least_wrong(
            det, rng, self.tries, lambda w: self.record.misses(w, me, self.depth),
            lambda misses: misses == 0 or rng.random() < eps**misses,
        )


def least_wrong(
    det: Determinizer,
    rng: random.Random,
    tries: int,
    wrong: Callable[[State], int],
    keep: Callable[[int], bool],
) -> State:
    """Rejection sampling: the first of at most ``tries`` samples whose count of ``wrong`` things
    ``keep`` accepts, else the sample with the fewest."""
    best, fewest = None, 1 << 30
    for _ in range(tries):
        world = det.sample(rng)
        n = wrong(world)
        if keep(n):
            return world
        if n < fewest:
            best, fewest = world, n
    assert best is not None
    return best


class OracleIsmcts(IsmctsBot):
    """ismcts that sees the true hands (``game`` is set by the runner); the draw pile is shuffled."""

    game: Game | None = None

    def sample_world(self, det: Determinizer, rng: random.Random) -> State:
        assert self.game is not None
        st = self.game.clone_state()
        rng.shuffle(st.draw)
        return st


def build(variant: str, eps: float, tries: int) -> IsmctsBot:
    if variant == "plain":
        return IsmctsBot()
    if variant == "uniform":
        return IsmctsBot(hand_model=False)
    if variant == "oracle":
        return OracleIsmcts()
    if variant == "beliefs":
        return IsmctsBot(beliefs=True, hand_model=False)
    if variant == "hands+beliefs":
        return IsmctsBot(beliefs=True)
    if variant in ("plays", "beliefs+plays"):
        return PlaysIsmcts(eps=eps, tries=tries, beliefs=variant == "beliefs+plays", hand_model=False)
    if variant == "hands+plays":
        return PlaysIsmcts(eps=eps, tries=tries)
    if variant.startswith("sir"):  # sir4, sir4h (h: the sizes at the play), on the hand model;
        rest = variant[3:].removesuffix("-all")  # -all: every play since the seat took cards
        depth = 1_000 if variant.endswith("-all") else 2
        return PlaysIsmcts(eps=eps, sir=int(rest.rstrip("h")), history=rest.endswith("h"), depth=depth)
    raise SystemExit(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")


def lineup(seats: int) -> tuple[str, ...]:
    """ismcts and ``seats - 1`` heuristic bots, the arena's order (seats rotate per round)."""
    return ("ismcts",) + ("heuristic",) * (seats - 1)



class PolicyBot(BaseBot):
    """The fast policy (:mod:`unotable.bots.policy`, ismcts's model of the heuristic) as a bot.

    It reads the game's state, but the policy looks only at its own hand, the hand sizes and the
    public pile (a benchmark opponent: ismcts against the very model it searches with)."""

    name = "policy"

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        for a in legal:
            if isinstance(a, CallUno | Catch):
                return a
        if not is_turn(view):
            return None
        a = policy.choose(self.game.clone_state(), view.seat, list(legal))
        return a if a in legal else legal[0]


def arena_round(
    index: int, seed: int, ismcts: Callable[[Game], Bot], opponent: str = "heuristic", seats: int = 4
) -> bool:
    """Play round ``index`` of the arena's ``seats``-seat official run of ``seed`` (its seat rotation
    and seeds), ``ismcts(game)`` in ismcts's seat and heuristic bots in the others
    (``opponent="policy"``: :class:`PolicyBot`); whether it won."""
    config = Config(Ruleset.preset("official").to_dict(), seats, lineup(seats), seed)
    specs, game_seed = seating(config, index)
    game = Game.new(seats=seats, ruleset=config.rules(), seed=game_seed)
    bots: list[Bot] = [
        ismcts(game) if spec == "ismcts" else PolicyBot(game) if opponent == "policy" else make_bot(spec)
        for spec in specs
    ]
    rngs = game_rngs(seed, index, seats)
    Arbiter(game, dict(enumerate(bots)), rngs).play_round(100_000)
    result = game.round_result()
    return result is not None and result.winner is not None and specs[result.winner] == "ismcts"


def play_round(job: tuple[str, int, int, float, int, int]) -> tuple[str, int, bool]:
    """Round ``index`` of the arena's ``seats``-seat official run of ``seed``, ``variant`` in
    ismcts's seat."""
    variant, index, seed, eps, tries, seats = job

    def ismcts(game: Game) -> Bot:
        bot = build(variant, eps, tries)
        if isinstance(bot, OracleIsmcts):
            bot.game = game
        return bot

    return variant, index, arena_round(index, seed, ismcts, seats=seats)


def seat0_turns(
    label: str, r: int, watchers: Sequence[PlayRecord | IsmctsBot]
) -> Iterator[tuple[Game, random.Random]]:
    """Round ``r`` of 4-seat heuristic self-play (seeded by ``label``); ``watchers`` read seat 0's
    events; yields the game and the round's generator at each of seat 0's turns to play."""
    game = Game.new(seats=4, seed=derive_seed(1, label, r))
    bots = [HeuristicBot() for _ in range(4)]
    seen = [0] * 4
    rng = random.Random(r)
    while game.phase < Phase.ROUND_OVER:
        for s in range(4):
            events = game.events_for(s)
            bots[s].observe(events[seen[s]:])
            if s == 0:
                for w in watchers:
                    w.observe(events[seen[0]:])
            seen[s] = len(events)
        seat = game.active_seat
        if seat == 0 and game.phase is Phase.PLAY:
            yield game, rng
        action = bots[seat].choose(game.view(seat), game.legal_actions_for(seat), rng)
        assert action is not None
        game.play(action)


def quality(rounds: int, eps: float, tries: int, samples: int = 40) -> dict[str, float]:
    """The mean Brier score of each sampler's other hands (see the module docstring)."""

    def holds(hand: list[int]) -> list[int]:
        f = [0] * 5
        for c in hand:
            f[4 if c >= NUM_COLORED_IDS else ID_COLOR[c]] = 1
        return f

    names = [v for v in VARIANTS if v != "oracle"]
    score = dict.fromkeys(names, 0.0)
    decisions = 0
    for r in range(rounds):
        watchers = {v: build(v, eps, tries) for v in names}
        for game, rng in seat0_turns("quality", r, list(watchers.values())):
            truth = game.clone_state()
            view = game.view(0)
            for name, w in watchers.items():
                det = Determinizer(view, w.tracker)
                acc = [[0] * 5 for _ in range(4)]
                for _ in range(samples):
                    world = w.sample_world(det, rng)
                    for o in (1, 2, 3):
                        for i, x in enumerate(holds(world.hands[o])):
                            acc[o][i] += x
                for o in (1, 2, 3):
                    t = holds(truth.hands[o])
                    score[name] += sum((acc[o][i] / samples - t[i]) ** 2 for i in range(5))
            decisions += 1
    return {k: v / max(1, decisions) for k, v in score.items()}


def fit_rate(rounds: int) -> dict[str, tuple[int, int]]:
    """How many of the other seats' last plays the fast policy explains from the true hands,
    judged at the hand sizes of now and of the play's moment: (plays checked, plays missed), at
    seat 0's turns in ``rounds`` rounds of 4-seat heuristic self-play."""
    out = {"now": (0, 0), "then": (0, 0)}
    for r in range(rounds):
        record = PlayRecord()
        for game, _ in seat0_turns("fitrate", r, [record]):
            truth = game.clone_state()
            checked = sum(1 for s, p in record.plays.items() if s != 0 and p and p[-1].top >= 0)
            for name, history in (("now", False), ("then", True)):
                c, m = out[name]
                out[name] = (c + checked, m + record.misses(truth, 0, 1, history))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=4, choices=range(2, 11), metavar="2..10",
                        help="the table's seats (the round benchmark only; 2: heads-up)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", default="plain,oracle,plays")
    parser.add_argument("--eps", type=float, default=0.1, help="chance to keep a sample per unexplained play")
    parser.add_argument("--tries", type=int, default=8, help="samples drawn at most per iteration (plays)")
    parser.add_argument("--quality", type=int, default=0, help="the samplers' Brier score over N rounds")
    parser.add_argument("--fit-rate", type=int, default=0,
                        help="the share of plays the policy explains from the true hands, N rounds")
    args = parser.parse_args(argv)
    if args.fit_rate:
        for name, (checked, missed) in fit_rate(args.fit_rate).items():
            print(f"sizes of {name:4s}: {checked} plays, {missed} unexplained, "
                  f"{1 - missed / max(1, checked):.1%} explained")
        return 0
    if args.quality:
        for name, value in quality(args.quality, args.eps, args.tries).items():
            print(f"{name:14s} Brier {value:.3f}")
        return 0
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        build(v, args.eps, args.tries)  # an unknown name stops here
    jobs = [(v, i, args.seed, args.eps, args.tries, args.seats) for v in variants for i in range(args.games)]
    started = time.perf_counter()
    won: dict[str, dict[int, bool]] = {v: {} for v in variants}
    with Pool(args.jobs) as pool:
        for v, i, w in pool.imap_unordered(play_round, jobs, chunksize=2):
            won[v][i] = w
    print(f"{args.seats}-seat official, one ismcts against {args.seats - 1} heuristic, {args.games} rounds, "
          f"seed {args.seed} ({time.perf_counter() - started:.0f} s)")
    for v in variants:
        wins = sum(won[v].values())
        lo, hi = wilson(wins, args.games)
        line = f"{v:14s} {wins:5d}/{args.games} = {wins / args.games:.1%} [{lo:.1%}-{hi:.1%}]"
        first = variants[0]
        if v != first:
            up = sum(1 for i in range(args.games) if won[v][i] and not won[first][i])
            down = sum(1 for i in range(args.games) if won[first][i] and not won[v][i])
            line += f"   vs {first}: won {up} it lost, lost {down} it won"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
