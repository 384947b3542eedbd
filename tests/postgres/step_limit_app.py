"""A worker process for step-level limit tests: `python step_limit_app.py URL NS EFFECTS_DIR`.

Its registry declares the step-level limit ``tool`` (one at a time) and the rate
``rated`` (``STEP_RATE`` per second, default 20). The workflow ``limited`` runs one
step under ``tool`` that appends ``start``/``end`` lines with wall-clock times to
EFFECTS_DIR/effects.log; a step told to hang writes a ready marker and sleeps until
the process is killed. The workflow ``rated`` runs one empty step under ``rated``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import tether

registry = tether.Registry(deployment="step-limit-test")
registry.limit("tool", concurrency=1)
registry.limit("rated", per_second=float(os.environ.get("STEP_RATE", "20")), burst=1)
EFFECTS = Path(sys.argv[3] if len(sys.argv) > 3 else ".")


def _log(line: str) -> None:
    with open(EFFECTS / "effects.log", "a") as f:
        f.write(line + "\n")


def work(seconds: float, hang: bool) -> str:
    info = tether.step_info()
    _log(f"start {info.run_id} {info.attempt} {time.time():.6f}")
    if hang and info.attempt == 1:
        (EFFECTS / f"ready-{info.run_id}").touch()
        time.sleep(3600)
    time.sleep(seconds)
    _log(f"end {info.run_id} {info.attempt} {time.time():.6f}")
    return info.run_id


def stamp() -> float:
    return time.time()


@registry.workflow(name="limited")
async def limited(ctx: tether.WorkflowContext, seconds: float, hang: bool = False) -> str:
    return await ctx.step(work, seconds, hang, limit="tool")


@registry.workflow(name="rated")
async def rated(ctx: tether.WorkflowContext) -> float:
    return await ctx.step(stamp, limit="rated")


async def main() -> None:
    url, namespace = sys.argv[1], sys.argv[2]
    async with tether.open_backend(url, namespace=namespace, pool_size=2) as backend:
        worker = tether.Worker(
            backend,
            registry,
            concurrency=int(os.environ.get("STEP_CONCURRENCY", "4")),
            lease_seconds=float(os.environ.get("FLOW_LEASE", "30")),
            poll_interval=0.02,
            heartbeat_interval=0.2,
            dead_after=1.0,
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
