"""PettingZoo's and Gymnasium's own checkers on every wrapper, for every preset at 2, 4 and 10 seats
(where the preset allows them), on the default constructors (an action outside the mask is a
forfeit, as in PettingZoo's classic games), plus the behaviours the checkers do not look at."""
from __future__ import annotations

import json
import types
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from unotable import Game, Ruleset
from unotable.env import aec_env, gym_env, parallel_env, vector_env
from unotable.env.backend import native_available
from unotable.env.spaces import NOOP, OBS_SIZE, History, encode
from unotable.errors import IllegalActionError
from unotable.record import Record, replay
from unotable.rules import PRESET_NAMES


def cases() -> list[tuple[str, int]]:
    out = []
    for preset in PRESET_NAMES:
        allowed = Ruleset.preset(preset).seat_counts
        out += [(preset, n) for n in (2, 4, 10) if n in allowed]
    return out


CASES = cases()


BACKENDS = ["python"] + (["native"] if native_available() else [])
"""Each checker runs on the Python engine and, where it is built, on the core."""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("preset", "n"), CASES)
def test_pettingzoo_api_test(preset: str, n: int, backend: str) -> None:
    env = aec_env(preset, seats=n, backend=backend)
    assert env.backend_name == backend
    api_test(env, num_cycles=200)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("preset", "n"), CASES)
def test_pettingzoo_parallel_api_test(preset: str, n: int, backend: str) -> None:
    parallel_api_test(parallel_env(preset, seats=n, backend=backend), num_cycles=200)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("preset", "n"), CASES)
def test_pettingzoo_seed_test(preset: str, n: int, backend: str) -> None:
    seed_test(lambda: aec_env(preset, seats=n, backend=backend), num_cycles=100)


# Gymnasium's checker steps actions sampled without a mask: the default forfeit takes them (and warns)
@pytest.mark.filterwarnings("ignore::unotable.env.IllegalActionWarning")
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("preset", "n"), CASES)
def test_gymnasium_check_env(preset: str, n: int, backend: str) -> None:
    env = gym_env(preset, seats=n, backend=backend)  # the defaults: rule-v1 opponents, illegal="lose"
    assert env.unwrapped.backend_name == backend
    check_env(env.unwrapped, skip_render_check=True)


def test_render_test() -> None:
    render_test(lambda render_mode=None: aec_env("official", seats=3, render_mode=render_mode))


def test_max_cycles_test() -> None:
    # max_cycles counts table actions; the parallel env applies one per step, and the AEC form of
    # the parallel env is what PettingZoo's test counts agent by agent.
    mod = types.SimpleNamespace(
        parallel_env=lambda max_cycles: parallel_env("official", seats=4, max_cycles=max_cycles),
        env=lambda max_cycles: parallel_to_aec(parallel_env("official", seats=4, max_cycles=max_cycles)),
    )
    max_cycles_test(mod)


def play_out(env: Any, totals: dict[str, float] | None = None, seed: int = 0) -> None:
    """Play the AEC env to the end with a seeded random policy that plays rather than draws."""
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        if totals is not None:
            totals[agent] += r
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        plays = legal[legal < 390]
        env.step(int(rng.choice(plays if len(plays) else legal)))


def test_the_aec_env_truncates_where_the_parallel_env_does() -> None:
    env = aec_env("official", seats=4, max_cycles=6)
    env.reset(seed=2)
    play_out(env)
    assert env.table.cycles == 6 and all(env.table.truncated)


def test_reset_seed_deals_game_new_exactly() -> None:
    for preset, n in CASES:
        env = aec_env(preset, seats=n)
        env.reset(seed=1234)
        assert env.game.to_position() == Game.new(seats=n, ruleset=preset, seed=1234).to_position()
    genv = gym_env("official", seats=2, opponents="random")
    genv.reset(seed=77)
    # the learner is seat 0; a bot may have acted first, so compare the deal itself
    assert genv.table.record().to_dict()["start"] == {"seed": 77}


def test_episodes_after_a_seeded_reset_are_reproducible() -> None:
    a, b = aec_env("house", seats=3), aec_env("house", seats=3)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.game.to_position() == b.game.to_position()
    assert a.game.seed != 5


def test_reset_from_a_position() -> None:
    doc = {"hands": [["R7", "G2"], ["B5", "R1"]], "discard": ["R3"], "draw": ["Y9"]}
    env = aec_env("official", seats=2)
    env.reset(options={"position": doc})
    obs, *_ = env.last()
    assert env.agent_selection == "seat_0"
    assert [str(c) for c in env.game.hand(0)] == ["R7", "G2"]
    assert obs["observation"][7] == 1  # R7 is card id 7


def test_an_illegal_index_raises_on_request_and_changes_nothing() -> None:
    env = aec_env("official", seats=2, illegal="raise")
    env.reset(seed=9)
    obs, *_ = env.last()
    before = env.game.to_position()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game.to_position() == before


