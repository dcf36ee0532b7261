"""Rule scenarios for two seats: TWO-2 to TWO-6 (with TWO-1's reach: presets, knock-outs, eliminations)."""
from __future__ import annotations

from collections import Counter

import pytest

from unotable import Card, Game, IllegalActionError, InvalidActionError, Phase, Play, Rank, Ruleset, UnoError
from unotable.events import (
    Challenged,
    DirectionChanged,
    Drew,
    Event,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsSwapped,
    PenaltyPending,
    RoundStarted,
    Skipped,
)

OFFICIAL = Ruleset.preset("official")
NO_MERCY = Ruleset.preset("no-mercy")


def _rules(ruleset: Ruleset | str) -> Ruleset:
    return Ruleset.preset(ruleset) if isinstance(ruleset, str) else ruleset


def game_at(
    hands: list[str], discard: str, draw: str = "", ruleset: Ruleset | str = "official", **kw: object
) -> Game:
    doc = {
        "ruleset": _rules(ruleset).to_dict(),
        "hands": [h.split() for h in hands],
        "discard": discard.split(),
        "draw": draw.split(),
    }
    doc.update(kw)
    return Game.from_position(doc)


def hand(game: Game, seat: int) -> list[str]:
    return [str(c) for c in game.hand(seat)]


def of(events: list[Event], kind: type[Event]) -> list:
    return [e for e in events if isinstance(e, kind)]


def reject(game: Game, action: str, seat: int | None = None, error: type[UnoError] = UnoError) -> None:
    before = game.to_position()
    with pytest.raises(error):
        game.play(action, seat)
    assert game.to_position() == before


# --------------------------------------------------------------------------------------------
# TWO-2: a Reverse acts as a Skip


@pytest.mark.rule("TWO-2")
@pytest.mark.parametrize("ruleset", ["official", "two-player", "house", "no-mercy"])
def test_reverse_gives_the_player_another_turn(ruleset: str) -> None:
    game = game_at(["RR R6 G2", "B5 B6"], "R3", "Y9 Y8", ruleset=ruleset)
    events = game.play("RR")
    assert of(events, DirectionChanged) == [DirectionChanged(-1)]
    assert game.direction == -1
    assert (game.active_seat, game.phase) == (0, Phase.PLAY)
    assert "R6" in game.legal_actions
    reject(game, "B5", 1, IllegalActionError)
    game.play("R6")
    assert game.active_seat == 1


@pytest.mark.rule("TWO-2")
def test_reverse_with_two_seats_left_in_the_round() -> None:
    # No Mercy after a knock-out (TWO-1): two of three seats are in the round
    game = game_at(["RR R6", "B5 B6", ""], "R3", "Y9", ruleset=NO_MERCY, knocked_out=[2])
    game.play("RR")
    assert game.active_seat == 0
    # an elimination match with one seat out
    rules = OFFICIAL.replace(scoring="elimination")
    game = game_at(["", "RR R6", "B5 B6"], "R3", "Y9", ruleset=rules, eliminated=[0], active=1)
    game.play("RR")
    assert game.active_seat == 1
    # three seats in the round: the Reverse does not give another turn
    game = game_at(["RR R6", "B5 B6", "Y5"], "R3", "Y9")
    game.play("RR")
    assert game.active_seat == 2


# --------------------------------------------------------------------------------------------
# TWO-3: a Skip gives another turn


@pytest.mark.rule("TWO-3")
@pytest.mark.parametrize("ruleset", ["official", "two-player", "no-mercy"])
def test_skip_gives_the_player_another_turn(ruleset: str) -> None:
    game = game_at(["RS G6 R2", "B5 B6"], "R3", "Y9 Y8", ruleset=ruleset)
    events = game.play("RS")
    assert of(events, Skipped) == [Skipped(1)]
    assert (game.active_seat, game.direction, game.phase) == (0, 1, Phase.PLAY)
    reject(game, "B5", 1, IllegalActionError)
    game.play("R2")
    assert game.active_seat == 1


@pytest.mark.rule("TWO-3")
def test_skip_everyone_and_skips_after_knock_outs() -> None:
    game = game_at(["RSE R2", "B5 B6"], "R3", "Y9", ruleset=NO_MERCY)
    game.play("RSE")
    assert game.active_seat == 0
    game = game_at(["", "RS R2", "B5 B6"], "R3", "Y9", ruleset=NO_MERCY, knocked_out=[0], active=1)
    events = game.play("RS")
    assert of(events, Skipped) == [Skipped(2)]
    assert game.active_seat == 1


# --------------------------------------------------------------------------------------------
# TWO-4: after a draw card, the player plays again


@pytest.mark.rule("TWO-4")
def test_draw_two_then_the_player_plays_again() -> None:
    game = game_at(["RD2 G6 R2", "B5 B6"], "R3", "Y9 Y8 Y7")
    events = game.play("RD2")
    assert events[1:3] == [PenaltyPending(1, 2), Drew(1, 2, "penalty")]
    assert hand(game, 1) == ["B5", "B6", "Y9", "Y8"]
    assert (game.active_seat, game.phase) == (0, Phase.PLAY)


