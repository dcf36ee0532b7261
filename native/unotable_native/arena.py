"""The arena in the core: seeded rounds with a native policy at every seat.

:func:`play_rounds` plays games ``first .. first + games - 1`` of an arena run exactly as
``unotable.bots.arena.play_game`` plays them in mode ``"round"`` (the same deals, seat rotation,
bot generators and arbiter order; ``native/src/arena.hpp``), with the ports of the bots named in
:data:`POLICIES`, and returns each game's winners, points and turn actions.
``unotable.bots.arena.run_arena`` calls it when every seat's bot has a policy here.

>>> from unotable.bots.mixbot import MIXBOT_RULES
>>> games = play_rounds(MIXBOT_RULES, 2, ["mixbot2", "random-stuck"], seed=1, first=0, games=4)
>>> len(games), all(g.finished for g in games), games[0].bots
(4, True, ('mixbot2', 'random-stuck'))
"""
from __future__ import annotations

import array
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from unotable.rules import Ruleset

from . import Pool, _core

__all__ = ["POLICIES", "NativeGame", "game_actions", "play_rounds"]

POLICIES: Mapping[str, int] = {"random": 0, "random-stuck": 1, "rule-v1": 2, "mixbot": 3, "mixbot2": 4}
"""The bots with a policy in the core (their default options; mixbot2 also with its limits and
rankings, the ``params`` of :func:`play_rounds`), by registry name, with its code."""

MAX_SEED = 2**64 - 1


@dataclass(frozen=True, slots=True)
class NativeGame:
    """One game (a round): the bot at each seat, the winning seats, points and turn actions per seat."""

    index: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    points: tuple[int, ...]
    turns: tuple[int, ...]
    finished: bool


def _codes(bots: Sequence[str], seats: int) -> list[int]:
    if len(bots) != seats:
        raise ValueError(f"{len(bots)} bots for {seats} seats: name one per seat")
    unknown = [b for b in bots if b not in POLICIES]
    if unknown:
        raise ValueError(f"no native policy for {', '.join(map(repr, unknown))}; the core has "
                         f"{', '.join(POLICIES)}")
    return [POLICIES[b] for b in bots]


def _params(params: Sequence[Sequence[int] | None] | None, bots: Sequence[str]) -> list[list[int]]:
    """mixbot2's options per seat for the core (``MixBot2.native_params``; None: the defaults)."""
    if params is None:
        return []
    if len(params) != len(bots):
        raise ValueError(f"{len(params)} params for {len(bots)} seats: give one per seat "
                         "(None for the defaults)")
    out = []
    for bot, p in zip(bots, params, strict=True):
        if p is not None and bot != "mixbot2":
            raise ValueError(f"params are mixbot2's options; {bot!r} takes none")
        out.append([] if p is None else [int(x) for x in p])
    return out


def _check(seed: int, first: int, games: int, max_actions: int) -> None:
    for name, value, top in (("seed", seed, MAX_SEED), ("first", first, 2**62), ("games", games, 2**62),
                             ("max_actions", max_actions, 2**62)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            raise ValueError(f"{name} must be an int from 0 to {top}, not {value!r}")


def play_rounds(
    ruleset: Ruleset | str | Mapping[str, Any],
    seats: int,
    bots: Sequence[str],
    seed: int,
    first: int,
    games: int,
    max_actions: int = 100_000,
    threads: int = 1,
    params: Sequence[Sequence[int] | None] | None = None,
) -> list[NativeGame]:
    """Games ``first .. first + games - 1`` of the arena run of ``seed`` with the lineup ``bots``
    (one name of :data:`POLICIES` per seat, rotated as ``arena.seating`` rotates them), played on
    ``threads`` threads with the GIL released; the results do not depend on ``threads``.
    ``params``: none, or one entry per seat of the lineup, a mixbot2's options as
    ``MixBot2.native_params()`` gives them (None: the defaults)."""
    _check(seed, first, games, max_actions)
    codes = _codes(list(bots), seats)
    mix = _params(params, list(bots))
    pool = Pool(1, ruleset, seats)
    raw = _core.arena(pool._core, codes, seed, first, games, max_actions, max(1, int(threads)), mix)
    rows = array.array("i")
    rows.frombytes(raw)
    if sys.byteorder != "little":  # pragma: no cover
        rows.byteswap()
    width = 2 + 2 * seats
    lineup = tuple(bots)
    out = []
    for i in range(games):
        row = rows[i * width:(i + 1) * width]
        rotation = (first + i) % seats
        mask = row[0]
        out.append(NativeGame(
            first + i,
            tuple(lineup[(s + rotation) % seats] for s in range(seats)),
            tuple(s for s in range(seats) if mask >> s & 1),
            tuple(row[2:2 + seats]),
            tuple(row[2 + seats:]),
            bool(row[1]),
        ))
    return out


def game_actions(
    ruleset: Ruleset | str | Mapping[str, Any],
    seats: int,
    bots: Sequence[str],
    seed: int,
    index: int,
    max_actions: int = 100_000,
    params: Sequence[Sequence[int] | None] | None = None,
) -> tuple[NativeGame, list[tuple[int, str]]]:
    """Game ``index`` of the run, with every action the core applied: ``(seat, notation)`` in order
    (what ``Game.actions`` holds after the Python arena's game, the deal aside); ``params`` as
    :func:`play_rounds` takes them."""
    _check(seed, index, 1, max_actions)
    codes = _codes(list(bots), seats)
    mix = _params(params, list(bots))
    pool = Pool(1, ruleset, seats)
    row, moves = _core.arena_game(pool._core, codes, seed, index, max_actions, mix)
    rotation = index % seats
    game = NativeGame(
        index,
        tuple(bots[(s + rotation) % seats] for s in range(seats)),
        tuple(s for s in range(seats) if row[0] >> s & 1),
        tuple(row[2:2 + seats]),
        tuple(row[2 + seats:]),
        bool(row[1]),
    )
    return game, [(int(s), str(a)) for s, a in moves]
