"""Typed records the workflow store reads and writes.

Payload fields (`input`, `output`, `error`, `payload`) are bytes framed by
`tether._codec`; stores keep them opaque.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import timedelta
from functools import cache, partial
from types import MemberDescriptorType
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from ._writes import StoreWrite

from ..errors import ConfigurationError
from ._events import EventType

T = TypeVar("T")
R = TypeVar("R")

__all__ = [
    "ACTIVE_RUN_STATUSES",
    "DEFAULT_HOOK_RETENTION",
    "FORKED_FROM_LABEL",
    "FORK_SLOT_LABEL",
    "TERMINAL_RUN_STATUSES",
    "TERMINAL_STEP_STATUSES",
    "Attr",
    "ChainRecord",
    "Claim",
    "ClaimOutcome",
    "Commit",
    "CommitResult",
    "Continuation",
    "EventRecord",
    "HookRecord",
    "Message",
    "NewEvent",
    "NewMessage",
    "NewRun",
    "Page",
    "QueueDepth",
    "QueueEntry",
    "RunFork",
    "RunRecord",
    "RunStatus",
    "StepRecord",
    "StepStatus",
    "StreamChunk",
    "WaitRecord",
    "WorkerRecord",
    "chain_of",
    "event_id",
    "evolve",
    "hook_retention_seconds",
    "slot_of_event_id",
    "successor_run_id",
]

RunStatus = Literal["pending", "running", "completed", "failed", "cancelled", "continued"]
StepStatus = Literal["running", "retrying", "completed", "failed"]
Attr = str | int | float | bool | None

#: "continued": the run ended by starting its successor (`Continuation`); its chain goes on.
TERMINAL_RUN_STATUSES: frozenset[str] = frozenset({"completed", "failed", "cancelled", "continued"})
ACTIVE_RUN_STATUSES: frozenset[str] = frozenset({"pending", "running"})
TERMINAL_STEP_STATUSES: frozenset[str] = frozenset({"completed", "failed"})
#: How long a token its run's end released stays reserved for the run's chain (30 days).
DEFAULT_HOOK_RETENTION = 30 * 24 * 3600.0

_EVENT_PREFIX = "evt_"
_EVENT_DIGITS = 20


def event_id(slot: int) -> str:
    """Return the event id of a slot; lexical order of ids is slot order."""
    return f"{_EVENT_PREFIX}{slot:0{_EVENT_DIGITS}d}"


def slot_of_event_id(value: str) -> int:
    """Return the slot an event id encodes.

    Raises:
        ValueError: The id does not encode a slot.
    """
    if not value.startswith(_EVENT_PREFIX) or len(value) != len(_EVENT_PREFIX) + _EVENT_DIGITS:
        raise ValueError(f"{value!r} is not a tether event id (evt_ + {_EVENT_DIGITS} digits)")
    return int(value[len(_EVENT_PREFIX) :])


def successor_run_id(chain_id: str, generation: int) -> str:
    """The run id of generation `generation` (1, 2, ...) of a chain.

    A chain is the runs linked by continue-as-new; its id is its first run's id
    (generation 0). Ids follow from (chain, generation), so a chain is walked both ways
    without reading a link: ``order-42``, ``order-42~1``, ``order-42~2``, ...
    """
    return chain_id if generation == 0 else f"{chain_id}~{generation}"


def chain_of(run: RunRecord | HookRecord) -> str:
    """The chain a run (or a hook's run) belongs to: its first run's id."""
    return run.chain_id or run.run_id


def hook_retention_seconds(value: float | timedelta) -> float:
    """Validate a hook retention window: a finite number of seconds, 0 or more.

    Raises:
        ConfigurationError: It is negative, NaN or infinite.
    """
    seconds = value.total_seconds() if isinstance(value, timedelta) else value
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ConfigurationError(
            f"hook_retention must be seconds or a timedelta, not {type(value).__name__}"
        )
    if not math.isfinite(seconds) or seconds < 0:
        raise ConfigurationError(
            f"hook_retention must be a finite duration of 0 or more, not {value!r} "
            "(0 frees a token as soon as its run ends)"
        )
    return float(seconds)


@dataclass(frozen=True, slots=True, kw_only=True)
class NewRun:
    """A run to create: the `run_created` event and the activation message."""

    run_id: str
    workflow_name: str
    input: bytes
    deployment: str
    engine_version: str
    queue: str
    parent_run_id: str | None = None
    parent_slot: int | None = None
    #: A digest of the input's canonical form (`tether._codec.digest`): starting the
    #: same run id again compares it instead of the bytes, which differ with dict key
    #: order and, once payloads are encrypted, between any two writes. Deleted with
    #: the run's content (`purge_run_content`).
    input_digest: str | None = None
    #: The chain this run continues (see `successor_run_id`); None starts a new chain
    #: whose id is `run_id`.
    chain_id: str | None = None
    generation: int = 0
    #: Clear-text, indexed metadata (`WorkflowStore.list_runs` filters on it), checked
    #: by `tether._validate.check_labels`. A chain's later runs keep its labels (and
    #: take these too); a child run has only its own.
    labels: Mapping[str, str] = field(default_factory=dict)


#: The labels a fork carries: the run it was forked from, and the slot it starts at.
FORKED_FROM_LABEL = "tether.forked_from"
FORK_SLOT_LABEL = "tether.fork_slot"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunFork:
    """A new run made of another run's journal up to a slot (`WorkflowStore.fork_run`).

    `events` are the copied operations, already given the new run's ids (steps, hook
    ids and tokens): the store appends them after `run_created` in the transaction that
    creates the run, so the fork exists whole or not at all.
    """

    run: NewRun
    source_run_id: str
    from_slot: int
    events: tuple[NewEvent, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRecord:
    """The run view, derived from the run's events."""

    run_id: str
    workflow_name: str
    status: RunStatus
    deployment: str
    engine_version: str
    queue: str
    input: bytes | None
    output: bytes | None
    error: bytes | None
    head: int
    parent_run_id: str | None
    parent_slot: int | None
    lease_owner: str | None
    lease_epoch: int
    lease_expires_at: float
    created_at: float
    updated_at: float
    completed_at: float | None
    input_digest: str | None = None
    #: The chain's id (its first run's; stores always set it) and this run's place in
    #: it: 0 for the first run, n for ``<chain>~n`` (see `successor_run_id`).
    chain_id: str | None = None
    generation: int = 0
    #: The run's labels (see `NewRun.labels`); empty once its content was purged.
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChainRecord:
    """A chain as `WorkflowStore.list_chains` lists it: its first run and its current run.

    `current` is the run of the chain with the highest generation (see `latest_run`):
    `first` itself when the chain never continued.
    """

    first: RunRecord
    current: RunRecord


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRecord:
    """The step view: one durable step of a run, across its attempts."""

    run_id: str
    step_id: str
    slot: int
    name: str
    status: StepStatus
    attempt: int
    format_version: int
    input: bytes | None
    output: bytes | None
    error: bytes | None
    started_at: float
    completed_at: float | None
    retry_after: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class HookRecord:
    """An active hook; disposed hooks leave the view.

    A token its run's end released stays reserved for the run's chain until
    `retained_until` (hook retention): rules see such a record, reads of hooks do not.
    A hook moved to a successor run (continue-as-new) has slot 0 until the successor
    adopts it by creating a hook with its token.
    """

    hook_id: str
    run_id: str
    token: str
    slot: int
    created_at: float
    chain_id: str | None = None
    retained_until: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitRecord:
    """A durable timer of a run."""

    run_id: str
    wait_id: str
    slot: int
    resume_at: float
    completed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class NewEvent:
    """An event to append. `attrs` hold small scalars, `payload` the one large value."""

    event_type: EventType
    correlation_id: str | None = None
    attrs: Mapping[str, Attr] = field(default_factory=dict)
    payload: bytes | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRecord:
    """A stored event; `slot` is its position in the run's log (run_created is 1)."""

    run_id: str
    slot: int
    event_type: EventType
    correlation_id: str | None
    attrs: Mapping[str, Attr]
    payload: bytes | None
    created_at: float

    @property
    def event_id(self) -> str:
        """The event id, which encodes the slot."""
        return event_id(self.slot)


