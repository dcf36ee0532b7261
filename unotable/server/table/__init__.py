"""The table actor: one online table's state, its commands, its timers and its bots, a file per concern.

The actor knows nothing of sockets or SQL. The hub (:mod:`unotable.server.hub`) gives it client
messages (``decide``) and timer firings (``due``); each accepted command becomes a *log entry*
(:mod:`unotable.server.entries`: a frozen value holding everything needed to apply it again;
tokens are hashed first, seeds drawn first). The hub persists the entry, then applies it
(``apply``) and the outbox (:mod:`unotable.server.outbox`) sends every connection its own update
from ``view_text_for`` and ``events_text_for``. Rebuilding a table after a crash is replaying its
entries through ``apply``, so a table ends up exactly where it was.

The lifecycle: ``waiting`` (players sit down, the host adds and removes bots, changes the
settings, removes a player, starts with at least two seats filled) -> ``playing`` -> ``round_over``
(the next round is dealt when the host says so, or after a pause) -> ``match_over`` (a rematch
keeps the seats).

Where to look, as lila splits its round actor:

- ``seats.py``, ``settings.py``: who sits where (:class:`Role`, :class:`Seat`) and the table's
  settings (:class:`TableSettings`, :func:`new_table_doc`);
- ``core.py``: everything a table holds, in one place, and a :class:`Decision`;
- ``decide.py``: a client's message becomes an entry; its verbs in ``sit.py`` (sit, rename),
  ``act.py`` (play) and ``host.py`` (start, deal, rematch, kick, bots, settings);
- ``actor.py``: :class:`TableActor`, the one place the table changes (apply, replay, connections);
- ``frames.py``: what each connection is shown (the public table, the seat's view, its events);
- ``timers.py``: what is due and when (turn timer, round pause, autopilot); ``bots.py``: the bots;
- ``records.py``: the finished matches' records with their seed proofs.

>>> actor = TableActor("t" * 16, new_table_doc(TableSettings(seats=2), "host-token", {1: "random"}))
>>> actor.status.value, [s.kind.value for s in actor.seats]
('waiting', ['empty', 'bot'])
"""

from unotable.server.table.actor import TableActor
from unotable.server.table.core import CHAT_KEPT, Decision
from unotable.server.table.frames import HISTORY_KEPT
from unotable.server.table.seats import Role, Seat
from unotable.server.table.settings import TIMING_LIMITS, TableSettings, new_table_doc

__all__ = ["CHAT_KEPT", "HISTORY_KEPT", "TIMING_LIMITS", "Decision", "Role", "Seat", "TableActor",
           "TableSettings", "new_table_doc"]
