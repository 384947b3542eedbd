"""Workers: pull activations from the queue, hold leases, recover dead workers' runs."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import os
import socket
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from types import TracebackType
from typing import Any

from .._codec import encode
from .._ids import new_ulid
from .._validate import check_duration
from ..errors import (
    ConfigurationError,
    FencedError,
    InvalidTransitionError,
    NotFoundError,
    StoreError,
    StoreUnavailableError,
    UnknownWorkflowError,
)
from ..stores import (
    Backend,
    Claim,
    Commit,
    Message,
    NewEvent,
    NewMessage,
    NewRun,
    RunRecord,
    StoreWrite,
    WorkerRecord,
    WorkflowStore,
)
from . import _crash_points as crash_points
from ._ambient import bind_backend, unbind_backend
from ._client import Client
from ._continue import Handoff
from ._executor import Activation
from ._flow_pull import DEFAULT_CONCURRENCY, concurrency_from, take_flow, wait_quiet
from ._hosts import host_identity, pid_is_dead
from ._parked import ParkedRuns
from ._prune import keep_pruning
from ._queue_gauge import sample_queue_depths
from ._registry import Registry
from ._scheduler import SCHEDULE_CHECK, ensure_schedules
from ._threads import StepThreads
from ._tracing import count_takeovers

__all__ = ["DEFAULT_CACHED_RUNS", "DEFAULT_CONCURRENCY", "Worker"]

log = logging.getLogger("tether.worker")

#: Parked runs a worker keeps warm in memory by default (`Worker(cached_runs=...)`).
DEFAULT_CACHED_RUNS = 256


class Worker:
    """Runs the workflows of one registry from a backend's queue.

    Use as ``async with tether.Worker(backend, registry):``. On start it registers
    itself, expires the leases of dead workers (a dead process on this host at once,
    any worker silent for `dead_after` elsewhere), and so recovers every active run of
    its versions. On exit it releases what it holds. With a retention period on its
    backend it sweeps ended runs of its workflows (`prune`) at start and every 5 min.

    Args:
        backend: An open backend.
        registry: The workflows, and the deployment version, this worker runs.
        concurrency: Runs executing at once. Default ``TETHER_WORKER_CONCURRENCY``,
            else `DEFAULT_CONCURRENCY`.
        lease_seconds: Run and message lease; renewed every third of it while held.
        poll_interval: Longest wait for new work when no wake-up announces it. (A
            Postgres backend announces work by NOTIFY; while its listener is connected
            it re-reads the queue once a second at most.)
        heartbeat_interval: How often the worker stamps itself alive and looks for
            dead workers.
        dead_after: A worker silent this long is dead and its leases are taken over —
            judged only by a worker that has itself reached the store for that long, so
            an outage of the store does not make live workers look dead.
        shutdown_grace: On stop, how long to wait for step bodies still running in
            threads before handing their runs back.
        cached_runs: How many parked runs this worker keeps in memory, suspended where
            they wait, so that a run it parked (a session between turns, a workflow
            waiting on a hook or a timer) goes on here without replaying its history.
            Least recently parked first out, and none longer than `PARKED_TTL` (10
            minutes); 0 keeps none. A run claimed elsewhere meanwhile is still safe to
            go on from here: what it did since is replayed.
        env: Where to read ``TETHER_WORKER_CONCURRENCY`` (default `os.environ`).
        background: Coroutine functions run beside the worker's own loops while it runs
            (started by `start`, cancelled by `stop`), such as an agent host's sweep
            of its sessions' inboxes.

    Raises:
        ConfigurationError: An option, or the environment variable, is invalid.
    """

    def __init__(
        self,
        backend: Backend,
        registry: Registry,
        *,
        concurrency: int | None = None,
        lease_seconds: float = 30.0,
        poll_interval: float = 0.1,
        heartbeat_interval: float = 2.0,
        dead_after: float = 15.0,
        shutdown_grace: float = 30.0,
        cached_runs: int | None = None,
        env: Mapping[str, str] | None = None,
        background: Sequence[Callable[[], Coroutine[Any, Any, None]]] = (),
    ) -> None:
        crash_points.configure(os.environ if env is None else env)
        if concurrency is None:
            concurrency = concurrency_from(os.environ if env is None else env)
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ConfigurationError(
                f"concurrency must be an integer of at least 1, not {concurrency!r}"
            )
        lease_seconds = check_duration(lease_seconds, what="lease_seconds", positive=True)
        poll_interval = check_duration(poll_interval, what="poll_interval", positive=True)
        heartbeat_interval = check_duration(
            heartbeat_interval, what="heartbeat_interval", positive=True
        )
        dead_after = check_duration(dead_after, what="dead_after", positive=True)
        shutdown_grace = check_duration(shutdown_grace, what="shutdown_grace")
        cached_runs = DEFAULT_CACHED_RUNS if cached_runs is None else cached_runs
        if isinstance(cached_runs, bool) or not isinstance(cached_runs, int) or cached_runs < 0:
            raise ConfigurationError(
                f"cached_runs must be an integer of at least 0, not {cached_runs!r}"
            )
        if dead_after <= heartbeat_interval:
            raise ConfigurationError("dead_after must be longer than heartbeat_interval")
        self.backend = backend
        self.registry = registry
        self.concurrency = concurrency
        self.lease_seconds = lease_seconds
        self.poll_interval = poll_interval
        self.heartbeat_interval = heartbeat_interval
        self.dead_after = dead_after
        self.shutdown_grace = shutdown_grace
        self._healthy_since: float | None = None
        self.host = socket.gethostname()
        self.host_id = host_identity()
        self.worker_id = f"{self.host}:{os.getpid()}:{new_ulid()}"
        self._activations: dict[str, tuple[Activation, Message]] = {}
        self.cached_runs = cached_runs
        self._parked = ParkedRuns(cached_runs)
        self._tasks: set[asyncio.Task[None]] = set()
        self._background: list[asyncio.Task[None]] = []
        self._services = tuple(background)
        self._context = contextvars.copy_context()
        self._slot_free = asyncio.Event()
        self._reserved = 0  # slots held by eager starts under way
        self._stopping = False
        self._threads = StepThreads()
        # One per worker: "session handoff unavailable" is logged once, not per run.
        self._handoff = Handoff(backend)
        # The registry's limits and priorities, checked now: a workflow naming a limit
        # nobody declared fails here, not at its first claim.
        self._flow = registry.flow_policy()
        self._flow_scan: tuple[float, str] | None = None  # where the next probe starts

    async def __aenter__(self) -> Worker:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def _store(self) -> WorkflowStore:
        return self.backend.stores.workflow

    async def start(self) -> None:
        """Register, recover dead workers' runs, and start pulling work."""
        now = time.time()
        self._threads = StepThreads()
        # Dead workers of this host go first: a supervisor (`tether dev`) counts a
        # registered worker as serving, and a client judges a run stranded from the
        # worker records, so a dead one must not be seen alongside this one.
        await self._reap()
        await self._store.register_worker(
            WorkerRecord(
                worker_id=self.worker_id,
                host=self.host,
                pid=os.getpid(),
                deployment=self.registry.deployment,
                engine_version=self.registry.engine_version,
                started_at=now,
                heartbeat_at=now,
                host_id=self.host_id,
            )
        )
        self._healthy_since = time.monotonic()
        # Every worker of a registry with schedules makes sure their scheduler runs
        # exist (idempotent: a chain per schedule name), before it takes work.
        await ensure_schedules(Client(self.backend, registry=self.registry), self.registry)
        # Tasks copy the context they are created in: every activation started by the
        # pull loop sees this worker's backend (`current_backend()`).
        bound = bind_backend(self.backend)
        try:
            # Activations spawned by a client's call (eager starts and wake-ups) get a
            # copy of this context too, not the caller's.
            self._context = contextvars.copy_context()
            self._background = [
                asyncio.create_task(self._pull(), name="tether-worker-pull"),
                asyncio.create_task(self._heartbeat(), name="tether-worker-heartbeat"),
                asyncio.create_task(sample_queue_depths(self._store), name="tether-queue-depth"),
                asyncio.create_task(keep_pruning(self.backend, self.registry), name="tether-prune"),
                *(asyncio.create_task(service()) for service in self._services),
            ]
            if self.registry.schedules:
                self._background.append(
                    asyncio.create_task(self._keep_schedules(), name="tether-worker-schedules")
                )
        finally:
            unbind_backend(bound)

    async def stop(self) -> None:
        """Stop pulling, hand back every run and message held, and unregister."""
        self._stopping = True
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._parked.close()
        held = list(self._activations.values())
        for activation, _ in held:
            activation.abandon()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # A step body still running in a thread cannot be stopped: its run is handed
        # back only once the thread returns (within `shutdown_grace`), so the next holder
        # never executes the same step alongside it. Runs still busy then keep their
        # lease, which expires (or this worker's record does) and hands them over.
        quiet = await wait_quiet([a for a, _ in held], self.shutdown_grace)
        for activation, message in held:
            if activation not in quiet:
                continue
            with contextlib.suppress(StoreError):
                await self._give_back(activation, message, delay=0.0)
        if len(quiet) == len(held):
            # Unregistering frees every lease still ours; with a step thread still busy
            # the record stays, and others take over once it is found dead.
            with contextlib.suppress(StoreError):
                await self._store.expire_worker(self.worker_id)
        self._threads.shutdown()

    @property
    def client(self) -> Client:
        """A `Client` whose starts run on this worker at once when it has a free slot.

        An eager start: the run is created already claimed by this worker, in one
        write, and its first step begins without a trip through the queue (no wake-up
        to wait for, no claim to write). Its activation message is written already
        delivered to this worker, so should the worker die the run comes back to the
        queue as any other. When the worker is full, stopping, or the workflow is not
        one of its registry's, the start goes through the queue as usual. Its hook
        payloads wake runs the same way (`wake_client`).
        """
        client = Client(self.backend, registry=self.registry)
        client._eager = self._start_eagerly
        client._eager_resume = self._resume_eagerly
        return client

    @property
    def wake_client(self) -> Client:
        """A `Client` whose hook payloads wake runs on this worker at once (see `client`).

        Its starts go through the queue; a payload for a parked run of this worker's
        queue claims the run in the payload's own write, when the worker has a free slot.
        """
        client = Client(self.backend, registry=self.registry)
        client._eager_resume = self._resume_eagerly
        return client

    def _has_room(self) -> bool:
        busy = len(self._tasks) + self._reserved >= self.concurrency
        return not busy and not self._stopping and bool(self._background)

    async def _resume_eagerly(
        self, token: str, payload: bytes, writes: Sequence[StoreWrite], run_id: str | None
    ) -> None:
        """A hook payload whose run, if parked and this worker's, is claimed by it at once.

        The payload, the claim and the activation message (written already delivered
        to this worker) land in one write: the run's next step starts with no wake-up
        to wait for and no claim of its own to write.
        """
        if not self._has_room() or self._flow is not None:
            # Under flow control every activation goes through the queue's claim,
            # where the limits and priorities are held.
            await self._store.resume_hook(token, payload, writes=writes, run_id=run_id)
            return
        self._reserved += 1
        try:
            sent = time.monotonic()
            _, claimed = await self._store.resume_hook_and_claim(
                token,
                payload,
                owner=self.worker_id,
                lease_seconds=self.lease_seconds,
                queue=self.registry.queue,
                writes=writes,
                run_id=run_id,
                known=self._parked.known(),
            )
        finally:
            self._reserved -= 1
        if claimed is not None:
            self._spawn(*claimed, sent)
            # The activation goes first, up to its next commit, before the caller goes
            # on: someone waits for what the run does next (a reply's first event), and
            # what the caller still has to do (an HTTP answer) overlaps that commit. Two
            # turns of the loop: its task takes the run up, then the body runs on.
            for _ in range(2):
                await asyncio.sleep(0)

    async def _start_eagerly(self, new: NewRun) -> RunRecord:
        if (
            not self._has_room()
            or new.queue != self.registry.queue
            or self.registry.limited(new.workflow_name)
        ):
            run, _ = await self._store.create_run(new)
            return run
        self._reserved += 1
        try:
            sent = time.monotonic()
            run, _, claimed = await self._store.start_run(
                new, owner=self.worker_id, lease_seconds=self.lease_seconds
            )
        finally:
            self._reserved -= 1
        if claimed is not None:
            self._spawn(*claimed, sent)
        return run

    def _spawn(self, message: Message, claim: Claim, sent: float) -> None:
        task = asyncio.create_task(self._handle(message, claim, sent), context=self._context.copy())
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    async def run_forever(self) -> None:
        """Run until cancelled (the CLI's `tether worker`)."""
        async with self:
            await asyncio.Event().wait()

    # -- background loops -------------------------------------------------------------------
    async def _pull(self) -> None:
        store = self._store
        queue = self.registry.queue
        while not self._stopping:
            free = self.concurrency - len(self._tasks) - self._reserved
            if free <= 0:
                self._slot_free.clear()
                await self._slot_free.wait()
                continue
            try:
                sent = time.monotonic()
                if self._flow is not None:
                    self._flow_scan = await take_flow(
                        store,
                        self._flow,
                        queue=queue,
                        owner=self.worker_id,
                        lease_seconds=self.lease_seconds,
                        free=free,
                        known=self._parked.known(),
                        poll_interval=self.poll_interval,
                        spawn=functools.partial(self._spawn, sent=sent),
                        scan_from=self._flow_scan,
                    )
                    continue
                claimed = await store.claim_next(
                    queue,
                    owner=self.worker_id,
                    lease_seconds=self.lease_seconds,
                    limit=free,
                    known=self._parked.known(),
                )
                for message, claim in claimed:
                    self._spawn(message, claim, sent)
                if not claimed:
                    await store.wait_for_messages(queue, self.poll_interval)
            except StoreError as exc:
                # The store is unreachable (restart, failover): keep trying.
                log.warning("taking work failed, retrying: %s", exc)
                await asyncio.sleep(self.poll_interval)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._slot_free.set()
        if not task.cancelled() and task.exception() is not None:
            log.error("activation crashed", exc_info=task.exception())

    async def _heartbeat(self) -> None:
        renew_every = self.lease_seconds / 3
        last_renew = time.monotonic()
        while True:
            await asyncio.sleep(min(self.heartbeat_interval, renew_every))
            self._parked.expire()
            try:
                await self._store.heartbeat_worker(self.worker_id)
                if self._healthy_since is None:
                    self._healthy_since = time.monotonic()
                if time.monotonic() - last_renew >= renew_every * 0.9:
                    await self._renew()
                    last_renew = time.monotonic()
                await self._reap()
            except StoreError as exc:
                self._healthy_since = None
                log.warning("heartbeat failed: %s", exc)

    async def _keep_schedules(self) -> None:
        # Now and then, not only at start: a deploy strands the old deployment's
        # schedulers once its last worker is gone, and a worker of the new one moves them.
        while True:
            await asyncio.sleep(SCHEDULE_CHECK)
            try:
                await ensure_schedules(Client(self.backend, registry=self.registry), self.registry)
            except StoreError as exc:
                log.debug("schedules not checked: %s", exc)

    async def _renew(self) -> None:
        store = self._store
        held = list(self._activations.values())
        for activation, _ in held:
            sent = time.monotonic()
            ok = await store.renew_lease(
                activation.run_id,
                owner=self.worker_id,
                epoch=activation.epoch,
                lease_seconds=self.lease_seconds,
            )
            if ok:
                activation.lease.renewed(sent)
            else:
                activation.abandon()
        if held:
            await store.renew_messages(
                [m.message_id for _, m in held],
                owner=self.worker_id,
                lease_seconds=self.lease_seconds,
            )

    async def _reap(self) -> None:
        # Heartbeats are stamped on the store's clock: silence is measured on it too.
        now = await self._store.clock()
        # A silent worker is judged dead only by a worker that has itself reached the
        # store for `dead_after`: after an outage (the database restarted) every live
        # worker's heartbeat is stale, and taking over their leases then would run
        # their steps twice. A dead process on this host is certain at once — but only
        # "this host" as its pid namespace says, never a hostname two containers share.
        judge_silence = (
            self._healthy_since is not None
            and time.monotonic() - self._healthy_since >= self.dead_after
        )
        for worker in await self._store.list_workers():
            if worker.worker_id == self.worker_id:
                continue
            same_pids = self.host_id is not None and worker.host_id == self.host_id
            local_dead = same_pids and pid_is_dead(worker.pid)
            silent = judge_silence and now - worker.heartbeat_at > self.dead_after
            if local_dead or silent:
                freed = await self._store.expire_worker(worker.worker_id)
                count_takeovers(freed)
                log.info("worker %s is dead; took over %d leases", worker.worker_id, freed)

    # -- one activation ---------------------------------------------------------------------
    async def _handle(self, message: Message, claim: Claim, sent: float) -> None:
        store = self._store
        run = claim.run
        assert run is not None  # claim_next returns claimed runs only
        run_id = run.run_id
        try:
            workflow = self.registry.get(run.workflow_name)
        except UnknownWorkflowError as exc:
            await store.commit(
                Commit(
                    run_id=run_id,
                    owner=self.worker_id,
                    epoch=claim.epoch,
                    expected_head=run.head,
                    events=(NewEvent(event_type="run_failed", payload=encode(exc)),),
                    ack_message_id=message.message_id,
                    release=True,
                )
            )
            return
        previous = self._activations.get(run_id)
        if previous is not None:
            # An older activation of this run still lives here: its lease lapsed while
            # the store was unreachable and the run came back to this worker under a
            # new epoch, which fences it. Its step bodies finish before the new
            # activation replays (and may re-run) them, never alongside.
            previous[0].abandon()
            await previous[0].quiesce()
        activation = self._parked.take_up(workflow, claim, message, sent)
        events = claim.events
        if activation is None and claim.after:
            # The claim left out the log this worker held warm, and the warm activation
            # could not go on after all: read the whole log for a replay.
            events = tuple(await store.list_events(run_id))
        if activation is None:
            activation = Activation(
                store=store,
                registry=self.registry,
                workflow=workflow,
                run=run,
                epoch=claim.epoch,
                events=events,
                message_id=message.message_id,
                owner=self.worker_id,
                threads=self._threads,
                lease_seconds=self.lease_seconds,
                lease_sent=sent,
                handoff=self._handoff,
            )
            activation.keep_parked = self.cached_runs > 0
            activation.on_parked = self._parked.keep
        self._activations[run_id] = (activation, message)
        try:
            outcome = await activation.run_to_boundary()
            if outcome == "abandoned" and not self._stopping:
                await self._hand_back(activation, message)
        finally:
            # Only now: until its step bodies have returned, a newer claim of the run
            # by this worker must find it (above), and its lease is still renewed. Not
            # a newer claim's entry: a warm activation may be taken up again (under
            # another message) before this task gets here.
            if self._activations.get(run_id) == (activation, message):
                del self._activations[run_id]

    async def _hand_back(self, activation: Activation, message: Message) -> None:
        """Give an abandoned run back, retrying while the store is unavailable.

        Step bodies still running in threads finish first, so the next holder never
        executes a step while this one does. The hand-back is one commit fenced by the
        activation's epoch: if the run came back to anyone since (this worker included,
        under a newer epoch, holding the very same message), it changes nothing.
        """
        await activation.quiesce()
        delay = 0.05
        while not self._stopping:
            try:
                await self._give_back(activation, message, delay=1.0)
                return
            except StoreUnavailableError as exc:
                log.warning("releasing run %s failed, retrying: %s", activation.run_id, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            except StoreError as exc:
                log.error("releasing run %s was refused: %s", activation.run_id, exc)
                return

    async def _give_back(self, activation: Activation, message: Message, *, delay: float) -> None:
        """Release the run and drop its message, leaving a wake-up due after `delay`.

        The release, the acknowledgement and the new wake-up are written together,
        so the run is never left without a way back.
        """
        wake = NewMessage(
            queue=activation.run.queue,
            payload=activation.run_id.encode(),
            available_at=time.time() + delay,
            idempotency_key=activation.run_id,
        )
        with contextlib.suppress(FencedError, InvalidTransitionError, NotFoundError):
            await self._store.commit(
                Commit(
                    run_id=activation.run_id,
                    owner=self.worker_id,
                    epoch=activation.epoch,
                    expected_head=None,
                    ack_message_id=message.message_id,
                    release=True,
                    enqueue=(wake,),
                )
            )
