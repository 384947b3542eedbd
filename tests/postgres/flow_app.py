"""A worker process for flow-control tests: `python flow_app.py URL NAMESPACE EFFECTS_DIR`.

Its registry declares the limit ``gate`` (``FLOW_CONCURRENCY`` activations at once,
default 2) on the workflow ``gated``, whose one step appends ``start``/``end`` lines
with wall-clock times to EFFECTS_DIR/effects.log. A step told to hang writes a ready
marker and sleeps until the process is killed.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import tether

registry = tether.Registry(deployment="flow-test")
registry.limit("gate", concurrency=int(os.environ.get("FLOW_CONCURRENCY", "2")))
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


@registry.workflow(name="gated", limits=["gate"])
async def gated(ctx: tether.WorkflowContext, seconds: float, hang: bool = False) -> str:
    return await ctx.step(work, seconds, hang)


def effects(directory: Path) -> list[tuple[str, str, int, float]]:
    """The log's lines: (kind, run id, attempt, time)."""
    path = directory / "effects.log"
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        kind, run_id, attempt, at = line.split()
        out.append((kind, run_id, int(attempt), float(at)))
    return out


def most_at_once(directory: Path) -> int:
    """The most step bodies that overlapped in time, from the log."""
    points = sorted((at, 1 if kind == "start" else -1) for kind, _, _, at in effects(directory))
    now = peak = 0
    for _, step in points:
        now += step
        peak = max(peak, now)
    return peak


async def main() -> None:
    url, namespace = sys.argv[1], sys.argv[2]
    async with tether.open_backend(url, namespace=namespace, pool_size=2) as backend:
        worker = tether.Worker(
            backend,
            registry,
            concurrency=4,
            lease_seconds=float(os.environ.get("FLOW_LEASE", "30")),
            poll_interval=0.02,
            heartbeat_interval=0.2,
            dead_after=1.0,
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