@dataclass(frozen=True, slots=True, kw_only=True)
class NewMessage:
    """A queue message to enqueue.

    An idempotency key matches at most one message that has not been delivered yet;
    once delivery starts the key is free again, so a wake-up sent while a message is
    being handled is never absorbed by it.
    """

    queue: str
    payload: bytes
    available_at: float
    idempotency_key: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """A delivered queue message, leased to one owner."""

    message_id: str
    queue: str
    payload: bytes
    deliveries: int
    lease_owner: str
    lease_expires_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class QueueDepth:
    """How many messages one queue holds now, by what a worker can do with them.

    Attributes:
        queue: The queue.
        ready: Deliverable now: never delivered, or their holder's lease ended.
        delayed: Not deliverable before their ``available_at`` (a backoff, a timer).
        leased: Delivered, and held by a lease that has not ended.
    """

    queue: str
    ready: int
    delayed: int
    leased: int


@dataclass(frozen=True, slots=True, kw_only=True)
class QueueEntry:
    """A queue message as an inspection sees it: waiting, or delivered to an owner.

    Attributes:
        message_id: The message.
        queue: Its queue.
        available_at: When it may be (or could be) delivered (Unix seconds).
        deliveries: How many times delivery started.
        lease_owner: Who holds it now; None while it waits for delivery.
        lease_expires_at: When that owner's hold ends (0 while it waits).
    """

    message_id: str
    queue: str
    available_at: float
    deliveries: int
    lease_owner: str | None
    lease_expires_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Commit:
    """One atomic write by the lease holder of a run.

    The store applies it only if the holder's epoch is current and the run's log head
    is still `expected_head` (unchecked when None: a hand-back, which writes no event);
    otherwise it raises `FencedError` or `StaleHeadError` and writes nothing. A commit
    that releases a run which goes on (a park, a hand-back) drops the run's waiting
    wake-ups before it enqueues its own.
    """

    run_id: str
    owner: str
    epoch: int
    expected_head: int | None
    events: tuple[NewEvent, ...] = ()
    start_runs: tuple[NewRun, ...] = ()
    enqueue: tuple[NewMessage, ...] = ()
    ack_message_id: str | None = None
    release: bool = False
    lease_seconds: float | None = None
    #: Other stores' writes applied in the same transaction, before the events (see
    #: `stores._writes`): the commit lands with all of them or with none.
    writes: tuple[StoreWrite, ...] = ()
    #: The successor this commit starts: its last event is then `run_continued`, and
    #: the run ends continued, its hooks moved to the successor (see `Continuation`).
    continuation: Continuation | None = None
    #: Optional, called with no argument once the commit is durable, before `commit`
    #: returns (never if it raises), on whatever thread the store writes on. A store
    #: that writes on a thread of its own (SQLite) calls it there, so the caller can
    #: start what the commit allows (a sync step's body) without waiting for the event
    #: loop to hear of it; stores may also not call it. It must be quick, must not
    #: raise, and may touch the event loop only through ``call_soon_threadsafe``.
    on_durable: Callable[[], None] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Continuation:
    """The successor a run's last commit starts, in the same transaction.

    The successor (generation + 1 of the same chain, id `successor_run_id`) is created
    pending with its wake-up message; every active hook of the ending run moves to it
    without ever being free (force-claim), and `carried` payloads — delivered to the
    ending run but not consumed by it, in arrival order per hook — are delivered to it
    again, under the same hook ids.
    """

    run: NewRun
    carried: tuple[tuple[str, bytes], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CommitResult:
    """Where the commit left the run's log."""

    head: int
    at: float


ClaimOutcome = Literal["claimed", "busy", "finished", "missing"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """The result of claiming a run: on success, the fencing epoch and the log.

    The log is whole unless the claimer said it holds it up to a slot (`known`, see
    `WorkflowStore.claim_next`): then `events` may start after `after`.
    """

    outcome: ClaimOutcome
    run: RunRecord | None = None
    epoch: int = 0
    events: tuple[EventRecord, ...] = ()
    #: The events are those after this slot (0: the whole log).
    after: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamChunk:
    """One chunk of a run's named stream."""

    index: int
    data: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkerRecord:
    """A worker process as registered in the store.

    `host_id` names the host and process-id space the pid belongs to (on Linux the boot
    id and the pid namespace), or is None when that cannot be known: a worker may judge
    another dead by its pid only when both carry the same, non-None `host_id`.
    """

    worker_id: str
    host: str
    pid: int
    deployment: str
    engine_version: str
    started_at: float
    heartbeat_at: float
    host_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Page(Generic[T]):
    """A page of results and the cursor of the next page (None at the end)."""

    items: tuple[T, ...]
    next_cursor: str | None


@cache
def _field_names(cls: type) -> tuple[frozenset[str], tuple[str, ...]]:
    names = tuple(f.name for f in fields(cls))
    return frozenset(names), names


def _one_field(names: tuple[str, ...], record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in names)


def _set_field(name: str, record: Any, value: Any) -> None:
    object.__setattr__(record, name, value)


@cache
def _copier(
    cls: type,
) -> tuple[
    Callable[[Any], tuple[Any, ...]], tuple[Callable[[Any, Any], None], ...], dict[str, int]
]:
    """Read every field at once (in C), and set each slot through its descriptor."""
    _, names = _field_names(cls)
    # The slot descriptors' own setters (frozen classes block plain assignment; their
    # own __init__ sets fields so); a field that is no slot is set through object.
    setters = tuple(
        slot.__set__
        if isinstance(slot := cls.__dict__.get(name), MemberDescriptorType)
        else partial(_set_field, name)
        for name in names
    )
    # attrgetter of one name returns the value itself, not a 1-tuple.
    read = operator.attrgetter(*names) if len(names) > 1 else partial(_one_field, names)
    return read, setters, {n: i for i, n in enumerate(names)}


def evolve(record: R, **changes: Any) -> R:
    """A copy of the frozen `record` with `changes`: `dataclasses.replace`, faster.

    The rules copy a run record several times per commit, and ``replace`` (which
    re-runs the generated ``__init__`` through a dict of every field) was a third of
    a one-round-trip commit's client-side planning. The records here have no
    ``__post_init__`` and no init-only fields, so setting the slots directly builds
    exactly what ``__init__`` would.

    Raises:
        TypeError: A change names no field of the record (as ``replace`` does).
    """
    cls: type = type(record)
    read, setters, index = _copier(cls)
    values = list(read(record))
    try:
        for name, value in changes.items():
            values[index[name]] = value
    except KeyError:
        known, _ = _field_names(cls)
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - known)}") from None
    copy: R = object.__new__(cls)
    for setter, value in zip(setters, values, strict=True):
        setter(copy, value)
    return copy
