"""ismcts: information-set Monte Carlo tree search over determinized states.

Each iteration deals one *determinization*: a full state consistent with what the seat knows
(:mod:`unotable.determinize`: its own hand exactly, the other hands of the right sizes from the
unseen cards, the draw pile a random order of the rest, and every sound inference from the public
record). It then descends the tree of the seat's own decisions, choosing among the actions
available in that determinization by UCB1 with availability counts (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012); the other seats move by the fast policy of :mod:`unotable.bots.policy`
(the heuristic's rules on card ids, which is also how the seat itself plays past the tree). At
the tree's edge one new action is tried, and the round is played out by the policy. A round won by
the seat (its team, with partnerships) scores 1, a loss 0; the result is backed up the path.

The decision is the root action tried most often. Before searching, the bot takes the forced and
obvious moves without search: a single candidate (after dropping unflagged twins of plays that can
carry the UNO flag), or a play that goes out at once. Calls, catches and jump-ins follow the
heuristic (:mod:`unotable.bots.heuristic`), as do out-of-turn decisions in the playouts
(:func:`unotable.bots.policy.react`).

The budget is deterministic: at most ``iterations`` playouts and at most ``max_steps`` simulated
actions per decision (a No Mercy or house playout is three or four times longer than a classic one,
so the step cap is what bounds the time there), with at least one determinization per round of the
race. The same seed therefore gives the same decisions on every machine. ``time_limit`` (seconds)
adds a wall-clock cap, and then the work done depends on the machine. The defaults,
:data:`DEFAULT_ITERATIONS` and :data:`DEFAULT_MAX_STEPS`, keep a decision under half a second on one
core of the development machine (see ``benchmarks/strength.py``). ``depth`` is how many of its own
decisions the tree holds (1: the root race alone, with full playouts). ``assume_stuck_draws`` makes
the determinizations believe that a seat that drew held nothing playable (see
:class:`~unotable.determinize.Tracker`; true of every bot here but random).

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

import math
import random
import time
from collections.abc import Sequence

from unotable.actions import CALL_UNO, CATCH, Action, CallUno, Catch, Play
from unotable.bots import policy
from unotable.bots.base import BaseBot, best_uno, is_turn
from unotable.bots.heuristic import HeuristicBot
from unotable.cards import NUM_COLORED_IDS, WILD_COLOR_ROULETTE, WILD_SHUFFLE_HANDS, WILD_SWAP_HANDS
from unotable.determinize import Determinizer, Tracker
from unotable.events import Event
from unotable.movegen import legal_actions
from unotable.resolve import apply
from unotable.rng import Rng
from unotable.rules import ShuffleLastCard, SwapLastCard
from unotable.scoring import RoundResult
from unotable.state import Phase, State
from unotable.views import PlayerView

__all__ = ["DEFAULT_ITERATIONS", "IsmctsBot", "Node"]

DEFAULT_ITERATIONS = 1000
"""The default cap on iterations (playouts) per decision (see the module docstring)."""

DEFAULT_MAX_STEPS = 30_000
"""The default cap on the simulated actions per decision, which bounds the time whatever the preset
(a No Mercy or house playout is three or four times longer than a classic one)."""

_ITERATION_COST = 5
"""Dealing and copying a determinization, counted in simulated actions."""

_ROUND_OVER = Phase.ROUND_OVER


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


def _goes_out(view: PlayerView, a: Action) -> bool:
    """A play of the last card that ends the round with this seat the winner, whatever is hidden."""
    if not isinstance(a, Play) or len(view.hand) != 1:
        return False
    c = a.card.id
    rules = view.ruleset
    if c == WILD_SWAP_HANDS and rules.swap_hands_last_card is SwapLastCard.SWAP:
        return False
    if c == WILD_SHUFFLE_HANDS and rules.shuffle_hands_last_card is ShuffleLastCard.SHUFFLE:
        return False
    return c != WILD_COLOR_ROULETTE


class IsmctsBot(BaseBot):
    """Single-observer ISMCTS with policy playouts (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = DEFAULT_ITERATIONS,
        max_steps: int = DEFAULT_MAX_STEPS,
        time_limit: float | None = None,
        c: float = 0.7,
        depth: int = 1,
        rollout_cap: int = 500,
        horizon: int = 0,
        assume_stuck_draws: bool = True,
    ) -> None:
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
        self.horizon = int(horizon)
        self.tracker = Tracker(assume_stuck_draws=assume_stuck_draws)
        self._heuristic = HeuristicBot()
        self._heuristic.tracker = self.tracker
        self.last_iterations = 0
        """How many iterations the last search ran (0 when the decision needed no search)."""
        self.last_steps = 0
        """The work of the last search, in simulated actions (see ``max_steps``)."""

    def observe(self, events: Sequence[Event]) -> None:
        self.tracker.observe(events)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        self.last_iterations = 0
        if not legal:
            return None
        if is_turn(view) and len(view.hand) == 1:
            for a in legal:
                if _goes_out(view, a):
                    return a
        for a in legal:
            if isinstance(a, Catch | CallUno):
                return a
        if not is_turn(view):
            return self._heuristic.choose(view, legal, rng)
        candidates = _turn_candidates(legal, len(view.hand))
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, candidates, rng)

    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        """Search from ``view`` over the root ``candidates``; return the best by mean reward.

        Every sampled determinization is played once after each root action still in the race
        (common random numbers: the actions are compared on the same deals), and the race is
        run by successive halving: after each of ceil(log2 k) rounds the worse half of the
        actions drops out. Below the root, ``depth - 1`` more of the seat's own decisions form
        the ISMCTS tree (UCB1 with availability counts).
        """
        det = Determinizer(view, self.tracker)
        me = view.seat
        partners = view.ruleset.partnership
        k = len(candidates)
        children = [Node() for _ in range(k)]
        alive = list(range(k))
        rounds = max(1, math.ceil(math.log2(k)))
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
                world = det.sample(rng)
                world.rng = _SameSeed(rng.getrandbits(63))  # each copy: the same fresh generator
                for i in alive:
                    st = world.copy()
                    apply(st, me, candidates[i], None)
                    policy.react(st)
                    node = children[i]
                    reward, steps = self._descend(st, node, me, partners, rng)
                    node.visits += 1
                    node.reward += reward
                    done += 1
                    work += steps + _ITERATION_COST
            if len(alive) > 1 and r < rounds - 1:
                alive.sort(key=lambda i: -children[i].reward / max(1, children[i].visits))
                alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
        self.last_iterations = done
        self.last_steps = work
        best = max(alive, key=lambda i: (children[i].reward / max(1, children[i].visits), -i))
        return candidates[best]

    def _descend(
        self, st: State, node: Node, me: int, partners: bool, rng: random.Random
    ) -> tuple[float, int]:
        """Below a root action: the tree of the seat's later decisions, then the playout."""
        path: list[Node] = []
        depth = 1
        expanded = False
        steps = 0
        cap = self.horizon or self.rollout_cap
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


def evaluate(st: State, me: int, partners: bool) -> float:
    """The chance that ``me`` (its team) wins a round stopped early, from the hands alone.

    A softmax over the seats in the round of -0.3 x cards held + 0.3 x wilds held - 0.05 x the
    seat's distance in turns from the active seat, fitted to the outcomes of policy self-play.
    """
    n = st.n
    if not st.in_round[me]:
        return 0.0
    d = st.direction
    a = st.active
    weights = [0.0] * n
    for k in range(n):
        s = (a + k * d) % n
        if st.in_round[s]:
            hand = st.hands[s]
            wilds = sum(1 for c in hand if c >= NUM_COLORED_IDS)
            weights[s] = math.exp(-0.3 * len(hand) + 0.3 * wilds - 0.05 * k)
    total = sum(weights)
    if partners:
        return sum(weights[s] for s in range(n) if s % 2 == me % 2) / total
    return weights[me] / total
