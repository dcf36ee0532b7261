"""The table actor on its own (no sockets, no store): lifecycle, refusals, bots, timers, replay."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unotable import Record, replay
from unotable.server.entries import Acted, ActedBy, AutopilotSet, Entry
from unotable.server.ids import TABLE_ID, new_table_id, new_token
from unotable.server.protocol import (
    ErrorCode,
    ProtocolError,
    client_schema,
    full_schema,
    parse_client,
    server_schema,
    to_json,
)
from unotable.server.table import Role, TableActor, TableSettings, new_table_doc

ROOT = Path(__file__).resolve().parents[2]


def msg(**fields: Any) -> Any:
    return parse_client(json.dumps(fields))


class Harness:
    """A table with its log, applying decisions as the app's writer does (decide, log, apply)."""

    def __init__(self, settings: TableSettings, bots: dict[int, str] | None = None) -> None:
        self.host = new_token()
        self.doc = new_table_doc(settings, self.host, bots)
        self.table = TableActor(new_table_id(), self.doc)
        self.log: list[Entry] = []
        self.now = 1000.0

    def send(self, role: Role, **fields: Any) -> str | None:
        decision = self.table.decide(role, msg(**fields), self.now)
        if decision is None:
            return None
        self.log.append(decision.entry)
        self.table.apply(decision.entry, self.now)
        return decision.token

    def tick(self, seconds: float) -> bool:
        self.now += seconds
        decision = self.table.due(self.now)
        if decision is None:
            return False
        self.log.append(decision.entry)
        self.table.apply(decision.entry, self.now)
        return True

    def refused(self, role: Role, code: ErrorCode, **fields: Any) -> None:
        before = (self.table.seq, self.table.info(self.now), self.table.view_for(role))
        with pytest.raises(ProtocolError) as caught:
            self.table.decide(role, msg(**fields), self.now)
        assert caught.value.code is code
        assert (self.table.seq, self.table.info(self.now), self.table.view_for(role)) == before


HOST = Role(None, True)


@pytest.mark.rule("NET-3")
def test_ids_and_tokens_are_long_and_random() -> None:
    ids = {new_table_id() for _ in range(200)}
    assert len(ids) == 200 and all(TABLE_ID.match(i) for i in ids)
    assert len(new_token()) >= 32  # 192 bits


@pytest.mark.rule("NET-3", "NET-1")
def test_a_table_goes_from_the_waiting_room_to_a_finished_match_and_replays() -> None:
    settings = TableSettings(seats=3, options={"target_score": 60}, bot_pause=0.0, round_pause=0.0,
                             catch_reaction=0.0)
    h = Harness(settings, bots={1: "heuristic", 2: "random"})
    h.refused(Role(0), ErrorCode.FORBIDDEN, type="start")  # not the host
    token = h.send(Role(), type="sit", seat=0, name="  Ann  ")
    assert token is not None and h.table.seat_of(token) == 0 and h.table.seat_of("nope") is None
    assert h.table.names()[0] == "Ann"
    h.refused(Role(), ErrorCode.FORBIDDEN, type="sit", seat=0, name="Bo")  # taken
    h.send(HOST, type="start")
    h.table.connected(0, h.now)
    me = Role(0)
    rounds = 0
    for _ in range(5000):
        if h.table.status == "match_over":
            break
        if h.table.status == "round_over":
            rounds += 1
            h.send(HOST, type="next_round")
            continue
        view = h.table.view_for(me)
        assert view is not None
        if view["active"] == 0 and view["legal"]:
            h.send(me, type="act", action=view["legal"][0])
        else:
            assert h.tick(0.01), "the bots must act when nobody else can"
    assert h.table.status == "match_over"
    record = h.table.record()
    assert record is not None and record.names is not None and record.names[0] == "Ann"
    again = replay(Record.from_json(record.to_json()))
    assert again.scores == h.table.game.scores  # type: ignore[union-attr]
    # the log rebuilds the table exactly
    twin = TableActor(h.table.table_id, h.doc)
    twin.replay(h.log, h.now)
    assert twin.view_for(me) == h.table.view_for(me) and twin.seq == h.table.seq
    assert twin.record() is not None and twin.record().to_dict() == record.to_dict()  # type: ignore[union-attr]


