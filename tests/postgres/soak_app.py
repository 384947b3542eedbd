"""A worker process for the Postgres soak and restart tests.

Usage: ``python soak_app.py URL LOG_DIR``, with ``NAMESPACE`` and ``STEP_SECONDS``
(how long each step body sleeps, 0 by default) in the environment, as the fault tests'
``fault_app.py`` takes them: both run under `tests/faults/fleet.py`'s ``Fleet``.

Every step execution appends a ``start`` line before its body and an ``end`` line
after it to ``LOG_DIR/steps-<pid>.log`` (outside the database), each with the run id,
slot, attempt, pid and a ``CLOCK_MONOTONIC`` timestamp in nanoseconds — one clock for
every process on the host, so the parent can check that no two executions of one
(run, slot) overlapped. The lines are single ``O_APPEND`` writes: a SIGKILL cannot
lose a line already written.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from pathlib import Path

import tether
from tether.stores.postgres import PostgresBackend

registry = tether.Registry(deployment="soak")
STEPS = 10
_fd: int | None = None
_step_seconds = 0.0


def _log(kind: str, info: tether.StepInfo) -> None:
    assert _fd is not None
    line = f"{kind} {info.run_id} {info.slot} {info.attempt} {os.getpid()} {time.monotonic_ns()}\n"
    os.write(_fd, line.encode())


def work(value: int, i: int) -> int:
    info = tether.step_info()
    _log("start", info)
    if _step_seconds:
        time.sleep(_step_seconds * random.uniform(0.5, 1.5))
    _log("end", info)
    return (value * 31 + i) % 1_000_003


def expected(seed: int) -> int:
    """The result of `chain(seed)`, computed without tether."""
    value = seed
    for i in range(STEPS):
        value = (value * 31 + i) % 1_000_003
    return value


@registry.workflow(name="chain")
async def chain(ctx: tether.WorkflowContext, seed: int) -> int:
    value = seed
    for i in range(STEPS):
        value = await ctx.step(work, value, i, name=f"s{i}")
    return value


async def main(url: str, namespace: str, log_dir: str, step_seconds: float) -> None:
    global _fd, _step_seconds
    _step_seconds = step_seconds
    path = Path(log_dir) / f"steps-{os.getpid()}.log"
    _fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    backend = PostgresBackend(url, namespace=namespace, pool_size=4)
    await backend.connect()
    try:
        worker = tether.Worker(
            backend,
            registry,
            concurrency=16,
            poll_interval=0.5,
            # A killed worker on this host is found by pid at the next heartbeat of any
            # other worker; dead_after only covers silent workers elsewhere.
            heartbeat_interval=0.2,
            dead_after=5.0,
            lease_seconds=10.0,
        )
        await worker.run_forever()
    finally:
        await backend.close()


if __name__ == "__main__":
    url, log_dir = sys.argv[1:3]
    seconds = float(os.environ.get("STEP_SECONDS", "0"))
    asyncio.run(main(url, os.environ["NAMESPACE"], log_dir, seconds))
