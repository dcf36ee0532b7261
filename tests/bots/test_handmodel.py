"""unotable.bots.handmodel and the weighted samples: what a seat's plays say about its hand, the
samples that follow those weights and still respect the record, and the fitter that finds them."""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from research import fit_hands
from unotable import Game, Ruleset
from unotable.bots.determinize import Determinizer, Tracker
from unotable.bots.handmodel import FEATURES, HAND_HEADS_UP, HAND_TABLE, HandModel
from unotable.bots.ismcts import IsmctsBot
from unotable.cards import Card


def ids(*cards: str) -> list[int]:
    return [Card.parse(c).id for c in cards]


def names(model: HandModel, seat: int, size: int, color: int, card: str) -> set[str]:
    return {FEATURES[i] for i in model.features(seat, size, color, Card.parse(card).id)}


def watch(game: Game, model: HandModel, *moves: tuple[str, int]) -> None:
    for action, seat in moves:
        model.observe([e for e in game.play(action, seat) if e.visible_to(0)])


def test_a_named_color_is_likelier_and_a_color_drawn_on_is_rarer() -> None:
    game = Game.from_position({
        "hands": [["R1", "G2", "Y5"], ["W", "B3", "B7", "G1"], ["R2", "R3", "Y1", "Y2"]],
        "discard": ["R7"], "draw": ["Y8", "G9", "G3", "B2"], "fill": "draw",
    })
    model = HandModel()
    watch(game, model, ("R1", 0), ("W:B", 1))
    assert names(model, 1, 3, 3, "B4") == {"current3", "named3"}
    assert names(model, 1, 3, 3, "R5") == {"high3"}
    blue, red = model.weights(1, 3, 3, ids("B2", "R2"))
    assert blue > 1.5 * red  # it named blue: the heuristic names the color it holds most of
    # seat 2 draws on blue 2: a heuristic draws only when nothing fits
    watch(game, model, ("draw", 2))
    assert names(model, 2, 5, 3, "B4") == {"current3", "drew_color3"}
    assert names(model, 2, 5, 3, "W") == {"wild4", "drew_wild3"}
    assert names(model, 2, 5, 3, "G1") == set()
    blue, green, wild = model.weights(2, 5, 3, ids("B4", "G1", "W"))
    assert blue < green / 4 and wild < green / 4
    assert max(model.weights(1, 3, 3, ids("B4"))) > green  # the other seat's record is its own


def test_a_swap_of_hands_forgets_what_was_read() -> None:
    rules = Ruleset.preset("official").replace(seven_zero=True)
    game = Game.from_position({
        "ruleset": rules.to_dict(),
        "hands": [["R1", "B2", "B5"], ["W", "B3", "B7", "G1"], ["R2", "R3", "Y7", "Y2"]],
        "discard": ["R5"], "draw": ["Y8", "Y9", "Y3", "Y4"], "fill": "draw",
    })
    model = HandModel()
    watch(game, model, ("R1", 0), ("W:B", 1), ("draw", 2))
    if game.active_seat == 2:  # the drawn yellow card does not fit: it keeps it
        watch(game, model, ("pass", 2))
    assert "named3" in names(model, 1, 3, 3, "B4") and model.drew
    watch(game, model, ("B2", 0), ("B7>2", 1))  # seat 1's 7 swaps its hand with seat 2's
    assert names(model, 1, 5, 3, "B4") == {"current3"} and not model.drew and not model.named


def test_a_seat_that_spares_a_seat_about_to_go_out_holds_no_attack_that_fit() -> None:
    game = Game.from_position({
        "hands": [["R1", "R2", "Y5"], ["R3", "RS", "GD2", "GS", "Y9"], ["R6", "B6"]],
        "discard": ["R7"], "draw": ["Y8", "G9", "G3", "B2"], "fill": "draw",
    })
    model = HandModel()
    model.sync(game.view(0))  # a position has no deal events: the sizes come from the view
    watch(game, model, ("R1", 0), ("R3", 1))  # seat 2 holds two cards; seat 1 could have skipped it
    assert "spared3" in names(model, 1, 4, 0, "RS")  # red was current
    assert "spared3" in names(model, 1, 4, 0, "RD2") and "spared3" in names(model, 1, 4, 0, "W4")
    assert "spared3" not in names(model, 1, 4, 0, "YD2")  # neither red nor a 1
    assert "spared3" not in names(model, 1, 4, 0, "GS")  # green, and not the 1's rank: not playable then
    spared, other = model.weights(1, 4, 0, ids("RD2", "GS"))
    assert spared < other / 5
    watch(game, model, ("R6", 2), ("R2", 0), ("RS", 1))  # now it attacks: the reading is dropped
    assert "spared3" not in names(model, 1, 3, 0, "RD2")


def test_weights_need_one_entry_per_feature() -> None:
    assert len(HAND_TABLE) == len(HAND_HEADS_UP) == len(FEATURES)
    with pytest.raises(ValueError, match="FEATURES"):
        HandModel(table=(0.0,))


