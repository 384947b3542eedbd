"""How one workflow-store call becomes one Postgres transaction on a pooled connection.

`run_in_txn` runs the shared rules on rows read under lock (the ordinary path);
`run_fast_in_txn` writes a commit the store decided on its copy of the run (`_fast`)
behind the other stores' writes that ride on it. Both run on a thread of the store's
executor, and both send what they read with the BEGIN, and what nobody reads with the
next statement (the COMMIT's at the latest): as few round trips as the rules allow.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import psycopg

from .._write_rules import apply_writes
from .._writes import StoreWrite
from . import _fast
from ._held_conn import HeldConn
from ._notify import QueueEchoes
from ._schema import SERVER_NOW
from ._statements import _TXN_NOW
from ._txn import Conn, _Txn
from ._writes import PostgresWrites, WritesAhead, ledger_self_checked, read_ahead

__all__ = ["NO_READS", "StreamAppend", "TxnReads", "TxnScope", "run_fast_in_txn", "run_in_txn"]

T = TypeVar("T")
#: A stream append a transaction made: run id, stream name, first index, chunks.
StreamAppend = tuple[str, str, int, list[bytes]]


@dataclass(frozen=True, slots=True, kw_only=True)
class TxnScope:
    """What a transaction of the store needs besides its connection."""

    namespace: str
    hook_retention: float
    #: Sends a conversation append's NOTIFY inside the transaction (None: no store).
    announce: Callable[[Conn, str], None] | None
    #: Counts the queue notifications sent, which this process hears back as echoes.
    queue_echoes: QueueEchoes | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TxnReads:
    """What a transaction reads with its BEGIN, besides what its writes read.

    With `hook` (a token, and whether its run's log is wanted), the reads of a hook
    payload (`_Txn.hook_ahead`). With `lead`, a statement on the transaction's clock
    (`_TXN_NOW`, the rules' "now" then), its cursor in `_Txn.lead` (writes and hook not
    with it). `held_logs`: the logs the caller holds, up to a slot, by run
    (`_Txn.held_logs`).
    """

    hook: tuple[str, bool] | None = None
    lead: tuple[str, Any] | None = None
    held_logs: Mapping[str, int] | None = None


#: A transaction that reads nothing ahead but what its writes read.
NO_READS = TxnReads()


def run_in_txn(
    conn: Conn,
    scope: TxnScope,
    fn: Callable[[_Txn], T],
    writes: Sequence[StoreWrite] = (),
    reads: TxnReads = NO_READS,
) -> tuple[T, list[tuple[str, str]], list[_fast.KnownRun], set[str], list[StreamAppend]]:
    """Run `fn` (and `writes` before it) in one transaction on `conn`.

    What `reads` names goes out with the BEGIN, in the same round trip as what the
    writes read.

    Returns:
        What `fn` returned, the notifications sent, the runs as written (for the
        store's copies), the conversation paths appended to and the stream appends.
    """
    hook, lead, held_logs = reads.hook, reads.lead, reads.held_logs
    paths: set[str] = set()
    appends: list[StreamAppend] = []
    ahead = read_ahead(writes) if writes else None
    first = [] if ahead is None else ahead.statements(scope.namespace)
    mine = len(first)
    if hook is not None:
        first += _Txn.hook_ahead(hook[0], log=hook[1], held_logs=held_logs)
    if lead is not None:
        first.append(lead)
    try:
        if not first:
            # BEGIN and the server's clock in one round trip: the rules' "now".
            cursor = conn.execute(f"BEGIN; SELECT {SERVER_NOW}")
            cursor.nextset()
        else:
            # With what the writes and the rules read (the writes' locks first, then
            # the run's): one round trip.
            clock = SERVER_NOW if lead is None else _TXN_NOW
            with conn.pipeline():
                conn.execute("BEGIN")
                cursor = conn.execute(f"SELECT {clock}")
                cursors = [conn.execute(q, v) for q, v in first]
            if ahead is not None:
                ahead.take(cursors[:mine])
        row = cursor.fetchone()
        assert row is not None
        txn = _Txn(conn, float(row[0]), scope.hook_retention, held_logs)
        if hook is not None:
            txn.take_hook_ahead(hook[0], cursors[mine:])
        if lead is not None:
            txn.lead = cursors[-1]
        if writes:
            # The other stores' writes first (see `stores._writes`): every transaction
            # locks ledger sessions and streams before the run row.
            targets = _apply(txn, scope, writes, ahead)
            paths = targets.paths
            appends = targets.stream_appends
        result = fn(txn)
        notes = txn.finish(scope.namespace, scope.queue_echoes)
    except BaseException:
        _roll_back(conn)
        raise
    return result, notes, txn.known(), paths, appends


def run_fast_in_txn(
    conn: Conn,
    scope: TxnScope,
    fast: _fast.FastCommit,
    writes: Sequence[StoreWrite],
    run_notes: Sequence[tuple[str, str]],
) -> tuple[str, list[tuple[str, str]], set[str], list[StreamAppend]]:
    """Apply `writes`, then write `fast`, in one transaction on `conn`.

    The writes take their locks first, as on the ordinary path; the run's part needs
    no read of its row: its statements go with the COMMIT, and the first one raises if
    the row changed since the copy was taken (rolling it all back).

    Returns:
        The run row's new stamp, the notes sent, the conversation paths and the stream
        appends.
    """
    try:
        # The run's part was decided on this process's clock (the store's `commit`):
        # the writes' rules take it too, and BEGIN waits to go out with the first
        # statement (one round trip fewer). Only the lease's end is the server's.
        txn = _Txn(conn, time.time(), scope.hook_retention)
        txn.hold("BEGIN", None)
        # What the writes read (their locks first) goes out with the BEGIN;
        # conversation appends check the stream in their own statement.
        ahead = read_ahead(writes, checked=True)
        if ahead is not None:
            ahead.take(txn.read_many(ahead.statements(scope.namespace)))
        targets = _apply(txn, scope, writes, ahead, checked=True)
        run_id = fast.run.run_id
        (first, params), *rest = _fast.statements(fast, run_notes)
        txn.hold_stamped(first, params, run_id)
        for sql, values in rest:
            txn.hold(sql, values)
        notes = txn.finish(scope.namespace, scope.queue_echoes)
        stamp = txn.stamp_of(run_id)
        assert stamp is not None  # the function returns the stamp or raises
    except BaseException:
        _roll_back(conn)
        raise
    return stamp, [*run_notes, *notes], targets.paths, targets.stream_appends


def _apply(
    txn: _Txn,
    scope: TxnScope,
    writes: Sequence[StoreWrite],
    ahead: WritesAhead | None,
    *,
    checked: bool = False,
) -> PostgresWrites:
    """Apply the other stores' writes in `txn`; the targets, with what they appended.

    Their statements go out behind each other's buffered writes, and writes nobody reads
    go with the next statement: fewer round trips. `checked`: conversation appends check
    the stream in their own statement (see `PostgresWrites.append_checked`).
    """
    held = HeldConn(txn)
    targets = PostgresWrites(
        cast(Conn, held),
        scope.namespace,
        txn.streams,
        scope.announce,
        now=txn.now,
        held=held,
        ahead=ahead,
        checked=checked,
        ledger_checked=checked and ledger_self_checked(writes),
    )
    apply_writes(targets, writes)
    return targets


def _roll_back(conn: Conn) -> None:
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        with contextlib.suppress(psycopg.Error):
            conn.execute("ROLLBACK")
