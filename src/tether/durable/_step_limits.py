"""Step-level limits: a step, a tool call or a model call waits for a permit in the store.

A limit declared with `Registry.limit` and named by a step (``ctx.step(fn, limit=...)``),
a tool (``@tool(limit=...)``) or an agent's model calls (``Agent(model_limit=...)``)
bounds those steps across every worker sharing the store
(`WorkflowStore.acquire_permit`). The wait comes before the work it guards:

- A step's permit is taken before its attempt starts, so a step waiting on a limit
  holds no place, has no attempt under way and spends none of its retry budget; its
  run's lease is renewed meanwhile, as for any step in progress.
- A permit under a concurrency bound is renewed while its holder runs (every third of
  its lease) and given back when it ends; a holder that died stops renewing and its
  place comes back when the permit's lease runs out.
- A refused permit under a rate is asked for again when the store says a token is due;
  one refused for a place is asked for again after a short, growing pause (no wake-up
  announces a place freed on another host).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol, cast

from .. import _otel
from .._ids import new_token
from ..errors import StoreUnavailableError
from ..stores import FlowLimit, NewEvent, RunRecord, StepPermits
from ._flow import permit_key, resolve_limit
from ._step_scope import current_scope
from ._tracing import run_trace

__all__ = [
    "DEFAULT_PERMIT_LEASE",
    "LimitWait",
    "hold_permit",
    "noted",
    "permit_for",
    "step_limit",
    "wait_attrs",
]

log = logging.getLogger("tether.durable")

#: A permit's lease when its run has none of its own (an activation outside a worker).
DEFAULT_PERMIT_LEASE = 30.0
#: The longest pause between two asks for a place under a full concurrency bound.
_MAX_PAUSE = 0.25


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitWait:
    """A permit held: which limit and key, and how long its holder waited for it."""

    limit: str
    key: str
    waited: float


class _Limits(Protocol):
    @property
    def limits(self) -> Mapping[str, FlowLimit]: ...


class _Lease(Protocol):
    @property
    def seconds(self) -> float | None: ...


class LimitOwner(Protocol):
    """What a permit's holder knows of its run (an activation)."""

    @property
    def store(self) -> StepPermits: ...
    @property
    def run(self) -> RunRecord: ...
    @property
    def registry(self) -> _Limits: ...
    @property
    def lease(self) -> _Lease: ...


@contextlib.asynccontextmanager
async def hold_permit(
    owner: LimitOwner, limit: FlowLimit, busy: Callable[[int], None] | None = None
) -> AsyncIterator[LimitWait]:
    """Wait for a permit of `limit` for `owner`'s run, hold it, give it back.

    `busy` is told +1 as the wait begins and -1 as it ends, however it ends.
    """
    store, run = owner.store, owner.run
    key = permit_key(limit, run.labels)
    lease = owner.lease.seconds or DEFAULT_PERMIT_LEASE
    holder = f"{run.run_id}:{new_token()}"
    began, wall, pause = time.monotonic(), time.time(), 0.01
    if busy is not None:
        busy(1)
    try:
        while True:
            try:
                permit = await store.acquire_permit(
                    key, holder=holder, limit=limit, lease_seconds=lease
                )
            except StoreUnavailableError:
                await asyncio.sleep(_MAX_PAUSE)  # an outage: waiting on it holds nothing
                continue
            if permit.granted:
                break
            if permit.retry_after is not None:
                # A token is due then; a little spread keeps waiters from asking at once.
                await asyncio.sleep(permit.retry_after * random.uniform(1.0, 1.05))
            else:
                await asyncio.sleep(pause * random.uniform(0.5, 1.0))
                pause = min(_MAX_PAUSE, pause * 2)
    finally:
        # A wait cancelled just after the store granted (the answer lost) leaves a
        # permit no one renews: it lapses within one lease, like a dead holder's.
        if busy is not None:
            busy(-1)
    waited = time.monotonic() - began
    if waited > 0.001:
        _wait_span(run, limit.name, key, holder, wall, waited)
    renewing = None
    if limit.concurrency is not None:
        renewing = asyncio.create_task(_renew(store, key, holder, limit, lease))
    try:
        yield LimitWait(limit=limit.name, key=key, waited=waited)
    finally:
        if renewing is not None:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            try:
                await store.release_permit(key, holder=holder)
            except StoreUnavailableError:
                pass  # the permit lapses with its lease: nothing is kept for long


