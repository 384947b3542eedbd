"""The workflow store's rules, written once for every backend.

Backends provide a `ViewTxn`: row-level reads and writes inside one of their
transactions. The functions here decide what an event does to the views, so every
backend enforces the same world contract:

- the event log is append-only and the only way run state changes; slots are dense;
- at most one creation event per (run, correlation id, type);
- no event moves a run or step out of a terminal state;
- a terminal run disposes its hooks and tells its parent run; the tokens it released
  stay reserved for its chain for the retention window (`ViewTxn.hook_retention`);
- a run that continues as new ends and starts its successor in one transaction, its
  hooks moved to the successor without ever being free;
- a write by a lease holder carries its fencing epoch and the log head it last saw.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from .._validate import MAX_LABELS, check_identifier, check_labels
from ..errors import (
    ConflictError,
    FencedError,
    InvalidTransitionError,
    NotFoundError,
    StaleHeadError,
)
from ._apply import append_events, insert_event
from ._events import FORK_EVENTS
from ._records import (
    FORK_SLOT_LABEL,
    FORKED_FROM_LABEL,
    TERMINAL_RUN_STATUSES,
    Attr,
    Claim,
    Commit,
    CommitResult,
    Continuation,
    HookRecord,
    Message,
    NewEvent,
    NewRun,
    RunFork,
    RunRecord,
    chain_of,
    evolve,
    successor_run_id,
)
from ._view import ViewTxn, wake_message

__all__ = [
    "ViewTxn",
    "apply_commit",
    "cancel_run",
    "chain_labels",
    "claim_messages",
    "claim_run",
    "create_run",
    "fork_run",
    "known_after",
    "relabeled",
    "resume_hook",
    "start_run",
    "wake_message",
]


def _same_input(existing: RunRecord, new: NewRun) -> bool:
    # Digests compare values (sets in canonical order, dict keys sorted) and survive
    # encryption; runs written before digests existed fall back to the bytes.
    if existing.input_digest is not None and new.input_digest is not None:
        return existing.input_digest == new.input_digest
    return existing.input == new.input


def start_run(
    txn: ViewTxn, new: NewRun, owner: str, lease_seconds: float, now: float
) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
    """Create a run and claim it for `owner` at once (an eager start), idempotently.

    A new run's activation message is written already delivered to `owner`, so the run
    has its way back if the owner dies before it ends; an existing run is left to its
    own message and not claimed.
    """
    run, created = create_run(txn, new, now, leased_to=(owner, now + lease_seconds))
    if not created:
        return run, False, None
    message = txn.enqueue_leased(wake_message(run, now), owner, now + lease_seconds)
    claim = claim_run(txn, run.run_id, owner, lease_seconds, now)
    assert claim.run is not None  # a run created a moment ago has no lease to be busy on
    return claim.run, True, (message, claim)


def create_run(
    txn: ViewTxn, new: NewRun, now: float, *, leased_to: tuple[str, float] | None = None
) -> tuple[RunRecord, bool]:
    """Create a run with its `run_created` event and activation message, idempotently.

    With `leased_to` the message is left to the caller (`start_run` writes it leased).

    A run naming a chain (`NewRun.chain_id`) starts that chain again after its last run
    ended (completed, failed or cancelled): it is the chain's next generation and may
    take the tokens the chain retains. A successor of a run that is still going is
    created only by `apply_commit`, as part of that run's continuation.
    """
    check_new_run(new)
    existing = txn.get_run(new.run_id)
    if existing is not None:
        if existing.workflow_name != new.workflow_name or not _same_input(existing, new):
            raise ConflictError(
                f"run {new.run_id!r} already exists as workflow {existing.workflow_name!r} "
                "with other input; a run id names one run: pick a new id to start another"
            )
        if new.parent_run_id is not None and (
            existing.parent_run_id != new.parent_run_id or existing.parent_slot != new.parent_slot
        ):
            # Adopting it would leave the parent waiting for an end reported elsewhere.
            raise ConflictError(
                f"run {new.run_id!r} already exists and is not the child started at slot "
                f"{new.parent_slot} of run {new.parent_run_id!r}: pick another child run id"
            )
        return existing, False
    if new.chain_id is not None or new.generation:
        previous = _check_restart(txn, new)
        new = dataclasses.replace(new, labels=chain_labels(previous, new))
    return _new_run(txn, new, now, leased_to=leased_to), True


def check_new_run(new: NewRun) -> None:
    """Refuse a run no backend can hold, the same on every one (before any read of it).

    Raises:
        InvalidInputError: Its id or workflow name is not an identifier every backend
            stores (PostgreSQL would refuse a NUL, SQLite not), or a label is invalid.
    """
    check_identifier(new.run_id, what="run_id")
    check_identifier(new.workflow_name, what="workflow_name")
    check_labels(new.labels, what=f"run {new.run_id!r}")


def chain_labels(previous: RunRecord, new: NewRun) -> dict[str, str]:
    """The labels of a chain's next run: the previous run's, then its own on top.

    Raises:
        InvalidInputError: Together they are more than `MAX_LABELS`.
    """
    merged = {**previous.labels, **new.labels}
    if len(merged) > MAX_LABELS:
        check_labels(merged, what=f"run {new.run_id!r} (with its chain's labels)")
    return merged


def relabeled(run: RunRecord | None, run_id: str, labels: Mapping[str, str]) -> RunRecord:
    """`run` with `labels` added (a backfill: `WorkflowStore.label_run`).

    Raises:
        NotFoundError: No such run.
        InvalidInputError: Invalid labels, or more than `MAX_LABELS` in all.
    """
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    added = check_labels(labels, what=f"run {run_id!r}")
    merged = {**run.labels, **added}
    if len(merged) > MAX_LABELS:
        check_labels(merged, what=f"run {run_id!r} (with the labels it has)")
    return evolve(run, labels=merged)


def _check_new_labels(new: NewRun) -> NewRun:
    """`new`, once its labels are checked (`check_labels`)."""
    check_labels(new.labels, what=f"run {new.run_id!r}")
    return new


def _check_restart(txn: ViewTxn, new: NewRun) -> RunRecord:
    chain = new.chain_id or new.run_id
    current_id = txn.last_run_of_chain(chain)
    current = None if current_id is None else txn.get_run(current_id)
    if current is None:
        raise NotFoundError(f"chain {chain!r} does not exist: no run to start it again from")
    if current.status not in TERMINAL_RUN_STATUSES or current.status == "continued":
        raise ConflictError(
            f"chain {chain!r} is still going (run {current.run_id!r} is {current.status!r}): "
            "a chain starts again only after its last run ended; cancel it first"
        )
    expected = successor_run_id(chain, current.generation + 1)
    if (new.generation, new.run_id) != (current.generation + 1, expected):
        raise ConflictError(
            f"run {new.run_id!r} (generation {new.generation}) cannot start chain {chain!r} "
            f"again: its next run is {expected!r}, generation {current.generation + 1}"
        )
    return current


def fork_run(txn: ViewTxn, fork: RunFork, now: float) -> tuple[RunRecord, bool]:
    """Create a fork: a new run whose log is `run_created`, then the copied operations.

    All in this one transaction: a fork exists whole or not at all. Idempotent by run
    id: the same fork (same source, slot, workflow and input) again returns the run.

    Raises:
        NotFoundError: The source run does not exist.
        ConflictError: The run id names another run.
        InvalidTransitionError: An event is not an operation a fork may copy.
    """
    new = fork.run
    check_new_run(new)
    provenance = {FORKED_FROM_LABEL: fork.source_run_id, FORK_SLOT_LABEL: str(fork.from_slot)}
    existing = txn.get_run(new.run_id)
    if existing is not None:
        same = {k: existing.labels.get(k) for k in provenance} == provenance
        if same and existing.workflow_name == new.workflow_name and _same_input(existing, new):
            return existing, False
        raise ConflictError(
            f"run {new.run_id!r} already exists and is not the fork of run "
            f"{fork.source_run_id!r} from slot {fork.from_slot} with this input: pick a new "
            "run id for another fork"
        )
    if txn.get_run(fork.source_run_id) is None:
        raise NotFoundError(f"run {fork.source_run_id!r} does not exist: nothing to fork")
    for event in fork.events:
        if event.event_type not in FORK_EVENTS:
            raise InvalidTransitionError(
                f"a fork copies operations only; {event.event_type!r} is not one"
            )
    labels = {**new.labels, **provenance}
    check_labels(labels, what=f"run {new.run_id!r} (with its fork labels)")
    # A fork starts a chain of its own, under no parent: nothing waits for its end.
    new = dataclasses.replace(
        new, labels=labels, parent_run_id=None, parent_slot=None, chain_id=None, generation=0
    )
    return _new_run(txn, new, now, copied=fork.events), True


def _new_run(
    txn: ViewTxn,
    new: NewRun,
    now: float,
    *,
    leased_to: tuple[str, float] | None = None,
    copied: tuple[NewEvent, ...] = (),
) -> RunRecord:
    run = RunRecord(
        run_id=new.run_id,
        workflow_name=new.workflow_name,
        status="pending",
        deployment=new.deployment,
        engine_version=new.engine_version,
        queue=new.queue,
        input=new.input,
        output=None,
        error=None,
        head=0,
        parent_run_id=new.parent_run_id,
        parent_slot=new.parent_slot,
        lease_owner=None,
        lease_epoch=0,
        lease_expires_at=0.0,
        created_at=now,
        updated_at=now,
        completed_at=None,
        input_digest=new.input_digest,
        chain_id=new.chain_id or new.run_id,
        generation=new.generation,
        labels=dict(new.labels),
    )
    attrs: dict[str, Attr] = {
        "workflow_name": new.workflow_name,
        "deployment": new.deployment,
        "engine_version": new.engine_version,
        "parent_run_id": new.parent_run_id,
        "parent_slot": new.parent_slot,
    }
    if new.generation:
        attrs.update(chain_id=run.chain_id, generation=new.generation)
    created = NewEvent(
        event_type="run_created", correlation_id=new.run_id, attrs=attrs, payload=new.input
    )
    # The row is written once, as the event leaves it (the event goes first: no store
    # ties an event to its run's row before the transaction ends).
    run = append_events(txn, run, [created, *copied], now)
    txn.insert_run(run)
    # Created with its way in: a run is never active without a deliverable wake-up
    # (`start_run` writes it already delivered to its owner).
    if leased_to is None:
        txn.enqueue_quiet(wake_message(run, now), now)
    return run


def claim_run(txn: ViewTxn, run_id: str, owner: str, lease_seconds: float, now: float) -> Claim:
    """Take a run's lease unless another owner's lease is live; load its log."""
    run = txn.get_run(run_id)
    if run is None:
        return Claim(outcome="missing")
    if run.status in TERMINAL_RUN_STATUSES:
        return Claim(outcome="finished", run=run)
    # A live lease is busy even when this owner holds it: a worker that is already
    # running the run sees new events at its next commit, and re-claiming would fence
    # its own activation.
    if run.lease_owner is not None and run.lease_expires_at > now:
        return Claim(outcome="busy", run=run)
    epoch = run.lease_epoch + 1
    run = evolve(run, lease_owner=owner, lease_epoch=epoch, lease_expires_at=now + lease_seconds)
    if run.status == "pending":
        run = evolve(run, status="running")
        run = append_events(txn, run, [NewEvent(event_type="run_started")], now)
    txn.update_run(evolve(run, updated_at=now))
    return Claim(outcome="claimed", run=run, epoch=epoch, events=tuple(txn.list_events(run_id)))


def known_after(claim: Claim, known: Mapping[str, int] | None) -> int:
    """The slot a claim's log may start after, given what the claimer holds (0: whole)."""
    if not known or claim.outcome != "claimed" or claim.run is None:
        return 0
    after = known.get(claim.run.run_id, 0)
    # A head beyond the run's is not a prefix of its log: hand over the whole log.
    return after if 0 < after <= claim.run.head else 0


