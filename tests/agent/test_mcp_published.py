"""A published MCP server's tools in real agent turns: `@modelcontextprotocol/server-everything`
from npm, run by node over stdio (the agent starts it) and serving streamable HTTP (the
test starts it), on every backend.

npm installs it into tests/agent/mcp_everything (``.ci/run`` does; so does the first
test that finds it missing).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _mcp import EVERYTHING, EverythingHttp, declared, everything_server, results, serving

from tether.agent import Agent, McpServer, McpToolsEntry, mcp_server
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@pytest.fixture(scope="module", autouse=True)
def installed() -> None:
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "node and npm are needed for the published MCP server's tests"
    if not (EVERYTHING / "node_modules" / "@modelcontextprotocol" / "server-everything").exists():
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=EVERYTHING,
            check=True,
            timeout=300,
        )


@pytest.fixture(params=["stdio", "http"])
async def published(request: pytest.FixtureRequest) -> AsyncIterator[McpServer]:
    """The published server as the agent's, over each transport (tools prefixed ``ev_``)."""
    options: dict[str, Any] = {"prefix": "ev_"}
    if request.param == "stdio":
        yield everything_server(**options)
        return
    server = EverythingHttp()
    await server.start()
    try:
        yield mcp_server("everything", url=server.url, **options)
    finally:
        server.kill()


async def test_a_turn_calls_the_published_servers_tools(
    backend: Backend, published: McpServer
) -> None:
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(
                    tool_call("ev_echo", {"message": "hello"}),
                    tool_call("ev_get-sum", {"a": 2, "b": 40}),
                    tool_call("ev_get-tiny-image"),
                    tool_call("ev_echo", {}),
                )
            ),
            "Done.",
        ],
        select="transcript",
    )
    server = published
    agent = Agent(name="ops", model=model, tools=[server])
    async with serving(backend, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=60)
    names = declared(model.requests[0])
    assert {"ev_echo", "ev_get-sum", "ev_get-tiny-image", "ev_toggle-simulated-logging"} <= set(
        names
    )
    [echoed, summed, image, invalid] = results(model.requests[1])
    assert echoed == ("ev_echo", "Echo: hello", False)
    assert summed == ("ev_get-sum", "The sum of 2 and 40 is 42.", False)
    assert image[0] == "ev_get-tiny-image" and image[2] is False
    assert "[image: image/png, " in image[1] and " bytes]" in image[1]
    # The server refuses arguments that miss its schema: the model sees why.
    assert invalid[0] == "ev_echo" and invalid[2] is True and "message" in invalid[1]
    [listing] = [r for r in await session.transcript() if isinstance(r, McpToolsEntry)]
    assert listing.tools is not None
    tools = {t.name: t for t in server.tools(listing.tools)}
    # Its annotations decide idempotency: echo is read-only, the toggles are not.
    assert tools["ev_echo"].idempotent is True
    assert tools["ev_toggle-simulated-logging"].idempotent is False
    assert tools["ev_echo"].spec.input_schema["properties"]["message"]["type"] == "string"
