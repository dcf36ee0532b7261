"""learned: the heuristic with its turn decisions chosen by a value network learned from self-play.

The bot is the heuristic (:mod:`unotable.bots.heuristic`: its record tracker, its UNO calls and
catches, its answer to a Wild Draw Four) except where it has a real choice on its own turn: which
card to play or whether to draw (phase ``PLAY``), whether to play the card it drew
(``PLAY_DRAWN``) and which color to name (``CHOOSE_COLOR``). There every candidate action is
described by :func:`features`, the position *after* that action as the seat sees it (its hand
left, the card on top and the current color, the next seats' hand sizes in the order they will
play, who is skipped and who draws, what the record proves about the next seat's colors, the
heuristic's own score of the play), and a small network (two ReLU layers of 64 units) gives each
the chance that this seat wins the round. The candidate with the highest chance is played; the
heuristic's own choice gets ``prior`` (0.0 by default) added to its chance, so that a larger
``prior`` keeps the heuristic unless the network is sure.

The network was fitted to the outcomes of heuristic self-play with exploration (a random candidate
at a tenth of the decisions), so it estimates, for each afterstate, the chance of winning when the
heuristic plays on: choosing by it is one step of policy improvement over the heuristic. The
training is ``research/train_learned.py``, outside the package (docs/bots.md, "learned"); the weights are
the JSON file ``learned_model.json`` beside this module, read without a network and evaluated in
plain Python, so the bot needs nothing beyond the standard library.

The network is fitted to the official rules (108 cards, no stacking, no 7-0, no jump-in); under
any other ruleset, and wherever its features say nothing (a single candidate), the bot plays
exactly as the heuristic does. It sees what every bot sees: its seat's view, its legal actions
and the public record (through the heuristic's tracker), never the game.

>>> from unotable.game import Game
>>> import random
>>> bot = LearnedBot()
>>> g = Game.new(seats=4, seed=3)
>>> v = g.view(g.active_seat)
>>> bot.choose(v, v.legal, random.Random(0)) in v.legal
True
>>> 0.0 < bot.win_chances(v)[0] < 1.0
True
"""
from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from unotable.actions import Action, CallUno, Catch, ChooseColor, Draw, Pass, Play
from unotable.bots.base import best_uno, is_turn
from unotable.bots.heuristic import _COLOR_SETS, HeuristicBot, _Ctx, best_color, score_play
from unotable.cards import ID_COLOR, ID_DRAW_VALUE, ID_IS_NUMBER, ID_RANK, WILD, WILD_DRAW_FOUR, Rank
from unotable.phase import Phase
from unotable.rules import Ruleset
from unotable.views import PlayerView

__all__ = ["FEATURES", "MODEL_FILE", "LearnedBot", "Network", "applies", "candidates", "features",
           "load_network"]

MODEL_FILE = "learned_model.json"
"""The shipped network's file name, inside the ``unotable.bots`` package."""

_SKIP = int(Rank.SKIP)
_REVERSE = int(Rank.REVERSE)
_DRAW_TWO = int(Rank.DRAW_TWO)
_OPPONENTS = 3
"""The opponents described, in the order they play after the action (the others are left out)."""

FEATURES = (
    ["live2", "live3", "live4+"]
    + ["left", "left0", "left1", "left2", "left3", "drew"]
    + [f"held_color{k}" for k in range(4)]
    + ["held_current", "wilds", "wd4s", "skips_reverses", "draw_twos", "points", "colors_held"]
    + ["a_number", "a_skip", "a_reverse", "a_draw_two", "a_wild", "a_wd4", "a_draw", "a_pass", "a_color"]
    + ["color_change", "heuristic_score", "heuristic_color", "unseen_current"]
    + [f"opp{k}_{f}" for k in range(_OPPONENTS)
       for f in ("size", "one", "two", "three", "skipped", "penalty", "void", "at_most_one")]
)
"""The names of :func:`features`' entries, in order."""


def applies(rules: Ruleset) -> bool:
    """Whether the network was fitted to ``rules``: the official game (classic 108 cards, no
    house option). Elsewhere the bot is the heuristic."""
    return rules == _official()


@lru_cache(maxsize=1)
def _official() -> Ruleset:
    return Ruleset.preset("official")


def candidates(view: PlayerView, legal: Sequence[Action]) -> list[Action]:
    """The turn actions the network chooses among (plays with the UNO flag where it may be put,
    draw, pass, the four colors), or ``[]`` where the decision is not one it makes."""
    if not is_turn(view) or view.phase not in (Phase.PLAY, Phase.PLAY_DRAWN, Phase.CHOOSE_COLOR):
        return []
    return [a for a in best_uno(legal) if isinstance(a, Play | Draw | Pass | ChooseColor)]


