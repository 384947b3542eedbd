"""The server-side functions of the one-statement writes (created by `_schema`'s migrations).

`tether_step_commit` and `tether_step_end` write a lease holder's step commit decided on
its copy of the run (`_fast`); `tether_ring_claim` and `tether_ring_wake` wake a parked
run by its hook with a submission, claimed by the waker (`_ring`). Each is one
statement, so one round trip, and writes nothing when it raises.
"""

from __future__ import annotations

from .. import _ledger_rows as ledger_rows
from .. import _rows as rows

__all__ = [
    "SERVER_NOW",
    "UNDECIDED",
    "fast_commit_function",
    "ring_function",
    "step_write_function",
]

# The one-round-trip commit (`_fast`) in one statement. It updates a run's row only if
# the row is still the version this process wrote last, else raises (and writes
# nothing); then it writes up to two events and two step rows, the usual step commit.
# `xmin` is the id of the transaction that wrote the row version: any write to the row,
# by anyone, gives it a new one. SQLSTATE 40001 (serialization_failure) is what a
# mismatch is: an optimistic write that lost to a concurrent one.
_FAST_EVENT = (
    ("slot", "INTEGER"),
    ("event_type", "TEXT"),
    ("correlation_id", "TEXT"),
    ("attrs", "JSONB"),
    ("payload", "BYTEA"),
    ("created_at", "DOUBLE PRECISION"),
)
#: A step's row in format 1 (migrations 3 to 13 made their functions with it).
_FAST_STEP = (
    ("step_id", "TEXT"),
    ("slot", "INTEGER"),
    ("name", "TEXT"),
    ("status", "TEXT"),
    ("attempt", "INTEGER"),
    ("format_version", "INTEGER"),
    ("input", "BYTEA"),
    ("output", "BYTEA"),
    ("error", "BYTEA"),
    ("started_at", "DOUBLE PRECISION"),
    ("completed_at", "DOUBLE PRECISION"),
    ("retry_after", "DOUBLE PRECISION"),
)
# New steps are inserted, known ones take their new state: the stamp check ahead of
# them guarantees the copy the rules decided on knew which is which.
_FAST_STEP_SET = ", ".join(
    f"{c} = excluded.{c}"
    for c in ("status", "attempt", "output", "error", "started_at", "completed_at", "retry_after")
)


def _rows_insert(
    prefix: str,
    table: str,
    columns: tuple[tuple[str, str], ...],
    upsert: str = "",
    *,
    count: int = 2,
) -> tuple[str, str]:
    """Parameters `<prefix>1_<column>`, `<prefix>2_<column>` and the insert they feed.

    One statement writes both rows, or the first alone when the second is unset: each
    statement a plpgsql function runs has a fixed cost of its own (about 15 us here).
    With `count=1`, only the `<prefix>1_` parameters and their row.
    """
    params = ", ".join(f"{prefix}{k}_{c} {t}" for k in range(1, count + 1) for c, t in columns)
    names = ", ".join(c for c, _ in columns)

    def row(k: int) -> str:
        return "(p_run_id, " + ", ".join(f"{prefix}{k}_{c}" for c, _ in columns) + ")"

    first = f"{prefix}1_{columns[0][0]}"
    into = f"INSERT INTO {table} (run_id, {names}) VALUES"
    if count == 1:
        return params, f"IF {first} IS NOT NULL THEN {into} {row(1)}{upsert}; END IF;"
    second = f"{prefix}2_{columns[0][0]}"
    insert = (
        f"IF {second} IS NOT NULL THEN {into} {row(1)}, {row(2)}{upsert};\n"
        f"        ELSIF {first} IS NOT NULL THEN {into} {row(1)}{upsert}; END IF;"
    )
    return params, insert


#: The lease of a commit, from the server's clock at the moment of the write: a commit
#: delayed on its way (a network stall) must not land with a lease already run out, and
#: hosts whose clocks disagree must agree on when a lease ends.
SERVER_NOW = "extract(epoch FROM clock_timestamp())::float8"


