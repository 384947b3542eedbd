"""The memory workflow store's state, and `_Txn`: the `ViewTxn` over it, with an undo log.

Every change a write makes goes through `_Txn._set` and `_Txn._del`, which note the
value they replace: `rollback` puts them back, so a write that raises leaves nothing
behind (the all-or-nothing a SQL transaction gives).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import ConflictError
from ..kit import (
    ACTIVE_RUN_STATUSES,
    DEFAULT_HOOK_RETENTION,
    Bucket,
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    RunRecord,
    StepRecord,
    WaitRecord,
    WorkerRecord,
    chain_of,
    new_ulid,
)

__all__ = ["_Row", "_State", "_Stream", "_Txn"]


@dataclass(slots=True)
class _Row:
    message_id: str
    queue: str
    payload: bytes
    available_at: float
    idempotency_key: str | None
    lease_owner: str | None = None
    lease_expires_at: float = 0.0
    deliveries: int = 0


@dataclass(slots=True)
class _Stream:
    chunks: list[bytes] = field(default_factory=list)
    closed: bool = False
    #: Chunks below this index were purged (their places stay empty: the stream goes on
    #: at its next index, as on the SQL stores).
    purged: int = 0


class _State:
    def __init__(self) -> None:
        self.runs: dict[str, RunRecord] = {}
        self.events: dict[str, list[EventRecord]] = {}
        self.creations: set[tuple[str, str | None, str]] = set()
        self.steps: dict[tuple[str, str], StepRecord] = {}
        self.waits: dict[tuple[str, str], WaitRecord] = {}
        self.hooks: dict[str, HookRecord] = {}
        self.tokens: dict[str, str] = {}
        self.queue: dict[str, _Row] = {}
        self.pending_keys: dict[tuple[str, str], str] = {}
        self.streams: dict[tuple[str, str], _Stream] = {}
        self.workers: dict[str, WorkerRecord] = {}
        #: Each chain's current run: the run id of its highest generation.
        self.chains: dict[str, str] = {}
        #: The runs whose content was purged (`purge_run_content`).
        self.purged: set[str] = set()
        #: Token buckets of flow-controlled claims, by key (`kit.flow_rules`).
        self.flow_buckets: dict[str, Bucket] = {}
        #: Step permits by key: each holder's expiry (`stores._permits`).
        self.flow_permits: dict[str, dict[str, float]] = {}


class _Txn:
    """`ViewTxn` over `_State` with an undo log."""

    def __init__(self, state: _State, hook_retention: float = DEFAULT_HOOK_RETENTION) -> None:
        self.s = state
        self.hook_retention = hook_retention
        self.undo: list[Callable[[], None]] = []

    def _set(self, d: dict[Any, Any], key: Any, value: Any) -> None:
        if key in d:
            old = d[key]
            self.undo.append(lambda: d.__setitem__(key, old))
        else:
            self.undo.append(lambda: d.pop(key, None))
        d[key] = value

    def _del(self, d: dict[Any, Any], key: Any) -> None:
        if key in d:
            old = d.pop(key)
            self.undo.append(lambda: d.__setitem__(key, old))

    def rollback(self) -> None:
        for fn in reversed(self.undo):
            fn()

    def get_run(self, run_id: str) -> RunRecord | None:
        return self.s.runs.get(run_id)

    def insert_run(self, run: RunRecord) -> None:
        chain = chain_of(run)
        current = self.s.runs.get(self.s.chains.get(chain, ""))
        if current is not None and current.generation >= run.generation:
            # What the unique (chain_id, generation) index is to the SQL backends.
            raise ConflictError(f"chain {chain!r} already has a run of generation {run.generation}")
        self._set(self.s.runs, run.run_id, run)
        if run.run_id not in self.s.events:
            self._set(self.s.events, run.run_id, [])
        self._set(self.s.chains, chain, run.run_id)

    def update_run(self, run: RunRecord) -> None:
        self._set(self.s.runs, run.run_id, run)

    def insert_event(self, event: EventRecord) -> None:
        if event.run_id not in self.s.events:
            self._set(self.s.events, event.run_id, [])
        log = self.s.events[event.run_id]
        log.append(event)
        self.undo.append(lambda: log.__delitem__(-1))
        key = (event.run_id, event.correlation_id, event.event_type)
        if key not in self.s.creations:
            self.s.creations.add(key)
            self.undo.append(lambda: self.s.creations.discard(key))

    def list_events(self, run_id: str) -> list[EventRecord]:
        return list(self.s.events.get(run_id, ()))

    def prefetch(self, run_ids: Sequence[str], *, events: bool) -> None:
        """Nothing to read ahead: each read is a local call."""

    def has_creation(self, run_id: str, correlation_id: str | None, event_type: str) -> bool:
        return (run_id, correlation_id, event_type) in self.s.creations

    def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        return self.s.steps.get((run_id, step_id))

    def insert_step(self, step: StepRecord) -> None:
        self._set(self.s.steps, (step.run_id, step.step_id), step)

    update_step = insert_step

    def get_wait(self, run_id: str, wait_id: str) -> WaitRecord | None:
        return self.s.waits.get((run_id, wait_id))

    def put_wait(self, wait: WaitRecord) -> None:
        self._set(self.s.waits, (wait.run_id, wait.wait_id), wait)

    def get_hook_by_token(self, token: str) -> HookRecord | None:
        hook_id = self.s.tokens.get(token)
        return None if hook_id is None else self.s.hooks.get(hook_id)

    def hooks_of_run(self, run_id: str) -> list[HookRecord]:
        return sorted(
            (h for h in self.s.hooks.values() if h.run_id == run_id and h.retained_until is None),
            key=lambda h: h.slot,
        )

    def active_children(self, run_id: str) -> list[str]:
        return sorted(
            r.run_id
            for r in self.s.runs.values()
            if r.parent_run_id == run_id and r.status in ACTIVE_RUN_STATUSES
        )

    def insert_hook(self, hook: HookRecord) -> None:
        self._set(self.s.hooks, hook.hook_id, hook)
        self._set(self.s.tokens, hook.token, hook.hook_id)

    def update_hook(self, hook: HookRecord) -> None:
        self._set(self.s.hooks, hook.hook_id, hook)

    def delete_hook(self, hook_id: str) -> None:
        hook = self.s.hooks.get(hook_id)
        if hook is not None:
            self._del(self.s.hooks, hook_id)
            self._del(self.s.tokens, hook.token)

    def last_run_of_chain(self, chain_id: str) -> str | None:
        return self.s.chains.get(chain_id)

    def enqueue_quiet(self, message: NewMessage, now: float) -> None:
        self.enqueue(message, now)

    def enqueue(self, message: NewMessage, now: float) -> str:
        if message.idempotency_key is not None:
            key = (message.queue, message.idempotency_key)
            existing = self.s.pending_keys.get(key)
            if existing is not None:
                row = self.s.queue[existing]
                if message.available_at < row.available_at:
                    self._set(
                        self.s.queue,
                        existing,
                        dataclasses.replace(row, available_at=message.available_at),
                    )
                return existing
        message_id = new_ulid("msg_")
        row = _Row(
            message_id,
            message.queue,
            message.payload,
            message.available_at,
            message.idempotency_key,
        )
        self._set(self.s.queue, message_id, row)
        if message.idempotency_key is not None:
            self._set(self.s.pending_keys, (message.queue, message.idempotency_key), message_id)
        return message_id

    def enqueue_leased(self, message: NewMessage, owner: str, until: float) -> Message:
        message_id = new_ulid("msg_")
        row = _Row(message_id, message.queue, message.payload, message.available_at,
                   message.idempotency_key, owner, until, 1)  # fmt: skip
        self._set(self.s.queue, message_id, row)
        return Message(
            message_id=message_id, queue=message.queue, payload=message.payload,
            deliveries=1, lease_owner=owner, lease_expires_at=until,
        )  # fmt: skip

    def ack(self, message_id: str, owner: str) -> bool:
        row = self.s.queue.get(message_id)
        if row is None or row.lease_owner != owner:
            return False
        self._del(self.s.queue, message_id)
        return True

    def nack(self, message_id: str, owner: str, available_at: float) -> bool:
        row = self.s.queue.get(message_id)
        if row is None or row.lease_owner != owner:
            return False
        if row.idempotency_key is not None:
            key = (row.queue, row.idempotency_key)
            if key in self.s.pending_keys:
                # A newer undelivered message carries the key; this one is redundant.
                self._del(self.s.queue, message_id)
                return True
            self._set(self.s.pending_keys, key, message_id)
        released = dataclasses.replace(
            row, lease_owner=None, lease_expires_at=0.0, available_at=available_at
        )
        self._set(self.s.queue, message_id, released)
        return True

    def drop_pending(self, queue: str, idempotency_key: str) -> None:
        message_id = self.s.pending_keys.get((queue, idempotency_key))
        if message_id is not None:
            self._del(self.s.pending_keys, (queue, idempotency_key))
            self._del(self.s.queue, message_id)
