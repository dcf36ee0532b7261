"""The search inside the core (native/src/search.hpp, unotable/bots/native_search.py): its worlds
are consistent with what the seat knows, it never reads what the seat cannot see, and ismcts uses
it when the core is installed."""
from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from unotable import Game, Phase, Ruleset
from unotable.bots import make_bot, native_search
from unotable.bots.determinize import Tracker
from unotable.bots.heuristic import HeuristicBot
from unotable.bots.ismcts import IsmctsBot, _turn_candidates, mixbot_rules
from unotable.bots.mixbot import MIXBOT_RULES
from unotable.events import Event

pytest.importorskip("unotable_native._search",
                    reason="the native core is not built: `pip install -e native/`")

Decision = tuple[Game, int, list[Event]]


def _positions(preset: Ruleset | str, seats: int, seed: int, every: int = 3) -> list[Decision]:
    """Decisions of a heuristic self-play round where the active seat has two candidates or more:
    (the game at that decision, the seat, every event that seat has seen)."""
    game = Game.new(seats=seats, ruleset=preset, seed=seed)
    bots = [HeuristicBot() for _ in range(seats)]
    for s, bot in enumerate(bots):
        bot.observe(game.events_for(s))
    rng = random.Random(seed)
    out: list[Decision] = []
    steps = 0
    while game.phase < Phase.ROUND_OVER and steps < 400:
        seat = game.active_seat
        legal = game.legal_actions_for(seat)
        view = game.view(seat)
        if steps % every == 0 and len(_turn_candidates(legal, len(view.hand))) > 1:
            out.append((game.copy(), seat, game.events_for(seat)))
        action = bots[seat].choose(view, legal, rng)
        assert action is not None
        events = game.play(action, seat)
        for s, bot in enumerate(bots):
            bot.observe([e for e in events if e.visible_to(s)])
        steps += 1
    return out


def _tracker(seat: int, events: list[Event]) -> Tracker:
    t = Tracker(seat)
    t.observe(events)
    return t


