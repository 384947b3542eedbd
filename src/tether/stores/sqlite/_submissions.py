"""The submission ledger on SQLite.

Every method is one `SqliteDatabase.write`: the `_ledger` transition runs inside a
`BEGIN IMMEDIATE` transaction, so it is atomic across threads and processes. Queries
go through the writer too, because reading a row that fails validation settles it
with an error (it must never run), and that settlement is a write.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar, get_args

import orjson

from .. import _ledger
from .._agent_records import (
    SettledRecord,
    Submission,
    SubmissionAttachment,
    SubmissionKind,
    SubmissionOutcome,
    SubmissionStatus,
    canonical_json,
)
from .._ledger_store import LedgerStore
from ._db import SqliteDatabase

__all__ = ["SUBMISSION_CHUNK_BYTES", "SqliteSubmissionStore"]

#: Submission attachments are stored in pieces of this size (256 KiB).
SUBMISSION_CHUNK_BYTES = 256 * 1024

T = TypeVar("T")

_COLUMNS = (
    "sequence, submission_id, kind, agent_name, instance_id, session_key, payload, "
    "attachments, status, accepted_at, canonical_ready_at, attempt_id, owner_id, "
    "lease_expires_at, started_at, attempt_count, max_attempts, timeout_at, "
    "input_applied_at, abort_requested_at, joined_into, settled_at, outcome, error, "
    "settlement_record_id, settlement_record"
)
_KINDS = frozenset(get_args(SubmissionKind))
_STATUSES = frozenset(get_args(SubmissionStatus))
_OUTCOMES = frozenset(get_args(SubmissionOutcome))


class MalformedRowError(Exception):
    """A stored row does not decode into a valid submission."""


def _choice(value: Any, allowed: frozenset[str], column: str) -> Any:
    if value not in allowed:
        raise MalformedRowError(f"{column} is {value!r}")
    return value


def _decode_record(blob: Any) -> SettledRecord | None:
    if blob is None:
        return None
    raw = orjson.loads(blob)
    if not isinstance(raw, dict):
        raise MalformedRowError("settlement_record is not an object")
    return SettledRecord(
        outcome=_choice(raw.get("outcome"), _OUTCOMES, "settlement outcome"),
        error=raw.get("error"),
        data=raw.get("data"),
    )


def _encode_record(record: SettledRecord | None) -> bytes | None:
    if record is None:
        return None
    return canonical_json({"outcome": record.outcome, "error": record.error, "data": record.data})


class _Tx:
    """`LedgerTx` over one SQLite write transaction."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], float]) -> None:
        self.conn = conn
        self._now = clock()

    def now(self) -> float:
        return self._now

    def _load_attachments(self, submission_id: str, meta: Any) -> tuple[SubmissionAttachment, ...]:
        items = orjson.loads(meta)
        if not isinstance(items, list):
            raise MalformedRowError("attachments is not a list")
        if not items:
            return ()
        pieces: dict[int, list[bytes]] = {}
        for item_index, data in self.conn.execute(
            "SELECT item_index, data FROM tether_agent_submission_chunks "
            "WHERE submission_id = ? ORDER BY item_index, chunk_index",
            (submission_id,),
        ):
            pieces.setdefault(item_index, []).append(bytes(data))
        result = []
        for index, item in enumerate(items):
            data = b"".join(pieces.get(index, ()))
            if len(data) != item["size"] or hashlib.sha256(data).hexdigest() != item["digest"]:
                raise MalformedRowError(f"attachment {item['item_id']!r} fails its digest")
            result.append(
                SubmissionAttachment(
                    item_id=item["item_id"], mime_type=item["mime_type"], data=data
                )
            )
        return tuple(result)

    def _decode(self, row: sqlite3.Row | tuple[Any, ...]) -> Submission:
        try:
            return Submission(
                sequence=row[0],
                submission_id=row[1],
                kind=_choice(row[2], _KINDS, "kind"),
                agent_name=row[3],
                instance_id=row[4],
                session_key=row[5],
                payload=orjson.loads(row[6]),
                attachments=self._load_attachments(row[1], row[7]),
                status=_choice(row[8], _STATUSES, "status"),
                accepted_at=row[9],
                canonical_ready_at=row[10],
                attempt_id=row[11],
                owner_id=row[12],
                lease_expires_at=row[13],
                started_at=row[14],
                attempt_count=row[15],
                max_attempts=row[16],
                timeout_at=row[17],
                input_applied_at=row[18],
                abort_requested_at=row[19],
                joined_into=row[20],
                settled_at=row[21],
                outcome=None if row[22] is None else _choice(row[22], _OUTCOMES, "outcome"),
                error=row[23],
                settlement_record_id=row[24],
                settlement_record=_decode_record(row[25]),
            )
        except (MalformedRowError, orjson.JSONDecodeError, KeyError, TypeError) as exc:
            return self._settle_malformed(row, exc)

    def _settle_malformed(self, row: Any, exc: BaseException) -> Submission:
        # A row that cannot be decoded must never run: settle it as failed, keeping
        # whatever identity columns are readable, and hand back a settled view.
        message = f"malformed stored submission row: {type(exc).__name__}: {exc}"
        now = self._now
        settled_at = row[21] if row[8] == "settled" and row[21] is not None else now
        error = row[23] if row[8] == "settled" and row[23] is not None else message
        if row[8] != "settled" or row[22] not in _OUTCOMES:
            self.conn.execute(
                "UPDATE tether_agent_submissions SET status = 'settled', settled_at = ?, "
                "outcome = 'failed', error = ?, attempt_id = NULL, owner_id = NULL, "
                "lease_expires_at = 0 WHERE sequence = ?",
                (settled_at, error, row[0]),
            )
        return Submission(
            sequence=row[0],
            submission_id=str(row[1]),
            kind="direct" if row[2] not in _KINDS else row[2],
            agent_name=str(row[3]),
            instance_id=str(row[4]),
            session_key=str(row[5]),
            payload=None,
            attachments=(),
            status="settled",
            accepted_at=float(row[9] or 0),
            settled_at=settled_at,
            outcome="failed",
            error=error,
        )

    def get(self, submission_id: str) -> Submission | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM tether_agent_submissions WHERE submission_id = ?",
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
            f"SELECT {_COLUMNS} FROM tether_agent_submissions "
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

    def insert(self, submission: Submission) -> Submission:
        meta = []
        for item in submission.attachments:
            meta.append(
                {
                    "item_id": item.item_id,
                    "mime_type": item.mime_type,
                    "size": len(item.data),
                    "digest": hashlib.sha256(item.data).hexdigest(),
                }
            )
        cursor = self.conn.execute(
            "INSERT INTO tether_agent_submissions (submission_id, kind, agent_name, "
            "instance_id, session_key, payload, attachments, status, accepted_at, "
            "canonical_ready_at, attempt_count, max_attempts, timeout_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                submission.submission_id,
                submission.kind,
                submission.agent_name,
                submission.instance_id,
                submission.session_key,
                canonical_json(submission.payload),
                orjson.dumps(meta).decode(),
                submission.status,
                submission.accepted_at,
                submission.canonical_ready_at,
                submission.attempt_count,
                submission.max_attempts,
                submission.timeout_at,
            ),
        )
        for item_index, item in enumerate(submission.attachments):
            for chunk_index, start in enumerate(
                range(0, max(len(item.data), 1), SUBMISSION_CHUNK_BYTES)
            ):
                self.conn.execute(
                    "INSERT INTO tether_agent_submission_chunks "
                    "(submission_id, item_index, chunk_index, data) VALUES (?, ?, ?, ?)",
                    (
                        submission.submission_id,
                        item_index,
                        chunk_index,
                        item.data[start : start + SUBMISSION_CHUNK_BYTES],
                    ),
                )
        sequence = cursor.lastrowid
        assert sequence is not None
        return _ledger.replace_row(submission, sequence=sequence)

    def update(self, s: Submission) -> None:
        self.conn.execute(
            "UPDATE tether_agent_submissions SET status = ?, canonical_ready_at = ?, "
            "attempt_id = ?, owner_id = ?, lease_expires_at = ?, started_at = ?, "
            "attempt_count = ?, max_attempts = ?, timeout_at = ?, input_applied_at = ?, "
            "abort_requested_at = ?, joined_into = ?, settled_at = ?, outcome = ?, "
            "error = ?, settlement_record_id = ?, settlement_record = ? "
            "WHERE submission_id = ?",
            (
                s.status,
                s.canonical_ready_at,
                s.attempt_id,
                s.owner_id,
                s.lease_expires_at,
                s.started_at,
                s.attempt_count,
                s.max_attempts,
                s.timeout_at,
                s.input_applied_at,
                s.abort_requested_at,
                s.joined_into,
                s.settled_at,
                s.outcome,
                s.error,
                s.settlement_record_id,
                _encode_record(s.settlement_record),
                s.submission_id,
            ),
        )


class SqliteSubmissionStore(LedgerStore):
    """A `SubmissionStore` in a SQLite file, safe for many processes on one file.

    Args:
        db: A started `SqliteDatabase` whose schema is migrated.
        clock: Returns Unix seconds; tests may pass a fake one.
    """

    def __init__(self, db: SqliteDatabase, *, clock: Callable[[], float] = time.time) -> None:
        self._db = db
        self._clock = clock
        super().__init__(write=self._run)

    async def _run(self, fn: Callable[[_Tx], T]) -> T:
        clock = self._clock
        return await self._db.write(lambda conn: fn(_Tx(conn, clock)))


def lookup_submission(conn: sqlite3.Connection, submission_id: str) -> Submission | None:
    """Read one submission inside another store's transaction (conversation appends)."""
    return _Tx(conn, time.time).get(submission_id)
