"""Game records: the ruleset, the seats, the seed and the actions, in JSON; and replay.

A record is the source of truth for a finished or unfinished game (ARCHITECTURE principle 6):
replaying its actions from its seed rebuilds the game exactly, event for event.

>>> from unotable.game import Game
>>> g = Game.new(seats=2, seed=9)
>>> _ = g.play(g.legal_actions[0])
>>> rec = Record.from_game(g)
>>> rec.to_dict()["actions"][0][0] == g.actions[0][0]
True
>>> replay(rec).events == g.events
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from unotable.actions import Action, parse_action
from unotable.errors import RecordError, UnoError
from unotable.rules import Ruleset
from unotable.state import Phase

if TYPE_CHECKING:
    from unotable.game import Game

__all__ = ["Record", "replay"]

FORMAT = "unotable-record"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Record:
    """A game record: replaying ``actions`` from ``seed`` under ``ruleset`` rebuilds the game."""

    ruleset: Ruleset
    seats: int
    seed: int
    actions: tuple[tuple[int, Action], ...]
    rounds: int = 0
    """The rounds dealt when the record was taken (0: as many as the actions need)."""

    @classmethod
    def from_game(cls, game: Game) -> Record:
        st = game.state
        return cls(st.rules, st.n, st.seed, tuple(game.actions), st.round_no)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset.to_dict(),
            "seats": self.seats,
            "seed": self.seed,
            "actions": [[seat, str(action)] for seat, action in self.actions],
            "rounds": self.rounds,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, doc: Any) -> Record:
        if not isinstance(doc, dict):
            raise RecordError(f"a record is a JSON object, not {type(doc).__name__}")
        if doc.get("format") != FORMAT or doc.get("version") != VERSION:
            raise RecordError(f"not a {FORMAT} version {VERSION} document")
        try:
            rules = Ruleset.from_dict(doc["ruleset"])
            seats = doc["seats"]
            seed = doc["seed"]
            raw = doc["actions"]
        except KeyError as exc:
            raise RecordError(f"record: missing field {exc}") from None
        except UnoError as exc:
            raise RecordError(f"record: ruleset: {exc}") from None
        rounds = doc.get("rounds", 0)
        ints = (seats, seed, rounds)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in ints) or not isinstance(raw, list):
            raise RecordError("record: seats, seed and rounds are ints and actions a list")
        actions: list[tuple[int, Action]] = []
        for i, item in enumerate(raw):
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int):
                raise RecordError(f"record: action {i} must be [seat, notation], not {item!r}")
            try:
                actions.append((item[0], parse_action(item[1])))
            except UnoError as exc:
                raise RecordError(f"record: action {i}: {exc}") from None
        return cls(rules, seats, seed, tuple(actions), rounds)

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"record: not JSON: {exc}") from None


def replay(record: Record, *, events: bool = True) -> Game:
    """Rebuild the game of ``record``, checking every action; rounds are dealt as they end."""
    from unotable.game import Game

    try:
        game = Game.new(record.seats, record.ruleset, record.seed, events=events)
    except UnoError as exc:
        raise RecordError(f"record: {exc}") from None
    for i, (seat, action) in enumerate(record.actions):
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        try:
            game.play(action, seat)
        except UnoError as exc:
            raise RecordError(f"record: action {i} ({seat}, {action}) does not replay: {exc}") from None
    while game.round_no < record.rounds and game.phase is Phase.ROUND_OVER:
        game.next_round()
    return game
