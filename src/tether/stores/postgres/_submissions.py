"""The submission ledger on Postgres.

Every method runs the `_ledger` transition inside one transaction of the workflow
store's runner (a pooled sync connection in a worker thread). SQLite gets atomicity
from `BEGIN IMMEDIATE`, which serialises every writer; here writers serialise per
session instead: before a transaction reads or writes any row of a session it takes
that session's transaction-scoped advisory lock. So two claims of one session head,
an admission racing a claim, or a join racing a settlement take turns, while work on
other sessions proceeds in parallel. A transaction touching several sessions
(`renew_leases`) locks them in sorted order, so lock waits never form a cycle.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import psycopg

from .. import _ledger
from .. import _ledger_rows as ledger_rows
from .._agent_records import (
    DURABILITY_DEFAULT_TIMEOUT,
    Submission,
    SubmissionAttachment,
    SubmissionStatus,
)
from .._ledger_store import LedgerStore
from .._writes import SettleSubmission, StartSubmission

__all__ = [
    "LedgerAhead",
    "PostgresSubmissionStore",
    "TxRunner",
    "checked_statements",
    "lock_key",
    "lookup_submission",
]

T = TypeVar("T")
Conn = psycopg.Connection[Any]

_SETTLE_MALFORMED = ledger_rows.settle_malformed_statement("%s")
_INSERT = ledger_rows.insert_statement("%s")
_INSERT_CHUNK = ledger_rows.insert_chunk_statement("%s")
_UPDATE = ledger_rows.update_statement("%s")
_SELECT_CHUNKS = ledger_rows.select_chunks_statement("%s")
_REDACT, _REDACT_CHUNKS = ledger_rows.redact_statements("%s")


#: Buffers a write (SQL, parameters) to go out with its transaction's next statement.
Hold = Callable[[str, Sequence[Any]], None]


class TxRunner(Protocol):
    """Runs a function on a connection inside one write transaction, in a thread."""

    def __call__(self, fn: Callable[[Conn], T], /) -> Awaitable[T]: ...


def _lock_prefix(namespace: str) -> str:
    # The key names the namespace: advisory locks are shared by the whole database.
    return f"tether/{namespace}/session/"


def lock_key(namespace: str, session_key: str) -> str:
    """The key of `session_lock` (hashed by the server) for one session."""
    return _lock_prefix(namespace) + session_key


def session_lock(conn: Conn, namespace: str, session_key: str) -> None:
    """Take the transaction-scoped lock that serialises writers of one session."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
        (lock_key(namespace, session_key),),
    )


# `session_lock` on the session of a submission, found by its id: the same lock key.
_LOCK_BY_SUBMISSION = (
    "SELECT session_key, pg_advisory_xact_lock(hashtextextended(%s || session_key, 0)) "
    "FROM tether_agent_submissions WHERE submission_id = %s"
)


# Every session involved, locked in one statement in sorted order (the server evaluates
# a volatile function of the select list after the sort): those of the rows named, and
# those named outright (an admission's, whose row may not exist yet).
_LOCK_SESSIONS = (
    "SELECT k, pg_advisory_xact_lock(hashtextextended(%s || k, 0)) FROM ("
    "SELECT session_key AS k FROM tether_agent_submissions WHERE submission_id = ANY(%s) "
    "UNION SELECT unnest(%s::text[])) AS keys ORDER BY k"
)
_JOIN_STATUSES: frozenset[SubmissionStatus] = frozenset({"joining", "joined"})
_JOINS = sorted(_JOIN_STATUSES)
# The rows named, and every join of the hosts named, read once their sessions are locked.
_SELECT_AHEAD = (
    f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions WHERE submission_id = ANY(%s) "
    "OR (joined_into = ANY(%s) AND status = ANY(%s))"
)


