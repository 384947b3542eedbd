"""Columns of the workflow tables and the mapping between their rows and records.

Shared by the SQL backends: they differ in placeholders and locking, not in what a
row holds. Blob columns come back as `bytes` (SQLite) or `memoryview` (psycopg); the
mappers normalise both to `bytes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from ._events import EVENT_KINDS, StepSlot, event_kind
from ._records import (
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    QueueDepth,
    QueueEntry,
    RunRecord,
    StepRecord,
    WaitRecord,
    WorkerRecord,
)

__all__ = [
    "ACTIVE_HOOKS",
    "EVENT_COLS",
    "HOOKS_ACTIVE_INDEX",
    "HOOK_ACTIVE",
    "HOOK_COLS",
    "HOOK_UPDATE_COLS",
    "LABEL_COLS",
    "QUEUE_ENTRY_COLS",
    "REPLAY_EVENT_COLS",
    "RUN_COLS",
    "RUN_UPDATE_COLS",
    "STEP_COLS",
    "STEP_UPDATE_COLS",
    "WAIT_COLS",
    "WORKER_COLS",
    "Statements",
    "StepSlots",
    "assignments",
    "event_from_row",
    "event_values",
    "hook_from_row",
    "hook_update_values",
    "hook_values",
    "label_values",
    "labels_text",
    "leased_message",
    "placeholders",
    "purge_run_statements",
    "queue_depth_from_row",
    "queue_depths_query",
    "queue_entry_from_row",
    "replay_values",
    "run_from_row",
    "run_update_values",
    "run_values",
    "statements",
    "step_from_row",
    "step_select",
    "step_update_values",
    "step_values",
    "wait_from_row",
    "worker_from_row",
    "worker_values",
]

RUN_COLS = (
    "run_id, workflow_name, status, deployment, engine_version, queue, input, output, error, "
    "head, parent_run_id, parent_slot, lease_owner, lease_epoch, lease_expires_at, created_at, "
    "updated_at, completed_at, input_digest, chain_id, generation, labels"
)
#: A run's labels are kept twice: as JSON text in its row (`labels`), read with the run,
#: and one row each in ``tether_run_labels``, whose index serves `list_runs(labels=...)`
#: (both written when the run is created, both deleted with its content).
LABEL_COLS = "run_id, key, value, created_at"
#: The columns a write may change after insert, in `run_update_values` order (run_id last).
RUN_UPDATE_COLS = (
    "status",
    "output",
    "error",
    "head",
    "lease_owner",
    "lease_epoch",
    "lease_expires_at",
    "updated_at",
    "completed_at",
)
#: A step's row (format 2). Its payloads are its events' alone: the row names the slots
#: of the `step_created` that carries its input, of its `step_completed` (its output) and
#: of its latest `step_failed` or `step_retrying` (its error), each event's
#: `EventKind.step_slot` (`_events`), and reads join them
#: (`step_select`). A payload written twice (a model call's reply, a tool's result) was
#: most of what a step commit wrote.
STEP_COLS = (
    "run_id, step_id, slot, name, status, attempt, format_version, input_slot, output_slot, "
    "error_slot, started_at, completed_at, retry_after"
)
#: In `step_update_values` order (run_id, step_id last).
STEP_UPDATE_COLS = (
    "status",
    "attempt",
    "output_slot",
    "error_slot",
    "started_at",
    "completed_at",
    "retry_after",
)
EVENT_COLS = "run_id, slot, event_type, correlation_id, attrs, payload, created_at"
#: `EVENT_COLS` for a claim's log, which a replay reads: without the payloads no replay
#: reads (a step's input, and the run's input, which the run's row carries). A long
#: run's step inputs (a transcript, a document) are most of its log's bytes.
_NO_REPLAY_PAYLOAD = tuple(k.name for k in EVENT_KINDS.values() if not k.replayed_payload)
REPLAY_EVENT_COLS = EVENT_COLS.replace(
    "payload",
    "CASE WHEN event_type IN ({}) THEN NULL ELSE payload END".format(
        ", ".join(f"'{name}'" for name in _NO_REPLAY_PAYLOAD)
    ),
)
HOOK_COLS = "hook_id, run_id, token, slot, created_at, chain_id, retained_until"
#: The columns `update_hook` writes, in `hook_update_values` order (hook_id last).
HOOK_UPDATE_COLS = ("run_id", "slot", "chain_id", "retained_until")
#: Matches the hooks that are live (not a token retained after its run's end); the
#: predicate of the partial index ``tether_hooks_active`` (run_id, slot), which SQLite
#: uses only for queries that repeat it.
HOOK_ACTIVE = "retained_until IS NULL"
#: Every active hook, by run and slot (the whole of ``tether_hooks_active``).
ACTIVE_HOOKS = f"SELECT {HOOK_COLS} FROM tether_hooks WHERE {HOOK_ACTIVE} ORDER BY run_id, slot"
#: The statement that makes the partial index of active hooks.
HOOKS_ACTIVE_INDEX = (
    f"CREATE INDEX IF NOT EXISTS tether_hooks_active ON tether_hooks (run_id, slot) "
    f"WHERE {HOOK_ACTIVE}"
)
WAIT_COLS = "run_id, wait_id, slot, resume_at, completed"
QUEUE_ENTRY_COLS = "message_id, queue, available_at, deliveries, lease_owner, lease_expires_at"
WORKER_COLS = "worker_id, host, pid, deployment, engine_version, started_at, heartbeat_at, host_id"


def _b(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


def run_from_row(row: Any) -> RunRecord:
    """A `RunRecord` from a row selected with `RUN_COLS`."""
    return RunRecord(
        run_id=row[0],
        workflow_name=row[1],
        status=row[2],
        deployment=row[3],
        engine_version=row[4],
        queue=row[5],
        input=_b(row[6]),
        output=_b(row[7]),
        error=_b(row[8]),
        head=row[9],
        parent_run_id=row[10],
        parent_slot=row[11],
        lease_owner=row[12],
        lease_epoch=row[13],
        lease_expires_at=row[14],
        created_at=row[15],
        updated_at=row[16],
        completed_at=row[17],
        input_digest=row[18],
        # Rows from before migration 9 carry no chain: each is its own chain's first run.
        chain_id=row[19] or row[0],
        generation=row[20] or 0,
        # NULL when it has none (and for rows from before migration 14).
        labels=orjson.loads(row[21]) if row[21] else {},
    )


def run_values(r: RunRecord) -> tuple[Any, ...]:
    """Insert parameters in `RUN_COLS` order."""
    return (
        r.run_id, r.workflow_name, r.status, r.deployment, r.engine_version, r.queue,
        r.input, r.output, r.error, r.head, r.parent_run_id, r.parent_slot, r.lease_owner,
        r.lease_epoch, r.lease_expires_at, r.created_at, r.updated_at, r.completed_at,
        r.input_digest, r.chain_id or r.run_id, r.generation, labels_text(r.labels),
    )  # fmt: skip


def labels_text(labels: Mapping[str, str]) -> str | None:
    """The `labels` column's value: JSON text, NULL for none."""
    return orjson.dumps(dict(labels), option=orjson.OPT_SORT_KEYS).decode() if labels else None


