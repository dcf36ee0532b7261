"""Property tests over whole games (ARCHITECTURE, Testing): presets × seat counts × seeds, and random
combinations of house options, played by a seeded random policy that also acts out of turn (calls,
catches, jump-ins) and now and then tries an action that may be illegal.

After every action: the cards are conserved (GEN-5), a live round always has an active seat with a
legal action (CL-TURN-1), a rejected action changes nothing (GEN-2). Every round ends within a
generous bound, its result agrees with the hands and the scores (§7), and the record replays to the
same events and the same exact position (GEN-4), with and without events. Full matches end with
the winners the scoring mode names.

Run with ``-s`` to see the longest round observed per preset (No Mercy included), in actions.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

from unotable import (
    Accept,
    Action,
    CallUno,
    Card,
    Catch,
    Challenge,
    ChooseColor,
    Color,
    CustomEffect,
    Draw,
    Game,
    Pass,
    Phase,
    Play,
    Ruleset,
    RulesetError,
    Scoring,
    UnoError,
)
from unotable.agent import Agent
from unotable.arbiter import Arbiter
from unotable.decks import composition
from unotable.events import FalseCatch, FalseUno, MatchEnded, RoundEnded
from unotable.record import Record, replay
from unotable.rules import PRESET_NAMES
from unotable.views import PlayerView

# A random policy can keep a round going for a very long time: with 7s and 0s, Shuffle Hands,
# others_draw_2 or the mercy rule off, the cards end up in the hands and circulate. After
# FINISH_AFTER actions in one round the policy therefore turns into a finisher (it plays whatever
# brings it closer to going out); MAX_ROUND_STEPS bounds the whole round.
FINISH_AFTER = 1_500
MAX_ROUND_STEPS = 10_000
MAX_MATCH_ROUNDS = 400

# (preset, max_seats override, seat counts): every preset at 2, 3, 4, 7 and 10 seats where it allows
# them; hypothesis draws the seat count with the seeds.
PRESET_CASES: list[tuple[str, int | None, tuple[int, ...]]] = [
    *((name, None, (2, 3, 4, 7, 10)) for name in ("official", "official-112-shuffle", "official-112-swap",
                                                  "official-112-blank", "house")),
    ("two-player", None, (2,)),
    ("partners", None, (4, 6, 8, 10)),
    ("no-mercy", None, (2, 3, 4, 5, 6)),
    ("no-mercy", 10, (7, 8, 9, 10)),
]

LONGEST: dict[str, int] = {}


@pytest.fixture(scope="module", autouse=True)
def _report_longest() -> Iterator[None]:
    yield
    if LONGEST:
        lengths = ", ".join(f"{k} {v}" for k, v in sorted(LONGEST.items()))
        print(f"\nlongest rounds observed (actions): {lengths}")


def _note_length(key: str, steps: int) -> None:
    LONGEST[key] = max(LONGEST.get(key, 0), steps)


# ------------------------------------------------------------------------------------------------
# the random policy


class Policy(Agent):
    """A seeded random player for every seat, driven by the arbiter (:mod:`unotable.arbiter`).

    The arbiter offers out-of-turn actions (UNO calls, catches, jump-ins) in its documented order;
    each such seat takes one with probability ``out_of_turn``. The active seat plays a card when it
    has one with probability ``play_bias``. Sometimes, instead of a step of the arbiter, a probe
    tries a random, possibly illegal action, which must either be legal (or a false call or catch
    that the ruleset punishes) or be rejected with nothing changed (GEN-2). After ``finish`` is
    set, the active seat plays whatever brings it closer to going out and nobody acts out of turn.
    """

    def __init__(self, seed: int, play_bias: float = 0.85, out_of_turn: float = 0.25, probe: float = 0.04):
        self.rng = random.Random(seed)
        self.play_bias = play_bias
        self.out_of_turn = out_of_turn
        self.probe = probe
        self.finish = False
        self._arbiters: dict[int, tuple[Game, Arbiter]] = {}

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        if view.seat != view.active:
            if self.finish or rng.random() >= self.out_of_turn:
                return None
            return rng.choice(legal)
        actions = list(legal)
        if self.finish:
            best = min(map(_finishing_rank, actions))
            return rng.choice([a for a in actions if _finishing_rank(a) == best])
        plays = [a for a in actions if isinstance(a, Play)]
        if plays and rng.random() < self.play_bias:
            actions = plays
        return rng.choice(actions)

    def arbiter(self, game: Game) -> Arbiter:
        held = self._arbiters.get(id(game))
        if held is None or held[0] is not game:
            rngs = {s: self.rng for s in range(game.seats)}  # one generator drives the whole table
            arbiter = Arbiter(game, dict.fromkeys(range(game.seats), self), rngs)
            held = self._arbiters[id(game)] = (game, arbiter)
        return held[1]

    def act(self, game: Game, finish: bool = False) -> None:
        self.finish = finish
        if not finish and self.probe and self.rng.random() < self.probe:
            self._probe(game)
            return
        self.arbiter(game).step()

    def _probe(self, game: Game) -> None:
        rng = self.rng
        seat = rng.randrange(game.seats)
        n = game.seats
        candidates: list[Action] = [
            Draw(), Pass(), Accept(), Challenge(), CallUno(), Catch(rng.randrange(n)),
            ChooseColor(rng.choice(list(Color)), rng.choice([None, rng.randrange(n)])),
        ]
        hand = game.hand(seat)
        if hand:
            card = rng.choice(hand)
            color = rng.choice([None, *Color]) if card.is_wild else None
            candidates.append(Play(card, color, rng.choice([None, rng.randrange(n)]), rng.random() < 0.3))
        action = rng.choice(candidates)
        legal = action in game.legal_actions_for(seat)
        before = game.to_position()
        n_events, n_actions = len(game.events), len(game.actions)
        try:
            new = game.play(action, seat)
        except UnoError:
            # RULE: GEN-2
            assert not legal, f"{action} by {seat} is listed as legal but was rejected"
            assert game.to_position() == before
            assert len(game.events) == n_events and len(game.actions) == n_actions
            return
        if not legal:  # CL-UNO-3, CL-UNO-6: a punished false call or catch
            r = game.ruleset
            if isinstance(action, CallUno):
                assert r.false_uno_penalty > 0 and any(isinstance(e, FalseUno) for e in new)
            else:
                assert isinstance(action, Catch), f"{action} by {seat} was accepted but is not legal"
                assert r.false_catch_penalty > 0 and any(isinstance(e, FalseCatch) for e in new)


_SPECIAL_WILDS = frozenset({"WS", "WX", "WC", "WB", "WCR"})


def _finishing_rank(action: Action) -> int:
    """The finisher's preference, lowest first: call UNO, shed plain colored cards, then the rest."""
    if isinstance(action, CallUno):
        return 0
    if isinstance(action, Play):
        card = action.card
        if not card.is_wild:
            return 2 if card.draw_value or (card.is_number and card.rank in (0, 7)) else 1
        return 4 if str(card) in _SPECIAL_WILDS else 3
    if isinstance(action, Accept):
        return 5
    if isinstance(action, Catch):
        return 7
    return 6


