"""A queue with one reader: what ``asyncio.Queue`` does for a single consumer task, with less work
per item (no maxsize, no task accounting, no loop check on every call).

The hub's commands and each connection's outgoing frames go through one: a frame is queued for
every seat after every action, so the queue's own cost is paid several times per action.

>>> box: Mailbox[str] = Mailbox()
>>> box.put_nowait("a"); box.put_nowait("b")
>>> box.qsize(), box.get_nowait(), box.get_nowait(), box.empty()
(2, 'a', 'b', True)

(``get`` waits for the next item: tests/server/test_mailbox.py.)
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

__all__ = ["Mailbox"]

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items in arrival order for one reader task; putting never blocks."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def put(self, item: T) -> None:
        """The same as :meth:`put_nowait` (for callers written against ``asyncio.Queue``)."""
        self.put_nowait(item)

    def get_nowait(self) -> T:
        """The next item (IndexError when there is none)."""
        return self._items.popleft()

    async def get(self) -> T:
        """The next item, once there is one (a cancelled wait takes nothing)."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter
        return self._items.popleft()

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)