def label_values(r: RunRecord) -> list[tuple[Any, ...]]:
    """Insert parameters in `LABEL_COLS` order, one row per label of the run."""
    return [(r.run_id, k, v, r.created_at) for k, v in r.labels.items()]


def run_update_values(r: RunRecord) -> tuple[Any, ...]:
    """Update parameters in `RUN_UPDATE_COLS` order, then the run id."""
    return (
        r.status, r.output, r.error, r.head, r.lease_owner, r.lease_epoch,
        r.lease_expires_at, r.updated_at, r.completed_at, r.run_id,
    )  # fmt: skip


def step_select(where: str) -> str:
    """A select of steps with their payloads joined from the log (`step_from_row`).

    `where` is the condition on the step rows, alias ``s``.
    """
    cols = ", ".join(f"s.{c}" for c in STEP_COLS.split(", "))
    return (
        f"SELECT {cols}, i.payload, o.payload, e.payload FROM tether_steps s "
        "LEFT JOIN tether_events i ON i.run_id = s.run_id AND i.slot = s.input_slot "
        "LEFT JOIN tether_events o ON o.run_id = s.run_id AND o.slot = s.output_slot "
        "LEFT JOIN tether_events e ON e.run_id = s.run_id AND e.slot = s.error_slot "
        f"WHERE {where}"
    )


def step_from_row(row: Any) -> StepRecord:
    """A `StepRecord` from a row selected with `STEP_COLS`, its payloads after them.

    Without the payloads (a row of `STEP_COLS` alone: the rules' reads, which decide on
    statuses), the record's are None.
    """
    payloads = len(row) > 13
    return StepRecord(
        run_id=row[0],
        step_id=row[1],
        slot=row[2],
        name=row[3],
        status=row[4],
        attempt=row[5],
        format_version=row[6],
        input=_b(row[13]) if payloads else None,
        output=_b(row[14]) if payloads else None,
        error=_b(row[15]) if payloads else None,
        started_at=row[10],
        completed_at=row[11],
        retry_after=row[12],
    )


