"""unotable.bots.determinize: samples agree with the view, conserve the cards, respect what is known,
and the tracker's inferences hold in the real hands (they are sound) under every preset."""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from unotable import Game, Phase, Ruleset
from unotable.bots import policy
from unotable.bots.determinize import Determinizer, Tracker, Weigh, playable_set, sample_state, unseen_cards
from unotable.bots.handmodel import HandModel
from unotable.cards import Card
from unotable.movegen import legal_actions
from unotable.views import player_view

CASES = [
    ("official", 4),
    ("official", 2),
    ("official-112-shuffle", 4),
    ("official-112-swap", 3),
    ("official-112-blank", 5),
    ("partners", 4),
    ("house", 4),
    ("no-mercy", 4),
    ("two-player", 2),
]
VARIANTS = {
    # sound inferences need these: a draw proves nothing when drawing with a playable card is allowed
    "strict-draw": {"may_draw_with_playable": False, "draw_until_playable": True},
    "discard-wilds": {"custom_effect": "others_discard_wilds", "seven_zero": True},
}


def positions(
    rules: Ruleset, seats: int, seed: int, limit: int = 400
) -> Iterator[tuple[Game, list[Tracker]]]:
    """A game played by the fast policy, with one tracker per seat fed that seat's events."""
    game = Game.new(seats=seats, ruleset=rules, seed=seed)
    trackers = [Tracker(s) for s in range(seats)]
    for s in range(seats):
        trackers[s].observe(game.events_for(s))
    rng = random.Random(seed)
    steps = 0
    while game.phase < Phase.ROUND_OVER and steps < limit:
        yield game, trackers
        seat = game.active_seat
        legal = game.legal_action_list(seat)
        if rng.random() < 0.2:
            action = legal[rng.randrange(len(legal))]
        else:
            action = policy.choose(game.clone_state(), seat, legal)
        events = game.play(action, seat)
        for s in range(seats):
            trackers[s].observe([e for e in events if e.visible_to(s)])
        steps += 1


def check_sample(
    game: Game, seat: int, tracker: Tracker, rng: random.Random, weigh: Weigh | None = None
) -> None:
    view = game.view(seat)
    st = tracker.sample(view, rng) if weigh is None else Determinizer(view, tracker, weigh).sample(rng)
    # the seat's own hand is exact, and everything the seat may see is unchanged
    assert st.hands[seat] == [c.id for c in view.hand]
    legal = legal_actions(st, seat) if st.phase < Phase.ROUND_OVER else []
    assert player_view(st, seat, view.table, view.seq, legal) == view
    # the other hands have the right sizes; the cards are conserved (GEN-5)
    assert [len(h) for h in st.hands] == list(game.hand_sizes)
    assert len(st.draw) == game.draw_pile_size
    deck = Counter(game.ruleset.composition())
    held = Counter(c for h in st.hands for c in h) + Counter(st.draw) + Counter(st.discard)
    held += Counter(st.set_aside)
    assert held == deck
    # no hidden hand holds a card the seat has seen (its own hand, the discard pile)
    unseen = unseen_cards(view)
    hidden = Counter(c for s, h in enumerate(st.hands) if s != seat for c in h)
    assert not hidden - unseen
    # what the record proves about the other hands holds in the sample too
    for s in range(game.seats):
        if s == seat:
            continue
        assert not Counter(tracker.known[s]) - Counter(st.hands[s])
        for excluded, m in tracker.layers[s]:
            assert sum(1 for c in st.hands[s] if c not in excluded) >= m
    # the engine continues from it: the same legal actions for the seat, and a playout ends
    real = game.legal_action_list(seat)
    assert legal_actions(st, seat) == real
    steps = 0
    while st.phase < Phase.ROUND_OVER and steps < 3000:
        policy.step(st)
        steps += 1


