"""An SDK-built MCP server's tools in real agent turns, over stdio and streamable HTTP.

The server (`mcp_app.py`) runs as a real subprocess: started by the agent over stdio,
or by the test serving HTTP on a local port. The model is scripted; everything else
(the worker, the durable steps, the store, the MCP SDK on both sides) is real.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import uvicorn
from _mcp import (
    APP,
    HttpApp,
    calls,
    declared,
    free_port,
    logged,
    pid_alive,
    results,
    serving,
    stdio_server,
    until,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

import tether
from tether.agent import Agent, McpServer, McpToolsEntry, approval, mcp_server, tool
from tether.agent.models import ModelRequest
from tether.errors import ConfigurationError, MissingExtraError, ModelError, ToolUnavailableError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

APP_TOOLS = ["add", "charge", "grow", "lookup", "refuse", "reject"]


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


@pytest.fixture
async def memory() -> AsyncIterator[Backend]:
    async with tether.open_backend("memory://") as backend:
        yield backend


def transcript_listings(transcript: list[object]) -> list[McpToolsEntry]:
    return [r for r in transcript if isinstance(r, McpToolsEntry)]


async def test_a_turn_calls_an_mcp_tool(
    backend: Backend, tmp_path: Path, app_server: McpServer
) -> None:
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
    agent = Agent(name="ops", model=model, tools=[app_server])
    async with serving(backend, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=60)
    assert declared(model.requests[0]) == APP_TOOLS
    assert results(model.requests[1]) == [("add", "5", False), ("lookup", "db: degraded", False)]
    transcript = await session.transcript()
    [reply, _] = [r for r in transcript if r.kind == "assistant"]
    # tether's idempotency key reached the server in the request's _meta.
    [looked] = calls(tmp_path, "lookup")
    assert looked["key"] == f"s1:{reply.tool_calls[1].call_id}"
    [listing] = transcript_listings(transcript)
    assert listing.server == "app" and listing.turn_id == reply.turn_id
    assert listing.tools is not None and sorted(t.name for t in listing.tools) == APP_TOOLS
    # The annotations decide idempotency: `add` is read-only, `lookup` idempotent, and
    # `charge` says nothing (so it is not).
    hints = {t.name: (t.read_only_hint, t.idempotent_hint) for t in listing.tools}
    assert hints["add"] == (True, None) and hints["lookup"] == (None, True)
    assert [r.kind for r in transcript].count("tool_started") == 0
    # Closing the server (`serving` did) stopped the process a stdio server runs in.
    [started] = logged(tmp_path, "started")
    assert started["transport"] == "http" or not pid_alive(started["pid"])


async def test_refused_calls_are_tool_errors_the_model_sees(
    memory: Backend, app_server: McpServer
) -> None:
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(
                    tool_call("refuse", {"reason": "no funds"}),
                    tool_call("reject"),
                    tool_call("add", {"a": "two", "b": 3}),
                )
            ),
            "Sorry.",
        ],
        select="transcript",
    )
    agent = Agent(name="ops", model=model, tools=[app_server])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=60)
    [refused, rejected, invalid] = results(model.requests[1])
    assert refused == (
        "refuse",
        "ToolError: McpToolError: Error executing tool refuse: refused: no funds",
        True,
    )
    assert rejected == (
        "reject",
        "ToolError: McpToolError: error -32602: amount over the limit",
        True,
    )
    assert invalid[0] == "add" and invalid[2] is True
    assert invalid[1].startswith("ToolError: McpToolError: ") and "validation error" in invalid[1]
    outcomes = [r.outcome for r in await session.transcript() if r.kind == "tool_result"]
    assert outcomes == ["error", "error", "error"]


async def test_a_turn_keeps_its_listing_and_the_next_turn_lists_again(
    memory: Backend, tmp_path: Path
) -> None:
    # Turn 1: the model calls `grow`, which adds a tool to the server. The turn's later
    # step, and that step's retry (its first model call fails), still see the turn's
    # listing; turn 2 sees the new tool; turn 3's unchanged listing is kept by digest.
    model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("grow"),)),
            "Grown.",
            Reply(tool_calls=(tool_call("later"),)),
            "Late.",
            "Same tools.",
        ],
        select="transcript",
        fail_on={2: ModelError("overloaded", provider="scripted", retryable=True)},
    )
    agent = Agent(name="ops", model=model, tools=[stdio_server(tmp_path)])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        done = -1
        for text in ("grow please", "use it", "again"):
            await session.send(text)
            done = (await session.wait_for("turn.completed", after=done, timeout=60)).index
    requests = model.requests
    assert len(requests) == 6
    assert [declared(r) for r in requests[:3]] == [APP_TOOLS] * 3
    assert [declared(r) for r in requests[3:]] == [sorted([*APP_TOOLS, "later"])] * 3
    assert results(requests[4])[-1] == ("later", "late", False)
    listings = transcript_listings(await session.transcript())
    assert len(listings) == 3
    assert [len(e.tools) if e.tools is not None else None for e in listings] == [6, 7, None]
    assert listings[2].digest == listings[1].digest != listings[0].digest


async def test_an_unreachable_server_is_an_outage_and_the_step_is_retried(
    memory: Backend, tmp_path: Path
) -> None:
    (tmp_path / "down").touch()
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("add", {"a": 1, "b": 1}),)), "Two."], select="transcript"
    )
    agent = Agent(name="ops", model=model, tools=[stdio_server(tmp_path)])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        # The first attempt found the server down (its process exited at once): no
        # model call, nothing in the transcript; the step waits for its retry.
        await until(lambda: logged(tmp_path, "down"))
        (tmp_path / "down").unlink()
        await session.wait_for("turn.completed", timeout=60)
    assert len(logged(tmp_path, "down")) >= 1
    assert model.calls == 2 and results(model.requests[1]) == [("add", "2", False)]
    assert len(transcript_listings(await session.transcript())) == 1


@pytest.mark.slow
async def test_a_server_down_past_the_retries_fails_the_turn(
    memory: Backend, tmp_path: Path
) -> None:
    (tmp_path / "down").touch()
    model = ScriptedModel(["never"], select="transcript")
    agent = Agent(name="ops", model=model, tools=[stdio_server(tmp_path)])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        failed = await session.wait_for("turn.failed", timeout=90)
        assert "MCP server app" in failed.data.error and "unavailable" in failed.data.error
        assert (await session.state()).status == "idle"  # the session goes on
    assert model.calls == 0
    assert len(logged(tmp_path, "down")) == 4  # the turn step's 4 attempts


async def test_a_server_dying_mid_call_reruns_idempotent_calls_only(
    memory: Backend, tmp_path: Path
) -> None:
    (tmp_path / "hang-charge").touch()
    (tmp_path / "hang-lookup").touch()
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
    )
    agent = Agent(name="ops", model=model, tools=[stdio_server(tmp_path)])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await until(lambda: (tmp_path / "ready-charge").exists())
        await until(lambda: (tmp_path / "ready-lookup").exists())
        (tmp_path / "hang-charge").unlink()
        (tmp_path / "hang-lookup").unlink()
        os.kill(int((tmp_path / "ready-charge").read_text()), signal.SIGKILL)
        await session.wait_for("turn.completed", timeout=60)
    # The connection closed under both calls: an outage, and the step's retry ran on a
    # new server process. `lookup` (idempotent) ran again with the same key; `charge`
    # had started and is not idempotent: the model is told its outcome is unknown.
    assert len(logged(tmp_path, "started")) == 2
    assert len(calls(tmp_path, "charge")) == 1
    first, again = calls(tmp_path, "lookup")
    assert first["key"] == again["key"] and first["pid"] != again["pid"]
    [charged, looked] = results(model.requests[1])
    assert charged[0] == "charge" and charged[1].startswith("Outcome unknown")
    assert looked == ("lookup", "db: degraded", False)
    outcomes = [r.outcome for r in await session.transcript() if r.kind == "tool_result"]
    assert outcomes == ["unknown", "ok"]


async def test_approvals_and_timeouts_apply_to_mcp_tools(memory: Backend, tmp_path: Path) -> None:
    (tmp_path / "hang-lookup").touch()
    server = stdio_server(tmp_path, approval={"charge": approval.always()}, timeout=1.0)
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(
                    tool_call("charge", {"amount": 7}),
                    tool_call("lookup", {"service": "db"}),
                )
            ),
            "Charged.",
        ],
        select="transcript",
    )
    agent = Agent(name="ops", model=model, tools=[server])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go", principal="ada")
        waiting = await session.wait_for("input.requested", timeout=60)
        assert waiting.data.request.tool_name == "charge"
        assert calls(tmp_path, "charge") == []  # held for the approval
        await session.answer(waiting.data.request.request_id, True, principal="ada")
        await session.wait_for("turn.completed", timeout=60)
    [charged] = calls(tmp_path, "charge")
    assert charged["amount"] == 7
    by_name = {name: (content, error) for name, content, error in results(model.requests[1])}
    assert by_name["charge"] == ("charged 7", False)
    assert by_name["lookup"][1] is True and "did not finish within 1 s" in by_name["lookup"][0]


async def test_prefix_include_and_name_clashes(memory: Backend, tmp_path: Path) -> None:
    @tool
    def add(a: int, b: int) -> int:
        """The agent's own adder."""
        return a - b

    prefixed = stdio_server(tmp_path, prefix="m_", include=["add", "lookup", "charge"])
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(
                    tool_call("m_add", {"a": 4, "b": 1}),
                    tool_call("add", {"a": 4, "b": 1}),
                )
            ),
            "Ok.",
        ],
        select="transcript",
    )
    agent = Agent(name="ops", model=model, tools=[add, prefixed])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=60)
    assert declared(model.requests[0]) == ["add", "m_add", "m_charge", "m_lookup"]
    assert results(model.requests[1]) == [("m_add", "5", False), ("add", "3", False)]

    # Without a prefix the server's `add` clashes with the agent's own: the turn fails
    # and says how to fix it; the session goes on.
    clashing = stdio_server(tmp_path, exclude=["grow"])
    model = ScriptedModel(["never"], select="transcript")
    agent = Agent(name="ops2", model=model, tools=[add, clashing])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops2", session_id="s2")
        await session.send("go")
        failed = await session.wait_for("turn.failed", timeout=60)
    assert "['add']" in failed.data.error and "prefix" in failed.data.error
    assert model.calls == 0


