"""Flow control in the store: which ready activations a flow-controlled claim takes.

A flow-controlled claim (`WorkflowStore.claim_flow`) runs these rules inside the
store's write transaction, alike on every backend, so they hold across every worker
of every host that shares the store:

- **Concurrency**: at most ``concurrency`` activations of a key's runs executing at
  once. An executing activation is a queue message held by a live lease, so its place is
  free again the moment its activation ends (the message is acknowledged), and when
  the lease of a worker that died runs out — nothing has to give it back.
- **Rate**: at most ``per_second`` activations of a key's runs taken per second, by a
  token bucket per key kept in the store (``burst`` tokens at most, refilled at
  ``per_second``; a new key's starts with one) and spent in the claim's own
  transaction. Tokens earned while claims lag behind are kept up to ``burst``, so
  the long-run rate is ``per_second`` however slowly the workers come back.
- **Priority with aging**: ready messages are taken in order of
  ``available_at - priority * aging``: one priority level is worth ``aging`` seconds of
  waiting, so a message that has waited ``aging * (p_high - p_low)`` seconds longer
  than a higher-priority one goes first, and none waits forever behind later arrivals.

A key is a limit's name, or with a label key (``key="tenant"``) the name and the run's
value of that label (``openai=acme``): each value has its own places and bucket. A run
without the label shares the key of the empty value.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ._records import Claim, Message

__all__ = [
    "DEFAULT_AGING",
    "DEFAULT_WINDOW",
    "PRIORITY_LABEL",
    "Bucket",
    "FlowCandidate",
    "FlowChoice",
    "FlowClaim",
    "FlowLimit",
    "FlowPolicy",
    "HeldRun",
    "bucket_capacity",
    "choose",
    "merged",
    "rate_keys",
    "refilled",
    "run_keys",
    "run_priority",
]

#: The run label that sets a run's priority (an integer), over its workflow's default.
PRIORITY_LABEL = "tether.priority"
#: Seconds of waiting one priority level is worth (`FlowPolicy.aging`).
DEFAULT_AGING = 10.0
#: How many of a queue's oldest ready messages one flow-controlled claim ranks.
DEFAULT_WINDOW = 256


@dataclass(frozen=True, slots=True, kw_only=True)
class FlowLimit:
    """A limit on the activations of the runs that name it.

    Attributes:
        name: The limit's name (``"openai"``).
        concurrency: At most this many activations executing at once per key; None:
            no bound.
        per_second: At most this many activations taken per second per key; None: no
            bound.
        burst: The token bucket's size: how many may be taken at once after a quiet
            spell (at least 1).
        key: A label key: each value of it is a key of its own; None: one key for all.
    """

    name: str
    concurrency: int | None = None
    per_second: float | None = None
    burst: int = 1
    key: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FlowPolicy:
    """The limits and priorities a flow-controlled claim applies (from a `Registry`).

    Attributes:
        limits: The limits by name.
        workflows: For each workflow name, the names of the limits its runs are under.
        priorities: Each workflow's default priority (0 when absent).
        aging: Seconds of waiting worth one priority level.
        window: How many of the queue's oldest ready messages one claim ranks (and
            how many more it probes past `claim_flow`'s ``scan_from``).
    """

    limits: Mapping[str, FlowLimit] = field(default_factory=dict)
    workflows: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    priorities: Mapping[str, int] = field(default_factory=dict)
    aging: float = DEFAULT_AGING
    window: int = DEFAULT_WINDOW


@dataclass(frozen=True, slots=True, kw_only=True)
class FlowCandidate:
    """A ready message as a flow-controlled claim ranks it, with its run's identity."""

    message_id: str
    run_id: str
    available_at: float
    #: None when no run has the message's id (the claim drops such a message).
    workflow_name: str | None
    labels: Mapping[str, str]


@dataclass(frozen=True, slots=True, kw_only=True)
class HeldRun:
    """A run whose activation executes now (its message is held by a live lease)."""

    run_id: str
    workflow_name: str
    labels: Mapping[str, str]


@dataclass(frozen=True, slots=True, kw_only=True)
class Bucket:
    """A key's token bucket: `tokens` as of `stamp` (store clock, Unix seconds)."""

    tokens: float
    stamp: float


@dataclass(frozen=True, slots=True, kw_only=True)
class FlowChoice:
    """What `choose` took: the messages, the buckets to write back, what it held back."""

    message_ids: tuple[str, ...]
    buckets: Mapping[str, Bucket]
    #: Ready messages left because a key was full (concurrency) or had no token (rate).
    blocked: int
    #: Seconds until the earliest key that held one back by rate has a token again.
    retry_after: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FlowClaim:
    """The result of `WorkflowStore.claim_flow`.

    Attributes:
        claimed: The messages leased and their runs' claims, as `claim_next` returns.
        blocked: Ready messages the limits held back this time.
        retry_after: Seconds until a rate limit that held one back has a token again;
            None when none did (a place under a concurrency limit frees when an activation ends).
        scanned_to: The position (``available_at``, message id) of the last ready
            message this claim read when more may lie past it (a full window): the
            ``scan_from`` of the next claim's probe. None once the probe reached the
            queue's end (the next probe starts over).
    """

    claimed: Sequence[tuple[Message, Claim]]
    blocked: int = 0
    retry_after: float | None = None
    scanned_to: tuple[float, str] | None = None


