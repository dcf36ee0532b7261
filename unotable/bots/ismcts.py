"""ismcts: information-set Monte Carlo tree search over determinized states.

Each iteration deals one *determinization*: a full state consistent with what the seat knows
(:mod:`unotable.bots.determinize`: its own hand exactly, the other hands of the right sizes from the
unseen cards, the draw pile a random order of the rest, and every sound inference from the public
record). Under the classic rules the other hands are dealt by weight, from a model of how the
heuristic holds its cards (:mod:`unotable.bots.handmodel`: short hands rarely keep a wild, a named
color is likelier, a color drawn on is rarer, and so on); ``hand_model=False`` deals them
uniformly, ``True`` uses the model where hands move too (``seven_zero``, No Mercy), where it
forgets what it read at each swap. The search is single-observer ISMCTS (Cowling, Powley and
Whitehouse 2012) over the seat's own decisions, with the other seats moving by the fast policy
of :mod:`unotable.bots.policy` (the heuristic's rules on card ids, so it is also a model of that
opponent; docs/bots.md says how often the two agree):

- **The root** is expanded fully in every determinization: each candidate action is played on a
  copy of the same deal, with the same future reshuffles (common random numbers), so the actions
  are compared on paired samples and the luck of the deal cancels out of their differences. The
  decision is the candidate with the best mean reward, except that the heuristic's own choice
  is kept unless the best beats it by more than ``prior_z`` standard errors of the paired
  differences (``prior_z=0`` turns this off): where the search cannot tell actions apart, the
  heuristic's judgement (dump points first, keep wilds) decides. (``halving=True`` races the
  candidates by successive halving instead.)
- **Below the root**, ``depth - 1`` more of the seat's own decisions form a tree chosen by UCB1
  with availability counts (``c`` the exploration constant); the default depth 1 leaves the root
  alone.
- **Playouts** follow the policy for every seat, out-of-turn calls, catches and jump-ins
  included (:func:`unotable.bots.policy.react`). A round won by the seat (its team, with
  partnerships) scores 1, a loss 0. With a ``horizon``, a playout stops after that many actions
  and scores the position by :func:`evaluate` (a softmax over the hands whose weights are fitted
  to the winners of policy self-play by ``benchmarks/fit_eval.py``). Short evaluated playouts are
  much less noisy than full ones, which decides 4-seat play; where hands are swapped and passed
  (``seven_zero``: house, No Mercy) the hands predict little, so the default horizon is
  :data:`DEFAULT_HORIZON` actions for the classic rules and full playouts otherwise.

Before searching, the bot takes the forced and obvious moves without search: a single candidate
(after dropping unflagged twins of plays that can carry the UNO flag, and the colors of a
last-card wild), or a play that goes out at once. Calls, catches and jump-ins follow the
heuristic (:mod:`unotable.bots.heuristic`), and so does the answer to a Wild Draw Four that may
be challenged (the heuristic's odds, its rule 6, which read the draws and learn how readily each
seat bluffs), with one change: the prior chance that a seat plays Wild Draw Fours whatever it
holds is ``reckless`` (0.05), not the heuristic's 0.2, since careful players (the heuristic's
rule 4) all but never bluff against a hand of more than four cards; the verdicts of its own
challenges still raise a seat's recklessness from round to round of a match.
``search_challenge=True`` searches that answer like any other, which the samples' opponent model
misjudges: its sampled hands never meet a bluff against a long hand.

The budget is deterministic: at most ``iterations`` playouts and at most ``max_steps`` units of
work per decision (one unit per simulated action, five per determinization), with at least one
determinization per decision; the same seed therefore gives the same decisions on every machine.
``time_limit`` (seconds) adds a wall-clock cap, and then the work done depends on the machine. The
defaults, :data:`DEFAULT_ITERATIONS` and :data:`DEFAULT_MAX_STEPS`, keep a decision under half a
second on one core of the development machine in every preset (a playout to the end of a house
or No Mercy round is three or four times longer than a classic one; the work cap bounds them);
``benchmarks/strength.py --only timing`` measures it. ``beliefs`` lets the determinizations
believe that seats draw only when stuck (see :class:`~unotable.bots.determinize.Tracker`); it is off
by default.

**The search inside the core.** Where the compiled core is installed (``unotable_native``),
``engine="auto"`` (the default) searches inside it instead (:mod:`unotable.bots.native_search`,
``native/src/search.hpp``): the same root candidates, prior and paired comparison, but the worlds
are dealt, and every candidate played to the end of the round by native policies (``playout`` for
the seat itself, ``opponents`` for the others: ``fast``, the fast model of the heuristic that the
Python search plays, ported, by default; ``rule-v1``, ``random-stuck`` and ``random`` are the
core's bots; ``mixbot``, ``mixbot2`` and ``mixbot2-tuned`` models of those bots, the two last
without their card counting), in one call per decision;
``iterations`` then counts those playouts (:data:`NATIVE_ITERATIONS` by default) and ``ms`` caps the
call's wall-clock time. ``weights="bounds"`` deals the other hands by MixBot2's public card counting
(a card's weight for a seat is the share of its unseen copies the seat's bound allows, at least
``floor``), ``"hands"`` by the hand model.

``prior`` names the bot whose choice the root keeps unless another candidate beats it by
``prior_z`` standard errors (:data:`PRIORS`: ``heuristic``, ``mixbot``, ``mixbot2``,
``mixbot2-tuned``, each fed the same events as the search). The defaults, ``prior="auto"`` and
``weights="auto"``, take mixbot2-tuned and MixBot2's counting under the rules MixBot2 was written
for (:func:`mixbot_rules`: a Wild Draw Four that cannot be challenged, no stacking, no jump-ins,
no 7-0), where they measured stronger, and the heuristic with uniform weights everywhere else.
``engine="python"`` keeps the Python search (the prior as set, without the weights), which is also
what runs where the core is not installed; ``engine="native"`` raises then.

Why each default is what it is (the budget, the hand model, ``prior_z``, ``horizon``,
``reckless``, ``beliefs`` off), with the measurements and their commands: docs/bots.md, and the
dated logs of docs/research/.

>>> import random
>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=2)
>>> bot = IsmctsBot(iterations=20)
>>> s = g.active_seat
>>> bot.observe(g.events_for(s))
>>> bot.choose(g.view(s), g.legal_actions_for(s), random.Random(0)) in g.legal_actions
True
"""
from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from unotable.actions import CALL_UNO, CATCH, Action, CallUno, Catch, Challenge, Play
from unotable.bots import native_search, policy
from unotable.bots.base import BaseBot, Bot, best_uno, goes_out, is_turn
from unotable.bots.determinize import Determinizer, Tracker, Weigh
from unotable.bots.handmodel import HandModel
from unotable.bots.heuristic import HeuristicBot
from unotable.bots.mixbot import MixBot
from unotable.bots.mixbot2 import Bounds, MixBot2
from unotable.bots.tuned import MixBot2Tuned
from unotable.cards import (
    ID_COLOR,
    ID_DRAW_VALUE,
    ID_RANK,
    NUM_CARD_IDS,
    NUM_COLORED_IDS,
    WILD_DRAW_FOUR,
    Rank,
)
from unotable.events import Event
from unotable.movegen import legal_actions
from unotable.phase import Phase
from unotable.resolve import apply
from unotable.rng import Rng
from unotable.rules import Ruleset, Stacking, Wd4Rule
from unotable.scoring import RoundResult
from unotable.state import State
from unotable.views import PlayerView