def claim_messages(
    txn: ViewTxn, messages: list[Message], owner: str, lease_seconds: float, now: float
) -> list[tuple[Message, Claim]]:
    """Claim the run of each activation message; settle the ones with nothing to do now.

    A missing or finished run needs no activation: its message is acknowledged. A run
    held by a live lease needs none yet (its holder sees every event appended meanwhile
    at its next commit, the head check), but its message is kept, due again when that
    lease runs out: the holder may die without a message of its own (lost in an outage,
    or taken by this very delivery), and an active run must never be left with no way
    back. The holder's park or end drops such spare wake-ups (`apply_commit`).
    """
    # Read every run first, then the logs of those that will be claimed: a backend on
    # the network loads a batch in two round trips instead of two per message.
    run_ids = [m.payload.decode() for m in messages]
    txn.prefetch(run_ids, events=False)
    claimable = [
        run_id
        for run_id in run_ids
        if (run := txn.get_run(run_id)) is not None
        and run.status not in TERMINAL_RUN_STATUSES
        and not (run.lease_owner is not None and run.lease_expires_at > now)
    ]
    txn.prefetch(claimable, events=True)
    claimed = []
    for message in messages:
        claim = claim_run(txn, message.payload.decode(), owner, lease_seconds, now)
        if claim.outcome == "claimed":
            claimed.append((message, claim))
        elif claim.outcome == "busy" and claim.run is not None:
            txn.nack(message.message_id, owner, claim.run.lease_expires_at)
        else:
            txn.ack(message.message_id, owner)
    return claimed