# ------------------------------------------------------------------------------------------------
# checks


def deck_counter(ruleset: Ruleset) -> Counter[str]:
    comp = composition(ruleset.deck, ruleset.custom_count if ruleset.deck.custom_card is not None else None)
    assert comp == ruleset.composition()
    return Counter({str(Card.from_id(cid)): k for cid, k in comp.items()})


def check_position(game: Game, deck: Counter[str]) -> dict[str, Any]:
    """GEN-5 and the invariants every position satisfies; returns the position."""
    pos = game.to_position()
    held: Counter[str] = Counter()
    for hand in pos["hands"]:
        held.update(hand)
    for pile in ("draw", "discard", "set_aside"):
        held.update(pos[pile])
    assert held == deck, f"cards not conserved: extra {held - deck}, missing {deck - held}"
    assert [len(h) for h in pos["hands"]] == list(game.hand_sizes)
    assert len(pos["draw"]) == game.draw_pile_size
    assert pos["discard"] and pos["discard"][-1] == str(game.top_card)
    for s in game.exposed:
        assert len(pos["hands"][s]) == 1 and game.in_round[s]
    for s in pos.get("graced", []):  # UNO-GRACE-1: one card, no call, not (yet) catchable
        assert game.ruleset.uno_grace and game.in_round[s] and game.phase < Phase.ROUND_OVER
        assert len(pos["hands"][s]) == 1 and s not in pos["called"] and s not in game.exposed
    if game.phase < Phase.ROUND_OVER:
        for s in pos["knocked_out"] + pos["eliminated"]:
            assert pos["hands"][s] == [], f"seat {s} is out of the round but holds cards"
        active = game.active_seat
        assert game.in_round[active]
        assert sum(game.in_round) >= 2
        assert game.legal_actions, f"the active seat {active} has no legal action in {pos}"
        assert active in game.seats_to_act
        assert game.round_result() is None and game.outcome() is None
        assert (game.phase is Phase.RESPOND) == (game.pending_penalty > 0)
        # a referee can always act for the active seat (a turn timer never leaves a table stuck)
        default = game.default_action(active)
        assert default is not None and default in game.legal_actions
        assert all(game.default_action(s) is None for s in range(game.seats) if s != active)
        for s in pos["called"]:
            assert len(pos["hands"][s]) == 1, f"seat {s} keeps a UNO call without holding one card"
        phase = game.phase
        if phase is Phase.RESPOND:  # CL-ACT-8: the victim may always accept
            assert Accept() in game.legal_actions
        elif phase is Phase.PLAY_DRAWN:  # CL-DRAW-2: only the drawn card may be played
            assert pos["drawn"] in pos["hands"][active]
            assert {str(a.card) for a in game.legal_actions if isinstance(a, Play)} <= {pos["drawn"]}
        elif phase is Phase.CHOOSE_COLOR:
            assert {a.color for a in game.legal_actions if isinstance(a, ChooseColor)} == set(Color)
        if phase is not Phase.CHOOSE_COLOR:
            assert game.current_color is not None
    else:
        assert not game.legal_actions and game.seats_to_act == frozenset()
        assert all(game.default_action(s) is None for s in range(game.seats))
    return pos


