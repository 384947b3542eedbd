"""What a running step may add to its run's commits: streams, store writes, checkpoints.

A step's result is committed with the start of the run's next operation, in one
transaction (see `_executor`). A step can make other writes part of that transaction
(`commit_with_step`), publish chunks on a stream of its run that are written live
(`StepStream.flush`) or, if still buffered, with that commit, and make writes durable
in the middle of its body, fenced by the run's lease (`checkpoint`): a worker that lost
the run can no longer write.

Sync callables a step runs through `to_thread` use the engine's step threads, which
the engine tracks: a run is not parked or handed to another worker while one of them
still runs, so a retry elsewhere never overlaps the call it repeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..errors import ConfigurationError, StoreUnavailableError
from ..stores import AppendStream, StoreWrite

if TYPE_CHECKING:
    from ..stores import RunStreams

__all__ = [
    "StepScope",
    "StepStream",
    "after_commit",
    "bind_scope",
    "checkpoint",
    "commit_with_step",
    "current_scope",
    "hook_received",
    "step_started",
    "step_stream",
    "to_thread",
    "unbind_scope",
]

T = TypeVar("T")

log = logging.getLogger("tether.durable")


class _Owner(Protocol):
    """The activation a scope belongs to (the engine's side of the seam)."""

    run_id: str
    stream_id: str

    @property
    def store(self) -> RunStreams: ...

    async def checkpoint(self, writes: Sequence[StoreWrite]) -> None: ...

    async def run_in_thread(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    def hook_received(self, token: str) -> int: ...


class StepStream:
    """A named stream of the running step's run, written by this step.

    The stream belongs to the run's chain (its first run's id): a run that continued
    as new writes on where its predecessor stopped, in one offset space.

    `write` buffers; `flush` writes what is buffered now (readers see it at once);
    whatever is still buffered when the step completes, or at a `checkpoint`, is
    written in that transaction. Chunks land in the order they were written, once.

    A live write the store refuses as unavailable keeps its chunks buffered: they go
    with the next flush or the step's next commit. The refused write may have landed
    all the same (the connection dropped before its answer), so before they are
    written again the stream's tail is read: if it holds exactly those chunks, they
    landed and are not written twice.
    """

    def __init__(self, scope: StepScope, name: str) -> None:
        self._scope = scope
        self.name = name
        self._buffer: list[bytes] = []
        #: The chunks of a refused live write (the buffer's head) that may have landed.
        self._unsure = 0
        self._writing = asyncio.Lock()

    def write(self, chunk: bytes) -> None:
        """Buffer one chunk."""
        self._buffer.append(bytes(chunk))

    @property
    def buffered(self) -> int:
        """How many chunks wait to be written."""
        return len(self._buffer)

    async def flush(self) -> None:
        """Write the buffered chunks now (not fenced: a live view, like a log).

        If the store is unavailable the chunks stay buffered (see the class docstring).
        """
        await self._scope.started()
        async with self._writing:
            try:
                await self._settle_unsure()
            except StoreUnavailableError:
                return
            if self._buffer:
                chunks, self._buffer = self._buffer, []
                owner = self._scope.owner
                try:
                    await owner.store.write_stream(owner.stream_id, self.name, chunks)
                except StoreUnavailableError as exc:
                    log.debug("stream %r: a live write waits for the store: %s", self.name, exc)
                    self._buffer[:0] = chunks
                    self._unsure = len(chunks)

    async def take(self) -> AppendStream | None:
        """The buffered chunks as a write for a commit (after writes under way land)."""
        async with self._writing:
            with contextlib.suppress(StoreUnavailableError):
                # Unreadable now, the chunks go with the commit: a copy too many rather
                # than a chunk lost.
                await self._settle_unsure()
            self._unsure = 0
            if not self._buffer:
                return None
            chunks, self._buffer = self._buffer, []
            return AppendStream(
                run_id=self._scope.owner.stream_id, name=self.name, chunks=tuple(chunks)
            )

    async def _settle_unsure(self) -> None:
        """Drop the refused write's chunks from the buffer if they landed after all."""
        if not self._unsure:
            return
        owner = self._scope.owner
        unsure = self._buffer[: self._unsure]
        tail, _ = await owner.store.read_stream(
            owner.stream_id, self.name, start=-len(unsure), limit=len(unsure)
        )
        if [chunk.data for chunk in tail] == unsure:
            del self._buffer[: len(unsure)]
        self._unsure = 0


class StepScope:
    """The writes one attempt of a step adds to its run's commits (engine side)."""

    def __init__(self, owner: _Owner) -> None:
        self.owner = owner
        self.deferred: list[StoreWrite] = []
        #: Told once the completion that carries `deferred` has committed.
        self.after: list[Callable[[], None]] = []
        self.streams: dict[str, StepStream] = {}
        self._start: asyncio.Future[None] | None = None
        self._asked: asyncio.Future[None] | None = None

    def hold_start(self) -> tuple[asyncio.Future[None], asyncio.Future[None]]:
        """Defer the attempt's start until the body asks for it (see `started`).

        Returns:
            The future `started` waits for (the engine sets it once the start is
            durable) and the one set when the body first asks for its start.
        """
        loop = asyncio.get_running_loop()
        self._start, self._asked = loop.create_future(), loop.create_future()
        return self._start, self._asked

    @property
    def holding(self) -> bool:
        """Whether the attempt's start is not durable yet (see `hold_start`)."""
        return self._start is not None and not self._start.done()

    async def started(self) -> None:
        """Ask for the attempt's start; return once it is durable (at once unless held)."""
        if self._start is not None and self.holding:
            if self._asked is not None and not self._asked.done():
                self._asked.set_result(None)
            # Shielded: a body that stops waiting must not cancel the engine's future.
            await asyncio.shield(self._start)

    def stream(self, name: str) -> StepStream:
        """The step's writer of stream `name`."""
        found = self.streams.get(name)
        if found is None:
            found = self.streams[name] = StepStream(self, name)
        return found

    async def take_buffered(self) -> list[StoreWrite]:
        """The chunks buffered on the step's streams, as writes for a commit."""
        out: list[StoreWrite] = []
        for stream in self.streams.values():
            taken = await stream.take()
            if taken is not None:
                out.append(taken)
        return out

    async def checkpoint(self, writes: Sequence[StoreWrite]) -> None:
        """Commit `writes` and the buffered stream chunks now, fenced by the lease."""
        await self.started()
        await self.owner.checkpoint([*writes, *await self.take_buffered()])

    async def finish(self) -> list[StoreWrite]:
        """What rides on the step's completion: deferred writes, then buffered chunks."""
        return [*self.deferred, *await self.take_buffered()]

    async def discard(self) -> None:
        """Let writes under way land; the failed attempt's deferred writes are dropped."""
        for stream in self.streams.values():
            async with stream._writing:
                pass
        self.deferred.clear()
        self.after.clear()


_SCOPE: contextvars.ContextVar[StepScope | None] = contextvars.ContextVar(
    "tether_step_scope", default=None
)


def bind_scope(scope: StepScope) -> contextvars.Token[StepScope | None]:
    """Bind the running step's scope (engine use)."""
    return _SCOPE.set(scope)


def unbind_scope(token: contextvars.Token[StepScope | None]) -> None:
    """Undo `bind_scope` (engine use)."""
    _SCOPE.reset(token)


def current_scope() -> StepScope:
    """The running step's scope.

    Raises:
        ConfigurationError: Called outside a step.
    """
    scope = _SCOPE.get()
    if scope is None:
        raise ConfigurationError(
            "this tether.durable operation is only available inside a running step"
        )
    return scope


def step_stream(name: str) -> StepStream:
    """The running step's writer of its run's stream `name` (see `StepStream`).

    Raises:
        ConfigurationError: Called outside a step.
    """
    return current_scope().stream(name)


def commit_with_step(*writes: StoreWrite) -> None:
    """Make `writes` (`tether.stores` write records) part of the step's completion.

    They are applied in the transaction that records the step as completed, so they
    land exactly when the step's result does; a failed attempt drops them.

    Raises:
        ConfigurationError: Called outside a step.
    """
    current_scope().deferred.extend(writes)


def after_commit(callback: Callable[[], None]) -> None:
    """Call `callback()` once the step's completion has committed (on the event loop).

    The completion is the transaction `commit_with_step` writes ride on: the callback
    learns that they landed. It is never called for an attempt that fails, nor when
    the commit does not land here (the run was lost first); it must not raise.

    Raises:
        ConfigurationError: Called outside a step.
    """
    current_scope().after.append(callback)


async def checkpoint(*writes: StoreWrite) -> None:
    """Commit `writes` (and the step's buffered stream chunks) now, in one transaction.

    The commit is fenced by the run's lease: a worker that lost the run cannot write
    (the step is abandoned instead). Use it for what must be durable before the step
    goes on, such as a model's reply before the tools it asked for run.

    Raises:
        ConfigurationError: Called outside a step.
    """
    await current_scope().checkpoint(writes)


async def step_started() -> None:
    """Commit the running step's start if it is still deferred; return once durable.

    A step runs once its start is committed, so this returns at once, except in a step
    run with ``ctx.step(..., read_ahead=True)``: that one begins before its start is
    committed, may read meanwhile, and awaits this before anything else (calling a
    model or an API, any effect). The start is committed then, with the chunks the
    step has buffered on its streams so far (its first events land with its start, in
    one write). If the start is refused (another worker holds the run), the step is
    cancelled while it waits.

    Raises:
        ConfigurationError: Called outside a step.
    """
    await current_scope().started()


def to_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> Awaitable[T]:
    """Run a sync callable on the engine's step threads (with this context's variables).

    The engine tracks the thread: the run is not parked or handed over while it runs,
    even if the awaiting step gives up on it (a timeout), so no other attempt of the
    step can run alongside it elsewhere.

    Raises:
        ConfigurationError: Called outside a step.
    """
    scope = current_scope()
    if scope.holding:
        return _after_start(scope, fn, *args, **kwargs)
    return scope.owner.run_in_thread(fn, *args, **kwargs)


async def _after_start(scope: StepScope, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    await scope.started()
    return await scope.owner.run_in_thread(fn, *args, **kwargs)


def hook_received(token: str) -> int:
    """How many payloads the running step's run had received at its hook `token`.

    At least every payload that arrived before the step started is counted (one that
    arrives while it runs may be too). Return it from the step and wait with
    `Hook.wait_beyond(count)` in the workflow: the body then waits only for what the
    step could not have seen, and every replay waits for the same thing.

    Raises:
        ConfigurationError: Called outside a step.
    """
    return current_scope().owner.hook_received(token)