@pytest.mark.rule("TWO-4")
def test_wd4_accepted_or_innocent_then_the_player_plays_again() -> None:
    game = game_at(["W4 G6 G2", "B5 B6"], "R3", "Y9 Y8 Y7 Y6 Y5 Y4 Y3")
    game.play("W4:G")
    assert (game.phase, game.active_seat) == (Phase.RESPOND, 1)
    game.play("accept")
    assert len(game.hand(1)) == 6
    assert (game.active_seat, game.phase) == (0, Phase.PLAY)
    # an innocent verdict: the challenger draws 6 and the player plays again
    game = game_at(["W4 G6 G2", "B5 B6"], "R3", "Y9 Y8 Y7 Y6 Y5 Y4 Y3")
    game.play("W4:G")
    events = game.play("challenge")
    assert of(events, Challenged) == [Challenged(1, 0, False)]
    assert len(game.hand(1)) == 8
    assert (game.active_seat, game.phase) == (0, Phase.PLAY)


@pytest.mark.rule("TWO-4")
def test_guilty_challenge_then_the_challenger_plays() -> None:
    game = game_at(["W4 R6 G2", "B5 B6"], "R3", "Y9 Y8 Y7 Y6 Y5 Y4 Y3")
    game.play("W4:B")
    game.play("challenge")
    assert len(game.hand(0)) == 2 + 4
    assert (game.active_seat, game.phase) == (1, Phase.PLAY)
    assert "B5" in game.legal_actions


@pytest.mark.rule("TWO-4")
@pytest.mark.parametrize(("card", "value"), [("RD2", 2), ("RD4", 4), ("W6:G", 6), ("W10:G", 10)])
def test_no_mercy_draw_cards_then_the_player_plays_again(card: str, value: int) -> None:
    draw = " ".join(["Y9", "Y8", "Y7", "Y6", "Y5", "Y4", "Y3", "Y2", "Y1", "Y0", "B9"])
    game = game_at([f"{card.split(':')[0]} G6 R2", "B5 B6"], "R3", draw, ruleset=NO_MERCY)
    game.play(card)
    assert (game.phase, game.active_seat, game.pending_penalty) == (Phase.RESPOND, 1, value)
    game.play("accept")
    assert len(game.hand(1)) == 2 + value
    assert (game.active_seat, game.phase) == (0, Phase.PLAY)


# --------------------------------------------------------------------------------------------
# TWO-5: the first card with two seats


def _first(game: Game) -> Card:
    return of(game.events, FirstCard)[-1].card


@pytest.mark.rule("TWO-5")
@pytest.mark.parametrize("ruleset", ["two-player", "official", "official-112-swap"])
def test_first_card_skip_reverse_draw_two_with_two_seats(ruleset: str) -> None:
    seen: Counter = Counter()
    for seed in range(600):
        game = Game.new(seats=2, ruleset=ruleset, seed=seed)
        rank = _first(game).rank
        dealer, other = game.dealer, 1 - game.dealer
        dealt = {e.seat: [str(c) for c in e.cards] for e in of(game.events, HandDealt)}
        if rank is Rank.SKIP:
            assert of(game.events, Skipped) == [Skipped(other)]
        elif rank is Rank.REVERSE:
            assert of(game.events, DirectionChanged) == [DirectionChanged(-1)]
        elif rank is Rank.DRAW_TWO:
            assert of(game.events, Drew) == [Drew(other, 2, "penalty")]
            assert len(game.hand(other)) == 9 and hand(game, other)[:7] == dealt[other]
            assert len(game.hand(dealer)) == 7
        else:
            continue
        seen[rank] += 1
        assert (game.active_seat, game.phase, game.pending_penalty) == (dealer, Phase.PLAY, 0)
        assert of(game.events, RoundStarted)[0].dealer == dealer
    assert min(seen[r] for r in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)) >= 3


# --------------------------------------------------------------------------------------------
# TWO-6: bounce, 7 and 0 with two seats


@pytest.mark.rule("TWO-6")
@pytest.mark.parametrize("bounce", ["RR", "RS"])
def test_bounce_sends_the_draw_two_back_to_the_opponent(bounce: str) -> None:
    rules = OFFICIAL.replace(bounce_draw_two=True)
    game = game_at(["RD2 G6 G2", "RR RS B6"], "R3", "Y9 Y8 Y7", ruleset=rules)
    game.play("RD2")
    assert (game.phase, game.active_seat, game.pending_penalty) == (Phase.RESPOND, 1, 2)
    plays = {str(a) for a in game.legal_actions if isinstance(a, Play)}
    assert plays == {"RR", "RS"}
    events = game.play(bounce)
    assert of(events, PenaltyPending) == [PenaltyPending(0, 2)]
    assert (game.phase, game.active_seat, game.pending_penalty) == (Phase.RESPOND, 0, 2)
    game.play("accept")
    assert hand(game, 0) == ["G6", "G2", "Y9", "Y8"]
    assert (game.phase, game.active_seat) == (Phase.PLAY, 1)
    assert str(game.top_card) == bounce


