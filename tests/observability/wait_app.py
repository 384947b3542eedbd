"""A session worker that parks turns: `python wait_app.py URL NAMESPACE DIR`.

Agent ``ops`` parks its turn on an approval, agent ``sleeper`` on a durable sleep of
`SLEEP` seconds (`sleep_tool`).

The test builds the same host (`build_host`) to open the session, send the message and
answer the approval; this process only runs the worker, with telemetry off, until it is
SIGKILLed. It writes ``DIR/ready`` once its worker runs.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import tether
from tether.agent import Agent, AgentHost, Agents, approval, sleep_tool, tool
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@tool(approval=approval.always())
async def restart(service: str) -> str:
    """Restart a service."""
    return f"{service} restarted"


#: How long the sleeper's turn sleeps: long enough to kill its worker meanwhile.
SLEEP = 3.0


def agents() -> Agents:
    model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("restart", {"service": "api"}),)),
            lambda r: "restarted",
            lambda r: "nothing else",
        ],
        select="transcript",  # a worker in another process goes on where it stopped
    )
    sleeps = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("sleep", {"seconds": SLEEP}),)),
            lambda r: "awake",
            lambda r: "nothing else",
        ],
        select="transcript",
    )
    sleeper = Agent(name="sleeper", model=sleeps, tools=[sleep_tool(max_seconds=60)])
    return Agents([Agent(name="ops", model=model, tools=[restart]), sleeper], deployment="wait")


def build_host(backend: Backend) -> AgentHost:
    return AgentHost(backend, agents())


async def main(url: str, namespace: str, directory: Path) -> None:
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(url, **options) as backend:
        async with build_host(backend).worker(poll_interval=0.02):
            (directory / "ready").touch()
            await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], Path(sys.argv[3])))