def check_round_end(game: Game, scores_before: tuple[int, ...], pos: dict[str, Any]) -> None:
    """§7: the round result agrees with the hands left, the scoring mode and the event log."""
    rules = game.ruleset
    n = game.seats
    rr = game.round_result()
    assert rr is not None and rr.round_no == game.round_no
    assert rr.scores == game.scores
    points = rules.points
    values = tuple(sum(points[c.id] for c in game.hand(s)) for s in range(n))
    assert rr.hand_points == values
    assert rr.knocked_out == tuple(pos["knocked_out"])
    delta = [a - b for a, b in zip(game.scores, scores_before, strict=True)]
    ended = [e for e in game.events if isinstance(e, RoundEnded)][-1]
    assert (ended.winner, ended.points, ended.scores) == (rr.winner, rr.points, rr.scores)
    w = rr.winner
    if w is None:  # CL-DRAW-8, SCORE-8
        assert rr.points == 0 and delta == [0] * n
        assert game.phase is Phase.ROUND_OVER
        return
    if rules.is_no_mercy and sum(game.in_round) == 1:  # NM-16
        assert game.in_round[w]
    else:
        assert game.hand(w) == (), f"round winner {w} still holds cards"
    scoring = rules.scoring
    if rules.partnership:  # SCORE-9
        side = w % 2
        assert rr.points == sum(values[s] for s in range(n) if s % 2 != side)
        assert delta == [rr.points if s % 2 == side else 0 for s in range(n)]
    elif scoring in (Scoring.STANDARD, Scoring.NONE):  # SCORE-2, NM-19
        expected = sum(values[s] for s in range(n) if s != w)
        if rules.is_no_mercy:
            expected += 250 * len(rr.knocked_out)
        assert rr.points == expected
        assert delta == [expected if s == w else 0 for s in range(n)]
    elif scoring is Scoring.LOW:  # SCORE-3
        assert delta == [0 if s == w else values[s] for s in range(n)]
    else:  # SCORE-5
        alive = [s not in pos["eliminated"] or s in rr.eliminated for s in range(n)]
        assert delta == [values[s] if alive[s] and s != w else 0 for s in range(n)]
        assert all(game.scores[s] >= rules.target_score for s in rr.eliminated)
    if scoring is Scoring.NONE:  # SCORE-7
        assert game.phase is Phase.MATCH_OVER
    outcome = game.outcome()
    assert (outcome is not None) == (game.phase is Phase.MATCH_OVER)


def check_light(game: Game, deck: Counter[int]) -> None:
    """The fast form of :func:`check_position` for long matches: GEN-5 on the card ids, CL-TURN-1."""
    state = game.clone_state()
    held: Counter[int] = Counter(state.draw)
    held.update(state.discard)
    held.update(state.set_aside)
    for hand in state.hands:
        held.update(hand)
    assert held == deck
    if game.phase < Phase.ROUND_OVER:
        assert game.legal_actions and game.in_round[game.active_seat]


