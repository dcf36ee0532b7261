"""The bot registry: names, aliases, options, and the factories behind them.

This module imports the concrete bots, so that the built-in names are always there:
:func:`register` adds a bot (or replaces one of the same name) without hiding the others.
``make_bot(spec)`` reads a spec ``name`` or ``name:key=value:...`` (the form ``unotable simulate
--bots`` takes) and raises :class:`BotSpecError` (a ``ValueError``) with a usage message for an
unknown name, an unknown option or a value of the wrong type.

>>> make_bot("heuristic").name, make_bot("MCTS:iterations=50").name
('heuristic', 'ismcts')
>>> class Mine(RandomBot):
...     name = "mine"
>>> register("mine", Mine)
>>> make_bot("mine").name, make_bot("heuristic").name
('mine', 'heuristic')
>>> unregister("mine")
>>> make_bot("ismcts:nosuch=1")
Traceback (most recent call last):
...
unotable.bots.registry.BotSpecError: bot 'ismcts' has no option 'nosuch'; its options: iterations, ...
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from importlib import metadata
from typing import Any

from unotable.bots.base import Bot
from unotable.bots.heuristic import HeuristicBot
from unotable.bots.ismcts import IsmctsBot
from unotable.bots.learned import LearnedBot
from unotable.bots.mixbot import MixBot
from unotable.bots.mixbot2 import MixBot2
from unotable.bots.random_bot import RandomBot
from unotable.bots.random_stuck import RandomStuckBot
from unotable.bots.rule_v1 import RuleV1Bot
from unotable.bots.tuned import MixBot2Tuned

__all__ = ["ALIASES", "BOT_NAMES", "BotSpecError", "canonical", "make_bot", "parse_bot_spec", "register",
           "registered", "unregister"]


class BotSpecError(ValueError):
    """A bot spec that names no registered bot, or gives an option it does not take."""


BOT_NAMES: tuple[str, ...] = ("random", "rule-v1", "heuristic", "ismcts")
"""The built-in bot names, weakest first."""

ALIASES: dict[str, str] = {"rulev1": "rule-v1", "rule": "rule-v1", "mcts": "ismcts", "best": "ismcts"}
"""Other names accepted for the built-in bots; ``best`` is the strongest measured (ismcts, searching
inside the native core where it is installed: docs/research/2026-12-05-search-in-the-core.md)."""

_BUILT_IN: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "rule-v1": RuleV1Bot,
    "heuristic": HeuristicBot,
    "ismcts": IsmctsBot,
    "random-stuck": RandomStuckBot,  # the anchors' opponent and bot (docs/bots.md)
    "mixbot": MixBot,
    "mixbot2": MixBot2,  # MixBot2 from its rules in words (docs/anchors.md)
    "mixbot2-tuned": MixBot2Tuned,  # mixbot2 with tuned options (docs/bots.md)
    "learned": LearnedBot,  # the heuristic with a value network's turn choices (docs/bots.md)
}


def _plugin(name: str) -> Callable[..., Bot]:
    """The bot factory that an installed distribution declares under the entry-point group
    ``unotable.bots`` (pyproject.toml), loaded on use: the bots package never imports the layers
    above it."""
    for entry in metadata.entry_points(group="unotable.bots"):
        if entry.name == name:
            factory: Callable[..., Bot] = entry.load()
            return factory
    raise BotSpecError(f"bot {name!r} is declared by no installed distribution (entry points "
                       "'unotable.bots'); reinstall unotable (make venv)")


def _policy_bot(path: str = "", greedy: bool = True) -> Bot:
    """A trained network (examples/train_ppo.py); needs the rl extra (numpy), loaded on use."""
    return _plugin("policy")(path=path, greedy=greedy)


def _onnx_bot(path: str = "", greedy: bool = True, out_of_turn: str = "") -> Bot:
    """A policy saved in ONNX (unotable.env.export); needs the onnx extra (onnxruntime), loaded on use."""
    return _plugin("onnx")(path=path, greedy=greedy, out_of_turn=out_of_turn)


_BUILT_IN["policy"] = _policy_bot
_BUILT_IN["onnx"] = _onnx_bot
_REGISTRY: dict[str, Callable[..., Bot]] = dict(_BUILT_IN)


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot factory under ``name`` (replacing a registered one of that name)."""
    _REGISTRY[canonical(name)] = factory


def unregister(name: str) -> None:
    """Remove a registered bot; a built-in name goes back to the built-in bot."""
    key = canonical(name)
    if key in _BUILT_IN:
        _REGISTRY[key] = _BUILT_IN[key]
    else:
        _REGISTRY.pop(key, None)


def registered() -> tuple[str, ...]:
    """Every name :func:`make_bot` takes (aliases aside): the built-in bots first."""
    return tuple(_REGISTRY)


def canonical(name: str) -> str:
    """The registry key for a name: case, ``_`` for ``-`` and the aliases do not matter."""
    key = name.strip().lower().replace("_", "-")
    return ALIASES.get(key, key)


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
    """Read ``name`` or ``name:key=value:key=value`` (as ``unotable simulate --bots`` takes it).

    >>> parse_bot_spec("ismcts:iterations=200:c=0.5")
    ('ismcts', {'iterations': 200, 'c': 0.5})
    """
    name, *parts = spec.strip().split(":")
    options: dict[str, object] = {}
    for part in parts:
        if "=" not in part:
            raise BotSpecError(f"bot option {part!r} in {spec!r} is not key=value")
        key, value = part.split("=", 1)
        options[key.strip().replace("-", "_")] = _value(value.strip())
    return canonical(name), options


def _check_options(key: str, factory: Callable[..., Bot], options: dict[str, Any]) -> None:
    """Reject options the factory does not take, and values of another type than its defaults."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    known = {n: p for n, p in params.items() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}
    for name, value in options.items():
        if name not in known:
            listed = ", ".join(known) or "none"
            raise BotSpecError(f"bot {key!r} has no option {name!r}; its options: {listed}")
        default = known[name].default
        if default is inspect.Parameter.empty or default is None:
            continue
        want = type(default)
        widened = want is float and isinstance(value, int) and not isinstance(value, bool)
        ok = isinstance(value, want) or widened
        if isinstance(value, bool) and want is not bool:
            ok = False
        if not ok:
            raise BotSpecError(f"bot {key!r}: option {name}={value!r} must be {want.__name__}, "
                               f"like its default {default!r}")


def make_bot(name: str, **options: Any) -> Bot:
    """A new bot by registry name (``random``, ``rule-v1``, ``heuristic``, ``ismcts``) or spec.

    ``name`` may carry options as in :func:`parse_bot_spec`; keyword options override them.
    """
    key, spec_options = parse_bot_spec(name)
    factory = _REGISTRY.get(key)
    if factory is None:
        raise BotSpecError(f"unknown bot {name!r}; known bots: {', '.join(_REGISTRY)}")
    merged = {**spec_options, **options}
    _check_options(key, factory, merged)
    try:
        return factory(**merged)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bot {key!r}: {exc}") from None