# A run's own ledger writes decided by their statements, on the one-round-trip path
# (`PostgresWrites.ledger_checked`): each changes what `_ledger.start` / `_ledger.settle`
# would, where they would, and nothing elsewhere; behind the session's lock (taken by
# `_LOCK_BY_SUBMISSION` in the statement before), as the rules' reads would take it.
_START_CHECKED = (
    "UPDATE tether_agent_submissions SET status = 'running', attempt_id = %(attempt)s, "
    "owner_id = %(owner)s, lease_expires_at = 0, started_at = %(now)s, "
    "input_applied_at = %(now)s, attempt_count = attempt_count + 1, "
    "canonical_ready_at = coalesce(canonical_ready_at, %(now)s), "
    "timeout_at = CASE WHEN timeout_at = 0 THEN %(timeout)s ELSE timeout_at END "
    "WHERE submission_id = %(id)s AND status = 'queued'"
)
# The host settles; its joins share its fate: confirmed ones settle with it, unconfirmed
# ones go back to the queue (`_ledger._settle`).
_SETTLE_CHECKED = """
WITH host AS (
    UPDATE tether_agent_submissions SET status = 'settled', settled_at = %(now)s,
        outcome = %(outcome)s, error = %(error)s
    WHERE submission_id = %(id)s AND attempt_id = %(attempt)s
        AND status IN ('running', 'terminalizing')
    RETURNING submission_id
)
UPDATE tether_agent_submissions AS j SET
    status = CASE WHEN j.status = 'joined' THEN 'settled' ELSE 'queued' END,
    settled_at = CASE WHEN j.status = 'joined' THEN %(now)s ELSE j.settled_at END,
    outcome = CASE WHEN j.status = 'joined' THEN %(outcome)s ELSE j.outcome END,
    error = CASE WHEN j.status = 'joined' THEN %(error)s ELSE j.error END,
    joined_into = CASE WHEN j.status = 'joined' THEN j.joined_into END
FROM host WHERE j.joined_into = host.submission_id AND j.status IN ('joining', 'joined')
"""


def checked_statements(
    namespace: str, write: StartSubmission | SettleSubmission, now: float
) -> list[tuple[str, Any]]:
    """The statements that apply `write` checking its own rows (see `_START_CHECKED`)."""
    attempt = write.attempt
    lock = (_LOCK_BY_SUBMISSION, (_lock_prefix(namespace), attempt.submission_id))
    if isinstance(write, StartSubmission):
        params = {
            "id": attempt.submission_id, "attempt": attempt.attempt_id,
            "owner": write.owner_id, "now": now, "timeout": now + DURABILITY_DEFAULT_TIMEOUT,
        }  # fmt: skip
        return [lock, (_START_CHECKED, params)]
    error = write.error
    if write.outcome != "completed" and error is None:
        error = f"submission {write.outcome}"
    params = {
        "id": attempt.submission_id, "attempt": attempt.attempt_id, "now": now,
        "outcome": write.outcome, "error": error,
    }  # fmt: skip
    return [lock, (_SETTLE_CHECKED, params)]


@dataclass(slots=True, kw_only=True)
class LedgerAhead:
    """Ledger rows a transaction reads ahead, in the round trip of its first statements.

    A step commit's ledger writes each read the rows they change (`_ledger`): read one
    by one that is a round trip per row (its session's lock with it). Read ahead, the
    sessions of every row named are locked first, in sorted order, then the rows and
    the joins of the hosts named are read in the same round trip, and the rules are
    served from here. The rows stay current: every write of the transaction passes
    through `_Tx.update`, which keeps the copy here. A row not named, or a select this
    cannot answer whole, is read from the server as before.
    """

    ids: set[str]
    keys: set[str]
    hosts: set[str]
    locked: set[str] = field(default_factory=set)
    raw: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    rows: dict[str, Submission | None] = field(default_factory=dict)

    def statements(self, namespace: str) -> list[tuple[str, Any]]:
        """The lock and the read, to send in one pipeline (after BEGIN)."""
        ids = sorted(self.ids)
        return [
            (_LOCK_SESSIONS, (_lock_prefix(namespace), ids, sorted(self.keys))),
            (_SELECT_AHEAD, (ids, sorted(self.hosts), _JOINS)),
        ]

    def take(self, locked: Sequence[Any], found: Sequence[Any]) -> None:
        """Keep what the two statements returned."""
        self.locked.update(str(row[0]) for row in locked)
        for row in found:
            self.raw[str(row[1])] = tuple(row)

    def known(self, submission_id: str) -> bool:
        """Whether the row (or its absence) is known here: named, a join read, or written."""
        return submission_id in self.ids or submission_id in self.raw or submission_id in self.rows


