"""The server's garbage-collector policy: short pauses with thousands of tables in memory.

CPython's cyclic collector stops the process while it walks every tracked object of the
generations it collects. A server holding 750 tables keeps about half a million tracked objects
after a minute (the matches' event logs, the engine states, the bots' trackers, the connections),
and a full collection walking all of them took 300 to 700 ms on the project's machine under the
3,000-player load of ``benchmarks/server_load.py``: every table's update waited that long, about
every 13 seconds (docs/explanation/performance.md). Nearly all of those objects live until their
table ends and never form garbage cycles, so walking them again and again finds nothing.

:class:`GcPolicy` keeps the walks short:

- when installed, everything alive (the imports, the app) is frozen (:func:`gc.freeze`: moved to
  the permanent generation, which no collection walks);
- after each full collection, whatever survived it is frozen too, so the next full collection
  walks only the objects that came since;
- at the first full collection ``full_every`` seconds after the last complete one, the frozen
  objects are unfrozen first, so that it walks everything: reference cycles among old objects (a
  closed connection's, say) are freed all the same, only later.

Every pause is kept as ``(generation, seconds, collected)`` until :meth:`GcPolicy.drain` takes
it (the server's ``/metrics`` moves them into its ``unotable_gc_pause_seconds`` histogram; the
callback itself takes no lock, since a collection may start while any code holds one). Objects
freed by reference counting, as almost all are, are freed at once whether frozen or not.

>>> import gc
>>> policy = GcPolicy(full_every=600.0)
>>> policy.install()
>>> gc.get_freeze_count() > 0
True
>>> policy.uninstall()
>>> gc.get_freeze_count()
0
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["GcPolicy"]


class GcPolicy:
    """Freeze what survives a full collection; walk everything every ``full_every`` seconds."""

    def __init__(
        self,
        full_every: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
        keep: int = 4096,
    ) -> None:
        if not full_every > 0:
            raise ValueError(f"full_every is a number of seconds above 0, not {full_every!r}")
        self.full_every = full_every
        self._clock = clock
        self._pauses: deque[tuple[int, float, int]] = deque(maxlen=keep)
        self._last_full = clock()
        self._full_now = False
        self._started = 0.0
        self._installed = False
        self.full_collections = 0
        """Complete collections (everything walked) since :meth:`install`."""

    def install(self) -> None:
        """Collect, freeze what is alive, and hook every later collection."""
        if self._installed:
            raise RuntimeError("this GcPolicy is already installed")
        gc.collect()
        gc.freeze()
        self._last_full = self._clock()
        gc.callbacks.append(self._callback)
        self._installed = True

    def uninstall(self) -> None:
        """Unhook, and give the frozen objects back to the collector."""
        if self._installed:
            gc.callbacks.remove(self._callback)
            self._installed = False
        gc.unfreeze()

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        generation = int(info["generation"])
        if phase == "start":
            self._started = time.perf_counter()
            if generation == 2 and self._clock() - self._last_full >= self.full_every:
                gc.unfreeze()  # the permanent generation joins the oldest: this walk is complete
                self._full_now = True
            return
        seconds = time.perf_counter() - self._started
        if generation == 2:
            if self._full_now:
                self._full_now = False
                self._last_full = self._clock()
                self.full_collections += 1
            gc.freeze()
        self._pauses.append((generation, seconds, int(info["collected"])))

    def drain(self) -> list[tuple[int, float, int]]:
        """The pauses since the last call, oldest first: ``(generation, seconds, collected)``
        (at most ``keep`` of them: older ones are dropped)."""
        out = []
        while self._pauses:
            out.append(self._pauses.popleft())
        return out
