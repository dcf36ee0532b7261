"""The vector env refuses reset options it does not take (a position among them) instead of
ignoring them, on both backends, and no table changes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from unotable.env import vector_env
from unotable.game import Game

BACKENDS = ["python"]
try:  # the core's backend where it is built
    import unotable_native.vector  # noqa: F401

    BACKENDS.append("native")
except ImportError:
    pass


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_position_option_is_refused_and_nothing_changes(backend: str) -> None:
    envs = vector_env(3, "official", seats=2, backend=backend)
    obs, _ = envs.reset(seed=7)
    doc = Game.new(2, "official", seed=99).to_position()
    with pytest.raises(ValueError, match=r"no reset options \(given: position\).*aec_env"):
        envs.reset(seed=8, options={"position": doc})
    again, _ = envs.reset(seed=7)
    assert np.array_equal(obs, again)  # the refused reset dealt nothing in between
    stepped = envs.step(envs.sample_legal())
    assert stepped[0].shape == obs.shape


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_empty_options_dict_is_a_plain_reset(backend: str) -> None:
    envs = vector_env(2, "official", seats=2, backend=backend)
    a, _ = envs.reset(seed=3, options={})
    b, _ = envs.reset(seed=3)
    assert np.array_equal(a, b)
