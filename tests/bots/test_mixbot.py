"""The anchor bots: random-stuck (a random playable card, a draw only when stuck) and mixbot
(chausner/UnoAI's MixBot from its README's rules), and MixBot's rules (MIXBOT_RULES).

Each decision is asked from an exact position; the bots' play is also checked over seeded rounds
driven by the arbiter, as the arena drives them."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from unotable import Game, Phase, Ruleset
from unotable.actions import Accept, Action, Catch, Challenge, Draw, Pass, Play
from unotable.arbiter import Arbiter
from unotable.bots import make_bot
from unotable.bots.arena import run_arena
from unotable.bots.base import BaseBot, is_turn
from unotable.bots.mixbot import MIXBOT_RULES, MixBot
from unotable.bots.random_stuck import RandomStuckBot
from unotable.cards import Card, Color
from unotable.views import PlayerView


def _position(hands: list[list[str]], top: str, rules: Ruleset = MIXBOT_RULES, **extra: Any) -> Game:
    return Game.from_position({"ruleset": rules.to_dict(), "hands": hands, "discard": [top], **extra})


def _choice(bot: BaseBot, game: Game, seat: int = 0, seed: int = 0) -> str:
    action = bot.choose(game.view(seat), game.legal_action_list(seat), random.Random(seed))
    return str(action)


class Recorder(BaseBot):
    """Wraps a bot and keeps each turn decision it makes: (view, legal, choice)."""

    def __init__(self, inner: BaseBot) -> None:
        self.inner = inner
        self.name = inner.name
        self.seen: list[tuple[PlayerView, list[Action], Action | None]] = []

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        choice = self.inner.choose(view, legal, rng)
        if is_turn(view):
            self.seen.append((view, list(legal), choice))
        return choice


def _rounds(bot: BaseBot, other: str, seats: int, rounds: int, rules: Ruleset = MIXBOT_RULES) -> Recorder:
    rec = Recorder(bot)
    for seed in range(rounds):
        game = Game.new(seats=seats, ruleset=rules, seed=seed)
        bots: dict[int, Any] = {s: make_bot(other) for s in range(seats)}
        bots[seed % seats] = rec
        Arbiter(game, bots, {s: random.Random(seed * 10 + s) for s in range(seats)}).play_round()
        assert game.phase >= Phase.ROUND_OVER
    return rec


# ---------------------------------------------------------------- MixBot's rules


@pytest.mark.rule("CL-ACT-7", "CL-UNO-5")
def test_mixbot_rules_play_a_wd4_freely_without_challenge_or_catch() -> None:
    hands = [["W4", "R5", "G1"], ["Y1", "Y2"], ["B1", "B2"]]
    game = _position(hands, "R3", draw=["G7", "B7", "B8", "B9"])
    assert Play(Card.parse("W4"), color=Color.BLUE) in game.legal_actions  # red held: still legal
    game.play("W4:B", 0)
    # no response phase: the victim draws 4 at once and loses its turn
    assert game.phase is Phase.PLAY and game.active_seat == 2 and game.hand_sizes == (2, 6, 2)
    assert not any(isinstance(a, Challenge) for a in game.legal_actions)
    game.play("B1", 2)  # one card left, no call: nobody may catch it (uno_penalty 0)
    for seat in (0, 1):
        assert not any(isinstance(a, Catch) for a in game.legal_action_list(seat))
    official = _position(hands, "B3", rules=Ruleset.preset("official"), active=2)
    official.play("B1", 2)
    assert Catch(2) in official.legal_action_list(0)
    assert Ruleset.preset("official").replace(wd4_rule="free", uno_penalty=0) == MIXBOT_RULES


# ---------------------------------------------------------------- random-stuck


def test_random_stuck_draws_only_when_stuck_and_always_plays_what_it_drew() -> None:
    for seats, other in ((2, "random-stuck"), (4, "heuristic")):
        rec = _rounds(RandomStuckBot(), other, seats, rounds=12)
        draws = plays_drawn = 0
        for view, legal, choice in rec.seen:
            assert choice is not None and choice in legal
            playable = any(isinstance(a, Play) for a in legal)
            if isinstance(choice, Draw):
                draws += 1
                assert not playable, (view.hand, view.top_card)
            if view.phase is Phase.PLAY_DRAWN:
                assert isinstance(choice, Play) and choice.card == view.drawn_card
                plays_drawn += 1
        assert draws > 10 and plays_drawn > 0


def test_random_stuck_picks_a_card_of_the_hand_at_random_then_a_variant() -> None:
    game = _position([["R7", "R7", "R2", "W", "G5"], ["Y1"]], "R3")
    picks = Counter(_choice(RandomStuckBot(), game, seed=i) for i in range(1200))
    cards: Counter[str] = Counter()
    for pick, k in picks.items():
        cards[pick.split(":")[0]] += k
    assert set(cards) == {"R7", "R2", "W"}  # never G5 (not playable), never a draw
    # each copy counts: R7 2/4, R2 1/4, W 1/4 (in four colors)
    assert 540 < cards["R7"] < 660 and 240 < cards["R2"] < 360 and 240 < cards["W"] < 360
    assert {p for p in picks if p.startswith("W")} == {"W:R", "W:Y", "W:G", "W:B"}


def test_random_stuck_flags_uno_and_never_catches() -> None:
    game = _position([["R7", "G5"], ["Y1", "Y2"]], "R3", rules=Ruleset.preset("official"))
    assert _choice(RandomStuckBot(), game) == "R7!"
    game.play("R7", 0)  # no flag: seat 0 is exposed
    assert Catch(0) in game.legal_action_list(1)
    assert RandomStuckBot().choose(game.view(1), game.legal_action_list(1), random.Random(0)) is not Catch(0)


# ---------------------------------------------------------------- mixbot


@pytest.mark.parametrize(
    ("hand", "top", "expected"),
    [
        # Wild only with at most 2 non-wild cards, else it draws
        (["W", "G1", "G2", "B4"], "R3", "draw"),
        (["W", "G1", "G2"], "R3", "W:G"),
        # Wild Draw Four only with at most 4 non-wild cards
        (["W4", "G1", "G2", "B4", "B5", "Y6"], "R3", "draw"),
        (["W4", "G1", "G2", "G4", "B5"], "R3", "W4:G"),
        # the ranking: Draw Two > Skip > number > Reverse > Wild Draw Four > Wild
        (["RD2", "RS", "R5", "RR", "G1", "G2"], "R3", "RD2"),
        (["RS", "R5", "RR", "G1", "G2", "G3"], "R3", "RS"),
        (["R5", "RR", "G1"], "R3", "R5"),
        (["RR", "W4", "G1"], "R3", "RR"),
        (["W4", "W", "G1"], "R3", "W4:G"),
        # the color held most first: G7 (green, 3 held) before R7 (red, 1 held)
        (["R7", "G7", "G2", "G5"], "Y7", "G7"),
        # diversity: R5 matches R8 and G5, R8 only R5
        (["R5", "R8", "G5", "B1"], "R3", "R5"),
    ],
)
def test_mixbot_follows_the_published_rules(hand: list[str], top: str, expected: str) -> None:
    game = _position([hand, ["Y1", "Y2", "Y3"]], top, draw=["B9"])
    assert _choice(MixBot(), game) == expected


def test_mixbot_attacks_a_next_seat_with_one_card() -> None:
    # Draw Two > Wild Draw Four > Skip > Reverse when the next seat holds one card
    assert _choice(MixBot(), _position([["R5", "RR", "RS", "W4", "G1"], ["Y1"]], "R3")) == "W4:R"
    assert _choice(MixBot(), _position([["R5", "RD2", "W4", "G1"], ["Y1"]], "R3")) == "RD2"
    assert _choice(MixBot(), _position([["R5", "RR", "G1"], ["Y1"]], "R3")) == "RR"
    # the limits on wilds do not hold a Wild Draw Four back then, unless attack_limits says so
    many = _position([["R5", "R6", "R7", "G1", "B1", "W4"], ["Y1"]], "R3")
    assert _choice(MixBot(), many) == "W4:R"
    assert _choice(make_bot("mixbot:attack_limits=true"), many) in ("R5", "R6", "R7")
    # three seats: the attack is on the next seat only
    three = _position([["R5", "RR", "G1"], ["Y1", "Y2"], ["B1"]], "R3")
    assert _choice(MixBot(), three) == "R5"


def test_mixbot_plays_a_drawn_wild_only_with_two_cards_or_fewer() -> None:
    for hand, expected in ((["G1", "B2"], "pass"), (["G1"], "W:G!")):
        game = _position([hand, ["Y1", "Y2"]], "R3", draw=["W"])
        game.play("draw", 0)
        assert game.phase is Phase.PLAY_DRAWN
        assert _choice(MixBot(), game) == expected
    game = _position([["G1", "B2"], ["Y1", "Y2"]], "R3", draw=["R9"])
    game.play("draw", 0)
    assert _choice(MixBot(), game) == "R9"


def test_mixbot_options_and_goal() -> None:
    points = make_bot("mixbot:goal=points")
    assert isinstance(points, MixBot) and (points.wild_limit, points.wd4_limit) == (5, 3)
    assert make_bot("mixbot:wd4_limit=1").wd4_limit == 1  # type: ignore[attr-defined]
    # points: Skip > number > Draw Two
    assert _choice(points, _position([["RD2", "R5", "G1", "G2"], ["Y1", "Y2"]], "R3")) == "R5"
    with pytest.raises(ValueError, match="goal"):
        make_bot("mixbot:goal=fun")


@pytest.mark.rule("CL-ACT-10")
def test_mixbot_never_challenges() -> None:
    game = _position([["W4", "R5", "G1"], ["Y1", "Y2"]], "R3", rules=Ruleset.preset("official"))
    game.play("W4:B", 0)
    assert game.phase is Phase.RESPOND and Challenge() in game.legal_action_list(1)
    assert _choice(MixBot(), game, seat=1) == str(Accept())


def test_mixbot_decides_legally_under_its_rules() -> None:
    rec = _rounds(MixBot(), "random-stuck", 4, rounds=10)
    assert len(rec.seen) > 50
    for view, legal, choice in rec.seen:
        assert choice is not None and choice in legal
        if view.phase is Phase.PLAY_DRAWN and isinstance(choice, Pass):
            assert view.drawn_card is not None and view.drawn_card.is_wild and len(view.hand) > 2


@pytest.mark.parametrize(("preset", "seats"), [("official", 4), ("house", 3), ("no-mercy", 4),
                                               ("official-112-swap", 3), ("partners", 4)])
def test_anchor_bots_answer_legally_under_every_preset(preset: str, seats: int) -> None:
    # the arena raises on a None turn answer or an illegal action
    result = run_arena(preset, seats, ["mixbot", "random-stuck"], games=seats, seed=2)
    assert result.games == seats and result.unfinished == 0


def test_mixbot_beats_random_stuck_heads_up() -> None:
    result = run_arena(MIXBOT_RULES, 2, ["mixbot", "random-stuck"], games=400, seed=5)
    assert result.row("mixbot").ci_low > 0.5
