"""A session worker for the MCP crash test: ``python mcp_crash_app.py URL DIR``.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).
The agent's MCP server is `mcp_app.py` over stdio, a child process of this worker; it
logs its calls to DIR/mcp.log. The test process builds the same host with
`build_host` to open the session and read it, and SIGKILLs this process.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from _mcp import stdio_server

import tether
from tether.agent import Agent, AgentHost
from tether.testing import Reply, ScriptedModel, tool_call


def build_host(backend: tether.stores.Backend, dir: Path) -> AgentHost:
    """The host both processes build: the same agent, tools and session workflow."""
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(
                    tool_call("charge", {"amount": 7}),
                    tool_call("lookup", {"service": "db"}),
                )
            ),
            "Checked.",
        ],
        select="transcript",
        calls_file=dir / "calls.log",
    )
    agent = Agent(name="ops", model=model, tools=[stdio_server(dir)])
    return AgentHost(backend, [agent], deployment="mcp-crash")


async def main() -> None:
    url, dir = sys.argv[1], Path(sys.argv[2])
    async with tether.open_backend(url, migrate=False) as backend:
        host = build_host(backend, dir)
        worker = tether.Worker(backend, host.registry, concurrency=4, poll_interval=0.05)
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
