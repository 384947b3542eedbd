"""MCP servers as sources of an agent's tools: ``Agent(tools=[..., mcp_server(...)])``.

Needs the MCP SDK: ``pip install 'tether[mcp]'``. An `McpServer` is spoken to over
stdio (a subprocess) or streamable HTTP. When a turn begins, the server's tools are
listed and the listing is recorded in the transcript (an `McpToolsEntry`): every step
of the turn, its retries and replays see that listing even if the server changes
meanwhile; the next turn lists again. Each call is a durable tool call: approvals,
timeouts and the idempotency key (sent in the request's ``_meta`` as
``tether/idempotencyKey``) apply as to any tool, a server that cannot be reached is an
outage (the step is retried) and a refused call is a tool error the model sees.
"""

from ._server import IDEMPOTENCY_KEY_META, McpServer, McpTool, mcp_server
from ._targets import HttpTarget, StdioTarget, Target

__all__ = [
    "IDEMPOTENCY_KEY_META",
    "HttpTarget",
    "McpServer",
    "McpTool",
    "StdioTarget",
    "Target",
    "mcp_server",
]
