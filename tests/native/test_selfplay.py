"""Self-play inside the core plays what the Python bots play, draw for draw; the batched step and the
observations match unotable/env/spaces.py byte for byte."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from unotable import Game, Phase, Ruleset
from unotable.actions import Action, CallUno, Catch, Play
from unotable.bots.random_bot import RandomBot
from unotable.bots.rule_v1 import RuleV1Bot
from unotable.env.spaces import History, encode, index_of, legal_mask

from lockstep import Pool, lockstep, state_doc

Chooser = Callable[[Game, int, list[Action], random.Random], Action]


def _bot(bot: RandomBot | RuleV1Bot) -> Chooser:
    def choose(game: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
        action = bot.choose(game.view(seat), legal, rng)
        assert action is not None
        return action
    return choose


def _random_stuck(game: Game, seat: int, legal: list[Action], rng: random.Random) -> Action:
    del game, seat
    plays = [a for a in legal if isinstance(a, Play)]
    pool: Sequence[Action] = plays or [a for a in legal if not isinstance(a, CallUno | Catch)]
    return pool[rng.randrange(len(pool))]


POLICIES: dict[str, Chooser] = {
    "random": _bot(RandomBot()),
    "random-stuck": _random_stuck,
    "rule-v1": _bot(RuleV1Bot()),
}


def _reference(
    rules: Ruleset, seats: int, seeds: list[int], policy: str, rounds: int, seed: int
) -> list[Game]:
    """What Pool.selfplay documents, in Python: each table's active seat decides with the bot."""
    choose = POLICIES[policy]
    games = []
    for i, table_seed in enumerate(seeds):
        rng = random.Random(seed + i)
        game = Game.new(seats, rules, table_seed, events=False)
        done = 0
        while done < rounds:
            if game.phase is Phase.MATCH_OVER:
                table_seed += len(seeds)
                game = Game.new(seats, rules, table_seed, events=False)
                continue
            if game.phase is Phase.ROUND_OVER:
                game.next_round()
                continue
            seat = game.active_seat
            game.play(choose(game, seat, list(game.legal_actions_for(seat)), rng), seat)
            if game.phase >= Phase.ROUND_OVER:
                done += 1
        games.append(game)
    return games


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("preset", ["official", "house", "no-mercy", "official-112-swap", "partners"])
def test_selfplay_plays_the_bots_games(preset: str, policy: str) -> None:
    rules = Ruleset.preset(preset).replace(target_score=200)
    seeds = [3, 2**40 + 1, 17]
    pool = Pool(len(seeds), rules, 4, seeds)
    rounds = 2 if policy == "random" else 4  # uniform random play makes long rounds
    stats = pool.selfplay(policy, rounds=rounds, seed=99)
    assert stats["rounds"] == rounds * len(seeds) and stats["truncated"] == 0
    assert stats["decisions"] > rounds * len(seeds)
    for i, game in enumerate(_reference(rules, 4, seeds, policy, rounds, 99)):
        assert state_doc(pool.state(i)) == state_doc(game._st), (preset, policy, i)


def test_selfplay_refuses_unknown_policies() -> None:
    with pytest.raises(ValueError, match="policy"):
        Pool(1).selfplay("greedy", 1)


@pytest.mark.parametrize("preset", ["official", "house", "no-mercy", "partners", "official-112-shuffle"])
def test_observations_in_lockstep(preset: str) -> None:
    """Every seat's observation and mask equal spaces.py's after every action of whole matches."""
    rules = Ruleset.preset(preset).replace(target_score=150)
    for seats, seed in ((rules.seat_counts[0], 5), (rules.seat_counts[-1], 6)):
        lockstep(Game.new(seats, rules, seed), Pool(1, rules, seats, [seed]), 0, seed, observe=True,
                 max_actions=800)


@pytest.mark.parametrize(("preset", "scoring"), [("official", "standard"), ("house", "none"),
                                                 ("no-mercy", "none"), ("two-player", "standard")])
def test_batched_step_matches_the_encoder(preset: str, scoring: str) -> None:
    """pool.step against Python games stepped with the same actions: observations, masks, seats,
    rewards and done flags of every row, every step, auto-reset included."""
    rules = Ruleset.preset(preset).replace(target_score=60, scoring=scoring)
    n, seats = 8, min(3, rules.max_seats)
    seeds = list(range(40, 40 + n))
    pool = Pool(n, rules, seats, seeds)
    bufs = pool.buffers()
    games = [Game.new(seats, rules, s) for s in seeds]
    histories = [History(seats) for _ in range(n)]
    table_seeds = list(seeds)
    rng = random.Random(1)
    ended = 0
    for _ in range(400):
        actions = np.zeros(n, np.int32)
        chosen = []
        for i, g in enumerate(games):
            seat = g.active_seat
            assert bufs["seat"][i] == seat
            legal = list(g.legal_actions_for(seat))
            assert bytes(bufs["mask"][i]) == bytes(legal_mask(legal, seat, seats))
            assert bytes(bufs["obs"][i]) == bytes(encode(g.view(seat), histories[i]))
            plays = [x for x in legal if isinstance(x, Play)]
            a = rng.choice(plays if plays and rng.random() < 0.9 else legal)
            actions[i] = index_of(a, seat, seats)
            chosen.append((seat, a))
        pool.step(actions, bufs)
        for i, (seat, a) in enumerate(chosen):
            g = games[i]
            histories[i].push(seat, a, g._st.discard[-1], g._st.color)
            g.play(a, seat)
            if g.phase is Phase.ROUND_OVER:
                g.next_round()
                histories[i].clear()
            if g.is_over():
                winners = set(g.outcome().winners)  # type: ignore[union-attr]
                assert bufs["done"][i] == 1
                assert list(bufs["reward"][i]) == [1.0 if s in winners else -1.0 for s in range(seats)]
                table_seeds[i] += n
                games[i] = Game.new(seats, rules, table_seeds[i])
                histories[i] = History(seats)
                ended += 1
            else:
                assert bufs["done"][i] == 0 and not bufs["reward"][i].any()
    assert ended > 0


def test_step_refuses_an_illegal_action_and_changes_nothing() -> None:
    pool = Pool(2, "official", 2, [1, 2])
    bufs = pool.buffers()
    before = [pool.to_position(i) for i in range(2)]
    bad = np.array([int(np.flatnonzero(bufs["mask"][0])[0]), 444], np.int32)  # NOOP is never legal
    with pytest.raises(ValueError, match="table 1"):
        pool.step(bad, bufs)
    assert [pool.to_position(i) for i in range(2)] == before
