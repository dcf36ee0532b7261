"""The policy bot: a saved network plays through the arbiter like any bot, legally."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from unotable.arbiter import Arbiter
from unotable.bots import make_bot
from unotable.bots.registry import BotSpecError
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE, History, encode, index_of
from unotable.env.table import auto_legal
from unotable.game import Game
from unotable.phase import Phase


def save_random_net(path: Path, seed: int = 0, hidden: int = 16) -> None:
    rng = np.random.default_rng(seed)
    shapes = [(OBS_SIZE, hidden), (hidden, hidden), (hidden, NUM_ACTIONS), (hidden, 1)]
    arrays = {f"w{i}": rng.normal(size=s).astype(np.float32) for i, s in enumerate(shapes)}
    arrays.update({f"b{i}": np.zeros(s[1], np.float32) for i, s in enumerate(shapes)})
    np.savez(path, **arrays)


@pytest.mark.parametrize(("preset", "seats"), [("official", 2), ("house", 4), ("no-mercy", 3)])
def test_policy_bot_plays_whole_rounds(tmp_path: Path, preset: str, seats: int) -> None:
    path = tmp_path / "p.npz"
    save_random_net(path)
    for seed in range(3):
        game = Game.new(seats=seats, ruleset=preset, seed=seed)
        agents = {s: make_bot("policy", path=str(path)) if s == 0 else make_bot("rule-v1")
                  for s in range(seats)}
        Arbiter(game, agents, seed=seed).play_round(max_actions=5000)
        assert game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


def test_the_greedy_choice_is_the_highest_logit(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    save_random_net(path, seed=3)
    bot = make_bot("policy", path=str(path))
    game = Game.new(seats=2, seed=8)
    view = game.view(game.active_seat)
    logits = bot.logits(np.frombuffer(encode(view, History(2)), dtype=np.uint8))
    options = auto_legal(view.legal)
    best = max(options, key=lambda a: logits[index_of(a, view.seat, 2)])
    assert bot.choose(view, view.legal, random.Random(0)) == best


def test_policy_bot_needs_a_path() -> None:
    with pytest.raises(ValueError, match="path="):
        make_bot("policy")
    with pytest.raises(BotSpecError):
        make_bot("policy", nosuch=1)
