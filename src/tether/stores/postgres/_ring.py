"""A message to an idle session in one round trip: its hook's payload, claimed at once.

A session parks on its inbox hook with its lease given back, and the worker that ran it
keeps its body warm and holds its log. A message admitted for it, by a client in that
worker's process (`tether serve` runs both), is `resume_hook_and_claim` with an
`AdmitSubmission`, fenced by the run and told the head the claimer holds. On the
ordinary path that is a transaction of two round trips on a thread: the reads (the
ledger's, the hook's, the run's under its lock), then what the rules write.

The plain case needs no decision the server cannot make: the submission is new (nor is
the `unless` one in the ledger), the hook is the run's, the run is running at the head
its claimer holds, in its queue, with no live lease. `tether_ring_claim`
(`_functions`) checks exactly that under the same locks, in the same order, and writes
what the rules would: the submission, the `hook_received` event at the next slot, the
wake-up delivered to the claimer and the run's row leased to it. One statement on the
event loop, with the run's unfinished steps read behind it in the same implicit
transaction, so the claimer's copy of the run is complete (`KnownRun`) and its first
commit is a one-round-trip one too. Anything else raises before a row is written (the
ledger's check is first), and the caller takes the ordinary path, which decides it and
raises its errors: a replay, a conflict, a closing session, a hook moved on, a run
ended, leased or pending.

A caller that names the run (a session's message fenced by the run its client read)
takes `tether_ring_wake` instead: scalar parameters, and when the store holds the run's
row from its park (`RunCache`), the claim of that row version only, so the claimer's
copy is that row with what the function changed and nothing is read behind it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from ..._ids import new_ulid
from ..._validate import check_identifier
from .. import _ledger
from .. import _ledger_rows as ledger_rows
from .. import _rows as rows
from .._records import Claim, EventRecord, HookRecord, Message, StepRecord, evolve
from .._view import wake_message
from .._writes import AdmitSubmission, StoreWrite
from ._fast import KnownRun
from ._functions import _SUBMISSION_TYPES, UNDECIDED
from ._submissions import lock_key
from ._txn_reads import _RUNS_WITH_ACTIVE_STEPS

__all__ = ["RingClaim", "RingPlan", "plan", "send"]

_RING = "SELECT * FROM tether_ring_claim({})".format(
    ", ".join(["%s"] * (len(_SUBMISSION_TYPES) + 12))
)
_WAKE = "SELECT * FROM tether_ring_wake({})".format(
    ", ".join(["%s"] * (len(_SUBMISSION_TYPES) + 13))
)
# The run as the function left it, with its unfinished steps: read in the same implicit
# transaction (no lock needed: the function holds the row's).
_RUN = _RUNS_WITH_ACTIVE_STEPS.format(
    "= (SELECT run_id FROM tether_hooks WHERE token = %s)"
).replace(" FOR UPDATE OF r", "")
_RUN_WIDTH = len(rows.RUN_COLS.split(", "))

#: What a wake-up by hook returns: the hook, the delivered wake-up and the claim, and
#: the claimer's copy of the run.
RingClaim = tuple[HookRecord, Message, Claim, KnownRun]


@dataclass(frozen=True, slots=True, kw_only=True)
class RingPlan:
    """A wake-up by hook as `tether_ring_claim` or `tether_ring_wake` takes it (`plan`)."""

    statement: str
    params: tuple[Any, ...]
    token: str
    payload: bytes
    owner: str
    message_id: str
    #: The client's clock, the rules' "now" (the lease alone is the server's).
    now: float
    #: The head of each run's log the claimer holds.
    known: Mapping[str, int]
    #: The claimer's copy of the run it names, at the head it holds: the function
    #: claims only that row version, and nothing is read behind it.
    copy: KnownRun | None = None


def plan(
    namespace: str,
    token: str,
    payload: bytes,
    *,
    owner: str,
    lease_seconds: float,
    queue: str,
    writes: Sequence[StoreWrite],
    run_id: str | None,
    known: Mapping[str, int],
    copy: KnownRun | None = None,
) -> RingPlan | None:
    """The plain case's statement, or None when it is not one (see the module docstring).

    Plain: no writes, or one admission whose submission carries no attachment bytes,
    with text the database takes as it is (a NUL is left to the ordinary path's refusal).
    A caller that names the run (`run_id`) takes `tether_ring_wake`, with `copy` (the
    store's copy of that run) when it is at the head the claimer holds.
    """
    now = time.time()
    lock: str | None = None
    ids: list[str] = []
    values: Sequence[Any] = [None] * len(_SUBMISSION_TYPES)
    if writes:
        write = writes[0]
        if len(writes) > 1 or not isinstance(write, AdmitSubmission):
            return None
        # The ids the rules would refuse are refused here alike (nothing is written).
        _ledger.check_submission(write.submission)
        if write.unless is not None:
            check_identifier(write.unless, what="unless")
        row = _ledger.new_submission("direct", write.submission, now)
        if row.attachments:
            return None
        lock = lock_key(namespace, row.session_key)
        ids = [row.submission_id] + ([] if write.unless is None else [write.unless])
        values = ledger_rows.insert_values(row)
    if any("\x00" in text for text in (token, *ids, *(v for v in values if isinstance(v, str)))):
        return None
    message_id = new_ulid("msg_")
    tail = (owner, lease_seconds, queue, message_id, now)
    if run_id is None:
        statement = _RING
        heads = list(known.values())
        params = (lock, ids, *values, token, None, payload, list(known), heads, *tail)
    else:
        held = known.get(run_id)
        if copy is not None and (held is None or copy.run.head != held):
            copy = None
        statement = _WAKE
        unless = ids[1] if len(ids) > 1 else None
        seen = None if copy is None else copy.stamp
        params = (
            lock, ids[0] if ids else None, unless, *values, token, run_id, payload, held, seen,
            *tail,
        )  # fmt: skip
    return RingPlan(
        statement=statement, params=params, token=token, payload=payload, owner=owner,
        message_id=message_id, now=now, known=known, copy=copy,
    )  # fmt: skip


async def send(conn: psycopg.AsyncConnection[Any], ring: RingPlan) -> RingClaim | None:
    """Send the ring's statement (and read the run behind it, unless held): one round trip.

    Returns None when the function left the case to the ordinary path (nothing written).
    """
    assert conn.autocommit, "one implicit transaction needs an autocommit connection"
    copy = ring.copy
    try:
        if copy is not None:
            (stamp, hook_id, slot, created_at, chain_id, expires) = await _one(
                await conn.execute(ring.statement, ring.params)
            )
            run_rows: list[Any] = []
        else:
            async with conn.pipeline():
                called = await conn.execute(ring.statement, ring.params)
                found = await conn.execute(_RUN, (ring.token,))
            (stamp, hook_id, slot, created_at, chain_id, *_) = await _one(called)
            run_rows = await found.fetchall()
    except psycopg.Error as exc:
        if exc.sqlstate == UNDECIDED:
            return None
        raise
    now = ring.now
    steps: dict[str, StepRecord] = {}
    if copy is not None:
        # The row was the copy's version: it is the copy with what the function changed.
        held = copy.run
        run = evolve(
            held, head=held.head + 1, lease_owner=ring.owner, lease_epoch=held.lease_epoch + 1,
            lease_expires_at=float(expires), updated_at=now,
        )  # fmt: skip
        steps.update(copy.steps)
        hookless = copy.hookless
    else:
        run = rows.run_from_row(run_rows[0][:_RUN_WIDTH])
        for row in run_rows:
            if row[_RUN_WIDTH + 1] is not None:
                step = rows.step_from_row(row[_RUN_WIDTH + 1 :])
                steps[step.step_id] = step
        hookless = False
    run_id = run.run_id
    hook = HookRecord(
        hook_id=hook_id, run_id=run_id, token=ring.token, slot=slot, created_at=created_at,
        chain_id=chain_id,
    )  # fmt: skip
    event = EventRecord(
        run_id=run_id, slot=run.head, event_type="hook_received", correlation_id=hook_id,
        attrs={}, payload=ring.payload, created_at=now,
    )  # fmt: skip
    _, message = rows.leased_message(
        ring.message_id, wake_message(run, now), ring.owner, run.lease_expires_at
    )
    claim = Claim(
        outcome="claimed",
        run=run,
        epoch=run.lease_epoch,
        events=(event,),
        after=ring.known[run_id],
    )
    return hook, message, claim, KnownRun(stamp=str(stamp), run=run, steps=steps, hookless=hookless)


async def _one(cursor: psycopg.AsyncCursor[Any]) -> tuple[Any, ...]:
    row = await cursor.fetchone()
    assert row is not None  # the function returns its one row or raises
    return tuple(row)
