"""Game records: a header and the action log, in JSON; and replay.

A record is the source of truth for a finished or unfinished game (ARCHITECTURE principle 6): its
header says how the game started and under which rules, and its actions, applied in order, rebuild
the game exactly, event for event. It is append-only: dealing the next round is an entry of the
action log like any action (``[null, "deal"]``), so a server can persist a table as the header plus
one row per accepted action, and rebuild it from them (:meth:`Record.header`,
:meth:`Record.from_parts`).

The header holds the record format (``unotable-record`` version 2), the engine's version and its
rules version (:mod:`unotable.version`), the ruleset, the seat count, the names when they are
known, and the start: ``{"seed": N}`` for a game dealt from a seed, or ``{"position": {...}}`` for
a game started from an exact position (:mod:`unotable.position`). A finished record may carry the
``digest`` of its final position; a record made under another rules version replays only when it
reaches that same position, and is refused otherwise (:class:`RecordError`). Version 1 records
(seed only, deals implied) are read and upgraded.

>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=9)
>>> _ = g.play(g.legal_actions[0])
>>> rec = Record.from_game(g)
>>> rec.start, rec.to_dict()["actions"][0][0] == g.actions[0][0]
({'seed': 9}, True)
>>> replay(rec).events == g.events
True
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from unotable.actions import Action, Deal, parse_action
from unotable.errors import RecordError, UnoError
from unotable.game import Game
from unotable.phase import Phase
from unotable.rules import Ruleset
from unotable.version import RULES_VERSION, __version__

__all__ = ["FORMAT", "VERSION", "Record", "position_digest", "replay"]

FORMAT = "unotable-record"
VERSION = 2
"""The record format's version (1: seed only, deals implied by the actions)."""


