"""The review of a seat's decisions (unotable.bots.review, ``unotable review``): constructed
positions where the best action is clear, judging from the seat's view alone, and the command."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from unotable import Game
from unotable.actions import CALL_UNO, CATCH
from unotable.arbiter import Arbiter
from unotable.bots import make_bot, native_search
from unotable.bots.mixbot import MIXBOT_RULES
from unotable.bots.review import Review, ReviewError, review_record
from unotable.cli import main
from unotable.record import Record


def _game(hands: list[list[str]], top: str, draw: list[str], **extra: Any) -> Game:
    return Game.from_position({"ruleset": MIXBOT_RULES.to_dict(), "seed": 3, "hands": hands,
                               "discard": [top], "draw": draw, **extra})


@pytest.fixture(params=["python", "native"])
def engine(request: pytest.FixtureRequest) -> str:
    """Each review scenario is judged in Python and inside the native core (when it is built)."""
    if request.param == "native" and not native_search.available():
        pytest.skip("the native core (unotable_native) is not built")
    return str(request.param)


def _review(game: Game, engine: str, seat: int = 0, worlds: int = 150, seed: int = 1) -> Review:
    # the core is cheap: it judges on four times the worlds (the same conclusions, less noise)
    worlds = worlds * 4 if engine == "native" else worlds
    return review_record(Record.from_game(game), seat, worlds=worlds, seed=seed, engine=engine)


# Seat 0 holds R5 and a Wild Draw Four on R3; the others hold three cards each, and wilds are among
# the cards seat 0 cannot see. R5 first leaves the Wild Draw Four, which always goes out next turn;
# the Wild Draw Four first leaves R5, stuck whenever the seat after the victim changes the color.
WD4_EARLY = ([["R5", "W4"], ["G1", "G2", "B3"], ["W", "Y1", "Y2"]], "R3",
             ["G7", "B7", "W", "Y7", "G8", "B8", "Y8", "G9", "B9"])

# Seat 1 holds one card; seat 0 holds a Draw Two and a number card of the color on top, and many
# of the cards it cannot see would let seat 1 go out.
ONE_CARD = ([["RD2", "R5", "G6", "B7"], ["R9"], ["Y1", "Y2", "B4", "G3"]], "R3",
            ["R1", "R2", "W", "R4", "G5", "Y5", "B8", "G8", "Y8", "B9"])


def test_review_finds_the_wild_draw_four_played_a_turn_too_early(engine: str) -> None:
    game = _game(*WD4_EARLY)
    game.play("W4:R", 0)
    worst = _review(game, engine).worst()
    assert worst, "the early Wild Draw Four is a costly decision"
    d = worst[0]
    assert (d.index, str(d.played), str(d.best)) == (0, "W4:R", "R5!")
    assert d.cost > 0.2 and d.cost > 3 * d.stderr
    # the right play costs nothing
    game = _game(*WD4_EARLY)
    game.play("R5!", 0)
    judged = _review(game, engine).decisions
    assert len(judged) == 1 and str(judged[0].best) == "R5!" and judged[0].cost == 0


def test_review_finds_the_missed_attack_on_a_seat_with_one_card(engine: str) -> None:
    game = _game(*ONE_CARD)
    game.play("R5", 0)
    d = _review(game, engine).worst()[0]
    assert (str(d.played), str(d.best)) == ("R5", "RD2")
    assert d.cost > 0.1 and d.cost > 3 * d.stderr
    assert d.hand_sizes == (4, 1, 4)
    game = _game(*ONE_CARD)
    game.play("RD2", 0)
    assert _review(game, engine).worst() == []


def test_review_judges_from_the_seats_view_and_shows_nothing_else(engine: str) -> None:
    # Two games that differ only in cards seat 0 cannot see: the same review, word for word.
    hands, top, draw = ONE_CARD
    other = [hands[0], ["G5"], hands[2]]
    other_draw = ["R9" if c == "G5" else c for c in draw]
    reviews = []
    for h, d in ((hands, draw), (other, other_draw)):
        game = _game(h, top, d)
        game.play("R5", 0)
        reviews.append(_review(game, engine, worlds=60).to_dict())
    assert reviews[0] == reviews[1]
    text = json.dumps(reviews[0]) + _review(_game(hands, top, draw), engine, worlds=5).text()
    for hidden in ("R9", "Y1", "Y2", "B4", "G3"):  # other hands' cards, never shown to seat 0
        assert hidden not in text


def _seeded_record(seats: int = 3, seed: int = 4) -> Record:
    game = Game.new(seats=seats, seed=seed)
    bots = {s: make_bot("heuristic") for s in range(seats)}
    Arbiter(game, bots, {s: random.Random(s) for s in range(seats)}).play_round()
    return Record.from_game(game)


def test_review_of_a_recorded_round_judges_each_choice_of_the_seat(engine: str) -> None:
    record = _seeded_record()
    seen: list[tuple[int, int]] = []
    review = review_record(record, 1, worlds=8, seed=2, engine=engine,
                           progress=lambda done, total: seen.append((done, total)))
    turns = [i for i, (s, a) in enumerate(record.actions) if s == 1 and str(a) not in ("uno",)]
    assert seen and seen[-1][0] == seen[-1][1] and seen[-1][1] >= len(review.decisions) > 0
    replayed = Game.new(seats=3, seed=4)
    by_index = {d.index: d for d in review.decisions}
    for i, (s, a) in enumerate(record.actions):
        if i in by_index:
            d = by_index[i]
            assert i in turns and d.played == a and d.hand == replayed.view(1).hand
            assert d.hand_sizes == replayed.hand_sizes and d.top_card == replayed.top_card
            assert all(c in replayed.legal_actions_for(1) for c, _ in d.chances)
            chances = [p for _, p in d.chances]
            assert chances == sorted(chances, reverse=True) and d.cost >= 0
        replayed.play(a, s)
    assert review_record(record, 1, worlds=8, seed=2, engine=engine) == review  # deterministic, for caching
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)  # progress only goes forward
    # the turn of each decision counts every seat's turns in its round, from 1
    for d in review.decisions:
        start = max((i for i in range(d.index + 1) if record_round(record, i) != d.round_no), default=-1)
        turns_before = [a for _, a in record.actions[start + 1:d.index] if a.kind not in (CALL_UNO, CATCH)]
        assert d.turn == len(turns_before) + 1, (d.index, d.turn)
    with pytest.raises(ReviewError, match="seat 3"):
        review_record(record, 3)


def record_round(record: Record, index: int) -> int:
    """The round in which the record's action ``index`` was taken (replayed)."""
    game = Game.new(seats=record.seats, seed=record.seed)
    for s, a in record.actions[:index]:
        game.play(a, s)
    return game.round_no


def test_unotable_review_prints_the_costliest_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    game = _game(*WD4_EARLY)
    game.play("W4:R", 0)
    path = tmp_path / "game.json"
    path.write_text(Record.from_game(game).to_json())
    assert main(["review", str(path), "--seat", "0", "--worlds", "60"]) == 0
    out = capsys.readouterr().out
    assert "Review of seat 0" in out and "played W4:R" in out and "better R5!" in out
    assert main(["review", str(path), "--seat", "0", "--worlds", "10", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["seat"] == 0 and doc["decisions"][0]["played"] == "W4:R"
    assert main(["review", str(path), "--seat", "7"]) == 2
    assert "seat 7" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json"), "--seat", "0"]) == 1
    assert main(["review", str(path)]) == 2  # --seat is required