def merged(
    head: Sequence[FlowCandidate], probe: Sequence[FlowCandidate], window: int
) -> tuple[list[FlowCandidate], tuple[float, str] | None]:
    """The candidates of a claim's two reads, and where the next probe starts.

    `head` is the queue's oldest ready messages, `probe` those after the caller's
    ``scan_from`` (empty without one): the head keeps priorities and aging true for the
    oldest, the probe moves through a backlog the head's keys hold back (a tenant with
    thousands queued under a full limit), so every ready message is looked at within
    a bounded number of claims and none starves behind a full key.
    """
    seen = {c.message_id for c in head}
    out = [*head, *(c for c in probe if c.message_id not in seen)]
    last = probe if probe else head
    more = len(last) >= window
    return out, (last[-1].available_at, last[-1].message_id) if more and last else None


def run_keys(
    policy: FlowPolicy, workflow_name: str | None, labels: Mapping[str, str]
) -> list[tuple[str, FlowLimit]]:
    """The keys a run is counted under, each with its limit."""
    if workflow_name is None:
        return []
    keys = []
    for name in policy.workflows.get(workflow_name, ()):
        limit = policy.limits.get(name)
        if limit is None:
            continue
        key = name if limit.key is None else f"{name}={labels.get(limit.key, '')}"
        keys.append((key, limit))
    return keys


def run_priority(policy: FlowPolicy, workflow_name: str | None, labels: Mapping[str, str]) -> int:
    """The run's priority: its `PRIORITY_LABEL`, else its workflow's default, else 0."""
    raw = labels.get(PRIORITY_LABEL)
    if raw is not None:
        try:
            return int(raw)
        except ValueError:
            pass  # an unreadable label is the default priority, never a stuck claim
    return policy.priorities.get(workflow_name or "", 0)


def rate_keys(policy: FlowPolicy, candidates: Sequence[FlowCandidate]) -> list[str]:
    """The keys of `candidates` under a rate limit: the buckets a claim reads."""
    found = {
        key
        for c in candidates
        for key, limit in run_keys(policy, c.workflow_name, c.labels)
        if limit.per_second is not None
    }
    return sorted(found)


def refilled(bucket: Bucket | None, limit: FlowLimit, now: float) -> float:
    """The tokens of a key's bucket at `now`, refilled at the limit's rate."""
    capacity = float(max(1, limit.burst))
    if bucket is None:
        # A key seen for the first time starts with one token, not a full bucket: a
        # burst is earned by a quiet spell, so the rate holds from the first claim on.
        return 1.0
    rate = limit.per_second or 0.0
    # A transaction may read a clock older than the last writer's stamp: no refill
    # then, never a negative one.
    return min(capacity, bucket.tokens + max(0.0, now - bucket.stamp) * rate)


def choose(
    policy: FlowPolicy,
    candidates: Sequence[FlowCandidate],
    held: Sequence[HeldRun],
    buckets: Mapping[str, Bucket],
    *,
    now: float,
    limit: int,
) -> FlowChoice:
    """Pick up to `limit` of `candidates` in priority order within every limit.

    `held` are the runs executing now (each holds a place under each of its keys);
    `buckets` the stored token buckets of the candidates' rate-limited keys. A message
    of a run that already executes, or that another candidate of this claim takes,
    costs nothing here: the claim drops it (its run is busy) or leaves it.
    """
    in_use: Counter[str] = Counter()
    busy = {h.run_id for h in held}
    for h in held:
        for key, _ in run_keys(policy, h.workflow_name, h.labels):
            in_use[key] += 1
    tokens: dict[str, float] = {}
    touched: set[str] = set()
    ranked = sorted(
        candidates,
        key=lambda c: (
            c.available_at - run_priority(policy, c.workflow_name, c.labels) * policy.aging,
            c.available_at,
            c.message_id,
        ),
    )
    taken: list[str] = []
    taking: set[str] = set()
    blocked = 0
    retry: float | None = None
    for c in ranked:
        if len(taken) >= limit:
            break
        if c.run_id in taking:
            continue  # one activation per run per claim; the other message stays
        if c.run_id in busy:
            taken.append(c.message_id)  # dropped by the claim: its run is held
            taking.add(c.run_id)
            continue
        keys = run_keys(policy, c.workflow_name, c.labels)
        ok = True
        for key, lim in keys:
            if lim.concurrency is not None and in_use[key] >= lim.concurrency:
                ok = False
            if lim.per_second is not None:
                if key not in tokens:
                    tokens[key] = refilled(buckets.get(key), lim, now)
                if tokens[key] < 1.0:
                    ok = False
                    wait = (1.0 - tokens[key]) / lim.per_second
                    retry = wait if retry is None else min(retry, wait)
        if not ok:
            blocked += 1
            continue
        for key, lim in keys:
            in_use[key] += 1
            if lim.per_second is not None:
                tokens[key] -= 1.0
                touched.add(key)
        taken.append(c.message_id)
        taking.add(c.run_id)
    written = {key: Bucket(tokens=tokens[key], stamp=now) for key in sorted(touched)}
    return FlowChoice(message_ids=tuple(taken), buckets=written, blocked=blocked, retry_after=retry)


def bucket_capacity(per_second: float) -> int:
    """The default bucket size of a rate: one second's worth, at least 1."""
    return max(1, math.ceil(per_second))
