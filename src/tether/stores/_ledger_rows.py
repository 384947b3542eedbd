"""Rows of the submission ledger table and their mapping to `Submission` records.

Shared by the SQL backends, which differ in placeholders and locking, not in what a
row holds. A row that does not decode must never run: `malformed_settlement` gives the
settled view to hand back, after the statement that settles it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any, get_args

import orjson

from ._agent_records import (
    SettledRecord,
    Submission,
    SubmissionAttachment,
    SubmissionKind,
    SubmissionOutcome,
    SubmissionStatus,
    canonical_json,
)
from ._shared import SUBMISSION_CHUNK_BYTES, split_chunks

__all__ = [
    "COLUMNS",
    "KINDS",
    "MalformedRowError",
    "attachments_from",
    "choice",
    "chunk_rows",
    "decode_or_settle",
    "encode_record",
    "insert_chunk_statement",
    "insert_statement",
    "insert_values",
    "redact_statements",
    "redact_values",
    "select_chunks_statement",
    "settle_malformed_statement",
    "update_statement",
    "update_values",
]

#: The ledger table's columns in the order `submission_from_row` reads them.
COLUMNS = (
    "sequence, submission_id, kind, agent_name, instance_id, session_key, payload, "
    "attachments, status, accepted_at, canonical_ready_at, attempt_id, owner_id, "
    "lease_expires_at, started_at, attempt_count, max_attempts, timeout_at, "
    "input_applied_at, abort_requested_at, joined_into, settled_at, outcome, error, "
    "settlement_record_id, settlement_record, redacted_at"
)
KINDS = frozenset(get_args(SubmissionKind))
_STATUSES = frozenset(get_args(SubmissionStatus))
_OUTCOMES = frozenset(get_args(SubmissionOutcome))


class MalformedRowError(Exception):
    """A stored row does not decode into a valid submission."""


# What decoding a damaged row can raise; such a row is settled, never run.
_DECODE_ERRORS = (MalformedRowError, orjson.JSONDecodeError, KeyError, TypeError)


def choice(value: Any, allowed: frozenset[str], column: str) -> Any:
    """`value` if it is one of `allowed`, else `MalformedRowError` naming `column`."""
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
        outcome=choice(raw.get("outcome"), _OUTCOMES, "settlement outcome"),
        error=raw.get("error"),
        data=raw.get("data"),
    )


def encode_record(record: SettledRecord | None) -> bytes | None:
    """The stored form of a settlement record."""
    if record is None:
        return None
    return canonical_json({"outcome": record.outcome, "error": record.error, "data": record.data})


def _submission(
    row: Any, attachments: Callable[[str, Any], tuple[SubmissionAttachment, ...]]
) -> Submission:
    """The `Submission` a row selected with `COLUMNS` holds.

    `attachments` loads the attachments column. Raises one of `_DECODE_ERRORS` for a
    damaged row.
    """
    return Submission(
        sequence=row[0],
        submission_id=row[1],
        kind=choice(row[2], KINDS, "kind"),
        agent_name=row[3],
        instance_id=row[4],
        session_key=row[5],
        payload=orjson.loads(row[6]),
        attachments=attachments(row[1], row[7]),
        status=choice(row[8], _STATUSES, "status"),
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
        outcome=None if row[22] is None else choice(row[22], _OUTCOMES, "outcome"),
        error=row[23],
        settlement_record_id=row[24],
        settlement_record=_decode_record(row[25]),
        redacted_at=row[26],
    )


def settle_malformed_statement(mark: str) -> str:
    """The update settling a damaged row as failed (settled_at, error, sequence)."""
    return (
        f"UPDATE tether_agent_submissions SET status = 'settled', settled_at = {mark}, "
        f"outcome = 'failed', error = {mark}, attempt_id = NULL, owner_id = NULL, "
        f"lease_expires_at = 0 WHERE sequence = {mark}"
    )


def _malformed(
    row: Any, exc: BaseException, now: float
) -> tuple[Submission, tuple[Any, ...] | None]:
    """The settled view of a damaged row, and the values settling it (None if it is).

    The view keeps the row's identity columns and reports the row as failed.
    """
    # The error's kind only: its text may quote the stored bytes, which an encrypted
    # store must not write in clear beside the row.
    message = f"malformed stored submission row: {type(exc).__name__}"
    settled = row[8] == "settled"
    settled_at = row[21] if settled and row[21] is not None else now
    error = row[23] if settled and row[23] is not None else message
    values = None if settled and row[22] in _OUTCOMES else (settled_at, error, row[0])
    view = Submission(
        sequence=row[0],
        submission_id=str(row[1]),
        kind="direct" if row[2] not in KINDS else row[2],
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
    return view, values


def decode_or_settle(
    row: Any,
    attachments: Callable[[str, Any], tuple[SubmissionAttachment, ...]],
    now: float,
    settle: Callable[[tuple[Any, ...]], object],
) -> Submission:
    """The `Submission` of a row; a damaged row is settled as failed, never run.

    `settle` runs `settle_malformed_statement` with the values it is given; it is not
    called for a row already settled with a valid outcome.
    """
    try:
        return _submission(row, attachments)
    except _DECODE_ERRORS as exc:
        view, values = _malformed(row, exc, now)
        if values is not None:
            settle(values)
        return view


def insert_statement(mark: str) -> str:
    """The insert of a new submission (values: `insert_values`)."""
    marks = ", ".join([mark] * 13)
    return (
        "INSERT INTO tether_agent_submissions (submission_id, kind, agent_name, "
        "instance_id, session_key, payload, attachments, status, accepted_at, "
        f"canonical_ready_at, attempt_count, max_attempts, timeout_at) VALUES ({marks})"
    )


def insert_values(s: Submission) -> tuple[Any, ...]:
    """The values of `insert_statement`; attachments are described, their bytes chunked."""
    meta = [
        {
            "item_id": item.item_id,
            "mime_type": item.mime_type,
            "size": len(item.data),
            "digest": hashlib.sha256(item.data).hexdigest(),
        }
        for item in s.attachments
    ]
    return (
        s.submission_id, s.kind, s.agent_name, s.instance_id, s.session_key,
        canonical_json(s.payload), orjson.dumps(meta).decode(), s.status, s.accepted_at,
        s.canonical_ready_at, s.attempt_count, s.max_attempts, s.timeout_at,
    )  # fmt: skip


def chunk_rows(s: Submission) -> list[tuple[str, int, int, bytes]]:
    """(submission_id, item_index, chunk_index, data) rows of its attachments' bytes."""
    return [
        (s.submission_id, item_index, chunk_index, piece)
        for item_index, item in enumerate(s.attachments)
        for chunk_index, piece in split_chunks(item.data, SUBMISSION_CHUNK_BYTES)
    ]


