"""Position documents for the vector env's reset: every table's, read and checked before any table
changes.

Pure Python (the engine's :func:`~unotable.position.read_position`), so both vector backends
(``unotable.env.vector.PythonBackend`` and the core's ``VecPool``) read positions, and refuse bad
ones, with the same code and the same messages. A document listed for several tables (the
``{"position": doc}`` option lists one for every table) is read once.

>>> from unotable.game import Game
>>> from unotable.rules import Ruleset
>>> doc = Game.new(2, "official", seed=4).to_position()
>>> states = read_positions([doc, doc], Ruleset.preset("official"), 2, 2)
>>> len(states), states[0] is states[1], states[0].n
(2, True, 2)
>>> read_positions([doc], Ruleset.preset("official"), 3, 1)
Traceback (most recent call last):
...
unotable.errors.PositionError: position of table 0: it has 2 seats; the env plays 3
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from unotable.errors import PositionError
from unotable.position import read_position
from unotable.rules import Ruleset
from unotable.state import State

__all__ = ["read_positions"]


def read_positions(positions: object, rules: Ruleset, seats: int, tables: int) -> list[State]:
    """Table ``i``'s start state from ``positions[i]`` (a dict as ``Game.to_position()`` writes it).

    Raises ``ValueError`` when ``positions`` is not a list of ``tables`` documents, and
    :class:`~unotable.errors.PositionError` naming the table for a malformed or impossible
    document, or one of another ruleset or seat count than ``rules`` and ``seats``. The states are
    shared between tables that list the same document object: copy one before changing it.
    """
    if isinstance(positions, (str, bytes, Mapping)) or not isinstance(positions, Sequence):
        raise ValueError(f"positions must be a list of position documents, one per table, not "
                         f"{type(positions).__name__}")
    if len(positions) != tables:
        raise ValueError(f"{len(positions)} positions for {tables} tables: give one per table")
    read: dict[int, State] = {}
    out: list[State] = []
    for i, doc in enumerate(positions):
        st = read.get(id(doc))
        if st is None:
            st = _read_one(doc, i, rules, seats)
            read[id(doc)] = st
        out.append(st)
    return out


def _read_one(doc: Any, i: int, rules: Ruleset, seats: int) -> State:
    try:
        st = read_position(doc)
    except PositionError as exc:
        raise PositionError(f"position of table {i}: {exc}", exc.field) from None
    if st.n != seats:
        raise PositionError(f"position of table {i}: it has {st.n} seats; the env plays {seats}", "hands")
    if st.rules != rules:
        raise PositionError(f"position of table {i}: its ruleset is not the env's ({_diff(st.rules, rules)})",
                            "ruleset")
    return st


def _diff(got: Ruleset, want: Ruleset) -> str:
    """The first options that differ, as ``name: position's value, env's value``."""
    a, b = got.to_dict(), want.to_dict()
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    shown = "; ".join(f"{k}: {a.get(k)!r} here, {b.get(k)!r} in the env" for k in keys[:3])
    return shown + ("; ..." if len(keys) > 3 else "") if shown else "they differ"