def fast_commit_function(*, server_lease: bool = True, end: bool = False) -> str:
    """The one-round-trip commit's function; with `end`, `tether_step_end`.

    `tether_step_end` also does what a run's last commit (or a park) does to the queue,
    each when its parameter is set: deletes the activation message this process holds
    (the ack), deletes the run's spare wake-ups (undelivered messages with the run's
    key), and sends one NOTIFY. Sent as separate statements these cost a pipeline,
    several times the client work of one statement.
    """
    lease = "p_lease_seconds" if server_lease else "p_lease_expires_at"
    name = (
        "tether_step_end" if end else "tether_step_commit" if server_lease else "tether_fast_commit"
    )
    params = [
        "p_run_id TEXT, p_seen TEXT, p_status TEXT, p_output BYTEA, p_error BYTEA, "
        "p_head INTEGER, p_lease_owner TEXT, p_lease_epoch BIGINT, "
        f"{lease} DOUBLE PRECISION, p_updated_at DOUBLE PRECISION, "
        "p_completed_at DOUBLE PRECISION"
    ]
    # A released lease is 0; a commit that renews none keeps what the row has.
    expires = (
        "CASE WHEN p_lease_owner IS NULL THEN 0 "
        "WHEN p_lease_seconds IS NULL THEN lease_expires_at "
        f"ELSE {SERVER_NOW} + p_lease_seconds END"
        if server_lease
        else "p_lease_expires_at"
    )
    upsert = f" ON CONFLICT (run_id, step_id) DO UPDATE SET {_FAST_STEP_SET}"
    parts = [
        _rows_insert("e", "tether_events", _FAST_EVENT),
        # A run's end commonly completes one step: one step row keeps the statement
        # within the 50 parameters whose conversion psycopg caches.
        _rows_insert("s", "tether_steps", _FAST_STEP, upsert, count=1 if end else 2),
    ]
    params += [p for p, _ in parts]
    writes = [w for _, w in parts]
    if end:
        end_params, end_writes = _end_writes()
        params.append(end_params)
        writes += end_writes
    body = "\n        ".join(writes)
    return f"""CREATE OR REPLACE FUNCTION {name}({", ".join(params)})
    RETURNS TEXT LANGUAGE plpgsql AS $$
    DECLARE
        stamp TEXT;
    BEGIN
        UPDATE tether_runs SET status = p_status, output = p_output, error = p_error,
            head = p_head, lease_owner = p_lease_owner, lease_epoch = p_lease_epoch,
            lease_expires_at = {expires}, updated_at = p_updated_at,
            completed_at = p_completed_at
        WHERE run_id = p_run_id AND xmin::text = p_seen
        RETURNING xmin::text INTO stamp;
        IF stamp IS NULL THEN
            RAISE EXCEPTION 'tether: run % changed since this process last wrote it', p_run_id
                USING ERRCODE = '40001';
        END IF;
        {body}
        RETURN stamp;
    END
    $$"""


#: A step's row in format 2 (`rows.STEP_COLS`): the slots of its payloads' events.
_STEP_ROW = (
    ("step_id", "TEXT"),
    ("slot", "INTEGER"),
    ("name", "TEXT"),
    ("status", "TEXT"),
    ("attempt", "INTEGER"),
    ("format_version", "INTEGER"),
    ("input_slot", "INTEGER"),
    ("output_slot", "INTEGER"),
    ("error_slot", "INTEGER"),
    ("started_at", "DOUBLE PRECISION"),
    ("completed_at", "DOUBLE PRECISION"),
    ("retry_after", "DOUBLE PRECISION"),
)


def _end_writes() -> tuple[str, list[str]]:
    """The parameters and statements of a run's last commit's queue work and NOTIFY."""
    params = (
        "p_ack_id TEXT, p_ack_owner TEXT, p_drop_queue TEXT, p_drop_key TEXT, "
        "p_notify_channel TEXT, p_notify_payload TEXT"
    )
    writes = [
        "IF p_ack_id IS NOT NULL THEN DELETE FROM tether_queue "
        "WHERE message_id = p_ack_id AND lease_owner = p_ack_owner; END IF;",
        "IF p_drop_queue IS NOT NULL THEN DELETE FROM tether_queue WHERE queue = "
        "p_drop_queue AND idempotency_key = p_drop_key AND lease_owner IS NULL; END IF;",
        "IF p_notify_channel IS NOT NULL THEN "
        "PERFORM pg_notify(p_notify_channel, p_notify_payload); END IF;",
    ]
    return params, writes