def test_refusals_change_nothing() -> None:
    h = Harness(TableSettings(seats=2, bot_pause=0.0), bots={1: "random"})
    h.refused(HOST, ErrorCode.ILLEGAL, type="start")  # one seat filled
    h.send(Role(), type="sit", seat=0, name="Ann")
    h.refused(Role(0), ErrorCode.ILLEGAL, type="act", action="draw")  # no round in play yet
    h.send(HOST, type="start")
    me = Role(0)
    view = h.table.view_for(me)
    assert view is not None
    if view["active"] != 0:
        h.refused(me, ErrorCode.NOT_YOUR_TURN, type="act", action="draw")
    h.refused(me, ErrorCode.INVALID, type="act", action="R99")
    h.refused(me, ErrorCode.STALE, type="act", action="draw", seq=h.table.seq - 1)
    h.refused(Role(), ErrorCode.FORBIDDEN, type="act", action="draw")  # a spectator
    h.refused(Role(), ErrorCode.FORBIDDEN, type="chat", text="hi")
    h.refused(HOST, ErrorCode.ILLEGAL, type="add_bot", seat=0)  # not in the waiting room
    h.refused(HOST, ErrorCode.ILLEGAL, type="next_round")


def test_the_waiting_room_commands() -> None:
    h = Harness(TableSettings(seats=4))
    h.send(HOST, type="add_bot", seat=2, level="ismcts")
    assert h.table.seats[2].kind == "bot" and h.table.seats[2].level == "ismcts"
    h.refused(HOST, ErrorCode.INVALID, type="add_bot", seat=3, level="genius")
    h.refused(HOST, ErrorCode.ILLEGAL, type="remove_bot", seat=3)
    h.send(HOST, type="remove_bot", seat=2)
    h.send(Role(), type="sit", seat=3, name="Cy")
    h.refused(HOST, ErrorCode.ILLEGAL, type="settings", seats=2)  # seat 3 is taken
    h.send(HOST, type="kick", seat=3)
    assert h.table.seats[3].kind == "empty"
    h.send(HOST, type="settings", preset="no-mercy", seats=3, options={"mercy_limit": 30})
    assert h.table.settings.ruleset().mercy_limit == 30 and len(h.table.seats) == 3
    h.refused(HOST, ErrorCode.INVALID, type="settings", preset="nonsense")
    h.refused(HOST, ErrorCode.INVALID, type="settings", options={"stacking": "sometimes"})


def test_a_silent_player_times_out_twice_then_a_bot_plays_and_gives_the_seat_back() -> None:
    h = Harness(TableSettings(seats=2, turn_seconds=5.0, bot_pause=0.5), bots={1: "heuristic"})
    h.send(Role(), type="sit", seat=0, name="Ann")
    h.send(HOST, type="start")
    h.table.connected(0, h.now)
    timeouts = 0
    for _ in range(400):
        if h.table.seats[0].autopilot or h.table.status != "playing":
            break
        if h.tick(0.5) and isinstance(h.log[-1], Acted) and h.log[-1].by is ActedBy.TIMEOUT:
            timeouts += 1
            assert h.table.game is not None and h.log[-1].seat == 0
    assert h.table.seats[0].autopilot and timeouts == 2
    # on autopilot the bot plays seat 0 until Ann acts again
    for _ in range(50):
        view = h.table.view_for(Role(0))
        if view is not None and view["active"] == 0 and view["legal"] and h.table.status == "playing":
            break
        h.tick(0.5)
    back = h.table.back_from_autopilot(0)
    assert back is not None and back.entry == AutopilotSet(0, False)


def test_a_disconnected_player_is_played_by_a_bot_after_the_grace_period() -> None:
    h = Harness(TableSettings(seats=2, grace=3.0, bot_pause=0.2), bots={1: "random"})
    h.send(Role(), type="sit", seat=0, name="Ann")
    h.send(HOST, type="start")
    h.table.connected(0, h.now)
    h.table.disconnected(0, h.now)
    for _ in range(4000):
        if h.table.status != "playing":
            break
        h.tick(0.25)
    assert h.table.seats[0].autopilot
    assert AutopilotSet(0, True) in h.log
    assert h.table.status in ("round_over", "match_over")  # the round reached its end anyway


