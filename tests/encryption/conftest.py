"""After each test on an encrypted backend, every stored payload is checked to be sealed.

The `encrypted` fixture of these tests (the contract suites run through the encrypting
layer) reads, once the test is over, every row of every table of the store with plain
SQL over the real SQLite file or Postgres namespace, and checks each payload-bearing
column holds a sealed envelope (or nothing): a store method that wrote a payload in
clear fails the test that called it. Every text and binary column of the schema is
classified here, as a payload (with the shape its sealed value has) or as clear; a
column or table this file does not know fails too, so a new one is decided on.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
import psycopg
import pytest
from psycopg import sql

from tether.stores import Backend
from tether.stores._stored_rows_sql import UNPARSEABLE_PAYLOAD

MAGIC = b"TE1"
TEXT_PREFIX = "tenc1:"
SEALED_KEY = "$tether_sealed"
#: Attachment streams the encrypting layer writes through the inner store on purpose:
#: the keyring marker (a keyring id, no content). Large payloads go to
#: ``tether/blobs/...``, sealed themselves, and are checked like any attachment.
UNSEALED_STREAMS = {"tether/keyring"}

Check = Callable[[Any], str | None]  # None: sealed; else what is wrong


def _bytes(value: Any) -> bytes:
    return bytes(value) if isinstance(value, bytes | bytearray | memoryview) else value


def _json(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview | str):
        return orjson.loads(bytes(value) if not isinstance(value, str) else value)
    return value  # jsonb, decoded by the driver


def sealed_bytes(value: Any) -> str | None:
    data = _bytes(value)
    if isinstance(data, bytes) and data[:3] == MAGIC:
        return None
    return f"not an envelope: {data[:40]!r}"


def _sealed_text(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.startswith(TEXT_PREFIX))


def sealed_text(value: Any) -> str | None:
    return None if _sealed_text(value) else f"not sealed text: {str(value)[:40]!r}"


#: The error texts the ledger writes itself (see `_ledger`): they say the outcome, which
#: is stored in clear beside them, and nothing else.
LEDGER_TEXTS = re.compile(
    r"submission (was (failed|aborted) before it ran|[a-z_]+)"
    r"|malformed stored submission row: [A-Za-z]+"  # a damaged row, settled failed
)


def ledger_error(value: Any) -> str | None:
    if isinstance(value, str) and LEDGER_TEXTS.fullmatch(value):
        return None
    return sealed_text(value)


def sealed_json_value(value: Any) -> str | None:
    """A JSON document that is one sealed string (a submission's payload)."""
    decoded = _json(value)
    return None if _sealed_text(decoded) else f"not a sealed JSON value: {str(decoded)[:40]!r}"


def submission_payload(value: Any) -> str | None:
    # What the contract's damage case wrote over a payload itself (`StoredRowAccess`),
    # not anything tether stored: the case checks the damage is refused.
    if _bytes(value) == UNPARSEABLE_PAYLOAD:
        return None
    return sealed_json_value(value)


def _sealed_settlement(record: Any) -> bool:
    return (
        isinstance(record, dict)
        and _sealed_text(record.get("error"))
        and _sealed_text(record.get("data"))
    )


def settlement(value: Any) -> str | None:
    """A reserved settlement record: its error and data sealed."""
    decoded = _json(value)
    return None if _sealed_settlement(decoded) else f"not a sealed settlement: {decoded!r:.60}"


def batch(value: Any) -> str | None:
    """A conversation batch: one sealed record, or the reserved settlement's shape."""
    records = _json(value)
    if isinstance(records, list) and len(records) == 1:
        (record,) = records
        if isinstance(record, dict) and set(record) == {SEALED_KEY}:
            return None if _sealed_text(record[SEALED_KEY]) else "a sealed record is not sealed"
        if isinstance(record, dict) and record.get("type") == "submission_settled":
            return None if _sealed_settlement(record) else "a settlement record is in clear"
    return f"a batch in clear: {str(records)[:60]!r}"


def batch_start(value: Any) -> str | None:
    """The first piece of a batch kept in pieces: the start of one sealed record."""
    data = _bytes(value)
    start = orjson.dumps([{SEALED_KEY: TEXT_PREFIX}])[:-4]
    return None if data.startswith(start) else f"a batch piece in clear: {data[:40]!r}"


def clear(value: Any) -> str | None:
    return None


#: (table, column) -> how its value is sealed; the other listed columns are clear.
PAYLOADS: dict[str, dict[str, Check]] = {
    "tether_runs": {"input": sealed_bytes, "output": sealed_bytes, "error": sealed_bytes},
    "tether_steps": {"input": sealed_bytes, "output": sealed_bytes, "error": sealed_bytes},
    "tether_events": {"payload": sealed_bytes},
    "tether_stream_chunks": {"data": sealed_bytes},
    "tether_credentials": {"data": sealed_bytes},
    "tether_agent_submissions": {
        "payload": submission_payload,
        "error": ledger_error,
        "settlement_record": settlement,
    },
    "tether_agent_submission_chunks": {"data": sealed_bytes},
    "tether_attachments": {"filename": sealed_text},
    "tether_attachment_chunks": {"data": sealed_bytes},
    "tether_conversation_batches": {"data": batch},
    "tether_conversation_batch_chunks": {"data": batch_start},
    "tether_conversation_checkpoint_chunks": {"data": sealed_bytes},
}
#: Clear columns: ids, names, statuses, digests of ciphertexts, counters' keys.
CLEAR: dict[str, str] = {
    "tether_runs": (
        "run_id workflow_name status deployment engine_version queue parent_run_id "
        "lease_owner input_digest chain_id labels"
    ),
    "tether_steps": "run_id step_id name status",
    "tether_events": "run_id event_type correlation_id attrs",
    "tether_stream_chunks": "run_id name",
    "tether_streams": "run_id name",
    "tether_credentials": "owner name",
    # `attachments`: each item's id, mime type and size; its bytes are in the chunks.
    "tether_agent_submissions": (
        "submission_id kind agent_name instance_id session_key status attempt_id owner_id "
        "joined_into outcome settlement_record_id attachments"
    ),
    "tether_agent_submission_chunks": "submission_id",
    "tether_attachments": "stream_path attachment_id conversation_id mime_type digest",
    "tether_attachment_chunks": "stream_path attachment_id",
    "tether_conversation_batches": "path producer_id submission_id attempt_id digest",
    "tether_conversation_batch_chunks": "path",
    "tether_conversation_checkpoints": "path head_offset incarnation digest",
    "tether_conversation_checkpoint_chunks": "path",
    "tether_conversation_streams": "path agent_name instance_id incarnation producer_id",
    "tether_budgets": "scope on_exceeded",
    # `usage`: a settled call's model name and token counts (numbers, no content).
    "tether_budget_reservations": (
        "reservation_id call_key holder agent_name session_id scopes status refused_scope usage"
    ),
    "tether_flow_buckets": "key",
    "tether_flow_permits": "key holder",
    "tether_hooks": "hook_id run_id token chain_id",
    "tether_meta": "key value",
    # A queue message's payload is its run's id, never sealed (see `_encrypted_workflow`).
    "tether_queue": "message_id queue payload idempotency_key lease_owner",
    "tether_run_labels": "run_id key value",
    "tether_waits": "run_id wait_id",
    "tether_workers": "worker_id host deployment engine_version host_id",
}
_FIRST_PIECE = "chunk_index"
_NUMERIC = ("INT", "REAL", "DOUBLE", "NUMERIC", "BOOL", "TIMESTAMP", "SMALLINT", "BIGINT")

Table = tuple[list[str], list[str], list[tuple[Any, ...]]]  # columns, types, rows


def _sqlite_tables(path: str) -> dict[str, Table]:
    conn = sqlite3.connect(path)
    try:
        names = [
            n
            for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not n.startswith("sqlite_")
        ]
        out: dict[str, Table] = {}
        for name in names:
            info = conn.execute(f'PRAGMA table_info("{name}")').fetchall()
            rows = conn.execute(f'SELECT * FROM "{name}"').fetchall()
            out[name] = ([r[1] for r in info], [str(r[2]).upper() for r in info], rows)
        return out
    finally:
        conn.close()


def _postgres_tables(url: str, namespace: str) -> dict[str, Table]:
    with psycopg.connect(url, autocommit=True) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = %s ORDER BY table_name, ordinal_position",
            (namespace,),
        ).fetchall()
        kinds = dict(
            conn.execute(
                "SELECT table_name, table_type FROM information_schema.tables "
                "WHERE table_schema = %s",
                (namespace,),
            ).fetchall()
        )
        out: dict[str, Table] = {}
        for table, column, data_type in columns:
            if kinds.get(table) != "BASE TABLE":
                continue
            out.setdefault(table, ([], [], []))
            out[table][0].append(column)
            out[table][1].append(str(data_type).upper())
        for table, (names, _, rows) in out.items():
            query = sql.SQL("SELECT {} FROM {}").format(
                sql.SQL(", ").join(sql.Identifier(n) for n in names),
                sql.Identifier(namespace, table),
            )
            rows.extend(conn.execute(query).fetchall())
        return out


