"""The bots: legal actions from many positions under every preset, views only, the registry, and
the behaviours each bot's documentation promises."""
from __future__ import annotations

import ast
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from research import decisions, hidden_info
from unotable import Action, Game, Phase, Play, Ruleset
from unotable.actions import CallUno, Catch, Challenge, ChooseColor, Draw
from unotable.bots import BOT_NAMES, make_bot, parse_bot_spec
from unotable.bots.base import BaseBot, best_uno
from unotable.bots.heuristic import HeuristicBot, wd4_guilty_chance
from unotable.bots.ismcts import IsmctsBot, _turn_candidates
from unotable.cards import ID_COLOR, Card, Color
from unotable.events import Event
from unotable.views import PlayerView

PRESETS = [
    ("official", 4),
    ("official", 3),
    ("two-player", 2),
    ("partners", 4),
    ("official-112-shuffle", 4),
    ("official-112-swap", 3),
    ("official-112-blank", 5),
    ("house", 4),
    ("no-mercy", 4),
    ("no-mercy", 2),
]
FAST = {"ismcts": {"iterations": 6}}


def bots_for(names: Sequence[str]) -> list[BaseBot]:
    out = []
    for name in names:
        bot = make_bot(name, **FAST.get(name, {}))
        assert isinstance(bot, BaseBot)
        out.append(bot)
    return out


def drive(game: Game, bots: Sequence[BaseBot], seed: int, limit: int) -> int:
    """Play with ``bots`` as the arena does, checking every answer; returns the decisions checked."""
    n = game.seats
    rngs = [random.Random(seed * 10 + s) for s in range(n)]
    for s in range(n):
        bots[s].observe(game.events_for(s))
    checked = 0
    steps = 0
    while game.phase < Phase.ROUND_OVER and steps < limit:
        steps += 1
        acted = False
        for k in range(1, n):
            seat = (game.active_seat + k * game.direction) % n
            legal = game.legal_actions_for(seat)
            if not legal:
                continue
            choice = bots[seat].choose(game.view(seat), legal, rngs[seat])
            checked += 1
            if choice is not None:
                assert choice in legal, (type(bots[seat]).__name__, choice, list(legal))
                events = game.play(choice, seat)
                for s in range(n):
                    bots[s].observe([e for e in events if e.visible_to(s)])
                acted = True
                break
        if acted:
            continue
        seat = game.active_seat
        legal = game.legal_actions_for(seat)
        choice = bots[seat].choose(game.view(seat), legal, rngs[seat])
        checked += 1
        assert choice is not None and choice in legal, (type(bots[seat]).__name__, choice, list(legal))
        events = game.play(choice, seat)
        for s in range(n):
            bots[s].observe([e for e in events if e.visible_to(s)])
    return checked


@pytest.mark.parametrize(("preset", "seats"), PRESETS)
def test_every_bot_answers_legally_under_every_preset(preset: str, seats: int) -> None:
    names = list(BOT_NAMES)
    checked = 0
    for seed in range(2):
        # each bot plays each seat once: rotate the names around the table
        lineup = [names[(s + seed) % len(names)] for s in range(seats)]
        game = Game.new(seats=seats, ruleset=preset, seed=seed)
        checked += drive(game, bots_for(lineup), seed, limit=150)
    assert checked > 20


@pytest.mark.parametrize(
    "options",
    [
        {"stacking": "by_value", "bounce_draw_two": True, "seven_zero": True, "jump_in": True},
        {"defend_wd4_with_draw_two": True, "wd4_rule": "strict", "force_play": True,
         "may_draw_with_playable": False, "draw_until_playable": True},
        {"custom_effect": "others_draw_2", "first_card_swap_effect": True, "false_catch_penalty": 2},
    ],
)
def test_every_bot_answers_legally_under_house_options(options: dict[str, object]) -> None:
    base = "official-112-swap" if "custom_effect" in options else "official"
    rules = Ruleset.preset(base).replace(**options)
    for seed in range(2):
        lineup = [BOT_NAMES[(s + seed) % 4] for s in range(4)]
        drive(Game.new(seats=4, ruleset=rules, seed=seed), bots_for(lineup), seed, limit=150)


