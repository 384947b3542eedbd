"""`WriteTargets` on the connection of a Postgres workflow-store transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import psycopg

from ...errors import InvalidTransitionError
from .. import _conversation_rules as conv
from .._agent_records import parse_offset
from .._streams import misplaced
from .._writes import (
    AdmitSubmission,
    AppendRecords,
    AppendStream,
    JoinSubmissions,
    RedactSubmissions,
    ResolveSubmissions,
    SettleSubmission,
    StartSubmission,
    StoreWrite,
)
from ._conversations import LOCK_STREAMS, streams_ahead
from ._conversations import _Tx as _ConversationTx
from ._held_conn import HeldConn
from ._notify import stream_key
from ._submissions import LedgerAhead, checked_statements
from ._submissions import _Tx as _LedgerTx

__all__ = ["PostgresWrites", "WritesAhead", "ledger_self_checked", "read_ahead"]

Conn = psycopg.Connection[Any]

# The stream row is locked by the upsert; a closed stream returns no row, and so does
# one whose next index is not the append's `at` (when given: a stream that does not
# exist yet is appended to only at 0, the row proposed only then or when it exists).
_APPEND_STREAM = """
WITH s AS (
    INSERT INTO tether_streams AS t (run_id, name, next_index)
    SELECT %(r)s, %(n)s, %(k)s
    WHERE COALESCE(%(at)s::integer, 0) = 0
    OR EXISTS (SELECT 1 FROM tether_streams WHERE run_id = %(r)s AND name = %(n)s)
    ON CONFLICT (run_id, name) DO UPDATE SET next_index = t.next_index + %(k)s
    WHERE NOT t.closed AND (%(at)s::integer IS NULL OR t.next_index = %(at)s::integer)
    RETURNING t.next_index - %(k)s AS first
), c AS (
    INSERT INTO tether_stream_chunks (run_id, name, idx, data)
    SELECT %(r)s, %(n)s, s.first + u.o - 1, u.d
    FROM s, unnest(%(d)s::bytea[]) WITH ORDINALITY AS u(d, o)
)
SELECT first FROM s
"""
# The same append held for a later round trip (perhaps the COMMIT's): a closed stream
# fails it on the server (a division by the zero rows appended), so the transaction is
# aborted before a COMMIT behind it runs; `_Txn` raises the write's refusal for it.
# Otherwise it returns the first chunk's index, for this process's followers.
_APPEND_STREAM_HELD = _APPEND_STREAM.replace(
    "SELECT first FROM s",
    "SELECT (SELECT first FROM s) + 0 * (1 / (SELECT count(*)::int FROM s))",
)

# A conversation append decided by the statement itself (`PostgresWrites.append_checked`):
# it locks the stream row and moves its head only when the producer is the write's and
# expects its sequence. Otherwise it fails (a division by the zero rows written), so
# the server aborts the transaction before the COMMIT that follows it in the pipeline:
# a refusal seen only once the round trip returned would come after that COMMIT.
_APPEND_CHECKED = """
WITH s AS (
    UPDATE tether_conversation_streams
    SET head = head + 1, next_producer_sequence = next_producer_sequence + 1
    WHERE path = %(path)s AND producer_id = %(producer)s AND producer_epoch = %(epoch)s
    AND incarnation = %(incarnation)s AND next_producer_sequence = %(sequence)s
    AND (%(at)s::bigint IS NULL OR head + 1 = %(at)s::bigint)
    RETURNING head
), b AS (
    INSERT INTO tether_conversation_batches (path, seq, producer_id, producer_epoch,
        producer_sequence, submission_id, attempt_id, record_count, byte_size, digest,
        chunk_count, data)
    SELECT %(path)s, s.head, %(producer)s, %(epoch)s, %(sequence)s, NULL, NULL, %(count)s,
        %(size)s, %(digest)s, 0, %(data)s::bytea FROM s
    RETURNING seq
)
SELECT 1 / (SELECT count(*)::int FROM b)
"""


@dataclass(slots=True, kw_only=True)
class WritesAhead:
    """What a transaction's writes read, read ahead in the round trip of its BEGIN.

    Ledger sessions are locked first (sorted), then conversation streams (sorted,
    ``FOR UPDATE``): the order every transaction takes its locks in, ledger sessions
    and streams before the run row.
    """

    ledger: LedgerAhead | None
    paths: list[str]
    streams: dict[str, conv.StreamRow | None] | None = field(default=None)

    def statements(self, namespace: str) -> list[tuple[str, Any]]:
        """The statements to send (in one pipeline, after BEGIN)."""
        found = [] if self.ledger is None else self.ledger.statements(namespace)
        if self.paths:
            found.append((LOCK_STREAMS, (self.paths,)))
        return found

    def take(self, cursors: Sequence[psycopg.Cursor[Any]]) -> None:
        """Keep the rows the statements returned (their cursors, in order)."""
        rest = list(cursors)
        if self.ledger is not None:
            locked, found, *rest = rest
            self.ledger.take(locked.fetchall(), found.fetchall())
        if self.paths:
            self.streams = streams_ahead(self.paths, rest[0].fetchall())


_LEDGER_WRITES = (
    AdmitSubmission,
    StartSubmission,
    JoinSubmissions,
    SettleSubmission,
    ResolveSubmissions,
    RedactSubmissions,
)


def ledger_self_checked(writes: Sequence[StoreWrite]) -> bool:
    """Whether the ledger's part of `writes` is one start or one settle, and nothing else.

    Those go as statements that check their own rows (`PostgresWrites.ledger_checked`)
    on the one-round-trip path: nothing of the ledger is read ahead. Any other ledger
    write reads rows (a join reads the host a start in the same commit would change),
    so then the rules apply them all.
    """
    ledger = [w for w in writes if isinstance(w, _LEDGER_WRITES)]
    return len(ledger) == 1 and isinstance(ledger[0], StartSubmission | SettleSubmission)


def read_ahead(writes: Sequence[StoreWrite], *, checked: bool = False) -> WritesAhead | None:
    """What `writes` will read, to read ahead; None when they read nothing.

    With `checked`, conversation appends are left to `PostgresWrites.append_checked`,
    and a lone start or settle to `PostgresWrites.ledger_checked`.
    """
    ids: set[str] = set()
    keys: set[str] = set()
    hosts: set[str] = set()
    paths: set[str] = set()
    if checked and ledger_self_checked(writes):
        writes = [w for w in writes if not isinstance(w, _LEDGER_WRITES)]
    for write in writes:
        if isinstance(write, AppendRecords):
            if not checked:
                paths.add(write.path)
        elif isinstance(write, AdmitSubmission):
            ids.add(write.submission.submission_id)
            keys.add(write.submission.session_key)
            if write.unless is not None:
                ids.add(write.unless)
        elif isinstance(write, StartSubmission):
            ids.add(write.attempt.submission_id)
        elif isinstance(write, JoinSubmissions):
            ids.add(write.host.submission_id)
            ids.update(write.submission_ids)
        elif isinstance(write, SettleSubmission):
            ids.add(write.attempt.submission_id)
            hosts.add(write.attempt.submission_id)
        elif isinstance(write, ResolveSubmissions):
            ids.update(write.submission_ids)
        elif isinstance(write, RedactSubmissions):
            keys.update(write.session_keys)
    if not (ids or keys or paths):
        return None
    ledger = LedgerAhead(ids=ids, keys=keys, hosts=hosts) if ids or keys else None
    return WritesAhead(ledger=ledger, paths=sorted(paths))


class PostgresWrites:
    """`WriteTargets` for one transaction of the Postgres workflow store.

    Args:
        conn: The transaction's connection.
        namespace: The backend's namespace (it scopes the ledger's session locks).
        streams: Where the transaction collects the stream keys to announce.
        announce: Sends the conversation NOTIFY for a path inside the transaction.
        now: The transaction's clock (the server's).
    """

    def __init__(
        self,
        conn: Conn,
        namespace: str,
        streams: set[str],
        announce: Callable[[Conn, str], None] | None,
        *,
        now: float,
        held: HeldConn | None = None,
        ahead: WritesAhead | None = None,
        checked: bool = False,
        ledger_checked: bool = False,
    ) -> None:
        self._now = now
        # A lone start or settle as statements checking their own rows (`read_ahead`).
        self._ledger_checked = ledger_checked and held is not None
        # What the writes read, read ahead (`read_ahead`), shared by each write's rows.
        self._ahead = ahead
        # Conversation appends as one checking statement each (see `append_checked`).
        self._checked = checked and held is not None
        self._conn = conn
        # With `held` (the transaction's `HeldConn`), writes whose results nobody reads
        # are buffered for the transaction's next statement (its COMMIT at the latest).
        self._held = held
        self._hold = None if held is None else held.hold
        self._holding = conn if held is None else cast(Conn, held.holding())
        self._namespace = namespace
        self._streams = streams
        self._announce = announce
        self.paths: set[str] = set()
        #: The stream appends made: (run id, name, first index, chunks), for the taps
        #: once the transaction has committed (a held one's index comes with its trip).
        self.stream_appends: list[tuple[str, str, int, list[bytes]]] = []

    def ledger(self) -> _LedgerTx:
        now = self._now
        ahead = None if self._ahead is None else self._ahead.ledger
        return _LedgerTx(
            self._conn, self._namespace, lambda: now, locking=True, hold=self._hold, ahead=ahead
        )

    def conversations(self) -> _ConversationTx:
        streams = None if self._ahead is None else self._ahead.streams
        return _ConversationTx(self._conn, self._namespace, self._hold, streams)

    def append_stream(self, write: AppendStream) -> None:
        data = [bytes(c) for c in write.chunks]
        params = {"r": write.run_id, "n": write.name, "k": len(data), "d": data, "at": write.at}
        closed: InvalidTransitionError = (
            InvalidTransitionError(f"stream {write.name!r} of run {write.run_id!r} is closed")
            if write.at is None
            else misplaced(write.run_id, write.name, write.at, None)
        )
        run_id, name = write.run_id, write.name

        def take(first: Any) -> None:
            self.stream_appends.append((run_id, name, int(first), data))

        if self._held is not None:
            # The rules do not read its index: it goes with the next statement, and a
            # closed stream fails it on the server, before any COMMIT sent behind it.
            self._held.hold_returning(_APPEND_STREAM_HELD, params, closed, take)
        else:
            row = self._conn.execute(_APPEND_STREAM, params).fetchone()
            if row is None:
                raise closed
            take(row[0])
        self._streams.add(stream_key(write.run_id, write.name))

    def append_checked(self, write: AppendRecords, encoded: tuple[bytes, str]) -> bool:
        """Append in one statement, held for the next round trip (the COMMIT's).

        Only on the one-round-trip path (`checked`), for a batch kept in its own row: a
        stream that is not where the write expects it (another producer, a replayed
        or skipped sequence, no stream) fails the transaction when the round trip
        returns, nothing written, and the commit is decided again on the ordinary
        path, where the rules give the answer (`FencedError`, the replay's offset...).
        (It fails on the server, so the COMMIT after it in the pipeline never runs.)
        The stream row is locked by the statement, after the ledger's sessions (read
        ahead) and before the run's stream and row: the one lock order.
        """
        data, digest = encoded
        if not self._checked or len(data) > conv.BATCH_CHUNK_BYTES or self._held is None:
            return False
        at = None if write.at is None else parse_offset(write.at)
        if write.at is not None and at is None:
            return False  # not an offset: the rules refuse it
        params = {
            "path": write.path,
            "producer": write.producer_id,
            "epoch": write.producer_epoch,
            "incarnation": write.incarnation,
            "sequence": write.producer_sequence,
            # A batch stated at an offset lands only there (else the rules refuse it).
            "at": at,
            "count": len(write.records),
            "size": len(data),
            "digest": digest,
            "data": data,
        }
        self._held.hold(_APPEND_CHECKED, params)
        return True

    def ledger_checked(self, write: StartSubmission | SettleSubmission) -> bool:
        """Hold the write's own statements (`checked_statements`), if this path takes them.

        Only on the one-round-trip path, for a commit whose ledger part is this write
        alone (`ledger_self_checked`): they go with the COMMIT's round trip, the
        session's lock first, as the rules' reads would take it, then the row's change.
        """
        if not self._ledger_checked or self._held is None:
            return False
        for sql, params in checked_statements(self._namespace, write, self._now):
            self._held.hold(sql, params)
        return True

    def appended(self, path: str) -> None:
        if path not in self.paths and self._announce is not None:
            # Delivered only if the transaction commits.
            self._announce(self._holding, path)
        self.paths.add(path)
