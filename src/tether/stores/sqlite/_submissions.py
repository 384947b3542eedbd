"""The submission ledger on SQLite.

Every transition is one `SqliteDatabase.write`: the `_ledger` rule runs inside a
`BEGIN IMMEDIATE` transaction, so it is atomic across threads and processes. A query
is a read, unless it finds a row that fails validation: such a row is settled with an
error (it must never run), and that settlement is a write, so the query is then run
again as a write (`_query`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .. import _ledger
from .. import _ledger_rows as ledger_rows
from .._agent_records import (
    Submission,
    SubmissionAttachment,
    SubmissionStatus,
)
from .._ledger_store import LedgerStore
from ._db import SqliteDatabase

__all__ = ["SqliteSubmissionStore"]


T = TypeVar("T")

_SETTLE_MALFORMED = ledger_rows.settle_malformed_statement("?")
_INSERT = ledger_rows.insert_statement("?")
_INSERT_CHUNK = ledger_rows.insert_chunk_statement("?")
_UPDATE = ledger_rows.update_statement("?")
_SELECT_CHUNKS = ledger_rows.select_chunks_statement("?")
_REDACT, _REDACT_CHUNKS = ledger_rows.redact_statements("?")
#: Lanes one statement asks for (well under SQLite's limit of bound parameters).
_LANES_PER_STATEMENT = 500


class _NeedsWrite(Exception):
    """A query run as a read had to write (`_Tx(read_only=True)`): run it as a write."""


class _Tx:
    """`LedgerTxn` over one SQLite transaction (a write's, or a query's read)."""

    def __init__(
        self, conn: sqlite3.Connection, clock: Callable[[], float], *, read_only: bool = False
    ) -> None:
        self.conn = conn
        self._now = clock()
        self._read_only = read_only
        #: Sequences of the damaged rows this transaction settled (`LedgerTxn`).
        self.settled_on_read: set[int] = set()

    def _writing(self) -> None:
        if self._read_only:
            raise _NeedsWrite

    def now(self) -> float:
        return self._now

    def _load_attachments(self, submission_id: str, meta: Any) -> tuple[SubmissionAttachment, ...]:
        return ledger_rows.attachments_from(
            meta, lambda: self.conn.execute(_SELECT_CHUNKS, (submission_id,)).fetchall()
        )

    def _decode(self, row: sqlite3.Row | tuple[Any, ...]) -> Submission:
        return ledger_rows.decode_or_settle(
            row,
            self._load_attachments,
            self._now,
            self._settle_malformed,
        )

    def _settle_malformed(self, values: Any) -> None:
        self._writing()
        self.conn.execute(_SETTLE_MALFORMED, values)
        self.settled_on_read.add(int(values[-1]))

    def get(self, submission_id: str) -> Submission | None:
        row = self.conn.execute(
            f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions WHERE submission_id = ?",
            (submission_id,),
        ).fetchone()
        return None if row is None else self._decode(row)

    def select(
        self,
        *,
        statuses: frozenset[SubmissionStatus],
        session_key: str | None = None,
        joined_into: str | None = None,
    ) -> list[Submission]:
        wanted = sorted(statuses)
        sql = (
            f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions "
            f"WHERE status IN ({', '.join('?' * len(wanted))})"
        )
        params: list[Any] = list(wanted)
        if session_key is not None:
            sql += " AND session_key = ?"
            params.append(session_key)
        if joined_into is not None:
            sql += " AND joined_into = ?"
            params.append(joined_into)
        rows = self.conn.execute(sql + " ORDER BY sequence", params).fetchall()
        decoded = [self._decode(row) for row in rows]
        # A malformed row is settled while decoding, so it drops out of the selection.
        return [s for s in decoded if s.status in statuses]

    def select_lanes(
        self, session_keys: Sequence[str], statuses: frozenset[SubmissionStatus]
    ) -> list[Submission]:
        """`select` of several lanes at once: one statement per `_LANES_PER_STATEMENT`."""
        wanted = sorted(statuses)
        found: list[Submission] = []
        for at in range(0, len(session_keys), _LANES_PER_STATEMENT):
            keys = session_keys[at : at + _LANES_PER_STATEMENT]
            rows = self.conn.execute(
                f"SELECT {ledger_rows.COLUMNS} FROM tether_agent_submissions "
                f"WHERE session_key IN ({', '.join('?' * len(keys))}) "
                f"AND status IN ({', '.join('?' * len(wanted))})",
                [*keys, *wanted],
            ).fetchall()
            found += [self._decode(row) for row in rows]
        # A malformed row is settled while decoding, so it drops out of the selection.
        return sorted((s for s in found if s.status in statuses), key=lambda s: s.sequence)

    def insert(self, submission: Submission) -> Submission:
        self._writing()
        cursor = self.conn.execute(_INSERT, ledger_rows.insert_values(submission))
        for chunk in ledger_rows.chunk_rows(submission):
            self.conn.execute(_INSERT_CHUNK, chunk)
        sequence = cursor.lastrowid
        assert sequence is not None
        return _ledger.replace_row(submission, sequence=sequence)

    def update(self, s: Submission) -> None:
        self._writing()
        self.conn.execute(_UPDATE, ledger_rows.update_values(s))

    def redact(self, s: Submission) -> None:
        self._writing()
        row, chunks = ledger_rows.redact_values(s)
        self.conn.execute(_REDACT, row)
        self.conn.execute(_REDACT_CHUNKS, chunks)


class SqliteSubmissionStore(LedgerStore):
    """A `SubmissionStore` in a SQLite file, safe for many processes on one file.

    Args:
        db: A started `SqliteDatabase` whose schema is migrated.
        clock: Returns Unix seconds; tests may pass a fake one.
    """

    def __init__(self, db: SqliteDatabase, *, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self._clock = clock
        super().__init__(write=self._run, read=self._query)

    async def list_unsettled_submissions(self, session_keys: Sequence[str]) -> list[Submission]:
        # Every lane in one statement (the rules read them one by one), by the index
        # on (session_key, status, sequence).
        keys = sorted(set(session_keys))
        if not keys:
            return []
        return await self._query(lambda tx: tx.select_lanes(keys, _ledger.UNSETTLED))

    async def _run(self, fn: Callable[[_Tx], T]) -> T:
        clock = self._clock
        return await self._db.write(lambda conn: fn(_Tx(conn, clock)))

    async def _query(self, fn: Callable[[_Tx], T]) -> T:
        clock = self._clock
        try:
            return await self._db.read(lambda conn: fn(_Tx(conn, clock, read_only=True)))
        except _NeedsWrite:
            return await self._run(fn)


def lookup_submission(conn: sqlite3.Connection, submission_id: str) -> Submission | None:
    """Read one submission inside another store's transaction (conversation appends)."""
    return _Tx(conn, time.time).get(submission_id)
