"""Postgres tables of the agent persistence stores (submissions, conversations, attachments).

The layout mirrors SQLite's (`stores.sqlite._agent_schema`) with Postgres types:
BYTEA for bytes, DOUBLE PRECISION for Unix seconds, BIGINT for sequences. Large
values are split into chunk rows of the same sizes as on SQLite, and a value's
header row carries its size and SHA-256 so a reassembled value is verified.
"""

from __future__ import annotations

AGENT_STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS tether_agent_submissions (
        sequence BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        submission_id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        agent_name TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        session_key TEXT NOT NULL,
        payload BYTEA NOT NULL,
        attachments TEXT NOT NULL,
        status TEXT NOT NULL,
        accepted_at DOUBLE PRECISION NOT NULL,
        canonical_ready_at DOUBLE PRECISION,
        attempt_id TEXT,
        owner_id TEXT,
        lease_expires_at DOUBLE PRECISION NOT NULL DEFAULT 0,
        started_at DOUBLE PRECISION,
        attempt_count INTEGER NOT NULL DEFAULT 0,
        max_attempts INTEGER NOT NULL DEFAULT 10,
        timeout_at DOUBLE PRECISION NOT NULL DEFAULT 0,
        input_applied_at DOUBLE PRECISION,
        abort_requested_at DOUBLE PRECISION,
        joined_into TEXT,
        settled_at DOUBLE PRECISION,
        outcome TEXT,
        error TEXT,
        settlement_record_id TEXT,
        settlement_record BYTEA
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
        data BYTEA NOT NULL,
        PRIMARY KEY (submission_id, item_index, chunk_index)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_streams (
        path TEXT PRIMARY KEY,
        agent_name TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        incarnation TEXT NOT NULL,
        head BIGINT NOT NULL DEFAULT 0,
        producer_id TEXT,
        producer_epoch BIGINT NOT NULL DEFAULT 0,
        next_producer_sequence BIGINT NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_batches (
        path TEXT NOT NULL,
        seq BIGINT NOT NULL,
        producer_id TEXT NOT NULL,
        producer_epoch BIGINT NOT NULL,
        producer_sequence BIGINT NOT NULL,
        submission_id TEXT,
        attempt_id TEXT,
        record_count INTEGER NOT NULL,
        byte_size BIGINT NOT NULL,
        digest TEXT NOT NULL,
        chunk_count INTEGER NOT NULL,
        data BYTEA,
        PRIMARY KEY (path, seq),
        UNIQUE (path, producer_id, producer_epoch, producer_sequence)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_batch_chunks (
        path TEXT NOT NULL,
        seq BIGINT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (path, seq, chunk_index)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_checkpoints (
        path TEXT PRIMARY KEY,
        head_offset TEXT NOT NULL,
        incarnation TEXT NOT NULL,
        format_version INTEGER NOT NULL,
        byte_size BIGINT NOT NULL,
        digest TEXT NOT NULL,
        chunk_count INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS tether_conversation_checkpoint_chunks (
        path TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (path, chunk_index)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_attachments (
        stream_path TEXT NOT NULL,
        attachment_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        byte_size BIGINT NOT NULL,
        digest TEXT NOT NULL,
        filename TEXT,
        chunk_count INTEGER NOT NULL,
        PRIMARY KEY (stream_path, attachment_id)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_attachment_chunks (
        stream_path TEXT NOT NULL,
        attachment_id TEXT NOT NULL,
        chunk_index INTEGER NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (stream_path, attachment_id, chunk_index)
    )""",
)
