"""Every value of the engine that writes itself with ``to_dict`` reads itself back with ``from_dict``.

Random games of every preset (hypothesis picks the preset, the seat count, the seed and the
policy's seed); at every step each seat's view, the spectator's view, every new event, the table,
the ruleset, the round result, the outcome, the record and every legal action (in notation) go to
JSON text and back and must come back equal. Malformed documents are refused with a
:class:`RecordError` that names the field.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unotable import Game, Phase, Record, RecordError, Ruleset, parse_action
from unotable.events import Event
from unotable.results import MatchEndReason, Outcome, RoundResult
from unotable.rules import PRESET_NAMES
from unotable.views import PlayerView, SpectatorView, TableInfo, view_from_dict


def through_json(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


def check_views(game: Game, names: tuple[str, ...]) -> None:
    table = game.table_info(list(names))
    assert TableInfo.from_dict(through_json(table.to_dict())) == table
    for seat in range(game.seats):
        view = game.view(seat, table)
        back = PlayerView.from_dict(through_json(view.to_dict()), table)
        assert back == view
        assert view_from_dict(through_json(view.to_dict()), table) == view
        for action in view.legal:
            assert parse_action(str(action)) == action
    public = game.spectator_view(table)
    assert SpectatorView.from_dict(through_json(public.to_dict()), table) == public
    assert type(view_from_dict(through_json(public.to_dict()), table)) is SpectatorView


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESET_NAMES),
    seats=st.integers(0, 100),
    seed=st.integers(0, 2**40),
    policy=st.integers(0, 2**32),
)
def test_every_value_round_trips_through_json_in_random_games(preset: str, seats: int, seed: int,
                                                             policy: int) -> None:
    rules = Ruleset.preset(preset)
    counts = rules.seat_counts
    seats = counts[seats % len(counts)]
    assert Ruleset.from_dict(through_json(rules.to_dict())) == rules
    game = Game.new(seats, rules.replace(target_score=100) if rules.target_score else rules, seed)
    names = tuple(f"P{s}" for s in range(seats))
    rng = random.Random(policy)
    seen = 0
    for step in range(400):
        if step % 7 == 0 or game.phase >= Phase.ROUND_OVER:
            check_views(game, names)
        for event in game.events[seen:]:
            doc = through_json(event.to_dict())
            back = Event.from_dict(doc)
            assert back == event and back.seq == event.seq
        seen = len(game.events)
        result = game.round_result()
        if result is not None:
            assert RoundResult.from_dict(through_json(result.to_dict())) == result
        if game.is_over():
            break
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            continue
        others = sorted(game.seats_to_act - {game.active_seat})
        seat = rng.choice(others) if others and rng.random() < 0.2 else game.active_seat
        game.play(rng.choice(list(game.legal_actions_for(seat))), seat)
    outcome = game.outcome()
    if outcome is not None:
        assert Outcome.from_dict(through_json(outcome.to_dict())) == outcome
    record = Record.from_game(game, names)
    assert Record.from_dict(through_json(record.to_dict())) == record


@pytest.fixture
def game() -> Game:
    g = Game.new(3, "official", 8)
    g.play(g.legal_actions[0])
    return g


def test_a_view_with_a_misspelt_missing_or_mistyped_field_is_refused(game: Game) -> None:
    table = game.table_info()
    doc = game.view(0).to_dict()
    with pytest.raises(RecordError, match="view has no field 'hands'"):
        PlayerView.from_dict({**doc, "hands": []}, table)
    without = {k: v for k, v in doc.items() if k != "hand"}
    with pytest.raises(RecordError, match="view lacks the field 'hand'"):
        PlayerView.from_dict(without, table)
    with pytest.raises(RecordError, match=r"view.seq must be int, not '3'"):
        PlayerView.from_dict({**doc, "seq": "3"}, table)
    with pytest.raises(RecordError, match=r"view.seat must be int, not True"):
        PlayerView.from_dict({**doc, "seat": True}, table)
    with pytest.raises(RecordError, match=r"view.hand cannot be 'Q9'"):
        PlayerView.from_dict({**doc, "hand": ["Q9"]}, table)
    with pytest.raises(RecordError, match=r"view.phase cannot be 'thinking'"):
        PlayerView.from_dict({**doc, "phase": "thinking"}, table)
    with pytest.raises(RecordError, match=r"view.legal cannot be 'fly'"):
        PlayerView.from_dict({**doc, "legal": ["fly"]}, table)
    with pytest.raises(RecordError, match="a JSON object, not list"):
        SpectatorView.from_dict([], table)


def test_a_table_result_or_outcome_that_is_malformed_is_refused() -> None:
    table = TableInfo(Ruleset.preset("official"), 3, ("A", "B", "C")).to_dict()
    with pytest.raises(RecordError, match="table lacks the field 'ruleset'"):
        TableInfo.from_dict({k: v for k, v in table.items() if k != "ruleset"})
    with pytest.raises(RecordError, match=r"table.names must be str, not 1"):
        TableInfo.from_dict({**table, "names": [1, 2, 3]})
    result = RoundResult(2, None, 0, (3, 4), (), (), (10, 0)).to_dict()
    assert RoundResult.from_dict(result).blocked
    with pytest.raises(RecordError, match=r"round result.points must be int"):
        RoundResult.from_dict({**result, "points": 1.5})
    outcome = Outcome((1,), (0, 500), 4, MatchEndReason.TARGET_REACHED).to_dict()
    with pytest.raises(RecordError, match=r"outcome.reason cannot be 'boredom'"):
        Outcome.from_dict({**outcome, "reason": "boredom"})
    with pytest.raises(RecordError, match="outcome lacks the field 'rounds'"):
        Outcome.from_dict({k: v for k, v in outcome.items() if k != "rounds"})