def unsealed(tables: dict[str, Table]) -> list[str]:
    """What is stored in clear where a payload belongs, and what is not classified."""
    problems: list[str] = []
    for table, (names, types, rows) in sorted(tables.items()):
        payloads = PAYLOADS.get(table, {})
        known = CLEAR.get(table)
        if known is None and not payloads:
            problems.append(f"table {table} is not classified (tests/encryption/conftest.py)")
            continue
        for name, kind in zip(names, types, strict=True):
            textual = not any(k in kind for k in _NUMERIC)
            if textual and name not in payloads and name not in (known or "").split():
                problems.append(f"column {table}.{name} is not classified")
        index = {n: i for i, n in enumerate(names)}
        for row in rows:
            if "stream_path" in index and row[index["stream_path"]] in UNSEALED_STREAMS:
                continue
            if _FIRST_PIECE in index and row[index[_FIRST_PIECE]] != 0:
                continue  # a later piece: the envelope's header is in the first
            for column, check in payloads.items():
                if column not in index:
                    continue  # not in this schema (a step's payloads live in its events)
                value = row[index[column]]
                if value is None:
                    continue
                wrong = check(value)
                if wrong is not None:
                    problems.append(f"{table}.{column}: {wrong}")
    return problems


@pytest.fixture
async def encrypted(encrypted: Backend, request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """The encrypted backend; once the test is over, every payload it stores is sealed."""
    yield encrypted
    inner: Any = getattr(encrypted, "inner", None)
    url = inner.url if inner is not None else ""
    if url.startswith("sqlite"):
        tables = _sqlite_tables(str(inner.path))
    elif url.startswith("postgres"):
        tables = _postgres_tables(request.getfixturevalue("tether_postgres_url"), inner.namespace)
    else:
        return  # the memory backend: no tables to read
    problems = unsealed(tables)
    assert not problems, "stored in clear or unclassified:\n  " + "\n  ".join(problems[:20])