def step_write_function(*, end: bool = False) -> str:
    """`tether_step_write` (migration 24): the one-round-trip commit in format 2.

    As `tether_step_commit`, for steps rows that point at their payloads' events
    (`rows.STEP_COLS`), and with the step that ends (``u_``) an UPDATE by its key and
    the step that starts (``i_``) a plain INSERT, each when its first parameter is set.
    An upsert costs more WAL than either: Postgres locks the row it updates in a record
    of its own, and confirms the row it inserts in another. A plain INSERT also refuses
    a step id taken twice (the steps' primary key), which is what makes a step's
    creation unique in its run.

    With `end`, `tether_step_finish`: a run's last commit (or a park), which starts no
    step, with what `tether_step_end` does to the queue and the NOTIFY.
    """
    updated = [("step_id", "TEXT")] + [(c, t) for c, t in _STEP_ROW if c in rows.STEP_UPDATE_COLS]
    events_params, events_insert = _rows_insert("e", "tether_events", _FAST_EVENT)
    update_params = ", ".join(f"u_{c} {t}" for c, t in updated)
    assignments = ", ".join(
        f"{c} = COALESCE(u_{c}, {c})" if c.endswith("_slot") else f"{c} = u_{c}"
        for c, _ in updated[1:]
    )
    params = [events_params, update_params]
    writes = [
        events_insert,
        f"IF u_step_id IS NOT NULL THEN UPDATE tether_steps SET {assignments} "
        "WHERE run_id = p_run_id AND step_id = u_step_id; END IF;",
    ]
    if end:
        end_params, end_writes = _end_writes()
        params.append(end_params)
        writes += end_writes
    else:
        insert_params, step_insert = _rows_insert("i", "tether_steps", _STEP_ROW, count=1)
        params.append(insert_params)
        writes.append(step_insert)
    expires = (
        "CASE WHEN p_lease_owner IS NULL THEN 0 "
        "WHEN p_lease_seconds IS NULL THEN lease_expires_at "
        f"ELSE {SERVER_NOW} + p_lease_seconds END"
    )
    body = "\n        ".join(writes)
    return f"""CREATE OR REPLACE FUNCTION {"tether_step_finish" if end else "tether_step_write"}(
        p_run_id TEXT, p_seen TEXT,
        p_status TEXT, p_output BYTEA, p_error BYTEA, p_head INTEGER, p_lease_owner TEXT,
        p_lease_epoch BIGINT, p_lease_seconds DOUBLE PRECISION,
        p_updated_at DOUBLE PRECISION, p_completed_at DOUBLE PRECISION,
        {", ".join(params)})
    RETURNS TEXT LANGUAGE plpgsql AS $$
    DECLARE
        stamp TEXT;
    BEGIN
        UPDATE tether_runs SET status = p_status, output = p_output, error = p_error,
            head = p_head, lease_owner = p_lease_owner, lease_epoch = p_lease_epoch,
            lease_expires_at = {expires}, updated_at = p_updated_at,
            completed_at = p_completed_at
        WHERE run_id = p_run_id AND xmin::text = p_seen
        RETURNING xmin::text INTO stamp;
        IF stamp IS NULL THEN
            RAISE EXCEPTION 'tether: run % changed since this process last wrote it', p_run_id
                USING ERRCODE = '40001';
        END IF;
        {body}
        RETURN stamp;
    END
    $$"""


#: The SQLSTATE of a wake-up by hook that `tether_ring_claim` leaves to the ordinary
#: path (nothing written): anything but the plain case.
UNDECIDED = "TT001"

# The admission's 13 values (`ledger_rows.insert_values`), by type.
_SUBMISSION_TYPES = (
    "TEXT", "TEXT", "TEXT", "TEXT", "TEXT", "BYTEA", "TEXT", "TEXT", "DOUBLE PRECISION",
    "DOUBLE PRECISION", "INTEGER", "INTEGER", "DOUBLE PRECISION",
)  # fmt: skip


