"""The bots a table's host may seat: the ones the server's operator made available, and no other.

By default the four levels of the bot registry (:data:`unotable.bots.registry.BOT_NAMES`, weakest
first). The operator adds more when starting the server (``unotable serve``):

- ``--bots NAME,...``: any other name of the registry (``mixbot``, ``learned``...) or of a plugin,
  a bot that an installed distribution declares under the entry-point group ``unotable.bots``;
- ``--policies DIR``: every trained policy in that directory, ``*.onnx`` (run with onnxruntime,
  :class:`unotable.env.onnx_policy.OnnxPolicyBot`) and ``*.npz`` (the NumPy MLP of
  ``examples/train_ppo.py``, :class:`unotable.env.policy_bot.PolicyBot`), each offered under its
  file name without the suffix (lower case, 16 characters at most). A file is read as data, never
  unpickled; one that does not load (not a policy, a name taken or malformed) is reported in
  :attr:`BotOffer.problems` (and the server's log) and left out; it never stops the server.

Nothing a player sends can add a bot: a level is a name from this list, and an unknown name is
refused (``invalid``) before anything changes. The offer is the process's (:func:`install`, once,
before the server starts); every check of a level and every bot made at a table goes through it.

>>> offer = build_offer()
>>> offer.names()
('random', 'rule-v1', 'heuristic', 'ismcts')
>>> offer.key("Rule"), offer.key("mixbot")
('rule-v1', None)
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from unotable.bots import Bot, make_bot
from unotable.bots.registry import BOT_NAMES, BotSpecError, canonical, registered

__all__ = ["POLICY_SUFFIXES", "BotOffer", "OfferedBot", "build_offer", "current", "install", "make_seated"]

POLICY_SUFFIXES = (".onnx", ".npz")
"""The policy files ``--policies`` reads."""
_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]{0,15}$")
"""A policy's name (its file's stem, lower case): what a level may be in the protocol."""


@dataclass(frozen=True)
class OfferedBot:
    """One bot a host may seat: its name (the level), where it comes from, and how to make one."""

    name: str
    kind: str
    """``level`` (the registry's levels, translated by the page), ``bot`` (another registry name),
    ``plugin`` (an entry point) or ``policy`` (a file of ``--policies``)."""
    factory: Callable[[], Bot] = field(repr=False, compare=False)


@dataclass
class BotOffer:
    """The bots offered, in the order a page lists them, and what could not be offered."""

    bots: list[OfferedBot]
    problems: list[str] = field(default_factory=list)

    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    def key(self, level: object) -> str | None:
        """The offered name ``level`` stands for (case, ``_`` and the registry's aliases aside), or None."""
        if not isinstance(level, str):
            return None
        names = self.names()
        for key in (level.strip().lower(), canonical(level)):
            if key in names:
                return key
        return None

    def make(self, level: str) -> Bot:
        """A new bot of an offered ``level`` (KeyError for another name: check with :meth:`key`)."""
        key = self.key(level)
        for b in self.bots:
            if b.name == key:
                return b.factory()
        raise KeyError(f"no bot {level!r} is offered here")

    def refusal(self, level: object) -> str:
        """The error text for a level that is not offered."""
        return f"unknown bot level {level!r}; levels: {', '.join(self.names())}"

    def doc(self) -> list[dict[str, str]]:
        """The offer as ``GET /api/options`` sends it: each bot's name and kind."""
        return [{"name": b.name, "kind": b.kind} for b in self.bots]


def _plugin_names() -> set[str]:
    from importlib import metadata

    return {canonical(e.name) for e in metadata.entry_points(group="unotable.bots")}


def _policy_factory(path: Path) -> Callable[[], Bot]:
    """A factory of bots playing the policy at ``path``, loaded once here (a broken file raises)."""
    if path.suffix == ".onnx":
        from unotable.env.onnx_policy import OnnxPolicyBot, load_policy

        loaded = load_policy(path)
        return partial(OnnxPolicyBot.from_loaded, loaded)
    from unotable.env.policy_bot import PolicyBot

    PolicyBot(str(path))  # checked now: the arrays are there and of the network's shapes
    return partial(PolicyBot, str(path))


def _policies(directory: Path, taken: set[str], problems: list[str]) -> list[OfferedBot]:
    if not directory.is_dir():
        raise ValueError(f"--policies {directory}: not a directory")
    found: list[OfferedBot] = []
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() not in POLICY_SUFFIXES or not path.is_file():
            continue
        name = path.stem.lower().replace("_", "-")
        if not _NAME.match(name):
            problems.append(f"{path.name}: skipped: a policy's name (its file name without the suffix) is "
                            "1 to 16 letters, digits, '.' or '-'")
            continue
        if name in taken or canonical(name) in registered() or canonical(name) in BOT_NAMES:
            problems.append(f"{path.name}: skipped: the name {name!r} is already a bot's")
            continue
        try:
            factory = _policy_factory(path)
            factory()  # one bot made: what a table will do
        except Exception as exc:  # a broken file is reported and left out, whatever it raised
            problems.append(f"{path.name}: skipped: {exc}")
            continue
        taken.add(name)
        found.append(OfferedBot(name, "policy", factory))
    return found


def build_offer(bots: Iterable[str] = (), policies: str | Path | None = None) -> BotOffer:
    """The offer of a server started with ``--bots`` (registry or plugin names) and ``--policies``.

    An unknown name in ``bots``, or one that cannot make a bot without options, raises
    ``ValueError`` (the operator's mistake, said at start); a bad policy file is a problem, skipped.
    """
    offered = [OfferedBot(name, "level", partial(make_bot, name)) for name in BOT_NAMES]
    taken = set(BOT_NAMES)
    problems: list[str] = []
    plugins: set[str] | None = None
    for raw in bots:
        name = canonical(raw)
        if not name or name in taken:
            continue
        if not _NAME.match(name):
            raise ValueError(f"--bots {raw!r}: a bot's name is 1 to 16 letters, digits, '.' or '-'")
        if name in registered():
            kind = "bot"
        else:
            plugins = _plugin_names() if plugins is None else plugins
            if name not in plugins:
                raise ValueError(f"--bots {raw!r}: no such bot in the registry ({', '.join(registered())}) "
                                 "nor among the installed plugins (entry points 'unotable.bots')")
            kind = "plugin"
        factory: Callable[[], Bot] = partial(_make_named, name)
        try:
            factory()
        except (BotSpecError, TypeError, ValueError) as exc:
            raise ValueError(f"--bots {raw!r}: it cannot be seated as it is ({exc})") from None
        taken.add(name)
        offered.append(OfferedBot(name, kind, factory))
    if policies is not None:
        offered += _policies(Path(policies), taken, problems)
    return BotOffer(offered, problems)


def _make_named(name: str) -> Bot:
    """A bot of a registry name, or of a plugin found by its entry point."""
    if name in registered():
        return make_bot(name)
    from importlib import metadata

    for entry in metadata.entry_points(group="unotable.bots"):
        if canonical(entry.name) == name:
            factory: Any = entry.load()
            bot: Bot = factory()
            return bot
    raise BotSpecError(f"bot {name!r} is declared by no installed distribution")


_OFFER = build_offer()


def make_seated(level: str) -> Bot:
    """The bot of a seat whose level is ``level``: the offered bot; a level no longer offered (a
    table of the store, after a restart without that policy) is made from the registry if it can
    be, else it is the default level's bot (``heuristic``), so that the table plays on."""
    offer = current()
    if offer.key(level) is not None:
        return offer.make(level)
    try:
        return make_bot(level)
    except BotSpecError:
        return make_bot("heuristic")


def install(offer: BotOffer) -> None:
    """Make ``offer`` the process's (``unotable serve`` does, before serving)."""
    global _OFFER
    _OFFER = offer


def current() -> BotOffer:
    """The process's offer."""
    return _OFFER
