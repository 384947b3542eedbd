"""Postgres schema: the format-version stamp and the ordered list of migrations.

Everything lives in one Postgres schema (the backend's namespace), so several apps
can share a database. The rules are SQLite's (`stores.sqlite._schema`): the stamp is
read before anything else and refused when unknown or newer; a fresh namespace is
stamped before any other DDL; migrations apply in version order and
`schema_version` records the last one. `migrate()` holds a transaction-scoped
advisory lock, so concurrent migrators take turns and DDL is all-or-nothing.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

import psycopg
from psycopg import sql

from ...errors import ConfigurationError, FormatVersionError
from .._budget_sql import budget_tables, budget_usage_columns
from .._format_2 import LEANER_INDEXES, steps_without_payloads
from .._listings import CHAINS_INDEX
from .._prune_rows import PRUNABLE_INDEX
from .._rows import HOOKS_ACTIVE_INDEX
from .._shared import FORMAT_VERSION, LEGACY_FORMAT_STAMPS
from ._agent_schema import AGENT_STATEMENTS
from ._functions import SERVER_NOW, fast_commit_function, ring_function, step_write_function

__all__ = [
    "MIGRATIONS",
    "SERVER_NOW",
    "Migration",
    "check_namespace",
    "check_stamp",
    "delete_stamp",
    "migrate",
    "read_stamp",
    "require_migrated",
    "write_stamp",
]

_META = "tether_meta"
_NAMESPACE = re.compile(r"^[a-z_][a-z0-9_]{0,39}$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Migration:
    """One step of schema: applied in `version` order, exactly once per namespace."""

    version: int
    name: str
    statements: tuple[str, ...]


_V1 = (
    """CREATE TABLE IF NOT EXISTS tether_runs (
        run_id TEXT PRIMARY KEY,
        workflow_name TEXT NOT NULL,
        status TEXT NOT NULL,
        deployment TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        queue TEXT NOT NULL,
        input BYTEA,
        output BYTEA,
        error BYTEA,
        head INTEGER NOT NULL,
        parent_run_id TEXT,
        parent_slot INTEGER,
        lease_owner TEXT,
        lease_epoch BIGINT NOT NULL DEFAULT 0,
        lease_expires_at DOUBLE PRECISION NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        completed_at DOUBLE PRECISION
    )""",
    "CREATE INDEX IF NOT EXISTS tether_runs_by_created ON tether_runs (created_at DESC, run_id)",
    "CREATE INDEX IF NOT EXISTS tether_runs_by_status ON tether_runs (status, created_at)",
    "CREATE INDEX IF NOT EXISTS tether_runs_by_owner ON tether_runs (lease_owner)",
    """CREATE TABLE IF NOT EXISTS tether_events (
        run_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        event_type TEXT NOT NULL,
        correlation_id TEXT,
        attrs JSONB NOT NULL,
        payload BYTEA,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (run_id, slot)
    )""",
    """CREATE UNIQUE INDEX IF NOT EXISTS tether_events_one_creation
        ON tether_events (run_id, correlation_id, event_type)
        WHERE event_type IN ('run_created', 'step_created', 'wait_created', 'hook_created',
                             'child_started')""",
    """CREATE TABLE IF NOT EXISTS tether_steps (
        run_id TEXT NOT NULL,
        step_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        format_version INTEGER NOT NULL,
        input BYTEA,
        output BYTEA,
        error BYTEA,
        started_at DOUBLE PRECISION NOT NULL,
        completed_at DOUBLE PRECISION,
        retry_after DOUBLE PRECISION,
        PRIMARY KEY (run_id, step_id)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_hooks (
        hook_id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        slot INTEGER NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS tether_hooks_by_run ON tether_hooks (run_id)",
    """CREATE TABLE IF NOT EXISTS tether_waits (
        run_id TEXT NOT NULL,
        wait_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        resume_at DOUBLE PRECISION NOT NULL,
        completed BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (run_id, wait_id)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_queue (
        message_id TEXT PRIMARY KEY,
        queue TEXT NOT NULL,
        payload BYTEA NOT NULL,
        available_at DOUBLE PRECISION NOT NULL,
        idempotency_key TEXT,
        lease_owner TEXT,
        lease_expires_at DOUBLE PRECISION NOT NULL DEFAULT 0,
        deliveries INTEGER NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS tether_queue_ready ON tether_queue (queue, available_at)",
    "CREATE INDEX IF NOT EXISTS tether_queue_by_owner ON tether_queue (lease_owner)",
    """CREATE UNIQUE INDEX IF NOT EXISTS tether_queue_pending_key
        ON tether_queue (queue, idempotency_key)
        WHERE idempotency_key IS NOT NULL AND lease_owner IS NULL""",
    """CREATE TABLE IF NOT EXISTS tether_streams (
        run_id TEXT NOT NULL,
        name TEXT NOT NULL,
        next_index INTEGER NOT NULL DEFAULT 0,
        closed BOOLEAN NOT NULL DEFAULT FALSE,
        PRIMARY KEY (run_id, name)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_stream_chunks (
        run_id TEXT NOT NULL,
        name TEXT NOT NULL,
        idx INTEGER NOT NULL,
        data BYTEA NOT NULL,
        PRIMARY KEY (run_id, name, idx)
    )""",
    """CREATE TABLE IF NOT EXISTS tether_workers (
        worker_id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        deployment TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        heartbeat_at DOUBLE PRECISION NOT NULL
    )""",
)

# Migration 3 created the function; 4 re-creates it with one insert per table instead
# of one per row (same signature and effect, 25 us less per commit). Both build it
# from the one definition above: on a fresh namespace 4 simply re-creates what 3 made.
_V3 = (
    fast_commit_function(server_lease=False),
    # Cancelling a run cancels its unfinished children: find them without a scan.
    "CREATE INDEX IF NOT EXISTS tether_runs_by_parent ON tether_runs (parent_run_id) "
    "WHERE parent_run_id IS NOT NULL",
)

# Chains of runs (continue-as-new) and hook retention: a run records its chain (its first
# run's id) and generation, one run per (chain, generation), which also finds a chain's
# current run; a hook row outlives its run's end while its token is retained.
_V9 = (
    "ALTER TABLE tether_runs ADD COLUMN IF NOT EXISTS chain_id TEXT",
    "ALTER TABLE tether_runs ADD COLUMN IF NOT EXISTS generation INTEGER NOT NULL DEFAULT 0",
    "UPDATE tether_runs SET chain_id = run_id WHERE chain_id IS NULL",
    "CREATE UNIQUE INDEX IF NOT EXISTS tether_runs_chain ON tether_runs (chain_id, generation)",
    "ALTER TABLE tether_hooks ADD COLUMN IF NOT EXISTS chain_id TEXT",
    "ALTER TABLE tether_hooks ADD COLUMN IF NOT EXISTS retained_until DOUBLE PRECISION",
    "UPDATE tether_hooks SET chain_id = run_id WHERE chain_id IS NULL",
)

# Run labels: clear-text metadata, kept in the run's row (read with it) and one row per
# label, whose index finds the runs carrying a label newest first without reading
# any other run.
_V14 = (
    "ALTER TABLE tether_runs ADD COLUMN IF NOT EXISTS labels TEXT",
    """CREATE TABLE IF NOT EXISTS tether_run_labels (
        run_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (run_id, key)
    )""",
    "CREATE INDEX IF NOT EXISTS tether_run_labels_lookup "
    "ON tether_run_labels (key, value, created_at DESC, run_id DESC)",
)

_CREDENTIALS = """CREATE TABLE IF NOT EXISTS tether_credentials (
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    data BYTEA NOT NULL,
    version BIGINT NOT NULL,
    expires_at DOUBLE PRECISION,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (owner, name)
)"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(version=1, name="workflow storage", statements=_V1),
    Migration(version=2, name="agent persistence", statements=AGENT_STATEMENTS),
    Migration(version=3, name="one-round-trip commit, children of a run", statements=_V3),
    Migration(
        version=4,
        name="one-round-trip commit in fewer statements",
        statements=(fast_commit_function(server_lease=False),),
    ),
    # tether_fast_commit stays for workers of earlier releases; this release's commits
    # go through tether_step_commit, which takes the lease from the server's clock.
    Migration(
        version=5,
        name="leases on the server's clock, host identity of workers",
        statements=(
            fast_commit_function(),
            "ALTER TABLE tether_workers ADD COLUMN IF NOT EXISTS host_id TEXT",
        ),
    ),
    # Starting a run id again compares the digest of the input's canonical form.
    Migration(
        version=6,
        name="run input digests",
        statements=("ALTER TABLE tether_runs ADD COLUMN IF NOT EXISTS input_digest TEXT",),
    ),
    Migration(version=9, name="chains of runs, hook retention", statements=_V9),
    # A run's last commit (or park) with its ack, spare wake-up drop and NOTIFY in the
    # one statement, instead of a pipeline of four.
    Migration(
        version=13,
        name="one-statement end of a run",
        statements=(fast_commit_function(end=True),),
    ),
    Migration(version=14, name="run labels", statements=_V14),
    # A message to an idle session (a hook's payload waking its run, claimed by the
    # waker) in one statement, instead of a transaction of two round trips.
    Migration(version=15, name="one-statement wake-up by hook", statements=(ring_function(),)),
    # The same for a claimer that names the run and holds its row: scalar parameters,
    # and nothing read behind it (tether_ring_claim stays for earlier releases).
    Migration(
        version=16,
        name="one-statement wake-up of a held run",
        statements=(ring_function(wake=True),),
    ),
    # A run's active hooks by an index of those alone (a send to an idle session reads
    # them; a scan of every open hook grows with the sessions stored), and the first
    # runs of chains in listing order (a page of sessions).
    Migration(
        version=17,
        name="indexes of active hooks and of chains",
        statements=(HOOKS_ACTIVE_INDEX, CHAINS_INDEX),
    ),
    # A submission whose content retention deleted stays as a receipt: a retried
    # admission of its id is answered from it, never admitted again.
    Migration(
        version=18,
        name="retained receipts of submissions",
        statements=(
            "ALTER TABLE tether_agent_submissions "
            "ADD COLUMN IF NOT EXISTS redacted_at DOUBLE PRECISION",
        ),
    ),
    # A run whose content was purged is marked: the retention sweep reads the ended runs
    # not yet purged, oldest end first, by an index of those alone.
    Migration(
        version=19,
        name="purged runs, the retention sweep's index",
        statements=(
            "ALTER TABLE tether_runs ADD COLUMN IF NOT EXISTS purged INTEGER",
            PRUNABLE_INDEX,
        ),
    ),
    # The token buckets of flow-controlled claims (`stores._flow`), one row per key.
    Migration(
        version=20,
        name="flow control token buckets",
        statements=(
            "CREATE TABLE IF NOT EXISTS tether_flow_buckets ("
            "key TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, "
            "stamp DOUBLE PRECISION NOT NULL)",
        ),
    ),
    # Tools' OAuth tokens and pending authorizations (`CredentialStore`).
    Migration(version=21, name="credentials", statements=(_CREDENTIALS,)),
    # Token and cost budgets per scope, and the reservations of model calls.
    Migration(version=22, name="budgets", statements=budget_tables("DOUBLE PRECISION", "BIGINT")),
    # The permits of step-level limits (`stores._permits`), one row per holder.
    Migration(
        version=23,
        name="step-level limit permits",
        statements=(
            "CREATE TABLE IF NOT EXISTS tether_flow_permits ("
            "key TEXT NOT NULL, holder TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL, "
            "PRIMARY KEY (key, holder))",
        ),
    ),
    # Format 2: a step's payloads in its events alone (`steps_without_payloads`), fewer
    # index entries (`LEANER_INDEXES`), room on each page of runs for their rows' next
    # versions (a row updated in place, "HOT", writes none of its indexes), and the
    # one-round-trip commit for them (`tether_step_write`, `tether_step_finish`).
    Migration(
        version=24,
        name="journal format 2: payloads once, lighter commits",
        statements=(
            *steps_without_payloads(postgres=True),
            *LEANER_INDEXES,
            "ALTER TABLE tether_runs SET (fillfactor = 85)",
            step_write_function(),
            step_write_function(end=True),
        ),
    ),
    # A settled call's usage on its reservation, and a session's settled calls found.
    Migration(
        version=25,
        name="usage of settled calls",
        statements=budget_usage_columns("DOUBLE PRECISION", postgres=True),
    ),
)


def check_namespace(namespace: str) -> str:
    """Return `namespace` if it is a usable Postgres schema name.

    Raises:
        ConfigurationError: It is not lower-case letters, digits and underscores (max 40).
    """
    if not _NAMESPACE.match(namespace):
        raise ConfigurationError(
            f"namespace {namespace!r} is not a valid tether namespace: use lower-case "
            "letters, digits and underscores, starting with a letter or underscore, "
            "at most 40 characters (e.g. 'tether' or 'billing_app')"
        )
    return namespace


def _table(namespace: str, name: str) -> sql.Composed:
    return sql.SQL("{}.{}").format(sql.Identifier(namespace), sql.Identifier(name))


def _has_meta(conn: psycopg.Connection[tuple[object, ...]], namespace: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM information_schema.tables WHERE table_schema = %s AND table_name = %s",
        (namespace, _META),
    ).fetchone()
    return row is not None


def _product_tables(conn: psycopg.Connection[tuple[object, ...]], namespace: str) -> list[str]:
    rows = conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s "
        "AND table_name LIKE 'tether\\_%%' AND table_name <> %s",
        (namespace, _META),
    ).fetchall()
    return [str(r[0]) for r in rows]


def read_stamp(conn: psycopg.Connection[tuple[object, ...]], namespace: str) -> str | None:
    """The stored format stamp of a namespace, or None when it carries none."""
    if not _has_meta(conn, namespace):
        return None
    row = conn.execute(
        sql.SQL("SELECT value FROM {} WHERE key = 'format_version'").format(
            _table(namespace, _META)
        )
    ).fetchone()
    return None if row is None else str(row[0])


def delete_stamp(conn: psycopg.Connection[tuple[object, ...]], namespace: str) -> None:
    """Remove a namespace's format stamp (tests use it to stage an unstamped store)."""
    if _has_meta(conn, namespace):
        conn.execute(
            sql.SQL("DELETE FROM {} WHERE key = 'format_version'").format(_table(namespace, _META))
        )


def write_stamp(conn: psycopg.Connection[tuple[object, ...]], namespace: str, value: str) -> None:
    """Write a format stamp (tests use it to stage legacy and foreign stores)."""
    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(namespace)))
    meta = _table(namespace, _META)
    conn.execute(
        sql.SQL("CREATE TABLE IF NOT EXISTS {} (key TEXT PRIMARY KEY, value TEXT NOT NULL)").format(
            meta
        )
    )
    conn.execute(
        sql.SQL(
            "INSERT INTO {} (key, value) VALUES ('format_version', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        ).format(meta),
        (value,),
    )


def check_stamp(
    conn: psycopg.Connection[tuple[object, ...]], namespace: str, *, where: str
) -> str | None:
    """Refuse a namespace this code cannot use; return its stamp (None when fresh).

    Raises:
        FormatVersionError: The stamp is unknown or newer, or tether tables exist
            without a stamp.
    """
    stamp = read_stamp(conn, namespace)
    if stamp is None:
        if _product_tables(conn, namespace):
            raise FormatVersionError(
                f"{where} holds tether tables but no format stamp; it was not made by a "
                "released tether and cannot be used safely: use another namespace"
            )
        return None
    if stamp == str(FORMAT_VERSION) or stamp in LEGACY_FORMAT_STAMPS:
        return stamp
    raise FormatVersionError(
        f"{where} is stamped with format {stamp!r}; this tether reads and writes format "
        f"{FORMAT_VERSION!r} only (a newer tether made it, or it is not a tether store): "
        "upgrade tether or use another namespace"
    )


def _schema_version(conn: psycopg.Connection[tuple[object, ...]], namespace: str) -> int:
    row = conn.execute(
        sql.SQL("SELECT value FROM {} WHERE key = 'schema_version'").format(
            _table(namespace, _META)
        )
    ).fetchone()
    return 0 if row is None else int(str(row[0]))


def _lock_key(namespace: str) -> int:
    # A stable signed 64-bit key per namespace for pg_advisory_xact_lock.
    return zlib.crc32(f"tether-migrate:{namespace}".encode()) - 2**31


def migrate(conn: psycopg.Connection[tuple[object, ...]], namespace: str, *, where: str) -> None:
    """Stamp (if fresh), then apply every migration not yet applied, in one transaction.

    `conn` must not be in autocommit mode; the caller commits on success.
    """
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_key(namespace),))
    stamp = check_stamp(conn, namespace, where=where)
    if stamp != str(FORMAT_VERSION):
        # The stamp goes first: whatever happens next, this namespace is tether's.
        write_stamp(conn, namespace, str(FORMAT_VERSION))
    current = _schema_version(conn, namespace)
    conn.execute(sql.SQL("SET LOCAL search_path TO {}").format(sql.Identifier(namespace)))
    meta = _table(namespace, _META)
    for migration in MIGRATIONS:
        if migration.version <= current:
            continue
        for statement in migration.statements:
            conn.execute(statement.encode())
        conn.execute(
            sql.SQL(
                "INSERT INTO {} (key, value) VALUES ('schema_version', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
            ).format(meta),
            (str(migration.version),),
        )


def require_migrated(
    conn: psycopg.Connection[tuple[object, ...]], namespace: str, *, where: str
) -> None:
    """Refuse a namespace that is foreign, newer, or not fully migrated."""
    stamp = check_stamp(conn, namespace, where=where)
    latest = MIGRATIONS[-1].version
    if stamp is None or _schema_version(conn, namespace) < latest:
        raise FormatVersionError(
            f"{where} is not migrated to this tether's schema; run `tether migrate` or "
            "open it with migrate=True"
        )