__all__ = [
    "ENGINES",
    "NATIVE_ITERATIONS",
    "DEFAULT_HORIZON",
    "DEFAULT_ITERATIONS",
    "DEFAULT_MAX_STEPS",
    "IsmctsBot",
    "Node",
    "auto_horizon",
    "evaluate",
    "paired_difference",
]

DEFAULT_ITERATIONS = 1000
"""The default cap on iterations (playouts) per decision (see the module docstring)."""

DEFAULT_MAX_STEPS = 30_000
"""The default cap on the work per decision, in simulated actions (see the module docstring)."""

DEFAULT_HORIZON = 4
"""The playout length, in actions, before a classic position is evaluated (see :func:`evaluate`)."""

NATIVE_ITERATIONS = 2000
"""The default cap on playouts per decision of the search inside the core (see the module docstring)."""

ENGINES = ("auto", "native", "python")
"""Where the search runs: the core when it is installed (auto), the core (native), Python."""

PRIORS: dict[str, Callable[[], Bot]] = {"heuristic": HeuristicBot, "mixbot": MixBot, "mixbot2": MixBot2,
                                         "mixbot2-tuned": MixBot2Tuned}
"""The bots whose choice the search keeps unless another candidate beats it (``prior``)."""

AUTO_PRIOR = "mixbot2-tuned"
"""``prior="auto"``'s bot under :func:`mixbot_rules` (the heuristic elsewhere)."""


