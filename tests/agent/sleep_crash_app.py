"""A session worker whose agent sleeps: `python sleep_crash_app.py URL EFFECTS_DIR`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The test process builds the same `AgentHost` (`build_host`) to send messages and read
events; this process only runs the worker, and is SIGKILLed while the turn sleeps.
What the model saw as tool results is appended to EFFECTS_DIR/effects.log.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import tether
from tether.agent import Agent, AgentHost, sleep_tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

#: How long the model asks to sleep.
SLEEP = 3.0


def _saw(effects: Path) -> Any:
    def answer(request: ModelRequest) -> str:
        seen = [
            [m.content, m.is_error] for m in request.messages if isinstance(m, ToolResultMessage)
        ]
        line = (json.dumps({"results": seen, "pid": os.getpid()}) + "\n").encode()
        fd = os.open(effects / "effects.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        return "awake"

    return answer


def build_host(backend: Backend, effects: Path) -> AgentHost:
    """The host both processes build: same agent, same tools, same session workflow."""
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("sleep", {"seconds": SLEEP}),)), _saw(effects)],
        select="transcript",
    )
    agent = Agent(name="ops", model=model, tools=[sleep_tool(max_seconds=60)])
    return AgentHost(backend, [agent], deployment="sleep-crash")


async def main() -> None:
    url, effects = sys.argv[1], Path(sys.argv[2])
    async with tether.open_backend(url, migrate=False) as backend:
        host = build_host(backend, effects)
        async with host.worker(poll_interval=0.05):
            await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
