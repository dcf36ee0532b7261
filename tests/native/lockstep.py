"""Lockstep play of the reference engine and the native core, compared after every action.

:func:`lockstep` plays one match (or round) in a :class:`~unotable.game.Game` and in table ``i``
of a :class:`unotable_native.Pool` side by side, choosing actions with a seeded random policy
(plays, draws, out-of-turn UNO calls, catches and jump-ins, and probes of actions that may be
refused), and asserts after every action that both engines agree: every seat's legal actions (the
same strings, in the same order), the error class of a refused action, the full internal state and
``to_position()``.
"""
from __future__ import annotations

import random
from typing import Any

import pytest

from unotable import Game, Phase
from unotable.actions import Deal, Play
from unotable.cards import ID_NOTATION, NUM_CARD_IDS
from unotable.env.spaces import History, encode, legal_mask, ruleset_block
from unotable.errors import UnoError

native = pytest.importorskip(
    "unotable_native",
    reason="the native core is not built: `pip install -e native/` (make test builds it)",
)
state_doc = native.state_doc


def Pool(*args: Any, **kwargs: Any) -> Any:
    """``unotable_native.Pool`` given the observation layout's ruleset block, as the env gives it."""
    return native.Pool(*args, ruleset_block=ruleset_block, **kwargs)


def probe_actions(seats: int) -> list[str]:
    """Action texts a probe draws from: every card (with and without colors, targets, the UNO
    flag), every word, every color choice and catch, and some malformed text."""
    out = ["draw", "pass", "accept", "challenge", "uno", "deal", "", "R", "Q7", "W4:Q", "R7:B", "catch:x"]
    for c in range(NUM_CARD_IDS):
        name = ID_NOTATION[c]
        out += [name, name + "!", name + ":R", name + ":G!", name + ">1", name + ":B>0", f"{name}>{seats}"]
    out += [f"color:{x}" for x in "RYGB"] + ["color:R>1", f"color:B>{seats - 1}"]
    out += [f"catch:{s}" for s in range(10)]
    return out


def same(game: Game, pool: Any, i: int, where: str, history: History | None = None) -> None:
    assert state_doc(pool.state(i)) == state_doc(game._st), where
    for seat in range(game.seats):
        legal = game.legal_actions_for(seat)
        assert pool.legal(i, seat) == [str(a) for a in legal], (where, seat)
        if history is not None:
            assert pool.observe(i, seat) == bytes(encode(game.view(seat), history)), (where, seat)
            assert pool.mask(i, seat) == bytes(legal_mask(legal, seat, game.seats)), (where, seat)
    assert pool.to_position(i) == game.to_position(), where


def both(game: Game, pool: Any, i: int, action: str, seat: int | None,
         history: History | None = None) -> str:
    """Apply ``action`` to both engines; the outcome (applied, or the error class) must be the same.
    ``history``, when given, records the applied action as the env does (spaces.History)."""
    top, color = game._st.discard[-1], game._st.color
    actor = game.active_seat if seat is None else seat
    try:
        applied = game.check(action, seat)
        game.play(action, seat)
        expected = "ok"
        if history is not None:
            if isinstance(applied, Deal):
                history.clear()
            else:
                history.push(actor, applied, top, color)
    except UnoError as exc:
        expected = type(exc).__name__
    try:
        pool.play(i, action, seat)
        got = "ok"
    except UnoError as exc:
        got = type(exc).__name__
    assert got == expected, (action, seat, got, expected)
    return got


def lockstep(game: Game, pool: Any, i: int, policy_seed: int, probe: float = 0.05,
             max_actions: int = 3000, check_every: int = 1, observe: bool = False) -> int:
    """Play ``game`` and table ``i`` to the match's end in lockstep; returns the actions applied.
    ``observe`` also compares every seat's observation bytes and mask with spaces.py's after every
    action (the table's history must be fresh: a new match or a loaded position)."""
    history = History(game.seats) if observe else None
    rng = random.Random(policy_seed)
    probes = probe_actions(game.seats)
    applied = 0
    same(game, pool, i, "start", history)
    while not game.is_over() and applied < max_actions:
        if game.phase is Phase.ROUND_OVER:
            both(game, pool, i, "deal", None, history)
            applied += 1
            same(game, pool, i, f"deal {applied}", history)
            continue
        active = game.active_seat
        if rng.random() < probe:
            seat: int | None = rng.choice([None, *range(game.seats)])
            action = rng.choice(probes)
        else:
            others = sorted(game.seats_to_act - {active})
            seat = rng.choice(others) if others and rng.random() < 0.2 else active
            legal = [str(a) for a in game.legal_actions_for(seat)]
            plays = [a for a in game.legal_actions_for(seat) if isinstance(a, Play)]
            if seat == active and plays and rng.random() < 0.85:
                legal = [str(a) for a in plays]
            action = rng.choice(legal)
        if both(game, pool, i, action, seat, history) == "ok":
            applied += 1
        if applied % check_every == 0:
            same(game, pool, i, f"after {action!r} by {seat} ({applied} actions)", history)
    same(game, pool, i, "end", history)
    return applied


BUFFERS = ("obs", "mask", "reward", "acted", "terminated", "truncated", "seat")
"""The buffers of the vector env's backends (``unotable.env.vector.Backend``)."""


def assert_same_buffers(a: Any, b: Any, where: str) -> None:
    """Two vector backends' buffers equal, dtype and shape included (the rows that differ, if not)."""
    import numpy as np

    for name in BUFFERS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, (where, name)
        if not np.array_equal(x, y):
            rows = [i for i in range(len(x)) if not np.array_equal(x[i], y[i])]
            pytest.fail(f"{where}: {name} differs at rows {rows}")