class _Tx:
    """`LedgerTxn` over one Postgres transaction.

    With `locking`, every session is locked before its rows are read; queries that
    only look (and settle malformed rows) run without locks.
    """

    def __init__(
        self,
        conn: Conn,
        namespace: str,
        clock: Callable[[], float],
        *,
        locking: bool,
        hold: Hold | None = None,
        ahead: LedgerAhead | None = None,
    ) -> None:
        self.conn = conn
        # Buffers a write whose result nobody reads, for the transaction's next statement.
        self._hold = hold
        self._namespace = namespace
        self._lock_prefix = _lock_prefix(namespace)
        self._now = clock()
        self._locking = locking
        # Rows read ahead (with their sessions' locks), shared by the transaction's writes.
        self._ahead = ahead
        self._locked: set[str] = set() if ahead is None else ahead.locked
        #: Sequences of the damaged rows this transaction settled (`LedgerTxn`).
        self.settled_on_read: set[int] = set()

    def now(self) -> float:
        return self._now

    def lock_sessions(self, session_keys: Iterable[str]) -> None:
        for key in sorted(set(session_keys) - self._locked):
            session_lock(self.conn, self._namespace, key)
            self._locked.add(key)

    def _load_attachments(self, submission_id: str, meta: Any) -> tuple[SubmissionAttachment, ...]:
        return ledger_rows.attachments_from(
            meta, lambda: self.conn.execute(_SELECT_CHUNKS, (submission_id,)).fetchall()
        )

    def _decode(self, row: tuple[Any, ...]) -> Submission:
        return ledger_rows.decode_or_settle(
            row,
            self._load_attachments,
            self._now,
            self._settle_malformed,
        )

    def _settle_malformed(self, values: tuple[Any, ...]) -> None:
        self.conn.execute(_SETTLE_MALFORMED, values)
        self.settled_on_read.add(int(values[-1]))

    def get(self, submission_id: str) -> Submission | None:
        ahead = self._ahead
        if ahead is not None and ahead.known(submission_id):
            if submission_id not in ahead.rows:
                raw = ahead.raw.pop(submission_id, None)
                ahead.rows[submission_id] = None if raw is None else self._decode(raw)
            return ahead.rows[submission_id]
        select = (
            f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions WHERE submission_id = %s"
        )
        if not self._locking:
            row = self.conn.execute(select, (submission_id,)).fetchone()
            return None if row is None else self._decode(row)
        # The lock comes first, then the read: a row read before the lock could be stale
        # by the time this transaction writes it. Both go in one round trip: the server
        # runs the read once the lock is taken, with a snapshot of its own (READ
        # COMMITTED), so it sees every write committed before the lock was granted.
        with self.conn.pipeline():
            locked = self.conn.execute(_LOCK_BY_SUBMISSION, (self._lock_prefix, submission_id))
            read = self.conn.execute(select, (submission_id,))
        key = locked.fetchone()
        row = read.fetchone()
        if key is None or row is None:
            return None
        self._locked.add(str(key[0]))
        return self._decode(row)

    def select(
        self,
        *,
        statuses: frozenset[SubmissionStatus],
        session_key: str | None = None,
        joined_into: str | None = None,
    ) -> list[Submission]:
        ahead = self._ahead
        if (
            ahead is not None
            and session_key is None
            and joined_into in ahead.hosts
            and statuses <= _JOIN_STATUSES
        ):
            # Every join of the host was read ahead (its session locked), and every
            # row this transaction changed since is kept current there.
            for submission_id in list(ahead.raw):
                self.get(submission_id)
            return sorted(
                (
                    s
                    for s in ahead.rows.values()
                    if s is not None and s.status in statuses and s.joined_into == joined_into
                ),
                key=lambda s: s.sequence,
            )
        if self._locking and session_key is not None:
            self.lock_sessions([session_key])
        rows = self.conn.execute(
            f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions WHERE status = ANY(%s) "
            "AND (%s::text IS NULL OR session_key = %s) "
            "AND (%s::text IS NULL OR joined_into = %s) ORDER BY sequence",
            (sorted(statuses), session_key, session_key, joined_into, joined_into),
        ).fetchall()
        decoded = [self._decode(row) for row in rows]
        # A malformed row is settled while decoding, so it drops out of the selection.
        return [s for s in decoded if s.status in statuses]

    def insert(self, submission: Submission) -> Submission:
        ahead = self._ahead
        if self._hold is not None and ahead is not None and submission.session_key in self._locked:
            # A write riding on a commit (`AdmitSubmission`), its session locked ahead:
            # nothing reads its sequence, so it goes with the next statement. The row
            # returned has none; a later read in this transaction reads it from the
            # server (behind the insert), sequence included.
            self._hold(_INSERT, ledger_rows.insert_values(submission))
            for chunk in ledger_rows.chunk_rows(submission):
                self._hold(_INSERT_CHUNK, chunk)
            ahead.ids.discard(submission.submission_id)
            ahead.rows.pop(submission.submission_id, None)
            ahead.raw.pop(submission.submission_id, None)
            return submission
        # Sequences are drawn under the session lock, so within a session they commit
        # in order: a later admission can never become the head before an earlier one.
        # The lock and the insert go out together (one round trip): the server runs
        # the insert once the lock is granted.
        with self.conn.pipeline():
            self.lock_sessions([submission.session_key])
            inserted = self.conn.execute(
                _INSERT + " RETURNING sequence", ledger_rows.insert_values(submission)
            )
        row = inserted.fetchone()
        assert row is not None  # RETURNING of an insert yields the row
        chunks = ledger_rows.chunk_rows(submission)
        if chunks:
            with self.conn.cursor() as cur:
                cur.executemany(_INSERT_CHUNK, chunks)
        inserted_row = _ledger.replace_row(submission, sequence=int(row[0]))
        if self._ahead is not None:
            self._ahead.rows[submission.submission_id] = inserted_row
        return inserted_row

    def update(self, s: Submission) -> None:
        if self._ahead is not None:
            self._ahead.rows[s.submission_id] = s
        if self._hold is not None:
            self._hold(_UPDATE, ledger_rows.update_values(s))
        else:
            self.conn.execute(_UPDATE, ledger_rows.update_values(s))

    def redact(self, s: Submission) -> None:
        if self._ahead is not None:
            # Read again if asked for: the content the copy holds is gone.
            self._ahead.ids.discard(s.submission_id)
            self._ahead.rows.pop(s.submission_id, None)
            self._ahead.raw.pop(s.submission_id, None)
        row, chunks = ledger_rows.redact_values(s)
        self.conn.execute(_REDACT, row)
        self.conn.execute(_REDACT_CHUNKS, chunks)


