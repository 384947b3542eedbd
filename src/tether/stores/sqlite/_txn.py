"""`_Txn`, the `ViewTxn` over a SQLite connection the shared rules run on, and reads of the log.

On the writer, a `_Txn` reads the rows its writer kept (`SqliteDatabase.kept`) instead
of the file, and keeps what it reads and writes: a run's row, its unfinished steps, and
whether it holds no hook. A step's commit then reads nothing back: of the seven
statements a step's end and the next one's start took, the run's and the step's reads
go, and a run's end no longer looks for hooks it cannot hold. The log reads
(`_replay_log`, `_events`) run over a connection, in a transaction or not.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from ..._ids import new_ulid
from ...errors import ConflictError
from .. import _rows as rows
from .._records import (
    TERMINAL_RUN_STATUSES,
    TERMINAL_STEP_STATUSES,
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    RunRecord,
    StepRecord,
    WaitRecord,
    evolve,
)
from ._kept_rows import KeptRows

_SQL = rows.statements("?")
# A run's update that leaves its status and owner as they were assigns neither: SQLite
# rewrites an index's entry whenever a column of it is assigned, same value or not,
# and each commit of a step would dirty a page of `tether_runs_by_status` and one of
# `tether_runs_by_owner` (two of a step commit's seven pages in the WAL).
_INDEXED = ("status", "lease_owner")
_LEAN_COLS = tuple(i for i, c in enumerate(rows.RUN_UPDATE_COLS) if c not in _INDEXED)
_LEAN_RUN_UPDATE = (
    "UPDATE tether_runs SET "
    f"{rows.assignments(tuple(rows.RUN_UPDATE_COLS[i] for i in _LEAN_COLS), '?')} "
    "WHERE run_id = ?"
)


def _held(record: RunRecord | StepRecord) -> int:
    """The payload bytes a kept row holds (what bounds the writer's kept rows)."""
    return sum(len(v) for v in (record.input, record.output, record.error) if v is not None)


class _Txn:
    """`ViewTxn` over one SQLite connection inside the writer's transaction."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        hook_retention: float,
        kept: KeptRows | None = None,
    ) -> None:
        self.c = conn
        self.hook_retention = hook_retention
        # The writer's kept rows (see the module's docstring); private ones for a
        # transaction on any other connection, which last only as long as it.
        self._kept = KeptRows() if kept is None else kept
        # What the write means for waiters in this process, announced after COMMIT.
        self.ready_queues: set[str] = set()
        #: The final rows of the runs the write ended.
        self.finished: list[RunRecord] = []
        #: The runs the write created.
        self.created: list[str] = []
        #: Set by a claim: its logs are read after the commit (`_with_logs`), not in it.
        self.defer_logs = False
        self._runs: dict[str, RunRecord | None] = {}
        # Each run's head before this transaction (0: created in it), and the events it
        # appended (as inserted): the log after that head, known without a read.
        self._heads: dict[str, int] = {}
        self._appended: dict[str, list[tuple[Any, ...]]] = {}
        self._step_slots = rows.StepSlots()

    def get_run(self, run_id: str) -> RunRecord | None:
        # Every write to a run row in this transaction goes through this object, so a
        # row read or written once is known (a claim reads each run twice).
        if run_id in self._runs:
            return self._runs[run_id]
        run: RunRecord | None = self._kept.get(("run", run_id))
        if run is None:
            row = self.c.execute(
                f"SELECT {rows.RUN_COLS} FROM tether_runs WHERE run_id = ?", (run_id,)
            ).fetchone()
            run = None if row is None else rows.run_from_row(row)
            if run is not None and run.status not in TERMINAL_RUN_STATUSES:
                self._kept.put(("run", run_id), run, _held(run))
        self._runs[run_id] = run
        if run is not None:
            self._heads[run_id] = run.head
        return run

    def insert_run(self, r: RunRecord) -> None:
        if not r.chain_id:
            r = evolve(r, chain_id=r.run_id)  # as the row says (`run_values`), if kept
        self.c.execute(_SQL.insert_run, rows.run_values(r))
        if r.labels:
            self.c.executemany(_SQL.insert_label, rows.label_values(r))
        self._runs[r.run_id] = r
        self._heads[r.run_id] = 0
        self.created.append(r.run_id)
        self._keep_run(r)
        self._kept.put(("hookless", r.run_id), True)  # a hook is made by a later commit

    def update_run(self, r: RunRecord) -> None:
        values = rows.run_update_values(r)
        # Every rule reads a run (`get_run`) before it writes it: `before` is its row.
        before = self._runs.get(r.run_id)
        if before is not None and (before.status, before.lease_owner) == (
            r.status,
            r.lease_owner,
        ):
            self.c.execute(_LEAN_RUN_UPDATE, (*(values[i] for i in _LEAN_COLS), r.run_id))
        else:
            self.c.execute(_SQL.update_run, values)
        self._runs[r.run_id] = r
        self._keep_run(r)
        if r.status in TERMINAL_RUN_STATUSES:
            self.finished.append(r)

    def _keep_run(self, r: RunRecord) -> None:
        # An ended run is not written again (the rules refuse): its row need not stay.
        if r.status in TERMINAL_RUN_STATUSES:
            self._kept.drop(("run", r.run_id))
            self._kept.drop(("hookless", r.run_id))
        else:
            self._kept.put(("run", r.run_id), r, _held(r))

    def insert_event(self, e: EventRecord) -> None:
        values = rows.event_values(e)
        try:
            self.c.execute(_SQL.insert_event, values)
            self._appended.setdefault(e.run_id, []).append(values)
            self._step_slots.saw(e)
        except sqlite3.IntegrityError:
            # The unique index `tether_events_one_creation` refuses a second creation
            # event (see `has_creation`); the primary key a slot taken twice.
            raise ConflictError(
                f"run {e.run_id!r} already has a {e.event_type!r} event for "
                f"{e.correlation_id!r} (or slot {e.slot} is taken)"
            ) from None

    def list_events(self, run_id: str) -> list[EventRecord]:
        if self.defer_logs:
            return []
        written = self.written_log(run_id, 0)
        return _replay_log(self.c, run_id) if written is None else written

    def written_log(self, run_id: str, after: int) -> list[EventRecord] | None:
        """The run's log after slot `after` as a claim reads it, if written here; else None.

        It is when the run's head was `after` as this transaction began. The writer
        holds the database's write lock: what follows that head is exactly what this
        transaction appended, and reading it back would only return it.
        """
        if self._heads.get(run_id) != after:
            return None
        appended = self._appended.get(run_id, [])
        if [v[1] for v in appended] != list(range(after + 1, after + 1 + len(appended))):
            return None  # not contiguous from the head: let a read say what is there
        return [rows.event_from_row(rows.replay_values(v)) for v in appended]

    def prefetch(self, run_ids: Sequence[str], *, events: bool) -> None:
        """Nothing to read ahead: each read is a local call."""

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        # The unique index `tether_events_one_creation` refuses a second creation event
        # when it is inserted (`insert_event` raises ConflictError then, as the rules
        # would have): a lookup before every step's creation is a statement saved.
        return False

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        step: StepRecord | None = self._kept.get(("step", run_id, step_id))
        if step is not None:
            return step
        row = self.c.execute(
            f"SELECT {rows.STEP_COLS} FROM tether_steps WHERE run_id = ? AND step_id = ?",
            (run_id, step_id),
        ).fetchone()
        return None if row is None else rows.step_from_row(row)

    def insert_step(self, s: StepRecord) -> None:
        try:
            self.c.execute(_SQL.insert_step, self._step_slots.insert_values(s))
        except sqlite3.IntegrityError:
            # The steps' primary key: what makes a step's creation unique in its run.
            raise ConflictError(f"run {s.run_id!r} already has a step {s.step_id!r}") from None
        self._keep_step(s)

    def update_step(self, s: StepRecord) -> None:
        self.c.execute(_SQL.update_step, self._step_slots.update_values(s))
        self._keep_step(s)

    def _keep_step(self, s: StepRecord) -> None:
        # A finished step is read again only by a late duplicate, which a read serves.
        key = ("step", s.run_id, s.step_id)
        if s.status in TERMINAL_STEP_STATUSES:
            self._kept.drop(key)
        else:
            self._kept.put(key, s, _held(s))

    def get_wait(self, run_id: str, wait_id: str) -> WaitRecord | None:
        row = self.c.execute(
            f"SELECT {rows.WAIT_COLS} FROM tether_waits WHERE run_id = ? AND wait_id = ?",
            (run_id, wait_id),
        ).fetchone()
        return None if row is None else rows.wait_from_row(row)

    def put_wait(self, w: WaitRecord) -> None:
        self.c.execute(
            f"INSERT INTO tether_waits ({rows.WAIT_COLS}) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (run_id, wait_id) DO UPDATE SET completed = excluded.completed",
            (w.run_id, w.wait_id, w.slot, w.resume_at, int(w.completed)),
        )

    def get_hook_by_token(self, token: str) -> HookRecord | None:
        row = self.c.execute(
            f"SELECT {rows.HOOK_COLS} FROM tether_hooks WHERE token = ?", (token,)
        ).fetchone()
        return None if row is None else rows.hook_from_row(row)

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        if ("hookless", run_id) in self._kept:
            return []
        found = self.c.execute(
            f"SELECT {rows.HOOK_COLS} FROM tether_hooks WHERE run_id = ? AND {rows.HOOK_ACTIVE} "
            "ORDER BY slot",
            (run_id,),
        ).fetchall()
        if not found:
            self._kept.put(("hookless", run_id), True)
        return [rows.hook_from_row(r) for r in found]

    def active_children(self, run_id: str) -> list[str]:
        found = self.c.execute(_SQL.active_children, (run_id,)).fetchall()
        return [str(r[0]) for r in found]

    def insert_hook(self, h: HookRecord) -> None:
        self.c.execute(_SQL.insert_hook, rows.hook_values(h))
        self._kept.drop(("hookless", h.run_id))

    def update_hook(self, h: HookRecord) -> None:
        # It may have moved to `h.run_id` (a successor, a forced claim).
        self.c.execute(_SQL.update_hook, rows.hook_update_values(h))
        self._kept.drop(("hookless", h.run_id))

    def delete_hook(self, hook_id: str) -> None:
        self.c.execute("DELETE FROM tether_hooks WHERE hook_id = ?", (hook_id,))

    def last_run_of_chain(self, chain_id: str) -> str | None:
        row = self.c.execute(_SQL.last_of_chain, (chain_id,)).fetchone()
        return None if row is None else str(row[0])

    def enqueue_quiet(self, m: NewMessage, now: float) -> None:
        self.enqueue(m, now)

    def enqueue(self, m: NewMessage, now: float) -> str:
        if m.available_at <= now:
            self.ready_queues.add(m.queue)
        if m.idempotency_key is not None:
            row = self.c.execute(
                "SELECT message_id FROM tether_queue WHERE queue = ? AND idempotency_key = ? "
                "AND lease_owner IS NULL",
                (m.queue, m.idempotency_key),
            ).fetchone()
            if row is not None:
                self.c.execute(
                    "UPDATE tether_queue SET available_at = MIN(available_at, ?) "
                    "WHERE message_id = ?",
                    (m.available_at, row[0]),
                )
                return str(row[0])
        message_id = new_ulid("msg_")
        self.c.execute(
            "INSERT INTO tether_queue (message_id, queue, payload, available_at, idempotency_key, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (message_id, m.queue, m.payload, m.available_at, m.idempotency_key, now),
        )
        return message_id

    def enqueue_leased(self, m: NewMessage, owner: str, until: float) -> Message:
        values, message = rows.leased_message(new_ulid("msg_"), m, owner, until)
        self.c.execute(_SQL.insert_leased_message, values)
        return message

    def ack(self, message_id: str, owner: str) -> bool:
        return self.c.execute(_SQL.ack_message, (message_id, owner)).rowcount == 1

    def nack(self, message_id: str, owner: str, available_at: float) -> bool:
        row = self.c.execute(
            "SELECT queue, idempotency_key FROM tether_queue WHERE message_id = ? "
            "AND lease_owner = ?",
            (message_id, owner),
        ).fetchone()
        if row is None:
            return False
        queue, key = row
        if available_at <= time.time():
            self.ready_queues.add(queue)
        if key is not None and self.c.execute(_SQL.pending_key, (queue, key)).fetchone():
            # A newer undelivered message carries the key; this one is redundant.
            self.c.execute(_SQL.delete_message, (message_id,))
            return True
        self.c.execute(_SQL.release_message, (available_at, message_id))
        return True

    def drop_pending(self, queue: str, idempotency_key: str) -> None:
        self.c.execute(_SQL.drop_pending, (queue, idempotency_key))


def _replay_log(conn: sqlite3.Connection, run_id: str, after: int = 0) -> list[EventRecord]:
    """The log a claim hands to its replay: without the payloads a replay never reads."""
    found = conn.execute(
        f"SELECT {rows.REPLAY_EVENT_COLS} FROM tether_events WHERE run_id = ? AND slot > ? "
        "ORDER BY slot",
        (run_id, after),
    ).fetchall()
    return [rows.event_from_row(r) for r in found]


def _events(
    conn: sqlite3.Connection, run_id: str, after: int, limit: int | None
) -> list[EventRecord]:
    found = conn.execute(
        f"SELECT {rows.EVENT_COLS} FROM tether_events WHERE run_id = ? AND slot > ? "
        "ORDER BY slot LIMIT ?",
        (run_id, after, -1 if limit is None else limit),
    ).fetchall()
    return [rows.event_from_row(r) for r in found]
