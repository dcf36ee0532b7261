"""A table's finished matches as game records, with the seed commitment and its reveal.

The seed of a match is secret until the match is over; then its record holds it, with the
commitment every player was shown at the start and the salt (:func:`unotable.verify.with_proof`),
for ``unotable verify``.
"""

from __future__ import annotations

from typing import Any

from unotable.record import Record
from unotable.server.protocol import TableStatus
from unotable.server.table.core import TableCore
from unotable.verify import with_proof

__all__ = ["Records"]


class Records(TableCore):
    def record(self, match: int | None = None) -> Record | None:
        """A finished match's record with its seed (the seed is secret until the match is over):
        match ``n`` (1 for the table's first), or by default the latest finished one (the match
        before a rematch while the new one is played). None when there is no such finished match."""
        n = self._finished(match)
        if n is None:
            return None
        if n <= len(self.past):
            return self.past[n - 1]
        assert self.game is not None
        return Record.from_game(self.game, names=self.names())

    def _finished(self, match: int | None) -> int | None:
        """The number of finished match ``match`` (default: the latest), or None."""
        over = self.game is not None and self.status is TableStatus.MATCH_OVER
        finished = len(self.past) + (1 if over else 0)
        n = finished if match is None else match
        return n if 1 <= n <= finished else None

    def record_doc(self, match: int | None = None) -> dict[str, Any] | None:
        """:meth:`record` as a JSON-ready dict with the match's seed commitment and its reveal
        (:func:`unotable.verify.with_proof`), for ``unotable verify``."""
        rec = self.record(match)
        n = self._finished(match)
        if rec is None or n is None:
            return None
        proof = self.past_proofs[n - 1] if n <= len(self.past) else self.proof
        doc = rec.to_dict()
        return doc if proof is None else with_proof(doc, *proof)
