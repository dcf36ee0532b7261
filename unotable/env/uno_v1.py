"""UNO as a PettingZoo environment module, the way PettingZoo's own classic games are laid out
(``from pettingzoo.classic import connect_four_v3``): ``env()`` is the AEC env, ``parallel_env()``
the Parallel env and ``raw_env`` the AEC env's class. Every argument is the constructors' own
(:func:`unotable.env.aec_env`: ``ruleset``, ``seats``, ``out_of_turn``, ``episode``, ``reward``,
``max_cycles``, ``render_mode``, ``seed``, ``backend``, ``illegal``); an action outside the mask
ends the game as that agent's forfeit, as PettingZoo's classic games do.

>>> from unotable.env import uno_v1
>>> env = uno_v1.env(seats=2, backend="python")
>>> env.reset(seed=1)
>>> isinstance(env, uno_v1.raw_env), env.possible_agents
(True, ['seat_0', 'seat_1'])
>>> uno_v1.parallel_env(seats=3).possible_agents
['seat_0', 'seat_1', 'seat_2']
"""
from __future__ import annotations

from typing import Any

from unotable.env.aec import UnoAECEnv
from unotable.env.parallel import UnoParallelEnv

__all__ = ["env", "parallel_env", "raw_env"]

raw_env = UnoAECEnv


def env(ruleset: Any = "official", seats: int = 4, **options: Any) -> UnoAECEnv:
    """The AEC env (:class:`~unotable.env.aec.UnoAECEnv`), as :func:`unotable.env.aec_env`."""
    return UnoAECEnv(ruleset, seats, **options)


def parallel_env(ruleset: Any = "official", seats: int = 4, **options: Any) -> UnoParallelEnv:
    """The Parallel env (:class:`~unotable.env.parallel.UnoParallelEnv`), as
    :func:`unotable.env.parallel_env`."""
    return UnoParallelEnv(ruleset, seats, **options)
