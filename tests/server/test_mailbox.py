"""The hub's queue (unotable/server/mailbox.py): arrival order, a reader that waits for the next
item, and a cancelled wait that takes nothing."""

from __future__ import annotations

import asyncio

import pytest

from unotable.server.mailbox import Mailbox


def test_items_come_out_in_arrival_order() -> None:
    box: Mailbox[int] = Mailbox()
    for i in range(5):
        box.put_nowait(i)
    assert box.qsize() == 5
    assert [box.get_nowait() for _ in range(5)] == [0, 1, 2, 3, 4]
    assert box.empty()
    with pytest.raises(IndexError):
        box.get_nowait()


def test_a_reader_waits_for_the_next_item() -> None:
    async def main() -> list[str]:
        box: Mailbox[str] = Mailbox()
        got: list[str] = []

        async def reader() -> None:
            for _ in range(3):
                got.append(await box.get())

        task = asyncio.create_task(reader())
        await asyncio.sleep(0)
        assert got == []  # nothing queued: the reader waits
        box.put_nowait("a")
        await box.put("b")
        await asyncio.sleep(0)
        box.put_nowait("c")
        await asyncio.wait_for(task, 5)
        return got

    assert asyncio.run(main()) == ["a", "b", "c"]


def test_a_cancelled_wait_takes_nothing() -> None:
    async def main() -> tuple[str, bool]:
        box: Mailbox[str] = Mailbox()
        waiting = asyncio.create_task(box.get())
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        box.put_nowait("kept")
        return await asyncio.wait_for(box.get(), 5), box.empty()

    assert asyncio.run(main()) == ("kept", True)