def test_a_heavy_card_is_dealt_to_its_seat_and_even_weights_deal_evenly() -> None:
    game = Game.new(seats=4, seed=7)
    view = game.view(0)
    tracker = Tracker(0)
    tracker.observe(game.events_for(0))
    det = Determinizer(view, tracker)
    target, first = det.pool[0], det.order[0]  # the seats take their picks in turn
    heavy = Determinizer(
        view, tracker, lambda s, size, cards: [1e9 if s == first and c == target else 1.0 for c in cards]
    )
    rng = random.Random(3)
    assert all(target in heavy.sample(rng).hands[first] for _ in range(200))
    with pytest.raises(ValueError, match="positive weight"):
        Determinizer(view, tracker, lambda s, size, cards: [0.0] * len(cards))
    even = Determinizer(view, tracker, lambda s, size, cards: [1.0] * len(cards))
    counts: Counter[int] = Counter()
    trials = 3000
    for _ in range(trials):
        counts.update(set(even.sample(rng).hands[1]))
    # each distinct unseen card: in seat 1's 7 cards about 7 * copies / pool of the time
    pool = Counter(det.pool)
    for card, copies in pool.items():
        expected = trials * 7 * copies / len(det.pool)
        assert abs(counts[card] - expected) < 5 * expected**0.5 + 10, (card, counts[card], expected)


def test_ismcts_uses_the_hand_model_for_the_classic_rules_only() -> None:
    game = Game.new(seats=4, seed=2)
    bot = IsmctsBot(iterations=20)
    assert bot._weigh(game.view(0)) is not None
    assert bot._weigh(Game.new(seats=4, ruleset="house", seed=2).view(0)) is None
    assert IsmctsBot(hand_model=False)._weigh(game.view(0)) is None
    no_mercy = Game.new(seats=4, ruleset="no-mercy", seed=2).view(0)
    assert IsmctsBot(hand_model=True)._weigh(no_mercy) is not None
    # the same seed, the same decision
    s = game.active_seat
    choices = set()
    for _ in range(2):
        b = IsmctsBot(iterations=60)
        b.observe(game.events_for(s))
        choices.add(b.choose(game.view(s), game.legal_actions_for(s), random.Random(4)))
    assert len(choices) == 1


def test_the_fitter_recovers_the_weights_that_dealt_the_hands() -> None:
    """research/fit_hands.py: hands dealt by known weights from pools of known features."""
    pytest.importorskip("numpy")
    truth = [0.0] * len(FEATURES)
    truth[0], truth[1] = 1.0, -1.0
    rng = random.Random(1)
    data = []
    for _ in range(3000):
        # 60 cards: 10 with feature 0, 10 with feature 1, 40 with none; a hand of 7
        cards = [(0,)] * 10 + [(1,)] * 10 + [()] * 40
        weight = [math.exp(sum(truth[f] for f in key)) for key in cards]
        keys = sorted(range(60), key=lambda i: rng.expovariate(1.0) / weight[i])
        hand = Counter(cards[i] for i in keys[:7])
        data.append([(7, n, hand[key], key) for key, n in ((((0,)), 10), ((1,), 10), ((), 40))])
    theta = fit_hands.fit(fit_hands.Data(data))
    assert abs(theta[0] - 1.0) < 0.15 and abs(theta[1] + 1.0) < 0.15
    assert all(abs(v) < 1e-6 for v in theta[2:])


def test_the_richer_fit_finds_an_interaction_the_features_alone_miss() -> None:
    """research/fit_hands.py ``--pairs``: cards holding features 0 and 1 together are kept far
    more often than either feature alone explains; the pair's weight recovers it."""
    pytest.importorskip("numpy")
    rng = random.Random(2)
    kinds = {(0,): 0.0, (1,): 0.0, (0, 1): 2.0, (): 0.0}  # log-weights: only the pair matters
    data = []
    for _ in range(2000):
        cards = [key for key in kinds for _ in range(10)]
        keys = sorted(range(len(cards)), key=lambda i: rng.expovariate(1.0) / math.exp(kinds[cards[i]]))
        hand = Counter(cards[i] for i in keys[:7])
        data.append([(7, 10, hand[key], key) for key in kinds])
    train = fit_hands.Data(data)
    pairs = fit_hands.co_occurring(train)
    assert pairs == [(0, 1)]
    alone = fit_hands.fit(fit_hands.Data(data), steps=300)
    rich = fit_hands.fit(fit_hands.with_pairs(train, pairs), steps=300)
    # (the fit's chance min(1, lam * w) understates a heavy weight a little: 1.76 for 2)
    assert 1.6 < rich[-1] < 2.1 and abs(rich[0]) < 0.1 and abs(rich[1]) < 0.1
    assert alone[0] > 0.3 and alone[1] > 0.3  # without the pair, each feature takes a share of it
    assert train.log_loss(rich) < fit_hands.Data(data).log_loss(alone) - 0.01


def test_the_fitter_reports_the_richer_model_beside_the_features_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``fit_hands.py --pairs`` prints both held-out log-losses after the fitted weights."""
    pytest.importorskip("numpy")
    assert fit_hands.main(["--rounds", "5", "--jobs", "1", "--pairs"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("held-out log-loss with ") and "without them in the same steps 0." in out[-1]
    assert out[-2].startswith("(") and len(out[-2].split(",")) == len(FEATURES)