def check_sound(game: Game, tracker: Tracker) -> None:
    """Every inference of ``tracker`` holds in the real hands."""
    tracker.sync(game.view(tracker.seat))
    for s in range(game.seats):
        hand = [c.id for c in game.hand(s)]
        assert tracker.sizes[s] == len(hand)
        assert not Counter(tracker.known[s]) - Counter(hand), (s, tracker.known[s], hand)
        for excluded, m in tracker.layers[s]:
            assert sum(1 for c in hand if c not in excluded) >= m, (s, m, hand)


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_samples_agree_with_the_view(preset: str, seats: int) -> None:
    rng = random.Random(1)
    for seed in range(3):
        for i, (game, trackers) in enumerate(positions(Ruleset.preset(preset), seats, seed)):
            if i % 7 == 0:
                for seat in range(seats):
                    check_sample(game, seat, trackers[seat], rng)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("preset", ["official", "official-112-shuffle", "no-mercy"])
def test_inferences_are_sound(preset: str, variant: str) -> None:
    rules = Ruleset.preset(preset)
    options = dict(VARIANTS[variant])
    if rules.is_no_mercy:
        options.pop("custom_effect", None)
    rules = rules.replace(**options)
    layers = 0
    rng = random.Random(2)
    for seed in range(6):
        for i, (game, trackers) in enumerate(positions(rules, 4, seed)):
            for t in trackers:
                check_sound(game, t)
                layers += sum(len(x) for x in t.layers)
            if i % 11 == 0:
                check_sample(game, game.active_seat, trackers[game.active_seat], rng)
    assert layers > 0  # the variants make inferences to check


def test_a_draw_without_a_playable_card_excludes_the_playable_cards() -> None:
    # RULE: CL-DRAW-1 (may_draw_with_playable false: a draw proves the hand held nothing playable)
    rules = Ruleset.preset("official").replace(may_draw_with_playable=False)
    game = Game.from_position({
        "ruleset": rules.to_dict(),
        "hands": [["B1", "B2"], ["G5", "Y3", "B9"], ["R1", "R2"]],
        "discard": ["R7"],
        "draw": ["Y8", "G2"],
        "active": 1,
    })
    tracker = Tracker(0)
    tracker.sync(game.view(0))  # a tracker that joins mid-round starts from the view
    events = game.play("draw", 1)
    tracker.observe([e for e in events if e.visible_to(0)])
    tracker.sync(game.view(0))
    assert tracker.layers[1] == [(playable_set(Card.parse("R7").id, 0), 3)]
    # every sample deals seat 1 three cards that are neither red, nor 7s, nor wilds, plus one more
    for seed in range(20):
        st = tracker.sample(game.view(0), random.Random(seed))
        bad = playable_set(Card.parse("R7").id, 0)
        assert sum(1 for c in st.hands[1] if c not in bad) >= 3


def test_a_hand_given_away_is_known() -> None:
    # RULE: HOUSE-9 (the seat that swapped knows the hand it gave)
    game = Game.from_position({
        "ruleset": "house",
        "hands": [["R7", "G3", "Y4"], ["B5", "B6"], ["Y1", "Y2"]],
        "discard": ["R2"],
        "draw": ["G9", "G8"],
    })
    tracker = Tracker(0)
    tracker.sync(game.view(0))
    events = game.play("R7>1", 0)
    tracker.observe([e for e in events if e.visible_to(0)])
    tracker.sync(game.view(0))
    assert sorted(tracker.known[1]) == sorted(Card.parse(c).id for c in ("G3", "Y4"))
    st = tracker.sample(game.view(0), random.Random(3))
    assert sorted(st.hands[1]) == sorted(tracker.known[1])
    assert sorted(st.hands[0]) == sorted(Card.parse(c).id for c in ("B5", "B6"))


def test_a_sample_without_a_record_uses_the_view_alone() -> None:
    game = Game.new(seats=3, seed=9)
    view = game.view(1)
    st = sample_state(view, random.Random(0))
    assert player_view(st, 1, view.table, view.seq, legal_actions(st, 1)) == view
    det = Determinizer(view)
    assert det.sample(random.Random(5)).hands == det.sample(random.Random(5)).hands


