"""The demo's workflow and its worker entry point (`python -m tether.cli._demo_engine_app DB`)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import tether

registry = tether.Registry(deployment="demo")


def _log(line: str) -> None:
    path = os.environ.get("TETHER_DEMO_LOG")
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


def work(label: str, value: int) -> int:
    info = tether.step_info()
    _log(f"{os.getpid()} {label} {info.attempt}")
    if label == "charge" and info.attempt == 1:
        marker = os.environ.get("TETHER_DEMO_READY")
        if marker:
            Path(marker).touch()
        time.sleep(3600)  # the demo kills this process here
    return value + len(label)


@registry.workflow(name="demo.order")
async def order(ctx: tether.WorkflowContext, order_id: str) -> dict[str, object]:
    total = 0
    for label in ("validate", "reserve", "charge", "ship", "notify"):
        total = await ctx.step(work, label, total, name=label)
    return {"order": order_id, "checksum": total}


async def _main(db: str) -> None:
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        await tether.Worker(backend, registry, poll_interval=0.05).run_forever()


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1]))
