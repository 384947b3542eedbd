"""A session worker whose tools return large results: `python payload_crash_app.py URL DIR`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The test process builds the same `AgentHost` (`build_host`) to send messages and read
the transcript; this process only runs the worker. One model reply calls two tools that
each return a result stored by content: `report` returns at once, `report_and_hang`
writes DIR/ready and hangs in the first process (until it is SIGKILLed). Each tool run
appends a line to DIR/effects.log (O_APPEND + fsync, outside the store).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import tether
from tether.agent import PAYLOAD_THRESHOLD, Agent, AgentHost, ToolContext, tool
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

EFFECTS = Path(sys.argv[2] if __name__ == "__main__" else ".")


def text(seed: int) -> str:
    """A large result, the same in every process (and incompressible enough)."""
    return "".join(chr(65 + (i * 7919 + seed * 104729) % 26) for i in range(3 * PAYLOAD_THRESHOLD))


def log(**entry: object) -> None:
    line = (json.dumps(entry, sort_keys=True) + "\n").encode()
    fd = os.open(EFFECTS / "effects.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


@tool
async def report(ctx: ToolContext) -> str:
    """A large report."""
    log(tool="report", pid=os.getpid())
    return text(1)


@tool
async def report_and_hang(ctx: ToolContext) -> str:
    """Another large report; in the first worker, hang before returning."""
    log(tool="report_and_hang", pid=os.getpid())
    if ctx.attempt == 1:
        (EFFECTS / "ready").touch()
        await asyncio.sleep(3600)
    return text(2)


def build_host(backend: Backend) -> AgentHost:
    """The host both processes build: same agent, same tools, same session workflow."""
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("report"), tool_call("report_and_hang"))), "done"],
        select="transcript",
    )
    agent = Agent(name="reports", model=model, tools=[report, report_and_hang])
    return AgentHost(backend, [agent], deployment="payload-crash")


async def main() -> None:
    async with tether.open_backend(sys.argv[1], migrate=False) as backend:
        host = build_host(backend)
        async with host.worker(poll_interval=0.05, lease_seconds=30):
            await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