class Spy(BaseBot):
    """Records what a driver hands it; plays the first legal action."""

    name = "spy"

    def __init__(self) -> None:
        self.calls: list[tuple[object, object, object]] = []
        self.events: list[object] = []

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        self.calls.append((view, legal, rng))
        return legal[0] if view.active == view.seat else None

    def observe(self, events: Sequence[Event]) -> None:
        self.events.extend(events)


def test_the_arena_hands_bots_views_never_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from unotable.bots import arena

    spies: list[Spy] = []

    def fake_make_bot(name: str, **options: object) -> Spy:
        spy = Spy()
        spies.append(spy)
        return spy

    monkeypatch.setattr(arena, "make_bot", fake_make_bot)
    arena.run_arena("house", 3, ["spy"], games=2, seed=3)
    used = [spy for spy in spies if spy.calls]
    assert len(used) == 2 * 3  # one bot per seat per game
    for spy in used:
        for view, legal, rng in spy.calls:
            assert type(view) is PlayerView
            assert not isinstance(view, Game) and not isinstance(legal, Game)
            assert all(isinstance(a, Action.__args__) for a in legal)  # type: ignore[attr-defined]
            assert type(rng) is random.Random
        seats = {view.seat for view, _, _ in spy.calls}
        assert len(seats) == 1
        seat = seats.pop()
        assert spy.events and all(e.visible_to(seat) for e in spy.events)


def test_bot_modules_never_import_the_game() -> None:
    # Hidden information is removed by construction (docs/explanation/architecture.md): bots get
    # views; only the arena, which drives games, imports Game.
    folder = Path(__file__).resolve().parents[2] / "unotable" / "bots"
    for path in folder.glob("*.py"):
        if path.name == "arena.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "unotable.game", path.name
                names = {a.name for a in node.names}
                assert not (node.module == "unotable" and "Game" in names), path.name
            if isinstance(node, ast.Import):
                assert all(a.name != "unotable.game" for a in node.names), path.name


def test_registry() -> None:
    assert tuple(BOT_NAMES) == ("random", "rule-v1", "heuristic", "ismcts")
    for name in BOT_NAMES:
        assert make_bot(name).name == name
    assert make_bot("rule_v1").name == "rule-v1"
    bot = make_bot("ismcts:iterations=50:depth=2")
    assert isinstance(bot, IsmctsBot) and bot.iterations == 50 and bot.depth == 2
    assert make_bot("ismcts:iterations=50", iterations=7).iterations == 7  # type: ignore[attr-defined]
    assert parse_bot_spec("heuristic:wild_hold=2.5") == ("heuristic", {"wild_hold": 2.5})
    with pytest.raises(ValueError, match="unknown bot 'alphago'"):
        make_bot("alphago")
    with pytest.raises(ValueError, match="unknown heuristic weight"):
        make_bot("heuristic:nonsense=1")
    with pytest.raises(ValueError, match="not key=value"):
        parse_bot_spec("ismcts:fast")


def test_best_uno_keeps_the_flagged_twin() -> None:
    game = Game.from_position({"hands": [["R1", "R2"], ["G5", "G6"]], "discard": ["R7"]})
    legal = game.legal_action_list(0)
    assert {str(a) for a in legal} == {"R1", "R1!", "R2", "R2!", "draw"}
    assert {str(a) for a in best_uno(legal)} == {"R1!", "R2!", "draw"}


def play_one(bot: BaseBot, doc: dict[str, object], seat: int = 0, seed: int = 0) -> Action | None:
    game = Game.from_position(doc)
    return bot.choose(game.view(seat), game.legal_actions_for(seat), random.Random(seed))


# -- rule-v1 -------------------------------------------------------------------------------------


def test_rule_v1_plays_a_wd4_naming_its_most_common_color() -> None:
    doc = {"hands": [["R1", "G2", "G3", "W4", "B9"], ["Y5"]], "discard": ["R7"]}
    for seed in range(5):
        assert str(play_one(make_bot("rule-v1"), doc, seed=seed)) == "W4:G"  # type: ignore[arg-type]


