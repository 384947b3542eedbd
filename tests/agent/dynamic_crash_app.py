"""A session worker with dynamic handlers: `python dynamic_crash_app.py URL DIR [hang]`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The test process builds the same `AgentHost` (`build_host`) to send messages and read
events; this process only runs the worker. The agent has a ``session.started`` handler
and a ``turn.started`` one; with ``hang``, the turn's handler writes DIR/ready and
hangs (until the process is SIGKILLed). Every handler call and model call appends a
line to DIR/effects.log (O_APPEND + fsync, outside the store).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import tether
from tether.agent import Agent, AgentHost, DynamicContext, dynamic
from tether.agent.models import ModelRequest
from tether.stores import Backend
from tether.testing import ScriptedModel

EFFECTS = Path(sys.argv[2] if __name__ == "__main__" else ".")
HANG = __name__ == "__main__" and sys.argv[3:] == ["hang"]


def log(**entry: object) -> None:
    line = (json.dumps(entry, sort_keys=True) + "\n").encode()
    fd = os.open(EFFECTS / "effects.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


@dynamic("session.started")
async def profile(ctx: DynamicContext) -> str:
    log(call="profile", pid=os.getpid())
    return f"The user is {ctx.owner}."


@dynamic("turn.started", timeout=3600)
async def per_turn(ctx: DynamicContext) -> str:
    log(call="per_turn", pid=os.getpid())
    if HANG:
        (EFFECTS / "ready").touch()
        await asyncio.sleep(3600)
    return f"Turn {ctx.turn}."


def answer(request: ModelRequest) -> str:
    log(call="model", pid=os.getpid(), instructions=request.instructions)
    return "done"


def build_host(backend: Backend) -> AgentHost:
    """The host both processes build: same agent, same handlers, same session workflow."""
    agent = Agent(
        name="crashy",
        model=ScriptedModel(answer),
        instructions="Base.",
        dynamic=[profile, per_turn],
    )
    return AgentHost(backend, [agent], deployment="dynamic-crash")


async def main() -> None:
    async with tether.open_backend(sys.argv[1], migrate=False) as backend:
        host = build_host(backend)
        async with host.worker(poll_interval=0.05, lease_seconds=1):
            await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