def test_a_player_leaving_in_play_is_replaced_by_a_bot() -> None:
    h = Harness(TableSettings(seats=2, bot_pause=0.0), bots={1: "random"})
    h.send(Role(), type="sit", seat=0, name="Ann")
    h.send(HOST, type="start")
    h.send(Role(0), type="leave")
    assert h.table.seats[0].kind == "bot" and h.table.seat_of("anything") is None
    for _ in range(3000):
        if h.table.status != "playing":
            break
        h.tick(0.01)
    assert h.table.status in ("round_over", "match_over")


def test_spectators_see_the_public_view_only() -> None:
    h = Harness(TableSettings(seats=2), bots={0: "random", 1: "random"})
    h.send(HOST, type="start")
    spectator = h.table.view_for(Role())
    assert spectator is not None and "hand" not in spectator and "legal" not in spectator
    assert all("cards" not in e for e in h.table.events_for(Role(), 0))


def test_the_schema_file_is_current() -> None:
    on_disk = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
    assert on_disk == full_schema()
    assert on_disk["client"] == client_schema() and on_disk["server"] == server_schema()


@pytest.mark.parametrize(("text", "code"), [
    ("not json", ErrorCode.MALFORMED),
    ('{"type": "dance"}', ErrorCode.MALFORMED),
    ('{"type": "act", "action": "R7", "extra": 1}', ErrorCode.MALFORMED),
    ('{"type": "chat", "text": "' + "x" * 201 + '"}', ErrorCode.MALFORMED),
    ('{"type": "chat", "text": "' + "x" * 5000 + '"}', ErrorCode.TOO_LARGE),
    ('{"type": "sit", "seat": 12, "name": "A"}', ErrorCode.MALFORMED),
])
def test_malformed_messages_are_coded(text: str, code: ErrorCode) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client(text)
    assert caught.value.code is code


@pytest.mark.parametrize(
    ("preset", "seed"), [("official", 1), ("house", 2), ("no-mercy", 3), ("partners", 4)]
)
def test_views_and_events_sent_are_the_engines_own(preset: str, seed: int) -> None:
    """The actor shares the public part of the views (the engine's ``Game.view_parts``) and each
    event's dict between seats: what it sends every seat (and a spectator) is exactly
    ``PlayerView.to_dict()`` and ``Event.to_dict()``, as text byte for byte, at every step of whole
    rounds."""
    import random

    from unotable.server.entries import Dealt, Seated, Started
    from unotable.server.ids import token_hash

    seats = 4
    actor = TableActor("t" * 16, new_table_doc(TableSettings(preset=preset, seats=seats), new_token()))
    for s in range(seats):
        actor.apply(Seated(s, f"P{s}", token_hash(str(s))), 0.0)
    actor.apply(Started(seed), 0.0)
    rng = random.Random(seed)
    sent_from = dict.fromkeys([*range(seats), None], 0)
    for _ in range(600):
        game = actor.game
        assert game is not None
        table = game.table_info(actor.names())
        for seat in [*range(seats), None]:
            role = Role(seat)
            want = game.spectator_view(table).to_dict() if seat is None else game.view(seat, table).to_dict()
            assert actor.view_for(role) == want
            assert actor.view_text_for(role) == to_json(want)  # (the text the outbox splices)
            since = sent_from[seat]
            events = [e.to_dict() for e in game.events_since(since, seat)]
            assert actor.events_for(role, since) == events
            assert actor.events_text_for(role, since) == to_json(events)
            sent_from[seat] = game.last_seq
        if game.phase.name == "MATCH_OVER":
            break
        if game.phase.name == "ROUND_OVER":
            actor.apply(Dealt(), 0.0)
            continue
        movers = [s for s in range(seats) if game.legal_actions_for(s)]
        seat = rng.choice(movers)
        action = rng.choice(list(game.legal_actions_for(seat)))
        decision = actor.decide(Role(seat), msg(type="act", action=str(action)), 0.0)
        assert decision is not None
        actor.apply(decision.entry, 0.0)
