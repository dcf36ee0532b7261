"""ONNX policies: exported from PyTorch and SB3, played by OnnxPolicyBot exactly as the module would."""
from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from unotable.actions import CALL_UNO, CATCH, Action  # noqa: E402
from unotable.arbiter import Arbiter  # noqa: E402
from unotable.bots import make_bot  # noqa: E402
from unotable.bots.registry import BotSpecError  # noqa: E402
from unotable.env.export import export_sb3, export_torch  # noqa: E402
from unotable.env.onnx_policy import OnnxPolicyBot, load_policy  # noqa: E402
from unotable.env.spaces import NOOP, NUM_ACTIONS, OBS_SIZE, index_of, legal_mask  # noqa: E402
from unotable.env.table import Table, auto_legal  # noqa: E402
from unotable.game import Game  # noqa: E402
from unotable.phase import Phase  # noqa: E402
from unotable.views import PlayerView  # noqa: E402


def tiny_module(seed: int = 0) -> Any:
    torch.set_num_threads(1)  # (a tiny network: threads would only wait on each other)
    torch.manual_seed(seed)
    layers = [torch.nn.Linear(OBS_SIZE, 32), torch.nn.Tanh(), torch.nn.Linear(32, NUM_ACTIONS)]
    return torch.nn.Sequential(*layers)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """A small module and its export (one export for the module's tests: it takes seconds)."""
    module = tiny_module()
    return module, export_torch(module, tmp_path_factory.mktemp("onnx") / "tiny.onnx")


