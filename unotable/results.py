"""How rounds and matches end: :class:`RoundResult`, :class:`Outcome` and :class:`MatchEndReason`.

These are values: the state keeps the last round's result, :mod:`unotable.scoring` computes them,
views and events carry them. They live below both, so that neither imports the other.

>>> r = RoundResult(1, 0, 40, (0, 25, 15), (), (), (40, 0, 0))
>>> RoundResult.from_dict(r.to_dict()) == r, r.blocked
(True, False)
>>> o = Outcome((0,), (510, 20), 7, MatchEndReason.TARGET_REACHED)
>>> Outcome.from_dict(o.to_dict()) == o
True
"""
from __future__ import annotations

import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from unotable.codec import fields_from_dict

__all__ = ["MatchEndReason", "Outcome", "RoundResult"]


class MatchEndReason(StrEnum):
    """Why a match ended (``Outcome.reason``)."""

    TARGET_REACHED = "target reached"
    """A seat or a team reached the target score (SCORE-2, SCORE-9, NM-19)."""
    LOWEST_TOTAL = "lowest total"
    """Low scoring: a seat reached the target; the lowest total wins (SCORE-3, SCORE-4)."""
    FINAL_ROUND = "final round"
    """Elimination: the final round between the last two seats was played (SCORE-6)."""
    LAST_SEAT_STANDING = "last seat standing"
    """Elimination: every other seat is out (SCORE-5)."""
    SINGLE_ROUND = "single round"
    """Scoring ``none``: the match is one round (SCORE-7)."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended: ``winner`` is None for a blocked round (CL-DRAW-8)."""

    round_no: int
    winner: int | None
    points: int
    hand_points: tuple[int, ...]
    knocked_out: tuple[int, ...]
    eliminated: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def blocked(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict[str, object]:
        return {"round_no": self.round_no, "winner": self.winner, "points": self.points,
                "hand_points": list(self.hand_points), "knocked_out": list(self.knocked_out),
                "eliminated": list(self.eliminated), "scores": list(self.scores)}

    @classmethod
    def from_dict(cls, doc: Any) -> RoundResult:
        """The result that :meth:`to_dict` wrote; :class:`RecordError` for anything else."""
        return cls(**fields_from_dict(doc, _hints(cls), "round result"))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: the winning seats (a team, or a shared win under SCORE-4) and the scores."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int
    reason: MatchEndReason

    def to_dict(self) -> dict[str, object]:
        return {"winners": list(self.winners), "scores": list(self.scores), "rounds": self.rounds,
                "reason": self.reason.value}

    @classmethod
    def from_dict(cls, doc: Any) -> Outcome:
        """The outcome that :meth:`to_dict` wrote; :class:`RecordError` for anything else."""
        return cls(**fields_from_dict(doc, _hints(cls), "outcome"))



def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
