"""The bots a server offers: the levels, --bots names, --policies files; bad files skipped, not fatal."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

from unotable.env.export import export_torch  # noqa: E402
from unotable.env.onnx_policy import OnnxPolicyBot  # noqa: E402
from unotable.env.policy_bot import PolicyBot  # noqa: E402
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE  # noqa: E402
from unotable.server.table.offer import build_offer  # noqa: E402


def test_policies_are_offered_and_bad_files_are_reported_and_skipped(tmp_path: Path) -> None:
    torch.manual_seed(0)
    export_torch(torch.nn.Linear(OBS_SIZE, NUM_ACTIONS), tmp_path / "Good_One.onnx")
    rng = np.random.default_rng(0)
    shapes = [(OBS_SIZE, 8), (8, 8), (8, NUM_ACTIONS), (8, 1)]
    arrays = {f"w{i}": rng.normal(size=s).astype("float32") for i, s in enumerate(shapes)}
    arrays.update({f"b{i}": np.zeros(s[1], "float32") for i, s in enumerate(shapes)})
    np.savez(tmp_path / "mlp.npz", **arrays)
    (tmp_path / "broken.onnx").write_bytes(b"\x08\x07this is not a model")
    np.save(tmp_path / "pickled.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    (tmp_path / "pickled.npy").rename(tmp_path / "pickled.npz")  # an object array: pickle inside
    (tmp_path / "heuristic.onnx").write_bytes((tmp_path / "Good_One.onnx").read_bytes())
    (tmp_path / "a name far too long.onnx").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a policy")
    offer = build_offer(["mixbot"], tmp_path)
    assert offer.names() == ("random", "rule-v1", "heuristic", "ismcts", "mixbot", "good-one", "mlp")
    assert [b["kind"] for b in offer.doc()][-3:] == ["bot", "policy", "policy"]
    assert isinstance(offer.make("good-one"), OnnxPolicyBot)
    assert isinstance(offer.make("MLP"), PolicyBot)
    problems = "\n".join(offer.problems)
    for name in ("broken.onnx", "pickled.npz", "heuristic.onnx", "a name far too long.onnx"):
        assert f"{name}: skipped" in problems
    assert len(offer.problems) == 4
    assert offer.key("nosuch") is None and "levels: random, rule-v1" in offer.refusal("nosuch")


def test_the_operators_mistakes_stop_the_server_with_a_reason(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such bot"):
        build_offer(["nosuch"])
    with pytest.raises(ValueError, match="cannot be seated"):
        build_offer(["policy"])  # needs a path
    with pytest.raises(ValueError, match="not a directory"):
        build_offer([], tmp_path / "missing")
