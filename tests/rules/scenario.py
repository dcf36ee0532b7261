"""Helpers shared by the rule scenario tests in this folder.

A scenario builds an exact position with ``Game.from_position`` (``make``), plays actions and
checks the exact result: hands (``hands``, ``hand_lists``), legal actions (``legal``) and events
(``played``, ``cards``). ``rejected`` asserts GEN-2: an action that is refused raises the expected
error and changes nothing, neither the position nor the event log nor the action log.

pytest imports this module by name (``from scenario import ...``): the ``pythonpath`` setting in
pyproject.toml puts this folder on ``sys.path``.
"""
from __future__ import annotations

from typing import Any

import pytest

from unotable import Card, Color, Game, IllegalActionError, Ruleset
from unotable.events import CardPlayed


def make(
    hands: list[list[str]],
    discard: list[str],
    ruleset: Ruleset | str | dict[str, Any] = "official",
    **fields: Any,
) -> Game:
    """A game at an exact position: hands and the discard pile (bottom first) as card notations.

    ``ruleset`` is a ``Ruleset``, a preset name or a ruleset dict; ``fields`` are further keys of the
    position document (``draw``, ``active``, ``direction``, ``scores`` ...).
    """
    rules = ruleset.to_dict() if isinstance(ruleset, Ruleset) else ruleset
    return Game.from_position({"ruleset": rules, "hands": hands, "discard": discard, **fields})


def cards(*texts: str) -> tuple[Card, ...]:
    """Cards from notations: ``cards("R1 R2")`` and ``cards("R1", "R2")`` are the same."""
    return tuple(Card.parse(c) for text in texts for c in text.split())


def hands(game: Game) -> list[str]:
    """Every seat's hand as one space-separated string."""
    return [" ".join(str(c) for c in game.hand(s)) for s in range(game.seats)]


def hand_lists(game: Game) -> list[list[str]]:
    """Every seat's hand as a list of card notations."""
    return [[str(c) for c in game.hand(s)] for s in range(game.seats)]


def legal(game: Game, seat: int | None = None) -> set[str]:
    """The legal actions of the active seat, or of ``seat``, as notations."""
    actions = game.legal_actions if seat is None else game.legal_actions_for(seat)
    return {str(a) for a in actions}


def rejected(
    game: Game, action: str, seat: int | None = None, error: type[Exception] = IllegalActionError
) -> None:
    """GEN-2: the action raises ``error`` and changes nothing: position, events and actions."""
    before = game.to_position()
    count = len(game.events)
    actions = len(game.actions)
    with pytest.raises(error):
        game.play(action, seat)
    assert game.to_position() == before
    assert len(game.events) == count
    assert len(game.actions) == actions


def played(
    seat: int, card: str, color: Color | None = None, target: int | None = None, uno: bool = False
) -> CardPlayed:
    """The ``CardPlayed`` event of a play from the hand."""
    return CardPlayed(seat, Card.parse(card), color, target, uno, False)
