"""The core does not implement ``uno_grace`` (UNO-GRACE-1 to UNO-GRACE-3): it refuses such a
ruleset with a clear error, and whatever picks an engine by itself plays it in Python instead."""
from __future__ import annotations

import pytest

from unotable import Ruleset
from unotable.bots.arena import run_arena
from unotable.bots.ismcts import _core_plays
from unotable.env.backend import make_table

pytest.importorskip("unotable_native")

from unotable_native import Pool, native_config

GRACE = Ruleset.preset("house").replace(uno_grace=True)


@pytest.mark.rule("UNO-GRACE-1")
def test_the_core_refuses_a_ruleset_with_the_grace() -> None:
    with pytest.raises(NotImplementedError, match="does not implement uno_grace"):
        native_config(GRACE)
    with pytest.raises(NotImplementedError, match="does not implement uno_grace"):
        Pool(1, GRACE, 3)
    assert native_config(Ruleset.preset("house"))["seven_zero"] == 1


@pytest.mark.rule("UNO-GRACE-1")
def test_what_picks_an_engine_plays_the_grace_in_python() -> None:
    _table, name = make_table("auto", GRACE, 3)
    assert name == "python"
    with pytest.raises(NotImplementedError, match="uno_grace"):
        make_table("native", GRACE, 3)
    assert run_arena(GRACE, 3, ["random"], games=2, seed=1).engine == "python"
    with pytest.raises(ValueError, match="uno_grace"):
        run_arena(GRACE, 3, ["random"], games=2, seed=1, engine="native")
    assert not _core_plays(GRACE) and _core_plays(Ruleset.preset("house"))