def play_round(game: Game, policy: Policy, deck: Counter[str], key: str) -> int:
    """Play the current round to its end, checking every action; returns the number of actions."""
    scores_before = game.scores
    ids = Counter(game.ruleset.composition())
    steps = 0
    check_position(game, deck)
    while game.phase < Phase.ROUND_OVER:
        steps += 1
        assert steps <= MAX_ROUND_STEPS, f"round {game.round_no} did not end in {MAX_ROUND_STEPS} actions"
        policy.act(game, finish=steps > FINISH_AFTER)
        check_light(game, ids)
    pos = check_position(game, deck)
    _note_length(key, steps)
    check_round_end(game, scores_before, pos)
    return steps


def check_replay(game: Game) -> None:
    """GEN-4: the record rebuilds the game exactly, with events and through the unchecked path."""
    record = Record.from_game(game)
    again = replay(record)
    assert again.events == game.events
    assert again.to_position() == game.to_position()
    assert again.actions == game.actions
    quiet = Game.new(record.seats, record.ruleset, record.seed, events=False)
    for seat, action in record.actions:
        quiet.apply_unchecked(action, seat)
    assert quiet.to_position() == game.to_position()
    assert quiet.events == []


def play_checked_round(ruleset: Ruleset, seats: int, seed: int, policy: Policy, key: str) -> Game:
    game = Game.new(seats, ruleset, seed)
    quiet = Game.new(seats, ruleset, seed, events=False)  # the event-free fast path, in lockstep
    deck = deck_counter(ruleset)
    midpoint = policy.rng.randrange(1, 60)
    twin: Game | None = None
    scores_before = game.scores
    steps = 0
    pos = check_position(game, deck)
    while game.phase < Phase.ROUND_OVER:
        steps += 1
        assert steps <= MAX_ROUND_STEPS, f"round did not end in {MAX_ROUND_STEPS} actions"
        if steps == midpoint:
            twin = game.copy()
            done = len(game.actions)
        policy.act(game, finish=steps > FINISH_AFTER)
        pos = check_position(game, deck)
        for seat, action in game.actions[quiet.action_count:]:
            quiet.apply_unchecked(action, seat)
        assert quiet.to_position() == pos, f"the fast path differs after {game.actions[-1]}"
    _note_length(key, steps)
    check_round_end(game, scores_before, pos)
    check_replay(game)
    if twin is not None:  # a copy taken mid-round follows the same actions to the same position
        for seat, action in game.actions[done:]:
            twin.play(action, seat)
        assert twin.to_position() == game.to_position()
    return game


seeds = st.integers(min_value=0, max_value=2**63 - 1)
policy_seeds = st.integers(min_value=0, max_value=2**32 - 1)
biases = st.sampled_from([0.7, 0.85, 0.95])


# ------------------------------------------------------------------------------------------------
# presets × seats × seeds


@pytest.mark.rule("GEN-2", "GEN-4", "GEN-5", "CL-TURN-1", "CL-DRAW-8", "SET-1")
@pytest.mark.rule(*(f"PRESET-{i}" for i in range(1, 9)))
@pytest.mark.parametrize(("preset", "max_seats", "seat_counts"), PRESET_CASES,
                         ids=[p if m is None else f"{p}-max{m}" for p, m, _ in PRESET_CASES])
@given(data=st.data(), seed=seeds, policy_seed=policy_seeds, bias=biases)
def test_preset_rounds(preset: str, max_seats: int | None, seat_counts: tuple[int, ...], data: st.DataObject,
                       seed: int, policy_seed: int, bias: float) -> None:
    ruleset = Ruleset.preset(preset)
    if max_seats is not None:
        ruleset = ruleset.replace(max_seats=max_seats)
    seats = data.draw(st.sampled_from(seat_counts), label="seats")
    key = "no-mercy" if ruleset.is_no_mercy else preset
    play_checked_round(ruleset, seats, seed, Policy(policy_seed, bias), key)


def test_every_preset_is_covered() -> None:
    assert {p for p, _, _ in PRESET_CASES} == set(PRESET_NAMES)
    covered: dict[str, set[int]] = {}
    for preset, max_seats, counts in PRESET_CASES:
        ruleset = Ruleset.preset(preset)
        ruleset = ruleset.replace(max_seats=max_seats) if max_seats else ruleset
        assert set(counts) <= set(ruleset.seat_counts)
        covered.setdefault(preset, set()).update(counts)
    for preset, counts in covered.items():
        widest = Ruleset.preset(preset)
        if preset != "two-player":
            widest = widest.replace(max_seats=10)
        assert {2, 3, 4, 7, 10} & set(widest.seat_counts) <= counts, preset


