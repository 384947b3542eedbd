"""Helpers of the MCP tool tests: the SDK-built server of `mcp_app.py`, on both transports."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tether.agent import Agent, AgentHost, McpServer, mcp_server
from tether.agent.models import ModelRequest, ToolResultMessage

APP = Path(__file__).with_name("mcp_app.py")
EVERYTHING = Path(__file__).with_name("mcp_everything")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class HttpApp:
    """`mcp_app.py` serving streamable HTTP in a subprocess of the test."""

    dir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    async def start(self) -> None:
        argv = [sys.executable, str(APP), "http", str(self.dir), str(self.port)]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(1200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.1).close()
                return
            except OSError:
                assert self.proc.poll() is None, "the MCP server exited"
                await asyncio.sleep(0.05)
        raise AssertionError("the MCP server never listened")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def stdio_server(dir: Path, name: str = "app", **options: Any) -> McpServer:
    """`mcp_app.py` as an agent's stdio server (the agent starts it)."""
    return mcp_server(name, command=sys.executable, args=[str(APP), "stdio", str(dir)], **options)


def _everything_script() -> Path:
    entry = EVERYTHING / "node_modules" / "@modelcontextprotocol" / "server-everything"
    script = entry / "dist" / "index.js"
    assert script.exists(), "run `npm install` in tests/agent/mcp_everything (CI does)"
    return script


def everything_server(name: str = "everything", **options: Any) -> McpServer:
    """The published `@modelcontextprotocol/server-everything`, run by node over stdio."""
    script = _everything_script()
    return mcp_server(name, command="node", args=[str(script), "stdio"], **options)


@dataclass
class EverythingHttp:
    """The published `@modelcontextprotocol/server-everything` serving streamable HTTP
    (``node dist/index.js streamableHttp``, its port from ``PORT``) in a subprocess."""

    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    async def start(self) -> None:
        argv = ["node", str(_everything_script()), "streamableHttp"]
        env = {**os.environ, "PORT": str(self.port)}
        self.proc = subprocess.Popen(
            argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(1200):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.1).close()
                return
            except OSError:
                assert self.proc.poll() is None, "the published MCP server exited"
                await asyncio.sleep(0.05)
        raise AssertionError("the published MCP server never listened")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def logged(dir: Path, event: str) -> list[dict[str, Any]]:
    """What `mcp_app.py` logged of `event` (``call``, ``started``, ``down``)."""
    path = dir / "mcp.log"
    if not path.exists():
        return []
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    return [e for e in entries if e["event"] == event]


def calls(dir: Path, tool: str | None = None) -> list[dict[str, Any]]:
    """The calls `mcp_app.py` logged (of `tool`)."""
    return [e for e in logged(dir, "call") if tool is None or e["tool"] == tool]


async def until(check: Any, timeout: float = 30) -> None:
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition never held")


def results(request: ModelRequest) -> list[tuple[str, str, bool]]:
    """The tool results a model request shows: (name, content, is_error)."""
    return [
        (m.name, m.content, m.is_error)
        for m in request.messages
        if isinstance(m, ToolResultMessage)
    ]


def declared(request: ModelRequest) -> list[str]:
    """The tool names a model request declares."""
    return sorted(t.name for t in request.tools)


@asynccontextmanager
async def serving(backend: Any, agent: Agent, **options: Any) -> AsyncIterator[AgentHost]:
    """A host of `agent` with a running worker; its MCP servers closed at the end."""
    host = AgentHost(backend, [agent], **options)
    try:
        async with host.worker(poll_interval=0.02):
            yield host
    finally:
        for server in agent.mcp_servers:
            await server.aclose()


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
