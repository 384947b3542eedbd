"""SQLite tables of the agent persistence stores (submissions, conversations, attachments).

Each entry is (version, name, statements); versions interleave with the workflow
migrations in `_workflow_schema` and are applied in order by `_schema.migrate`.

Large values are split into chunk rows so no single cell grows past a comfortable
size: submission attachments in 256 KiB pieces, conversation batches and fold
checkpoints in 1 MiB pieces, attachments in 512 KiB pieces. A value's header row
carries its size and SHA-256, so a reassembled value is verified before use.
"""

from __future__ import annotations

from .._budget_sql import budget_tables, budget_usage_columns

_V2 = (
    """CREATE TABLE IF NOT EXISTS tether_agent_submissions (
        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
        submission_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        agent_name TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        session_key TEXT NOT NULL,
        payload BLOB NOT NULL,
        attachments TEXT NOT NULL,
        status TEXT NOT NULL,
        accepted_at REAL NOT NULL,
        canonical_ready_at REAL,
        attempt_id TEXT,
        owner_id TEXT,
        lease_expires_at REAL NOT NULL DEFAULT 0,
        started_at REAL,
        attempt_count INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL DEFAULT 10,
        timeout_at REAL NOT NULL DEFAULT 0,
        input_applied_at REAL,
        abort_requested_at REAL,
        joined_into TEXT,
        settled_at REAL,
        outcome TEXT,
        error TEXT,
        settlement_record_id TEXT,
        settlement_record BLOB
    )""",
    """CREATE INDEX IF NOT EXISTS tether_agent_submissions_by_status
        ON tether_agent_submissions (status, sequence)""",
    """CREATE INDEX IF NOT EXISTS tether_agent_submissions_by_session
        ON tether_agent_submissions (session_key, status, sequence)""",
    """CREATE INDEX IF NOT EXISTS tether_agent_submissions_by_host
        ON tether_agent_submissions (joined_into, sequence) WHERE joined_into IS NOT NULL""",
    """CREATE TABLE IF NOT EXISTS tether_agent_submission_chunks (
        submission_id TEXT NOT NULL,
        item_index INTEGER NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (submission_id, item_index, chunk_index)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_streams (
        path TEXT PRIMARY KEY,
        agent_name TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        incarnation TEXT NOT NULL,
        head INTEGER NOT NULL DEFAULT 0,
        producer_id TEXT,
        producer_epoch INTEGER NOT NULL DEFAULT 0,
        next_producer_sequence INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_batches (
        path TEXT NOT NULL,
        seq INTEGER NOT NULL,
        producer_id TEXT NOT NULL,
        producer_epoch INTEGER NOT NULL,
        producer_sequence INTEGER NOT NULL,
        submission_id TEXT,
        attempt_id TEXT,
        record_count INTEGER NOT NULL,
        byte_size INTEGER NOT NULL,
        digest TEXT NOT NULL,
        chunk_count INTEGER NOT NULL,
        data BLOB,
        PRIMARY KEY (path, seq),
        UNIQUE (path, producer_id, producer_epoch, producer_sequence)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_batch_chunks (
        path TEXT NOT NULL,
        seq INTEGER NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (path, seq, chunk_index)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_checkpoints (
        path TEXT PRIMARY KEY,
        head_offset TEXT NOT NULL,
        incarnation TEXT NOT NULL,
        format_version INTEGER NOT NULL,
        byte_size INTEGER NOT NULL,
        digest TEXT NOT NULL,
        chunk_count INTEGER NOT NULL
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_checkpoint_chunks (
        path TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (path, chunk_index)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_attachments (
        stream_path TEXT NOT NULL,
        attachment_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        digest TEXT NOT NULL,
        filename TEXT,
        chunk_count INTEGER NOT NULL,
        PRIMARY KEY (stream_path, attachment_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_attachment_chunks (
        stream_path TEXT NOT NULL,
        attachment_id TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (stream_path, attachment_id, chunk_index)
    ) WITHOUT ROWID""",
)

CREDENTIALS_TABLE = """CREATE TABLE IF NOT EXISTS tether_credentials (
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    data BLOB NOT NULL,
    version INTEGER NOT NULL,
    expires_at REAL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (owner, name)
) WITHOUT ROWID"""


AGENT_MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (2, "agent persistence", _V2),
    # A submission whose content retention deleted stays as a receipt: a retried
    # admission of its id is answered from it, never admitted again.
    (
        18,
        "retained receipts of submissions",
        ("ALTER TABLE tether_agent_submissions ADD COLUMN redacted_at REAL",),
    ),
    # Tools' OAuth tokens and pending authorizations (`CredentialStore`).
    (21, "credentials", (CREDENTIALS_TABLE,)),
    # Token and cost budgets per scope, and the reservations of model calls.
    (22, "budgets", budget_tables("REAL", "INTEGER")),
    # A settled call's usage on its reservation, and a session's settled calls found.
    (25, "usage of settled calls", budget_usage_columns("REAL", postgres=False)),
)
