"""Counting the round trips tether's Postgres stores make (tests and benches).

A round trip is a time the client sends and then waits for the server's answer before
it can go on: a statement sent alone (outside a pipeline), and in a pipeline each sync
(its end included) and each fetch that has to ask the server to flush the results it
holds. Statements queued in a pipeline ride on the pipeline's next round trip. That is
what costs time on a network (or on a busy machine: each trip is a hop to the server's
process and back), whatever the statements do.

`PostgresRoundTrips` counts them on the store connections of every `PostgresBackend`
in the process (the pooled sync connections and the async commit and read lanes; not
the listener's) while `counting()` is active, and keeps each trip's statements, so a
test can pin how many trips an operation takes and say which ones when that changes::

    trips = PostgresRoundTrips()
    with trips.counting():
        await store.resume_hook_and_claim(...)
    assert trips.count <= 3, trips.describe()

It patches psycopg's classes while active: count one operation at a time, with
nothing else of the process using the store meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["PostgresRoundTrips", "RoundTrip", "WatchedCall"]

TripKind = Literal["statement", "sync", "flush"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundTrip:
    """One round trip of one connection: what ended it and the statements it carried.

    `kind` is "statement" for a statement sent alone, "sync" for a pipeline's sync
    (or its end), "flush" for a fetch inside a pipeline that waits for a result.
    """

    kind: TripKind
    statements: tuple[str, ...]
    call: WatchedCall | None = None

    def __str__(self) -> str:
        return f"{self.kind}: " + " | ".join(self.statements or ("(nothing new)",))


@dataclass(eq=False, slots=True, kw_only=True)
class WatchedCall:
    """One call of a method `PostgresRoundTrips.watch` wraps, and the trips it made."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    trips: list[RoundTrip] = field(default_factory=list)

    @property
    def count(self) -> int:
        """Round trips this call made (those of calls it made to watched methods apart)."""
        return len(self.trips)

    def describe(self) -> str:
        """The call's trips, one per line."""
        return f"{self.name}: {self.count} round trips:\n" + "\n".join(
            f"  {i + 1}. {trip}" for i, trip in enumerate(self.trips)
        )


_CALL: contextvars.ContextVar[WatchedCall | None] = contextvars.ContextVar(
    "tether_watched_call", default=None
)


def _label(query: Any) -> str:
    text = query if isinstance(query, str) else getattr(query, "as_string", lambda: None)()
    if not isinstance(text, str):
        text = repr(query)
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= 72 else text[:69] + "..."


