"""The core's RNG is unotable/rng.py's, output for output (MT19937 seeded as random.Random(int))."""
from __future__ import annotations

import random
from typing import Any

import pytest

from unotable.rng import Rng

from lockstep import native

SEEDS = [0, 1, 2, 7, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
         2**64 + 12345, 2**100 + 3, 2**255 + 17, *range(100, 160)]


def _core_rng(seed: int) -> Any:
    return native._core.Rng(native.seed_words(seed))


@pytest.mark.rule("GEN-3")
@pytest.mark.parametrize("seed", SEEDS)
def test_below_shuffle_and_state_match(seed: int) -> None:
    ref = Rng(seed)
    core = _core_rng(seed)
    assert core.state() == ref.to_state()  # seeding: init_by_array over the seed's words
    assert [core.below(n) for n in range(1, 400)] == [ref.below(n) for n in range(1, 400)]
    for size in (0, 1, 2, 108, 112, 168):
        cards = list(range(size))
        ref.shuffle(cards)
        assert core.shuffle(list(range(size))) == cards
    assert core.state() == ref.to_state()


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_python_random_choices_match(seed: int) -> None:
    """randbelow and random() are random.Random's (the built-in policies port Python bots with them)."""
    ref = random.Random(seed)
    core = _core_rng(seed)
    for n in (1, 2, 3, 5, 7, 64, 100, 1000, 2**31 + 5):
        assert [core.randbelow(n) for _ in range(20)] == [ref.randrange(n) for _ in range(20)]
    assert [core.random() for _ in range(50)] == [ref.random() for _ in range(50)]


def test_many_seeds_first_outputs() -> None:
    r = random.Random(9)
    for _ in range(2000):
        seed = r.getrandbits(r.choice([8, 32, 33, 64, 65, 128]))
        ref = Rng(seed)
        core = _core_rng(seed)
        assert [core.below(168) for _ in range(4)] == [ref.below(168) for _ in range(4)], seed


def test_seed_words_refuse_what_the_core_cannot_hold() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        native.seed_words(-1)
    with pytest.raises(ValueError, match="2\\*\\*256"):
        native.seed_words(2**256)


def test_the_core_under_test_is_the_one_asked_for() -> None:
    """make native-sanitize names its build in UNOTABLE_NATIVE_CORE: these tests must run on it."""
    import os

    path = os.environ.get("UNOTABLE_NATIVE_CORE")
    if path:
        assert os.path.samefile(native._core.__file__, path)
    else:
        assert native._core.__name__ == "unotable_native._core"
