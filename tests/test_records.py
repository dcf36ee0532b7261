"""Records and positions: golden records replay exactly, JSON round trips, malformed input.

The golden files (tests/data/golden_<preset>.json, written by tests/data/make_golden.py) pin the
engine's determinism across machines and Python versions (GEN-4): replaying each stored record must
give exactly the stored events and the stored final position.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unotable import Action, Game, Phase, Play, RecordError, Ruleset
from unotable.actions import Draw
from unotable.record import Record, replay
from unotable.rules import PRESET_NAMES

DATA = Path(__file__).resolve().parent / "data"

# The position round trip checks every point of its games: it takes a fifth of the profile's examples.
_EXAMPLES = max(3, settings().max_examples // 5)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _golden(preset: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / f"golden_{preset}.json").read_text(encoding="utf-8"))
    assert doc["format"] == "unotable-golden" and doc["preset"] == preset
    return doc


# ------------------------------------------------------------------------------------------------
# golden records


@pytest.mark.rule("GEN-4")
def test_a_golden_file_for_every_preset() -> None:
    names = sorted(p.name for p in DATA.glob("golden_*.json"))
    assert names == sorted(f"golden_{p}.json" for p in PRESET_NAMES)
    for preset in PRESET_NAMES:
        games = _golden(preset)["games"]
        assert len(games) == 2
        assert any(g["full_match"] for g in games)


@pytest.mark.rule("GEN-4", "NET-1")
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_golden_records_replay_exactly(preset: str) -> None:
    for stored in _golden(preset)["games"]:
        record = Record.from_dict(stored["record"])
        assert record.to_dict() == stored["record"]
        expected_rules = Ruleset.preset(preset)
        if not stored["full_match"]:
            expected_rules = expected_rules.replace(scoring="none")
        assert record.ruleset == expected_rules
        assert (record.seats, record.seed) == (stored["seats"], stored["seed"])
        game = replay(record)
        events = _json([e.to_dict() for e in game.events])
        assert len(events) == len(stored["events"])
        for i, (got, want) in enumerate(zip(events, stored["events"], strict=True)):
            assert got == want, f"{preset} seed {record.seed}: event {i} differs"
        assert _json(game.to_position()) == stored["final"]
        # every stored game was played to the end of its match
        assert game.is_over() and stored["final"]["phase"] == "match_over"
        outcome = game.outcome()
        assert outcome is not None and outcome.winners
        if stored["full_match"]:
            top = max(game.scores)
            assert top >= game.ruleset.target_score or game.ruleset.scoring.value != "standard"


@pytest.mark.rule("GEN-4")
@pytest.mark.parametrize("preset", ["official", "no-mercy"])
def test_golden_records_replay_through_the_unchecked_path(preset: str) -> None:
    for stored in _golden(preset)["games"]:
        record = Record.from_dict(stored["record"])
        game = Game.new(record.seats, record.ruleset, record.seed, events=False)
        for seat, action in record.actions:  # deals are entries of the log (seat None)
            game.apply_unchecked(action, seat)
        assert _json(game.to_position()) == stored["final"]


# ------------------------------------------------------------------------------------------------
# records: JSON round trips and malformed records


def _random_game(preset: str, seats: int, seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(seats, preset, seed)
    for _ in range(steps):
        if game.is_over():
            break
        if game.phase is Phase.ROUND_OVER:  # dealt only before an action, as replay() does
            game.next_round()
        others = sorted(game.seats_to_act - {game.active_seat})
        seat = rng.choice(others) if others and rng.random() < 0.2 else game.active_seat
        actions: list[Action] = list(game.legal_actions_for(seat))
        plays = [a for a in actions if isinstance(a, Play)]
        if plays and rng.random() < 0.8:
            actions = plays
        game.play(rng.choice(actions), seat)
    return game


@pytest.mark.rule("GEN-4")
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**63 - 1), steps=st.integers(0, 300))
def test_record_json_round_trip(preset: str, seed: int, steps: int) -> None:
    seats = {"two-player": 2, "partners": 4}.get(preset, 3 + seed % 4)
    game = _random_game(preset, seats, seed, steps)
    record = Record.from_game(game)
    for text in (record.to_json(), record.to_json(indent=2)):
        back = Record.from_json(text)
        assert back == record
        assert back.to_dict() == record.to_dict()
    again = replay(Record.from_json(record.to_json()))
    assert again.events == game.events
    assert again.to_position() == game.to_position()


def _record_doc() -> dict[str, Any]:
    game = _random_game("official", 3, 5, 40)
    return Record.from_game(game).to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "unotable-position"}, "not a unotable-record"),
        ({"format": None}, "not a unotable-record"),
        ({"version": 3}, "not a unotable-record"),
        ({"start": {"seed": 1, "position": {}}}, "start"),
        ({"start": {"seed": -1}}, "seed"),
        ({"start": {"position": "official"}}, "position"),
        ({"names": ["a", 1, "c"]}, "names"),
        ({"rules_version": "1"}, "rules_version"),
        ({"actions": [[None, "draw"]]}, "action 0"),
        ({"actions": [[0, "deal"]]}, "action 0"),
        ({"ruleset": {"deck": "classic999"}}, "ruleset"),
        ({"ruleset": {"stacking": "sometimes"}}, "ruleset"),
        ({"ruleset": {"no_such_option": 1}}, "ruleset"),
        ({"ruleset": "official"}, "ruleset"),
        ({"seats": "3"}, "seats"),
        ({"start": {"seed": 1.5}}, "seed"),
        ({"actions": "draw draw"}, "actions"),
        ({"actions": [[0, "R77"]]}, "action 0"),
        ({"actions": [[0, "W4:Q"]]}, "action 0"),
        ({"actions": [[0, "catch:x"]]}, "action 0"),
        ({"actions": [[0, ""]]}, "action 0"),
        ({"actions": [[0, 7]]}, "action 0"),
        ({"actions": [[0, "draw"], ["1", "draw"]]}, "action 1"),
        ({"actions": [[0, "draw", 1]]}, "action 0"),
        ({"actions": [["draw"]]}, "action 0"),
        ({"actions": [0, "draw"]}, "action 0"),
    ],
)
def test_malformed_records_raise_record_error(change: dict[str, Any], message: str) -> None:
    doc = dict(_record_doc(), **change)
    with pytest.raises(RecordError, match=message):
        Record.from_dict(doc)
    with pytest.raises(RecordError):
        Record.from_json(json.dumps(doc))


@pytest.mark.parametrize("missing", ["ruleset", "seats", "start", "actions"])
def test_a_record_missing_a_field_raises_record_error(missing: str) -> None:
    doc = _record_doc()
    del doc[missing]
    with pytest.raises(RecordError, match=missing):
        Record.from_dict(doc)


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", "5", '"record"', "{'format': 1}"])
def test_text_that_is_not_a_record_raises_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        Record.from_json(text)


def test_a_record_that_is_not_an_object_raises_record_error() -> None:
    for value in ([], None, "record", 5):
        with pytest.raises(RecordError):
            Record.from_dict(value)


@pytest.mark.rule("GEN-2", "GEN-3")
def test_an_illegal_action_in_a_record_does_not_replay() -> None:
    doc = _record_doc()
    game = replay(Record.from_dict(doc))
    seat = game.active_seat
    # a card the active seat does not hold, a seat that may not act, a challenge with nothing to challenge
    held = {str(c) for c in game.hand(seat)}
    absent = next(c for c in ("R1", "Y2", "G3", "B4", "R5", "Y6", "G7", "B8") if c not in held)
    other = (seat + 1) % game.seats
    for bad in ([seat, absent], [other, "draw"], [seat, "challenge"], [seat, "pass"], [9, "draw"]):
        broken = dict(doc, actions=[*doc["actions"], bad])
        record = Record.from_dict(broken)
        with pytest.raises(RecordError, match=f"action {len(doc['actions'])}"):
            replay(record)
    # an illegal action in the middle: the actions after it never run
    actions = doc["actions"]
    broken = dict(doc, actions=[*actions[:10], [actions[10][0], "accept"], *actions[11:]])
    with pytest.raises(RecordError, match="action 10"):
        replay(Record.from_dict(broken))


@pytest.mark.parametrize(
    "change",
    [
        {"seats": 11},
        {"seats": 1},
        {"seats": True},
        {"start": {"position": {"hands": [["R1"]], "discard": ["R2"]}}},
        {"seats": 3, "ruleset": Ruleset.preset("two-player").to_dict()},
        {"seats": 5, "ruleset": Ruleset.preset("partners").to_dict()},
    ],
)
def test_a_record_whose_game_cannot_start_does_not_replay(change: dict[str, Any]) -> None:
    doc = dict(_record_doc(), actions=[], **change)
    with pytest.raises(RecordError):
        replay(Record.from_dict(doc))


def test_a_record_replays_its_rounds_in_order() -> None:
    # a record spanning several rounds: next_round is dealt during replay as each round ends
    game = _random_game("two-player", 2, 11, 2000)
    assert game.round_no > 1
    again = replay(Record.from_game(game))
    assert again.to_position() == game.to_position()
    assert again.events == game.events


# ------------------------------------------------------------------------------------------------
# positions


CASES = [("official", 4), ("official-112-shuffle", 3), ("official-112-swap", 5), ("official-112-blank", 2),
         ("two-player", 2), ("partners", 6), ("house", 4), ("no-mercy", 5)]


@pytest.mark.rule("GEN-4", "GEN-5")
@pytest.mark.parametrize(("preset", "seats"), CASES, ids=[p for p, _ in CASES])
@settings(max_examples=_EXAMPLES)
@given(seed=st.integers(0, 2**63 - 1), policy_seed=st.integers(0, 2**32 - 1))
def test_position_round_trip_at_every_point(preset: str, seats: int, seed: int, policy_seed: int) -> None:
    """to_position / from_position is exact, also through JSON; play continues identically."""
    rng = random.Random(policy_seed)
    game = Game.new(seats, preset, seed)
    forks: list[tuple[Game, int, int]] = []
    for _ in range(300):
        if game.is_over():
            break
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        pos = game.to_position()
        again = Game.from_position(pos)
        assert again.to_position() == pos
        assert again.legal_action_list() == game.legal_action_list()
        assert again.seats_to_act == game.seats_to_act
        if rng.random() < 0.05:  # fork here, through JSON; the fork must follow the same actions
            fork = Game.from_position(_json(pos))
            assert fork.to_position() == pos
            forks.append((fork, len(game.actions), len(game.events)))
        active = game.active_seat
        others = sorted(game.seats_to_act - {active})
        seat = rng.choice(others) if others and rng.random() < 0.2 else active
        actions = list(game.legal_actions_for(seat))
        plays = [a for a in actions if isinstance(a, Play)]
        if plays and rng.random() < 0.8:
            actions = plays
        game.play(rng.choice(actions), seat)
    for fork, done, seen in forks:
        events = []
        for seat, action in game.actions[done:]:  # deals included
            events += fork.play(action, seat)
        assert fork.to_position() == game.to_position()
        assert events == game.events[seen:]


def _doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"hands": [["R7", "G2"], ["B5", "Y1"], ["W", "G9"]], "discard": ["R3"],
                           "draw": ["Y9", "B2"]}
    doc.update(changes)
    return doc


def test_a_minimal_position_is_filled_and_valid() -> None:
    game = Game.from_position(_doc())
    pos = game.to_position()
    assert pos["hands"] == [["R7", "G2"], ["B5", "Y1"], ["W", "G9"]]
    assert pos["draw"] == ["Y9", "B2"] and pos["discard"][-1] == "R3"
    assert sum(len(h) for h in pos["hands"]) + len(pos["draw"]) + len(pos["discard"]) == 108  # GEN-5
    assert pos["fill"] == "none" and Game.from_position(pos).to_position() == pos
    drawn = Game.from_position(_doc(fill="draw")).to_position()
    assert drawn["discard"] == ["R3"] and drawn["draw"][:2] == ["Y9", "B2"] and len(drawn["draw"]) == 108 - 7


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # GEN-5: more copies of a card than the deck holds (two R7, one R0 in classic108)
        ({"hands": [["R7", "R7"], ["R7"]]}, "more copies"),
        ({"hands": [["R0"], ["B5"]], "draw": ["R0"]}, "more copies"),
        ({"hands": [["W4"] * 5, ["B5"]]}, "more copies"),
        ({"hands": [["WS"], ["B5"]]}, "more copies"),  # not in classic108
        ({"hands": [["RD4"], ["B5"]]}, "more copies"),  # a No Mercy card
        ({"set_aside": ["R7", "R7", "R7"]}, "more copies"),
        # GEN-5: cards missing and no fill
        ({"fill": "none"}, "missing"),
        ({"fill": "sideways"}, "fill"),
        # phase, color, direction
        ({"phase": "lunch"}, "phase"),
        ({"phase": 3}, "phase"),
        ({"phase": "play_drawn"}, "drawn"),
        ({"phase": "play_drawn", "drawn": "Y7"}, "drawn"),
        ({"color": "P"}, "color"),
        ({"color": 2}, "color"),
        ({"direction": 0}, "direction"),
        ({"direction": True}, "direction"),
        ({"color_for": "whim"}, "color_for"),
        ({"color_for": ["roulette"]}, "color_for"),
        # seats
        ({"hands": [["R7"]]}, "hands"),
        ({"hands": [["R1"]] * 11}, "hands"),
        ({"hands": "R7 G2"}, "hands"),
        ({"active": 3}, "active"),
        ({"active": -1}, "active"),
        ({"active": True}, "active"),
        ({"dealer": 7}, "dealer"),
        ({"top_player": 3}, "top_player"),
        ({"exposed": [3]}, "exposed"),
        ({"exposed": [True]}, "exposed"),
        ({"called": "0"}, "called"),
        ({"eliminated": [-1]}, "eliminated"),
        ({"knocked_out": [0, 5]}, "knocked_out"),
        ({"eliminated": [1], "active": 1}, "not in the round"),
        ({"scores": [0, 0]}, "scores"),
        ({"round_wins": [0, 0, "1"]}, "round_wins"),
        # cards and other fields
        ({"hands": [["R77"], ["B5"]]}, "hand 0"),
        ({"hands": [["R7"], [1.5]]}, "hand 1"),
        ({"discard": []}, "top card"),
        ({"discard": None}, "discard"),
        ({"draw": "Q9"}, "draw"),
        ({"pending": [4]}, "pending"),
        ({"pending": {"total": -4, "card": "W4"}}, "total"),
        ({"pending": {"total": 4}}, "pending card"),
        ({"wd4": [1]}, "wd4"),
        ({"wd4": {"player": 9}}, "player"),
        ({"seed": -1}, "seed"),
        ({"rng": [1, 2, 3]}, "rng"),
        ({"round_no": 0}, "round_no"),
        ({"ruleset": "no-such-preset"}, "ruleset"),
        ({"ruleset": {"deck": "classic108", "stacking": "always"}}, "ruleset"),
        ({"format": "unotable-record"}, "unotable-position"),
        ({"version": 99}, "unotable-position"),
    ],
)
def test_bad_positions_raise_record_error(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Game.from_position(_doc(**changes))


def test_a_position_that_is_not_an_object_raises_record_error() -> None:
    for value in ([], None, "position", 3):
        with pytest.raises(RecordError):
            Game.from_position(value)  # type: ignore[arg-type]


def test_a_rejected_position_leaves_no_game_behind() -> None:
    # the error is raised before any game exists; a valid one after it is unaffected
    with pytest.raises(RecordError):
        Game.from_position(_doc(phase="lunch"))
    game = Game.from_position(_doc())
    assert game.phase is Phase.PLAY and Draw() in game.legal_actions


def test_a_record_taken_right_after_a_new_deal_replays_the_deal() -> None:
    game = Game.new(2, "official", 4)
    rng = random.Random(4)
    while game.phase is not Phase.ROUND_OVER:
        game.play(rng.choice(list(game.legal_actions)), game.active_seat)
    game.next_round()
    again = replay(Record.from_game(game))
    assert again.to_position() == game.to_position()


def test_a_finished_match_keeps_its_outcome_through_a_position() -> None:
    game = Game.new(2, Ruleset.preset("official").replace(scoring="none"), 3)
    rng = random.Random(3)
    while not game.is_over():
        game.play(rng.choice(list(game.legal_actions)), game.active_seat)
    again = Game.from_position(game.to_position())
    assert again.outcome() == game.outcome()
