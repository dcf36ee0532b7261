"""Opponents given as a batched policy: a callable that decides for many tables in one call.

The vector env (:mod:`unotable.env.vector`) takes, among its ``opponents``, any callable that is
not a bot (it has no ``choose`` method): ``policy(obs, mask) -> actions``, with ``obs`` the uint8
observations ``(k, 854)`` and ``mask`` the boolean legal masks ``(k, 445)`` of the ``k`` tables
whose seats of that policy must decide now (out-of-turn chances included: NOOP is then in the
mask), and ``actions`` ``k`` action indices (a numpy array, a list, or a torch tensor). Both
backends call it the same way: after the learners' actions are applied, every table that waits on
such a seat is gathered, in table order, and each distinct policy is called once with its tables'
rows (policies in the order of their first seat in ``opponents``); the tables then run on, and
this repeats until every table waits on its learner (or its episode is over). So a frozen copy of
a network, in numpy or torch, plays inside the native core's loop instead of forcing the Python
backend, and the two backends give the same results from the same seeds and policies.

>>> import numpy as np
>>> first_legal = lambda obs, mask: mask.argmax(axis=1)
>>> is_batched(first_legal), is_batched("rule-v1")
(True, False)
>>> call_policy(first_legal, np.zeros((2, 854), np.uint8), np.eye(2, 445, 3, dtype=bool)).tolist()
[3, 4]
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["BatchedPolicy", "batched_policies", "call_policy", "illegal_choice", "is_batched"]

BatchedPolicy = Callable[[np.ndarray, np.ndarray], Any]
"""``policy(obs uint8 (k, 854), mask bool (k, 445)) -> k action indices``."""


def is_batched(spec: object) -> bool:
    """Whether an opponent spec is a batched policy: a callable that is not a bot spec or a bot."""
    return callable(spec) and not isinstance(spec, str) and not hasattr(spec, "choose")


def batched_policies(opponents: object) -> list[BatchedPolicy]:
    """The distinct batched policies among ``opponents`` (one spec or one per other seat), in the
    order of their first appearance: policy ``j`` of the pools."""
    single = isinstance(opponents, str) or not isinstance(opponents, Sequence)
    given: Sequence[object] = [opponents] if single else opponents  # type: ignore[assignment]
    out: list[BatchedPolicy] = []
    for spec in given:
        if is_batched(spec) and not any(spec is p for p in out):
            out.append(spec)  # type: ignore[arg-type]
    return out


def call_policy(policy: BatchedPolicy, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``policy(obs, mask)`` as an int64 array of ``len(obs)`` actions (a torch tensor is moved to
    the CPU first); a result of another shape or kind raises ``ValueError``."""
    out = policy(obs, mask)
    if hasattr(out, "detach"):  # a torch tensor
        out = out.detach().cpu().numpy()
    acts = np.asarray(out)
    if acts.shape != (len(obs),) or acts.dtype.kind not in "iu":
        raise ValueError(f"an opponent policy must return {len(obs)} int action indices, one per row, "
                         f"not {acts.dtype} {acts.shape}")
    return acts.astype(np.int64)


def illegal_choice(table: int, seat: int, action: int) -> str:
    """The error text for an opponent policy's action outside the mask (the pool must be reset)."""
    return (f"table {table}: the opponent policy at seat {seat} chose action {action}, which is not "
            f"legal now; the vector step is left half done: reset the env")