_SELECT_ONE = f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions WHERE submission_id = %s"
#: The unsettled rows of some lanes, by the index on (session_key, status, sequence)
#: alone: written ``status = ANY(...)``, a prepared statement's generic plan also read
#: the index by status, every unsettled row of every lane (and every entry of rows
#: updated since the last vacuum). A row of no known status is dropped after decoding.
_SELECT_UNSETTLED = (
    f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions WHERE session_key = ANY(%s) "
    "AND status <> 'settled' ORDER BY sequence"
)


class _NeedsTransaction(Exception):
    """A row needs more than its own columns to decode (chunks to read, a settle)."""


def _needs_transaction(*_: Any) -> Any:
    raise _NeedsTransaction


def _decode_alone(found: Sequence[Any], now: float) -> list[Submission] | None:
    """The rows' submissions, or None when one needs the ordinary (threaded) path."""
    try:
        return [
            ledger_rows.decode_or_settle(
                row,
                lambda _, meta: ledger_rows.attachments_from(meta, _needs_transaction),
                now,
                _needs_transaction,
            )
            for row in found
        ]
    except _NeedsTransaction:
        return None


def lookup_submission(conn: Conn, namespace: str, submission_id: str) -> Submission | None:
    """Read one submission inside another store's transaction, locking its session.

    A conversation append authorises against the submission; the lock keeps the
    submission from settling until the append commits.
    """
    return _Tx(conn, namespace, time.time, locking=True).get(submission_id)