async def _renew(store: StepPermits, key: str, holder: str, limit: FlowLimit, lease: float) -> None:
    while True:
        await asyncio.sleep(lease / 3)
        try:
            held = await store.acquire_permit(key, holder=holder, limit=limit, lease_seconds=lease)
        except StoreUnavailableError:
            continue
        if not held.granted:
            # Renewals came too late (a stall past the lease): others may hold the
            # places now. The work under way cannot be taken back; say so once.
            log.warning("permit of limit key %r lapsed while its holder ran", key)
            return


class StepOwner(LimitOwner, Protocol):
    """An activation: it parks when no step is under way and a durable wait is."""

    _active_steps: int


@contextlib.asynccontextmanager
async def permit_for(owner: StepOwner, limit: FlowLimit | None) -> AsyncIterator[LimitWait | None]:
    """`hold_permit` when there is a limit; nothing held otherwise.

    The wait counts as a step under way: a run whose body also awaits a durable sleep
    or hook must not park as idle while one of its steps waits for a permit.
    """
    if limit is None:
        yield None
        return

    def busy(delta: int) -> None:
        owner._active_steps += delta

    async with hold_permit(owner, limit, busy) as held:
        yield held


def wait_attrs(held: LimitWait | None) -> dict[str, str | float]:
    """What a step's start event records of its wait (`tether runs show` shows it)."""
    return {} if held is None else {"limit": held.key, "limit_wait": round(held.waited, 3)}


def noted(held: LimitWait | None, event: NewEvent | None) -> NewEvent | None:
    """`event` (a step's first start) with its wait recorded."""
    if event is None or held is None:
        return event
    return replace(event, attrs={**event.attrs, **wait_attrs(held)})


def _wait_span(
    run: RunRecord, limit: str, key: str, holder: str, start: float, waited: float
) -> None:
    if _otel.tracer() is None:
        return
    attempt = _otel.current_attempt()
    trace_id, parent = (
        (attempt.trace_id, attempt.span_id)
        if attempt is not None
        else (run_trace(run)[0], _otel.run_span_id(run.run_id))
    )
    _otel.emit_span(
        f"limit wait {limit}",
        trace_id=trace_id,
        span_id=_otel.span_id_of("limit-wait", holder),
        parent_id=parent,
        start=start,
        end=start + waited,
        attributes={
            "tether.limit.name": limit,
            "tether.limit.key": key,
            "tether.run.id": run.run_id,
        },
    )


@contextlib.asynccontextmanager
async def step_limit(name: str) -> AsyncIterator[LimitWait]:
    """Hold a permit of the registry's limit `name` for the work inside, in a step.

    For work inside a step body that is under a limit of its own (one call of an API
    among others the step makes): the permit is waited for, held while the block runs
    and given back after it. A step that is wholly under a limit names it instead
    (``ctx.step(fn, limit=name)``): its permit is then taken before its attempt starts.

    Args:
        name: A limit declared with `Registry.limit`; a keyed one (``key="tenant"``)
            is counted under the run's value of that label.

    Yields:
        The permit's `LimitWait` (its key, and how long it waited).

    Raises:
        ConfigurationError: Called outside a running step.
        FlowLimitError: The registry declares no limit `name`.
    """
    # The owner of every step scope is the activation running the step.
    owner = cast("LimitOwner", current_scope().owner)
    limit = resolve_limit(owner.registry.limits, name, what="step_limit()")
    async with hold_permit(owner, limit) as held:
        yield held
