"""A table's settings (rule set, seats, bot level, timings) and the document a new table starts from.

>>> TableSettings(seats=2).ruleset().target_score
500
>>> sorted(new_table_doc(TableSettings(seats=2), "host-token", {1: "random"}))
['bots', 'host_hash', 'settings']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unotable.errors import UnoError
from unotable.rules import PRESET_NAMES, Ruleset
from unotable.server.ids import token_hash
from unotable.server.protocol import ErrorCode, ProtocolError
from unotable.server.table.offer import current as offered

__all__ = ["ONLINE_OPTIONS", "TIMING_LIMITS", "TableSettings", "new_table_doc"]

ONLINE_OPTIONS: dict[str, Any] = {"uno_grace": True}
"""The rule options an online table has unless its host sets them otherwise (over the preset's):
a seat handed one card has time to call UNO (UNO-GRACE-1, docs/rules.md)."""

TIMING_LIMITS = {"turn_seconds": 600.0, "bot_pause": 3600.0, "round_pause": 86400.0, "read_limit": 3600.0,
                 "catch_reaction": 60.0}
"""The most seconds a table's timings may be (the turn timer's is the protocol's; 0: none)."""


@dataclass(slots=True)
class TableSettings:
    """A table's settings: the rule set (a preset and options), seats, bots and timings."""

    preset: str = "official"
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 4
    bot_level: str = "heuristic"
    turn_seconds: float = 0.0
    """0: no turn timer."""
    bot_pause: float = 0.8
    round_pause: float = 8.0
    grace: float = 30.0
    catch_reaction: float = 2.5
    """Seconds a bot waits, after the last change, before it catches a seat that did not call UNO
    (a person's reaction time; the page shows it with the rules)."""
    read_limit: float = 60.0
    """After a round: the most seconds the countdown (``round_pause``) waits while someone who is
    not ready reads the summary."""

    def ruleset(self) -> Ruleset:
        return Ruleset.preset(self.preset).replace(**{**ONLINE_OPTIONS, **self.options})

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "options": dict(self.options),
            "seats": self.seats,
            "bot_level": self.bot_level,
            "turn_seconds": self.turn_seconds,
            "bot_pause": self.bot_pause,
            "round_pause": self.round_pause,
            "grace": self.grace,
            "catch_reaction": self.catch_reaction,
            "read_limit": self.read_limit,
        }

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> TableSettings:
        return cls(**doc)

    def check(self) -> None:
        """Raise :class:`ProtocolError` (``invalid``) for settings that make no table."""
        if self.preset not in PRESET_NAMES:
            raise ProtocolError(
                ErrorCode.INVALID, f"unknown preset {self.preset!r}; presets: {', '.join(PRESET_NAMES)}"
            )
        if offered().key(self.bot_level) is None:  # the bots the operator offers (offer.py)
            raise ProtocolError(ErrorCode.INVALID, offered().refusal(self.bot_level))
        for name, most in TIMING_LIMITS.items():  # a create body is JSON: any type, NaN too
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= most:
                raise ProtocolError(
                    ErrorCode.INVALID, f"{name} is a number of seconds from 0 to {most:g}, not {value!r}"
                )
        if isinstance(self.seats, bool):
            raise ProtocolError(ErrorCode.INVALID, "seats is a number of seats")
        try:
            self.ruleset().validate_seats(self.seats)
        except UnoError as exc:
            raise ProtocolError(ErrorCode.INVALID, str(exc)) from None


def new_table_doc(
    settings: TableSettings, host_token: str, bots: dict[int, str] | None = None
) -> dict[str, Any]:
    """The document a table starts from: its settings, the hash of its host token, and the bots
    seated from the start (seat -> level)."""
    settings.check()
    seated: dict[str, str] = {}
    for seat, level in (bots or {}).items():
        key = offered().key(level)
        if key is None or not 0 <= seat < settings.seats:
            raise ProtocolError(
                ErrorCode.INVALID, f"no bot {level!r} for seat {seat}; levels: {', '.join(offered().names())}"
            )
        seated[str(seat)] = key
    return {"settings": settings.to_dict(), "host_hash": token_hash(host_token), "bots": seated}
