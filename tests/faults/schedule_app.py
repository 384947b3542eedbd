"""A worker process with a schedule: ``python schedule_app.py URL LOG_DIR``.

``NAMESPACE`` names the Postgres namespace (with a ``postgresql://`` URL).

Its registry schedules `tick` every ``EVERY`` seconds (``missed="run_all"``). Each
execution of the tick's step appends ``<scheduled_at> <pid>`` to
``LOG_DIR/ticks-<pid>.log`` (one ``O_APPEND`` write, so a SIGKILL cannot lose a
written line).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import tether

registry = tether.Registry(deployment="schedules")
_fd: int | None = None


def note(scheduled_at: str) -> str:
    assert _fd is not None
    os.write(_fd, f"{scheduled_at} {os.getpid()}\n".encode())
    return scheduled_at


@registry.workflow(name="tick")
async def tick(ctx: tether.WorkflowContext, *, scheduled_at: str) -> str:
    out: str = await ctx.step(note, scheduled_at, name="note")
    return out


registry.schedule("ticks", tick, every=float(os.environ.get("EVERY", "0.5")), missed="run_all")


async def main(url: str, log_dir: str) -> None:
    global _fd
    _fd = os.open(
        Path(log_dir) / f"ticks-{os.getpid()}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644
    )
    options = {}
    if os.environ.get("NAMESPACE"):
        options["namespace"] = os.environ["NAMESPACE"]
        options["pool_size"] = 2
    async with tether.open_backend(url, **options) as backend:
        worker = tether.Worker(
            backend,
            registry,
            poll_interval=0.05,
            heartbeat_interval=0.2,
            dead_after=1.0,
            lease_seconds=1.0,
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
