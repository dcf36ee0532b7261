"""The constructors of :mod:`unotable.env` (imported lazily by the package).

>>> from unotable.env import aec_env, gym_env, parallel_env, vector_env
>>> aec_env("house", seats=4).possible_agents
['seat_0', 'seat_1', 'seat_2', 'seat_3']
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from unotable.env.aec import UnoAECEnv
from unotable.env.gymenv import UnoGymEnv
from unotable.env.parallel import UnoParallelEnv
from unotable.env.vector import UnoVectorEnv
from unotable.rules import Ruleset

__all__ = ["aec_env", "gym_env", "parallel_env", "vector_env"]

RulesetLike = Ruleset | str | Mapping[str, Any]


def aec_env(ruleset: RulesetLike = "official", seats: int = 4, **options: Any) -> UnoAECEnv:
    """A PettingZoo AEC env (:class:`~unotable.env.aec.UnoAECEnv`): options ``out_of_turn``,
    ``episode``, ``reward``, ``max_cycles``, ``render_mode``, ``seed``, ``backend`` (``"auto"``,
    ``"python"``, ``"native"``: the table in the engine or in the C++ core)."""
    return UnoAECEnv(ruleset, seats, **options)


def parallel_env(ruleset: RulesetLike = "official", seats: int = 4, **options: Any) -> UnoParallelEnv:
    """A PettingZoo Parallel env (:class:`~unotable.env.parallel.UnoParallelEnv`), same options
    (``backend`` included)."""
    return UnoParallelEnv(ruleset, seats, **options)


def gym_env(ruleset: RulesetLike = "official", seats: int = 2, **options: Any) -> UnoGymEnv:
    """A Gymnasium env for one learning seat against bots (:class:`~unotable.env.gymenv.UnoGymEnv`):
    options ``opponents``, ``seat``, ``out_of_turn``, ``episode``, ``reward``, ``max_cycles``,
    ``illegal``, ``render_mode``, ``backend`` (the table and the bots in the engine or, for the
    core's bots, in the C++ core)."""
    return UnoGymEnv(ruleset, seats, **options)


def vector_env(num_envs: int, ruleset: RulesetLike = "official", seats: int = 2,
               **options: Any) -> UnoVectorEnv:
    """A Gymnasium vector env of ``num_envs`` tables (:class:`~unotable.env.vector.UnoVectorEnv`):
    options ``opponents`` (None: self-play), ``seat``, ``out_of_turn``, ``episode``, ``reward``,
    ``max_cycles``, ``backend``."""
    return UnoVectorEnv(num_envs, ruleset, seats, **options)
