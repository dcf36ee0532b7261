"""A table's log entries: one frozen value per kind of accepted command, stored as a small JSON dict.

An entry holds everything needed to apply the command again (a token already hashed, a seed
already drawn), so rebuilding a table is applying its entries in order. ``to_dict`` writes the
stored form, keyed ``"k"`` (the rows of every version of the store read back unchanged: the form
has not changed since the first migration); :func:`entry_from_dict` reads it back, refusing what
is not an entry (:class:`ValueError`).

>>> entry = Acted(seat=2, action="R7", by=ActedBy.PLAYER)
>>> entry.to_dict()
{'k': 'act', 'seat': 2, 'a': 'R7', 'by': 'player'}
>>> entry_from_dict(entry.to_dict()) == entry
True
>>> entry_from_dict({"k": "deal"})
Dealt()
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias

__all__ = [
    "Acted",
    "ActedBy",
    "AutopilotSet",
    "BotAdded",
    "BotRemoved",
    "Chatted",
    "Dealt",
    "Entry",
    "Left",
    "Reacted",
    "ReadingSet",
    "ReadySet",
    "RematchAccepted",
    "RematchProposed",
    "Rematched",
    "SeatAnswered",
    "SeatAsked",
    "Renamed",
    "Seated",
    "SettingsChanged",
    "Started",
    "entry_from_dict",
]


class ActedBy(StrEnum):
    """Who made a logged action: the seat's player, its turn timer, or a bot."""

    PLAYER = "player"
    TIMEOUT = "timeout"
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class Seated:
    """A person sat down (the token's hash: the token itself is never stored)."""

    kind: ClassVar[str] = "sit"
    seat: int
    name: str
    token_hash: str

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "name": self.name, "token_hash": self.token_hash}


@dataclass(frozen=True, slots=True)
class BotAdded:
    kind: ClassVar[str] = "add_bot"
    seat: int
    level: str

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "level": self.level}


@dataclass(frozen=True, slots=True)
class BotRemoved:
    kind: ClassVar[str] = "remove_bot"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Left:
    """A player left or was removed (waiting room: the seat is freed; in play a bot takes it)."""

    kind: ClassVar[str] = "leave"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Renamed:
    """A seated player changed their name in the waiting room."""

    kind: ClassVar[str] = "rename"
    seat: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "name": self.name}


@dataclass(frozen=True, slots=True)
class ReadySet:
    """A player is done reading the round's summary."""

    kind: ClassVar[str] = "ready"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class ReadingSet:
    """A player's page shows the round's summary (``on``) or stopped showing it: while a player
    who is not ready reads, the countdown to the next deal waits (up to the table's ``read_limit``)."""

    kind: ClassVar[str] = "reading"
    seat: int
    on: bool

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "on": self.on}


@dataclass(frozen=True, slots=True)
class SeatAsked:
    """Someone watching a full waiting room asks the host for a seat, under ``name``; the hash of
    the key they chose becomes their seat's token hash if the host adds the seat."""

    kind: ClassVar[str] = "ask_seat"
    name: str
    token_hash: str

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "name": self.name, "token_hash": self.token_hash}


@dataclass(frozen=True, slots=True)
class SeatAnswered:
    """The host answered request ``ask`` (numbered from 1 in the table's order): ``accept`` adds a
    seat and seats its asker."""

    kind: ClassVar[str] = "answer_seat"
    ask: int
    accept: bool

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "ask": self.ask, "accept": self.accept}


@dataclass(frozen=True, slots=True)
class RematchProposed:
    """The host proposed a rematch after a finished match (``seat``: the host's own seat, which
    accepts with the proposal; None for a host who holds no seat)."""

    kind: ClassVar[str] = "propose_rematch"
    seat: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class RematchAccepted:
    """A player accepted the rematch proposed (as the settings stand now)."""

    kind: ClassVar[str] = "accept_rematch"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Reacted:
    """A quick reaction (seat None: the host or a spectator, under ``name``)."""

    kind: ClassVar[str] = "react"
    seat: int | None
    name: str
    reaction: str

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "name": self.name, "r": self.reaction}


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """The host changed the settings: the whole new settings document."""

    kind: ClassVar[str] = "settings"
    settings: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "settings": dict(self.settings)}


@dataclass(frozen=True, slots=True)
class Chatted:
    """A chat line as stored (the table's name of the seat, or ``host``)."""

    kind: ClassVar[str] = "chat"
    seat: int | None
    name: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "name": self.name, "text": self.text}


@dataclass(frozen=True, slots=True)
class Started:
    """The first match dealt, from ``seed``; ``salt`` makes the seed's published commitment
    (:mod:`unotable.verify`; empty in the entries of older servers). Both are secret until the
    match is over."""

    kind: ClassVar[str] = "start"
    seed: int
    salt: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _seeded(self.kind, self.seed, self.salt)


