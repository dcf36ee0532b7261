"""JSON and back for the engine's typed values: one writer (:func:`plain`), one reader (:func:`read`).

Every value type of the engine that has ``to_dict`` (events, views, round results, outcomes) writes
its fields through :func:`plain` and reads them back through :func:`read`, guided by the field's
type hint, so that ``X.from_dict(x.to_dict()) == x`` holds for each of them by construction:

- a :class:`~unotable.cards.Card` is its notation (``"R7"``), a :class:`~unotable.cards.Color` its
  letter (``"R"``), an :class:`~unotable.actions.Action` its notation (``"W4:B!"``);
- an ``IntEnum`` (``Phase``, ``ColorReason``) is its name in lower case, any other enum its value;
- a value with ``to_dict``/``from_dict`` is its dict; a tuple is a list.

Anything else in the document is refused with :class:`~unotable.errors.RecordError`, naming the
field (``where``) and the value.

>>> from unotable.cards import Card
>>> from unotable.phase import Phase
>>> plain((Card.parse("R7"), Phase.PLAY_DRAWN))
['R7', 'play_drawn']
>>> read(["R7", "W"], tuple[Card, ...], "hand")
(Card.parse('R7'), Card.parse('W'))
>>> read("seven", int, "view.seq")
Traceback (most recent call last):
...
unotable.errors.RecordError: view.seq must be int, not 'seven'
"""
from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from enum import Enum, IntEnum
from typing import Any

from unotable.actions import Action, parse_action
from unotable.cards import Card, Color
from unotable.errors import RecordError, UnoError

__all__ = ["fields_from_dict", "plain", "read"]

_ACTION_CLASSES = frozenset(typing.get_args(Action))


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data (the inverse of :func:`read`)."""
    kind = type(value)  # (the commonest exact types first: a view is written for every update)
    if kind is int or kind is str or kind is bool or value is None:
        return value
    if kind is Card:
        return str(value)
    if kind is tuple or kind is list:
        return [plain(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Color):
        return value.letter
    if isinstance(value, IntEnum):
        return value.name.lower()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, Action):
        return str(value)
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    return value


def read(value: Any, hint: Any, where: str) -> Any:
    """``value`` from JSON as the type ``hint`` says; :class:`RecordError` names ``where``."""
    origin = typing.get_origin(hint)
    if origin is types.UnionType or origin is typing.Union:
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None:
            return None
        if len(options) > 1 and set(options) <= _ACTION_CLASSES:
            return _action(value, where)
        return read(value, options[0], where)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise RecordError(f"{where} must be a list, not {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(read(v, args[0], where) for v in value)
        if len(args) != len(value):
            raise RecordError(f"{where} must have {len(args)} items, not {value!r}")
        return tuple(read(v, a, where) for v, a in zip(value, args, strict=True))
    try:
        if hint is Card:
            return Card.parse(value)
        if hint is Color:
            return Color.parse(value)
        if isinstance(hint, type) and issubclass(hint, IntEnum):
            if not isinstance(value, str):
                raise ValueError(value)
            return hint[value.upper()]
        if isinstance(hint, type) and issubclass(hint, Enum):
            return hint(value)
    except (UnoError, ValueError, AttributeError, KeyError, TypeError):
        raise RecordError(f"{where} cannot be {value!r}") from None
    from_dict = getattr(hint, "from_dict", None)
    if from_dict is not None:
        return from_dict(value)
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint is str:
        ok = isinstance(value, str)
    else:
        ok = isinstance(value, hint)
    if not ok:
        raise RecordError(f"{where} must be {getattr(hint, '__name__', hint)}, not {value!r}")
    return value


def _action(value: Any, where: str) -> Action:
    if not isinstance(value, str):
        raise RecordError(f"{where} must be an action in notation, not {value!r}")
    try:
        return parse_action(value)
    except UnoError:
        raise RecordError(f"{where} cannot be {value!r}") from None


def fields_from_dict(
    doc: Any, hints: Mapping[str, Any], what: str, *, required: bool = True
) -> dict[str, Any]:
    """The keyword arguments of a value of type ``what`` read from ``doc`` by field ``hints``.

    Every field must be present when ``required`` (else missing ones are left out), and no other
    key may be: a misspelt field is an error, never ignored.
    """
    if not isinstance(doc, Mapping):
        raise RecordError(f"{what} is a JSON object, not {type(doc).__name__}")
    unknown = set(doc) - set(hints)
    if unknown:
        raise RecordError(f"{what} has no field {sorted(unknown)[0]!r}")
    out: dict[str, Any] = {}
    for name, hint in hints.items():
        if name in doc:
            out[name] = read(doc[name], hint, f"{what}.{name}")
        elif required:
            raise RecordError(f"{what} lacks the field {name!r}")
    return out