def apply_commit(txn: ViewTxn, commit: Commit, now: float) -> CommitResult:
    """Apply a lease holder's commit, or raise without writing anything."""
    run = txn.get_run(commit.run_id)
    if run is None:
        raise NotFoundError(f"run {commit.run_id!r} does not exist")
    if run.lease_owner != commit.owner or run.lease_epoch != commit.epoch:
        raise FencedError(
            f"run {commit.run_id!r}: lease epoch {commit.epoch} of {commit.owner!r} is stale "
            f"(current epoch {run.lease_epoch}, holder {run.lease_owner!r}); another worker "
            "took the run over"
        )
    if run.status in TERMINAL_RUN_STATUSES:
        raise InvalidTransitionError(f"run {run.run_id!r} is already {run.status!r}")
    if commit.expected_head is not None and run.head != commit.expected_head:
        raise StaleHeadError(run.run_id, commit.expected_head, run.head)
    for child in commit.start_runs:
        create_run(txn, child, now)
    if commit.continuation is not None:
        run = _continue(txn, run, commit, commit.continuation, now)
    else:
        run = append_events(txn, run, list(commit.events), now)
    if commit.release and run.status not in TERMINAL_RUN_STATUSES:
        # The holder parks or hands the run back having seen every event before this
        # commit (the head check): wake-ups already waiting are spare. What it still
        # needs (a timer, a hand-back) it enqueues below; whatever is appended later
        # enqueues its own.
        txn.drop_pending(run.queue, run.run_id)
    for message in commit.enqueue:
        txn.enqueue_quiet(message, now)
    if commit.ack_message_id is not None:
        txn.ack(commit.ack_message_id, commit.owner)
    if commit.release or run.status in TERMINAL_RUN_STATUSES:
        run = evolve(run, lease_owner=None, lease_expires_at=0.0, updated_at=now)
    elif commit.lease_seconds is not None:
        run = evolve(run, lease_expires_at=now + commit.lease_seconds, updated_at=now)
    else:
        run = evolve(run, updated_at=now)
    txn.update_run(run)
    _cancel_children(txn, run, now)
    return CommitResult(head=run.head, at=now)