def test_declaring_a_server_checks_its_settings(tmp_path: Path) -> None:
    server = mcp_server("fs", command=sys.executable, args=[str(APP)], idempotent={"a": True})
    assert repr(server).startswith("<McpServer 'fs' at ")
    assert server.tool_name("files.read/v2") == "files_read_v2"
    bad = [
        ({}, "give command=... "),
        ({"command": "x", "url": "http://h/mcp"}, "one of them"),
        ({"url": "ftp://h/mcp"}, "http:// or https://"),
        ({"url": "http://h/mcp", "args": ["x"]}, "args, env and cwd are for command"),
        ({"command": "x", "headers": {"a": "b"}}, "headers are for url"),
        ({"command": "x", "prefix": "a.b"}, "prefix 'a.b'"),
        ({"command": "x", "approval": "always"}, "approval must be an ApprovalPolicy"),
        ({"command": "x", "idempotent": {"a": "yes"}}, "idempotent must be True, False"),
        ({"command": "x", "include": "add"}, "include must be a list of tool names"),
        ({"command": "x", "timeout": 0}, "timeout must be a positive"),
    ]
    for options, message in bad:
        with pytest.raises(ConfigurationError, match=message.replace("(", r"\(")):
            mcp_server("fs", **options)
    with pytest.raises(ConfigurationError, match="not a valid MCP server name"):
        mcp_server("f s", command="x")
    with pytest.raises(ConfigurationError, match="two MCP servers named alike"):
        Agent(name="a", model="scripted:x", tools=[server, mcp_server("fs", command="y")])
    with pytest.raises(ConfigurationError, match="tools takes tools"):
        Agent(name="a", model="scripted:x", tools=[print])  # type: ignore[list-item]


