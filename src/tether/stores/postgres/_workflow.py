"""Postgres workflow store: the shared rules of `stores._logic` over SQL rows.

Every write is one transaction on a pooled sync connection, run in a worker thread:
the rules in `_logic` are sync and run unchanged. Writes lock the run row
(``SELECT ... FOR UPDATE``) before reading it, so concurrent writers to one run
serialize while writers to different runs proceed in parallel; the queue is dequeued
with ``FOR UPDATE SKIP LOCKED``. Wake-ups are sent with ``pg_notify`` in the same
transaction (see `_notify`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from ..._aio import wait_event
from ..._validate import check_identifier, check_labels
from .. import _listings as listings
from .. import _logic
from .. import _rows as rows
from .._flow import FlowChoice, FlowClaim, FlowLimit, FlowPolicy
from .._pages import page_of, page_start
from .._permits import Permit
from .._prune_rows import prunable_runs, purge_run
from .._records import (
    TERMINAL_RUN_STATUSES,
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
    evolve,
)
from .._streams import follow
from .._writes import StoreWrite
from . import _fast, _ring, _workers
from ._flow import flow_take
from ._inspect import PostgresInspection
from ._notify import channels
from ._permits import permit_release, permit_take
from ._schema import SERVER_NOW
from ._statements import _take, _take_statement, _taken
from ._store_calls import StoreCalls
from ._txn import _events, _Txn

T = TypeVar("T")

log = logging.getLogger("tether.stores.postgres")

#: How long a waiter sleeps between re-reads while the listener is connected: wake-ups
#: come by notification, this only bounds the damage of a lost one.
FALLBACK_POLL = 1.0
_LABEL_SQL = rows.statements("%s").insert_label
_HOOKS_OF_RUN = rows.statements("%s").hooks_of_run


class PostgresWorkflowStore(StoreCalls, PostgresInspection):
    """The workflow store in a Postgres namespace, shared by any number of processes."""

    # -- runs --------------------------------------------------------------------------
    async def create_run(self, run: NewRun) -> tuple[RunRecord, bool]:
        def create(t: _Txn) -> tuple[RunRecord, bool]:
            t.take_run_ahead(run.run_id)
            return _logic.create_run(t, run, t.now)

        # The rules' read of the run (is the id taken?) goes with the BEGIN, on the
        # transaction's clock: two round trips, the writes with the COMMIT. So the run
        # is checked before: a refused id must not reach the server.
        _logic.check_new_run(run)
        lead = _Txn.run_ahead(run.run_id)
        return await self._write(create, retry_conflict=True, lead=lead)

    async def fork_run(
        self, fork: RunFork, *, writes: Sequence[StoreWrite] = ()
    ) -> tuple[RunRecord, bool]:
        _logic.check_new_run(fork.run)
        return await self._write(
            lambda t: _logic.fork_run(t, fork, t.now), retry_conflict=True, writes=writes
        )

    async def start_run(
        self, run: NewRun, *, owner: str, lease_seconds: float
    ) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
        def start(t: _Txn) -> tuple[RunRecord, bool, tuple[Message, Claim] | None]:
            t.take_run_ahead(run.run_id)
            return _logic.start_run(t, run, owner, lease_seconds, t.now)

        _logic.check_new_run(run)
        return await self._write(start, retry_conflict=True, lead=_Txn.run_ahead(run.run_id))

    async def get_run(self, run_id: str) -> RunRecord | None:
        found = await self._query(
            f"SELECT {rows.RUN_COLS} FROM tether_runs WHERE run_id = %s", (run_id,)
        )
        return rows.run_from_row(found[0]) if found else None

    async def latest_run(self, chain_id: str) -> RunRecord | None:
        found = await self._query(
            f"SELECT {rows.RUN_COLS} FROM tether_runs WHERE chain_id = %s "
            "ORDER BY generation DESC LIMIT 1",
            (chain_id,),
        )
        return rows.run_from_row(found[0]) if found else None

    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunRecord]:
        sql, params = listings.runs_query(
            "%s",
            labels=check_labels(labels),
            status=status,
            workflow_name=workflow_name,
            start=page_start(cursor),
            limit=limit,
        )
        runs = [rows.run_from_row(r) for r in await self._query(sql, params)]
        return page_of(runs, limit, lambda r: (r.created_at, r.run_id))

    async def list_chains(
        self,
        *,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[ChainRecord]:
        sql, params = listings.chains_query(
            "%s",
            labels=check_labels(labels),
            workflow_name=workflow_name,
            start=page_start(cursor),
            limit=limit,
        )
        found = listings.chains_from_rows(await self._query(sql, params))
        chains = [ChainRecord(first=f, current=c) for f, c in found]
        return page_of(chains, limit, lambda c: (c.first.created_at, c.first.run_id))

    async def label_run(self, run_id: str, labels: Mapping[str, str]) -> RunRecord:
        def label(t: _Txn) -> RunRecord:
            run = _logic.relabeled(t.get_run(run_id), run_id, labels)
            t.c.execute(
                "UPDATE tether_runs SET labels = %s WHERE run_id = %s",
                (rows.labels_text(run.labels), run_id),
            )
            for values in rows.label_values(run):
                t.c.execute(_LABEL_SQL, values)
            return run

        return await self._write(label)

    async def list_steps(self, run_id: str) -> list[StepRecord]:
        found = await self._sql(
            lambda c: c.execute(
                rows.step_select("s.run_id = %s") + " ORDER BY s.slot",
                (run_id,),
            ).fetchall()
        )
        return [rows.step_from_row(r) for r in found]

    async def list_events(
        self, run_id: str, *, after: int = 0, limit: int | None = None
    ) -> list[EventRecord]:
        return await self._sql(lambda c: _events(c, run_id, after, limit))

    async def list_hooks(self, run_id: str | None = None) -> list[HookRecord]:
        # One statement each way: with the run named, its entries of the index of
        # active hooks (a catch-all ``run_id IS NULL OR ...`` has a generic plan that
        # scans every open hook once the statement is prepared).
        if run_id is None:
            found = await self._query(rows.ACTIVE_HOOKS, ())
        else:
            found = await self._query(_HOOKS_OF_RUN, (run_id,))
        return [rows.hook_from_row(r) for r in found]

    async def get_hook(self, token: str) -> HookRecord | None:
        hook = await self._write(lambda t: t.get_hook_by_token(token))
        return None if hook is None or hook.retained_until is not None else hook

    async def list_waits(self, run_id: str) -> list[WaitRecord]:
        found = await self._sql(
            lambda c: c.execute(
                f"SELECT {rows.WAIT_COLS} FROM tether_waits WHERE run_id = %s ORDER BY slot",
                (run_id,),
            ).fetchall()
        )
        return [rows.wait_from_row(r) for r in found]

    async def list_run_messages(self, run_id: str) -> list[QueueEntry]:
        sql = f"SELECT {rows.QUEUE_ENTRY_COLS} FROM tether_queue WHERE payload = %s"
        found = await self._sql(lambda c: c.execute(sql, (run_id.encode(),)).fetchall())
        return sorted(map(rows.queue_entry_from_row, found), key=lambda m: m.available_at)

    async def queue_depths(self) -> list[QueueDepth]:
        # The server's clock, as the queue's own deliveries read it.
        sql = rows.queue_depths_query(SERVER_NOW)
        found = await self._sql(lambda c: c.execute(sql).fetchall())
        return [rows.queue_depth_from_row(r) for r in found]

    # -- lease holder ------------------------------------------------------------------
    async def claim_run(self, run_id: str, *, owner: str, lease_seconds: float) -> Claim:
        return await self._write(lambda t: _logic.claim_run(t, run_id, owner, lease_seconds, t.now))

    async def commit(self, commit: Commit) -> CommitResult:
        known = self._known.get(commit.run_id)
        fast = None if known is None else _fast.plan(known, commit, time.time())
        riding = self._streams.riding(commit.writes)
        if fast is not None and riding is None:
            # Writes of other stores need their rules' reads, in a transaction; the
            # run's part is decided on the copy and goes with its COMMIT.
            result = await self._commit_with_writes(fast, commit)
            if result is not None:
                return result
        elif fast is not None and riding is not None:
            _, run_channel, _ = channels(self._namespace)
            notes = [(run_channel, commit.run_id)] if fast.finished else []
            expected = self._streams.expect(commit.writes)
            try:
                # On the event loop, not a thread: the whole commit (stream appends
                # included) is one round trip, shared with other runs' commits made at
                # the same moment.
                sent = replace(fast, extra=riding) if riding else fast
                stamp, firsts = await self._group.send(sent, notes)
            except Exception as exc:
                # Usually the run changed under the copy (another writer, a lease
                # renewal); whatever it was, nothing was written: the locked path
                # re-reads the run and gives the authoritative answer.
                log.debug("run %s: one-round-trip commit refused (%s)", commit.run_id, exc)
                self._streams.cancel(expected)
                self._known.drop(commit.run_id)
            else:
                if commit.on_durable is not None:
                    commit.on_durable()  # first: a sync step's body starts meanwhile
                self._known.put(fast.known(stamp))
                self._committed(notes, set(), self._streams.rode(commit.writes, firsts), expected)
                return fast.result
        result = await self._write(
            lambda t: _logic.apply_commit(t, commit, t.now),
            retry_conflict=True,
            writes=commit.writes,
        )
        if commit.on_durable is not None:
            commit.on_durable()
        return result

    async def _commit_with_writes(
        self, fast: _fast.FastCommit, commit: Commit
    ) -> CommitResult | None:
        """`commit` with its writes, the run's part decided on the copy; None: not done."""
        _, run_channel, _ = channels(self._namespace)
        run_notes = [(run_channel, commit.run_id)] if fast.finished else []
        expected = self._streams.expect(commit.writes)
        try:
            stamp, notes, paths, appends = await asyncio.get_running_loop().run_in_executor(
                self._executor, self._in_txn_fast, fast, commit.writes, run_notes
            )
        except BaseException as exc:
            self._streams.cancel(expected)
            if not isinstance(exc, Exception):
                raise
            # The run changed under the copy, or a write was refused: nothing was
            # written, and the ordinary path decides (and raises what holds).
            log.debug("run %s: commit on the copy refused (%s)", commit.run_id, exc)
            self._known.drop(commit.run_id)
            return None
        self._known.put(fast.known(stamp))
        self._committed(notes, paths, appends, expected)
        return fast.result

    async def renew_lease(
        self, run_id: str, *, owner: str, epoch: int, lease_seconds: float
    ) -> bool:
        self._known.drop(run_id)  # the row changes under the copy
        # RETURNING, not rowcount: in pipeline mode rowcount is unknown (-1).
        return await self._sql(
            lambda c: (
                c.execute(
                    f"UPDATE tether_runs SET lease_expires_at = {SERVER_NOW} + %s "
                    "WHERE run_id = %s AND lease_owner = %s AND lease_epoch = %s RETURNING run_id",
                    (lease_seconds, run_id, owner, epoch),
                ).fetchone()
                is not None
            )
        )

    async def release_run(self, run_id: str, *, owner: str, epoch: int) -> None:
        self._known.drop(run_id)
        await self._sql(
            lambda c: c.execute(
                "UPDATE tether_runs SET lease_owner = NULL, lease_expires_at = 0 WHERE run_id = %s "
                "AND lease_owner = %s AND lease_epoch = %s",
                (run_id, owner, epoch),
            )
        )

    # -- outside writes ----------------------------------------------------------------
    async def resume_hook(
        self,
        token: str,
        payload: bytes,
        *,
        writes: Sequence[StoreWrite] = (),
        run_id: str | None = None,
    ) -> HookRecord:
        # Checked before its reads go out ahead of the rules (which check it too).
        check_identifier(token, what="hook token")
        return await self._write(
            lambda t: _logic.resume_hook(t, token, payload, t.now, run_id),
            writes=writes,
            hook=(token, False),
        )

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
        claim_for = (owner, lease_seconds, queue)
        check_identifier(token, what="hook token")
        ring = None
        if known:
            ring = _ring.plan(
                self._namespace, token, payload, owner=owner, lease_seconds=lease_seconds,
                queue=queue, writes=writes, run_id=run_id, known=known,
                copy=None if run_id is None else self._known.get(run_id),
            )  # fmt: skip
        if ring is not None:
            # A parked run this process holds: in one statement when plain (`_ring`).
            rang = await self._ring_claim(ring)
            if rang is not None:
                hook, message, claim, copy = rang
                self._known.put(copy)
                return hook, (message, claim)
        hook, claimed = await self._write(
            lambda t: _logic.resume_hook_and_claim(t, token, payload, t.now, run_id, claim_for),
            writes=writes,
            hook=(token, True),
            held_logs=known,
        )
        if claimed is None:
            return hook, None
        return hook, (claimed[0], await self._after_known(claimed[1], known))

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord:
        return await self._write(lambda t: _logic.cancel_run(t, run_id, reason, t.now))

    def _fallback(self, poll: float) -> float:
        return FALLBACK_POLL if self._notifier.healthy else poll

    async def wait_run_terminal(self, run_id: str, timeout: float) -> RunRecord | None:
        deadline = time.monotonic() + timeout
        poll = 0.02
        while True:
            # Take the event before reading, so a NOTIFY between the two is not missed.
            event = self._notifier.run_event(run_id)
            run = await self.get_run(run_id)
            remaining = deadline - time.monotonic()
            if run is None or run.status in TERMINAL_RUN_STATUSES or remaining <= 0:
                return run
            if not await wait_event(event, min(self._fallback(poll), remaining)):
                poll = min(poll * 2, 0.25)

    # -- queue -------------------------------------------------------------------------
    async def enqueue(self, message: NewMessage) -> str:
        return await self._write(lambda t: t.enqueue(message, t.now), retry_conflict=True)

    async def dequeue(
        self, queue: str, *, owner: str, lease_seconds: float, limit: int
    ) -> list[Message]:
        return await self._write(lambda t: _take(t.c, queue, owner, lease_seconds, limit, t.now))

    async def claim_next(
        self,
        queue: str,
        *,
        owner: str,
        lease_seconds: float,
        limit: int,
        known: Mapping[str, int] | None = None,
    ) -> list[tuple[Message, Claim]]:
        if self._nothing_announced(queue, owner):
            return []
        drained = False

        # One transaction: a message is never left leased to a worker whose claim of the
        # run did not commit (that message would look busy to others and be dropped).
        # The take goes with the BEGIN, on the transaction's clock: one round trip.
        def claim(t: _Txn) -> list[tuple[Message, Claim]]:
            nonlocal drained
            assert t.lead is not None
            taken = _taken(t.lead.fetchall(), queue, owner, t.now + lease_seconds)
            drained = len(taken) < limit
            if not taken:
                return []
            return _logic.claim_messages(t, taken, owner, lease_seconds, t.now)

        # A wake-up kept for a busy run can meet another one for it (unique pending key):
        # the claim is all-or-nothing, so it is simply taken again.
        lead = _take_statement(queue, owner, lease_seconds, limit)
        claimed = await self._write(claim, retry_conflict=True, lead=lead, held_logs=known)
        if drained and claimed:
            self._drained.add((queue, owner))
        if len(claimed) > 1:
            # Each claimed run commits next, all at about the same time.
            await self._commits.expect(len(claimed))
        return [(m, await self._after_known(c, known)) for m, c in claimed]

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
        done: list[tuple[FlowChoice, tuple[float, str] | None]] = []

        def claim(t: _Txn) -> list[tuple[Message, Claim]]:
            claimed, choice, to = flow_take(
                t, self._namespace, queue, owner, lease_seconds, limit, policy, scan_from
            )
            done.append((choice, to))  # run again after a rollback: the last one committed
            return claimed

        claimed = await self._write(claim, retry_conflict=True, held_logs=known)
        choice, to = done[-1]
        return FlowClaim(
            claimed=[(m, await self._after_known(c, known)) for m, c in claimed],
            blocked=choice.blocked,
            retry_after=choice.retry_after,
            scanned_to=to,
        )

    async def acquire_permit(
        self, key: str, *, holder: str, limit: FlowLimit, lease_seconds: float
    ) -> Permit:
        return await self._write(
            lambda t: permit_take(t, self._namespace, key, holder, limit, lease_seconds),
            retry_conflict=True,
        )

    async def release_permit(self, key: str, *, holder: str) -> None:
        await self._write(lambda t: permit_release(t, key, holder), retry_conflict=True)

    def _nothing_announced(self, queue: str, owner: str) -> bool:
        """Whether `owner`'s take now would find nothing its last one did not (once).

        A worker asks for more work as soon as a take gave it some. When that take found
        fewer messages than it asked for, the queue held no claimable message as of its
        transaction, and whatever is enqueued or released since is announced on the
        queue's channel, which sets the queue's event (cleared only by
        `wait_for_messages`). So while the listener is up and that event is not set, the
        next take would be an empty transaction: a round trip and a thread's hop for
        nothing. It is skipped, once: the caller then waits for messages, and whatever
        falls due unannounced (a delayed message, a lapsed lease) is found as before,
        by that wait's due time and the fallback poll. (Per owner: another worker of this
        process may have consumed the event, and then it takes the work announced.)
        """
        if (queue, owner) not in self._drained:
            return False
        self._drained.discard((queue, owner))
        return self._notifier.healthy and not self._notifier.queue_event(queue).is_set()

    async def _after_known(self, claim: Claim, known: Mapping[str, int] | None) -> Claim:
        """Mark a claim whose log was read after a slot its claimer holds (`_Txn.held_logs`)."""
        if not known or claim.run is None or claim.outcome != "claimed":
            return claim
        used = known.get(claim.run.run_id, 0)
        after = _logic.known_after(claim, known)
        if used == after:
            return evolve(claim, after=after)
        # A head the run never reached (no prefix of its log): the whole log after all.
        return evolve(claim, events=tuple(await self.list_events(claim.run.run_id)), after=0)

    async def ack(self, message_id: str, *, owner: str) -> bool:
        return await self._write(lambda t: t.ack(message_id, owner))

    async def nack(self, message_id: str, *, owner: str, delay: float) -> bool:
        return await self._write(
            lambda t: t.nack(message_id, owner, t.now + delay), retry_conflict=True
        )

    async def renew_messages(
        self, message_ids: Sequence[str], *, owner: str, lease_seconds: float
    ) -> int:
        ids = list(message_ids)
        return await self._sql(
            lambda c: len(
                c.execute(
                    f"UPDATE tether_queue SET lease_expires_at = {SERVER_NOW} + %s "
                    "WHERE message_id = ANY(%s) AND lease_owner = %s RETURNING message_id",
                    (lease_seconds, ids, owner),
                ).fetchall()
            )
        )

    async def wait_for_messages(self, queue: str, timeout: float) -> None:
        event = self._notifier.queue_event(queue)
        if self._notifier.healthy:
            # New and released messages are announced; re-reading every `timeout`
            # (a worker's poll interval) would only cost two transactions a turn.
            timeout = max(timeout, FALLBACK_POLL)
        if not event.is_set():
            # A delayed message (a durable timer, a retry backoff) falls due without any
            # write to announce it: wake when the earliest one is due.
            row = await self._sql(
                lambda c: c.execute(
                    f"SELECT min(available_at) - {SERVER_NOW} FROM tether_queue "
                    f"WHERE queue = %s AND lease_owner IS NULL AND available_at > {SERVER_NOW}",
                    (queue,),
                ).fetchone()
            )
            if row is not None and row[0] is not None:
                timeout = min(timeout, max(0.0, float(row[0])))
            await wait_event(event, timeout)
        event.clear()

    # -- workers (`_workers`) ----------------------------------------------------------------
    async def clock(self) -> float:
        return await _workers.clock(self._sql)

    async def register_worker(self, worker: WorkerRecord) -> None:
        await _workers.register(self._sql, worker)

    async def heartbeat_worker(self, worker_id: str) -> None:
        await _workers.heartbeat(self._sql, worker_id)

    async def list_workers(self) -> list[WorkerRecord]:
        return await _workers.list_all(self._sql)

    async def expire_worker(self, worker_id: str) -> int:
        return await self._write(lambda t: _workers.expire(t, worker_id))

    async def purge_run_content(self, run_id: str, *, keep_input: bool = False) -> bool:
        return await self._write(lambda t: purge_run(t.c, "%s", run_id, keep_input))

    async def list_prunable_runs(
        self, ended_before: float, *, limit: int, after: tuple[float, str] | None = None
    ) -> list[RunRecord]:
        return await self._sql(lambda c: prunable_runs(c, "%s", ended_before, limit, after))

    # -- streams (`_streams`) ----------------------------------------------------------------
    async def write_stream(
        self, run_id: str, name: str, chunks: Sequence[bytes], *, at: int | None = None
    ) -> int:
        return await self._streams.write(run_id, name, chunks, at)

    async def close_stream(self, run_id: str, name: str) -> None:
        await self._streams.close(run_id, name)

    async def read_stream(
        self, run_id: str, name: str, *, start: int = 0, limit: int = 1000
    ) -> tuple[list[StreamChunk], bool]:
        return await self._streams.read(run_id, name, start=start, limit=limit)

    def follow_stream(
        self, run_id: str, name: str, *, start: int = 0, poll_interval: float = 0.05
    ) -> AsyncIterator[StreamChunk]:
        return follow(
            self,
            run_id,
            name,
            start=start,
            poll_interval=lambda: self._fallback(poll_interval),
            taps=self._streams.taps,
        )
