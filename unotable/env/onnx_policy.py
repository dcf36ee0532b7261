"""A bot that plays a policy saved in ONNX, run with onnxruntime (the extra ``onnx``).

A policy file is a standard ONNX model: one input, the observation as ``float32[batch, 854]``
(the bytes of :mod:`unotable.env.spaces`' layout as numbers, as SB3 feeds a ``Box`` of uint8),
and the action logits ``float32[batch, 445]`` as its first output. :mod:`unotable.env.export`
writes such files from a PyTorch module or an SB3 policy. The file is read as ONNX only (a
protobuf: data, never code), so a policy file cannot run anything when it is loaded; nothing here
uses pickle.

:class:`OnnxPolicyBot` sees what every bot sees, its seat's view, its legal actions and its
seat's events. It builds the environment's observation exactly (the view and the round's public
history, which :class:`~unotable.env.seat_history.SeatHistory` rebuilds from the seat's events)
and the environment's action mask, and plays the legal action of the highest logit
(``greedy=False`` samples from the masked softmax with the seat's generator).

Out-of-turn chances follow the mode the policy was trained in (the file's metadata
``unotable.out_of_turn``, which :mod:`unotable.env.export` writes; ``"auto"`` when absent, or the
bot's option ``out_of_turn``): under ``"auto"`` the bot makes every UNO call and catch at once
and never jumps in, as ``out_of_turn="auto"`` does in the environment; under ``"full"`` the policy
decides them too, NOOP declining.

>>> import numpy as np, onnx, tempfile, os, random
>>> from onnx import TensorProto, helper, numpy_helper
>>> from unotable.game import Game
>>> w = numpy_helper.from_array(np.random.default_rng(0).normal(size=(854, 445)).astype("float32"), "w")
>>> graph = helper.make_graph([helper.make_node("MatMul", ["obs", "w"], ["logits"])], "p",
...     [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", 854])],
...     [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 445])], [w])
>>> path = os.path.join(tempfile.mkdtemp(), "p.onnx")
>>> onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
>>> bot = OnnxPolicyBot(path)
>>> g = Game.new(seats=2, seed=1)
>>> v = g.view(g.active_seat)
>>> bot.choose(v, v.legal, random.Random(0)) in v.legal
True
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from unotable.actions import CALL_UNO, CATCH, Action
from unotable.bots.base import BaseBot
from unotable.env.seat_history import SeatHistory
from unotable.env.spaces import NOOP, NUM_ACTIONS, OBS_SIZE, encode, index_of, legal_mask
from unotable.env.table import auto_legal
from unotable.events import Event
from unotable.views import PlayerView

__all__ = ["OUT_OF_TURN_KEY", "OnnxPolicyBot", "PolicyFileError", "load_policy"]

OUT_OF_TURN_KEY = "unotable.out_of_turn"
"""The metadata key naming the out-of-turn mode a policy was trained in (``auto`` or ``full``)."""


class PolicyFileError(ValueError):
    """A policy file that is not a policy this bot can run (not ONNX, or the wrong shapes)."""


def _dim(shape: Sequence[Any], at: int) -> Any:
    """A declared dimension: an int, or a name (a dimension set at run time)."""
    return shape[at] if len(shape) > at else None


def load_policy(path: str | Path) -> tuple[Any, str, dict[str, str]]:
    """``(session, input name, metadata)`` of the ONNX policy at ``path``, its shapes checked;
    raises :class:`PolicyFileError` with the reason."""
    try:
        import onnxruntime as ort
    except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
        why = f"an ONNX policy needs onnxruntime: pip install 'unotable[onnx]' ({exc})"
        raise PolicyFileError(why) from None
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # one decision at a time: a thread pool only costs here
    options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for a bad file
        raise PolicyFileError(f"{Path(path).name}: not a model onnxruntime can load ({exc})") from None
    inputs, outputs = session.get_inputs(), session.get_outputs()
    name = Path(path).name
    if len(inputs) != 1 or not outputs:
        raise PolicyFileError(f"{name}: a policy has one input (the observation) and the logits as its "
                              f"first output, not {len(inputs)} inputs and {len(outputs)} outputs")
    shape_in = inputs[0].shape
    if inputs[0].type != "tensor(float)" or len(shape_in) != 2 or _dim(shape_in, 1) != OBS_SIZE:
        raise PolicyFileError(f"{name}: the input must be float32[batch, {OBS_SIZE}], "
                              f"not {inputs[0].type} {shape_in}")
    try:  # one run on two observations: the logits' shape, whatever the file declares
        probe = session.run(None, {inputs[0].name: np.zeros((2, OBS_SIZE), np.float32)})[0]
    except Exception as exc:
        raise PolicyFileError(f"{name}: the model does not run on observations ({exc})") from None
    if np.shape(probe) != (2, NUM_ACTIONS):
        raise PolicyFileError(f"{name}: the first output must be the logits [batch, {NUM_ACTIONS}], "
                              f"not {list(np.shape(probe))} for a batch of 2")
    meta = dict(session.get_modelmeta().custom_metadata_map)
    return session, inputs[0].name, meta


class OnnxPolicyBot(BaseBot):
    """Plays an ONNX policy (see the module docstring)."""

    name = "onnx"

    def __init__(self, path: str = "", greedy: bool = True, out_of_turn: str = "") -> None:
        if not path:
            raise ValueError("the ONNX policy bot needs path=FILE.onnx (unotable.env.export writes one)")
        self._setup(load_policy(path), greedy, out_of_turn)

    @classmethod
    def from_loaded(cls, loaded: tuple[Any, str, dict[str, str]], greedy: bool = True,
                    out_of_turn: str = "") -> OnnxPolicyBot:
        """A bot over a policy :func:`load_policy` loaded already (a server's seats share one)."""
        bot = cls.__new__(cls)
        bot._setup(loaded, greedy, out_of_turn)
        return bot

    def _setup(self, loaded: tuple[Any, str, dict[str, str]], greedy: bool, out_of_turn: str) -> None:
        self.session, self._input, self.metadata = loaded
        mode = out_of_turn or self.metadata.get(OUT_OF_TURN_KEY, "auto")
        if mode not in ("auto", "full"):
            raise PolicyFileError(f"out_of_turn is 'auto' or 'full', not {mode!r}")
        self.out_of_turn = mode
        self.greedy = greedy
        self._tracker: SeatHistory | None = None
        self._pending: list[Event] = []

    def restart(self) -> None:
        self._tracker = None
        self._pending = []

    def observe(self, events: Sequence[Event]) -> None:
        if self._tracker is None:  # the ruleset comes with the first view: keep the events until then
            self._pending.extend(events)
        else:
            self._tracker.observe(events)

    def _history(self, view: PlayerView) -> SeatHistory:
        tracker = self._tracker
        if tracker is None or tracker.history.n != view.seats:
            tracker = self._tracker = SeatHistory(view.ruleset, view.seats)
            tracker.observe(self._pending)
            self._pending = []
        return tracker

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The policy's logits for observations ``uint8[..., 854]`` (float32 ``[batch, 445]``)."""
        x = np.asarray(obs, dtype=np.float32).reshape(-1, OBS_SIZE)
        out = self.session.run(None, {self._input: x})[0]
        return np.asarray(out, dtype=np.float32).reshape(-1, NUM_ACTIONS)

    def observation(self, view: PlayerView) -> np.ndarray:
        """The environment's observation of ``view``'s seat (uint8[854])."""
        return np.frombuffer(bytes(encode(view, self._history(view).history)), dtype=np.uint8)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
        active = view.seat == view.active
        if self.out_of_turn == "auto":
            for kind in (CALL_UNO, CATCH):
                for a in legal:
                    if a.kind == kind:
                        return a
            if not active:
                return None  # no jump-ins
            options: Sequence[Action] = auto_legal(legal)
        else:
            options = legal
        if not options:
            return None
        if len(options) == 1 and active:
            return options[0]
        obs = self.observation(view)
        n = view.seats
        by_index = {index_of(a, view.seat, n): a for a in options}
        mask = np.frombuffer(bytes(legal_mask(options, view.seat, n, decline=not active)), dtype=np.uint8)
        scores = np.where(mask > 0, self.logits(obs)[0].astype(np.float64), -np.inf)
        if self.greedy:
            index = int(np.argmax(scores))
        else:
            p = np.exp(scores - scores.max())
            p /= p.sum()
            index = int(np.searchsorted(np.cumsum(p), rng.random() * p.sum()))
            index = min(index, NUM_ACTIONS - 1)
            while not mask[index]:  # (rounding at the top of the cumulative sum)
                index -= 1
        return None if index == NOOP else by_index[index]

    def __repr__(self) -> str:
        return f"OnnxPolicyBot(out_of_turn={self.out_of_turn!r})"
