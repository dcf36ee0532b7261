"""Save a trained policy as an ONNX file that :class:`~unotable.env.onnx_policy.OnnxPolicyBot`
plays (at an online table: ``unotable serve --policies DIR``; in the arena: ``make_bot("onnx",
path=...)``). Needs PyTorch and the extra ``onnx`` (onnx, onnxruntime).

- :func:`export_torch`: any ``torch.nn.Module`` that maps observations ``float32[batch, 854]``
  to action logits ``float32[batch, 445]`` (a module whose forward returns a tuple exports its
  first element).
- :func:`export_sb3`: the policy of an SB3 model (``PPO``, sb3-contrib's ``MaskablePPO``) on a
  ``Discrete(445)`` action space: its features extractor, the actor's part of its MLP and its
  action head, i.e. the logits its action distribution is built from (the mask is applied by the
  bot, as MaskablePPO applies it).

The file records the out-of-turn mode the policy was trained in (metadata
``unotable.out_of_turn``: ``"auto"`` or ``"full"``, the env's option), so that the bot decides
the same decision points. Each export is checked: onnxruntime loads the file and its logits on
sample observations equal the module's (to ``atol``), else :class:`ExportError`.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np

from unotable.env.onnx_policy import OUT_OF_TURN_KEY, load_policy
from unotable.env.spaces import NUM_ACTIONS, OBS_SIZE

__all__ = ["ExportError", "export_sb3", "export_torch"]

OPSET = 17


class ExportError(RuntimeError):
    """The exported file does not compute what the module does."""


def _wrap(module: Any) -> Any:
    import torch

    class Logits(torch.nn.Module):
        """The module with its first output only, the observation cast to float32."""

        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, obs: Any) -> Any:
            out = self.inner(obs.to(torch.float32))
            return out[0] if isinstance(out, tuple | list) else out

    return Logits(module)


def _torch_logits(module: Any, obs: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        out = module(torch.as_tensor(obs, dtype=torch.float32))
    return np.asarray(out.detach().cpu().numpy(), dtype=np.float32)


def _samples(seed: int = 0, count: int = 8) -> np.ndarray:
    """Observations of real decision points (a few random rounds' first decisions)."""
    from unotable.env.table import Table

    rng = np.random.default_rng(seed)
    rows = []
    for k in range(count):
        table = Table("official" if k % 2 else "house", 2 + k % 3)
        table.reset(seed=seed + k)
        for _ in range(k):  # a few steps in: a history, a discard pile
            if table.done:
                break
            legal = np.flatnonzero(np.frombuffer(bytes(table.mask()), dtype=np.uint8))
            table.step(int(rng.choice(legal)))
        rows.append(np.frombuffer(bytes(table.observation(table.seat)), dtype=np.uint8))
    return np.stack(rows)


def export_torch(module: Any, path: str | Path, *, out_of_turn: str = "auto", atol: float = 1e-4) -> Path:
    """Write ``module`` (observations -> logits) to ``path`` as ONNX; return the path.

    For example (``tests/env/test_onnx_policy.py`` runs it)::

        net = torch.nn.Sequential(torch.nn.Linear(854, 64), torch.nn.ReLU(), torch.nn.Linear(64, 445))
        export_torch(net, "policies/tiny.onnx")
        bot = make_bot("onnx", path="policies/tiny.onnx")
    """
    import onnx
    import torch

    if out_of_turn not in ("auto", "full"):
        raise ValueError(f"out_of_turn is 'auto' or 'full' (the env's option), not {out_of_turn!r}")
    path = Path(path)
    wrapped = _wrap(module).eval()
    example = torch.zeros((1, OBS_SIZE), dtype=torch.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notice
        torch.onnx.export(
            wrapped, (example,), str(path), input_names=["obs"], output_names=["logits"],
            dynamic_axes={"obs": {0: "batch"}, "logits": {0: "batch"}}, opset_version=OPSET, dynamo=False,
        )
    model = onnx.load(str(path))
    onnx.helper.set_model_props(model, {OUT_OF_TURN_KEY: out_of_turn, "unotable.obs": f"uint8[{OBS_SIZE}]"})
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    obs = _samples()
    session, name, _ = load_policy(path)
    got = np.asarray(session.run(None, {name: obs.astype(np.float32)})[0])
    want = _torch_logits(wrapped, obs)
    if got.shape != (len(obs), NUM_ACTIONS) or not np.allclose(got, want, atol=atol, rtol=1e-4):
        raise ExportError(f"{path.name}: the ONNX logits differ from the module's "
                          f"(largest difference {float(np.abs(got - want).max()):.3g})")
    return path


def export_sb3(model: Any, path: str | Path, *, out_of_turn: str = "auto", atol: float = 1e-4) -> Path:
    """Write the policy of an SB3 model (or an SB3 ``ActorCriticPolicy`` itself) to ``path`` as
    ONNX: the logits of its action distribution."""
    import torch

    policy = getattr(model, "policy", model)
    for part in ("extract_features", "mlp_extractor", "action_net"):
        if not hasattr(policy, part):
            raise TypeError(f"export_sb3 takes an SB3 actor-critic model or policy; {type(policy).__name__} "
                            f"has no {part}")

    class Sb3Logits(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, obs: Any) -> Any:
            p = self.inner
            features = p.extract_features(obs, p.pi_features_extractor)
            return p.action_net(p.mlp_extractor.forward_actor(features))

    device, training = next(policy.parameters()).device, policy.training
    policy.cpu().eval()
    try:
        return export_torch(Sb3Logits(policy), path, out_of_turn=out_of_turn, atol=atol)
    finally:  # the model goes back where and as it was
        policy.to(device).train(training)
