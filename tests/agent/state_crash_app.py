"""A session worker whose tools change the session's state: `python state_crash_app.py URL DIR`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The test process builds the same `AgentHost` (`build_host`) to send messages and read
the state; this process only runs the worker. One model reply calls two tools that
each count a visit in the session's state: `bump` returns at once, `bump_and_hang`
counts, writes DIR/ready and hangs in the first process (until it is SIGKILLed). The
`counter` agent's reply calls `bump` and the workflow tool `tally`, whose step hangs in
the first process the same way.
Each tool run appends a line to DIR/effects.log (O_APPEND + fsync, outside the store).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import tether
from tether.agent import (
    Agent,
    AgentHost,
    State,
    ToolContext,
    ToolWorkflowContext,
    tool,
    workflow_tool,
)
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

EFFECTS = Path(sys.argv[2] if __name__ == "__main__" else ".")

visits = State(name="visits", type=int, default=0)


def log(**entry: object) -> None:
    line = (json.dumps(entry, sort_keys=True) + "\n").encode()
    fd = os.open(EFFECTS / "effects.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


@tool(state=[visits])
async def bump(ctx: ToolContext) -> str:
    """Count a visit."""
    ctx.state[visits] += 1
    log(tool="bump", attempt=ctx.attempt, pid=os.getpid())
    return "bumped"


@tool(state=[visits])
async def bump_and_hang(ctx: ToolContext) -> str:
    """Count a visit; in the first worker, hang before returning."""
    ctx.state[visits] += 1
    log(tool="bump_and_hang", attempt=ctx.attempt, pid=os.getpid())
    if ctx.attempt == 1:
        (EFFECTS / "ready").touch()
        await asyncio.sleep(3600)
    return "bumped, slowly"


async def _hang_once() -> None:
    """A step of `tally`: in the first process, hangs (until it is SIGKILLed)."""
    log(tool="tally_step", pid=os.getpid())
    if not (EFFECTS / "ready").exists():
        (EFFECTS / "ready").touch()
        await asyncio.sleep(3600)


@workflow_tool(state=[visits])
async def tally(ctx: ToolWorkflowContext) -> str:
    """Read the visits, take a step, add five."""
    seen = ctx.state[visits]
    await ctx.step(_hang_once, name="tally_step")
    ctx.state[visits] = seen + 5
    return f"tallied {seen + 5}"


def build_host(backend: Backend) -> AgentHost:
    """The host both processes build: same agent, same tools, same session workflow."""
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("bump"), tool_call("bump_and_hang"))), "done"],
        select="transcript",
    )
    agent = Agent(name="shop", model=model, tools=[bump, bump_and_hang], state=[visits])
    tallying = ScriptedModel(
        [Reply(tool_calls=(tool_call("bump"), tool_call("tally"))), "done"], select="transcript"
    )
    counter = Agent(name="counter", model=tallying, tools=[bump, tally], state=[visits])
    return AgentHost(backend, [agent, counter], deployment="state-crash")


async def main() -> None:
    async with tether.open_backend(sys.argv[1], migrate=False) as backend:
        host = build_host(backend)
        async with host.worker(poll_interval=0.05, lease_seconds=30):
            await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
