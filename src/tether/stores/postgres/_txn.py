"""Rows of the workflow tables and `_Txn`, the `ViewTxn` the shared rules run on."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg
from psycopg import errors as pg_errors

from ..._ids import new_ulid
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
)
from ._fast import KnownRun
from ._notify import QueueEchoes, channels, notify_statement
from ._run_updates import MANY_STAMPS, UPDATE_RUN, coalesced
from ._txn_reads import (
    _ENQUEUE,
    _EVENT_SELECT,
    _HOOK_BY_TOKEN,
    _LOG_OF_TOKEN,
    _LOGS,
    _LOGS_OF_CLAIMABLE,
    _MANY_RUNS_WITH_ACTIVE_STEPS,
    _REPLAY_SELECT,
    _RUN_OF_TOKEN,
    _RUN_WITH_ACTIVE_STEPS,
)

Conn = psycopg.Connection[Any]

_SQL = rows.statements("%s")
# A run row's writes return its new version stamp (xmin) for the one-round-trip commit.
_INSERT_RUN = _SQL.insert_run + " RETURNING xmin::text"
_UPDATE_RUN = UPDATE_RUN
_RUN_WIDTH = len(rows.RUN_COLS.split(", "))


def _events(conn: Conn, run_id: str, after: int, limit: int | None) -> list[EventRecord]:
    found = conn.execute(
        f"SELECT {_EVENT_SELECT} FROM tether_events WHERE run_id = %s AND slot > %s "
        "ORDER BY slot LIMIT %s",
        (run_id, after, limit),
    ).fetchall()
    return [rows.event_from_row(r) for r in found]


@dataclass(frozen=True, slots=True)
class Returning:
    """A held write whose one value is wanted (`_Txn.hold_returning`)."""

    refusal: Exception
    take: Callable[[Any], None]


class _Txn:
    """`ViewTxn` over one connection inside a write transaction.

    It also collects what the transaction must announce; `notify()` sends it just
    before COMMIT, so listeners hear of a write only once it is visible.
    """

    def __init__(
        self,
        conn: Conn,
        now: float,
        hook_retention: float,
        held_logs: Mapping[str, int] | None = None,
    ) -> None:
        self.c = conn
        #: Runs whose log the claimer holds up to a slot: their logs are read after it.
        self.held_logs: Mapping[str, int] = held_logs or {}
        #: The server's clock when the transaction began: the rules' "now", so leases,
        #: deliveries and heartbeats are all measured on the one clock every host shares.
        self.now = now
        self.hook_retention = hook_retention
        self.queues: set[str] = set()
        self.finished: set[str] = set()
        self.streams: set[str] = set()
        # Write-behind: the rules' writes are buffered and sent together in one pipeline
        # before COMMIT (`flush`), so a step commit costs a few round trips, not one per
        # statement. Reads see this transaction's own writes through the overlays (runs,
        # steps) or by flushing first (everything else).
        self._writes: list[tuple[str, Any, str | Exception | Returning | None]] = []
        self._runs: dict[str, RunRecord] = {}
        self._steps: dict[tuple[str, str], StepRecord] = {}
        # Runs whose unfinished steps `_steps` holds all of (read with the run, or new),
        # those known to hold no hook, and the stamp of each run row this transaction
        # wrote: together, `known()`.
        self._complete: set[str] = set()
        self._hookless: set[str] = set()
        self._stamps: dict[str, str] = {}
        # Read ahead for a batch (`prefetch`): run rows as read (None: no such run) and
        # whole logs, kept current by this transaction's own inserts.
        self._loaded: dict[str, RunRecord | None] = {}
        self._logs: dict[str, list[EventRecord]] = {}
        # Events this transaction inserted for runs whose log it does not hold: a run it
        # then inserts (new, so no event of it is older) has exactly those as its log.
        self._unheld: dict[str, list[EventRecord]] = {}
        # Answers to `get_hook_by_token` read ahead (`take_hook_ahead`), in the order the
        # rules ask for them.
        self._hook_answers: dict[str, list[HookRecord | None]] = {}
        self._step_slots = rows.StepSlots()
        #: The cursor of a statement sent with the BEGIN for `fn` (`_in_txn`'s `lead`).
        self.lead: psycopg.Cursor[Any] | None = None

    @staticmethod
    def hook_ahead(
        token: str, *, log: bool, held_logs: Mapping[str, int] | None = None
    ) -> list[tuple[str, Any]]:
        """The reads of a hook payload (`_logic.resume_hook_and_claim`), to send ahead.

        The hook, then its run locked (with its unfinished steps), then the hook again
        under that lock, and with `log` the run's log: in one round trip with the
        transaction's first statements instead of one each. `take_hook_ahead` keeps them.
        """
        found: list[tuple[str, Any]] = [
            (_HOOK_BY_TOKEN, (token,)),
            (_RUN_OF_TOKEN, (token,)),
            (_HOOK_BY_TOKEN, (token,)),
        ]
        if log:
            held = orjson.dumps(held_logs or {}).decode()
            ended = sorted(TERMINAL_RUN_STATUSES)
            found.append((_LOG_OF_TOKEN, {"t": token, "k": held, "ended": ended}))
        return found

    @staticmethod
    def run_ahead(run_id: str) -> tuple[str, Any]:
        """The read of `get_run`, to send with the BEGIN as a `lead` (`take_run_ahead`)."""
        return _RUN_WITH_ACTIVE_STEPS, (run_id,)

    def take_run_ahead(self, run_id: str) -> None:
        """Keep what the `lead` sent as `run_ahead(run_id)` read: `get_run` reads no more."""
        assert self.lead is not None
        self._take_runs(self.lead.fetchall())
        self._loaded.setdefault(run_id, None)

    def take_hook_ahead(self, token: str, cursors: Sequence[psycopg.Cursor[Any]]) -> None:
        """Keep what the statements of `hook_ahead` returned, as far as it is consistent.

        The rules read the hook, lock its run, and read the hook again under that lock.
        Ahead, the run locked is the one the hook named when the lock statement ran:
        the answers stand for the rules' reads only when it is the run the first read
        named. Otherwise (the hook moved in between) the rules read again as usual.
        """
        before_row, locked_cur, again_cur, *log = cursors
        before = before_row.fetchone()
        locked = locked_cur.fetchall()
        again = again_cur.fetchone()
        hook = None if before is None else rows.hook_from_row(before)
        if hook is None:
            self._hook_answers[token] = [None]
            return
        if not locked or locked[0][0] != hook.run_id:
            self._hook_answers[token] = [hook]
            return
        self._take_runs(locked)
        after = None if again is None else rows.hook_from_row(again)
        self._hook_answers[token] = [hook, after]
        if log and after is not None and after.run_id == hook.run_id:
            # Read under the run's lock, after the hook was seen still on it: the whole
            # log, kept current by this transaction's own inserts. Not read when the run
            # could not be claimed: the rules, with this transaction's earlier clock,
            # find it unclaimable too, and read none.
            found = log[0].fetchall()
            if found and found[0][0]:
                self._logs[hook.run_id] = [
                    rows.event_from_row(r[1:]) for r in found if r[1] is not None
                ]

    def _later(self, sql: str, params: Sequence[Any], stamp_of: str | None = None) -> None:
        self._writes.append((sql, params, stamp_of))

    def hold(self, sql: str, params: Any, refusal: Exception | None = None) -> None:
        """Buffer a write whose result nobody reads; it goes out with the next statement.

        With `refusal`, the write fails on the server when it cannot be done, by a
        division by zero (the next statement may be the COMMIT: a refusal seen only
        once the round trip returned would come after it); `refusal` is raised for it.
        The transaction then rolls back, as it would had it been raised at once.
        """
        self._writes.append((sql, params, refusal))

    def hold_returning(
        self, sql: str, params: Any, refusal: Exception, take: Callable[[Any], None]
    ) -> None:
        """`hold` a write with a refusal that returns one value, given to `take`.

        `take` is called once the round trip that carried the write has returned (the
        value stands only if the transaction then commits).
        """
        self._writes.append((sql, params, Returning(refusal, take)))

    def hold_stamped(self, sql: str, params: Any, run_id: str) -> None:
        """`hold` a write of `run_id`'s row that returns its new stamp (`stamp_of`)."""
        self._writes.append((sql, params, run_id))

    def stamp_of(self, run_id: str) -> str | None:
        """The stamp a write of this transaction returned for the run's row."""
        return self._stamps.get(run_id)

    def send_held(self) -> list[tuple[object, psycopg.Cursor[Any]]]:
        """Send the buffered writes (inside a pipeline); `take_stamps` after its sync."""
        writes, self._writes = self._writes, []
        # What each result is for: a run's stamp (its id), `MANY_STAMPS`, or a refusal.
        stamped: list[tuple[object, psycopg.Cursor[Any]]] = []
        for sql, params, stamp_of in coalesced(writes):
            cursor = self.c.execute(sql, params)
            if stamp_of is not None:
                stamped.append((stamp_of, cursor))
        return stamped

    def take_stamps(self, stamped: list[tuple[object, psycopg.Cursor[Any]]]) -> None:
        for key, cursor in stamped:
            if key is MANY_STAMPS:
                self._stamps.update((str(r), str(x)) for r, x in cursor.fetchall())
                continue
            row = cursor.fetchone()
            if isinstance(key, Exception):
                if row is None:
                    raise key
            elif isinstance(key, Returning):
                if row is None:
                    raise key.refusal
                key.take(row[0])
            elif row is not None:
                self._stamps[str(key)] = str(row[0])

    @contextlib.contextmanager
    def _behind_held(self) -> Iterator[None]:
        """A pipeline that sends the buffered writes first, then the block's statements."""
        refusals = [
            r.refusal if isinstance(r, Returning) else r
            for _, _, r in self._writes
            if isinstance(r, Exception | Returning)
        ]
        try:
            with self.c.pipeline():
                stamped = self.send_held()
                yield
        except pg_errors.DivisionByZero:
            # How a held write with a refusal fails on the server (`hold`).
            if refusals:
                raise refusals[0] from None
            raise
        self.take_stamps(stamped)

    def flush(self, *then: tuple[str, Sequence[Any]]) -> None:
        """Send the buffered writes, then `then`, in one pipeline: one round trip."""
        if not self._writes and not then:
            return
        with self._behind_held():
            for sql, params in then:
                self.c.execute(sql, params)

    def read_many(self, statements: Sequence[tuple[str, Any]]) -> list[psycopg.Cursor[Any]]:
        """Run statements whose results are read, behind the buffered writes: one round trip."""
        with self._behind_held():
            cursors = [self.c.execute(sql, params) for sql, params in statements]
        return cursors

    def known(self) -> list[KnownRun]:
        """What each run row written here holds once the transaction commits."""
        return [
            KnownRun(
                stamp=stamp,
                run=self._runs[run_id],
                steps={
                    sid: s
                    for (rid, sid), s in self._steps.items()
                    if rid == run_id and s.status not in TERMINAL_STEP_STATUSES
                },
                hookless=run_id in self._hookless,
            )
            for run_id, stamp in self._stamps.items()
            if run_id in self._complete and run_id in self._runs
        ]

    def read(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        """Run a statement whose result is read: behind the buffered writes, one round trip."""
        if not self._writes:
            return self.c.execute(sql, params)
        with self._behind_held():
            cursor = self.c.execute(sql, params)
        return cursor

    _read = read

    def finish(self, namespace: str, echoes: QueueEchoes | None = None) -> list[tuple[str, str]]:
        """Send what is buffered, the transaction's notifications and COMMIT together.

        One round trip. Listeners hear of the write only once it is visible: a NOTIFY
        is delivered at commit. Returns the notes this process's own waiters are still
        to be told of: with `echoes`, those of the queues are told here, by this thread,
        and the notifications heard back of them dropped (`QueueEchoes`).
        """
        queue_ch, run_ch, stream_ch = channels(namespace)
        queues = sorted(self.queues)
        notes = [(queue_ch, q) for q in queues]
        notes += [(run_ch, r) for r in sorted(self.finished)]
        notes += [(stream_ch, s) for s in sorted(self.streams)]
        then = [notify_statement(notes)] if notes else []
        if echoes is None:
            self.flush(*then, ("COMMIT", ()))
            return notes
        echoes.sending(queues)
        try:
            self.flush(*then, ("COMMIT", ()))
        except BaseException:
            echoes.failed(queues)
            raise
        echoes.sent(queues)
        return notes[len(queues) :]

    def get_run(self, run_id: str) -> RunRecord | None:
        known = self._runs.get(run_id)
        if known is not None:
            return known
        if run_id in self._loaded:
            return self._loaded[run_id]
        # Writers lock the run: concurrent writes to one run serialize here. Its steps
        # still in progress come along in the same round trip: a step commit reads the
        # step it completes next.
        self._take_runs(self._read(_RUN_WITH_ACTIVE_STEPS, (run_id,)).fetchall())
        return self._loaded.setdefault(run_id, None)

    def _take_runs(self, found: Sequence[Any]) -> None:
        for row in found:
            run_id = row[0]
            if run_id not in self._loaded:
                self._loaded[run_id] = rows.run_from_row(row[:_RUN_WIDTH])
                self._complete.add(run_id)
                if row[_RUN_WIDTH]:
                    self._hookless.add(run_id)
            if row[_RUN_WIDTH + 1] is not None:
                step = rows.step_from_row(row[_RUN_WIDTH + 1 :])
                self._steps.setdefault((step.run_id, step.step_id), step)

    def prefetch(self, run_ids: Sequence[str], *, events: bool) -> None:
        """Lock and read these runs (and their logs) in one round trip.

        Without `events`, the logs of those a claim would take now (not ended, no live
        lease: `_logic.claim_messages` reads exactly those next) come along too, read
        once the runs are locked, so nothing appends to them meanwhile. The rules still
        decide which runs are claimed; a log read here for one they leave is unused, one
        they claim without its log here is read then.
        """
        wanted = sorted({r for r in run_ids if r not in self._runs and r not in self._loaded})
        logs = sorted({r for r in run_ids if r not in self._logs})
        if wanted:
            statements: list[tuple[str, Any]] = [(_MANY_RUNS_WITH_ACTIVE_STEPS, (wanted,))]
            if events:
                statements.append((_LOGS, self._known_heads(logs)))
            else:
                terminal = sorted(TERMINAL_RUN_STATUSES)
                statements.append(
                    (_LOGS_OF_CLAIMABLE, (*self._known_heads(wanted), wanted, terminal, self.now))
                )
            locked, found = self.read_many(statements)
            self._take_runs(locked.fetchall())
            for run_id in wanted:
                self._loaded.setdefault(run_id, None)
            self._take_logs(logs if events else [], found.fetchall())
        elif events and logs:
            self._take_logs(logs, self._read(_LOGS, self._known_heads(logs)).fetchall())

    def _known_heads(self, run_ids: Sequence[str]) -> tuple[list[str], list[int]]:
        return list(run_ids), [self.held_logs.get(r, 0) for r in run_ids]

    def _take_logs(self, run_ids: Sequence[str], found: Sequence[Any]) -> None:
        # Every run named gets a log (maybe empty); a run found without being named (read
        # ahead for a claim) gets the events found for it.
        for run_id in run_ids:
            self._logs[run_id] = []
        for row in found:
            log = self._logs.get(row[0])
            if log is None:
                log = self._logs[row[0]] = []
            log.append(rows.event_from_row(row))

    def insert_run(self, r: RunRecord) -> None:
        self._runs[r.run_id] = r
        self._logs.setdefault(r.run_id, []).extend(self._unheld.pop(r.run_id, ()))
        self._complete.add(r.run_id)
        self._hookless.add(r.run_id)
        self._later(_INSERT_RUN, rows.run_values(r), r.run_id)
        for label in rows.label_values(r):
            self._later(_SQL.insert_label, label)

    def update_run(self, r: RunRecord) -> None:
        self._runs[r.run_id] = r
        self._drop_overwritten(r.run_id)
        self._later(_UPDATE_RUN, rows.run_update_values(r), r.run_id)
        if r.status in TERMINAL_RUN_STATUSES:
            self.finished.add(r.run_id)

    def _drop_overwritten(self, run_id: str) -> None:
        """Drop a held update of `run_id`'s row that the one about to be held overwrites.

        An update sets every mutable column of the row from the rules' copy, so the
        later one leaves the row as both would (an admission that claims its run wrote
        it twice). Only past held inserts of other tables: a statement that may read the
        run's row (or be refused by what it holds) must see the earlier update first.
        """
        writes = self._writes
        for i in range(len(writes) - 1, -1, -1):
            sql, _, what = writes[i]
            if sql is _UPDATE_RUN and what == run_id:
                del writes[i]
                return
            if not (sql.startswith("INSERT INTO") and "tether_runs" not in sql and what is None):
                return

    def insert_event(self, e: EventRecord) -> None:
        self._later(_SQL.insert_event, rows.event_values(e))
        self._step_slots.saw(e)
        log = self._logs.get(e.run_id)
        if log is None:
            log = self._unheld.setdefault(e.run_id, [])
        log.append(e)

    def list_events(self, run_id: str) -> list[EventRecord]:
        log = self._logs.get(run_id)
        if log is not None:
            return list(log)
        # Behind the buffered writes (this transaction's events among them): one trip.
        found = self._read(
            f"SELECT {_REPLAY_SELECT} FROM tether_events WHERE run_id = %s AND slot > %s "
            "ORDER BY slot",
            (run_id, self.held_logs.get(run_id, 0)),
        ).fetchall()
        return [rows.event_from_row(r) for r in found]

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        # The partial unique index `tether_events_one_creation` refuses a second creation
        # event when the buffered insert reaches the server; the transaction then fails
        # with ConflictError, as the rules would have raised. No round trip here.
        return False

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        known = self._steps.get((run_id, step_id))
        if known is not None:
            return known
        row = self._read(
            f"SELECT {rows.STEP_COLS} FROM tether_steps WHERE run_id = %s AND step_id = %s",
            (run_id, step_id),
        ).fetchone()
        return None if row is None else rows.step_from_row(row)

    def insert_step(self, s: StepRecord) -> None:
        self._steps[(s.run_id, s.step_id)] = s
        self._later(_SQL.insert_step, self._step_slots.insert_values(s))

    def update_step(self, s: StepRecord) -> None:
        self._steps[(s.run_id, s.step_id)] = s
        self._later(_SQL.update_step, self._step_slots.update_values(s))

    def get_wait(self, run_id: str, wait_id: str) -> WaitRecord | None:
        row = self._read(
            f"SELECT {rows.WAIT_COLS} FROM tether_waits WHERE run_id = %s AND wait_id = %s",
            (run_id, wait_id),
        ).fetchone()
        return None if row is None else rows.wait_from_row(row)

    def put_wait(self, w: WaitRecord) -> None:
        self._later(
            f"INSERT INTO tether_waits ({rows.WAIT_COLS}) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (run_id, wait_id) DO UPDATE SET completed = excluded.completed",
            (w.run_id, w.wait_id, w.slot, w.resume_at, w.completed),
        )

    def get_hook_by_token(self, token: str) -> HookRecord | None:
        answers = self._hook_answers.get(token)
        if answers:
            return answers.pop(0)
        row = self._read(
            f"SELECT {rows.HOOK_COLS} FROM tether_hooks WHERE token = %s", (token,)
        ).fetchone()
        return None if row is None else rows.hook_from_row(row)

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        found = self._read(
            f"SELECT {rows.HOOK_COLS} FROM tether_hooks WHERE run_id = %s "
            f"AND {rows.HOOK_ACTIVE} ORDER BY slot",
            (run_id,),
        ).fetchall()
        return [rows.hook_from_row(r) for r in found]

    def active_children(self, run_id: str) -> list[str]:
        return [str(r[0]) for r in self._read(_SQL.active_children, (run_id,)).fetchall()]

    def insert_hook(self, h: HookRecord) -> None:
        self._hookless.discard(h.run_id)
        self._later(_SQL.insert_hook, rows.hook_values(h))

    def update_hook(self, h: HookRecord) -> None:
        # A hook moved to another run (continue-as-new) is that run's now: its end must
        # dispose of it, so the one-round-trip path may not assume it holds none.
        self._hookless.discard(h.run_id)
        self._later(_SQL.update_hook, rows.hook_update_values(h))

    def delete_hook(self, hook_id: str) -> None:
        self._later("DELETE FROM tether_hooks WHERE hook_id = %s", (hook_id,))

    def last_run_of_chain(self, chain_id: str) -> str | None:
        row = self._read(_SQL.last_of_chain, (chain_id,)).fetchone()
        return None if row is None else str(row[0])

    def enqueue(self, m: NewMessage, now: float) -> str:
        row = self._read(
            f"{_ENQUEUE} RETURNING message_id",
            (new_ulid("msg_"), m.queue, m.payload, m.available_at, m.idempotency_key, now),
        ).fetchone()
        assert row is not None  # RETURNING of an upsert always yields the row
        self.queues.add(m.queue)
        return str(row[0])

    def enqueue_quiet(self, m: NewMessage, now: float) -> None:
        # Nothing read back: held with the transaction's other writes, it costs no
        # round trip of its own (a hook's payload to a running run, a start, a cancel).
        self._later(
            _ENQUEUE,
            (new_ulid("msg_"), m.queue, m.payload, m.available_at, m.idempotency_key, now),
        )
        self.queues.add(m.queue)

    def enqueue_leased(self, m: NewMessage, owner: str, until: float) -> Message:
        values, message = rows.leased_message(new_ulid("msg_"), m, owner, until)
        self._later(_SQL.insert_leased_message, values)
        return message

    def ack(self, message_id: str, owner: str) -> bool:
        # RETURNING, not rowcount: in pipeline mode rowcount is unknown until a sync.
        row = self._read(f"{_SQL.ack_message} RETURNING message_id", (message_id, owner)).fetchone()
        return row is not None

    def nack(self, message_id: str, owner: str, available_at: float) -> bool:
        row = self._read(
            "SELECT queue, idempotency_key FROM tether_queue WHERE message_id = %s "
            "AND lease_owner = %s FOR UPDATE",
            (message_id, owner),
        ).fetchone()
        if row is None:
            return False
        queue, key = row
        if available_at <= self.now:
            self.queues.add(queue)
        if key is not None and self._read(_SQL.pending_key, (queue, key)).fetchone():
            # A newer undelivered message carries the key; this one is redundant.
            self._later(_SQL.delete_message, (message_id,))
            return True
        self._later(_SQL.release_message, (available_at, message_id))
        return True

    def drop_pending(self, queue: str, idempotency_key: str) -> None:
        self._later(_SQL.drop_pending, (queue, idempotency_key))