@pytest.mark.rule("TWO-6")
def test_a_seven_targets_the_opponent() -> None:
    rules = OFFICIAL.replace(seven_zero=True)
    game = game_at(["R7 G6 G2", "B5"], "R3", "Y9 Y8", ruleset=rules)
    sevens = [str(a) for a in game.legal_actions if isinstance(a, Play) and a.card.rank == 7]
    assert sevens == ["R7>1", "R7>1!"]
    reject(game, "R7", 0, InvalidActionError)
    reject(game, "R7>0", 0, InvalidActionError)
    reject(game, "R7>2", 0, InvalidActionError)
    events = game.play("R7>1")
    assert of(events, HandsSwapped) == [HandsSwapped(0, 1)]
    assert (hand(game, 0), hand(game, 1)) == (["B5"], ["G6", "G2"])
    assert game.active_seat == 1


@pytest.mark.rule("TWO-6")
@pytest.mark.parametrize("direction", [1, -1])
def test_a_zero_exchanges_the_two_hands(direction: int) -> None:
    rules = OFFICIAL.replace(seven_zero=True)
    game = game_at(["R0 G6 G2", "B5 B8 Y1"], "R3", "Y9 Y8", ruleset=rules, direction=direction)
    events = game.play("R0")
    assert of(events, HandsPassed) == [HandsPassed(direction)]
    assert (hand(game, 0), hand(game, 1)) == (["B5", "B8", "Y1"], ["G6", "G2"])
    assert game.active_seat == 1
    # in No Mercy too (NM-13)
    game = game_at(["R0 G6 G2", "B5 B8 Y1"], "R3", "Y9 Y8", ruleset=NO_MERCY)
    game.play("R0")
    assert (hand(game, 0), hand(game, 1)) == (["B5", "B8", "Y1"], ["G6", "G2"])


# --------------------------------------------------------------------------------------------
# TWO-1: when the two-seat rules apply


@pytest.mark.rule("TWO-1", "TWO-2", "TWO-3")
@pytest.mark.parametrize(
    "ruleset",
    ["official", "official-112-shuffle", "official-112-swap", "official-112-blank", "two-player", "house",
     "no-mercy"],
)
def test_two_seat_rules_apply_in_every_preset(ruleset: str) -> None:
    game = game_at(["RR RS R2 G6", "B5 B6"], "R3", "Y9 Y8", ruleset=ruleset)
    game.play("RR")
    assert game.active_seat == 0
    game.play("RS")
    assert game.active_seat == 0
    game.play("R2")
    assert game.active_seat == 1


@pytest.mark.rule("TWO-1", "TWO-4")
@pytest.mark.parametrize("out", [[1, 3], [0, 2], [2, 3]])
def test_two_seats_left_of_four(out: list[int]) -> None:
    seats = [s for s in range(4) if s not in out]
    player, opponent = seats
    cards = {player: "RR RD2 R2 G6", opponent: "B5 B6"}
    hands = [cards.get(s, "") for s in range(4)]
    # an elimination match down to two seats, and a No Mercy round after two knock-outs
    elimination = OFFICIAL.replace(scoring="elimination")
    for rules, key in ((elimination, "eliminated"), (NO_MERCY, "knocked_out")):
        game = game_at(hands, "R3", "Y9 Y8 Y7", ruleset=rules, active=player, **{key: out})
        game.play("RR")
        assert (game.active_seat, game.direction) == (player, -1)
        game.play("RD2")
        if game.phase is Phase.RESPOND:
            game.play("accept")
        assert len(game.hand(opponent)) == 4
        assert (game.active_seat, game.phase) == (player, Phase.PLAY)
    # three seats in the round: none of this applies
    three = [cards.get(s, "Y5") if s != out[0] else "" for s in range(4)]
    game = game_at(three, "R3", "Y9 Y8 Y7", ruleset=elimination, active=player, eliminated=[out[0]])
    game.play("RR")
    assert game.active_seat != player


@pytest.mark.rule("TWO-1", "TWO-5")
def test_first_card_in_an_elimination_final_with_two_seats() -> None:
    rules = OFFICIAL.replace(scoring="elimination")
    seen: Counter = Counter()
    for seed in range(400):
        doc = {
            "ruleset": rules.to_dict(),
            "hands": [[], [], [], []],
            "discard": ["R5"],
            "phase": "round_over",
            "dealer": 0,
            "eliminated": [1, 3],
            "scores": [100, 600, 200, 700],
            "final_round": True,
            "seed": seed,
        }
        game = Game.from_position(doc)
        game.next_round()
        assert game.dealer == 2
        rank = _first(game).rank
        if rank is Rank.SKIP:
            assert of(game.events, Skipped) == [Skipped(0)]
        elif rank is Rank.REVERSE:
            assert game.direction == -1
        elif rank is Rank.DRAW_TWO:
            assert len(game.hand(0)) == 9 and len(game.hand(2)) == 7
        else:
            continue
        seen[rank] += 1
        assert (game.active_seat, game.phase) == (2, Phase.PLAY)
    assert min(seen[r] for r in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)) >= 2
