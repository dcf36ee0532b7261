"""The bot protocol and helpers that every bot shares (the registry is :mod:`unotable.bots.registry`).

A bot is any object with ``choose(view, legal, rng) -> Action | None`` (see :class:`Bot`). It
receives the seat's :class:`~unotable.views.PlayerView`, the seat's legal actions and a seeded
:class:`random.Random`, never the :class:`~unotable.game.Game` (ARCHITECTURE principle 5). A bot
may also have ``observe(events)``: the driver (the arena, the terminal client) then feeds it, in
order, every event its seat may see, so that it can follow the public record (cards played,
draws, reveals) that a view alone does not keep.

Out-of-turn actions (calling UNO, catching, jumping in) are offered the same way: a seat that is
not the active seat but has legal actions is asked with ``choose`` (or ``react``, an alias that
the terminal client prefers) and returns None to let the chance pass. The active seat must return
an action; it may return a call or a catch first, and is then asked again.

>>> from unotable.bots.random_bot import RandomBot
>>> isinstance(RandomBot(), Bot), RandomBot().name
(True, 'random')
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from unotable.actions import Action, Play
from unotable.events import Event
from unotable.state import Phase
from unotable.views import PlayerView

__all__ = ["BaseBot", "Bot", "best_uno", "is_turn"]


@runtime_checkable
class Bot(Protocol):
    """What a driver needs from a bot."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """An action from ``legal``; None declines (allowed only when the seat is not active)."""
        ...


class BaseBot:
    """A convenient base: ``react`` is ``choose``; ``observe`` ignores the events."""

    name = "base"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        raise NotImplementedError

    def react(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """An out-of-turn decision (the terminal client's name for it): the same as ``choose``."""
        return self.choose(view, legal, rng)

    def observe(self, events: Sequence[Event]) -> None:
        """Events this seat may see, in order (ignored unless a subclass tracks the record)."""
        del events

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def is_turn(view: PlayerView) -> bool:
    """True when ``view``'s seat is the active seat of a round in progress."""
    return view.active == view.seat and view.phase < Phase.ROUND_OVER and view.in_round[view.seat]


def best_uno(actions: Sequence[Action]) -> list[Action]:
    """The actions with every play that could carry the UNO flag replaced by its flagged twin.

    A flagged play is never worse than the same play unflagged (CL-UNO-2), so bots keep only it.
    """
    flagged = {
        (a.card, a.color, a.target) for a in actions if isinstance(a, Play) and a.uno
    }
    return [
        a for a in actions
        if not (isinstance(a, Play) and not a.uno and (a.card, a.color, a.target) in flagged)
    ]
