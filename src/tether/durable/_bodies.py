"""Step bodies: where a step's callable runs, its timeout, and the threads to wait for.

An async callable runs on the event loop (cancelled at its timeout); a sync one on the
worker's step threads. A thread cannot be stopped: an activation that is abandoned, or
whose step timed out, keeps track of the threads it still owns, and its run goes to no
one else (this worker included) until they return (`quiesce`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

from .._aio import within
from ..errors import StepTimeoutError
from ._context import StepInfo, reset_step_info, set_step_info
from ._step_scope import StepScope, bind_scope, unbind_scope
from ._threads import StepThreads

__all__ = ["PreparedBody", "StepBodies"]

T = TypeVar("T")
log = logging.getLogger("tether.worker")


class StepBodies:
    """Runs the step bodies of one activation and tracks the threads they use."""

    def __init__(self, run_id: str, threads: StepThreads) -> None:
        self.run_id = run_id
        self.threads = threads
        self._executing: set[asyncio.Future[Any]] = set()

    async def quiesce(self) -> None:
        """Wait until no step thread of this activation is still running."""
        while self._executing:
            await asyncio.wait(set(self._executing))

    def track(self, running: asyncio.Future[Any]) -> None:
        """Track a body started on a step thread until it returns (see `quiesce`)."""
        self._executing.add(running)
        running.add_done_callback(self._executing.discard)

    def to_thread(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> asyncio.Future[Any]:
        """Run a sync callable on the worker's step threads, tracked by this activation.

        An abandoned activation cannot stop a thread, so it keeps track of it until the
        callable returns (see `quiesce`): the run is not handed to anyone, and the same
        worker does not run it again, while the thread still runs.
        """
        running = self.threads.run(lambda: fn(*args, **kwargs))
        self.track(running)
        return running

    def prepare(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        info: StepInfo,
        step_scope: StepScope,
    ) -> PreparedBody | None:
        """A sync body ready to start from any thread; None for an async callable."""
        if inspect.iscoroutinefunction(fn):
            return None
        token = set_step_info(info)
        bound = bind_scope(step_scope)
        try:
            context = contextvars.copy_context()
        finally:
            unbind_scope(bound)
            reset_step_info(token)
        return PreparedBody(self, functools.partial(fn, *args, **kwargs), context)

    async def execute(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        info: StepInfo,
        timeout: float | None,
        step_scope: StepScope,
        started: asyncio.Future[Any] | None = None,
    ) -> Any:
        """Run one attempt's body with its step info and scope bound; its result.

        `started` is the body already running on a step thread (`PreparedBody`): only
        its result is awaited here.
        """
        token = set_step_info(info)
        bound = bind_scope(step_scope)
        try:
            if started is None and inspect.iscoroutinefunction(fn):
                if timeout is None:
                    return await fn(*args, **kwargs)
                scope = asyncio.timeout(timeout)
                try:
                    async with scope:
                        return await fn(*args, **kwargs)
                except TimeoutError:
                    if scope.expired():
                        raise self._timed_out(info, timeout) from None
                    raise
            running = started if started is not None else self.to_thread(fn, *args, **kwargs)
            try:
                # Shielded: cancelling the wait must not look like stopping the thread.
                result = await within(asyncio.shield(running), timeout)
            except TimeoutError:
                if running.done():
                    raise  # the step's own TimeoutError
                # A thread cannot be stopped: it is disowned, runs on, and its result
                # is dropped, while the attempt fails now and counts as one.
                self._executing.discard(running)
                log.warning(
                    "run %s: step %r (attempt %d) passed its %g s timeout; its thread "
                    "runs on unattended",
                    self.run_id,
                    info.name,
                    info.attempt,
                    timeout,
                )
                raise self._timed_out(info, timeout) from None
            if inspect.isawaitable(result):
                return await result
            return result
        finally:
            unbind_scope(bound)
            reset_step_info(token)

    async def run_in_thread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Await `fn` on the step threads for a running step (`durable.to_thread`).

        The thread is tracked while the step awaits it. A step that gives up on it (its
        own timeout, a tool's) disowns it, as the engine does a timed-out step's thread:
        it runs on, and its result is dropped.
        """
        running = self.to_thread(fn, *args, **kwargs)
        try:
            return cast(T, await asyncio.shield(running))
        except asyncio.CancelledError:
            if not running.done():
                self._executing.discard(running)
                log.warning(
                    "run %s: a step gave up on %r; its thread runs on unattended",
                    self.run_id,
                    getattr(fn, "__qualname__", fn),
                )
            raise

    def _timed_out(self, info: StepInfo, timeout: float | None) -> StepTimeoutError:
        return StepTimeoutError(self.run_id, info.slot, info.name, info.attempt, timeout or 0.0)


class PreparedBody:
    """A sync step body, its step info and scope bound, to start from any thread.

    The engine hands `start` to the commit that makes the step's start durable: a
    store writing on a thread of its own starts the body from there at once, one
    hand-off to the event loop sooner. `withdraw` (on the loop, once the commit
    returned or failed) forbids any later start and tells whether it started; the
    lock makes the two exclusive, so a body is either tracked or never runs.
    """

    def __init__(
        self, bodies: StepBodies, call: Callable[[], Any], context: contextvars.Context
    ) -> None:
        self._bodies = bodies
        self._call = call
        self._context = context
        self._loop = asyncio.get_running_loop()
        self.future: asyncio.Future[Any] = self._loop.create_future()
        self._lock = threading.Lock()
        self._started = False
        self._withdrawn = False

    def start(self) -> bool:
        """Start the body on a step thread unless withdrawn; whether it started."""
        with self._lock:
            if self._withdrawn or self._started:
                return self._started
            try:
                self._bodies.threads.submit(self._loop, self.future, self._context, self._call)
            except RuntimeError:
                return False  # the worker is stopping: the loop side decides
            self._started = True
            return True

    def withdraw(self) -> asyncio.Future[Any] | None:
        """Forbid a later start; the running body's future (tracked) if it started."""
        with self._lock:
            self._withdrawn = True
            started = self._started
        if not started:
            return None
        self._bodies.track(self.future)
        return self.future