class PostgresRoundTrips:
    """Counts round trips of the Postgres store connections (see the module docstring)."""

    def __init__(self) -> None:
        self.trips: list[RoundTrip] = []
        self.calls: list[WatchedCall] = []
        self._lock = threading.Lock()
        self._pending: dict[int, list[str]] = {}
        self._exiting: set[int] = set()
        self._active = False

    @property
    def count(self) -> int:
        """Round trips counted so far."""
        return len(self.trips)

    def reset(self) -> None:
        """Forget the trips and calls counted so far."""
        with self._lock:
            self.trips.clear()
            self.calls.clear()

    def calls_of(self, name: str) -> list[WatchedCall]:
        """The watched calls of method `name`, in the order they began."""
        return [c for c in self.calls if c.name == name]

    def watch(self, obj: Any, *names: str) -> None:
        """Attribute the trips of each call of these async methods of `obj` to the call.

        The methods are replaced on the instance (for as long as it lives); the trips
        of a call include those of the threads it hands work to. Calls are recorded
        only while `counting()` is active.
        """
        for name in names:
            setattr(obj, name, self._watched(name, getattr(obj, name)))

    def _watched(self, name: str, method: Any) -> Any:
        @functools.wraps(method)
        async def watched(*args: Any, **kwargs: Any) -> Any:
            if not self._active:
                return await method(*args, **kwargs)
            call = WatchedCall(name=name, args=args, kwargs=kwargs)
            with self._lock:
                self.calls.append(call)
            token = _CALL.set(call)
            try:
                return await method(*args, **kwargs)
            finally:
                _CALL.reset(token)

        return watched

    def describe(self) -> str:
        """One line per trip, for an assertion's message."""
        return f"{self.count} round trips:\n" + "\n".join(
            f"  {i + 1}. {trip}" for i, trip in enumerate(self.trips)
        )

    def _queued(self, conn: Any, query: Any) -> None:
        with self._lock:
            self._pending.setdefault(id(conn), []).append(_label(query))

    def _trip(self, conn: Any, kind: TripKind) -> None:
        with self._lock:
            statements = tuple(self._pending.pop(id(conn), ()))
            call = _CALL.get()
            trip = RoundTrip(kind=kind, statements=statements, call=call)
            self.trips.append(trip)
            if call is not None:
                call.trips.append(trip)

    @contextlib.contextmanager
    def counting(self) -> Iterator[PostgresRoundTrips]:
        """Count while the block runs (psycopg's classes patched, then restored)."""
        import psycopg
        from psycopg._pipeline_base import BasePipeline

        from ..stores.postgres._pool import AsyncStoreConnection, StoreConnection

        store_classes = (StoreConnection, AsyncStoreConnection)
        counter = self
        saved: list[tuple[type, str, Any]] = []

        def patch(cls: type, name: str, value: Any) -> None:
            saved.append((cls, name, cls.__dict__[name]))
            setattr(cls, name, value)

        execute, aexecute = psycopg.Cursor.execute, psycopg.AsyncCursor.execute
        many, amany = psycopg.Cursor.executemany, psycopg.AsyncCursor.executemany
        wait, await_ = psycopg.Connection.wait, psycopg.AsyncConnection.wait
        sync_gen, exit_gen = BasePipeline._sync_gen, BasePipeline._exit_gen
        fetch_gen = BasePipeline._fetch_gen

        def cursor_execute(cur: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(cur.connection, store_classes):
                counter._queued(cur.connection, query)
            return execute(cur, query, *args, **kwargs)

        async def acursor_execute(cur: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(cur.connection, store_classes):
                counter._queued(cur.connection, query)
            return await aexecute(cur, query, *args, **kwargs)

        def cursor_executemany(cur: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(cur.connection, store_classes):
                counter._queued(cur.connection, f"(many) {_label(query)}")
            return many(cur, query, *args, **kwargs)

        async def acursor_executemany(cur: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(cur.connection, store_classes):
                counter._queued(cur.connection, f"(many) {_label(query)}")
            return await amany(cur, query, *args, **kwargs)

        idle = psycopg.pq.TransactionStatus.IDLE

        def exchanges(conn: Any, gen: Any) -> bool:
            # Outside a pipeline every wait on a connection is one exchange with the
            # server (inside one, only syncs and flushing fetches wait: counted below),
            # except a commit or rollback with no transaction open (a pooled
            # connection's `with conn:`), which sends nothing.
            if conn._pipeline is not None or not isinstance(conn, store_classes):
                return False
            quiet = getattr(gen, "__name__", "") in ("_commit_gen", "_rollback_gen")
            return not (quiet and conn.pgconn.transaction_status == idle)

        def conn_wait(conn: Any, gen: Any, *args: Any, **kwargs: Any) -> Any:
            if exchanges(conn, gen):
                counter._trip(conn, "statement")
            return wait(conn, gen, *args, **kwargs)

        async def aconn_wait(conn: Any, gen: Any, *args: Any, **kwargs: Any) -> Any:
            if exchanges(conn, gen):
                counter._trip(conn, "statement")
            return await await_(conn, gen, *args, **kwargs)

        def pipe_sync(pipe: Any) -> Any:
            if isinstance(pipe._conn, store_classes):
                counter._trip(pipe._conn, "sync")
            return sync_gen(pipe)

        def pipe_exit(pipe: Any) -> Any:
            if isinstance(pipe._conn, store_classes):
                counter._trip(pipe._conn, "sync")
            counter._exiting.add(id(pipe))
            try:
                return (yield from exit_gen(pipe))
            finally:
                counter._exiting.discard(id(pipe))

        def pipe_fetch(pipe: Any, *, flush: bool) -> Any:
            if (
                flush
                and pipe.result_queue
                and id(pipe) not in counter._exiting
                and isinstance(pipe._conn, store_classes)
            ):
                counter._trip(pipe._conn, "flush")
            return fetch_gen(pipe, flush=flush)

        patch(psycopg.Cursor, "execute", cursor_execute)
        patch(psycopg.AsyncCursor, "execute", acursor_execute)
        patch(psycopg.Cursor, "executemany", cursor_executemany)
        patch(psycopg.AsyncCursor, "executemany", acursor_executemany)
        patch(psycopg.Connection, "wait", conn_wait)
        patch(psycopg.AsyncConnection, "wait", aconn_wait)
        patch(BasePipeline, "_sync_gen", pipe_sync)
        patch(BasePipeline, "_exit_gen", pipe_exit)
        patch(BasePipeline, "_fetch_gen", pipe_fetch)
        # Work handed to threads carries the caller's context (as `asyncio.to_thread`
        # does), so a watched call's trips on a worker thread are the call's.
        in_executor = asyncio.BaseEventLoop.run_in_executor

        def run_in_executor(loop: Any, executor: Any, func: Any, *args: Any) -> Any:
            return in_executor(loop, executor, contextvars.copy_context().run, func, *args)

        patch(asyncio.BaseEventLoop, "run_in_executor", run_in_executor)
        self._active = True
        try:
            yield self
        finally:
            self._active = False
            for cls, name, original in reversed(saved):
                setattr(cls, name, original)
            with self._lock:
                self._pending.clear()
