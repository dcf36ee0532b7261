"""The one seeded random number generator of a game.

unotable uses MT19937 (the reference Mersenne Twister, seeded with ``init_by_array`` from the
32-bit words of the seed, exactly as CPython's ``random.Random(seed)`` does for a non-negative
int) and takes every random choice through two specified steps of its own, so the same seed gives
the same game on every machine and Python version:

- ``below(n)``: one 64-bit output ``x`` (two 32-bit words, as ``getrandbits(64)``), mapped to
  ``(x * n) >> 64``.
- ``shuffle(cards)``: Fisher-Yates from the last position down: for ``i`` from ``len - 1`` to 1,
  swap position ``i`` with ``below(i + 1)``.

The generator's state is part of the game state: it is copied with the game and written into a
position, and it never appears in a view.

>>> rng = Rng(7)
>>> cards = list(range(10))
>>> rng.shuffle(cards)
>>> sorted(cards) == list(range(10))
True
>>> Rng(7).below(100) == Rng(7).below(100)
True
"""
from __future__ import annotations

import _random
import random
from typing import Any

__all__ = ["Rng"]

_new_random = random.Random.__new__
_seed_random = _random.Random.seed


class Rng:
    """A seeded MT19937 generator with a specified shuffle."""

    __slots__ = ("_mt",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"a seed must be a non-negative int, not {seed!r}")
        # random.Random(seed) without its Python-level __init__ and seed(): for an int seed those
        # only call the C seeding (init_by_array) and clear gauss_next, as done here.
        mt = _new_random(random.Random)
        _seed_random(mt, seed)
        mt.gauss_next = None  # type: ignore[attr-defined]
        self._mt = mt

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)`` (``n`` >= 1)."""
        return (self._mt.getrandbits(64) * n) >> 64

    def shuffle(self, cards: list[int]) -> None:
        """Shuffle ``cards`` in place (Fisher-Yates, from the end)."""
        n = len(cards)
        if n < 2:
            return
        # One call for all n - 1 outputs: getrandbits(64 * k) is k 64-bit outputs, least
        # significant first, exactly as k calls of getrandbits(64) would give them.
        words = memoryview(self._mt.getrandbits(64 * (n - 1)).to_bytes(8 * (n - 1), "little")).cast("Q")
        i = n - 1
        for word in words:
            j = (word * (i + 1)) >> 64
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        other = Rng.__new__(Rng)
        other._mt = random.Random()
        other._mt.setstate(self._mt.getstate())
        return other

    def to_state(self) -> list[int]:
        """The generator state as 625 ints (the 624 MT words and the index), for positions."""
        version, internal, _gauss = self._mt.getstate()
        del version
        return list(internal)

    @classmethod
    def from_state(cls, state: list[int]) -> Rng:
        """Rebuild a generator from :meth:`to_state`."""
        if len(state) != 625 or not all(isinstance(x, int) and 0 <= x < 2**32 for x in state[:624]):
            raise ValueError("an RNG state is 625 ints: 624 words below 2**32 and an index")
        rng = cls.__new__(cls)
        rng._mt = random.Random()
        st: Any = (3, tuple(state), None)
        rng._mt.setstate(st)
        return rng