# ------------------------------------------------------------------------------------------------
# random combinations of house options


@st.composite
def classic_rulesets(draw: st.DrawFn) -> Ruleset:
    deck = draw(st.sampled_from(["classic108", "classic112_blank", "classic112_swap", "classic112_shuffle"]))
    opts: dict[str, Any] = {"deck": deck}
    if deck != "classic108":
        opts["custom_count"] = draw(st.integers(0, 4 if deck == "classic112_blank" else 3))
        opts["custom_effect"] = draw(st.sampled_from([*CustomEffect, "others_skip"]))
    opts.update(
        stacking=draw(st.sampled_from(["none", "same_kind", "plus4_on_plus2", "by_value"])),
        stack_sum=draw(st.booleans()),
        jump_in=draw(st.booleans()),
        seven_zero=draw(st.booleans()),
        draw_until_playable=draw(st.booleans()),
        force_play=draw(st.booleans()),
        may_draw_with_playable=draw(st.booleans()),
        bounce_draw_two=draw(st.booleans()),
        defend_wd4_with_draw_two=draw(st.booleans()),
        wd4_rule=draw(st.sampled_from(["challenge", "strict", "free"])),
        uno_penalty=draw(st.sampled_from([0, 2, 4])),
        false_catch_penalty=draw(st.sampled_from([0, 0, 2])),
        false_uno_penalty=draw(st.sampled_from([0, 0, 2])),
        uno_grace=draw(st.booleans()),
        swap_hands_last_card=draw(st.sampled_from(["win", "swap"])),
        shuffle_hands_last_card=draw(st.sampled_from(["shuffle", "win"])),
        first_card_wild=draw(st.sampled_from(["choose", "redraw"])),
        first_card_swap_effect=draw(st.booleans()),
        dealer_selection=draw(st.sampled_from(["draw", "seat0"])),
        scoring=draw(st.sampled_from(["standard", "low", "elimination", "none"])),
        partnership=draw(st.sampled_from([False, False, False, True])),
    )
    try:
        return Ruleset(**opts)
    except RulesetError:  # GEN-1: partnership with a scoring other than standard
        reject()


@st.composite
def no_mercy_rulesets(draw: st.DrawFn) -> Ruleset:
    opts: dict[str, Any] = dict(
        deck="no_mercy168",
        max_seats=draw(st.sampled_from([6, 10])),
        stacking=draw(st.sampled_from(["none", "same_kind", "plus4_on_plus2", "by_value"])),
        stack_sum=draw(st.booleans()),
        jump_in=draw(st.booleans()),
        draw_until_playable=draw(st.booleans()),
        force_play=draw(st.booleans()),
        may_draw_with_playable=draw(st.booleans()),
        mercy_limit=draw(st.sampled_from([0, 10, 25, 60])),
        uno_penalty=draw(st.sampled_from([0, 2, 4])),
        false_catch_penalty=draw(st.sampled_from([0, 2])),
        false_uno_penalty=draw(st.sampled_from([0, 2])),
        uno_grace=draw(st.booleans()),
        seven_zero=draw(st.sampled_from([True, True, False])),
        scoring=draw(st.sampled_from(["standard", "none", "low"])),
    )
    try:
        return Ruleset(**opts)
    except RulesetError:  # GEN-1: No Mercy without seven_zero, or with low scoring
        reject()


@pytest.mark.rule("GEN-1", "GEN-2", "GEN-4", "GEN-5", "CL-TURN-1", "CL-DRAW-8")
@given(ruleset=classic_rulesets(), data=st.data(), seed=seeds, policy_seed=policy_seeds, bias=biases)
def test_house_option_rounds(ruleset: Ruleset, data: st.DataObject, seed: int, policy_seed: int,
                             bias: float) -> None:
    seats = data.draw(st.sampled_from(ruleset.seat_counts), label="seats")
    play_checked_round(ruleset, seats, seed, Policy(policy_seed, bias), "classic house options")


@pytest.mark.rule("GEN-1", "GEN-5", "NM-1", "NM-14", "NM-16")
@given(ruleset=no_mercy_rulesets(), data=st.data(), seed=seeds, policy_seed=policy_seeds, bias=biases)
def test_no_mercy_option_rounds(ruleset: Ruleset, data: st.DataObject, seed: int, policy_seed: int,
                                bias: float) -> None:
    seats = data.draw(st.sampled_from(ruleset.seat_counts), label="seats")
    play_checked_round(ruleset, seats, seed, Policy(policy_seed, bias), "no-mercy with options")


