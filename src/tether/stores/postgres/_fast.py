"""The one-round-trip commit: a lease holder's commit computed from what it last wrote.

A run's commits come one after another from the process holding its lease. After each
write the store keeps a copy of the run's row and its unfinished steps (`KnownRun`),
stamped with the row's ``xmin``: the id of the transaction that wrote that row version.
Any later write to the row, by any process, gives it a new one, and every write to a
run's steps or log also writes its row (the shared rules end each change with
`update_run`), so an unchanged stamp means the whole copy is still current.

The next commit runs the shared rules on the copy (`plan`), with no read, and sends
what they write in one round trip, as one transaction: `tether_step_write` (migration
24; `tether_step_commit` of migration 5 and `tether_fast_commit` of migration 3 stay for
earlier releases) updates the run row only if its stamp is unchanged, raising
otherwise, then writes the events, updates the step that ends and inserts the step
that starts; it takes the lease's end from the server's clock at the write. A run's last
commit, which also acks its message, drops its spare wake-ups and announces its end,
calls `tether_step_end` (migration 13) instead, which does those too, in the same
statement. A commit with more than two events or steps sends the rest behind it in a
pipeline, which Postgres runs as one implicit transaction ended by its single Sync, so
the raise aborts them too. Other stores' writes that need no read of their own (stream
appends: `FastCommit.extra`) go behind it in the same way, each able to fail the whole
transaction on the server. A commit the copy cannot decide alone (a hook, a wait, a new
message, a child run or a parent, a successor, or any rule error) is left to the ordinary path,
which reads under a row lock and is the authority on every error.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import psycopg

from ...errors import TetherError
from .. import _logic
from .. import _rows as rows
from .._records import (
    TERMINAL_RUN_STATUSES,
    TERMINAL_STEP_STATUSES,
    Commit,
    CommitResult,
    EventRecord,
    HookRecord,
    RunRecord,
    StepRecord,
)
from ._notify import notify_statement

__all__ = [
    "FastCommit",
    "KnownRun",
    "RunCache",
    "Sent",
    "plan",
    "send",
    "send_many",
    "statements",
]

#: The run row, two events and two step rows (see migrations 3 and 4); more go after it.
_INLINE = 2
_EVENT_WIDTH = len(rows.EVENT_COLS.split(", ")) - 1  # without run_id
_STEP_WIDTH = len(rows.STEP_COLS.split(", ")) - 1
_UPDATE_WIDTH = 1 + len(rows.STEP_UPDATE_COLS)  # the step id, then its new state
#: The run row, two events, the step that ends and the step that starts (migration 24).
_FAST_COMMIT = "SELECT tether_step_write({})".format(
    ", ".join(
        ["%s"]
        * (2 + len(rows.RUN_UPDATE_COLS) + _INLINE * _EVENT_WIDTH + _UPDATE_WIDTH + _STEP_WIDTH)
    )
)
#: The same with a run's last commit's (or a park's) queue work and NOTIFY (migration
#: 24), for two events and the step that ends: at most 50 parameters, which psycopg
#: converts once per statement text (more, and it parses the text again on every call).
_FAST_END = "SELECT tether_step_finish({})".format(
    ", ".join(["%s"] * (2 + len(rows.RUN_UPDATE_COLS) + _INLINE * _EVENT_WIDTH + _UPDATE_WIDTH + 6))
)
_ACK = rows.statements("%s").ack_message
_DROP_PENDING = rows.statements("%s").drop_pending
_UPDATE_STEP = rows.statements("%s").update_step


@dataclass(frozen=True, slots=True, kw_only=True)
class KnownRun:
    """A run's row and unfinished steps as of the row version `stamp` (its xmin).

    `hookless` is True when the run is known to hold no hook: its end then disposes
    nothing. (Only the run's own commits create hooks, and they write its row.)
    """

    stamp: str
    run: RunRecord
    steps: Mapping[str, StepRecord]
    hookless: bool = False


def _held(known: KnownRun) -> int:
    """The payload bytes a copy holds: its run's and its unfinished steps' inputs, outputs."""
    records: list[RunRecord | StepRecord] = [known.run, *known.steps.values()]
    return sum(len(v) for r in records for v in (r.input, r.output, r.error) if v is not None)


class RunCache:
    """The `KnownRun` of each run this process holds, least recently used evicted.

    Bounded by count and by the payload bytes the copies hold (runs with large inputs).
    Only the event loop's thread touches it. An entry that is out of date costs one
    refused round trip, never a wrong write: the stamp check is on the server.
    """

    def __init__(self, size: int = 1024, max_bytes: int = 32 * 1024 * 1024) -> None:
        self._size = size
        self._max_bytes = max_bytes
        self._runs: OrderedDict[str, tuple[KnownRun, int]] = OrderedDict()
        self._bytes = 0

    def get(self, run_id: str) -> KnownRun | None:
        found = self._runs.get(run_id)
        if found is None:
            return None
        self._runs.move_to_end(run_id)
        return found[0]

    def put(self, known: KnownRun) -> None:
        """Keep `known` if its run is unfinished.

        Leased, it commits again; parked, a wake-up by hook claims it from the copy
        (`_ring`).
        """
        run = known.run
        self.drop(run.run_id)
        if run.status in TERMINAL_RUN_STATUSES:
            return
        held = _held(known)
        self._runs[run.run_id] = (known, held)
        self._bytes += held
        while len(self._runs) > self._size or (self._bytes > self._max_bytes and self._runs):
            _, (_, gone) = self._runs.popitem(last=False)
            self._bytes -= gone

    def drop(self, run_id: str) -> None:
        found = self._runs.pop(run_id, None)
        if found is not None:
            self._bytes -= found[1]


class _Undecided(Exception):
    """The rules asked for something the copy does not hold: take the ordinary path."""


class _CopyTxn:
    """`ViewTxn` over a `KnownRun`: reads come from the copy, writes are collected."""

    def __init__(self, known: KnownRun) -> None:
        #: Only a run that holds no hook ends on the copy: nothing is retained there.
        self.hook_retention = 0.0
        self.run: RunRecord | None = None
        self.events: list[EventRecord] = []
        self.steps: dict[str, StepRecord] = {}
        #: The ids of `steps` this commit creates (the rest it updates).
        self.new_steps: set[str] = set()
        self.acks: list[tuple[str, str]] = []
        self.drops: list[tuple[str, str]] = []
        self._known = known

    def get_run(self, run_id: str) -> RunRecord | None:
        if run_id != self._known.run.run_id:
            raise _Undecided
        return self._known.run if self.run is None else self.run

    def update_run(self, r: RunRecord) -> None:
        # Only this run: a parent learning of its child's end takes the ordinary path.
        if r.run_id != self._known.run.run_id:
            raise _Undecided
        self.run = r

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        if run_id != self._known.run.run_id or not self._known.hookless:
            raise _Undecided
        return []

    def ack(self, message_id: str, owner: str) -> bool:
        # The rules ignore whether the message was still there: so does the copy.
        self.acks.append((message_id, owner))
        return True

    def drop_pending(self, queue: str, idempotency_key: str) -> None:
        self.drops.append((queue, idempotency_key))

    def insert_event(self, e: EventRecord) -> None:
        self.events.append(e)

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        # As on the ordinary path, the partial unique index refuses a second creation
        # event; the commit then fails with ConflictError.
        return False

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        step = self.steps.get(step_id) or self._known.steps.get(step_id)
        if step is None:
            raise _Undecided  # finished long ago, or never created: let a read tell
        return step

    def insert_step(self, s: StepRecord) -> None:
        if s.step_id in self.steps or s.step_id in self._known.steps:
            raise _Undecided  # a step id taken twice: the ordinary path refuses it
        self.steps[s.step_id] = s
        self.new_steps.add(s.step_id)

    def update_step(self, s: StepRecord) -> None:
        self.steps[s.step_id] = s

    def _undecided(self, *_: Any) -> Any:
        raise _Undecided

    insert_run = list_events = get_wait = put_wait = get_hook_by_token = _undecided
    insert_hook = update_hook = delete_hook = enqueue = enqueue_quiet = _undecided
    enqueue_leased = _undecided
    active_children = nack = last_run_of_chain = _undecided

    def prefetch(self, run_ids: Sequence[str], *, events: bool) -> None:
        raise _Undecided


@dataclass(frozen=True, slots=True, kw_only=True)
class FastCommit:
    """A commit decided on a `KnownRun`, ready to send."""

    result: CommitResult
    seen: str
    run: RunRecord
    events: Sequence[EventRecord]
    steps: Mapping[str, StepRecord]
    #: The ids of `steps` this commit creates; the others exist and are updated.
    new_steps: frozenset[str]
    active: Mapping[str, StepRecord]
    acks: Sequence[tuple[str, str]]
    drops: Sequence[tuple[str, str]]
    hookless: bool
    lease_seconds: float | None
    #: Statements of other stores' writes sent behind the run's, in its transaction
    #: (see `send_many`): each returns one row, or raises to roll the commit back.
    extra: tuple[tuple[str, Mapping[str, Any]], ...] = ()

    @property
    def finished(self) -> bool:
        """The run ends with this commit: waiters on it must be woken."""
        return self.run.status in TERMINAL_RUN_STATUSES

    def known(self, stamp: str) -> KnownRun:
        """What the run holds once this commit is written as row version `stamp`."""
        return KnownRun(stamp=stamp, run=self.run, steps=self.active, hookless=self.hookless)


def plan(known: KnownRun, commit: Commit, now: float) -> FastCommit | None:
    """Decide `commit` on the copy, or None when the ordinary path must decide it."""
    if commit.start_runs or commit.enqueue or commit.continuation is not None:
        return None
    txn = _CopyTxn(known)
    try:
        result = _logic.apply_commit(txn, commit, now)
    except (_Undecided, TetherError):
        # A rule error found on the copy may be an artefact of an outdated copy; the
        # ordinary path reads the truth and raises it if it holds.
        return None
    if txn.run is None:
        return None
    active = {
        sid: s
        for sid, s in {**known.steps, **txn.steps}.items()
        if s.status not in TERMINAL_STEP_STATUSES
    }
    return FastCommit(
        result=result,
        seen=known.stamp,
        run=txn.run,
        events=tuple(txn.events),
        steps=txn.steps,
        new_steps=frozenset(txn.new_steps),
        active=active,
        acks=tuple(txn.acks),
        drops=tuple(txn.drops),
        hookless=known.hookless,
        lease_seconds=commit.lease_seconds,
    )


@cache
def _insert_events(n: int) -> str:
    row = "(" + ", ".join(["%s"] * len(rows.EVENT_COLS.split(", "))) + ")"
    return f"INSERT INTO tether_events ({rows.EVENT_COLS}) VALUES " + ", ".join([row] * n)


def _update_params(values: Sequence[Any] | None) -> list[Any]:
    """The ``u_`` parameters of `tether_step_write`: the step id, then its new state."""
    if values is None:
        return [None] * _UPDATE_WIDTH
    return [values[-1], *values[:-2]]


@cache
def _insert_steps(n: int) -> str:
    # Plain inserts: the stamp check ahead of this statement guarantees the copy the
    # rules decided on knew which steps exist, and a step id taken twice is refused.
    row = "(" + ", ".join(["%s"] * len(rows.STEP_COLS.split(", "))) + ")"
    return f"INSERT INTO tether_steps ({rows.STEP_COLS}) VALUES " + ", ".join([row] * n)


def statements(
    fast: FastCommit, notes: Sequence[tuple[str, str]]
) -> list[tuple[str, Sequence[Any]]]:
    """The statements that write `fast` and send `notes`, in order.

    The first one (`tether_step_write`, or `tether_step_end` for a run's end or a
    park that creates no step: its ack, the drop of its spare wake-ups and its NOTIFY in
    the same statement)
    returns the run row's new stamp, or raises when the row changed since the copy was
    taken; the rest return nothing read.
    """
    events, steps = list(fast.events), list(fast.steps.values())
    created = [s for s in steps if s.step_id in fast.new_steps]
    updated = [s for s in steps if s.step_id not in fast.new_steps]
    slots = rows.StepSlots()
    for e in events:
        slots.saw(e)
    inserts = [slots.insert_values(s) for s in created]
    updates = [slots.update_values(s) for s in updated]
    params: list[Any] = [fast.run.run_id, fast.seen, *rows.run_update_values(fast.run)[:-1]]
    # The function sets the lease from the server's clock, `lease_seconds` from the write.
    params[2 + rows.RUN_UPDATE_COLS.index("lease_expires_at")] = fast.lease_seconds
    for k in range(_INLINE):
        params += rows.event_values(events[k])[1:] if k < len(events) else [None] * _EVENT_WIDTH
    more_events = events[_INLINE:]
    extras = (fast.acks, fast.drops, notes)
    if (
        any(extras)
        and not more_events
        and not created
        and len(updated) <= 1
        and all(len(extra) <= 1 for extra in extras)
    ):
        params += _update_params(updates[0] if updates else None)
        for extra in extras:
            params += extra[0] if extra else (None, None)
        return [(_FAST_END, params)]
    params += _update_params(updates[0] if updates else None)
    params += inserts[0][1:] if inserts else [None] * _STEP_WIDTH
    out: list[tuple[str, Sequence[Any]]] = [(_FAST_COMMIT, params)]
    more_created, more_updated = inserts[1:], updates[1:]
    if more_events:
        out.append(
            (
                _insert_events(len(more_events)),
                [v for e in more_events for v in rows.event_values(e)],
            )
        )
    out += [(_UPDATE_STEP, values) for values in more_updated]
    if more_created:
        out.append((_insert_steps(len(more_created)), [v for i in more_created for v in i]))
    out += [(_ACK, (message_id, owner)) for message_id, owner in fast.acks]
    out += [(_DROP_PENDING, (queue, key)) for queue, key in fast.drops]
    if notes:
        out.append(notify_statement(notes))
    return out


#: What a sent commit returns: the run row's new stamp, and the first value of the row
#: each of its `extra` statements returned.
Sent = tuple[str, tuple[Any, ...]]


async def send(
    conn: psycopg.AsyncConnection[Any], fast: FastCommit, notes: Sequence[tuple[str, str]]
) -> Sent:
    """Write `fast` and send `notes` (channel, payload) in one round trip.

    Returns the run row's new stamp and what its `extra` statements returned.
    Listeners hear the notes only once the write commits, as on the ordinary path.

    Raises:
        psycopg.errors.SerializationFailure: The run changed since the copy was taken;
            nothing was written.
    """
    return (await send_many(conn, [(fast, notes)]))[0]


async def send_many(
    conn: psycopg.AsyncConnection[Any],
    batch: Sequence[tuple[FastCommit, Sequence[tuple[str, str]]]],
) -> list[Sent]:
    """Write each commit of `batch` (with its notes) in one transaction: one round trip.

    Returns what each commit returned (`Sent`), in order. All or nothing: the first
    statement that raises (a copy out of date, a refused extra) rolls the whole batch
    back.
    """
    # An autocommit connection sends no BEGIN: a lone statement is its own transaction,
    # and a pipeline's statements up to its one Sync are a single implicit transaction,
    # committed at the Sync or rolled back whole by the first error.
    assert conn.autocommit, "the one-round-trip commit needs an autocommit connection"
    plans = [statements(fast, notes) for fast, notes in batch]
    if len(plans) == 1 and len(plans[0]) == 1 and not batch[0][0].extra:
        row = await (await conn.execute(*plans[0][0])).fetchone()
        assert row is not None  # the function returns the stamp or raises
        return [(str(row[0]), ())]
    async with conn.pipeline():
        cursors = []
        for (fast, _), plan in zip(batch, plans, strict=True):
            first = await conn.execute(*plan[0])
            for sql, params in plan[1:]:
                await conn.execute(sql, params)
            cursors.append((first, [await conn.execute(sql, p) for sql, p in fast.extra]))
    sent: list[Sent] = []
    for first, extra in cursors:
        row = await first.fetchone()
        assert row is not None  # the function returns the stamp or raises
        values = []
        for cursor in extra:
            found = await cursor.fetchone()
            values.append(None if found is None else found[0])
        sent.append((str(row[0]), tuple(values)))
    return sent