def features(ctx: _Ctx, action: Action, heuristic_color: int = -1) -> list[float]:
    """The position after ``action`` from ``ctx``'s seat, as :data:`FEATURES` names its entries.

    ``heuristic_color`` is the color the heuristic would name (for a wild played without one and
    for the ``heuristic_color`` entry); -1 computes it.
    """
    view = ctx.view
    hand = ctx.hand
    me = ctx.me
    color = ctx.color
    top = view.top_card.id if view.top_card is not None else -1
    effect = -1  # the card whose effect lands on the next seat
    kind = [0.0] * 9
    drew = 0.0
    after = hand
    heur = 0.0
    if heuristic_color < 0:
        heuristic_color = best_color(ctx, hand)
    if isinstance(action, Play):
        c = action.card.id
        after = hand[:]
        after.remove(c)
        top = c
        effect = c
        if ID_COLOR[c] >= 0:
            color = ID_COLOR[c]
        elif action.color is not None:
            color = int(action.color)
        else:
            color = best_color(ctx, after)
        rank = ID_RANK[c]
        if c == WILD_DRAW_FOUR:
            kind[5] = 1.0
        elif c == WILD or ID_COLOR[c] < 0:
            kind[4] = 1.0
        elif rank == _SKIP:
            kind[1] = 1.0
        elif rank == _REVERSE:
            kind[2] = 1.0
        elif rank == _DRAW_TWO:
            kind[3] = 1.0
        else:
            kind[0] = 1.0
        heur = max(-30.0, min(30.0, score_play(ctx, action))) / 10.0
    elif isinstance(action, Draw):
        kind[6] = 1.0
        drew = 1.0
    elif isinstance(action, Pass):
        kind[7] = 1.0
    elif isinstance(action, ChooseColor):
        kind[8] = 1.0
        color = int(action.color)
        effect = top  # the wild's effect (a Wild Draw Four's penalty) comes once the color is named
    live = ctx.live
    left = len(after) + int(drew)
    counts = [0, 0, 0, 0]
    wilds = wd4s = skips = twos = 0
    points = 0
    for x in after:
        col = ID_COLOR[x]
        points += ctx.points[x]
        if col >= 0:
            counts[col] += 1
            r = ID_RANK[x]
            if r in (_SKIP, _REVERSE):
                skips += 1
            elif r == _DRAW_TWO:
                twos += 1
        elif x == WILD_DRAW_FOUR:
            wd4s += 1
        else:
            wilds += 1
    direction = view.direction
    skip_next = False
    penalty = 0
    if effect >= 0:
        r = ID_RANK[effect]
        if ID_COLOR[effect] >= 0 and not ID_IS_NUMBER[effect]:
            if r in (_SKIP, _DRAW_TWO) or (r == _REVERSE and live == 2):
                skip_next = True
            elif r == _REVERSE:
                direction = -direction
        if ID_DRAW_VALUE[effect] and (effect == WILD_DRAW_FOUR or ID_COLOR[effect] >= 0):
            skip_next = True
            penalty = ID_DRAW_VALUE[effect]
        if isinstance(action, Play) and effect == WILD_DRAW_FOUR and action.color is None:
            skip_next = True
    unseen = ctx.unseen_by_color()
    out = [float(live == 2), float(live == 3), float(live >= 4)]
    out += [left / 10.0, float(left == 0), float(left == 1), float(left == 2), float(left == 3), drew]
    out += [k / 7.0 for k in counts]
    out += [counts[color] / 7.0 if color >= 0 else 0.0, wilds / 2.0, wd4s / 2.0, skips / 4.0, twos / 2.0,
            points / 100.0, sum(1 for k in counts if k) / 4.0]
    out += kind
    out += [float(color != ctx.color), heur, float(color == heuristic_color),
            unseen[color] / 25.0 if color >= 0 else 0.0]
    seat = me
    for k in range(_OPPONENTS):
        if k >= live - 1:
            out += [0.0] * 8
            continue
        seat = ctx.next_seat(seat, direction)
        size = ctx.sizes[seat]
        free = ctx.tracker.might_hold(seat, _COLOR_SETS[color]) if color >= 0 else size
        out += [size / 10.0, float(size == 1), float(size == 2), float(size == 3),
                float(k == 0 and skip_next), penalty / 4.0 if k == 0 else 0.0,
                float(free == 0), float(free <= 1)]
    return out


