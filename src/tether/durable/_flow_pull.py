"""Worker pieces apart from its loops: concurrency, quiet threads, the flow take.

Its concurrency setting from the environment, the wait for step threads to return,
and the flow-controlled take of its pull loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from ..errors import ConfigurationError
from ..stores import Claim, FlowPolicy, Message, WorkQueue
from ._executor import Activation

__all__ = ["DEFAULT_CONCURRENCY", "concurrency_from", "take_flow", "wait_quiet"]

#: Runs a worker executes at once when neither the argument nor the environment says.
DEFAULT_CONCURRENCY = 16


def concurrency_from(env: Mapping[str, str]) -> int:
    raw = env.get("TETHER_WORKER_CONCURRENCY", "")
    if raw == "":
        return DEFAULT_CONCURRENCY
    try:
        return int(raw)
    except ValueError:
        raise ConfigurationError(
            f"TETHER_WORKER_CONCURRENCY={raw!r} is not an integer: set it to how many runs "
            "a worker executes at once, e.g. 16"
        ) from None


async def wait_quiet(activations: list[Activation], grace: float) -> set[Activation]:
    """The activations whose step threads returned within `grace` seconds."""
    quiet: set[Activation] = set()

    async def one(activation: Activation) -> None:
        await activation.quiesce()
        quiet.add(activation)

    tasks = [asyncio.create_task(one(a)) for a in activations]
    if tasks:
        await asyncio.wait(tasks, timeout=grace)
        for task in tasks:
            task.cancel()
    return quiet


async def take_flow(
    store: WorkQueue,
    policy: FlowPolicy,
    *,
    queue: str,
    owner: str,
    lease_seconds: float,
    free: int,
    known: Mapping[str, int] | None,
    poll_interval: float,
    spawn: Callable[[Message, Claim], None],
    scan_from: tuple[float, str] | None,
) -> tuple[float, str] | None:
    """One flow-controlled take (`WorkflowStore.claim_flow`), then its wait if empty.

    Returns where the next take's probe starts (`FlowClaim.scanned_to`): past a
    backlog the limits hold back, so that what waits behind it is found.
    """
    got = await store.claim_flow(
        queue,
        owner=owner,
        lease_seconds=lease_seconds,
        limit=free,
        policy=policy,
        known=known,
        scan_from=scan_from,
    )
    for message, claim in got.claimed:
        spawn(message, claim)
    if got.claimed:
        return got.scanned_to
    if got.blocked:
        # Work is there but held back: a token is due after `retry_after`; a place
        # frees when some activation ends, on any worker, which no wake-up announces.
        await asyncio.sleep(min(got.retry_after or poll_interval, poll_interval))
    else:
        await store.wait_for_messages(queue, poll_interval)
    return got.scanned_to