def insert_chunk_statement(mark: str) -> str:
    """The insert of one `chunk_rows` row."""
    return (
        "INSERT INTO tether_agent_submission_chunks "
        f"(submission_id, item_index, chunk_index, data) VALUES ({mark}, {mark}, {mark}, {mark})"
    )


def update_statement(mark: str) -> str:
    """The update of a submission's mutable columns (values: `update_values`)."""
    columns = (
        "status", "canonical_ready_at", "attempt_id", "owner_id", "lease_expires_at",
        "started_at", "attempt_count", "max_attempts", "timeout_at", "input_applied_at",
        "abort_requested_at", "joined_into", "settled_at", "outcome", "error",
        "settlement_record_id", "settlement_record",
    )  # fmt: skip
    sets = ", ".join(f"{c} = {mark}" for c in columns)
    return f"UPDATE tether_agent_submissions SET {sets} WHERE submission_id = {mark}"


def update_values(s: Submission) -> tuple[Any, ...]:
    """The values of `update_statement`."""
    return (
        s.status, s.canonical_ready_at, s.attempt_id, s.owner_id, s.lease_expires_at,
        s.started_at, s.attempt_count, s.max_attempts, s.timeout_at, s.input_applied_at,
        s.abort_requested_at, s.joined_into, s.settled_at, s.outcome, s.error,
        s.settlement_record_id, encode_record(s.settlement_record), s.submission_id,
    )  # fmt: skip


def select_chunks_statement(mark: str) -> str:
    """The chunk rows (item_index, data) of a submission, in order."""
    return (
        "SELECT item_index, data FROM tether_agent_submission_chunks "
        f"WHERE submission_id = {mark} ORDER BY item_index, chunk_index"
    )


def attachments_from(
    meta: Any, chunks: Callable[[], Iterable[tuple[int, Any]]]
) -> tuple[SubmissionAttachment, ...]:
    """The attachments a row's `attachments` column describes, checked by digest.

    `chunks` reads the rows of `select_chunks_statement` (only when there are any).
    """
    items = orjson.loads(meta)
    if not isinstance(items, list):
        raise MalformedRowError("attachments is not a list")
    if not items:
        return ()
    pieces: dict[int, list[bytes]] = {}
    for item_index, data in chunks():
        pieces.setdefault(item_index, []).append(bytes(data))
    result = []
    for index, item in enumerate(items):
        data = b"".join(pieces.get(index, ()))
        if len(data) != item["size"] or hashlib.sha256(data).hexdigest() != item["digest"]:
            raise MalformedRowError(f"attachment {item['item_id']!r} fails its digest")
        result.append(
            SubmissionAttachment(item_id=item["item_id"], mime_type=item["mime_type"], data=data)
        )
    return tuple(result)


def redact_statements(mark: str) -> tuple[str, str]:
    """The statements deleting a submission's content: (row update, chunk delete)."""
    return (
        f"UPDATE tether_agent_submissions SET payload = {mark}, attachments = '[]', "
        f"settlement_record = {mark}, redacted_at = {mark} WHERE submission_id = {mark}",
        f"DELETE FROM tether_agent_submission_chunks WHERE submission_id = {mark}",
    )


def redact_values(s: Submission) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The values of `redact_statements` for `s` as redacted (its `redacted_at` set).

    The settlement record keeps outcome and error.
    """
    record = s.settlement_record
    kept = None if record is None else SettledRecord(outcome=record.outcome, error=record.error)
    row = (canonical_json(None), encode_record(kept), s.redacted_at, s.submission_id)
    return row, (s.submission_id,)