def test_without_the_sdk_the_error_says_which_extra_installs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` now raises ImportError
    with pytest.raises(MissingExtraError, match=r"pip install 'tether\[mcp\]'"):
        mcp_server("fs", command="x")


async def test_an_http_server_restarted_between_turns_is_reconnected(
    memory: Backend, tmp_path: Path
) -> None:
    app = HttpApp(tmp_path)
    await app.start()
    model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("lookup", {"service": "a"}),)),
            "First.",
            Reply(tool_calls=(tool_call("lookup", {"service": "b"}),)),
            "Second.",
        ],
        select="transcript",
    )
    agent = Agent(name="ops", model=model, tools=[mcp_server("app", url=app.url)])
    try:
        async with serving(memory, agent) as host:
            session = await host.open_session("ops", session_id="s1")
            await session.send("one")
            first = await session.wait_for("turn.completed", timeout=60)
            app.kill()
            await app.start()  # the same port, a new process that knows no session
            await session.send("two")
            await session.wait_for("turn.completed", after=first.index, timeout=60)
    finally:
        app.kill()
    assert [c["service"] for c in calls(tmp_path, "lookup")] == ["a", "b"]
    assert results(model.requests[3]) == [
        ("lookup", "a: degraded", False),
        ("lookup", "b: degraded", False),
    ]


async def test_listing_an_unreachable_server_raises_an_outage(tmp_path: Path) -> None:
    async def unavailable(request: Request) -> Response:
        return PlainTextResponse("upstream is down", status_code=503)

    port = free_port()
    config = uvicorn.Config(
        Starlette(routes=[Route("/mcp", unavailable, methods=["GET", "POST", "DELETE"])]),
        host="127.0.0.1",
        port=port,
        log_level="warning",
    )
    proxy = uvicorn.Server(config)
    serving_task = asyncio.ensure_future(proxy.serve())
    try:
        await until(lambda: proxy.started)
        answering_503 = mcp_server("proxied", url=f"http://127.0.0.1:{port}/mcp")
        with pytest.raises(ToolUnavailableError, match=r"MCP server proxied.*cannot connect"):
            await answering_503.list_tools()
    finally:
        proxy.should_exit = True
        await serving_task
    closed = mcp_server("gone", url=f"http://127.0.0.1:{free_port()}/mcp", connect_timeout=10)
    with pytest.raises(ToolUnavailableError, match="cannot connect") as caught:
        await closed.list_tools()
    assert caught.value.retry_after is None and caught.value.tool_name == "MCP server gone"
    missing = mcp_server("nothing", command=str(tmp_path / "no-such-program"))
    with pytest.raises(ToolUnavailableError, match="FileNotFoundError"):
        await missing.list_tools()


async def test_a_server_gone_before_the_calls_start_costs_no_unknown_outcome(
    memory: Backend, tmp_path: Path
) -> None:
    async def kill_then_call(request: ModelRequest) -> Reply:
        # Listed: the server ran. It stops (and stays down) before the reply's calls.
        [started] = logged(tmp_path, "started")
        (tmp_path / "down").touch()
        os.kill(started["pid"], signal.SIGKILL)
        await until(lambda: not pid_alive(started["pid"]))
        await asyncio.sleep(0.3)  # the worker reads the end of its stdout
        return Reply(tool_calls=(tool_call("charge", {"amount": 7}),))

    model = ScriptedModel([kill_then_call, "Charged."], select="transcript")
    agent = Agent(name="ops", model=model, tools=[stdio_server(tmp_path)])
    async with serving(memory, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await until(lambda: logged(tmp_path, "down"))
        (tmp_path / "down").unlink()
        await session.wait_for("turn.completed", timeout=60)
    # The outage came before `charge` was marked started: its retry ran it (once), and
    # the reply stayed on record, so the model was not asked again.
    assert [c["amount"] for c in calls(tmp_path, "charge")] == [7]
    assert model.calls == 2
    assert results(model.requests[1]) == [("charge", "charged 7", False)]
    assert "tool_started" in [r.kind for r in await session.transcript()]
