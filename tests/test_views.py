"""No hidden information leaks (NET-5, NET-6, NET-7; ARCHITECTURE principle 5).

Random games under every preset (and random house options) are played by a seeded random policy
that also acts out of turn. After every action, every seat's view and the spectator view are
serialised and compared, field by field, with what the referee says is public; every new event is
checked for who may see it and for what it carries. Card identities repeat in a deck, so the checks
are structural: a view holds exactly the whitelisted keys, each holding the public value, plus the
seat's own hand; a private event reaches only its owner and holds only that owner's cards; a public
event holds only cards that are face up. The seed and the RNG state never appear.

NET-7: two positions that differ only in the victim's hand give the same prompt (phase, active
seat) and the same public view after a draw card.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from unotable import Action, CallUno, Card, Catch, Game, Phase, Play, Ruleset, RulesetError, UnoError
from unotable.events import (
    CardPlayed,
    ChallengeReveal,
    DealerChosen,
    DrewCards,
    Event,
    FirstCard,
    HandDealt,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    NewHand,
    Revealed,
    Slipped,
)
from unotable.rules import PRESET_NAMES

SPECTATOR_KEYS = frozenset({
    "seq", "round_no", "dealer", "phase", "active", "direction", "top_card",
    "current_color", "discard_pile", "draw_pile_size", "hand_sizes", "pending_penalty", "pending_card",
    "top_player", "in_round", "knocked_out", "eliminated", "called", "exposed", "scores", "team_scores",
    "round_wins", "awaiting_color_for", "seats_to_act", "last_round", "outcome",
})
PLAYER_KEYS = SPECTATOR_KEYS | {"seat", "hand", "drawn_card", "legal"}
TABLE_KEYS = frozenset({"ruleset", "seats", "names"})

# Private events and the field naming the one seat that may see them (NET-6, CL-ACT-11).
PRIVATE: dict[type[Event], str] = {
    DrewCards: "seat", HandDealt: "seat", NewHand: "seat", ChallengeReveal: "challenger",
}
# Public events that carry cards, and the fields that carry them: all face-up cards (NET-5).
PUBLIC_CARD_FIELDS: dict[type[Event], frozenset[str]] = {
    CardPlayed: frozenset({"card"}),
    DealerChosen: frozenset({"draws"}),
    FirstCard: frozenset({"card"}),
    Slipped: frozenset({"cards"}),
    Revealed: frozenset({"card"}),
}

# (preset, seats, max_seats override)
VIEW_CASES: list[tuple[str, int, int | None]] = [
    ("official", 4, None), ("official", 10, None), ("official-112-shuffle", 5, None),
    ("official-112-swap", 3, None), ("official-112-blank", 6, None), ("two-player", 2, None),
    ("partners", 6, None), ("house", 5, None), ("no-mercy", 4, None), ("no-mercy", 9, 10),
]

_NUMBER = re.compile(r"\d+")

# Watching every view of every seat after every action is slow (the views are rebuilt from scratch
# each time), so these tests take a share of the profile's examples: 3 per case by default, 10 in CI.
_EXAMPLES = settings().max_examples

# seeds large enough that their digits cannot turn up by accident in a view
big_seeds = st.integers(min_value=2**40, max_value=2**62)
policy_seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_every_preset_is_covered() -> None:
    assert {p for p, _, _ in VIEW_CASES} == set(PRESET_NAMES)


# ------------------------------------------------------------------------------------------------
# the referee's idea of what is public


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def expected_public(game: Game, pos: dict[str, Any]) -> dict[str, Any]:
    """NET-5's public table, built from the referee's API and position (not from the view code)."""
    n = game.seats
    phase = game.phase
    awaiting = pos["color_for"] if phase is Phase.CHOOSE_COLOR else None
    color = game.current_color
    live = phase < Phase.ROUND_OVER
    # the seats that may act on public grounds: the active seat, and the seats with a call or a catch
    public_actors = [s for s in sorted(game.seats_to_act) if s == game.active_seat or any(
        isinstance(a, CallUno | Catch) for a in game.legal_actions_for(s))] if live else []
    result = game.round_result()
    outcome = game.outcome()
    return {
        "seq": game.last_seq,
        "round_no": game.round_no,
        "dealer": game.dealer,
        "phase": phase.name.lower(),
        "active": game.active_seat,
        "direction": game.direction,
        "top_card": str(game.top_card),
        "current_color": None if color is None else color.letter,
        "discard_pile": _cards(game.discard_pile),
        "draw_pile_size": game.draw_pile_size,
        "hand_sizes": list(game.hand_sizes),
        "pending_penalty": game.pending_penalty,
        "pending_card": pos["pending"]["card"] if "pending" in pos else None,
        "top_player": None if pos["top_player"] < 0 else pos["top_player"],
        "in_round": list(game.in_round),
        "knocked_out": [s in pos["knocked_out"] for s in range(n)],
        "eliminated": [s in pos["eliminated"] for s in range(n)],
        "called": [s in pos["called"] and game.hand_sizes[s] == 1 for s in range(n)],
        "exposed": [s in game.exposed for s in range(n)],
        "scores": list(game.scores),
        "team_scores": [game.scores[0], game.scores[1]] if game.ruleset.partnership else None,
        "round_wins": pos["round_wins"],
        "awaiting_color_for": awaiting,
        "seats_to_act": public_actors,
        "last_round": None if result is None else result.to_dict(),
        "outcome": None if outcome is None else outcome.to_dict(),
    }


def _is_card(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        Card.parse(value)
    except ValueError:
        return False
    return True


def _card_strings(value: Any) -> list[str]:
    if isinstance(value, list):
        return [c for v in value for c in _card_strings(v)]
    return [value] if _is_card(value) else []


class LeakChecker:
    """Checks every view and every event of one game as it is played."""

    def __init__(self, game: Game) -> None:
        self.game = game
        pos = game.to_position()
        # NET-5: neither the seed nor the RNG state may reach a seat; RNG words that are small
        # numbers could match a hand size by chance, so only the large ones are looked for.
        self.secret_ints = {pos["seed"]} | {w for w in pos["rng"] if w > 1_000_000}
        self.secret_text = str(pos["seed"])
        self.wd4_hands: dict[int, list[str]] = {}
        self.seen = 0
        self.check_new_events()
        self.check_views()

    def no_secrets(self, doc: Any) -> None:
        text = json.dumps(doc)
        assert self.secret_text not in text, "the seed reached a seat"
        leaked = {int(x) for x in _NUMBER.findall(text)} & self.secret_ints
        assert not leaked, f"RNG state reached a seat: {leaked}"

    def check_views(self) -> None:
        game = self.game
        pos = game.to_position()
        public = expected_public(game, pos)
        self.secret_ints |= {w for w in pos["rng"] if w > 1_000_000}
        table = game.table_info().to_dict()
        assert set(table) == TABLE_KEYS and table["ruleset"] == game.ruleset.to_dict()
        spectator = game.spectator_view().to_dict()
        assert set(spectator) == SPECTATOR_KEYS
        assert spectator == public
        self.no_secrets(spectator)
        for seat in range(game.seats):
            view = game.view(seat).to_dict()
            assert set(view) == PLAYER_KEYS
            assert {k: view[k] for k in SPECTATOR_KEYS} == public
            assert view["seat"] == seat
            assert view["hand"] == _cards(game.hand(seat))  # its own hand, nobody else's
            drawn = None
            if game.phase is Phase.PLAY_DRAWN and game.active_seat == seat:
                drawn = pos["drawn"]
                assert drawn in view["hand"]
            assert view["drawn_card"] == drawn
            live = game.phase < Phase.ROUND_OVER
            assert view["legal"] == ([str(a) for a in game.legal_actions_for(seat)] if live else [])
            self.no_secrets(view)
            self.check_error_text(seat, pos)

    def check_error_text(self, seat: int, pos: dict[str, Any]) -> None:
        """NET-5, NET-6: an action this seat may not make is rejected with a text that holds no
        card it may not see (another hand, the draw pile, a card another seat just drew)."""
        game = self.game
        own = _cards(game.hand(seat))
        candidates = ["draw", "pass", "accept", "challenge", "color:R", "uno",
                      *own[:2], *(c + ":R" for c in own[:2] if c.startswith("W"))]
        for text in candidates:
            try:
                game.check(text, seat)
            except UnoError as exc:
                message = str(exc)
                break
        else:
            return
        self.no_secrets({"error": message})
        allowed = set(own) | set(_cards(game.discard_pile)) | set(_card_strings(text.split(":")[0]))
        shown = {w for w in re.findall(r"[A-Z][A-Z0-9]*", message) if _is_card(w)}
        hidden = shown - allowed
        assert not hidden, f"seat {seat} was told of {hidden} in {message!r}"

    def check_new_events(self) -> None:
        game = self.game
        events = game.events
        new, self.seen = events[self.seen:], len(events)
        n = game.seats
        played: Counter[str] = Counter()
        for e in new:
            doc = e.to_dict()
            self.no_secrets(doc)
            kind = type(e)
            if kind in PRIVATE:
                owner = getattr(e, PRIVATE[kind])
                assert e.to == (owner,), f"{doc} must reach seat {owner} only"
                assert [s for s in range(n) if e.visible_to(s)] == [owner]
                assert not e.visible_to(None)
                self.check_private(e, owner)
                continue
            assert e.to is None, f"{doc} is neither public nor a known private event"
            assert all(e.visible_to(s) for s in range(n)) and e.visible_to(None)
            allowed = PUBLIC_CARD_FIELDS.get(kind, frozenset())
            for name, value in doc.items():
                if name not in allowed:
                    assert not _card_strings(value), f"public {doc} carries cards in {name}"
            if isinstance(e, CardPlayed | Slipped):
                played.update(_card_strings(doc["card" if isinstance(e, CardPlayed) else "cards"]))
            if isinstance(e, CardPlayed) and str(e.card) == "W4":  # CL-ACT-11: the hand after the play
                self.wd4_hands[e.seat] = _cards(game.hand(e.seat))
        # cards announced as played or slipped are face up on the discard pile now
        assert not played - Counter(_cards(game.discard_pile))
        # NET-6: after a swap, pass or shuffle, each seat involved gets its own new hand only
        for e in new:
            if isinstance(e, HandsSwapped | HandsPassed | HandsShuffled):
                owners = [x.seat for x in new if isinstance(x, NewHand)]
                assert owners and len(owners) == len(set(owners))
                if isinstance(e, HandsSwapped):
                    assert {e.seat, e.target} <= set(owners)

    def check_private(self, e: Event, owner: int) -> None:
        game = self.game
        if isinstance(e, ChallengeReveal):
            # CL-ACT-11: the challenged hand as it was right after the WD4, to the challenger
            assert e.challenger == owner != e.player
            assert _cards(e.cards) == self.wd4_hands[e.player]
            return
        cards = Counter(_cards(getattr(e, "cards")))  # noqa: B009
        hand = Counter(_cards(game.hand(owner)))
        if isinstance(e, NewHand):
            assert cards == hand
        elif game.in_round[owner] or game.phase >= Phase.ROUND_OVER:
            # drawn or dealt cards are in the owner's hand (unless knocked out: set aside, NM-14)
            assert not cards - hand or not game.in_round[owner]

    def after_action(self) -> None:
        self.check_new_events()
        self.check_views()

    def at_end(self) -> None:
        game = self.game
        every = game.events
        for seat in [*range(game.seats), None]:
            mine = game.events_for(seat)
            assert mine == [e for e in every if e.to is None or (seat is not None and e.to == (seat,))]
            for e in mine:
                if e.to is not None:
                    assert e.to == (seat,), f"seat {seat} got another seat's private {e.to_dict()}"
                self.no_secrets(e.to_dict())


def act(game: Game, rng: random.Random, out_of_turn: float = 0.3) -> None:
    active = game.active_seat
    others = sorted(game.seats_to_act - {active})
    seat = rng.choice(others) if others and rng.random() < out_of_turn else active
    actions: list[Action] = list(game.legal_actions_for(seat))
    if seat == active:
        plays = [a for a in actions if isinstance(a, Play)]
        if plays and rng.random() < 0.85:
            actions = plays
    game.play(rng.choice(actions), seat)


def play_watched(game: Game, policy_seed: int, max_steps: int = 400, watcher: Any = None) -> None:
    """Play up to ``max_steps`` actions (dealing new rounds as they end), watching every one (by
    default with a :class:`LeakChecker`)."""
    rng = random.Random(policy_seed)
    watch = (watcher or LeakChecker)(game)
    for _ in range(max_steps):
        if game.phase is Phase.MATCH_OVER:
            break
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        else:
            act(game, rng)
        watch.after_action()
    watch.at_end()


@pytest.mark.rule("NET-5", "NET-6", "CL-ACT-11")
@pytest.mark.parametrize(("preset", "seats", "max_seats"), VIEW_CASES,
                         ids=[f"{p}-{n}" for p, n, _ in VIEW_CASES])
@settings(max_examples=max(2, _EXAMPLES // 10))
@given(seed=big_seeds, policy_seed=policy_seeds)
def test_views_and_events_leak_nothing(preset: str, seats: int, max_seats: int | None, seed: int,
                                       policy_seed: int) -> None:
    ruleset = Ruleset.preset(preset)
    if max_seats is not None:
        ruleset = ruleset.replace(max_seats=max_seats)
    play_watched(Game.new(seats, ruleset, seed), policy_seed, max_steps=300)


@st.composite
def leaky_rulesets(draw: st.DrawFn) -> Ruleset:
    """Classic rulesets rich in private events: swaps, shuffles, challenges, custom effects."""
    deck = draw(st.sampled_from(["classic108", "classic112_swap", "classic112_shuffle", "classic112_blank"]))
    opts: dict[str, Any] = {"deck": deck}
    if deck != "classic108":
        opts["custom_effect"] = draw(st.sampled_from(["plain", "others_draw_2", "others_discard_wilds",
                                                      "extra_turn"]))
    opts.update(
        seven_zero=draw(st.booleans()),
        jump_in=draw(st.booleans()),
        stacking=draw(st.sampled_from(["none", "same_kind", "by_value"])),
        bounce_draw_two=draw(st.booleans()),
        defend_wd4_with_draw_two=draw(st.booleans()),
        first_card_swap_effect=draw(st.booleans()),
        swap_hands_last_card=draw(st.sampled_from(["win", "swap"])),
        false_catch_penalty=draw(st.sampled_from([0, 2])),
        false_uno_penalty=draw(st.sampled_from([0, 2])),
        draw_until_playable=draw(st.booleans()),
    )
    try:
        return Ruleset(**opts)
    except RulesetError:
        reject()


@pytest.mark.rule("NET-5", "NET-6")
@settings(max_examples=max(3, _EXAMPLES // 3))
@given(ruleset=leaky_rulesets(), seats=st.integers(2, 6), seed=big_seeds, policy_seed=policy_seeds)
def test_house_option_views_leak_nothing(ruleset: Ruleset, seats: int, seed: int, policy_seed: int) -> None:
    play_watched(Game.new(seats, ruleset, seed), policy_seed, max_steps=250)


class SplitChecker:
    """``Game.view_parts()`` (what a server sends: the public part once, each seat's own part) is,
    text for text with its keys in order, every seat's ``view(seat).to_dict()`` and the spectator's."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.after_action()

    def after_action(self) -> None:
        game = self.game
        parts = game.view_parts()
        assert json.dumps(parts.public) == json.dumps(game.spectator_view().to_dict())
        for seat in range(game.seats):
            assert json.dumps({**parts.public, **parts.own(seat)}) == json.dumps(game.view(seat).to_dict())

    def at_end(self) -> None:
        with pytest.raises(UnoError, match="seat 99 does not exist"):
            self.game.view_parts().own(99)


@pytest.mark.rule("NET-5", "NET-6")
@pytest.mark.parametrize(("preset", "seats", "max_seats"), VIEW_CASES,
                         ids=[f"{p}-{n}" for p, n, _ in VIEW_CASES])
def test_the_split_views_are_the_views(preset: str, seats: int, max_seats: int | None) -> None:
    """At every step of whole rounds (what a seat may see is decided by ``views.own_fields`` alone)."""
    ruleset = Ruleset.preset(preset)
    if max_seats is not None:
        ruleset = ruleset.replace(max_seats=max_seats)
    play_watched(Game.new(seats, ruleset, 7), 7, max_steps=250, watcher=SplitChecker)


def test_spectator_view_has_no_hand() -> None:
    game = Game.new(4, "official", 2**41 + 17)
    view = game.spectator_view().to_dict()
    assert set(view) == SPECTATOR_KEYS
    assert not {"hand", "drawn_card", "seat", "draw", "draw_pile", "hands", "seed", "rng"} & set(view)
    assert not hasattr(game.spectator_view(), "hand")


# ------------------------------------------------------------------------------------------------
# NET-7: prompts do not depend on what the victim holds


NET7_CASES: list[tuple[str, dict[str, Any], str, list[str], list[str]]] = [
    # (ruleset preset, options, play, victim's usable hand, victim's hand of the same size without one)
    ("official", {}, "W4:R", ["W4", "RD2", "G7"], ["G1", "G2", "G7"]),  # a challenge is always offered
    ("official", {"stacking": "same_kind"}, "RD2", ["GD2", "B1", "G7"], ["G1", "B1", "G7"]),
    ("official", {"stacking": "plus4_on_plus2"}, "RD2", ["W4", "B1", "G7"], ["G1", "B1", "G7"]),
    ("official", {"stacking": "by_value", "wd4_rule": "free"}, "W4:R", ["W4", "B1", "G7"],
     ["G1", "B1", "G7"]),
    ("official", {"bounce_draw_two": True}, "RD2", ["RS", "RR", "G7"], ["G1", "B1", "G7"]),
    ("official", {"defend_wd4_with_draw_two": True, "wd4_rule": "free"}, "W4:R", ["RD2", "B1", "G7"],
     ["G1", "B1", "G7"]),
    ("official", {}, "RD2", ["RD2", "B1", "G7"], ["G1", "B1", "G7"]),  # no response: drawn at once
    ("official", {"wd4_rule": "free"}, "W4:R", ["W4", "RD2", "G7"], ["G1", "G2", "G7"]),
    ("house", {}, "RD2", ["YD2", "Y3", "G7"], ["G1", "Y3", "G7"]),
    ("no-mercy", {}, "RD2", ["W10", "BD4", "G7"], ["G1", "B1", "G7"]),
    ("no-mercy", {}, "W6:R", ["W10", "B1", "G7"], ["G1", "B1", "G7"]),
    ("no-mercy", {"stacking": "same_kind"}, "RD4", ["GD4", "B1", "G7"], ["G1", "B1", "G7"]),
]


def _respond_position(preset: str, options: dict[str, Any], play: str, victim: list[str],
                      seats: int) -> dict[str, Any]:
    card = play.split(":")[0]
    hands = [[card, "Y3", "Y4"], victim] + [[f"B{i + 4}"] * 2 for i in range(seats - 2)]
    ruleset = Ruleset.preset(preset).replace(**options)
    return {"ruleset": ruleset.to_dict(), "hands": hands, "discard": ["R5"], "draw": [], "fill": "draw",
            "active": 0, "dealer": seats - 1}


def _public_after(doc: dict[str, Any], play: str) -> tuple[Game, dict[str, Any], list[dict[str, Any]]]:
    game = Game.from_position(doc)
    events = [e.to_dict() for e in game.play(play) if e.to is None]
    return game, game.spectator_view().to_dict(), events


@pytest.mark.rule("NET-7", "CL-ACT-8")
@pytest.mark.parametrize(("preset", "options", "play", "usable", "unusable"), NET7_CASES)
@pytest.mark.parametrize("seats", [2, 3, 5])
def test_prompts_do_not_depend_on_the_victims_hand(
    preset: str, options: dict[str, Any], play: str, usable: list[str], unusable: list[str], seats: int
) -> None:
    a, view_a, events_a = _public_after(_respond_position(preset, options, play, usable, seats), play)
    b, view_b, events_b = _public_after(_respond_position(preset, options, play, unusable, seats), play)
    assert (a.phase, a.active_seat) == (b.phase, b.active_seat)
    assert view_a == view_b
    assert events_a == events_b
    assert a.view(0).to_dict() == b.view(0).to_dict()
    if a.phase is Phase.RESPOND:
        victim = a.active_seat
        assert "accept" in a.legal_actions and "accept" in b.legal_actions
        # the usable hand really could respond, the other could only accept (or challenge)
        plays_a = [x for x in a.legal_actions_for(victim) if isinstance(x, Play)]
        plays_b = [x for x in b.legal_actions_for(victim) if isinstance(x, Play)]
        assert not plays_b
        if "challenge" not in a.legal_actions:
            assert plays_a
        # accepting looks the same from outside too
        pub_a = [e.to_dict() for e in a.play("accept") if e.to is None]
        pub_b = [e.to_dict() for e in b.play("accept") if e.to is None]
        assert pub_a == pub_b
        assert a.spectator_view().to_dict() == b.spectator_view().to_dict()


@st.composite
def respond_rulesets(draw: st.DrawFn) -> Ruleset:
    if draw(st.booleans()):
        opts: dict[str, Any] = dict(
            deck="classic108",
            wd4_rule=draw(st.sampled_from(["challenge", "strict", "free"])),
            bounce_draw_two=draw(st.booleans()),
            defend_wd4_with_draw_two=draw(st.booleans()),
        )
    else:
        opts = {"deck": "no_mercy168", "max_seats": 10}
    opts.update(
        stacking=draw(st.sampled_from(["none", "same_kind", "plus4_on_plus2", "by_value"])),
        stack_sum=draw(st.booleans()),
        jump_in=draw(st.booleans()),
    )
    try:
        return Ruleset(**opts)
    except RulesetError:
        reject()


CLASSIC_RESPONSES = ["W4", "RD2", "GD2", "RS", "RR", "YD2"]
NO_MERCY_RESPONSES = ["W10", "W6", "WR4", "RD2", "GD4", "RD4"]
CLASSIC_FILLER = ["G1", "G2", "G3", "G4", "G5", "G6"]
NO_MERCY_FILLER = ["G1", "G2", "G3", "G4", "G5", "G6"]


@pytest.mark.rule("NET-7", "CL-ACT-8")
@given(ruleset=respond_rulesets(), data=st.data(), seats=st.integers(2, 6))
def test_prompt_shape_is_independent_of_the_victims_hand(ruleset: Ruleset, data: st.DataObject,
                                                          seats: int) -> None:
    if ruleset.is_no_mercy:
        play = data.draw(st.sampled_from(["RD2", "RD4", "W6:R", "W10:R", "WR4:R"]), label="play")
        pool, filler = NO_MERCY_RESPONSES, NO_MERCY_FILLER
    else:
        play = data.draw(st.sampled_from(["RD2", "W4:R"]), label="play")
        pool, filler = CLASSIC_RESPONSES, CLASSIC_FILLER
    k = data.draw(st.integers(1, len(pool)), label="size")
    usable = data.draw(st.permutations(pool), label="usable")[:k]
    unusable = filler[:k]
    doc = {"ruleset": ruleset.to_dict(), "hands": [[play.split(":")[0], "Y3", "Y4"], usable]
           + [[f"B{i + 4}"] * 2 for i in range(seats - 2)], "discard": ["R5"], "fill": "draw", "active": 0}
    other = dict(doc, hands=[doc["hands"][0], unusable, *doc["hands"][2:]])
    a, view_a, events_a = _public_after(doc, play)
    b, view_b, events_b = _public_after(other, play)
    assert (a.phase, a.active_seat) == (b.phase, b.active_seat)
    assert view_a == view_b and events_a == events_b
