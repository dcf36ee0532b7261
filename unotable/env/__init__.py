"""The RL environment (extra ``rl``): PettingZoo AEC and Parallel envs, Gymnasium single-agent and
vector envs over the engine, with one action and observation layout (:mod:`unotable.env.spaces`).
The AEC, Parallel and vector envs also run over the native core (``backend="auto"``, the
default, when ``unotable_native`` is built; see :mod:`unotable.env.common`).

The constructors are imported lazily, so ``unotable.env.spaces`` (pure Python, the layouts'
reference) imports without numpy, gymnasium or pettingzoo.
"""
from __future__ import annotations

from typing import Any

__all__ = ["aec_env", "gym_env", "parallel_env", "vector_env"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        try:
            from unotable.env import make
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            hint = "pip install 'unotable[rl]'"
            raise ImportError(f"unotable.env.{name} needs the rl extra: {hint} ({exc})") from exc
        return getattr(make, name)
    raise AttributeError(f"module 'unotable.env' has no attribute {name!r}")
