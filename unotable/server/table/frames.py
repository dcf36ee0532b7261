"""What a table shows each connection: the public table, each seat's view and events, as dicts and text.

The view of a seat is the engine's (:meth:`~unotable.game.Game.view_parts`): its public part is
made and encoded once per game state, for every connection; each seat's own part (its hand, its
drawn card, its legal actions) is added to it. An event is made into a dict and into JSON text once,
whoever it is sent to (``Event.to_dict`` knows no viewer); which events a seat may see is the
engine's word (``Game.events_since``). The outbox (:mod:`unotable.server.outbox`) puts these
pieces into frames.
"""

from __future__ import annotations

from typing import Any

from unotable.server.protocol import (
    DealProof,
    PublicTable,
    RematchInfo,
    SeatAsk,
    SeatKind,
    TableStatus,
    to_json,
)
from unotable.server.table.seats import Role
from unotable.server.table.timers import Timers
from unotable.verify import RECIPE
from unotable.views import ViewParts

__all__ = ["HISTORY_KEPT", "Frames"]

HISTORY_KEPT = 200
"""The events of the current round a welcome holds at most."""


class Frames(Timers):
    def info(self, now: float) -> PublicTable:
        """The public table (no token, no hidden card; the seed commitment, and once the match is
        over its seed and salt)."""
        extra: dict[str, Any] = {}
        if self.proof is not None:
            commit, seed, salt = self.proof
            shown: dict[str, Any] = {"recipe": RECIPE, "commitment": commit}
            if self.status is TableStatus.MATCH_OVER:  # no seed field at all before (a frame omits it)
                shown.update(seed=seed, salt=salt)
            extra["deal"] = DealProof.model_construct(**shown)
        if self.status is TableStatus.ROUND_OVER:
            extra["reading"] = self.readers()
        if self.asks:
            asks = sorted(self.asks.items())
            extra["asks"] = [SeatAsk.model_construct(ask=n, name=who) for n, (who, _) in asks]
        if self.rematch is not None:
            bots = {i for i, s in enumerate(self.seats) if s.kind is SeatKind.BOT}
            extra["rematch"] = RematchInfo.model_construct(accepted=sorted(self.rematch | bots))
        return PublicTable.model_construct(
            table=self.table_id,
            status=self.status,
            settings=self.settings.to_dict(),
            seats=[s.info(i) for i, s in enumerate(self.seats)],
            spectators=self.spectators,
            turn_deadline=self.deadline(now),
            next_round_in=self.countdown(now) if self.status is TableStatus.ROUND_OVER else None,
            ready=sorted(self.ready),
            **extra,
        )

    def public(self) -> tuple[Any, ...]:
        """The status and every seat as :meth:`info` shows them, as a cheap value to compare."""
        return (self.status, tuple(s.public() for s in self.seats))

    def static(self) -> dict[str, Any] | None:
        return None if self.game is None else self.table_info(self.game).to_dict()

    def _view_parts(self) -> ViewParts | None:
        """The engine's views of the game now, made once per game state (with the public part's text)."""
        game = self.game
        if game is None:
            return None
        key = (self.games, game.last_seq, game.action_count)
        if self.parts_key != key or self.parts is None:
            self.parts = game.view_parts()
            self.public_text = to_json(self.parts.public)
            self.parts_key = key
        return self.parts

    def view_for(self, role: Role) -> dict[str, Any] | None:
        """The engine's view of ``role``'s seat (the spectator's for None) as a JSON-ready dict,
        ``Game.view(seat).to_dict()`` (``Game.spectator_view().to_dict()``), None before a game."""
        parts = self._view_parts()
        if parts is None:
            return None
        out = dict(parts.public)
        if role.seat is not None:
            out.update(parts.own(role.seat))
        return out

    def view_text_for(self, role: Role) -> str:
        """:meth:`view_for` as JSON text (``null`` before the first game): the public part is
        encoded once per game state, and only the seat's own part once per seat."""
        parts = self._view_parts()
        if parts is None:
            return "null"
        if role.seat is None:
            return self.public_text
        # (the seat's keys are not among the public part's: appended, as view_for has them)
        return f"{self.public_text[:-1]},{to_json(parts.own(role.seat))[1:]}"

    def round_history(self, role: Role) -> list[dict[str, Any]]:
        """The current round's events that ``role`` may see, from its ``round_started`` on (the
        whole match's when a round was not started yet); the last HISTORY_KEPT of them."""
        events = self.events_for(role, 0)
        start = 0
        for i in range(len(events) - 1, -1, -1):
            if events[i].get("type") == "round_started":
                start = i
                break
        return events[start:][-HISTORY_KEPT:]

    def events_for(self, role: Role, since: int) -> list[dict[str, Any]]:
        """The game's events after ``since`` that ``role``'s seat may see, as dicts (each event's
        dict is made once, whoever it is sent to)."""
        game = self.game
        if game is None:
            return []
        cache = self._event_cache()
        out = []
        for e in game.events_since(since, role.seat):
            doc = cache.get(e.seq)
            if doc is None:
                doc = cache[e.seq] = e.to_dict()
            out.append(doc)
        return out

    def events_text_for(self, role: Role, since: int) -> str:
        """:meth:`events_for` as a JSON array (each event encoded once, whoever it is sent to)."""
        game = self.game
        if game is None:
            return "[]"
        dicts, texts = self._event_cache(), self.event_texts
        out = []
        for e in game.events_since(since, role.seat):
            text = texts.get(e.seq)
            if text is None:
                doc = dicts.get(e.seq)
                if doc is None:
                    doc = dicts[e.seq] = e.to_dict()
                text = texts[e.seq] = to_json(doc)
            out.append(text)
        return f"[{','.join(out)}]"

    def _event_cache(self) -> dict[int, dict[str, Any]]:
        if self.event_game != self.games:
            self.event_game, self.event_dicts, self.event_texts = self.games, {}, {}
        return self.event_dicts
