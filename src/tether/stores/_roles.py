"""The roles of a `WorkflowStore`: what the engine's store does, one protocol each.

`WorkflowStore` is the intersection of these protocols and `InspectionStore`; a
backend implements all of them in one object, and callers that need the whole store
keep typing `WorkflowStore`. A module of the engine names the narrowest role it uses,
so what it may call is what its annotations say:

- `RunLog`: runs, steps, hooks and waits, and the append-only event log they are
  views of: creation, the lease holder's writes, wake-ups, cancels, reads, retention;
- `WorkQueue`: the queue of activations: enqueueing, leasing and acknowledging
  messages, claiming their runs (with flow control), and the queue's reads;
- `StepPermits`: the permits of step-level limits;
- `WorkerRegistry`: the store's clock and the workers' liveness on it;
- `RunStreams`: a run's named, append-only byte streams.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Protocol

from ._flow import FlowClaim, FlowLimit, FlowPolicy
from ._permits import Permit
from ._records import (
    ChainRecord,
    Claim,
    Commit,
    CommitResult,
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    NewRun,
    Page,
    QueueDepth,
    QueueEntry,
    RunFork,
    RunRecord,
    RunStatus,
    StepRecord,
    StreamChunk,
    WaitRecord,
    WorkerRecord,
)
from ._writes import StoreWrite

__all__ = ["RunLog", "RunStreams", "StepPermits", "WorkQueue", "WorkerRegistry"]


class RunLog(Protocol):
    """Runs, steps, hooks and waits: the views of each run's append-only event log.

    The event log is the only way run state changes: every method that writes appends
    events and updates the run, step, hook and wait views in the same transaction.
    Creating a run or waking one enqueues its activation (`WorkQueue`) in that
    transaction too.
    """

    # -- runs -----------------------------------------------------------------------
    async def create_run(self, run: NewRun) -> tuple[RunRecord, bool]:
        """Append `run_created` and enqueue the run's activation, idempotent by run id.

        Returns the run and whether this call created it. The same run id with another
        workflow or input raises `ConflictError`.
        """
        ...

    async def start_run(
        self, run: NewRun, *, owner: str, lease_seconds: float
    ) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
        """`create_run`, and claim a new run for `owner` in the same transaction.

        An eager start: the caller runs the run at once, with no trip through the queue.
        A new run's activation message is written already delivered to `owner` (it
        comes back to the queue if the owner dies). Returns the run, whether this call
        created it, and for a new run the message and the claim; an existing run is not
        claimed (None).
        """
        ...

    async def fork_run(
        self, fork: RunFork, *, writes: Sequence[StoreWrite] = ()
    ) -> tuple[RunRecord, bool]:
        """Create a fork of a run: `run_created`, then `fork.events`, in one transaction.

        The new run is pending with its activation message, as `create_run` leaves a
        run; it carries the labels `FORKED_FROM_LABEL` and `FORK_SLOT_LABEL`, has no
        parent and starts a chain of its own. `writes` (see `stores._writes`) are
        applied first, in the same transaction. The source run is only read. The same
        fork again (run id, source, slot, workflow, input) returns the run and False.

        Raises:
            NotFoundError: The source run does not exist (nothing is written).
            ConflictError: The run id names another run.
            InvalidTransitionError: An event is not one of `FORK_EVENTS`.
        """
        ...

    async def get_run(self, run_id: str) -> RunRecord | None:
        """Return the run view, or None."""
        ...

    async def latest_run(self, chain_id: str) -> RunRecord | None:
        """The current run of a chain: the run of `chain_id` with the highest generation.

        A chain is a first run and the successors continue-as-new started from it; its
        id is the first run's id. None when no run has that chain.
        """
        ...

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunRecord]:
        """Runs, newest first (by creation time, then run id).

        With `labels`, only the runs carrying every one of them (key and value): a
        backend finds them through an index of labels, without reading other runs
        (the SQL backends scan the first label's index entries: put the most selective
        label first).
        Invalid labels raise `InvalidInputError` (as `check_labels`).

        `cursor` is the `next_cursor` of the previous page: the key of its last run,
        so the next page starts there without reading the runs before it, and runs
        created meanwhile never shift it (see `stores._pages`). A row count (an earlier
        release's cursor) is still read as an offset; anything else raises
        `InvalidInputError`.
        """
        ...

    async def list_chains(
        self,
        *,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[ChainRecord]:
        """Chains, newest first by their first run, each with its current run, in one read.

        A chain is listed by its first run (generation 0; later runs are not listed on
        their own), filtered and paged as `list_runs` filters and pages runs (the
        first run's workflow and labels); `ChainRecord.current` is what `latest_run`
        of the chain returns, read in the same statement.
        """
        ...

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunRecord:
        """Add labels to an existing run (a backfill), replacing a key's value; idempotent.

        Raises:
            NotFoundError: No run has this id.
            InvalidInputError: Invalid labels, or more than `MAX_LABELS` in all.
        """
        ...

    async def list_steps(self, run_id: str) -> list[StepRecord]:
        """The steps of a run in slot order."""
        ...

    async def list_events(
        self, run_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        """Events of a run with slot > `after`, in slot order."""
        ...

    async def list_hooks(self, run_id: str | None = None) -> list[HookRecord]:
        """Active hooks, of one run (in slot order) or all (by run, then slot).

        With `run_id` the SQL backends read that run's entries of an index of active
        hooks only; without, every active hook (one per idle session): for tools and
        tests, not for a request path.
        """
        ...

    async def get_hook(self, token: str) -> HookRecord | None:
        """The active hook owning `token`, or None."""
        ...

    async def list_waits(self, run_id: str) -> list[WaitRecord]:
        """The durable timers of a run."""
        ...

    # -- the lease holder's writes --------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        """Take the run's lease (epoch + 1) unless a live lease of another owner holds it.

        On success returns the epoch and the run's whole event log for a replay: read
        in the claim's transaction or after it commits (never before: it holds at least
        the claim's events; anything later the holder's next commit catches up with),
        and without the payloads no replay reads (the inputs of `step_created` and of
        `run_created`, which the run record carries). A pending run is marked running
        with a `run_started` event.
        """
        ...

    async def commit(self, commit: Commit) -> CommitResult:
        """Apply one atomic commit of the lease holder (see `Commit`).

        Its `writes` to other stores are applied first, in the same transaction.

        A commit with `lease_seconds` renews the lease for that long from the moment
        the store writes it, on the store's clock (`clock()`), never from a time the
        writer computed before sending it: a commit held up on its way must not land
        with a lease already run out.
        """
        ...

    async def renew_lease(
        self, run_id: str, *, owner: str, epoch: int, lease_seconds: float
    ) -> bool:
        """Extend a held lease from now (store clock); False when it was lost (fenced)."""
        ...

    async def release_run(self, run_id: str, *, owner: str, epoch: int) -> None:
        """Give up a held lease without writing events (only the holder's epoch does)."""
        ...

    # -- writes from outside the run ------------------------------------------------
    async def resume_hook(
        self,
        token: str,
        payload: bytes,
        *,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
    ) -> HookRecord:
        """Append `hook_received` to the hook's run and wake it.

        `writes` (see `stores._writes`) are applied first, in the same transaction.

        A hook may move to another run (continue-as-new): the payload goes to the run
        holding it when the write commits. With `run_id`, it is delivered only if that
        run holds it then (a payload bound to one run, as an encrypting layer seals it).

        Raises `NotFoundError` when no active hook owns the token (or `run_id` does not),
        and nothing of `writes` is applied then.
        """
        ...

    async def resume_hook_and_claim(
        self,
        token: str,
        payload: bytes,
        *,
        owner: str,
        lease_seconds: float,
        queue: str,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
        known: Mapping[str, int] | None = None,
    ) -> tuple[HookRecord, tuple[Message, Claim] | None]:
        """`resume_hook`, and claim the hook's run for `owner` in the same transaction.

        An eager wake-up: the caller runs the run at once, with no trip through the
        queue. The run is claimed only when no live lease holds it and it belongs to
        `queue`; its activation message is then written already delivered to `owner`
        (it comes back to the queue if the owner dies). Otherwise the run is woken as
        `resume_hook` wakes it. Returns the hook, and the message and claim when claimed.
        `known` as for `claim_next`.
        """
        ...

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        """Cancel a run; terminal runs are left as they are.

        Directly when no live lease holds it, else by a `cancel_requested` event its
        holder obeys at its next commit.
        """
        ...

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        """Wait until the run is terminal or `timeout` passes; returns the latest view."""
        ...

    # -- retention ----------------------------------------------------------------
    async def purge_run_content(self, run_id: str, *, keep_input: bool = False) -> bool:
        """Delete a run's content (retention).

        Inputs, outputs, errors, event payloads, stream chunks and the run's labels
        go; ids, slots, names, statuses and timestamps stay. `keep_input` keeps the
        run's own input (its identity, for runs whose input holds no content) and its
        labels (they are metadata of that identity, such as its owner). Returns
        whether this was the run's first purge: of purges at once exactly one is
        (a purge of a run the store does not hold returns False).
        """
        ...

    async def list_prunable_runs(
        self, ended_before: float, *, limit: int, after: tuple[float, str] | None = None
    ) -> list[RunRecord]:
        """Ended runs whose content the retention sweep may purge, oldest end first.

        A run is listed when it ended (`TERMINAL_RUN_STATUSES`) before `ended_before`
        (Unix seconds), its content was not purged yet (`purge_run_content` takes it
        off the list), every run of its chain ended before that time too, and so did
        its parent run, if it has one. At most `limit` runs, ordered by
        ``(completed_at, run_id)``; purging them brings the next ones first, and
        `after` (the last run's ``(completed_at, run_id)``) starts past a batch that
        stays (a dry run, a run the sweep passed by).
        """
        ...


class WorkQueue(Protocol):
    """The queue of activations: messages leased to workers, and the claims of their runs.

    A run's activation message carries its run id. A worker leases messages
    (`dequeue`, or `claim_next` and `claim_flow`, which claim their runs in the same
    transaction); `ack` deletes one its owner finished, and a lease that runs out
    gives the message back to the queue.
    """

    async def enqueue(self, message: NewMessage) -> str:
        """Enqueue a message and return its id (an undelivered one with the same key)."""
        ...

    async def dequeue(
        self, queue: str, *, owner: str, lease_seconds: float, limit: int
    ) -> list[Message]:
        """Lease up to `limit` available messages of a queue, oldest first."""
        ...

    async def claim_next(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        known: Mapping[str, int] | None = None,
    ) -> list[tuple[Message, Claim]]:
        """Lease up to `limit` activation messages and claim their runs, atomically.

        Messages whose run is missing, finished, or held by another live lease are
        acknowledged and not returned (see `stores._logic.claim_messages`).

        `known` names runs whose log the caller holds up to a slot (a worker's parked
        runs kept warm): a claim of one may then carry only the events after that slot
        (`Claim.after`). A store may always return the whole log instead (`after` 0).
        """
        ...

    async def claim_flow(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        policy: FlowPolicy,
        known: Mapping[str, int] | None = None,
        scan_from: tuple[float, str] | None = None,
    ) -> FlowClaim:
        """`claim_next` under flow control: limits and priorities held across workers.

        In one transaction, serialized with every other flow-controlled claim of the
        store: ranks the queue's oldest ready messages (`FlowPolicy.window`), and as
        many more after `scan_from` (the previous claim's `FlowClaim.scanned_to`), by
        priority with aging, counts the executing activations of each key (messages
        of the queue held by a live lease), refills and spends the keys' token
        buckets, and leases and claims what the limits admit (`stores._flow.choose`).
        A place under a concurrency limit is held as long as its message's lease: an
        acknowledgement frees it, and so does the lease running out when its holder
        died.
        """
        ...

    async def ack(self, message_id: str, *, owner: str) -> bool:
        """Delete a message its owner finished; False if the lease was lost."""
        ...

    async def nack(self, message_id: str, *, owner: str, delay: float) -> bool:
        """Release a leased message for delivery again after `delay` seconds."""
        ...

    async def renew_messages(
        self, message_ids: Sequence[str], *, owner: str, lease_seconds: float
    ) -> int:
        """Extend message leases; returns how many were still held."""
        ...

    async def wait_for_messages(self, queue: str, timeout: float) -> None:
        """Return when the queue may have work, or after `timeout` seconds."""
        ...

    # -- reads of the queue -------------------------------------------------------
    async def list_run_messages(self, run_id: str) -> list[QueueEntry]:
        """The queue's wake-ups of a run (payload: its id), waiting or delivered.

        An inspection read: it looks through the queue, which holds only messages
        not yet acknowledged, not through the stored runs.
        """
        ...

    async def queue_depths(self) -> list[QueueDepth]:
        """Every queue that holds messages, with its counts now, by queue name.

        A metrics read (the worker samples it for ``tether.queue.depth``): one pass
        over the messages not yet acknowledged, which is what the queue holds.
        """
        ...


class StepPermits(Protocol):
    """The permits of step-level limits, held by the store across every worker."""

    async def acquire_permit(
        self, key: str, *, holder: str, limit: FlowLimit, lease_seconds: float
    ) -> Permit:
        """Take (or renew) `holder`'s permit of `key` under `limit`: a step-level limit.

        In one transaction, serialized with every other acquisition of `key`: a holder
        whose permit is unexpired renews it for `lease_seconds` and spends nothing;
        otherwise the permit is granted when fewer than ``limit.concurrency`` other
        permits of the key are unexpired and the key's token bucket (refilled at
        ``limit.per_second``, ``limit.burst`` at most) has a token, which it spends. A
        refusal writes nothing. Under no concurrency bound nothing is held: a grant
        only spends a token (`stores._permits`).
        """
        ...

    async def release_permit(self, key: str, *, holder: str) -> None:
        """Give back `holder`'s permit of `key` (nothing if it holds none)."""
        ...


class WorkerRegistry(Protocol):
    """The store's clock, and the workers registered with their heartbeats on it."""

    async def clock(self) -> float:
        """The store's time (epoch seconds): the clock leases and heartbeats are on.

        A store shared by several hosts answers with one clock for all of them (the
        database server's), so hosts whose clocks disagree still agree on when a lease
        ends or a worker fell silent.
        """
        ...

    async def register_worker(self, worker: WorkerRecord) -> None:
        """Insert or refresh a worker record (its heartbeat stamped on `clock()`)."""
        ...

    async def heartbeat_worker(self, worker_id: str) -> None:
        """Stamp the worker as alive now (on `clock()`)."""
        ...

    async def list_workers(self) -> list[WorkerRecord]:
        """Every registered worker."""
        ...

    async def expire_worker(self, worker_id: str) -> int:
        """Expire every lease a dead worker holds and forget it; returns leases freed."""
        ...


class RunStreams(Protocol):
    """A run's named, append-only byte streams; a chunk's position is its index."""

    async def write_stream(
        self, run_id: str, name: str, chunks: Sequence[bytes], *, at: int | None = None
    ) -> int:
        """Append chunks to a stream; returns the index of the last one.

        Args:
            run_id: The run.
            name: The stream's name.
            chunks: What to append.
            at: The index the first chunk must land at (unchecked when None): a stream
                whose next index is another refuses the append with
                `StreamPositionError` and writes nothing. An encrypting store binds each
                chunk to its index this way.
        """
        ...

    async def close_stream(self, run_id: str, name: str) -> None:
        """Close a stream; later writes raise `InvalidTransitionError`."""
        ...

    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]:
        """Chunks from `start` (negative counts back from the tail) and whether closed."""
        ...

    def follow_stream(
        self, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
    ) -> AsyncIterator[StreamChunk]:
        """Yield chunks from `start` live until the stream closes."""
        ...