def step_values(s: StepRecord, slots: tuple[int | None, ...]) -> tuple[Any, ...]:
    """Insert parameters in `STEP_COLS` order: the step, and its payloads' slots."""
    return (
        s.run_id, s.step_id, s.slot, s.name, s.status, s.attempt, s.format_version, *slots,
        s.started_at, s.completed_at, s.retry_after,
    )  # fmt: skip


#: Where a step event's payload slot sits in `StepSlots`' triple (input, output, error).
_STEP_SLOT_AT: Mapping[StepSlot | None, int] = {"input": 0, "output": 1, "error": 2}


class StepSlots:
    """The slots of the step events a transaction inserted: where its step rows point."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        # (run id, step id) -> the slots of its input, output and error seen here.
        self._seen: dict[tuple[str, str], list[int | None]] = {}

    def saw(self, e: EventRecord) -> None:
        """Note an inserted event (the rules insert a step's event before its row)."""
        at = _STEP_SLOT_AT.get(event_kind(e.event_type).step_slot)
        if at is None:
            return
        self._seen.setdefault((e.run_id, str(e.correlation_id)), [None, None, None])[at] = e.slot

    def _take(self, s: StepRecord) -> list[int | None]:
        # Taken once written: a later write of the row without a new payload keeps its.
        return self._seen.pop((s.run_id, s.step_id), None) or [None, None, None]

    def insert_values(self, s: StepRecord) -> tuple[Any, ...]:
        """`step_values` for a new step's row."""
        return step_values(s, tuple(self._take(s)))

    def update_values(self, s: StepRecord) -> tuple[Any, ...]:
        """`step_update_values` for a step's row: the payloads seen since its last write."""
        _, output, error = self._take(s)
        return step_update_values(s, output, error)


def step_update_values(
    s: StepRecord, output_slot: int | None, error_slot: int | None
) -> tuple[Any, ...]:
    """Update parameters in `STEP_UPDATE_COLS` order, then run id and step id.

    A slot of None keeps the row's (a new attempt's start keeps the error of the
    attempt before, and so does the step's completion, as the step's view always has).
    """
    return (
        s.status, s.attempt, output_slot, error_slot, s.started_at, s.completed_at,
        s.retry_after, s.run_id, s.step_id,
    )  # fmt: skip


_new = object.__new__
_set = object.__setattr__


def event_from_row(row: Any) -> EventRecord:
    """An `EventRecord` from a row selected with `EVENT_COLS` (attrs as JSON text)."""
    # A claim maps a run's whole log (10,000 rows for a long run): the fields are set
    # directly, as `EventRecord(...)` would, at two thirds of the cost of its __init__.
    event: EventRecord = _new(EventRecord)
    payload = row[5]
    _set(event, "run_id", row[0])
    _set(event, "slot", row[1])
    _set(event, "event_type", row[2])
    _set(event, "correlation_id", row[3])
    _set(event, "attrs", orjson.loads(row[4]))
    _set(event, "payload", None if payload is None else bytes(payload))
    _set(event, "created_at", row[6])
    return event


def event_values(e: EventRecord) -> tuple[Any, ...]:
    """Insert parameters in `EVENT_COLS` order (attrs as JSON text)."""
    attrs = orjson.dumps(dict(e.attrs)).decode()
    return (e.run_id, e.slot, e.event_type, e.correlation_id, attrs, e.payload, e.created_at)


def replay_values(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """`event_values` as a `REPLAY_EVENT_COLS` select returns them."""
    if values[2] in _NO_REPLAY_PAYLOAD:
        return (*values[:5], None, values[6])
    return values


def hook_from_row(row: Any) -> HookRecord:
    """A `HookRecord` from a row selected with `HOOK_COLS`."""
    return HookRecord(
        hook_id=row[0],
        run_id=row[1],
        token=row[2],
        slot=row[3],
        created_at=row[4],
        chain_id=row[5] or row[1],
        retained_until=row[6],
    )


def hook_values(h: HookRecord) -> tuple[Any, ...]:
    """Insert parameters in `HOOK_COLS` order."""
    chain = h.chain_id or h.run_id
    return (h.hook_id, h.run_id, h.token, h.slot, h.created_at, chain, h.retained_until)


def hook_update_values(h: HookRecord) -> tuple[Any, ...]:
    """Update parameters in `HOOK_UPDATE_COLS` order, then the hook id."""
    return (h.run_id, h.slot, h.chain_id or h.run_id, h.retained_until, h.hook_id)


def queue_entry_from_row(row: Any) -> QueueEntry:
    """A `QueueEntry` from a row selected with `QUEUE_ENTRY_COLS`."""
    return QueueEntry(
        message_id=row[0],
        queue=row[1],
        available_at=float(row[2]),
        deliveries=int(row[3]),
        lease_owner=row[4],
        lease_expires_at=float(row[5]),
    )


def queue_depths_query(mark: str) -> str:
    """Per queue, its messages ready, delayed and leased at a time (given 5 times)."""
    free = f"(lease_owner IS NULL OR lease_expires_at <= {mark})"
    return (
        f"SELECT queue, SUM(CASE WHEN {free} AND available_at <= {mark} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN {free} AND available_at > {mark} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN lease_owner IS NOT NULL AND lease_expires_at > {mark} THEN 1 ELSE 0 END) "
        "FROM tether_queue GROUP BY queue ORDER BY queue"
    )


def queue_depth_from_row(row: Any) -> QueueDepth:
    """A `QueueDepth` from a row of `queue_depths_query`."""
    return QueueDepth(queue=row[0], ready=int(row[1]), delayed=int(row[2]), leased=int(row[3]))


def wait_from_row(row: Any) -> WaitRecord:
    """A `WaitRecord` from a row selected with `WAIT_COLS`."""
    return WaitRecord(
        run_id=row[0], wait_id=row[1], slot=row[2], resume_at=row[3], completed=bool(row[4])
    )


def worker_from_row(row: Any) -> WorkerRecord:
    """A `WorkerRecord` from a row selected with `WORKER_COLS`."""
    return WorkerRecord(
        worker_id=row[0],
        host=row[1],
        pid=row[2],
        deployment=row[3],
        engine_version=row[4],
        started_at=row[5],
        heartbeat_at=row[6],
        host_id=row[7],
    )


def worker_values(w: WorkerRecord) -> tuple[Any, ...]:
    """Insert parameters in `WORKER_COLS` order."""
    return (w.worker_id, w.host, w.pid, w.deployment, w.engine_version, w.started_at,
            w.heartbeat_at, w.host_id)  # fmt: skip


def placeholders(n: int, mark: str) -> str:
    """``mark, mark, ...`` n times: ``?`` for SQLite, ``%s`` for psycopg."""
    return ", ".join([mark] * n)


def assignments(cols: tuple[str, ...], mark: str) -> str:
    """``col = mark, ...`` for an UPDATE's SET clause."""
    return ", ".join(f"{c} = {mark}" for c in cols)


@dataclass(frozen=True, slots=True)
class Statements:
    """Statements of the workflow views in one backend's placeholder style."""

    insert_run: str
    update_run: str
    insert_step: str
    update_step: str
    insert_event: str
    insert_hook: str
    update_hook: str
    #: The run of a chain with the highest generation (by ``tether_runs_chain``).
    last_of_chain: str
    #: The unfinished children of a run (by the index ``tether_runs_by_parent``).
    active_children: str
    #: The active hooks of a run in slot order (by the partial index
    #: ``tether_hooks_active``, whose predicate it repeats).
    hooks_of_run: str
    #: One row of ``tether_run_labels`` (a label already there keeps its row).
    insert_label: str
    #: A queue message delivered as it is written (`leased_message` gives the rest).
    insert_leased_message: str
    #: Whether an undelivered message carries a key (queue, key).
    pending_key: str
    #: Drop a message by id, or the undelivered one with a key (queue, key).
    delete_message: str
    #: Ack a message its owner holds (id, owner).
    ack_message: str
    drop_pending: str
    #: Give a leased message back, available again at a time (available_at, id).
    release_message: str


def statements(mark: str) -> Statements:
    """Build the `Statements` for a placeholder mark (``?`` or ``%s``)."""
    return Statements(
        insert_run=(
            f"INSERT INTO tether_runs ({RUN_COLS}) "
            f"VALUES ({placeholders(len(RUN_COLS.split(', ')), mark)})"
        ),
        update_run=(
            f"UPDATE tether_runs SET {assignments(RUN_UPDATE_COLS, mark)} WHERE run_id = {mark}"
        ),
        insert_step=f"INSERT INTO tether_steps ({STEP_COLS}) VALUES ({placeholders(13, mark)})",
        update_step=(
            f"UPDATE tether_steps SET status = {mark}, attempt = {mark}, "
            f"output_slot = COALESCE({mark}, output_slot), "
            f"error_slot = COALESCE({mark}, error_slot), started_at = {mark}, "
            f"completed_at = {mark}, retry_after = {mark} "
            f"WHERE run_id = {mark} AND step_id = {mark}"
        ),
        insert_event=f"INSERT INTO tether_events ({EVENT_COLS}) VALUES ({placeholders(7, mark)})",
        insert_hook=(
            f"INSERT INTO tether_hooks ({HOOK_COLS}) "
            f"VALUES ({placeholders(len(HOOK_COLS.split(', ')), mark)})"
        ),
        update_hook=(
            f"UPDATE tether_hooks SET {assignments(HOOK_UPDATE_COLS, mark)} WHERE hook_id = {mark}"
        ),
        last_of_chain=(
            f"SELECT run_id FROM tether_runs WHERE chain_id = {mark} "
            "ORDER BY generation DESC LIMIT 1"
        ),
        active_children=(
            f"SELECT run_id FROM tether_runs WHERE parent_run_id = {mark} "
            "AND status IN ('pending', 'running') ORDER BY run_id"
        ),
        hooks_of_run=(
            f"SELECT {HOOK_COLS} FROM tether_hooks WHERE run_id = {mark} AND {HOOK_ACTIVE} "
            "ORDER BY slot"
        ),
        insert_label=(
            f"INSERT INTO tether_run_labels ({LABEL_COLS}) VALUES ({placeholders(4, mark)}) "
            f"ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value"
        ),
        insert_leased_message=(
            "INSERT INTO tether_queue (message_id, queue, payload, available_at, "
            "idempotency_key, lease_owner, lease_expires_at, deliveries, created_at) "
            f"VALUES ({placeholders(7, mark)}, 1, {mark})"
        ),
        pending_key=(
            f"SELECT 1 FROM tether_queue WHERE queue = {mark} AND idempotency_key = {mark} "
            "AND lease_owner IS NULL"
        ),
        delete_message=f"DELETE FROM tether_queue WHERE message_id = {mark}",
        ack_message=f"DELETE FROM tether_queue WHERE message_id = {mark} AND lease_owner = {mark}",
        drop_pending=(
            f"DELETE FROM tether_queue WHERE queue = {mark} AND idempotency_key = {mark} "
            "AND lease_owner IS NULL"
        ),
        release_message=(
            "UPDATE tether_queue SET lease_owner = NULL, lease_expires_at = 0, "
            f"available_at = {mark} WHERE message_id = {mark}"
        ),
    )


def leased_message(
    message_id: str, m: NewMessage, owner: str, until: float
) -> tuple[tuple[Any, ...], Message]:
    """The parameters of `Statements.insert_leased_message`, and the message it writes."""
    values = (
        message_id, m.queue, m.payload, m.available_at, m.idempotency_key, owner, until,
        m.available_at,
    )  # fmt: skip
    message = Message(
        message_id=message_id, queue=m.queue, payload=m.payload, deliveries=1,
        lease_owner=owner, lease_expires_at=until,
    )  # fmt: skip
    return values, message


def purge_run_statements(mark: str, *, keep_input: bool = False) -> tuple[str, ...]:
    """Statements (one run-id parameter each) that delete a run's content.

    Ids, slots, names, statuses and timestamps stay; with `keep_input` the run's input
    too (in its row and its `run_created` event), and its labels with it.
    """
    if keep_input:
        return (
            f"UPDATE tether_runs SET output = NULL, error = NULL WHERE run_id = {mark}",
            f"UPDATE tether_events SET payload = NULL WHERE run_id = {mark} "
            "AND event_type <> 'run_created'",
            f"DELETE FROM tether_stream_chunks WHERE run_id = {mark}",
        )
    return (
        # The input's digest goes too: a digest of a guessable input reveals it.
        f"UPDATE tether_runs SET input = NULL, output = NULL, error = NULL, "
        f"input_digest = NULL WHERE run_id = {mark}",
        f"UPDATE tether_events SET payload = NULL WHERE run_id = {mark}",
        f"DELETE FROM tether_stream_chunks WHERE run_id = {mark}",
        *_purge_labels(mark),
    )


def _purge_labels(mark: str) -> tuple[str, ...]:
    # A label may name whom the input was about (an owner): it goes with the input.
    return (
        f"UPDATE tether_runs SET labels = NULL WHERE run_id = {mark}",
        f"DELETE FROM tether_run_labels WHERE run_id = {mark}",
    )