def position_digest(position: Mapping[str, Any]) -> str:
    """A digest of an exact position (its canonical JSON), to check that a replay reaches it."""
    text = json.dumps(position, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Record:
    """A game record: its start, its rules and its actions; replaying them rebuilds the game."""

    ruleset: Ruleset
    seats: int
    seed: int | None
    """The seed the game was dealt from, or None when it started from ``position``."""
    actions: tuple[tuple[int | None, Action], ...]
    position: dict[str, Any] | None = None
    """The exact position the game started from, when it did not start from a seed."""
    names: tuple[str, ...] | None = None
    engine: str = __version__
    rules_version: int = RULES_VERSION
    digest: str | None = None
    """The digest of the final position when the record was taken (:func:`position_digest`)."""

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.position is None):
            raise RecordError("record: the start is a seed or a position, exactly one of them")

    @property
    def start(self) -> dict[str, Any]:
        """``{"seed": N}`` or ``{"position": {...}}``: how the game started."""
        return {"seed": self.seed} if self.position is None else {"position": self.position}

    @classmethod
    def from_game(cls, game: Game, names: Sequence[str] | None = None) -> Record:
        """The record of ``game`` so far, with the digest of its current position."""
        start = game.start_position
        return cls(
            ruleset=game.ruleset,
            seats=game.seats,
            seed=game.seed if start is None else None,
            actions=tuple(game.actions),
            position=start,
            names=None if names is None else tuple(names),
            digest=position_digest(game.to_position()),
        )

    def header(self) -> dict[str, Any]:
        """Everything but the actions and the digest: what a store writes once per game."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "engine": self.engine,
            "rules_version": self.rules_version,
            "ruleset": self.ruleset.to_dict(),
            "seats": self.seats,
            "start": self.start,
        }
        if self.names is not None:
            doc["names"] = list(self.names)
        return doc

    def to_dict(self) -> dict[str, Any]:
        doc = self.header()
        doc["actions"] = [[seat, str(action)] for seat, action in self.actions]
        if self.digest is not None:
            doc["digest"] = self.digest
        return doc

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_parts(
        cls, header: Mapping[str, Any], rows: Sequence[Sequence[Any]], digest: str | None = None
    ) -> Record:
        """A record from a stored header and its action rows (``[seat or None, notation]``)."""
        return cls.from_dict({**header, "actions": [list(r) for r in rows], "digest": digest})

    @classmethod
    def from_dict(cls, doc: Any) -> Record:
        if not isinstance(doc, Mapping):
            raise RecordError(f"a record is a JSON object, not {type(doc).__name__}")
        if doc.get("format") != FORMAT or doc.get("version") not in (1, VERSION):
            raise RecordError(f"not a {FORMAT} document of version 1 or {VERSION}")
        if doc["version"] == 1:
            return _upgrade(doc)
        try:
            rules = Ruleset.from_dict(doc["ruleset"])
            seats = doc["seats"]
            start = doc["start"]
            raw = doc["actions"]
        except KeyError as exc:
            raise RecordError(f"record: missing field {exc}") from None
        except UnoError as exc:
            raise RecordError(f"record: ruleset: {exc}") from None
        if not _is_int(seats) or not isinstance(raw, list):
            raise RecordError("record: seats is an int and actions a list")
        if not isinstance(start, Mapping) or len(start) != 1 or not ({"seed", "position"} & set(start)):
            raise RecordError('record: start is {"seed": N} or {"position": {...}}')
        seed = start.get("seed")
        position = start.get("position")
        if seed is not None and (not _is_int(seed) or seed < 0):
            raise RecordError(f"record: the seed is an int >= 0, not {seed!r}")
        if position is not None and not isinstance(position, Mapping):
            raise RecordError("record: the start position is a JSON object")
        names = doc.get("names")
        if names is not None and (not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
            raise RecordError("record: names is a list of strings")
        engine = doc.get("engine", "")
        rules_version: Any = doc.get("rules_version")
        digest = doc.get("digest")
        if not isinstance(engine, str) or not _is_int(rules_version):
            raise RecordError("record: engine is a string and rules_version an int")
        if digest is not None and not isinstance(digest, str):
            raise RecordError("record: digest is a string")
        return cls(
            ruleset=rules,
            seats=seats,
            seed=seed,
            actions=_actions(raw),
            position=None if position is None else dict(position),
            names=None if names is None else tuple(names),
            engine=engine,
            rules_version=rules_version,
            digest=digest,
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"record: not JSON: {exc}") from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _actions(raw: list[Any]) -> tuple[tuple[int | None, Action], ...]:
    actions: list[tuple[int | None, Action]] = []
    for i, item in enumerate(raw):
        if not (isinstance(item, list) and len(item) == 2 and (item[0] is None or _is_int(item[0]))):
            raise RecordError(
                f"record: action {i} must be [seat, notation] (seat null for a deal), not {item!r}"
            )
        try:
            action = parse_action(item[1])
        except UnoError as exc:
            raise RecordError(f"record: action {i}: {exc}") from None
        if (item[0] is None) != isinstance(action, Deal):
            raise RecordError(f"record: action {i}: a deal has the seat null, and only a deal")
        actions.append((item[0], action))
    return tuple(actions)


def _upgrade(doc: Mapping[str, Any]) -> Record:
    """A version 1 record (seed only, deals implied before an action and up to ``rounds``) as version 2."""
    try:
        rules = Ruleset.from_dict(doc["ruleset"])
        seats, seed, raw = doc["seats"], doc["seed"], doc["actions"]
    except KeyError as exc:
        raise RecordError(f"record: missing field {exc}") from None
    except UnoError as exc:
        raise RecordError(f"record: ruleset: {exc}") from None
    rounds = doc.get("rounds", 0)
    if not all(_is_int(v) for v in (seats, seed, rounds)) or not isinstance(raw, list):
        raise RecordError("record: seats, seed and rounds are ints and actions a list")
    try:
        game = Game.new(seats, rules, seed, events=False)
    except UnoError as exc:
        raise RecordError(f"record: {exc}") from None
    for i, (seat, action) in enumerate(_actions(raw)):
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        try:
            game.play(action, seat)
        except UnoError as exc:
            raise RecordError(f"record: action {i} ({seat}, {action}) does not replay: {exc}") from None
    while game.round_no < rounds and game.phase is Phase.ROUND_OVER:
        game.next_round()
    return Record(rules, seats, seed, tuple(game.actions), engine=str(doc.get("engine", "0.1.0")),
                  rules_version=1)


def replay(record: Record, *, events: bool = True) -> Game:
    """Rebuild the game of ``record``, checking every action.

    A record of another rules version replays only when it carries a digest and reaches that same
    final position; otherwise :class:`RecordError` says why.
    """
    try:
        if record.position is not None:
            game = Game.from_position(record.position, events=events)
        else:
            assert record.seed is not None
            game = Game.new(record.seats, record.ruleset, record.seed, events=events)
    except UnoError as exc:
        raise RecordError(f"record: the start does not load: {exc}") from None
    if game.seats != record.seats or game.ruleset != record.ruleset:
        raise RecordError("record: the start position's seats or ruleset differ from the header's")
    other = record.rules_version != RULES_VERSION
    if other and record.digest is None:
        raise RecordError(
            f"record: made under rules version {record.rules_version} (engine {record.engine}); this is "
            f"rules version {RULES_VERSION} (engine {__version__}), and the record has no digest to "
            "check that it replays the same"
        )
    for i, (seat, action) in enumerate(record.actions):
        try:
            game.play(action, seat)
        except UnoError as exc:
            why = f"record: action {i} ({seat}, {action}) does not replay: {exc}"
            if other:
                why += f" (made under rules version {record.rules_version}, this is {RULES_VERSION})"
            raise RecordError(why) from None
    if other and position_digest(game.to_position()) != record.digest:
        raise RecordError(
            f"record: made under rules version {record.rules_version} (engine {record.engine}); it replays "
            f"to a different position under rules version {RULES_VERSION} (engine {__version__})"
        )
    return game