def test_rule_v1_plays_a_random_non_wild_card_and_draws_only_when_stuck() -> None:
    doc = {"hands": [["R1", "R2", "W", "B9"], ["Y5"]], "discard": ["R7"]}
    seen = {str(play_one(make_bot("rule-v1"), doc, seed=s)) for s in range(30)}  # type: ignore[arg-type]
    assert seen == {"R1", "R2"}
    stuck = {"hands": [["G1", "B9"], ["Y5"]], "discard": ["R7"], "draw": ["Y2"]}
    assert isinstance(play_one(make_bot("rule-v1"), stuck), Draw)  # type: ignore[arg-type]


def test_rule_v1_never_catches_or_jumps_in() -> None:
    doc = {"ruleset": "house", "hands": [["R7", "G3"], ["B2"], ["Y5", "Y6"]], "discard": ["R7"],
           "active": 2, "top_player": 2, "exposed": [1]}
    assert play_one(make_bot("rule-v1"), doc, seat=0) is None  # type: ignore[arg-type]


# -- heuristic -----------------------------------------------------------------------------------


def test_heuristic_catches_before_it_plays() -> None:
    # RULE: CL-UNO-5
    doc = {"hands": [["R1", "R2", "G3"], ["B2"], ["Y5", "Y6"]], "discard": ["R7"], "exposed": [1]}
    assert play_one(HeuristicBot(), doc) == Catch(1)


def test_heuristic_calls_uno_when_a_swap_leaves_it_one_card() -> None:
    # RULE: CL-UNO-2
    doc = {"ruleset": "house", "hands": [["R1", "G3"], ["B2"], ["Y5", "Y6"]], "discard": ["R7"],
           "exposed": [1]}
    assert play_one(HeuristicBot(), doc, seat=1) == CallUno()


def test_heuristic_goes_out_and_flags_uno() -> None:
    out = {"hands": [["R1"], ["B2", "B3"]], "discard": ["R7"]}
    assert str(play_one(HeuristicBot(), out)) == "R1"
    flag = {"hands": [["R1", "G3"], ["B2", "B3"]], "discard": ["R7"]}
    action = play_one(HeuristicBot(), flag)
    assert isinstance(action, Play) and action.uno


def test_heuristic_keeps_its_wild_and_attacks_a_seat_close_to_out() -> None:
    calm = {"hands": [["R1", "W", "B5", "B6", "G2"], ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]],
            "discard": ["R7"]}
    assert str(play_one(HeuristicBot(), calm)) == "R1"
    threat = {"hands": [["R1", "RD2", "B5", "B6", "G2"], ["Y1"], ["Y2", "Y3", "Y4"]], "discard": ["R7"],
              "called": [1]}
    assert str(play_one(HeuristicBot(), threat)) == "RD2"


def test_heuristic_names_the_color_it_holds_most() -> None:
    doc = {"hands": [["W", "B1", "B2", "G3"], ["Y1", "Y2", "Y3", "Y4", "Y5"]], "discard": ["R7"]}
    action = play_one(HeuristicBot(), doc)
    assert isinstance(action, Play) and action.color is Color.BLUE


def test_heuristic_challenges_by_the_odds() -> None:
    # RULE: CL-ACT-10
    assert wd4_guilty_chance(6, 60, 15) > 0.8
    assert wd4_guilty_chance(1, 60, 3) < 0.1
    doc = {"hands": [["G1", "G2"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]], "discard": ["R7", "W4"],
           "color": "B", "phase": "respond", "pending": {"total": 4, "card": "W4"}, "top_player": 1,
           "wd4": {"player": 1, "illegal": True, "hand": []}}
    # without a record of the color before the WD4, the bot cannot judge and accepts
    assert str(play_one(HeuristicBot(), doc)) == "accept"
    game = Game.new(seats=2, seed=5)
    del game  # a real challenge decision is covered by the legality runs above


