"""The migration to journal format 2 (migration 24), shared by the SQL backends.

Format 2 keeps a step's payloads in its events alone (its row points at their slots:
`_rows.STEP_COLS`), and writes fewer index entries per commit.
"""

from __future__ import annotations

from ._events import STEP_ERROR_EVENTS
from ._rows import STEP_COLS

__all__ = [
    "CREATION_PREDICATE",
    "CREATION_PREDICATE_V1",
    "LEANER_INDEXES",
    "steps_without_payloads",
]

#: The creation events the partial unique index `tether_events_one_creation` keeps one
#: of per (run, correlation id, type) since migration 24. A step's creation is not among
#: them: every `step_created` inserts its step's row in the same transaction, and the
#: steps' primary key refuses a step id taken twice, so an index entry per step (its
#: WAL and its page) would only say it again. SQLite matches a partial index only when
#: a query repeats its terms in order, so the schema builds its index from this text.
CREATION_PREDICATE = "event_type IN ({})".format(
    ", ".join(f"'{t}'" for t in ("run_created", "wait_created", "hook_created", "child_started"))
)
#: The index's predicate before migration 24 (steps' creations included).
CREATION_PREDICATE_V1 = "event_type IN ({})".format(
    ", ".join(
        f"'{t}'"
        for t in ("run_created", "step_created", "wait_created", "hook_created", "child_started")
    )
)


def steps_without_payloads(*, postgres: bool) -> tuple[str, ...]:
    """Migration 24's statements that move steps' payloads to their events alone.

    Every payload a step's row held its events hold too (the rules write both from the
    same event, and a purge clears both): each row gets the slots of those events, then
    loses its copies. Run before `LEANER_INDEXES`, while the creation index still finds
    a step's `step_created` by its id. Idempotent, as every migration: SQLite, which
    cannot add a column only if missing, rebuilds the table from the one it has (whose
    payload columns it does not read), so a second run rebuilds it the same.
    """
    errors = ", ".join(f"'{t}'" for t in sorted(STEP_ERROR_EVENTS))

    def last(types: str, alias: str) -> str:
        return (
            f"(SELECT run_id, correlation_id, max(slot) AS slot FROM tether_events "
            f"WHERE event_type IN ({types}) GROUP BY run_id, correlation_id) AS {alias}"
        )

    outputs, failures = last("'step_completed'", "o"), last(errors, "f")
    if postgres:
        return (
            "ALTER TABLE tether_steps ADD COLUMN IF NOT EXISTS input_slot INTEGER",
            "ALTER TABLE tether_steps ADD COLUMN IF NOT EXISTS output_slot INTEGER",
            "ALTER TABLE tether_steps ADD COLUMN IF NOT EXISTS error_slot INTEGER",
            "UPDATE tether_steps SET input_slot = e.slot FROM tether_events e "
            "WHERE e.run_id = tether_steps.run_id AND e.correlation_id = tether_steps.step_id "
            f"AND e.event_type = 'step_created' AND e.{CREATION_PREDICATE_V1}",
            f"UPDATE tether_steps SET output_slot = o.slot FROM {outputs} "
            "WHERE o.run_id = tether_steps.run_id AND o.correlation_id = tether_steps.step_id",
            f"UPDATE tether_steps SET error_slot = f.slot FROM {failures} "
            "WHERE f.run_id = tether_steps.run_id AND f.correlation_id = tether_steps.step_id",
            "ALTER TABLE tether_steps DROP COLUMN IF EXISTS input",
            "ALTER TABLE tether_steps DROP COLUMN IF EXISTS output",
            "ALTER TABLE tether_steps DROP COLUMN IF EXISTS error",
        )
    kept = "s.run_id, s.step_id, s.slot, s.name, s.status, s.attempt, s.format_version"
    times = "s.started_at, s.completed_at, s.retry_after"
    return (
        """CREATE TABLE IF NOT EXISTS tether_steps_format_2 (
            run_id TEXT NOT NULL,
            step_id TEXT NOT NULL,
            slot INTEGER NOT NULL,
            name TEXT NOT NULL,
            status TEXT NOT NULL,
            attempt INTEGER NOT NULL,
            format_version INTEGER NOT NULL,
            input_slot INTEGER,
            output_slot INTEGER,
            error_slot INTEGER,
            started_at REAL NOT NULL,
            completed_at REAL,
            retry_after REAL,
            PRIMARY KEY (run_id, step_id)
        ) WITHOUT ROWID""",
        f"INSERT INTO tether_steps_format_2 ({STEP_COLS}) SELECT {kept}, "
        "(SELECT e.slot FROM tether_events e WHERE e.run_id = s.run_id "
        f"AND e.correlation_id = s.step_id AND e.event_type = 'step_created' "
        f"AND e.{CREATION_PREDICATE_V1}), o.slot, f.slot, {times} FROM tether_steps s "
        f"LEFT JOIN {outputs} ON o.run_id = s.run_id AND o.correlation_id = s.step_id "
        f"LEFT JOIN {failures} ON f.run_id = s.run_id AND f.correlation_id = s.step_id",
        "DROP TABLE tether_steps",
        "ALTER TABLE tether_steps_format_2 RENAME TO tether_steps",
    )


#: Migration 24's statements for both SQL backends: indexes a commit writes less to.
#: The creation index leaves steps' creations out (see `CREATION_PREDICATE`), and runs
#: and messages are no longer indexed by lease owner: a claim and a release change the
#: owner, and an index on it made every such write of a run's row update each of the
#: row's indexes (Postgres cannot update a row in place, "HOT", when an indexed column
#: changes; SQLite rewrites the index's entry), and every write of a message one index
#: more. Only a dead worker's leases are found by owner, rarely, by a scan
#: (`expire_worker`).
LEANER_INDEXES = (
    "DROP INDEX IF EXISTS tether_events_one_creation",
    "CREATE UNIQUE INDEX IF NOT EXISTS tether_events_one_creation "
    f"ON tether_events (run_id, correlation_id, event_type) WHERE {CREATION_PREDICATE}",
    "DROP INDEX IF EXISTS tether_runs_by_owner",
    "DROP INDEX IF EXISTS tether_queue_by_owner",
)
