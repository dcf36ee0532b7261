"""The table driver: it asks each seat that may act, in a fixed order, and applies what comes back.

Every program that runs a table with more than one decision-maker uses this one module: the arena
(bot against bot), the terminal (a person against bots), the tests' random players, and later the
server's bot seats and the learning environment. Each seat has an *agent*: an
:class:`unotable.agent.Agent`, whose ``choose(view, legal, rng) -> Action | None`` decides and whose
other hooks (``react``, ``observe``, ``rejected``, ``restart``) are declared with no-op defaults.
An agent receives its seat's :class:`~unotable.views.PlayerView`, its legal actions and its own seeded
:class:`random.Random`, never the game.

The order (after every applied action, and before the first):

1. **Out of turn.** Every seat other than the active seat that has a legal action now (an UNO
   call, a catch, a jump-in) is offered its actions, in turn order from the active seat: seat
   ``(active + k * direction) % seats`` for ``k = 1, 2, ...``. An agent answers an action or None
   to let the chance pass; it is asked through ``react`` (by default ``choose``). The
   first seat that answers an action has it applied (first come, first served: GEN-3, NET-8), and
   the order starts again from step 1 in the new state. A seat that declined is not asked again
   until the state changes.
2. **The turn.** When every other seat has declined, the active seat is asked and must answer an
   action (a call or a catch first is allowed: it is then asked again, from step 1).

An action that the game rejects is told to the agent (``rejected(action, error)``; the error's text
holds only what its seat may see): when that answers True it is asked again (a person at the
terminal), else the step ends with :class:`ArbiterError`. A game that has no action yet starts
with every agent's ``restart()``.

After each applied action every agent's ``observe(events)`` receives the new events its seat
may see (``Game.events_since``), in order; at the start it receives the deal's. A round ends with
the phase ROUND_OVER: :meth:`Arbiter.play_match` deals the next one (``Game.next_round``), and the
agents observe that deal too.

>>> from unotable.game import Game
>>> from unotable.bots import make_bot
>>> game = Game.new(seats=3, seed=11)
>>> arbiter = Arbiter(game, {s: make_bot("random") for s in range(3)}, seed=11)
>>> actions = arbiter.play_round()
>>> game.phase.name in ("ROUND_OVER", "MATCH_OVER"), actions == game.action_count
(True, True)
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from unotable.actions import Action
from unotable.agent import Agent, derive_seed, seat_rng
from unotable.errors import UnoError
from unotable.events import Event
from unotable.game import ALL, Game
from unotable.phase import Phase
from unotable.views import TableInfo

__all__ = ["Agent", "Applied", "Arbiter", "ArbiterError", "derive_seed", "offer_order", "seat_rng",
           "seat_rngs", "seats_to_ask"]


class ArbiterError(RuntimeError):
    """An agent broke the protocol: no action on its turn, or an action the game rejected."""


@dataclass(frozen=True, slots=True)
class Applied:
    """One applied action: who made it, what it was, and the events it caused."""

    seat: int | None
    action: Action
    events: tuple[Event, ...]


def seat_rngs(seed: int, seats: int) -> dict[int, random.Random]:
    """One generator per seat from a table's seed (:func:`~unotable.agent.seat_rng`): the same seed
    and the same decisions give the same table."""
    return {s: seat_rng(seed, s) for s in range(seats)}


def offer_order(game: Game) -> list[int]:
    """The seats other than the active one, in the order they are offered out-of-turn actions."""
    n = game.seats
    active = game.active_seat
    d = game.direction
    return [(active + k * d) % n for k in range(1, n)]


def seats_to_ask(game: Game) -> list[int]:
    """The seats that may act now, in the order the arbiter asks them: every seat other than the
    active one with a legal action, in :func:`offer_order`, then the active seat (when it has a
    legal action). A pure function of the game: the server's bot seats follow it too.

    >>> game = Game.new(seats=3, seed=11)
    >>> seats_to_ask(game)[-1] == game.active_seat
    True
    """
    seats = [s for s in offer_order(game) if game.legal_actions_for(s)]
    if game.legal_actions_for(game.active_seat):
        seats.append(game.active_seat)
    return seats


class Arbiter:
    """Drives ``game`` by the documented order, asking the agents of ``agents`` (seat -> agent).

    ``rngs`` gives each seat its generator (default: :func:`seat_rngs` of ``seed``). ``table`` is
    the static part of the views (names). ``on_applied`` is called after every applied action
    (the terminal prints and paces with it).
    """

    def __init__(
        self,
        game: Game,
        agents: Mapping[int, Agent],
        rngs: Mapping[int, random.Random] | None = None,
        *,
        seed: int = 0,
        table: TableInfo | None = None,
        on_applied: Callable[[Applied], None] | None = None,
    ) -> None:
        missing = [s for s in range(game.seats) if s not in agents]
        if missing:
            raise ValueError(f"every seat needs an agent; seats {missing} have none")
        strangers = {s: type(a).__name__ for s, a in agents.items() if not isinstance(a, Agent)}
        if strangers:
            raise TypeError(f"an agent is an unotable.agent.Agent (subclass it: its hooks have no-op "
                            f"defaults); seat -> type: {strangers}")
        self.game = game
        self.agents = dict(agents)
        self.rngs = dict(rngs) if rngs is not None else seat_rngs(seed, game.seats)
        self.table = table or game.table_info()
        self.on_applied = on_applied
        if game.action_count == 0:
            for agent in self.agents.values():
                agent.restart()
        self._seen = 0
        self._declined: dict[int, tuple[int, int]] = {}
        self.feed()

    def _version(self) -> tuple[int, int]:
        return (self.game.action_count, self.game.last_seq)

    def feed(self) -> None:
        """Give every observing agent the events its seat may see that it has not had yet."""
        game = self.game
        new = game.events_since(self._seen, ALL)
        self._seen = game.last_seq
        if not new:
            return
        for seat, agent in self.agents.items():
            mine = [e for e in new if e.visible_to(seat)]
            if mine:
                agent.observe(mine)

    def _ask(self, seat: int, out_of_turn: bool) -> Action | None:
        agent = self.agents[seat]
        game = self.game
        view = game.view(seat, self.table)
        ask = agent.react if out_of_turn else agent.choose
        return ask(view, view.legal, self.rngs[seat])

    def _apply(self, seat: int, action: Action, out_of_turn: bool) -> Applied | None:
        """Apply ``seat``'s ``action``; None when the agent was told of a rejection (ask again)."""
        try:
            events = self.game.play(action, seat)
        except UnoError as exc:
            agent = self.agents[seat]
            if not agent.rejected(action, exc):
                raise ArbiterError(f"the {agent.name} agent at seat {seat} chose {action}: {exc}") from exc
            return None
        done = Applied(seat, action, tuple(events))
        self.feed()
        if self.on_applied is not None:
            self.on_applied(done)
        return done

    def step(self) -> Applied | None:
        """Apply the next action by the order above; None when the round is over."""
        game = self.game
        while game.phase < Phase.ROUND_OVER:
            version = self._version()
            acted: Applied | None = None
            asked_again = False
            for seat in offer_order(game):
                if self._declined.get(seat) == version or not game.legal_actions_for(seat):
                    continue
                choice = self._ask(seat, out_of_turn=True)
                if choice is None:
                    self._declined[seat] = version
                    continue
                acted = self._apply(seat, choice, out_of_turn=True)
                if acted is None:
                    asked_again = True
                break
            if acted is not None:
                return acted
            if asked_again:
                continue
            active = game.active_seat
            choice = self._ask(active, out_of_turn=False)
            if choice is None:
                name = self.agents[active].name
                raise ArbiterError(f"the {name} agent at seat {active} chose no action on its turn")
            acted = self._apply(active, choice, out_of_turn=False)
            if acted is not None:
                return acted
        return None

    def deal(self) -> Applied:
        """Deal the next round (the round is over, the match is not)."""
        events = self.game.next_round()
        self.feed()
        done = Applied(None, self.game.actions[-1][1], tuple(events))
        if self.on_applied is not None:
            self.on_applied(done)
        return done

    def play_round(self, max_actions: int | None = None) -> int:
        """Play the current round to its end (or ``max_actions`` actions); the actions applied."""
        count = 0
        while self.game.phase < Phase.ROUND_OVER:
            if max_actions is not None and count >= max_actions:
                break
            if self.step() is not None:
                count += 1
        return count

    def play_match(self, max_actions: int | None = None) -> int:
        """Play round after round to the end of the match (or ``max_actions`` actions in all)."""
        count = 0
        while True:
            left = None if max_actions is None else max_actions - count
            count += self.play_round(left)
            if self.game.phase is not Phase.ROUND_OVER or (max_actions is not None and count >= max_actions):
                return count
            self.deal()
