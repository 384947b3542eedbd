"""Waiting with a deadline without losing a cancellation.

On Python 3.11, `asyncio.wait_for` swallows a cancellation that arrives in the same
loop turn as the awaited thing finishing: it returns the result, and the task that was
cancelled runs on as if nothing happened (fixed in 3.12, where `wait_for` is built on
`asyncio.timeout`). A follower cancelled just as a chunk woke it then read on forever,
and whoever awaited its end hung. Every deadline in tether goes through these two
helpers, which use `asyncio.timeout`: the wait runs in the caller's own task, so a
cancel is always delivered to it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["wait_event", "within"]

T = TypeVar("T")


async def wait_event(event: asyncio.Event, timeout: float | None) -> bool:
    """Wait until `event` is set, at most `timeout` seconds (None: no limit).

    Returns:
        Whether the event is set (False: the time ran out first).
    """
    if event.is_set():
        return True
    if timeout is None:
        await event.wait()
        return True
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def within(awaitable: Awaitable[T], timeout: float | None) -> T:
    """`await awaitable`, raising `TimeoutError` after `timeout` seconds (None: no limit).

    As `asyncio.wait_for`, but a cancellation of the caller is never lost.
    """
    if timeout is None:
        return await awaitable  # no deadline, no timeout scope to pay for
    async with asyncio.timeout(timeout):
        return await awaitable