def torch_logits(module: Any, obs: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        out = module(torch.as_tensor(np.asarray(obs, np.float32).reshape(-1, OBS_SIZE)))
    return np.asarray(out.numpy(), np.float32)


def decision_points(count: int, preset: str = "house", seats: int = 3) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` (observation, mask) pairs of real decision points, random play."""
    rng = random.Random(5)
    points = []
    episode = 0
    while len(points) < count:
        table = Table(preset, seats, out_of_turn="full")
        table.reset(seed=episode)
        episode += 1
        while not table.done and len(points) < count:
            obs = np.frombuffer(bytes(table.observation(table.seat)), np.uint8).copy()
            mask = np.frombuffer(bytes(table.mask()), np.uint8).copy()
            points.append((obs, mask))
            table.step(rng.choice(np.flatnonzero(mask).tolist()))
    return points


def test_the_exported_policy_computes_the_modules_logits_and_actions(exported: tuple[Any, Path]) -> None:
    module, path = exported
    bot = make_bot("onnx", path=str(path))
    assert isinstance(bot, OnnxPolicyBot) and bot.out_of_turn == "auto"
    points = decision_points(300)
    obs = np.stack([o for o, _ in points])
    masks = np.stack([m for _, m in points]) > 0
    got, want = bot.logits(obs), torch_logits(module, obs)
    assert got.shape == (300, NUM_ACTIONS)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    ours = np.where(masks, got, -np.inf).argmax(axis=1)
    theirs = np.where(masks, want, -np.inf).argmax(axis=1)
    assert (ours == theirs).all()
    assert len(set(ours.tolist())) > 5  # the decisions are varied, not one index everywhere


class Recording(OnnxPolicyBot):
    """The bot, checked at every decision against the env's observation and the module's choice."""

    table: Table
    module: Any
    checked: int = 0

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        choice = super().choose(view, legal, rng)
        options = auto_legal(legal)
        calls = any(a.kind in (CALL_UNO, CATCH) for a in legal)
        if view.seat == view.active and len(options) > 1 and not calls:
            obs = np.frombuffer(bytes(self.table.observation(view.seat)), np.uint8)
            assert (self.observation(view) == obs).all(), "the bot's observation is not the env's"
            mask = np.frombuffer(bytes(legal_mask(options, view.seat, view.seats)), np.uint8) > 0
            best = int(np.where(mask, torch_logits(self.module, obs)[0], -np.inf).argmax())
            assert choice is not None and index_of(choice, view.seat, view.seats) == best
            self.checked += 1
        return choice


@pytest.mark.parametrize(("preset", "seats"), [("official", 2), ("house", 4), ("no-mercy", 3)])
def test_the_bot_at_a_table_sees_the_envs_observation_and_plays_the_modules_choice(
    exported: tuple[Any, Path], preset: str, seats: int
) -> None:
    module, path = exported
    loaded = load_policy(path)
    bot = Recording.from_loaded(loaded)
    assert isinstance(bot, Recording)
    bot.module = module
    rng = random.Random(1)
    for seed in range(3):
        table = Table(preset, seats, out_of_turn="auto", opponents={1: bot}, max_cycles=400)
        bot.table = table
        table.reset(seed=seed)
        while not table.done:
            table.step(rng.choice([i for i, m in enumerate(table.mask()) if m]))
    assert bot.checked > 10


def test_full_out_of_turn_policies_decline_with_noop(tmp_path: Path) -> None:
    class Declines(torch.nn.Module):  # NOOP above everything: never a call, a catch or a jump-in
        def forward(self, obs: Any) -> Any:
            out = torch.zeros((obs.shape[0], NUM_ACTIONS))
            out[:, NOOP] = 1.0
            return out + obs[:, :1] * 0

    bot = make_bot("onnx", path=str(export_torch(Declines(), tmp_path / "d.onnx", out_of_turn="full")))
    assert bot.out_of_turn == "full"
    game = Game.from_position({"hands": [["R7"], ["Y1", "Y2"], ["G1", "G2"]], "discard": ["R3"], "active": 1})
    view = game.view(0)  # seat 0 holds one card without having called: it may call UNO out of turn
    assert any(a.kind == CALL_UNO for a in view.legal)
    assert bot.choose(view, view.legal, random.Random(0)) is None
    auto = make_bot("onnx", path=str(export_torch(Declines(), tmp_path / "a.onnx")))
    assert auto.choose(view, view.legal, random.Random(0)).kind == CALL_UNO  # the auto mode calls at once


@pytest.mark.parametrize(("preset", "seats"), [("official", 2), ("house", 4), ("no-mercy", 3)])
def test_the_bot_plays_whole_rounds_through_the_arbiter(
    exported: tuple[Any, Path], preset: str, seats: int
) -> None:
    path = exported[1]
    for seed in range(2):
        game = Game.new(seats=seats, ruleset=preset, seed=seed)
        agents = {s: make_bot("onnx", path=str(path), greedy=False) if s < 2 else make_bot("rule-v1")
                  for s in range(seats)}
        Arbiter(game, agents, seed=seed).play_round(max_actions=5000)
        assert game.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)


def test_a_file_that_is_not_a_policy_is_refused_with_its_reason(tmp_path: Path) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"\x08\x07not a model at all")
    with pytest.raises(ValueError, match=r"junk\.onnx: not a model"):
        make_bot("onnx", path=str(junk))
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    for name, width, out in (("narrow", 10, NUM_ACTIONS), ("short", OBS_SIZE, 9)):
        graph = helper.make_graph(
            [helper.make_node("ReduceSum", ["obs"], ["s"], keepdims=1),
             helper.make_node("Expand", ["s", "shape"], ["logits"])], name,
            [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", width])],
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", out])],
            [helper.make_tensor("shape", TensorProto.INT64, [2], [1, out])])
        path = tmp_path / f"{name}.onnx"
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
        with pytest.raises(ValueError, match=rf"{name}\.onnx: the (input|first output) must be"):
            make_bot("onnx", path=str(path))
    with pytest.raises(ValueError, match="path="):
        make_bot("onnx")
    with pytest.raises(BotSpecError):
        make_bot("onnx", path=str(junk), nosuch=1)


def test_an_sb3_maskable_ppo_policy_exports_and_plays_as_trained(tmp_path: Path) -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    gymnasium = pytest.importorskip("gymnasium")
    import unotable.env  # noqa: F401  (registers unotable/Uno-v1)

    env = gymnasium.make("unotable/Uno-v1", ruleset="official", seats=2, opponents="rule-v1",
                         out_of_turn="auto")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                                    policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(total_timesteps=64)
    bot = make_bot("onnx", path=str(export_sb3(model, tmp_path / "sb3.onnx")))
    points = decision_points(120, preset="official", seats=2)
    for obs, mask in points:
        if mask[NOOP]:
            continue
        action, _ = model.predict(obs, deterministic=True, action_masks=mask > 0)
        logits = bot.logits(obs)[0]
        assert int(np.where(mask > 0, logits, -np.inf).argmax()) == int(action)
