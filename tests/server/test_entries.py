"""The table log's typed entries: every kind writes the stored form and reads it back, and the rows
stored by earlier versions (the same dicts, keyed ``"k"``; an ``act`` row without ``by``) read."""

from __future__ import annotations

from typing import Any

import pytest

from unotable.server.entries import (
    Acted,
    ActedBy,
    AutopilotSet,
    BotAdded,
    BotRemoved,
    Chatted,
    Dealt,
    Entry,
    Left,
    ReadingSet,
    RematchAccepted,
    Rematched,
    RematchProposed,
    SeatAnswered,
    SeatAsked,
    Seated,
    SettingsChanged,
    Started,
    entry_from_dict,
)

EVERY_KIND: list[tuple[Entry, dict[str, Any]]] = [
    (Seated(1, "Ann", "ab" * 32), {"k": "sit", "seat": 1, "name": "Ann", "token_hash": "ab" * 32}),
    (BotAdded(2, "heuristic"), {"k": "add_bot", "seat": 2, "level": "heuristic"}),
    (BotRemoved(2), {"k": "remove_bot", "seat": 2}),
    (Left(0), {"k": "leave", "seat": 0}),
    (SettingsChanged({"preset": "house"}), {"k": "settings", "settings": {"preset": "house"}}),
    (Chatted(None, "host", "hi"), {"k": "chat", "seat": None, "name": "host", "text": "hi"}),
    (Started(2**62 + 1), {"k": "start", "seed": 2**62 + 1}),
    (Rematched(7), {"k": "rematch", "seed": 7}),
    (Dealt(), {"k": "deal"}),
    (Acted(3, "W4:B", ActedBy.TIMEOUT), {"k": "act", "seat": 3, "a": "W4:B", "by": "timeout"}),
    (AutopilotSet(1, True), {"k": "autopilot", "seat": 1, "on": True}),
    (ReadingSet(2, False), {"k": "reading", "seat": 2, "on": False}),
    (SeatAsked("Dara", "cd" * 32), {"k": "ask_seat", "name": "Dara", "token_hash": "cd" * 32}),
    (SeatAnswered(3, True), {"k": "answer_seat", "ask": 3, "accept": True}),
    (RematchProposed(None), {"k": "propose_rematch", "seat": None}),
    (RematchProposed(0), {"k": "propose_rematch", "seat": 0}),
    (RematchAccepted(1), {"k": "accept_rematch", "seat": 1}),
]


@pytest.mark.parametrize(("entry", "stored"), EVERY_KIND)
def test_every_entry_writes_the_stored_form_and_reads_it_back(entry: Entry, stored: dict[str, Any]) -> None:
    assert entry.to_dict() == stored
    assert entry_from_dict(stored) == entry


def test_an_act_row_without_by_is_a_players() -> None:
    assert entry_from_dict({"k": "act", "seat": 0, "a": "draw"}) == Acted(0, "draw", ActedBy.PLAYER)


@pytest.mark.parametrize(
    "row",
    [
        {"k": "dance"},
        {"seat": 1},
        {"k": "sit", "seat": "1", "name": "Ann", "token_hash": "x"},
        {"k": "leave", "seat": True},
        {"k": "act", "seat": 0},
        {"k": "act", "seat": 0, "a": "draw", "by": "ghost"},
        {"k": "autopilot", "seat": 0, "on": 1},
        {"k": "settings", "settings": []},
        {"k": "reading", "seat": 0, "on": "yes"},
        {"k": "answer_seat", "ask": 1},
        {"k": "propose_rematch", "seat": "0"},
    ],
)
def test_a_row_that_is_no_entry_is_refused(row: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        entry_from_dict(row)
