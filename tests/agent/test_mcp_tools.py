"""MCP servers' tools in real agent turns: an SDK-built server over stdio and streamable
HTTP, and the published `server-everything` over stdio, on every backend."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from _mcp import HttpApp, calls, declared, results, serving, stdio_server

from tether.agent import Agent, McpServer, McpToolsEntry, mcp_server
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@pytest.fixture
async def http_app(tmp_path: Path) -> AsyncIterator[HttpApp]:
    app = HttpApp(tmp_path)
    await app.start()
    yield app
    app.kill()


@pytest.fixture(params=["stdio", "http"])
async def app_server(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[McpServer]:
    """`mcp_app.py` as the agent's server, over each transport."""
    if request.param == "stdio":
        yield stdio_server(tmp_path)
        return
    app = HttpApp(tmp_path)
    await app.start()
    try:
        yield mcp_server("app", url=app.url)
    finally:
        app.kill()


async def test_a_turn_calls_an_mcp_tool(
    backend: Backend, tmp_path: Path, app_server: McpServer
) -> None:
    server = app_server
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(
                    tool_call("add", {"a": 2, "b": 3}),
                    tool_call("lookup", {"service": "db"}),
                )
            ),
            "Done.",
        ],
        select="transcript",
    )
    agent = Agent(name="ops", model=model, tools=[server])
    async with serving(backend, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=60)
    assert declared(model.requests[0]) == ["add", "charge", "grow", "lookup", "refuse", "reject"]
    assert results(model.requests[1]) == [("add", "5", False), ("lookup", "db: degraded", False)]
    [looked] = calls(tmp_path, "lookup")
    [reply] = [r for r in await session.transcript() if r.kind == "assistant"][:1]
    assert looked["key"] == f"s1:{reply.tool_calls[1].call_id}"
    listings = [r for r in await session.transcript() if isinstance(r, McpToolsEntry)]
    assert len(listings) == 1 and listings[0].server == "app"
    assert listings[0].tools is not None and len(listings[0].tools) == 6