def ring_function(*, wake: bool = False) -> str:
    """`tether_ring_claim`: a hook's payload, with a submission, waking its run claimed.

    The plain case of `_logic.resume_hook_and_claim` with an `AdmitSubmission` (see
    `_ring`), in one statement: the submission admitted under its session's lock unless
    it or the `unless` submission is in the ledger; the hook still its run's; the run
    running, at the head its claimer holds, in its queue, with no live lease; then the
    payload appended, the wake-up written delivered to the claimer and the run's row
    leased to it (the lease from the server's clock). Anything else raises `UNDECIDED`
    before a row is written, and the caller takes the ordinary path, which decides it.

    With `wake`, `tether_ring_wake` (migration 16): for a claimer that names the run
    (`p_run_id`, required) and holds its row at version `p_seen` (its xmin), or none
    (NULL). Its parameters are scalars, which cost the client far less to send than
    the arrays of every parked run's head; with `p_seen` the row must be that very
    version, so the claimer's copy of it, and of its unfinished steps (only the run's
    own commits, which write its row, change them), stays exact with what this returns
    (the new lease's end): nothing is read behind it.
    """
    subs = [f"p_s{i} {t}" for i, t in enumerate(_SUBMISSION_TYPES, 1)]
    admit = ledger_rows.insert_statement("{}").format(
        *(f"p_s{i}" for i in range(1, len(_SUBMISSION_TYPES) + 1))
    )
    statements = rows.statements("{}")
    event = statements.insert_event.format(
        "r.run_id", "r.head + 1", "'hook_received'", "h.hook_id", "'{}'", "p_payload", "p_now"
    )
    message = statements.insert_leased_message.format(
        "p_message_id", "r.queue", "convert_to(r.run_id, 'UTF8')", "p_now", "r.run_id",
        "p_owner", "t + p_lease_seconds", "p_now",
    )  # fmt: skip
    undecided = f"RAISE EXCEPTION 'tether: %', why USING ERRCODE = '{UNDECIDED}'"
    if wake:
        name, ids = "tether_ring_wake", "p_sub_id TEXT, p_unless TEXT"
        in_ledger = "submission_id IN (p_sub_id, p_unless)"
        held_by = "p_run_id TEXT, p_payload BYTEA, p_held INTEGER, p_seen TEXT"
        held = "held := CASE WHEN h.run_id = p_run_id THEN p_held END;"
        # A row of another version than the claimer's copy is not found: undecided.
        seen = " AND (p_seen IS NULL OR xmin::text = p_seen)"
        extra_out, extra_value = ", o_lease_expires_at DOUBLE PRECISION", ", t + p_lease_seconds"
    else:
        name, ids = "tether_ring_claim", "p_ids TEXT[]"
        in_ledger = "submission_id = ANY(p_ids)"
        held_by = "p_run_id TEXT, p_payload BYTEA, p_known_runs TEXT[], p_known_heads INTEGER[]"
        held = "held := p_known_heads[array_position(p_known_runs, h.run_id)];"
        seen = extra_out = extra_value = ""
    return f"""CREATE OR REPLACE FUNCTION {name}(p_lock TEXT, {ids},
        {", ".join(subs)}, p_token TEXT, {held_by}, p_owner TEXT,
        p_lease_seconds DOUBLE PRECISION, p_queue TEXT, p_message_id TEXT,
        p_now DOUBLE PRECISION)
    RETURNS TABLE (o_stamp TEXT, o_hook_id TEXT, o_slot INTEGER,
        o_created_at DOUBLE PRECISION, o_chain_id TEXT{extra_out})
    LANGUAGE plpgsql AS $$
    DECLARE
        h tether_hooks%ROWTYPE;
        r tether_runs%ROWTYPE;
        t DOUBLE PRECISION;
        held INTEGER;
        why TEXT;
        stamp TEXT;
    BEGIN
        IF p_lock IS NOT NULL THEN
            -- The ledger's lock first, as every transaction takes it; a later statement
            -- sees what committed while this one waited for it.
            PERFORM pg_advisory_xact_lock(hashtextextended(p_lock, 0));
            PERFORM 1 FROM tether_agent_submissions WHERE {in_ledger};
            IF FOUND THEN why := 'submission in the ledger'; {undecided}; END IF;
            {admit};
        END IF;
        SELECT * INTO h FROM tether_hooks WHERE token = p_token;
        IF NOT FOUND OR h.run_id <> coalesce(p_run_id, h.run_id)
            OR h.retained_until IS NOT NULL
        THEN
            why := 'hook not held by the run'; {undecided};
        END IF;
        {held}
        IF held IS NULL THEN why := 'log of the run not held'; {undecided}; END IF;
        SELECT * INTO r FROM tether_runs WHERE run_id = h.run_id{seen} FOR UPDATE;
        t := {SERVER_NOW};
        IF NOT FOUND OR r.status <> 'running' OR r.head <> held
            OR r.queue <> p_queue OR (r.lease_owner IS NOT NULL AND r.lease_expires_at > t)
        THEN
            why := 'run not claimable as held'; {undecided};
        END IF;
        -- Under the run's lock: the hook may have moved while this waited for it.
        PERFORM 1 FROM tether_hooks WHERE token = p_token AND hook_id = h.hook_id
            AND run_id = r.run_id AND retained_until IS NULL;
        IF NOT FOUND THEN why := 'hook moved'; {undecided}; END IF;
        {event};
        {message};
        UPDATE tether_runs SET head = r.head + 1, lease_owner = p_owner,
            lease_epoch = r.lease_epoch + 1, lease_expires_at = t + p_lease_seconds,
            updated_at = p_now
        WHERE run_id = r.run_id RETURNING xmin::text INTO stamp;
        RETURN QUERY SELECT stamp, h.hook_id, h.slot, h.created_at, h.chain_id{extra_value};
    END
    $$"""
