"""The one protocol of a seat's decision-maker, and the one recipe of its random generator.

An :class:`Agent` is whatever decides for a seat: a bot, a person at the terminal, a test's script,
a learning policy. The drivers (:mod:`unotable.arbiter`, the server's bot seats, the learning
environment) call its methods, all declared here with defaults that do nothing (as OpenSpiel's
``Bot`` declares ``InformAction`` and ``Restart``), so a driver never probes for a hook:

- :meth:`Agent.choose` (the one method to write): an action from the seat's legal actions, or None
  to decline (only when the seat is not the active seat).
- :meth:`Agent.react`: an out-of-turn decision (an UNO call, a catch, a jump-in); by default the
  same as ``choose``.
- :meth:`Agent.observe`: the events the seat may see, in order, after each applied action (the
  public record that a view alone does not keep); by default ignored.
- :meth:`Agent.rejected`: the game refused the agent's action; True asks it again (a person who
  mistyped), False (the default) lets the driver treat it as a broken agent.
- :meth:`Agent.restart`: a new game begins; forget the last one. By default nothing.

An agent receives its seat's :class:`~unotable.views.PlayerView`, never the game, and its own
generator, made by :func:`seat_rng` from the table's seed: the same seed and the same decisions
give the same table.

>>> from unotable.game import Game
>>> class First(Agent):
...     name = "first"
...     def choose(self, view, legal, rng):
...         return legal[0] if view.active == view.seat else None
>>> g = Game.new(seats=2, seed=1)
>>> s = g.active_seat
>>> First().choose(g.view(s), g.legal_action_list(s), seat_rng(1, s)) in g.legal_actions
True
>>> First().rejected(g.legal_actions[0], ValueError("no")), repr(First())
(False, '<First first>')
>>> seat_rng(7, 2).random() == seat_rng(7, 2).random() != seat_rng(7, 3).random()
True
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from unotable.actions import Action
from unotable.events import Event
from unotable.views import PlayerView

__all__ = ["Agent", "derive_seed", "seat_rng"]


class Agent:
    """A seat's decision-maker: override :meth:`choose`; every other hook is optional."""

    name: str = "agent"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """An action from ``legal``; None declines (allowed only when the seat is not active)."""
        raise NotImplementedError(f"{type(self).__name__} must define choose(view, legal, rng)")

    def react(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        """An out-of-turn decision: an action from ``legal`` or None (by default :meth:`choose`)."""
        return self.choose(view, legal, rng)

    def observe(self, events: Sequence[Event]) -> None:
        """The events this seat may see, in order (by default ignored)."""
        del events

    def rejected(self, action: Action, error: Exception) -> bool:
        """The game refused ``action`` with ``error`` (its text holds only what this seat may see).

        True: ask again. False (the default): the driver reports a broken agent.
        """
        del action, error
        return False

    def restart(self) -> None:
        """A new game begins (by default nothing to forget)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the given parts (stable across runs, machines and Python versions).

    >>> derive_seed(1, "seat", 2) == derive_seed(1, "seat", 2) != derive_seed(1, "seat", 3)
    True
    """
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_rng(seed: int, seat: int) -> random.Random:
    """The generator of ``seat``'s agent at a table whose seed is ``seed`` (the one recipe).

    Every driver derives its agents' generators this way: the arbiter from the table's seed, the
    arena from each game's seed, the terminal from the match's, the server from its table's.
    """
    return random.Random(derive_seed(seed, "seat", seat))