def test_heuristic_roulette_names_the_color_most_unseen() -> None:
    # RULE: NM-11
    doc = {"ruleset": "no-mercy", "hands": [["G1"], ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]],
           "discard": ["R9", "WCR"], "color": None, "phase": "choose_color", "color_for": "roulette",
           "active": 1, "top_player": 0}
    action = play_one(HeuristicBot(), doc, seat=1)
    assert isinstance(action, ChooseColor) and action.color is not Color.RED


# -- ismcts ----------------------------------------------------------------------------------------


def midgame(seed: int, preset: str = "official", seats: int = 3) -> tuple[Game, int]:
    game = Game.new(seats=seats, ruleset=preset, seed=seed)
    bots = bots_for(["heuristic"] * seats)
    drive(game, bots, seed, limit=6)
    return game, game.active_seat


def test_ismcts_respects_its_iteration_budget_and_is_deterministic() -> None:
    searched = 0
    for seed in range(12):
        game, seat = midgame(seed)
        if game.phase >= Phase.ROUND_OVER:
            continue
        picks = []
        for _ in range(2):
            bot = IsmctsBot(iterations=24)
            bot.observe(game.events_for(seat))
            picks.append(bot.choose(game.view(seat), game.legal_actions_for(seat), random.Random(seed)))
            assert bot.last_iterations <= 24
            if bot.last_iterations:
                searched += 1
                assert bot.last_iterations >= 24 - len(game.legal_actions_for(seat))
        assert picks[0] == picks[1]
        assert picks[0] in game.legal_actions_for(seat)
    assert searched > 0


def test_ismcts_draws_one_world_per_sweep_through_its_sampling_hook() -> None:
    """Each iteration of the root sweep plays every candidate on one world from sample_world
    (the hook that research/hidden_info.py replaces), so worlds x candidates = iterations."""
    from unotable.bots.determinize import Determinizer
    from unotable.state import State

    class Counting(IsmctsBot):
        worlds = 0

        def sample_world(self, det: Determinizer, rng: random.Random) -> State:
            self.worlds += 1
            return super().sample_world(det, rng)

    searched = 0
    for seed in range(12):
        game, seat = midgame(seed, seats=4)
        if game.phase >= Phase.ROUND_OVER:
            continue
        bot = Counting(iterations=60)
        bot.observe(game.events_for(seat))
        legal = game.legal_actions_for(seat)
        bot.choose(game.view(seat), legal, random.Random(seed))
        if bot.last_iterations:
            searched += 1
            k = len(_turn_candidates(legal, len(game.view(seat).hand)))
            assert bot.worlds * k == bot.last_iterations and k >= 2
    assert searched >= 3


