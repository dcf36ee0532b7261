"""The RL environment (extra ``rl``): PettingZoo AEC and Parallel envs, Gymnasium single-agent and
vector envs over the engine, with one action and observation layout (:mod:`unotable.env.spaces`).
The AEC, Parallel and vector envs also run over the native core (``backend="auto"``, the
default, when ``unotable_native`` is built; see :mod:`unotable.env.common`).

Importing this package registers ``"unotable/Uno-v1"`` with Gymnasium (when it is installed):
``gymnasium.make("unotable/Uno-v1", ruleset="official", seats=2, opponents="rule-v1")`` is
:class:`~unotable.env.gymenv.UnoGymEnv` (in Gymnasium's wrappers), and
``gymnasium.make_vec("unotable/Uno-v1", num_envs=64, vectorization_mode="vector_entry_point")``
the vector env. ``from unotable.env import uno_v1`` is the PettingZoo-style module: ``uno_v1.env()``,
``uno_v1.parallel_env()``, ``uno_v1.raw_env``.

The constructors are imported lazily, so ``unotable.env.spaces`` (pure Python, the layouts'
reference) imports without numpy, gymnasium or pettingzoo.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from unotable.env.illegal import IllegalActionWarning

__all__ = ["GYM_ID", "IllegalActionWarning", "aec_env", "gym_env", "parallel_env", "uno_v1", "vector_env"]

GYM_ID = "unotable/Uno-v1"
"""The Gymnasium id of :class:`~unotable.env.gymenv.UnoGymEnv` (registered on import)."""

_LAZY = ("aec_env", "gym_env", "parallel_env", "vector_env")


def _register() -> None:
    if importlib.util.find_spec("gymnasium") is None:
        return  # without the rl extra there is nothing to register with
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="unotable.env.gymenv:UnoGymEnv",
                           vector_entry_point="unotable.env.vector:UnoVectorEnv")


_register()


def __getattr__(name: str) -> Any:
    if name in _LAZY or name == "uno_v1":
        try:
            if name == "uno_v1":
                return importlib.import_module("unotable.env.uno_v1")
            from unotable.env import make
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            hint = "pip install 'unotable[rl]'"
            raise ImportError(f"unotable.env.{name} needs the rl extra: {hint} ({exc})") from exc
        return getattr(make, name)
    raise AttributeError(f"module 'unotable.env' has no attribute {name!r}")