def _continue(
    txn: ViewTxn, run: RunRecord, commit: Commit, continuation: Continuation, now: float
) -> RunRecord:
    """End `run` continued and start its successor: one transaction, no gap.

    The commit's last event is the `run_continued` that ends the run. Before it is
    appended the successor exists (pending, with its wake-up message), so the chain
    always has an active run; its hooks are re-pointed to the successor in the same
    transaction, so no other run can take a token in between (force-claim), and
    payloads the run received but did not consume are delivered to the successor.
    """
    events = list(commit.events)
    new = continuation.run
    chain = chain_of(run)
    if (
        not events
        or events[-1].event_type != "run_continued"
        or events[-1].correlation_id != new.run_id
        or any(e.event_type == "run_continued" for e in events[:-1])
        or not commit.release
    ):
        raise InvalidTransitionError(
            f"run {run.run_id!r}: a continuation ends the run: the commit releases it and "
            f"its last event is run_continued for {new.run_id!r}"
        )
    if (
        new.chain_id != chain
        or new.generation != run.generation + 1
        or new.run_id != successor_run_id(chain, new.generation)
    ):
        raise InvalidTransitionError(
            f"run {run.run_id!r} (chain {chain!r}, generation {run.generation}) cannot be "
            f"continued by run {new.run_id!r} (chain {new.chain_id!r}, generation "
            f"{new.generation}): a successor is generation + 1 of the same chain"
        )
    run = append_events(txn, run, events[:-1], now)
    if run.status in TERMINAL_RUN_STATUSES:
        raise InvalidTransitionError(f"run {run.run_id!r} is already {run.status!r}")
    children = txn.active_children(run.run_id)
    if children:
        raise ConflictError(
            f"run {run.run_id!r} cannot continue as new while its child runs {children!r} "
            "are unfinished: await or cancel them first"
        )
    if txn.get_run(new.run_id) is not None:
        raise ConflictError(
            f"run id {new.run_id!r}, the successor of run {run.run_id!r}, names another "
            "run: the chain cannot go on under that id"
        )
    # The successor answers to the run's parent: the chain's end is the child's end.
    successor = _new_run(
        txn,
        dataclasses.replace(
            new,
            parent_run_id=run.parent_run_id,
            parent_slot=run.parent_slot,
            labels=chain_labels(run, _check_new_labels(new)),
        ),
        now,
    )
    moved: set[str] = set()
    for hook in txn.hooks_of_run(run.run_id):
        txn.update_hook(evolve(hook, run_id=successor.run_id, slot=0, chain_id=chain))
        attrs: dict[str, Attr] = {"token": hook.token, "from_run_id": run.run_id}
        event = NewEvent(event_type="hook_moved", correlation_id=hook.hook_id, attrs=attrs)
        successor = insert_event(txn, successor, event, now)
        moved.add(hook.hook_id)
    for hook_id, payload in continuation.carried:
        if hook_id not in moved:
            raise InvalidTransitionError(
                f"run {run.run_id!r} carries a payload for hook {hook_id!r}, which it does not hold"
            )
        received = NewEvent(event_type="hook_received", correlation_id=hook_id, payload=payload)
        successor = insert_event(txn, successor, received, now)
    txn.update_run(evolve(successor, updated_at=now))
    run = insert_event(txn, run, events[-1], now)
    run = evolve(run, status="continued", completed_at=now)
    for hook_id in sorted(moved):
        gone = NewEvent(
            event_type="hook_disposed", correlation_id=hook_id, attrs={"moved_to": new.run_id}
        )
        run = insert_event(txn, run, gone, now)
    return run