def test_the_decision_judge_scores_each_candidate_from_the_true_hands() -> None:
    """research/decisions.py: going out is judged a sure win, drawing instead a sure loss, and
    a variant's gain is its judged value less the package's choice."""
    game = Game.from_position({"hands": [["R1"], ["R2"], ["G4", "G5"]], "discard": ["R7"],
                               "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]})
    candidates = [a for a in game.legal_actions_for(0) if str(a) in ("R1", "draw")]
    assert [str(a) for a in candidates] == ["R1", "draw"]
    values = decisions.judge(game.clone_state(), 0, candidates, 30, 1)
    assert values == [1.0, 0.0]  # after a draw, the next seat goes out with R2
    records = [{"values": [0.5, 0.7], "choices": {"": 0, "x": 1}, "fewest": 1},
               {"values": [0.4, 0.2], "choices": {"": 0, "x": 0}, "fewest": 5}]
    lines = decisions.report(records, ["x"])
    assert "differs     1" in lines[1] and "gain +0.1000" in lines[1] and "(1): +0.2000" in lines[1]
    for spec in ("plain", "heuristic", "oracle", "plays", "ismcts:prior_z=2", "extend=1", "endgame=2", "lap",
                 "sharpen=1.5", "oracle=2", "named", "sir4", "sir8h"):
        assert isinstance(decisions.build(spec, game), BaseBot)
    for bad in ("extend=x", "sharpen=x"):
        with pytest.raises(SystemExit):
            decisions.build(bad, game)
    view = Game.new(seats=4, seed=5).view(0)
    plain, sharp = IsmctsBot()._weigh(view), decisions.build("sharpen=2", game)._weigh(view)
    cards = [Card.parse(c).id for c in ("R0", "RS", "W", "W4")]
    assert plain is not None and sharp is not None
    assert sharp(1, 7, cards) == pytest.approx([w * w for w in plain(1, 7, cards)])


def test_the_dump_replays_the_package_rule_with_other_prior_thresholds() -> None:
    """research/decisions.py: the search's statistics (its means, the paired z of each candidate
    against the heuristic's choice) replay the package's rule, and other thresholds, exactly."""
    stats = decisions.search_stats([[1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]], 1)
    assert stats["prior"] == 1 and stats["means"] == [0.75, 0.25, 0.0]
    assert stats["z"][0] == pytest.approx(0.5 / (math.sqrt(1 / 3) / 2)) and stats["z"][1] == 0.0
    # always behind the prior by the same amount: no spread, the sign decides (as the package's rule)
    assert decisions.search_stats([[0.25, 0.5], [0.5, 0.75]], 1)["z"] == [-1e9, 0.0]
    record = {"values": [0.2, 0.6, 0.1], "choices": {"": 0}, "search": stats}
    assert decisions.threshold_choice(record, 1.0) == 0  # z 1.73 beats a threshold of 1 ...
    assert decisions.threshold_choice(record, 2.0) == 1  # ... not one of 2: the heuristic's choice
    lines = decisions.thresholds([record])
    assert "prior_z=1: differs     0   gain +0.0000" in lines[2]
    assert "prior_z=2: differs     1   gain +0.4000" in lines[4]
    bot = IsmctsBot(iterations=60)
    game = Game.from_position({"hands": [["R1", "R5", "G5", "W"], ["B2", "B3"]], "discard": ["R7"],
                               "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]})
    view = game.view(0)
    candidates = _turn_candidates(game.legal_actions_for(0), len(view.hand))
    chosen = bot.search(view, candidates, random.Random(3))
    assert len(bot.last_results) == len(candidates) and len({len(r) for r in bot.last_results}) == 1
    prior = bot.last_prior
    assert prior is not None
    replayed = decisions.search_stats(bot.last_results, prior)
    assert candidates[decisions.threshold_choice({"search": replayed}, bot.prior_z)] == chosen


def test_a_correction_learned_from_judged_values_is_judged_out_of_sample() -> None:
    """research/decisions.py ``corrections``: where the judge always values drawing more than
    the search does, the correction learned on one fold draws in the other and gains there."""
    names = decisions.CORRECTION_FEATURES
    short = {"hand": ["W4", "G2", "G3"], "color": 0}
    f = dict(zip(names, decisions.candidate_features(short, "W4:G!"), strict=True))
    assert f["wd4 short"] == 1.0 and f["named held"] == 2 and sum(f.values()) == 3.0
    f = dict(zip(names, decisions.candidate_features(short, "G2"), strict=True))
    assert f["switch"] == 1.0 and f["color held"] == 1 and f["wd4 short"] == 0.0
    assert decisions.candidate_features(short, "draw") == [1.0] + [0.0] * (len(names) - 1)
    record = {"candidates": ["R1", "draw"], "hand": ["R1", "G2", "G3", "G4", "G5"], "color": 0,
              "values": [0.3, 0.6], "choices": {"": 0}, "search": {"means": [0.5, 0.45]}}
    lines = decisions.corrections([record] * 10)
    assert lines == ["  best plain mean: gain +0.0000 (se 0.0000) over the package's choice, 2-fold",
                     "  best corrected mean: gain +0.3000 (se 0.0000) over the package's choice, 2-fold"]


def test_ismcts_takes_the_win_and_forced_moves_without_search() -> None:
    bot = IsmctsBot(iterations=10)
    assert str(play_one(bot, {"hands": [["R1"], ["B2", "B3"]], "discard": ["R7"]})) == "R1"
    assert bot.last_iterations == 0
    forced = play_one(bot, {"hands": [["G1", "B9"], ["Y5"]], "discard": ["R7"], "draw": ["Y2"]})
    assert isinstance(forced, Draw) and bot.last_iterations == 0


def test_ismcts_challenges_a_wd4_it_knows_is_illegal() -> None:
    # RULE: CL-ACT-12 (the seat saw the WD4's player keep a red card it gave it with a 7)
    rules = Ruleset.preset("official").replace(seven_zero=True)
    game = Game.from_position({
        "ruleset": rules.to_dict(),
        "hands": [["R7", "W4", "R1", "G4"], ["B1", "B2", "B3"]],
        "discard": ["R3"],
        "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"],
        "fill": "draw",
    })
    bot = IsmctsBot(iterations=40)
    bot.tracker.sync(game.view(0))
    events = game.play("R7>1", 0)  # seat 1 now holds W4 R1 G4, and seat 0 knows it
    bot.observe([e for e in events if e.visible_to(0)])
    events = game.play("W4:B", 1)  # illegal: seat 1 still holds R1 with red current
    bot.observe([e for e in events if e.visible_to(0)])
    assert game.phase is Phase.RESPOND
    assert bot.choose(game.view(0), game.legal_actions_for(0), random.Random(0)) == Challenge()


def test_ismcts_evaluation_is_a_distribution_over_the_seats() -> None:
    from unotable.bots.ismcts import _better, auto_horizon, evaluate

    game = Game.new(seats=4, seed=3)
    st = game.clone_state()
    total = sum(evaluate(st, s, False) for s in range(4))
    assert abs(total - 1.0) < 1e-9
    st.hands[1] = st.hands[1][:1]
    assert evaluate(st, 1, False) > evaluate(st, 0, False)
    assert auto_horizon(Ruleset.preset("official")) == 4
    assert auto_horizon(Ruleset.preset("house")) == 0 and auto_horizon(Ruleset.preset("no-mercy")) == 0
    assert _better([1, 1, 1, 0] * 10, [0, 0, 1, 0] * 10, 1.0)
    assert not _better([1, 0] * 10, [0, 1] * 10, 1.0)


def test_tracker_beliefs_read_a_draw_as_stuck() -> None:
    from unotable.bots.determinize import Tracker

    game = Game.from_position({"hands": [["B1", "B2"], ["G5", "R3", "B9"], ["R1", "R2"]],
                               "discard": ["R7"], "draw": ["Y8", "G2"], "active": 1})
    sound, believer = Tracker(0), Tracker(0, beliefs=True)
    for t in (sound, believer):
        t.sync(game.view(0))
    events = game.play("draw", 1)  # seat 1 could have played R3: the belief is wrong here
    for t in (sound, believer):
        t.observe([e for e in events if e.visible_to(0)])
        t.sync(game.view(0))
    assert sound.layers[1] == [] and believer.layers[1] != []


@pytest.mark.parametrize(
    "options",
    [{"depth": 2}, {"halving": True}, {"horizon": 0}, {"prior_z": 0.0}, {"beliefs": True},
     {"time_limit": 0.05, "iterations": 10_000}],
)
def test_ismcts_options_search_legally(options: dict[str, object]) -> None:
    for seed in range(4):
        game, seat = midgame(seed, seats=2)
        if game.phase >= Phase.ROUND_OVER:
            continue
        bot = IsmctsBot(**{"iterations": 40, **options})  # type: ignore[arg-type]
        bot.observe(game.events_for(seat))
        assert bot.choose(game.view(seat), game.legal_actions_for(seat), random.Random(seed)) in (
            game.legal_actions_for(seat)
        )



def test_the_short_oracle_sampler_deals_the_true_short_hands_and_keeps_every_card() -> None:
    """research/decisions.py ``oracle=K``: the seats holding K cards or fewer get their true hands,
    the others samples, and the sample still holds each card once."""
    from unotable.bots.determinize import Determinizer

    game = Game.from_position({"hands": [["R1", "G2"], ["Y7"], ["B1", "B2", "B3", "W"], ["G5", "G6", "R8"]],
                               "discard": ["R7"], "draw": ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "W4"]})
    bot = decisions.build("oracle=1", game)
    assert isinstance(bot, decisions.ShortOracleIsmcts) and bot.k == 1
    bot.observe(game.events_for(0))
    truth = game.clone_state()
    view = game.view(0)
    det = Determinizer(view, bot.tracker, bot._weigh(view))
    rng = random.Random(3)
    others = set()
    for _ in range(30):
        world = bot.sample_world(det, rng)
        assert world.hands[1] == truth.hands[1]
        every = [c for h in [*world.hands, world.draw] for c in h]
        assert sorted(every) == sorted(c for h in [*truth.hands, truth.draw] for c in h)
        others.add(tuple(sorted(world.hands[2])))
    assert len(others) > 1  # the longer hands are still sampled


def test_the_named_sampler_gives_a_seat_the_color_it_just_named() -> None:
    """research/decisions.py ``named``: after a seat names blue with a wild and neither plays nor
    draws since, every sample holds a blue card in its hand; the package's samples often do not."""
    from unotable.bots.determinize import Determinizer

    draw = [f"{c}{n}" for c in "RGYB" for n in (5, 6)] + ["Y1", "Y2", "Y4", "Y5"]
    hands = [["R1", "G2", "Y9", "Y8"], ["W", "B1", "R2", "Y3"], ["G1", "G3", "G4", "G6"]]
    game = Game.from_position({"hands": hands, "discard": ["R7"], "draw": draw})
    for text in ("R1", "W:B"):
        action = next(a for a in game.legal_actions_for(game.active_seat) if str(a) == text)
        game.play(action)
    assert game.active_seat == 2
    named, plain = decisions.build("named", game), IsmctsBot()
    for bot in (named, plain):
        bot.observe(game.events_for(2))
    assert named.fresh == {1: int(Color.BLUE)}
    view = game.view(2)
    rng = random.Random(4)
    blue = int(Color.BLUE)

    def has_blue(world: Any) -> bool:
        return any(ID_COLOR[c] == blue for c in world.hands[1])

    det = Determinizer(view, named.tracker, named._weigh(view))
    assert all(has_blue(named.sample_world(det, rng)) for _ in range(40))
    det = Determinizer(view, plain.tracker, plain._weigh(view))
    assert not all(has_blue(plain.sample_world(det, rng)) for _ in range(40))


def test_the_play_reader_judges_a_play_at_the_hand_sizes_of_its_moment() -> None:
    """research/hidden_info.py ``fits`` with the sizes then: a seat that kept a Reverse while
    the seat behind it held one card played well; judged at today's sizes (the seat ahead now
    holds one card, the one behind seven) it would have reversed."""
    game = Game.from_position({"hands": [["R1", "G2", "Y9", "Y8", "B1", "B2", "B3"], ["RR"], ["G1"],
                                         ["G5", "G6", "G7", "G8", "G9", "Y1", "Y2"]],
                               "discard": ["R3"], "draw": ["Y4", "Y5", "Y6"]})
    st = game.clone_state()
    r5, rr = Card.parse("R5").id, Card.parse("RR").id
    ctx = hidden_info.PlayContext(r5, Card.parse("R3").id, int(Color.RED), 1, -1, (1, 2, 7, 7))
    assert hidden_info.fits(st, 1, [rr, r5], ctx)
    assert not hidden_info.fits(st, 1, [rr, r5], ctx._replace(sizes=()))
    assert st.hands == game.clone_state().hands  # the sizes of that moment are put back
    sir = hidden_info.build("sir4h", 0.1, 8)
    assert (sir.sir, sir.history) == (4, True)
    rate = hidden_info.fit_rate(2)
    assert rate.keys() == {"now", "then"} and rate["now"][0] == rate["then"][0] > 0
    assert all(0 <= missed <= checked for checked, missed in rate.values())


def test_the_policy_opponent_plays_the_fast_policy_legally_and_rounds_against_it_finish() -> None:
    """research/hidden_info.py ``PolicyBot`` (``decisions.py --rounds N --variants V@policy``):
    legal answers all round, UNO called, nothing out of turn; the arena's round plays to the end
    with three of them; an unknown opponent or one outside ``--rounds`` is a usage error."""
    from unotable.bots import policy

    for seed in range(4):
        game = Game.new(seats=4, seed=seed)
        bots = [hidden_info.PolicyBot(game) for _ in range(4)]
        assert drive(game, bots, seed, limit=2000) > 0
        assert game.phase >= Phase.ROUND_OVER
    hands = [["R1", "R2"], ["G4", "G5"]]
    game = Game.from_position({"hands": hands, "discard": ["R7"], "draw": ["Y1", "Y2"]})
    bot = hidden_info.PolicyBot(game)
    legal = game.legal_actions_for(0)
    choice = bot.choose(game.view(0), legal, random.Random(0))
    assert choice == policy.choose(game.clone_state(), 0, list(legal))
    assert isinstance(choice, Play) and choice.uno
    assert bot.choose(game.view(1), game.legal_actions_for(1), random.Random(0)) is None
    assert isinstance(hidden_info.arena_round(0, 1, lambda g: IsmctsBot(iterations=6), "policy"), bool)
    for argv in (["--rounds", "1", "--variants", "plain@nobody"],
                 ["--games", "1", "--variants", "plain@policy"]):
        with pytest.raises(SystemExit, match="only other opponent"):
            decisions.main(argv)


@pytest.mark.parametrize("seats", [2, 4])
def test_the_benchmarks_rounds_are_the_arenas_rounds(seats: int) -> None:
    """hidden_info.arena_round (which decisions.py --rounds plays) plays round ``index`` of the
    arena's official run exactly as ``unotable simulate`` does: the same winner, at four seats
    and heads-up (``hidden_info --seats 2``)."""
    from unotable.bots.arena import Config, play_game
    from unotable.bots.base import Bot

    config = Config(Ruleset.preset("official").to_dict(), seats, hidden_info.lineup(seats), 1)

    def small(spec: str) -> Bot:
        return IsmctsBot(iterations=8) if spec == "ismcts" else make_bot(spec)

    wins = []
    for index in range(6):  # the rotation puts ismcts in every seat
        result = play_game(config, index, small)
        won = hidden_info.arena_round(index, 1, lambda g: IsmctsBot(iterations=8), seats=seats)
        assert won == any(result.bots[w] == "ismcts" for w in result.winners)
        wins.append(won)
    assert len(set(wins)) == 2  # both outcomes occur, so the comparison means something


def test_a_dump_of_judged_decisions_is_reported_again_with_each_gain_broken_down(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """research/decisions.py ``--dump`` / ``--load``: the gains split into another card, holding
    against playing, and another color or flag of the same card."""
    import json

    records = [
        {"values": [0.5, 0.7], "choices": {"": 0, "x": 1}, "fewest": 1, "candidates": ["R1", "G2"]},
        {"values": [0.4, 0.1], "choices": {"": 0, "x": 1}, "fewest": 5, "candidates": ["R1", "draw"]},
        {"values": [0.3, 0.6], "choices": {"": 0, "x": 1}, "fewest": 5, "candidates": ["W:R", "W:B!"]},
        {"values": [0.3, 0.6], "choices": {"": 1, "x": 1}, "fewest": 5, "candidates": ["W:R", "W:B"]},
    ]
    lines = decisions.breakdown(records, "x")
    assert lines == ["  x: another card 1 decisions, summed gain +0.20",
                     "  x: hold or play 1 decisions, summed gain -0.30",
                     "  x: another color or flag 1 decisions, summed gain +0.30"]
    dump = tmp_path / "judged.json"
    dump.write_text(json.dumps(records))
    assert decisions.main(["--load", str(dump)]) == 0
    out = capsys.readouterr().out
    assert "4 decisions" in out and "differs     3" in out and lines[1] in out
