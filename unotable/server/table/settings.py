"""A table's settings (rule set, seats, bot level, timings) and the document a new table starts from.

>>> TableSettings(seats=2).ruleset().target_score
500
>>> sorted(new_table_doc(TableSettings(seats=2), "host-token", {1: "random"}))
['bots', 'host_hash', 'settings']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unotable.bots.registry import BOT_NAMES, canonical
from unotable.errors import UnoError
from unotable.rules import PRESET_NAMES, Ruleset
from unotable.server.ids import token_hash
from unotable.server.protocol import ErrorCode, ProtocolError

__all__ = ["TIMING_LIMITS", "TableSettings", "new_table_doc"]

TIMING_LIMITS = {"turn_seconds": 600.0, "bot_pause": 3600.0, "round_pause": 86400.0, "read_limit": 3600.0}
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
    read_limit: float = 60.0
    """After a round: the most seconds the countdown (``round_pause``) waits while someone who is
    not ready reads the summary."""

    def ruleset(self) -> Ruleset:
        rules = Ruleset.preset(self.preset)
        return rules.replace(**self.options) if self.options else rules

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
        if not isinstance(self.bot_level, str) or canonical(self.bot_level) not in BOT_NAMES:
            raise ProtocolError(
                ErrorCode.INVALID, f"unknown bot level {self.bot_level!r}; levels: {', '.join(BOT_NAMES)}"
            )
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
        key = canonical(level)
        if key not in BOT_NAMES or not 0 <= seat < settings.seats:
            raise ProtocolError(
                ErrorCode.INVALID, f"no bot {level!r} for seat {seat}; levels: {', '.join(BOT_NAMES)}"
            )
        seated[str(seat)] = key
    return {"settings": settings.to_dict(), "host_hash": token_hash(host_token), "bots": seated}