@dataclass(frozen=True, slots=True)
class Rematched:
    """A new match with the same seats, from a new ``seed`` and ``salt`` (as :class:`Started`)."""

    kind: ClassVar[str] = "rematch"
    seed: int
    salt: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _seeded(self.kind, self.seed, self.salt)


def _seeded(kind: str, seed: int, salt: str) -> dict[str, Any]:
    return {"k": kind, "seed": seed, "salt": salt} if salt else {"k": kind, "seed": seed}


@dataclass(frozen=True, slots=True)
class Dealt:
    """The next round dealt."""

    kind: ClassVar[str] = "deal"

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind}


@dataclass(frozen=True, slots=True)
class Acted:
    """An action of the game in its notation, made by ``seat``'s player, timer or bot."""

    kind: ClassVar[str] = "act"
    seat: int
    action: str
    by: ActedBy = ActedBy.PLAYER

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "a": self.action, "by": self.by.value}


@dataclass(frozen=True, slots=True)
class AutopilotSet:
    """A bot starts (``on``) or stops playing for a seat's player."""

    kind: ClassVar[str] = "autopilot"
    seat: int
    on: bool

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.kind, "seat": self.seat, "on": self.on}


Entry: TypeAlias = (
    Seated | BotAdded | BotRemoved | Left | SettingsChanged | Chatted | Started | Rematched | Dealt | Acted
    | AutopilotSet | Renamed | Reacted | ReadySet | ReadingSet | SeatAsked | SeatAnswered | RematchProposed
    | RematchAccepted
)
"""Any log entry."""


def _int(doc: dict[str, Any], key: str) -> int:
    value = doc[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"entry {doc!r}: {key} is an integer")
    return value


def _str(doc: dict[str, Any], key: str) -> str:
    value = doc[key]
    if not isinstance(value, str):
        raise ValueError(f"entry {doc!r}: {key} is a string")
    return value


def _bool(doc: dict[str, Any], key: str) -> bool:
    value = doc[key]
    if not isinstance(value, bool):
        raise ValueError(f"entry {doc!r}: {key} is a boolean")
    return value


def entry_from_dict(doc: dict[str, Any]) -> Entry:
    """The entry a stored dict holds (:class:`ValueError` for anything else)."""
    try:
        kind = doc["k"]
        if kind == "sit":
            return Seated(_int(doc, "seat"), _str(doc, "name"), _str(doc, "token_hash"))
        if kind == "add_bot":
            return BotAdded(_int(doc, "seat"), _str(doc, "level"))
        if kind == "remove_bot":
            return BotRemoved(_int(doc, "seat"))
        if kind == "leave":
            return Left(_int(doc, "seat"))
        if kind == "ready":
            return ReadySet(_int(doc, "seat"))
        if kind == "reading":
            return ReadingSet(_int(doc, "seat"), _bool(doc, "on"))
        if kind == "ask_seat":
            return SeatAsked(_str(doc, "name"), _str(doc, "token_hash"))
        if kind == "answer_seat":
            return SeatAnswered(_int(doc, "ask"), _bool(doc, "accept"))
        if kind == "propose_rematch":
            seat = doc["seat"]
            return RematchProposed(None if seat is None else _int(doc, "seat"))
        if kind == "accept_rematch":
            return RematchAccepted(_int(doc, "seat"))
        if kind == "rename":
            return Renamed(_int(doc, "seat"), _str(doc, "name"))
        if kind == "react":
            seat = doc["seat"]
            return Reacted(None if seat is None else _int(doc, "seat"), _str(doc, "name"), _str(doc, "r"))
        if kind == "settings":
            settings = doc["settings"]
            if not isinstance(settings, dict):
                raise ValueError(f"entry {doc!r}: settings is an object")
            return SettingsChanged(dict(settings))
        if kind == "chat":
            seat = doc["seat"]
            return Chatted(None if seat is None else _int(doc, "seat"), _str(doc, "name"), _str(doc, "text"))
        if kind in ("start", "rematch"):
            salt = doc.get("salt", "")
            if not isinstance(salt, str):
                raise ValueError(f"entry {doc!r}: salt is a string")
            return (Started if kind == "start" else Rematched)(_int(doc, "seed"), salt)
        if kind == "deal":
            return Dealt()
        if kind == "act":
            return Acted(_int(doc, "seat"), _str(doc, "a"), ActedBy(doc.get("by", "player")))
        if kind == "autopilot":
            on = doc["on"]
            if not isinstance(on, bool):
                raise ValueError(f"entry {doc!r}: on is a boolean")
            return AutopilotSet(_int(doc, "seat"), on)
    except KeyError as exc:
        raise ValueError(f"entry {doc!r} lacks {exc}") from None
    raise ValueError(f"unknown table entry {doc!r}")
