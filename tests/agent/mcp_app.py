"""An MCP server built with the SDK, for the MCP tool tests.

``python mcp_app.py stdio DIR`` serves over stdin/stdout; ``python mcp_app.py http DIR
PORT`` serves streamable HTTP on 127.0.0.1:PORT at ``/mcp``. Each call of a tool with
an effect appends one JSON line to DIR/mcp.log (O_APPEND + fsync: the test counts them
after killing processes), with the idempotency key the request's ``_meta`` carried. A
tool whose DIR/hang-<tool> file exists writes DIR/ready-<tool> and then waits until
the process is killed. While DIR/down exists, the server exits at once when started
(a server that cannot be reached).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

DIR = Path(sys.argv[2] if len(sys.argv) > 2 else ".")


def log(**entry: Any) -> None:
    line = (json.dumps(entry, sort_keys=True) + "\n").encode()
    fd = os.open(DIR / "mcp.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


if __name__ == "__main__" and (DIR / "down").exists():
    # Before the SDK is imported: a server that is down answers at once.
    log(event="down", pid=os.getpid())
    sys.exit(3)

from mcp import MCPError  # noqa: E402
from mcp.server.mcpserver import Context, MCPServer  # noqa: E402
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402
from mcp.types import ToolAnnotations  # noqa: E402

KEY = "tether/idempotencyKey"

server = MCPServer("tether-tests", log_level="WARNING")


async def effect(tool: str, ctx: Context, **args: Any) -> None:
    meta = ctx.request_context.meta or {}
    log(event="call", tool=tool, key=meta.get(KEY), pid=os.getpid(), **args)
    if (DIR / f"hang-{tool}").exists():
        (DIR / f"ready-{tool}").write_text(str(os.getpid()))
        await asyncio.sleep(3600)


@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool(annotations=ToolAnnotations(idempotent_hint=True))
async def lookup(service: str, ctx: Context) -> str:
    """Look up a service's status (idempotent)."""
    await effect("lookup", ctx, service=service)
    return f"{service}: degraded"


@server.tool()
async def charge(amount: int, ctx: Context) -> str:
    """Charge a card (no annotations: not idempotent)."""
    await effect("charge", ctx, amount=amount)
    return f"charged {amount}"


@server.tool()
def refuse(reason: str) -> str:
    """Refuse, as a tool error (an isError result)."""
    raise ToolError(f"refused: {reason}")


@server.tool()
def reject() -> str:
    """Reject the call with a JSON-RPC error."""
    raise MCPError(code=-32602, message="amount over the limit")


@server.tool()
async def grow(ctx: Context) -> str:
    """Add a tool named `later` to this server."""

    def later() -> str:
        """A tool that appeared after the listing."""
        return "late"

    ctx.mcp_server.add_tool(later)
    return "grown"


if __name__ == "__main__":
    log(event="started", pid=os.getpid(), transport=sys.argv[1])
    if sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[3]))
    else:
        server.run()
