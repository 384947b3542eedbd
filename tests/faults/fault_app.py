"""A worker process for the fault tests: ``python fault_app.py URL LOG_DIR``.

Options come from the environment: ``NAMESPACE`` (Postgres), ``LEASE`` (seconds),
``STEP_SECONDS`` (how long each step body sleeps), ``CONCURRENCY``.

Every step execution appends a ``start`` line before its body and an ``end`` line after
it to ``LOG_DIR/steps-<pid>.log`` (outside the database): run id, slot, attempt, pid and
a CLOCK_MONOTONIC timestamp in nanoseconds, one clock for every process on the host, so
the test can check that no two executions of one step overlapped. Each line is a single
``O_APPEND`` write: a SIGKILL cannot lose a line already written.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sys
import time
from pathlib import Path

import tether

registry = tether.Registry(deployment="faults")
STEPS = 5
_fd: int | None = None


def _log(kind: str, info: tether.StepInfo) -> None:
    assert _fd is not None
    line = f"{kind} {info.run_id} {info.slot} {info.attempt} {os.getpid()} {time.monotonic_ns()}\n"
    os.write(_fd, line.encode())


def work(value: int, i: int) -> int:
    info = tether.step_info()
    _log("start", info)
    seconds = float(os.environ.get("STEP_SECONDS", "0"))
    if seconds:
        time.sleep(seconds * random.uniform(0.8, 1.2))
    _log("end", info)
    return (value * 31 + i) % 1_000_003


def marked(value: int, marker: str) -> int:
    """A step that says it is about to finish (a file), then takes half a second."""
    Path(marker).touch()
    time.sleep(0.5)
    return value + 1


def logged(value: int) -> int:
    """A step whose executions are logged, taking a second."""
    info = tether.step_info()
    _log("start", info)
    time.sleep(1.0)
    _log("end", info)
    return value * 2


@registry.workflow(name="marked_then_logged")
async def marked_then_logged(ctx: tether.WorkflowContext, marker: str) -> int:
    value = await ctx.step(marked, 1, marker, name="marked")
    return await ctx.step(logged, value, name="logged")


def _stamp(record: logging.LogRecord) -> bool:
    """Stamp log lines on the step log's clock (CLOCK_MONOTONIC, nanoseconds)."""
    record.mono = time.monotonic_ns()
    return True


def expected(seed: int, steps: int = STEPS) -> int:
    """The result of `chain(seed, steps)`, computed without tether."""
    value = seed
    for i in range(steps):
        value = (value * 31 + i) % 1_000_003
    return value


@registry.workflow(name="chain")
async def chain(ctx: tether.WorkflowContext, seed: int, steps: int = STEPS) -> int:
    value = seed
    for i in range(steps):
        value = await ctx.step(work, value, i, name=f"s{i}")
    return value


async def main(url: str, log_dir: str) -> None:
    global _fd
    path = Path(log_dir) / f"steps-{os.getpid()}.log"
    _fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    # The worker's own account (take-overs of dead workers' leases, lost leases), beside
    # the step log: what a failed check needs to be understood.
    handler = logging.FileHandler(Path(log_dir) / f"worker-{os.getpid()}.log")
    handler.setFormatter(logging.Formatter("%(mono)d %(name)s %(levelname)s %(message)s"))
    handler.addFilter(_stamp)
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    options = {}
    if os.environ.get("NAMESPACE"):
        options["namespace"] = os.environ["NAMESPACE"]
        options["pool_size"] = 4
    async with tether.open_backend(url, **options) as backend:
        worker = tether.Worker(
            backend,
            registry,
            concurrency=int(os.environ.get("CONCURRENCY", "16")),
            poll_interval=0.05,
            heartbeat_interval=0.2,
            dead_after=float(os.environ.get("DEAD_AFTER", "5")),
            lease_seconds=float(os.environ.get("LEASE", "2")),
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