def _draw_twice(rules: Ruleset, beliefs: bool) -> tuple[Game, Tracker]:
    """Seat 1 draws on R7 holding nothing playable, seats 2 and 0 play R1 and B1, seat 1 draws again."""
    game = Game.from_position({
        "ruleset": rules.to_dict(),
        "hands": [["B1", "B2", "B3"], ["G5", "Y3", "G9"], ["R1", "R2", "R3"]],
        "discard": ["R7"],
        "draw": ["Y6", "G2", "Y8"],
        "active": 1,
    })
    tracker = Tracker(0, beliefs=beliefs)
    tracker.sync(game.view(0))
    for action, seat in (("draw", 1), ("R1", 2), ("B1", 0), ("draw", 1)):
        events = game.play(action, seat)
        tracker.observe([e for e in events if e.visible_to(0)])
    tracker.sync(game.view(0))
    return game, tracker


def test_a_second_draw_keeps_both_inferences() -> None:
    # RULE: CL-DRAW-1 (each draw proves the hand held nothing playable; the second one used to be
    # dropped: the tracker counted the drawn card before recording the whole hand's inference)
    rules = Ruleset.preset("official").replace(may_draw_with_playable=False)
    game, tracker = _draw_twice(rules, beliefs=False)
    on_r7 = playable_set(Card.parse("R7").id, 0)
    on_b1 = playable_set(Card.parse("B1").id, 3)
    assert Card.parse("B1").color == 3 and game.view(0).current_color == 3
    assert tracker.sizes[1] == 5
    # the four cards held at the second draw avoid what was playable on B1 (and on R7: three of them)
    assert tracker.layers[1] == [(on_b1, 4), (on_r7 | on_b1, 3)]
    check_sound(game, tracker)
    for seed in range(20):
        st = tracker.sample(game.view(0), random.Random(seed))
        assert sum(1 for c in st.hands[1] if c not in on_b1) >= 4
        assert sum(1 for c in st.hands[1] if c not in on_r7 | on_b1) >= 3


def test_beliefs_read_a_drawn_card_not_played_as_unplayable() -> None:
    # under beliefs a seat draws only when stuck and plays a playable card it drew: a card drawn
    # and kept (the turn went on without its play) was unplayable, so the whole hand avoids the set
    game, tracker = _draw_twice(Ruleset.preset("official"), beliefs=True)
    on_r7 = playable_set(Card.parse("R7").id, 0)
    on_b1 = playable_set(Card.parse("B1").id, 3)
    assert game.active_seat == 2
    assert tracker.layers[1] == [(on_b1, 5), (on_r7 | on_b1, 4)]
    check_sound(game, tracker)
    # without beliefs the same draws prove nothing (CL-DRAW-1: drawing with a playable card is legal)
    assert _draw_twice(Ruleset.preset("official"), beliefs=False)[1].layers[1] == []


@pytest.mark.parametrize(("preset", "seats"), [("official", 4), ("official", 2), ("official-112-blank", 5)])
def test_weighted_samples_agree_with_the_view_and_the_record(preset: str, seats: int) -> None:
    rules = Ruleset.preset(preset).replace(may_draw_with_playable=False)  # drawing proves something
    rng = random.Random(5)
    for seed in range(3):
        models = [HandModel() for _ in range(seats)]
        seen = [0] * seats
        for i, (game, trackers) in enumerate(positions(rules, seats, seed)):
            for s in range(seats):
                events = game.events_for(s)
                models[s].observe(events[seen[s]:])
                seen[s] = len(events)
            if i % 5 == 0:
                seat = game.active_seat
                view = game.view(seat)
                color = int(view.current_color) if view.current_color is not None else -1
                model = models[seat]

                def weigh(
                    s: int, size: int, cards: Any, model: HandModel = model, color: int = color
                ) -> list[float]:
                    return model.weights(s, size, color, cards)

                check_sample(game, seat, trackers[seat], rng, weigh)