def _hidden_swapped(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position as ``seat`` sees it, with every card it cannot see dealt again: the other
    hands (of the same sizes) and the draw pile from the same cards, and another RNG."""
    doc: dict[str, Any] = game.to_position()
    others = [s for s in range(len(doc["hands"])) if s != seat]
    hidden = [c for s in others for c in doc["hands"][s]] + list(doc["draw"])
    rng.shuffle(hidden)
    k = 0
    for s in others:
        m = len(doc["hands"][s])
        doc["hands"][s] = hidden[k:k + m]
        k += m
    doc["draw"] = hidden[k:]
    doc["seed"] = rng.getrandbits(60)
    doc.pop("rng", None)
    swapped = Game.from_position(doc)
    assert replace(swapped.view(seat), seq=0) == replace(game.view(seat), seq=0)
    return swapped


@pytest.mark.parametrize(("preset", "seats"),
                         [("official", 2), ("official", 4), ("house", 3), (MIXBOT_RULES, 6)])
def test_the_decision_does_not_read_hidden_cards(preset: Ruleset | str, seats: int) -> None:
    positions = _positions(preset, seats, seed=11)
    assert positions
    for game, seat, events in positions[:12]:
        swapped = _hidden_swapped(game, seat, random.Random(len(events)))
        results = []
        for g in (game, swapped):
            view = g.view(seat)
            cands = _turn_candidates(g.legal_actions_for(seat), len(view.hand))
            res = native_search.search(view, cands, tracker=_tracker(seat, events), seed=99, iterations=300,
                                       policy="fast", opponents="fast", horizon=4)
            results.append(res)
        assert results[0] == results[1]
        # the bot as a whole, from the same record and generator, with each kind of prior and
        # playout model (mixbot2's counting reads the same events)
        for options in ({"weights": "hands+bounds"},
                        {"weights": "bounds", "floor": 0.01, "prior": "mixbot2-tuned",
                         "playout": "mixbot2-tuned", "opponents": "mixbot"}):
            actions = []
            for g in (game, swapped):
                bot = IsmctsBot(engine="native", iterations=300, **options)  # type: ignore[arg-type]
                bot.observe(events)
                actions.append(bot.choose(g.view(seat), g.legal_actions_for(seat), random.Random(5)))
            assert actions[0] == actions[1], options


@pytest.mark.parametrize("policy", ["mixbot", "mixbot2", "mixbot2-tuned"])
def test_the_mixbot_playout_models_play_rounds_to_their_end(policy: str) -> None:
    """Every playout of a mixbot model ends the round (no cap reached): each candidate's mean is
    a share of won playouts, and the same seed gives the same search."""
    for game, seat, events in _positions(MIXBOT_RULES, 3, seed=4)[:4]:
        view = game.view(seat)
        cands = _turn_candidates(game.legal_actions_for(seat), len(view.hand))
        runs = [native_search.search(view, cands, tracker=_tracker(seat, events), seed=7, iterations=120,
                                     policy=policy, opponents=policy, keep_results=True)
                for _ in range(2)]
        assert runs[0] == runs[1]
        res = runs[0]
        assert res.results is not None
        assert all(r in (0.0, 1.0) for per in res.results for r in per)
        assert res.steps >= res.playouts  # each playout took actions: it was played, not skipped


def test_the_tuned_playout_model_plays_with_its_own_limits() -> None:
    """mixbot2-tuned holds a Wild Draw Four until it has one other card (wd4_limit 1), mixbot2
    plays it with up to four: with a Wild Draw Four and two plain cards that cannot follow, the
    tuned model draws where mixbot2 plays it, so their playouts differ."""
    assert native_search._mix_params("mixbot2") == ()
    tuned = native_search._mix_params("mixbot2-tuned")
    assert len(tuned) == 15 and tuned[:3] == (3, 1, 2)
    differ = 0
    for game, seat, events in _positions(MIXBOT_RULES, 2, seed=9)[:6]:
        view = game.view(seat)
        cands = _turn_candidates(game.legal_actions_for(seat), len(view.hand))
        means = [native_search.search(view, cands, tracker=_tracker(seat, events), seed=3, iterations=200,
                                      policy="fast", opponents=name).mean
                 for name in ("mixbot2", "mixbot2-tuned")]
        differ += means[0] != means[1]
    assert differ > 0


def test_the_prior_bot_decides_where_the_search_cannot_tell() -> None:
    """With prior_z so high that nothing beats the prior, ismcts plays its prior bot's choice;
    the prior bot sees the same events (mixbot2's counting). ``auto`` is mixbot2-tuned under
    MixBot's rules."""
    searched = 0
    for (game, seat, events), prior in itertools.product(_positions(MIXBOT_RULES, 2, seed=6)[:6],
                                                         ("mixbot2-tuned", "auto")):
        bot = IsmctsBot(engine="native", iterations=60, prior=prior, prior_z=1e9)
        bot.observe(events)
        legal = game.legal_actions_for(seat)
        chosen = bot.choose(game.view(seat), legal, random.Random(2))
        if bot.last_iterations:  # searched: the prior's choice stood
            searched += 1
            prior_bot = make_bot("mixbot2-tuned")
            prior_bot.observe(events)
            view = game.view(seat)
            rng = random.Random(2)  # IsmctsBot._prior seeds the prior's generator from the first draw
            cands = _turn_candidates(legal, len(view.hand))
            want = prior_bot.choose(view, cands, random.Random(rng.getrandbits(32)))
            assert chosen == want
    assert searched
    assert mixbot_rules(MIXBOT_RULES)  # where auto takes mixbot2-tuned; the heuristic elsewhere
    assert not any(mixbot_rules(Ruleset.preset(p)) for p in ("official", "house", "no_mercy"))
    with pytest.raises(ValueError, match="prior must be one of"):
        make_bot("ismcts:prior=rule-v2")
    with pytest.raises(ValueError, match="floor"):
        make_bot("ismcts:floor=0")


@pytest.mark.parametrize(("preset", "seats"),
                         [("official", 4), ("house", 4), ("no-mercy", 3), ("partners", 4)])
def test_worlds_are_consistent_with_the_seat_knowledge(preset: str, seats: int) -> None:
    rules = Ruleset.preset(preset)
    deck = Counter(rules.composition())
    for game, seat, events in _positions(preset, seats, seed=3, every=5)[:8]:
        view = game.view(seat)
        tracker = _tracker(seat, events)
        det_needs = native_search.describe(view, tracker)["needs"]
        for world in native_search.sample_worlds(view, tracker, seed=7, count=20):
            hands = world["hands"]
            assert hands[seat] == [c.id for c in view.hand]
            assert [len(h) for h in hands] == list(view.hand_sizes)
            every = Counter(c for h in hands for c in h)
            every.update(world["draw"])
            every.update(world["set_aside"])
            every.update(c.id for c in view.discard_pile)
            assert every == deck
            assert len(world["draw"]) == view.draw_pile_size
            for s in range(seats):
                if s == seat:
                    continue
                for c in tracker.known[s][: view.hand_sizes[s]]:
                    assert c in hands[s]
                total = 0
                for excluded, want in det_needs[s]:  # the chain: each set's count holds cumulatively
                    total += want
                    assert sum(1 for c in hands[s] if c not in excluded) >= min(total, len(hands[s]))


def test_weights_steer_the_deal() -> None:
    game = Game.new(seats=2, seed=4)
    view = game.view(0)
    other = [1.0] * 74
    wild_ids = range(64, 74)
    for c in wild_ids:
        other[c] = 1e-6
    worlds = native_search.sample_worlds(view, weights=[None, other], seed=1, count=200)
    wilds = sum(1 for w in worlds for c in w["hands"][1] if c >= 64)
    uniform = native_search.sample_worlds(view, seed=1, count=200)
    assert wilds < sum(1 for w in uniform for c in w["hands"][1] if c >= 64) / 5


def test_same_seed_same_result_and_budget() -> None:
    game, seat, events = _positions("official", 4, seed=5)[0]
    view = game.view(seat)
    cands = _turn_candidates(game.legal_actions_for(seat), len(view.hand))
    a = native_search.search(view, cands, tracker=_tracker(seat, events), seed=1, iterations=400)
    b = native_search.search(view, cands, tracker=_tracker(seat, events), seed=1, iterations=400)
    assert a == b
    assert a.playouts <= 400 and a.worlds * len(cands) == a.playouts
    assert sum(a.visits) == a.playouts and 0 <= a.choice < len(cands)
    timed = native_search.search(view, cands, tracker=_tracker(seat, events), seed=1, iterations=10**9,
                                 ms=5.0)
    assert timed.worlds >= 1 and timed.playouts < 10**9
    halved = native_search.search(view, cands, seed=1, iterations=400, halving=True)
    assert halved.playouts <= 400


def test_ismcts_uses_the_core_and_keeps_its_python_search() -> None:
    assert make_bot("ismcts").native
    assert not make_bot("ismcts:engine=python").native
    assert make_bot("best").name == "ismcts"
    assert (make_bot("best").prior, make_bot("best").weights) == ("auto", "auto")
    game = Game.new(seats=3, seed=8)
    seat = game.active_seat
    for spec in ("ismcts:iterations=60", "ismcts:engine=python:iterations=20", "ismcts:ms=5"):
        bot = make_bot(spec)
        bot.observe(game.events_for(seat))
        action = bot.choose(game.view(seat), game.legal_actions_for(seat), random.Random(0))
        assert action in game.legal_actions
    with pytest.raises(ValueError, match="engine"):
        make_bot("ismcts:engine=gpu")
    with pytest.raises(ValueError, match="playout"):
        make_bot("ismcts:playout=heuristic")


def test_a_searched_answer_to_a_wild_draw_four_reads_the_record() -> None:
    # RULE: CL-ACT-12 (as tests/bots/test_challenge.py: with beliefs the worlds hold a legal Wild
    # Draw Four, so the search accepts: a lost challenge draws two more)
    from tests.bots.test_challenge import SEAT1, _ismcts_at

    position = {"hands": [["R5", "R2", "G5", "B6", "Y7", "G8", "B9"], [*SEAT1, "W4"]], "discard": ["R9"],
                "draw": ["G3"], "active": 1}
    game, bot = _ismcts_at(position, [("W4:G", 1)], reckless=0.2, beliefs=True, search_challenge=True,
                           engine="native", iterations=4000)
    assert str(bot.choose(game.view(0), game.legal_actions_for(0), random.Random(0))) == "accept"
    assert all(not w["wd4_illegal"] for w in native_search.sample_worlds(game.view(0), bot.tracker, count=50))


@pytest.mark.parametrize("seats", [2, 4])
def test_a_candidate_that_goes_out_wins_every_playout(seats: int) -> None:
    # Seat 0's last card matches: playing it wins the round in every world, drawing does not.
    hands = [["R5"], ["G1", "G2", "B3"], ["Y4", "Y5", "B6"], ["G6", "G7", "B2"]][:seats]
    game = Game.from_position({"ruleset": {"uno_penalty": 0}, "seed": 5, "hands": hands, "discard": ["R3"],
                               "draw": ["Y1", "Y2", "Y3", "B7", "G8", "B8", "Y8", "G9", "B9", "W"]})
    view = game.view(0)
    choices = _turn_candidates(game.legal_action_list(0), len(view.hand))
    assert [str(a) for a in choices] == ["R5", "draw"]
    spec = native_search.prepare(view, choices, seed=3, worlds=50)
    out = native_search.run(view.ruleset, spec)
    assert out.results is not None and len(out.results) == 2
    assert out.results[0] == [1.0] * 50 and out.mean[0] == 1.0
    assert out.mean[1] < 1.0 and out.choice == 0