def resume_hook(
    txn: ViewTxn, token: str, payload: bytes, now: float, run_id: str | None = None
) -> HookRecord:
    """Deliver a payload to the active hook owning `token` and wake its run.

    With `run_id`, only while that run holds the hook (NotFoundError otherwise).
    """
    return resume_hook_and_claim(txn, token, payload, now, run_id)[0]


def resume_hook_and_claim(
    txn: ViewTxn,
    token: str,
    payload: bytes,
    now: float,
    run_id: str | None = None,
    claim_for: tuple[str, float, str] | None = None,
) -> tuple[HookRecord, tuple[Message, Claim] | None]:
    """`resume_hook`; with `claim_for` (owner, lease seconds, queue), an eager wake-up.

    The hook's run is claimed for the owner in the same transaction when no live lease
    holds it and it belongs to the owner's queue: its activation message is written
    already delivered to the owner (it comes back to the queue if the owner dies), as
    an eager start's is. Returns the hook, and the message and claim when claimed.
    """
    check_identifier(token, what="hook token")
    hook = txn.get_hook_by_token(token)
    run = None
    while hook is not None and hook.retained_until is None:
        run = txn.get_run(hook.run_id)
        # Read again under the run's lock (a SQL backend's get_run): the hook may have
        # moved to a successor while this waited for the lock of the run that ended
        # continued. The payload goes where the hook is now, never to the ended run.
        again = txn.get_hook_by_token(token)
        if again == hook:
            break
        hook = again
    if hook is not None and hook.retained_until is not None:
        hook = None  # its run ended: the token is reserved, not receiving
    if hook is not None and run_id is not None and hook.run_id != run_id:
        raise NotFoundError(f"hook token {token!r} is no longer held by run {run_id!r}")
    if hook is None or run is None or run.status in TERMINAL_RUN_STATUSES:
        raise NotFoundError(
            f"no active hook has token {token!r}; it was never created, or its run ended"
        )
    received = NewEvent(event_type="hook_received", correlation_id=hook.hook_id, payload=payload)
    run = append_events(txn, run, [received], now)
    txn.update_run(evolve(run, updated_at=now))
    if claim_for is not None:
        owner, lease_seconds, queue = claim_for
        # Claimed at once only when nobody holds it and `owner` serves its queue; else
        # the wake-up goes through the queue as always.
        if run.queue == queue and not (run.lease_owner is not None and run.lease_expires_at > now):
            message = txn.enqueue_leased(wake_message(run, now), owner, now + lease_seconds)
            claim = claim_run(txn, run.run_id, owner, lease_seconds, now)
            assert claim.outcome == "claimed"  # no live lease, not ended: read just now
            return hook, (message, claim)
    txn.enqueue_quiet(wake_message(run, now), now)
    return hook, None


