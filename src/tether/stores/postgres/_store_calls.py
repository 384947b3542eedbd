"""How the Postgres workflow store's calls reach the server, and what this process learns.

Writes run the shared rules in one transaction on a pooled sync connection, on a
thread of the store's executor (`_write`, see `_transactions`); the hot one-statement
reads run on the event loop (`_query`); once a transaction has committed, this
process's waiters, stream followers and conversation subscribers hear of it at once
(`_committed`), other processes by NOTIFY.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg_pool
from psycopg import errors as pg_errors

from ...errors import StoreError
from .._records import DEFAULT_HOOK_RETENTION
from .._writes import StoreWrite
from . import _fast, _ring
from ._errors import CLOSED, _raise_wrapped, _wrap
from ._group_commit import GroupCommits
from ._notify import Notifier, channels
from ._pool import CommitLane
from ._streams import PostgresStreams
from ._transactions import StreamAppend, TxnReads, TxnScope, run_fast_in_txn, run_in_txn
from ._txn import Conn, _Txn

if TYPE_CHECKING:
    from ._conversations import PostgresConversationStore

__all__ = ["FAST_CHECKOUT", "StoreCalls"]

T = TypeVar("T")

#: How long a one-round-trip commit waits for a free connection before it takes the
#: ordinary path instead.
FAST_CHECKOUT = 1.0
#: How often a transaction rolled back by a deadlock or serialization failure is run
#: again before the error reaches the caller.
ROLLBACK_RETRIES = 8


class StoreCalls:
    """The plumbing of `PostgresWorkflowStore`: transactions, reads, what commits tell."""

    def __init__(
        self,
        pool: psycopg_pool.ConnectionPool[Any],
        executor: ThreadPoolExecutor,
        notifier: Notifier,
        namespace: str,
        commits: CommitLane,
        *,
        hook_retention: float = DEFAULT_HOOK_RETENTION,
        reads: Sequence[CommitLane] = (),
    ) -> None:
        self._hook_retention = hook_retention
        self._pool = pool
        self._commits = commits
        # The hot one-statement reads (a run, its hooks, a stream's chunks) run on the
        # event loop too, on a lane of their own: no hop to a thread and back.
        self._reads = tuple(reads) or (commits,)
        self._executor = executor
        self._notifier = notifier
        self._namespace = namespace
        self._known = _fast.RunCache()
        # (queue, owner) whose last take found fewer messages than it asked for.
        self._drained: set[tuple[str, str]] = set()
        self._group = GroupCommits(commits, checkout=FAST_CHECKOUT)
        self._conversations: PostgresConversationStore | None = None
        self._streams = PostgresStreams(
            namespace=namespace, commits=commits, query=self._query, write=self._write
        )
        notifier.on_stream(self._streams.noted)

    def attach_conversations(self, conversations: PostgresConversationStore) -> None:
        """The conversation store whose subscribers hear of `Commit.writes` appends."""
        self._conversations = conversations

    # -- plumbing ----------------------------------------------------------------------
    def _in_txn(
        self, fn: Callable[[_Txn], T], writes: Sequence[StoreWrite], reads: TxnReads
    ) -> tuple[T, list[tuple[str, str]], list[_fast.KnownRun], set[str], list[StreamAppend]]:
        """`run_in_txn` on a pooled connection (on a thread of the executor)."""
        with self._pool.connection() as conn:
            return run_in_txn(conn, self._scope(), fn, writes, reads)

    def _in_txn_fast(
        self,
        fast: _fast.FastCommit,
        writes: Sequence[StoreWrite],
        run_notes: Sequence[tuple[str, str]],
    ) -> tuple[str, list[tuple[str, str]], set[str], list[StreamAppend]]:
        """`run_fast_in_txn` on a pooled connection (on a thread of the executor)."""
        with self._pool.connection() as conn:
            return run_fast_in_txn(conn, self._scope(), fast, writes, run_notes)

    def _scope(self) -> TxnScope:
        conversations = self._conversations
        return TxnScope(
            namespace=self._namespace,
            hook_retention=self._hook_retention,
            announce=None if conversations is None else conversations.announce,
            queue_echoes=self._notifier.queue_echoes,
        )

    async def _write(
        self,
        fn: Callable[[_Txn], T],
        *,
        retry_conflict: bool = False,
        writes: Sequence[StoreWrite] = (),
        hook: tuple[str, bool] | None = None,
        lead: tuple[str, Any] | None = None,
        held_logs: Mapping[str, int] | None = None,
    ) -> T:
        loop = asyncio.get_running_loop()
        conflicts = rollbacks = 0
        expected = self._streams.expect(writes)
        reads = TxnReads(hook=hook, lead=lead, held_logs=held_logs)
        while True:
            try:
                result, notes, known, paths, appends = await loop.run_in_executor(
                    self._executor, self._in_txn, fn, writes, reads
                )
            except pg_errors.UniqueViolation as exc:
                # A concurrent insert of the same row won: re-run the rules, which now
                # see it (idempotent creation, key absorption).
                conflicts += 1
                if retry_conflict and conflicts == 1:
                    continue
                self._streams.cancel(expected)
                raise _wrap(exc) from exc
            except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure) as exc:
                # A deadlock or a serialization failure rolled the whole transaction
                # back: nothing of it was written, so running it again is safe, and
                # callers never see it. (A hook resume locks the run, then its queue
                # row; a worker's claim the queue row, then the run.)
                rollbacks += 1
                if rollbacks > ROLLBACK_RETRIES:
                    self._streams.cancel(expected)
                    raise _wrap(exc) from exc
                await asyncio.sleep(random.uniform(0.001, 0.01) * rollbacks)
                continue
            except BaseException as exc:
                self._streams.cancel(expected)
                _raise_wrapped(exc)
            for run in known:
                self._known.put(run)
            self._committed(notes, paths, appends, expected)
            return result

    def _committed(
        self,
        notes: Sequence[tuple[str, str]],
        paths: set[str],
        appends: list[StreamAppend],
        expected: Sequence[str],
    ) -> None:
        """Tell this process what a transaction wrote, once it has committed."""
        # Stream appends go on the followers' taps; their notes are not dispatched here
        # (that would make the followers read them back), and their echoes are dropped.
        tapped = self._streams.committed(appends, expected)
        _, _, stream_channel = channels(self._namespace)
        # Wake local waiters now; other processes hear the NOTIFY.
        for channel, payload in notes:
            if channel != stream_channel or payload not in tapped:
                self._notifier.dispatch(channel, payload)
        if paths and self._conversations is not None:
            for path in paths:
                self._conversations.notify_appended(path)

    async def _sql(self, fn: Callable[[Conn], T]) -> T:
        """Run `fn`, which reads or makes one write, with no transaction around it.

        Each statement commits alone (the pool's connections are autocommit): a
        single write is atomic by itself, and reads under READ COMMITTED see a fresh
        snapshot per statement inside a transaction too. That spares the BEGIN and
        COMMIT round trips.
        """

        def plain() -> T:
            with self._pool.connection() as conn:
                return fn(conn)

        try:
            running = asyncio.get_running_loop().run_in_executor(self._executor, plain)
        except RuntimeError as exc:  # the threads are shut down: the backend was closed
            raise StoreError(CLOSED) from exc
        try:
            return await running
        except BaseException as exc:
            _raise_wrapped(exc)

    async def _ring_claim(self, ring: _ring.RingPlan) -> _ring.RingClaim | None:
        """A wake-up by hook in one round trip on the event loop (see `_ring`).

        None (nothing written) when it is not the plain case, or lost a race to a lock
        (a deadlock, a serialization failure): the ordinary path decides and retries.
        """
        try:
            async with self._commits.connection(timeout=FAST_CHECKOUT) as conn:
                return await _ring.send(conn, ring)
        except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure):
            return None
        except psycopg_pool.PoolTimeout:
            # Every connection of the lane busy (a burst of messages): not sent, so the
            # ordinary path takes it, as a one-round-trip commit does. A store that is
            # down fails there too.
            return None
        except BaseException as exc:
            _raise_wrapped(exc)

    async def _query(self, sql: str, params: Any) -> list[tuple[Any, ...]]:
        """Rows of one read statement, run on the event loop (its own snapshot).

        On the kept connection of a read lane that is free (a turn's start reads two
        things at once); while all are busy, on a thread of the pool as other reads are
        (concurrent reads never wait for a lane).
        """
        lane = next((lane for lane in self._reads if not lane.busy), None)
        if lane is None:
            return await self._sql(lambda c: c.execute(sql, params).fetchall())
        try:
            async with lane.connection(timeout=FAST_CHECKOUT) as conn:
                return await (await conn.execute(sql, params)).fetchall()
        except psycopg_pool.PoolTimeout:
            pass  # the lanes' pool is exhausted (a burst): a thread's connection reads it
        except BaseException as exc:
            _raise_wrapped(exc)
        return await self._sql(lambda c: c.execute(sql, params).fetchall())