def mixbot_rules(rules: Ruleset) -> bool:
    """Rules of the kind MixBot2 was written for, where ``prior="auto"`` and ``weights="auto"`` take
    mixbot2-tuned and its card counting: the classic deck, a Wild Draw Four that cannot be
    challenged (``wd4_rule = free``, CL-ACT-7), no stacking, no jump-ins and no 7-0 (house rules the
    heuristic and its hand model know and mixbot2 does not)."""
    return (not rules.deck.is_no_mercy and rules.wd4_rule is Wd4Rule.FREE and rules.stacking is Stacking.NONE
            and not rules.jump_in and not rules.seven_zero)

_ITERATION_COST = 5
"""Dealing and copying a determinization, counted in simulated actions."""

_ROUND_OVER = Phase.ROUND_OVER
_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_BITS = tuple(bin(m).count("1") for m in range(16))


class _SameSeed(Rng):
    """A determinization's generator: every copy of the state gets a fresh one from the same seed.

    The root actions are compared on the same deal *and* the same future reshuffles (common random
    numbers), and a fresh generator is cheaper than copying one.
    """

    def __init__(self, seed: int) -> None:
        self._seed = seed

    def copy(self) -> Rng:
        return Rng(self._seed)


class Node:
    """A decision of the searching seat: visits, availability and total reward per action."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def _turn_candidates(legal: Sequence[Action], hand_size: int) -> list[Action]:
    """The distinct turn actions worth comparing: no calls or catches, no unflagged twins,
    one variant of a last-card wild (its color has no effect, CL-END-3)."""
    out: list[Action] = []
    seen: set[tuple[object, ...]] = set()
    for a in best_uno([a for a in legal if a.kind != CALL_UNO and a.kind != CATCH]):
        if isinstance(a, Play) and hand_size == 1 and a.card.is_wild:
            key: tuple[object, ...] = (a.card, a.target)
            if key in seen:
                continue
            seen.add(key)
        out.append(a)
    return out


@functools.lru_cache(maxsize=16)
def _core_plays(rules: Ruleset) -> bool:
    """Whether the core plays ``rules`` (it does not play ``uno_grace``): else the Python search."""
    try:
        native_search.check_rules(rules)
    except NotImplementedError:
        return False
    return True


class IsmctsBot(BaseBot):
    """Single-observer ISMCTS with policy playouts (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        time_limit: float | None = None,
        c: float = 0.7,
        depth: int = 1,
        rollout_cap: int = 500,
        horizon: int | None = None,
        halving: bool = False,
        prior_z: float = 1.0,
        beliefs: bool = False,
        search_challenge: bool = False,
        hand_model: bool | None = None,
        reckless: float = 0.05,
        engine: str = "auto",
        ms: float = 0.0,
        playout: str = "fast",
        opponents: str = "fast",
        weights: str = "auto",
        prior: str = "auto",
        floor: float = 0.05,
    ) -> None:
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        if not 0.0 < floor <= 1.0:
            raise ValueError(f"floor (the least weight a bound leaves a card) is in (0, 1], not {floor!r}")
        self.floor = float(floor)
        if prior not in PRIORS and prior != "auto":
            raise ValueError(f"prior must be one of {', '.join(PRIORS)} or auto, not {prior!r}")
        if weights not in ("none", "bounds", "hands", "hands+bounds", "auto"):
            raise ValueError(f"weights must be none, bounds, hands, hands+bounds or auto, not {weights!r}")
        if engine == "native" and not native_search.available():
            raise ValueError("engine='native': the native core (unotable_native) is not installed")
        cls = type(self)
        customised = (cls.search is not IsmctsBot.search or cls.sample_world is not IsmctsBot.sample_world
                      or cls._descend is not IsmctsBot._descend)
        self.native = native_search.available() and (
            engine == "native" or (engine == "auto" and not customised))
        """Whether the search runs inside the core (see the module docstring; ``auto`` keeps the
        Python search for a subclass that replaces a piece of it, as research/ harnesses do)."""
        if iterations is None:
            iterations = NATIVE_ITERATIONS if self.native else DEFAULT_ITERATIONS
        for name in (playout, opponents):
            if name not in native_search.POLICIES:
                raise ValueError(f"playout policies: {', '.join(native_search.POLICIES)}, not {name!r}")
        self.ms = float(ms)
        self.playout = playout
        self.opponents = opponents
        self.weights = weights
        self.bounds = Bounds()
        if ms > 0 and time_limit is None and not self.native:
            time_limit = ms / 1000.0
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth!r}")
        self.iterations = int(iterations)
        self.max_steps = int(max_steps)
        self.time_limit = time_limit
        self.c = float(c)
        self.depth = int(depth)
        self.rollout_cap = int(rollout_cap)
        self.horizon = None if horizon is None else int(horizon)
        self.halving = bool(halving)
        self.prior_z = float(prior_z)
        self.search_challenge = bool(search_challenge)
        self.tracker = Tracker(beliefs=beliefs)
        self.hand_model = hand_model
        self.hands = HandModel()
        self._heuristic = HeuristicBot(reckless=reckless)
        self._heuristic.tracker = self.tracker
        self.prior = prior
        names = ("heuristic", AUTO_PRIOR) if prior == "auto" else (prior,)
        self._prior_bots: dict[str, Bot] = {
            name: self._heuristic if name == "heuristic" else PRIORS[name]() for name in names}
        self.last_iterations = 0
        """How many iterations the last search ran (0 when the decision needed no search)."""
        self.last_steps = 0
        """The work of the last search, in simulated actions (see ``max_steps``)."""
        self.last_results: list[list[float]] = []
        """Each candidate's playout rewards in the last search, paired by determinization."""
        self.last_native: native_search.NativeResult | None = None
        """The core's statistics of the last search inside it (None: none yet)."""
        self.last_prior: int | None = None
        """The index of the prior bot's choice among the last search's candidates (None: no prior)."""

    def restart(self) -> None:
        for bot in self._prior_bots.values():
            if bot is not self._heuristic:
                bot.restart()

    def observe(self, events: Sequence[Event]) -> None:
        # the heuristic shares the tracker, and keeps its own record for the challenge odds
        self._heuristic.observe(events)
        for bot in self._prior_bots.values():
            if bot is not self._heuristic:
                bot.observe(events)
        self.hands.observe(events)
        self.bounds.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        self.last_iterations = 0
        if not legal:
            return None
        if is_turn(view) and len(view.hand) == 1:
            for a in legal:
                if goes_out(view, a):
                    return a
        for a in legal:
            if isinstance(a, Catch | CallUno):
                return a
        if not is_turn(view) or (not self.search_challenge and any(isinstance(a, Challenge) for a in legal)):
            return self._heuristic.choose(view, legal, rng)
        candidates = _turn_candidates(legal, len(view.hand))
        if len(candidates) == 1:
            return candidates[0]
        if self.native and _core_plays(view.ruleset):
            return self.native_search(view, candidates, rng)
        return self.search(view, candidates, rng)

    def native_search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        """The search inside the core (:func:`unotable.bots.native_search.search`)."""
        prior = self._prior(view, candidates, rng)
        weights: list[list[float] | None] | None = None
        kind = self.weights
        if kind == "auto":
            kind = "bounds" if mixbot_rules(view.ruleset) else "none"
        if "hands" in kind:
            weights = self._hand_weights(view)
        if "bounds" in kind:
            counted = native_search.bound_weights(view, self.bounds, self.floor)
            if weights is None:
                weights = counted
            else:
                weights = [None if a is None or b is None else [x * y for x, y in zip(a, b, strict=True)]
                           for a, b in zip(weights, counted, strict=True)]
        res = native_search.search(
            view, candidates, tracker=self.tracker, weights=weights, seed=rng.getrandbits(64),
            iterations=self.iterations, ms=self.ms, policy=self.playout, opponents=self.opponents,
            prior=prior, prior_z=self.prior_z, max_steps=self.rollout_cap * 4, halving=self.halving,
            horizon=self.horizon if self.horizon is not None else auto_horizon(view.ruleset),
            evaluation=(_flat(EVAL_HEADS_UP), _flat(EVAL_TABLE)),
        )
        self.last_iterations = res.playouts
        self.last_steps = res.steps
        self.last_prior = prior
        self.last_native = res
        return candidates[res.choice]

    def _hand_weights(self, view: PlayerView) -> list[list[float] | None]:
        """The hand model's weight of every card id, per other seat."""
        self.hands.sync(view)
        color = int(view.current_color) if view.current_color is not None else -1
        heads_up = sum(view.in_round) <= 2
        ids = range(NUM_CARD_IDS)
        return [None if s == view.seat else self.hands.weights(s, view.hand_sizes[s], color, ids, heads_up)
                for s in range(view.seats)]

    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        """Search from ``view`` over the root ``candidates``; return the best by mean reward.

        Every sampled determinization is played once after each root action still in the race
        (common random numbers: the actions are compared on the same deals). With ``halving``
        the race runs ceil(log2 k) rounds, the worse half of the actions dropping out after
        each. Below the root, ``depth - 1`` more of the seat's own decisions form the ISMCTS
        tree (UCB1 with availability counts).
        """
        prior = self._prior(view, candidates, rng)
        det = Determinizer(view, self.tracker, self._weigh(view))
        horizon = self.horizon if self.horizon is not None else auto_horizon(view.ruleset)
        me = view.seat
        partners = view.ruleset.partnership
        k = len(candidates)
        children = [Node() for _ in range(k)]
        results: list[list[float]] = [[] for _ in range(k)]
        alive = list(range(k))
        rounds = max(1, math.ceil(math.log2(k))) if self.halving else 1
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        work = 0
        for r in range(rounds):
            left = rounds - r
            iter_goal = done + (self.iterations - done) // left
            work_goal = work + (self.max_steps - work) // left
            first = True
            while first or (done + len(alive) <= iter_goal and work < work_goal):
                if deadline is not None and done and time.perf_counter() > deadline:
                    break
                first = False
                world = self.sample_world(det, rng)
                world.rng = _SameSeed(rng.getrandbits(63))  # each copy: the same fresh generator
                for i in alive:
                    st = world.copy()
                    apply(st, me, candidates[i], None)
                    policy.react(st)
                    node = children[i]
                    reward, steps = self._descend(st, node, me, partners, horizon, rng)
                    node.visits += 1
                    node.reward += reward
                    results[i].append(reward)
                    done += 1
                    work += steps + _ITERATION_COST
            if len(alive) > 1 and r < rounds - 1:
                alive.sort(key=lambda i: -children[i].reward / max(1, children[i].visits))
                alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
        self.last_iterations = done
        self.last_steps = work
        self.last_results = results
        self.last_prior = prior
        best = max(alive, key=lambda i: (children[i].reward / max(1, children[i].visits), -i))
        if prior is not None and prior != best and not _better(results[best], results[prior], self.prior_z):
            best = prior
        return candidates[best]

    def _weigh(self, view: PlayerView) -> Weigh | None:
        """The hand model's weights for this view's samples (None: uniform samples)."""
        rules = view.ruleset
        on = self.hand_model
        if on is None:
            on = not (rules.seven_zero or rules.is_no_mercy)
        if not on:
            return None
        self.hands.sync(view)
        color = int(view.current_color) if view.current_color is not None else -1
        heads_up = sum(view.in_round) <= 2
        hands = self.hands

        def weigh(seat: int, size: int, cards: Sequence[int]) -> list[float]:
            return hands.weights(seat, size, color, cards, heads_up)

        return weigh

    def sample_world(self, det: Determinizer, rng: random.Random) -> State:
        """One determinization for an iteration (a subclass may weight or replace them:
        ``research/hidden_info.py`` measures an oracle and a play-reading sampler)."""
        return det.sample(rng)

    def _prior(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> int | None:
        """The index of the prior bot's choice among ``candidates`` (None if it is not one)."""
        if self.prior_z <= 0:
            return None
        name = self.prior
        if name == "auto":
            name = AUTO_PRIOR if mixbot_rules(view.ruleset) else "heuristic"
        choice = self._prior_bots[name].choose(view, candidates, random.Random(rng.getrandbits(32)))
        for i, a in enumerate(candidates):
            if a == choice:
                return i
        return None

    def _descend(
        self, st: State, node: Node, me: int, partners: bool, horizon: int, rng: random.Random
    ) -> tuple[float, int]:
        """Below a root action: the tree of the seat's later decisions, then the playout."""
        path: list[Node] = []
        depth = 1
        expanded = False
        steps = 0
        cap = horizon or self.rollout_cap
        while st.phase < _ROUND_OVER and steps < cap:
            steps += 1
            if st.active != me or expanded or depth >= self.depth:
                policy.step(st)
                continue
            acts = _turn_candidates(legal_actions(st, me), len(st.hands[me]))
            (action, node), expanded = _select(node, acts, self.c, rng)
            apply(st, me, action, None)
            policy.react(st)
            path.append(node)
            depth += 1
        reward = _reward(st, me, partners)
        for n in path:
            n.visits += 1
            n.reward += reward
        return reward, steps


def _select(
    node: Node, acts: Sequence[Action], c: float, rng: random.Random
) -> tuple[tuple[Action, Node], bool]:
    """UCB1 over the available actions; an untried one first (chosen at random)."""
    children = node.children
    untried = [a for a in acts if a not in children]
    for a in acts:
        ch = children.get(a)
        if ch is not None:
            ch.avail += 1
    if untried:
        a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        ch = children[a] = Node()
        ch.avail = 1
        return (a, ch), True
    best: tuple[Action, Node] | None = None
    best_u = -1.0
    for a in acts:
        ch = children[a]
        u = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
        if u > best_u:
            best_u = u
            best = (a, ch)
    assert best is not None
    return best, False


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a[i] - b[i]`` over the samples both have, and its standard error (0.0 when
    there are fewer than two samples or no spread)."""
    n = min(len(a), len(b))
    if n < 2:
        return (sum(a[:n]) - sum(b[:n])), 0.0
    diffs = [a[i] - b[i] for i in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _better(a: list[float], b: list[float], z: float) -> bool:
    """Whether results ``a`` beat ``b`` on their paired samples by more than ``z`` standard errors."""
    mean, se = paired_difference(a, b)
    if se == 0.0:
        return mean > 0.0
    return mean > z * se


def auto_horizon(rules: Ruleset) -> int:
    """The default horizon: :data:`DEFAULT_HORIZON` for the classic rules, full playouts (0) where
    hands move between seats (``seven_zero``, which No Mercy always has)."""
    return 0 if rules.seven_zero or rules.is_no_mercy else DEFAULT_HORIZON


def _reward(st: State, me: int, partners: bool) -> float:
    res = st.last_round
    if st.phase >= _ROUND_OVER and isinstance(res, RoundResult):
        w = res.winner
        if w is None:
            return 0.0
        if partners:
            return 1.0 if w % 2 == me % 2 else 0.0
        return 1.0 if w == me else 0.0
    return evaluate(st, me, partners)


class EvalWeights(NamedTuple):
    """The weights of :func:`evaluate`'s linear score of one seat's hand and place."""

    cards: float
    wild: float
    wild_draw_four: float
    draw_card: float
    skip_reverse: float
    current_color: float
    colors: float
    one_card: float
    two_cards: float
    distance: tuple[float, ...]
    """By turn distance from the active seat (0, 1, 2, ...); the last entry serves farther seats."""


EVAL_HEADS_UP = EvalWeights(-0.178, 0.315, 0.204, 0.419, 0.151, 0.094, -0.187, 0.376, 0.073, (0.0, -0.082))
"""Fitted to 117,000 positions of 2-seat policy self-play (``official``)."""

EVAL_TABLE = EvalWeights(
    -0.321, 0.393, 0.084, 0.307, 0.089, 0.074, 0.064, 0.801, 0.259, (0.0, -0.119, -0.129, -0.156)
)
"""Fitted to 156,000 positions of 4-seat policy self-play (``official``); used for 3 seats or more."""


def _static(w: EvalWeights) -> tuple[float, ...]:
    """Each card id's own worth under ``w`` (the per-card terms that do not depend on the hand)."""
    out = []
    for c in range(NUM_CARD_IDS):
        v = w.cards
        if c >= NUM_COLORED_IDS:
            v += w.wild + (w.wild_draw_four if c == WILD_DRAW_FOUR else 0.0)
        elif ID_DRAW_VALUE[c] > 0:
            v += w.draw_card
        elif ID_RANK[c] == _SKIP or ID_RANK[c] == _REVERSE:
            v += w.skip_reverse
        out.append(v)
    return tuple(out)


_HEADS_UP = (EVAL_HEADS_UP, _static(EVAL_HEADS_UP))
_TABLE = (EVAL_TABLE, _static(EVAL_TABLE))


def _flat(w: EvalWeights) -> tuple[float, ...]:
    """The weights as the core reads them: the nine per-hand terms, then the distances."""
    return (*w[:9], *w.distance)


def evaluate(st: State, me: int, partners: bool) -> float:
    """The chance that ``me`` (its team) wins a round stopped early, from the hands alone.

    A softmax over the seats still in the round of a linear score of each hand: its size, wilds,
    Wild Draw Fours, draw cards, Skips and Reverses, cards of the current color, colors held, one
    or two cards left, and the seat's distance in turns from the active seat. The weights
    (:data:`EVAL_HEADS_UP` for two seats in the round, :data:`EVAL_TABLE` for more) are the
    maximum-likelihood fit to the winners of policy self-play (``benchmarks/fit_eval.py``).
    """
    n = st.n
    if not st.in_round[me]:
        return 0.0
    alive = sum(1 for s in range(n) if st.in_round[s])
    w, static = _HEADS_UP if alive <= 2 else _TABLE
    dist = w.distance
    far = len(dist) - 1
    d = st.direction
    a = st.active
    color = st.color
    weights = [0.0] * n
    k = 0
    for j in range(n):
        s = (a + j * d) % n
        if not st.in_round[s]:
            continue
        hand = st.hands[s]
        size = len(hand)
        score = dist[k if k < far else far]
        k += 1
        held = 0
        same = 0
        for c in hand:
            score += static[c]
            col = ID_COLOR[c]
            if col >= 0:
                held |= 1 << col
                if col == color:
                    same += 1
        score += w.current_color * same + w.colors * _BITS[held]
        if size == 1:
            score += w.one_card
        elif size == 2:
            score += w.two_cards
        weights[s] = math.exp(score)
    total = sum(weights)
    if partners:
        return sum(weights[s] for s in range(n) if s % 2 == me % 2) / total
    return weights[me] / total