def cancel_run(txn: ViewTxn, run_id: str, reason: str | None, now: float) -> RunRecord:
    """Cancel at once when no live lease holds the run, else ask its holder to.

    A run that continued as new stands for its chain: the chain's current run is
    cancelled instead.
    """
    run = txn.get_run(run_id)
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    while run.status == "continued":
        # Locked as it is read (a SQL backend's get_run): a run found continued has
        # its successor committed, so the walk ends at the run that is current now.
        current = txn.last_run_of_chain(chain_of(run))
        found = None if current is None or current == run.run_id else txn.get_run(current)
        if found is None:
            break
        run = found
    if run.status in TERMINAL_RUN_STATUSES:
        return run
    attrs: dict[str, Attr] = {"reason": reason}
    if run.lease_owner is not None and run.lease_expires_at > now:
        event = NewEvent(event_type="cancel_requested", attrs=attrs)
        run = append_events(txn, run, [event], now)
        txn.enqueue_quiet(wake_message(run, now), now)
    else:
        run = append_events(txn, run, [NewEvent(event_type="run_cancelled", attrs=attrs)], now)
        run = evolve(run, lease_owner=None, lease_expires_at=0.0)
    run = evolve(run, updated_at=now)
    txn.update_run(run)
    _cancel_children(txn, run, now)
    return run


def _cancel_children(txn: ViewTxn, run: RunRecord, now: float) -> None:
    """A cancelled run takes its unfinished children (and theirs) with it.

    In the same transaction, and after the run's own row is written: a child that ends
    at once then finds its parent already terminal and does not report to it.
    """
    if run.status != "cancelled":
        return
    for child_id in txn.active_children(run.run_id):
        cancel_run(txn, child_id, f"its parent run {run.run_id!r} was cancelled", now)