# ------------------------------------------------------------------------------------------------
# full matches


MATCH_CASES: list[tuple[str, dict[str, Any], int]] = [
    ("official", {}, 2),
    ("official", {}, 7),
    ("official", {"scoring": "low"}, 5),
    ("official", {"scoring": "elimination"}, 4),
    ("official", {"scoring": "elimination", "elimination_final": "to_target"}, 3),
    ("official", {"scoring": "elimination", "target_score": 200}, 7),
    ("partners", {}, 4),
    ("partners", {}, 6),
    ("house", {}, 5),
    ("no-mercy", {}, 4),
]


def check_outcome(game: Game, winners_by_round: list[int | None], eliminated_order: list[int]) -> None:
    rules = game.ruleset
    n = game.seats
    outcome = game.outcome()
    assert outcome is not None and game.is_over()
    assert outcome.scores == game.scores
    assert outcome.rounds == game.round_no == len(winners_by_round)
    ended = [e for e in game.events if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].winners == outcome.winners
    scores = game.scores
    target = rules.target_score
    last = winners_by_round[-1]
    assert last is not None, "a blocked round never ends a match (SCORE-8)"
    wins = game.to_position()["round_wins"]
    assert wins == [winners_by_round.count(s) for s in range(n)]
    if rules.partnership:  # SCORE-9
        team = tuple(s for s in range(n) if s % 2 == last % 2)
        assert outcome.winners == team
        assert len({scores[s] for s in team}) == 1 and scores[team[0]] >= target
        assert all(scores[s] < target for s in range(n) if s not in team)
        assert len({scores[s] for s in range(n) if s not in team}) == 1
    elif rules.scoring is Scoring.STANDARD:  # SCORE-2, NM-19
        assert outcome.winners == (last,)
        assert scores[last] >= target
        assert all(scores[s] < target for s in range(n) if s != last)
    elif rules.scoring is Scoring.LOW:  # SCORE-3, SCORE-4
        assert max(scores) >= target
        low = min(scores)
        tied = [s for s in range(n) if scores[s] == low]
        most = max(wins[s] for s in tied)
        assert list(outcome.winners) == [s for s in tied if wins[s] == most]
    else:  # SCORE-5, SCORE-6
        alive = [s for s in range(n) if s not in eliminated_order]
        assert len(outcome.winners) == 1
        (w,) = outcome.winners
        assert all(scores[s] >= target for s in eliminated_order)
        if len(alive) == 1:
            assert w == alive[0]
        else:
            assert len(alive) == 2 and w == last and rules.elimination_final.value == "one_round"
        assert w in alive


@pytest.mark.rule("SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5", "SCORE-6", "SCORE-8", "SCORE-9")
@pytest.mark.rule("SET-3", "NM-19")
@pytest.mark.parametrize(("preset", "options", "seats"), MATCH_CASES,
                         ids=[f"{p}-{o.get('scoring', 'standard')}-{n}" for p, o, n in MATCH_CASES])
@given(seed=seeds, policy_seed=policy_seeds)
def test_full_matches(preset: str, options: dict[str, Any], seats: int, seed: int, policy_seed: int) -> None:
    ruleset = Ruleset.preset(preset).replace(**options)
    game = Game.new(seats, ruleset, seed)
    deck = deck_counter(ruleset)
    policy = Policy(policy_seed, 0.9, probe=0.01)
    winners: list[int | None] = []
    eliminated: list[int] = []
    dealer = game.dealer
    while True:
        play_round(game, policy, deck, "no-mercy" if ruleset.is_no_mercy else f"{preset} match")
        rr = game.round_result()
        assert rr is not None
        winners.append(rr.winner)
        eliminated.extend(rr.eliminated)
        if game.is_over():
            break
        assert len(winners) < MAX_MATCH_ROUNDS
        game.next_round()
        # SET-3: the next dealer is to the left of the last, skipping eliminated seats
        expected = (dealer + 1) % seats
        while expected in eliminated:
            expected = (expected + 1) % seats
        assert game.dealer == expected
        dealer = expected
    check_outcome(game, winners, eliminated)
    with pytest.raises(UnoError):
        game.next_round()
    check_replay(game)
