"""Code generations for `tether dev`: runs pinned to the code that started them.

In dev mode every change of the code is a *generation*, served by a worker of its own
whose deployment names it: ``<app deployment>+dev.<content hash>``. Clients keep
starting runs under the app's own deployment; `forward_new_runs` takes each new run
from that queue before it has done anything and moves it, by continue-as-new in one
commit, to the current generation (run id ``<id>~1``; handles follow the chain). From
then on the run is pinned: its timers, hook payloads and child runs all come back to
its generation's queue, so a run in flight keeps the code it started with while new
runs get the new code.

A generation no live worker serves is *dormant* (`tether dev` restarted without
``--resume``): `Client.resume_hook` refuses to send to its runs (`RunDormantError`)
instead of leaving the payload to wait for no one.
"""

from __future__ import annotations

import logging
import time

from .._version import ENGINE_VERSION
from ..errors import FencedError, InvalidTransitionError, NotFoundError, StoreError
from ..stores import (
    Backend,
    Claim,
    Commit,
    Continuation,
    Message,
    NewEvent,
    NewMessage,
    NewRun,
    chain_of,
    successor_run_id,
)
from ._continue import carried_payloads
from ._journal import Journal
from ._registry import queue_name

__all__ = ["DEV_MARK", "dev_generation", "forward_new_runs", "is_dev_generation"]

log = logging.getLogger("tether.dev")

#: What separates an app's deployment from a generation's content hash.
DEV_MARK = "+dev."


def dev_generation(deployment: str, digest: str) -> str:
    """The deployment of the dev generation of `deployment` whose code hashes to `digest`."""
    return f"{deployment}{DEV_MARK}{digest}"


def is_dev_generation(deployment: str) -> bool:
    """Whether `deployment` names a `tether dev` generation."""
    return DEV_MARK in deployment


async def forward_new_runs(
    backend: Backend,
    *,
    source: str,
    target: str,
    owner: str,
    lease_seconds: float = 10.0,
    limit: int = 16,
) -> int:
    """Move the new runs queued under deployment `source` to deployment `target`.

    Each run waiting on `source`'s queue that has not recorded any operation yet ends
    ``continued`` and its successor (the same workflow and input, run id ``<id>~1``)
    starts under `target`, in one commit: the wake-up goes to `target`'s queue. Hooks
    the run holds already (moved to it by a continue-as-new) move along, with the
    payloads it received, as in any continue-as-new. A run that already did something
    under `source` is not moved (its journal belongs to the code that wrote it): it is
    handed back for `source`'s own workers, and logged.

    Args:
        backend: The store.
        source: The deployment clients start runs under (the app's own).
        target: The deployment to move them to (the current dev generation).
        owner: The lease owner to claim them as.
        lease_seconds: The claim's lease.
        limit: At most this many runs per call.

    Returns:
        How many runs were moved.
    """
    store = backend.stores.workflow
    claimed = await store.claim_next(
        queue_name(ENGINE_VERSION, source), owner=owner, lease_seconds=lease_seconds, limit=limit
    )
    moved = 0
    for message, claim in claimed:
        try:
            if await _move(backend, message, claim, target, owner):
                moved += 1
        except (FencedError, InvalidTransitionError, NotFoundError):
            continue  # taken or ended meanwhile: nothing to move
        except StoreError as exc:
            log.warning("moving a new run to %s failed, it stays queued: %s", target, exc)
    return moved


async def _move(backend: Backend, message: Message, claim: Claim, target: str, owner: str) -> bool:
    store = backend.stores.workflow
    run = claim.run
    assert run is not None  # claim_next returns claimed runs only
    # Every run's log starts with its creation: an empty one was not read with the claim.
    events = list(claim.events) or await store.list_events(run.run_id)
    journal = Journal.from_events(run.run_id, events)
    if journal.ops:
        log.warning(
            "run %s already ran under deployment %s: left to that deployment's workers",
            run.run_id,
            run.deployment,
        )
        wake = NewMessage(
            queue=run.queue,
            payload=run.run_id.encode(),
            available_at=time.time() + 30.0,
            idempotency_key=run.run_id,
        )
        await store.commit(
            Commit(
                run_id=run.run_id,
                owner=owner,
                epoch=claim.epoch,
                expected_head=None,
                ack_message_id=message.message_id,
                release=True,
                enqueue=(wake,),
            )
        )
        return False
    # The claim's copy of the run leaves its input out; the stored run has it.
    full = await store.get_run(run.run_id) or run
    chain = chain_of(run)
    generation = run.generation + 1
    successor = NewRun(
        run_id=successor_run_id(chain, generation),
        workflow_name=run.workflow_name,
        input=full.input or b"",
        input_digest=full.input_digest,
        deployment=target,
        engine_version=run.engine_version,
        queue=queue_name(run.engine_version, target),
        parent_run_id=run.parent_run_id,
        parent_slot=run.parent_slot,
        chain_id=chain,
        generation=generation,
    )
    event = NewEvent(
        event_type="run_continued",
        correlation_id=successor.run_id,
        attrs={"workflow_name": run.workflow_name, "generation": generation, "to": target},
    )
    await store.commit(
        Commit(
            run_id=run.run_id,
            owner=owner,
            epoch=claim.epoch,
            expected_head=run.head,
            events=(event,),
            ack_message_id=message.message_id,
            release=True,
            # A fresh run may hold hooks already (moved to it by a hand-off, with
            # payloads sent since): they move on, and what it received goes along.
            continuation=Continuation(run=successor, carried=carried_payloads(journal)),
        )
    )
    return True
