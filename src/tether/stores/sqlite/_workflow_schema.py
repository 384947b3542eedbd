"""SQLite tables of the workflow storage.

Runs, events, steps, hooks, waits, queue, streams and workers. Entries are
(version, name, statements).
"""

from __future__ import annotations

from .._listings import CHAINS_INDEX
from .._prune_rows import PRUNABLE_INDEX, PURGED_COLUMN
from .._rows import (
    CREATION_PREDICATE_V1,
    HOOKS_ACTIVE_INDEX,
    LEANER_INDEXES,
    steps_without_payloads,
)

_V1 = (
    """CREATE TABLE IF NOT EXISTS tether_runs (
        run_id TEXT PRIMARY KEY,
        workflow_name TEXT NOT NULL,
        status TEXT NOT NULL,
        deployment TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        queue TEXT NOT NULL,
        input BLOB,
        output BLOB,
        error BLOB,
        head INTEGER NOT NULL,
        parent_run_id TEXT,
        parent_slot INTEGER,
        lease_owner TEXT,
        lease_epoch INTEGER NOT NULL DEFAULT 0,
        lease_expires_at REAL NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        completed_at REAL
    )""",
    "CREATE INDEX IF NOT EXISTS tether_runs_by_created ON tether_runs (created_at DESC, run_id)",
    "CREATE INDEX IF NOT EXISTS tether_runs_by_status ON tether_runs (status, created_at)",
    "CREATE INDEX IF NOT EXISTS tether_runs_by_owner ON tether_runs (lease_owner)",
    """CREATE TABLE IF NOT EXISTS tether_events (
        run_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        event_type TEXT NOT NULL,
        correlation_id TEXT,
        attrs TEXT NOT NULL,
        payload BLOB,
        created_at REAL NOT NULL,
        PRIMARY KEY (run_id, slot)
    ) WITHOUT ROWID""",
    "CREATE UNIQUE INDEX IF NOT EXISTS tether_events_one_creation "
    f"ON tether_events (run_id, correlation_id, event_type) WHERE {CREATION_PREDICATE_V1}",
    """CREATE TABLE IF NOT EXISTS tether_steps (
        run_id TEXT NOT NULL,
        step_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        format_version INTEGER NOT NULL,
        input BLOB,
        output BLOB,
        error BLOB,
        started_at REAL NOT NULL,
        completed_at REAL,
        retry_after REAL,
        PRIMARY KEY (run_id, step_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_hooks (
        hook_id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        slot INTEGER NOT NULL,
        created_at REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS tether_hooks_by_run ON tether_hooks (run_id)",
    """CREATE TABLE IF NOT EXISTS tether_waits (
        run_id TEXT NOT NULL,
        wait_id TEXT NOT NULL,
        slot INTEGER NOT NULL,
        resume_at REAL NOT NULL,
        completed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (run_id, wait_id)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_queue (
        message_id TEXT PRIMARY KEY,
        queue TEXT NOT NULL,
        payload BLOB NOT NULL,
        available_at REAL NOT NULL,
        idempotency_key TEXT,
        lease_owner TEXT,
        lease_expires_at REAL NOT NULL DEFAULT 0,
        deliveries INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL
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
        closed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (run_id, name)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_stream_chunks (
        run_id TEXT NOT NULL,
        name TEXT NOT NULL,
        idx INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (run_id, name, idx)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS tether_workers (
        worker_id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        deployment TEXT NOT NULL,
        engine_version TEXT NOT NULL,
        started_at REAL NOT NULL,
        heartbeat_at REAL NOT NULL
    )""",
)

# Cancelling a run cancels its unfinished children: find them without a scan.
_V3 = (
    "CREATE INDEX IF NOT EXISTS tether_runs_by_parent ON tether_runs (parent_run_id) "
    "WHERE parent_run_id IS NOT NULL",
)

# Workers say which host and process-id space their pid belongs to (boot id and pid
# namespace): a pid is only judged dead by a worker of the same one.
_V5 = ("ALTER TABLE tether_workers ADD COLUMN host_id TEXT",)
# Starting a run id again compares the digest of the input's canonical form.
_V6 = ("ALTER TABLE tether_runs ADD COLUMN input_digest TEXT",)

# Chains of runs (continue-as-new) and hook retention. A run records its chain (its first
# run's id) and generation; one run per (chain, generation), which also finds a chain's
# current run. A hook row outlives its run's end while its token is retained.
_V9 = (
    "ALTER TABLE tether_runs ADD COLUMN chain_id TEXT",
    "ALTER TABLE tether_runs ADD COLUMN generation INTEGER NOT NULL DEFAULT 0",
    "UPDATE tether_runs SET chain_id = run_id WHERE chain_id IS NULL",
    "CREATE UNIQUE INDEX IF NOT EXISTS tether_runs_chain ON tether_runs (chain_id, generation)",
    "ALTER TABLE tether_hooks ADD COLUMN chain_id TEXT",
    "ALTER TABLE tether_hooks ADD COLUMN retained_until REAL",
    "UPDATE tether_hooks SET chain_id = run_id WHERE chain_id IS NULL",
)

# Run labels: clear-text metadata, kept in the run's row (read with it) and one row per
# label, whose index finds the runs carrying a label newest first without reading
# any other run.
_V14 = (
    "ALTER TABLE tether_runs ADD COLUMN labels TEXT",
    """CREATE TABLE IF NOT EXISTS tether_run_labels (
        run_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (run_id, key)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS tether_run_labels_lookup "
    "ON tether_run_labels (key, value, created_at DESC, run_id DESC)",
)

FLOW_BUCKETS = """CREATE TABLE IF NOT EXISTS tether_flow_buckets (
        key TEXT PRIMARY KEY,
        tokens REAL NOT NULL,
        stamp REAL NOT NULL
    ) WITHOUT ROWID"""

FLOW_PERMITS = """CREATE TABLE IF NOT EXISTS tether_flow_permits (
        key TEXT NOT NULL,
        holder TEXT NOT NULL,
        expires_at REAL NOT NULL,
        PRIMARY KEY (key, holder)
    ) WITHOUT ROWID"""

WORKFLOW_MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (1, "workflow storage", _V1),
    (3, "children of a run", _V3),
    (5, "host identity of workers", _V5),
    (6, "run input digests", _V6),
    (9, "chains of runs, hook retention", _V9),
    (14, "run labels", _V14),
    # A run's active hooks by an index of those alone (a send to an idle session reads
    # them; a scan of every open hook grows with the sessions stored), and the first
    # runs of chains in listing order (a page of sessions).
    (17, "indexes of active hooks and of chains", (HOOKS_ACTIVE_INDEX, CHAINS_INDEX)),
    # A run whose content was purged is marked: the retention sweep reads the ended runs
    # not yet purged, oldest end first, by an index of those alone.
    (19, "purged runs, the retention sweep's index", (PURGED_COLUMN, PRUNABLE_INDEX)),
    # The token buckets of flow-controlled claims (`stores._flow`), one row per key.
    (20, "flow control token buckets", (FLOW_BUCKETS,)),
    # The permits of step-level limits (`stores._permits`), one row per holder.
    (23, "step-level limit permits", (FLOW_PERMITS,)),
    # Format 2: a step's payloads in its events alone, fewer index entries per commit.
    (
        24,
        "journal format 2: payloads once, lighter commits",
        (*steps_without_payloads(postgres=False), *LEANER_INDEXES),
    ),
)
