"""The bot protocol, the registry, and helpers that every bot shares.

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

>>> bot = make_bot("random")
>>> bot.name
'random'
>>> sorted(BOT_NAMES)
['heuristic', 'ismcts', 'random', 'rule-v1']
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from unotable.actions import Action, Play
from unotable.events import Event
from unotable.state import Phase
from unotable.views import PlayerView

__all__ = [
    "BOT_NAMES",
    "BaseBot",
    "Bot",
    "best_uno",
    "is_turn",
    "make_bot",
    "parse_bot_spec",
    "register",
]


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


_REGISTRY: dict[str, Callable[..., Bot]] = {}


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot factory to the registry under ``name``."""
    _REGISTRY[name] = factory


def _load() -> None:
    if _REGISTRY:
        return
    from unotable.bots.heuristic import HeuristicBot
    from unotable.bots.ismcts import IsmctsBot
    from unotable.bots.random_bot import RandomBot
    from unotable.bots.rule_v1 import RuleV1Bot

    register("random", RandomBot)
    register("rule-v1", RuleV1Bot)
    register("heuristic", HeuristicBot)
    register("ismcts", IsmctsBot)


BOT_NAMES: tuple[str, ...] = ("random", "rule-v1", "heuristic", "ismcts")
"""The built-in bot names, weakest first."""


def _value(text: str) -> object:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_bot_spec(spec: str) -> tuple[str, dict[str, object]]:
    """Read ``name`` or ``name:key=value:key=value`` (as the arena's ``--bots`` takes it).

    >>> parse_bot_spec("ismcts:iterations=200:c=0.5")
    ('ismcts', {'iterations': 200, 'c': 0.5})
    """
    name, *parts = spec.strip().split(":")
    options: dict[str, object] = {}
    for part in parts:
        if "=" not in part:
            raise ValueError(f"bot option {part!r} in {spec!r} is not key=value")
        key, value = part.split("=", 1)
        options[key.strip().replace("-", "_")] = _value(value.strip())
    return _canonical(name), options


def _canonical(name: str) -> str:
    key = name.strip().lower().replace("_", "-")
    return {"rulev1": "rule-v1", "rule": "rule-v1", "mcts": "ismcts"}.get(key, key)


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by registry name (``random``, ``rule-v1``, ``heuristic``, ``ismcts``) or spec.

    ``name`` may carry options as in :func:`parse_bot_spec`; keyword options override them.
    """
    _load()
    key, spec_options = parse_bot_spec(name)
    factory = _REGISTRY.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(_REGISTRY)}")
    return factory(**{**spec_options, **options})
