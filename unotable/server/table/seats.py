"""Who is at a table: a connection's :class:`Role`, and each :class:`Seat` (a player, a bot, empty).

>>> Seat(SeatKind.BOT, "Bot 1", "random").info(1).connected
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unotable.server.protocol import SeatInfo, SeatKind

__all__ = ["Role", "Seat"]


@dataclass(frozen=True, slots=True)
class Role:
    """Who a connection is: a seat (or None for a spectator), and whether it holds the host token."""

    seat: int | None = None
    host: bool = False


@dataclass(slots=True)
class Seat:
    """One seat: who holds it (the hash of a player's token), and whether a bot plays it now."""

    kind: SeatKind = SeatKind.EMPTY
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    autopilot: bool = False
    timeouts: int = 0
    connections: int = 0
    away_since: float | None = None

    def info(self, seat: int) -> SeatInfo:
        return SeatInfo.model_construct(
            seat=seat,
            kind=self.kind,
            name=self.name,
            level=self.level,
            connected=self.kind is SeatKind.BOT or self.connections > 0,
            autopilot=self.autopilot,
        )

    def public(self) -> tuple[Any, ...]:
        """What :meth:`info` shows, as a cheap value to compare (a change is told to everyone)."""
        return (self.kind, self.name, self.level, self.kind is SeatKind.BOT or self.connections > 0,
                self.autopilot)