class PostgresSubmissionStore(LedgerStore):
    """A `SubmissionStore` in a Postgres namespace, shared by any number of processes.

    Args:
        run: The transaction runner of the backend (the workflow store's).
        namespace: The backend's namespace (it scopes the session locks).
        clock: Returns Unix seconds; tests may pass a fake one.
    """

    def __init__(
        self,
        run: TxRunner,
        namespace: str,
        *,
        clock: Callable[[], float] = time.time,
        read: TxRunner | None = None,
        query: Callable[[str, Any], Awaitable[list[tuple[Any, ...]]]] | None = None,
    ) -> None:
        self._run_tx = run
        # One read statement on the event loop (the workflow store's `_query`): the hot
        # queries (a submission, a session's unsettled lanes) use it when their rows
        # decode alone (no attachment chunks to read, nothing malformed to settle).
        self._query_rows = query
        # Queries take no lock, and under READ COMMITTED each statement reads its own
        # snapshot inside a transaction too: with `read` (autocommit) they spare the
        # BEGIN and COMMIT round trips. A malformed row settled while decoding is one
        # statement, atomic alone.
        self._run_query = run if read is None else read
        self._namespace = namespace
        self._clock = clock
        super().__init__(write=self._write, read=self._query)

    def _write(self, fn: Callable[[_Tx], T]) -> Awaitable[T]:
        ns, clock = self._namespace, self._clock
        return self._run_tx(lambda conn: fn(_Tx(conn, ns, clock, locking=True)))

    def _query(self, fn: Callable[[_Tx], T]) -> Awaitable[T]:
        ns, clock = self._namespace, self._clock
        return self._run_query(lambda conn: fn(_Tx(conn, ns, clock, locking=False)))

    # Special cases of the shared methods (see LedgerStore for the rest).
    async def get_submission(self, submission_id: str) -> Submission | None:
        if self._query_rows is not None:
            found = await self._query_rows(_SELECT_ONE, (submission_id,))
            decoded = _decode_alone(found, self._clock())
            if decoded is not None:
                return decoded[0] if decoded else None
        return await super().get_submission(submission_id)

    async def list_unsettled_submissions(self, session_keys: Sequence[str]) -> list[Submission]:
        keys = sorted(set(session_keys))
        if self._query_rows is not None and keys:
            # Every lane in one statement (the rules read them one by one).
            found = await self._query_rows(_SELECT_UNSETTLED, (keys,))
            decoded = _decode_alone(found, self._clock())
            if decoded is not None:
                kept = [sub for sub in decoded if sub.status in _ledger.UNSETTLED]
                return sorted(kept, key=lambda sub: sub.sequence)
        return await super().list_unsettled_submissions(session_keys)

    async def has_unsettled_submissions(self) -> bool:
        def look(tx: _Tx) -> bool:
            row = tx.conn.execute(
                "SELECT 1 FROM tether_agent_submissions WHERE status = ANY(%s) LIMIT 1",
                (sorted(_ledger.UNSETTLED),),
            ).fetchone()
            # A hit may be malformed (and settle on decode): confirm through the rules.
            return row is not None and bool(tx.select(statuses=_ledger.UNSETTLED))

        return await self._query(look)

    async def renew_leases(self, owner_id: str, submission_ids: Sequence[str]) -> None:
        ids = sorted(set(submission_ids))

        def renew(tx: _Tx) -> None:
            # Lock every session involved up front, in sorted order (see the module doc).
            keys = tx.conn.execute(
                "SELECT DISTINCT session_key FROM tether_agent_submissions "
                "WHERE submission_id = ANY(%s)",
                (ids,),
            ).fetchall()
            tx.lock_sessions(str(k[0]) for k in keys)
            _ledger.renew_leases(tx, owner_id, ids)

        if ids:
            await self._write(renew)
