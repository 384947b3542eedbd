"""Deadlines that never lose a cancellation (`tether._aio`).

`asyncio.wait_for` on Python 3.11 returns the result when a cancel arrives in the same
loop turn as the awaited thing finishing; the cancelled task then runs on. A stream
follower did exactly that and a caller awaiting it hung (a CI hang under load).
"""

from __future__ import annotations

import asyncio

import pytest

from tether._aio import wait_event, within


async def test_a_cancel_as_the_event_is_set_is_delivered() -> None:
    event = asyncio.Event()
    task = asyncio.ensure_future(wait_event(event, 30))
    await asyncio.sleep(0)
    event.set()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_cancel_as_the_awaited_result_arrives_is_delivered() -> None:
    done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def result() -> int:
        return await done

    task = asyncio.ensure_future(within(result(), 30))
    await asyncio.sleep(0)
    done.set_result(1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_deadlines() -> None:
    assert not await wait_event(asyncio.Event(), 0.01)
    event = asyncio.Event()
    event.set()
    assert await wait_event(event, 0)
    with pytest.raises(TimeoutError):
        await within(asyncio.sleep(1), 0.01)
    assert await within(asyncio.sleep(0, "ok"), None) == "ok"
