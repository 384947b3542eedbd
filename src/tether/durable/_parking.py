"""How a workflow body's waits become a park, and its lone completions a write.

An activation's body waits on conditions and due times (`_wait`); once it is blocked,
nothing running and every waiter still waiting, a park check commits the park (with a
wake-up message for the earliest timer) and the activation ends parked. A step's
completion that no next operation carries goes out on its own (`_flush`), a few loop
turns later. `ActivationCore` (`_activation`) extends `Parking` with the state these
read and the commit they write with.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..stores import NewEvent, NewMessage, RunRecord
from ._journal import Journal

__all__ = ["Parking"]

#: Loop turns a park check lets the body run before it decides (see `_park_check`).
_PARK_CHECK_TURNS = 3


class _Suspend(BaseException):
    """Unwinds a body whose activation ended (parked, fenced, cancelled).

    A BaseException, so a user's `except Exception` cannot swallow it.
    """


@dataclass(slots=True)
class _Waiter:
    resume_at: float | None
    check: Callable[[], bool]
    future: asyncio.Future[None]


class Parking:
    """The waits, park checks and flushes of an activation (see the module docstring)."""

    # What `ActivationCore` provides: its state, how it ends, how it commits.
    run: RunRecord
    run_id: str
    journal: Journal
    _pending: list[NewEvent]
    _waiters: list[_Waiter]
    _active_steps: int
    _flush_scheduled: bool
    _starts_held: int
    _park_check_scheduled: bool

    @property
    def ended(self) -> bool:
        """Whether the activation is over."""
        raise NotImplementedError

    def _settle(self, outcome: str) -> None:
        raise NotImplementedError

    async def _commit(
        self,
        events: Sequence[NewEvent] = (),
        *,
        enqueue: Sequence[NewMessage] = (),
        end: bool = False,
        park_guard: Callable[[], bool] | None = None,
    ) -> bool:
        raise NotImplementedError

    def _schedule_flush(self) -> None:
        if self._flush_scheduled:
            return
        self._flush_scheduled = True
        asyncio.get_running_loop().call_soon(self._start_flush)

    def _start_flush(self) -> None:
        self._flush_scheduled = False
        if self._pending and not self.ended:
            asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        # A few loop turns more than a park check waits (`_park_check`): a body that
        # parks right after its step carries the step's completion in its park commit,
        # and one that starts its next step carries it in that step's start: one write,
        # not two. Only a body that does neither leaves it to this flush.
        for _ in range(_PARK_CHECK_TURNS + 2):
            await asyncio.sleep(0)
        # A step whose start is held while its body reads ahead carries what is pending
        # in that start's commit.
        if self._pending and not self.ended and not self._starts_held:
            with contextlib.suppress(_Suspend):
                await self._commit()

    # -- waiting and parking --------------------------------------------------------------
    async def _wait(self, *, resume_at: float | None, check: Callable[[], bool]) -> None:
        while not check():
            if self.ended:
                raise _Suspend
            waiter = _Waiter(resume_at, check, asyncio.get_running_loop().create_future())
            self._waiters.append(waiter)
            self._schedule_park_check()
            try:
                await waiter.future
            finally:
                self._waiters.remove(waiter)

    async def _wait_until(self, when: float) -> None:
        await self._wait(resume_at=when, check=lambda: time.time() >= when)

    def _poke(self) -> None:
        now = time.time()
        for waiter in self._waiters:
            due = waiter.resume_at is not None and waiter.resume_at <= now
            if (due or waiter.check()) and not waiter.future.done():
                waiter.future.set_result(None)

    def _schedule_park_check(self) -> None:
        if not self._park_check_scheduled:
            self._park_check_scheduled = True
            asyncio.get_running_loop().create_task(self._park_check())

    async def _park_check(self) -> None:
        # Let the body run until it blocks: a few loop turns cover awaits between ops.
        for _ in range(_PARK_CHECK_TURNS):
            await asyncio.sleep(0)
        self._park_check_scheduled = False
        if self.ended or self._active_steps or not self._waiters:
            return
        self._poke()
        if any(w.future.done() for w in self._waiters):
            return
        timers = [w.resume_at for w in self._waiters if w.resume_at is not None]
        enqueue: tuple[NewMessage, ...] = ()
        if timers:
            enqueue = (
                NewMessage(
                    queue=self.run.queue,
                    payload=self.run_id.encode(),
                    available_at=min(timers),
                    idempotency_key=self.run_id,
                ),
            )

        def still_blocked() -> bool:
            # Blocked means: nothing running, and every waiter still waiting. A body that
            # moved on while this park waited for the lock has no waiters left, or a step.
            self._poke()
            return (
                not self._active_steps
                and self.journal.cancel_requested is None
                and bool(self._waiters)
                and not any(w.future.done() for w in self._waiters)
            )

        try:
            parked = await self._commit(enqueue=enqueue, end=True, park_guard=still_blocked)
        except _Suspend:
            return
        if parked:
            self._settle("parked")
