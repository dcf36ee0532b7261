"""A bot that plays a trained policy network (``make_bot("policy", path="policy.npz")``).

The network is the multilayer perceptron that ``examples/train_ppo.py`` trains and saves: arrays
``w0, b0, w1, b1`` (the ReLU body), ``w2, b2`` (the action logits) and ``w3, b3`` (the value,
unused here), applied with NumPy alone. The bot sees what every bot sees, its seat's view and its
legal actions; it encodes the view with :func:`unotable.env.spaces.encode` and plays the legal
action with the highest logit (``greedy=False`` samples instead). UNO calls and catches are made
as the environment's ``out_of_turn="auto"`` makes them (every call and catch, no jump-in), which
is how the example trains.

>>> import numpy as np, tempfile, os, random
>>> from unotable.game import Game
>>> from unotable.env.spaces import OBS_SIZE, NUM_ACTIONS
>>> rng = np.random.default_rng(0)
>>> shapes = [(OBS_SIZE, 8), (8, 8), (8, NUM_ACTIONS), (8, 1)]
>>> arrays = {f"w{i}": rng.normal(size=s).astype("float32") for i, s in enumerate(shapes)}
>>> arrays.update({f"b{i}": np.zeros(s[1], "float32") for i, s in enumerate(shapes)})
>>> path = os.path.join(tempfile.mkdtemp(), "p.npz"); np.savez(path, **arrays)
>>> bot = PolicyBot(path)
>>> g = Game.new(seats=2, seed=1)
>>> v = g.view(g.active_seat)
>>> bot.choose(v, v.legal, random.Random(0)) in v.legal
True
"""
from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from unotable.actions import CALL_UNO, CATCH, Action
from unotable.bots.base import BaseBot
from unotable.env.spaces import HISTORY_OFF, RULESET_OFF, History, encode, index_of
from unotable.env.table import auto_legal
from unotable.views import PlayerView

__all__ = ["PolicyBot", "features"]


def features(obs: np.ndarray) -> np.ndarray:
    """The network's input from observations (uint8, ``(..., 854)``): ``log1p`` of every byte,
    the history block zeroed."""
    x = np.log1p(obs.astype(np.float32))
    x[..., HISTORY_OFF:RULESET_OFF] = 0.0
    return x


class PolicyBot(BaseBot):
    """Plays the saved network (see the module docstring)."""

    name = "policy"

    def __init__(self, path: str = "", greedy: bool = True) -> None:
        if not path:
            raise ValueError("the policy bot needs path=FILE.npz (a network saved by examples/train_ppo.py)")
        with np.load(path, allow_pickle=False) as data:  # arrays only: a pickled object is refused
            self.layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(3)]
        self.greedy = greedy

    def logits(self, obs: np.ndarray) -> np.ndarray:
        h = features(obs)
        (w0, b0), (w1, b1), (w2, b2) = self.layers
        h = np.maximum(h @ w0 + b0, 0.0)
        h = np.maximum(h @ w1 + b1, 0.0)
        out: np.ndarray = h @ w2 + b2
        return out

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        for kind in (CALL_UNO, CATCH):
            for a in legal:
                if a.kind == kind:
                    return a
        if view.seat != view.active:
            return None  # no jump-ins
        options = auto_legal(legal)
        if len(options) == 1:
            return options[0]
        obs = np.frombuffer(encode(view, History(view.seats)), dtype=np.uint8)
        logits = self.logits(obs)
        n = view.seats
        scores = np.array([logits[index_of(a, view.seat, n)] for a in options], dtype=np.float64)
        if self.greedy:
            return options[int(np.argmax(scores))]
        p = np.exp(scores - scores.max())
        p /= p.sum()
        return options[int(np.searchsorted(np.cumsum(p), rng.random() * p.sum()))]

    def __repr__(self) -> str:
        return "PolicyBot()"