class Network:
    """A multilayer perceptron with ReLU layers and one sigmoid output, in plain Python.

    ``layers`` is a list of ``(weights, biases)``, ``weights[j]`` the input weights of unit ``j``;
    inputs are standardized by ``mean`` and ``scale`` first.
    """

    def __init__(self, layers: list[tuple[list[list[float]], list[float]]], mean: list[float],
                 scale: list[float]) -> None:
        if not layers:
            raise ValueError("a network needs at least one layer")
        if len(mean) != len(layers[0][0][0]) or len(scale) != len(mean):
            raise ValueError(f"the network takes {len(layers[0][0][0])} inputs, its mean/scale "
                             f"{len(mean)}/{len(scale)}")
        self.layers = layers
        self.mean = mean
        self.scale = scale

    @property
    def inputs(self) -> int:
        return len(self.mean)

    def __call__(self, x: Sequence[float]) -> float:
        """The win chance for one feature vector."""
        h = [(v - m) * s for v, m, s in zip(x, self.mean, self.scale, strict=True)]
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = [bj + sum([a * v for a, v in zip(row, h, strict=True)]) for row, bj in zip(w, b, strict=True)]
            if i < last:
                h = [v if v > 0.0 else 0.0 for v in h]
        z = max(-40.0, min(40.0, h[0]))
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def from_dict(cls, doc: dict[str, object]) -> Network:
        """Read the JSON form that :meth:`to_dict` writes (and the training script saves)."""
        try:
            names = doc["features"]
            if names != FEATURES:
                raise ValueError("the network's features are not this module's FEATURES")
            raw = doc["layers"]
            assert isinstance(raw, list)
            layers = [([[float(v) for v in row] for row in layer["w"]], [float(v) for v in layer["b"]])
                      for layer in raw]
            mean = [float(v) for v in doc["mean"]]  # type: ignore[attr-defined]
            scale = [float(v) for v in doc["scale"]]  # type: ignore[attr-defined]
        except (KeyError, TypeError, AssertionError) as exc:
            raise ValueError(f"not a learned-bot network: {exc!r}") from None
        return cls(layers, mean, scale)

    def to_dict(self) -> dict[str, object]:
        return {"features": FEATURES, "mean": self.mean, "scale": self.scale,
                "layers": [{"w": w, "b": b} for w, b in self.layers]}


@lru_cache(maxsize=4)
def load_network(path: str = "") -> Network:
    """The network in ``path`` (a JSON file), or the one shipped in the package when ``path`` is empty."""
    if path:
        text = Path(path).read_text(encoding="utf-8")
    else:
        text = resources.files("unotable.bots").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return Network.from_dict(json.loads(text))


class LearnedBot(HeuristicBot):
    """The heuristic, with its turn choices made by the value network (module docstring).

    ``path`` names another network file (empty: the shipped one); ``prior`` is added to the win
    chance of the heuristic's own choice; ``explore`` plays a uniformly random candidate at that
    share of the decisions (for collecting training data); ``use_network=False`` leaves the network
    out (the heuristic, with ``explore``). ``record``, when a list, receives the features of each
    decision's chosen action (for training)."""

    name = "learned"

    def __init__(self, path: str = "", prior: float = 0.0, explore: float = 0.0, use_network: bool = True,
                 record: list[list[float]] | None = None, **options: float) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must be between 0 and 1, not {explore}")
        self.network: Network | None = load_network(path) if use_network else None
        self.prior = prior
        self.explore = explore
        self.record = record

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        base = super().choose(view, legal, rng)
        if base is None or isinstance(base, Catch | CallUno) or not applies(view.ruleset):
            return base
        options = candidates(view, legal)
        if len(options) < 2 or (isinstance(base, Play) and len(view.hand) == 1):
            return base  # nothing to choose, or going out
        ctx = _Ctx(view, self._tracker(view))
        color = best_color(ctx, ctx.hand)
        if self.explore and rng.random() < self.explore:
            choice = options[rng.randrange(len(options))]
        elif self.network is None:
            choice = base
        else:
            net = self.network
            best = -1.0
            choice = base
            for a in options:
                p = net(features(ctx, a, color)) + (self.prior if a == base else 0.0)
                if p > best:
                    best, choice = p, a
        if self.record is not None:
            self.record.append(features(ctx, choice, color))
        return choice

    def win_chances(self, view: PlayerView) -> list[float]:
        """The network's win chance after each of :func:`candidates` for ``view`` (for reading)."""
        net = self.network or load_network()
        ctx = _Ctx(view, self._tracker(view))
        color = best_color(ctx, ctx.hand)
        return [net(features(ctx, a, color)) for a in candidates(view, view.legal)]