def test_out_of_turn_full_offers_a_decline_and_auto_removes_it() -> None:
    saw_decline = {"full": 0, "auto": 0}
    for mode in ("full", "auto"):
        env = aec_env("house", seats=4, out_of_turn=mode, max_cycles=400)
        for seed in range(6):
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, _, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                mask = obs["action_mask"]
                if mask[NOOP]:
                    saw_decline[mode] += 1
                    assert info["decline"]
                    assert env.possible_agents.index(agent) != env.game.active_seat
                legal = np.flatnonzero(mask)
                env.step(int(legal[0]))  # a play where there is one (a jump-in when offered)
    assert saw_decline["full"] > 0 and saw_decline["auto"] == 0


def test_record_replays_in_unotable() -> None:
    env = aec_env("official", seats=3)
    env.reset(seed=21)
    play_out(env)
    record = env.record()
    again = replay(Record.from_json(record.to_json()))
    assert again.to_position() == env.game.to_position()
    assert json.loads(record.to_json())["start"] == {"seed": 21}


def test_rewards_win_are_zero_sum_and_rank_orders() -> None:
    for reward in ("win", "rank", "score"):
        env = aec_env("official", seats=4, reward=reward)
        env.reset(seed=3)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        play_out(env, totals)
        winner = env.game.round_result().winner
        assert totals[f"seat_{winner}"] == max(totals.values()) > 0
        if reward in ("win", "rank"):
            assert abs(sum(totals.values())) < 1e-9


def test_partnership_rewards_the_team() -> None:
    env = aec_env("partners", seats=4)
    env.reset(seed=8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    play_out(env, totals)
    w = env.game.round_result().winner
    assert totals[f"seat_{w}"] == totals[f"seat_{(w + 2) % 4}"] == 1.0
    assert totals[f"seat_{(w + 1) % 4}"] == -1.0


def test_match_episodes_deal_the_next_rounds() -> None:
    env = aec_env("official", seats=2, episode="match")
    env.reset(seed=4)
    play_out(env)
    assert env.game.is_over() and env.game.round_no > 1


def test_observation_is_the_spaces_encoding_of_the_view() -> None:
    env = aec_env("official", seats=3)
    env.reset(seed=6)
    obs, *_ = env.last()
    seat = env.table.seat
    assert bytes(obs["observation"]) == bytes(encode(env.game.view(seat), History(3)))
    assert env.state().shape == env.state_space.shape


@pytest.mark.filterwarnings("ignore::unotable.env.IllegalActionWarning")
def test_gym_illegal_forfeits_by_default_and_raises_on_request() -> None:
    for illegal in ("raise", "lose"):
        env = gym_env("official", seats=2, opponents="random", illegal=illegal)
        _, info = env.reset(seed=3)
        before = env.table.game.to_position()
        bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
        if illegal == "raise":
            with pytest.raises(IllegalActionError):
                env.step(bad)
        else:
            _, r, term, trunc, _ = env.step(bad)
            assert (r, term, trunc) == (-1.0, True, False)
        assert env.table.game.to_position() == before


def test_gym_masks_in_info_and_action_masks() -> None:
    env = gym_env("official", seats=2, opponents="rule-v1")
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBS_SIZE,)
    assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
    assert isinstance(env.render(), type(None))


def play_vector(backend: str, opponents: Any, steps: int) -> list[Any]:
    envs = vector_env(3, "official", seats=2, opponents=opponents, backend=backend)
    obs, infos = envs.reset(seed=50)
    rng = np.random.default_rng(0)
    trace = [obs.copy()]
    for _ in range(steps):
        mask = infos["action_mask"]
        acts = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in mask]
        obs, r, term, trunc, infos = envs.step(acts)
        trace += [obs.copy(), r.copy(), term.copy(), trunc.copy()]
    return trace


def test_vector_env_auto_resets_next_step() -> None:
    envs = vector_env(2, "official", seats=2, opponents="random", backend="python")
    _, infos = envs.reset(seed=1)
    ended = False
    for _ in range(400):
        mask = infos["action_mask"]
        acts = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in mask]
        _, r, term, _, infos = envs.step(acts)
        if term[0]:
            ended = True
            other = infos["action_mask"][1]
            _, r, term2, _, infos = envs.step([0, int(np.flatnonzero(other)[0]) if other.any() else 0])
            assert r[0] == 0 and not term2[0] and infos["action_mask"][0].any()
            break
    assert ended


def test_vector_env_backends_agree() -> None:
    if not native_available():
        pytest.skip("the native core is not built")
    for opponents in ("random", None):
        a = play_vector("python", opponents, 300)
        b = play_vector("native", opponents, 300)
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_vector_env_replays_from_its_seeds_in_both_modes() -> None:
    for opponents in ("random", None):
        a = play_vector("python", opponents, 150)
        b = play_vector("python", opponents, 150)
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_vector_self_play_rows_name_the_deciding_seat() -> None:
    envs = vector_env(3, "official", seats=3, opponents=None, backend="python")
    _, infos = envs.reset(seed=4)
    for i in range(3):
        table = envs.pool.tables[i]  # type: ignore[attr-defined]
        assert infos["seat"][i] == table.seat == table.game.active_seat
        assert table.game.seed == 4 + i
    totals = np.zeros((3, 3))
    for _ in range(600):
        _, _, term, _, infos = envs.step(envs.sample_legal())
        totals += infos["seat_rewards"]
        if term.all():
            break
    finished = np.abs(totals).sum(axis=1) > 0
    assert finished.any() and np.allclose(totals[finished].sum(axis=1), 0.0)
