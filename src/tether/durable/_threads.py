"""The threads sync step bodies run on: a hand-off as cheap as the event loop allows.

`loop.run_in_executor` costs a `concurrent.futures.Future`, a chained asyncio future
and their callbacks on every call, about a third of a sync step's thread hop here.
A step thread takes its work from a `queue.SimpleQueue` (a C queue) and hands the
result straight back with `call_soon_threadsafe`. Threads are started on demand and
never fewer are idle than are needed: a step thread that hangs (a sync step past its
timeout, disowned) costs one thread, not a slot of a fixed pool the next step waits for.
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["StepThreads"]


def _resolve(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():
        return  # the waiter gave up (cancelled); the result has no one to go to
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


_Job = tuple[asyncio.AbstractEventLoop, asyncio.Future[Any], contextvars.Context, Callable[[], Any]]


class StepThreads:
    """Threads for sync step bodies, started as needed and kept while the worker runs.

    Args:
        name: The threads' name prefix.
    """

    def __init__(self, name: str = "tether-step") -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._idle = 0
        self._closed = False

    def run(self, fn: Callable[[], Any]) -> asyncio.Future[Any]:
        """Run `fn()` on a step thread in a copy of the caller's context.

        Returns a future of the running loop that resolves with its result or error.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self.submit(loop, future, contextvars.copy_context(), fn)
        return future

    def submit(
        self,
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
        context: contextvars.Context,
        fn: Callable[[], Any],
    ) -> None:
        """Run `fn()` in `context` on a step thread; resolve `loop`'s `future` with it.

        Safe to call from any thread (a store's writer thread starts a sync step's
        body the moment the step's start is durable).
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker's step threads are shut down")
            if self._idle > 0:
                self._idle -= 1
            else:
                thread = threading.Thread(
                    target=self._serve, name=f"{self._name}-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
        self._jobs.put((loop, future, context, fn))

    def _serve(self) -> None:
        jobs = self._jobs
        while True:
            job = jobs.get()
            if job is None:
                return
            loop, future, context, fn = job
            try:
                value = context.run(fn)
            except BaseException as exc:
                outcome: tuple[bool, Any] = (False, exc)
            else:
                outcome = (True, value)
            del job, fn, context
            try:
                loop.call_soon_threadsafe(_resolve, future, *outcome)
            except RuntimeError:
                pass  # the loop is closed: nobody waits for this result any more
            outcome = (True, None)
            with self._lock:
                self._idle += 1

    def shutdown(self) -> None:
        """Let every thread end once its current body returns (without waiting)."""
        with self._lock:
            self._closed = True
            count = len(self._threads)
        for _ in range(count):
            self._jobs.put(None)
