"""`McpServer`: an MCP server an agent takes tools from, and `McpTool`, one of them.

Declared with `mcp_server` among an agent's tools; nothing connects until a turn needs
the tools. Each turn lists the server's tools once (the listing is recorded in the
transcript, see `tether.agent._turn._toolset`); the model calls them like any tool, and each
call runs inside the turn's durable step under tether's rules: approvals, timeouts,
the step's retries, the idempotency key, and "outcome unknown" for a non-idempotent
call a crash interrupted.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ...errors import ConfigurationError, McpToolError, MissingExtraError
from .._records._entries import McpToolSpec
from .._tools._approval import ApprovalPolicy, approval
from .._tools._arguments import ObjectArguments
from .._tools._tools import Tool, ToolContext, check_timeout
from ._targets import HttpTarget, StdioTarget, Target

if TYPE_CHECKING:
    from ._connection import Connections

__all__ = ["IDEMPOTENCY_KEY_META", "McpServer", "McpTool", "mcp_server"]

#: The ``_meta`` key of a ``tools/call`` request that carries tether's idempotency key
#: (``"<session_id>:<call_id>"``, the same on every retry of the call).
IDEMPOTENCY_KEY_META = "tether/idempotencyKey"

_SERVER_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_PREFIX = re.compile(r"^[a-zA-Z0-9_-]{0,63}$")
_NOT_IN_A_TOOL_NAME = re.compile(r"[^a-zA-Z0-9_-]")
_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class McpServer:
    """An MCP server whose tools an agent gets; declare it with :func:`mcp_server`.

    Put it among an agent's tools: ``Agent(tools=[lookup, mcp_server("fs", ...)])``.
    A worker process keeps one connection to it per event loop, opened when a turn
    first needs it and kept for later ones (a stdio server runs as long as it);
    :meth:`aclose` closes it.
    """

    __slots__ = (
        "_approval",
        "_connect_timeout",
        "_connections",
        "_exclude",
        "_idempotent",
        "_include",
        "_name",
        "_prefix",
        "_target",
        "_timeout",
    )

    def __init__(
        self,
        name: str,
        target: Target,
        *,
        prefix: str = "",
        include: Iterable[str] | None = None,
        exclude: Iterable[str] = (),
        approval: ApprovalPolicy | Mapping[str, ApprovalPolicy] | None = None,
        idempotent: bool | Mapping[str, bool] | None = None,
        timeout: float | None = None,
        connect_timeout: float = 30.0,
    ) -> None:
        if not isinstance(name, str) or not _SERVER_NAME.match(name):
            raise ConfigurationError(
                f"{name!r} is not a valid MCP server name: use 1 to 64 letters, digits, '_' "
                "or '-' (it names the server's listings in transcripts: keep it stable)"
            )
        if not isinstance(target, StdioTarget | HttpTarget):
            raise ConfigurationError(f"MCP server {name!r}: unknown target {target!r}")
        if not isinstance(prefix, str) or not _PREFIX.match(prefix):
            raise ConfigurationError(
                f"MCP server {name!r}: prefix {prefix!r} may hold only letters, digits, '_' "
                "and '-' (up to 63)"
            )
        self._name = name
        self._target = target
        self._prefix = prefix
        self._include = None if include is None else _names(name, "include", include)
        self._exclude = _names(name, "exclude", exclude)
        self._approval = _approval(name, approval)
        self._idempotent = _idempotent(name, idempotent)
        self._timeout = check_timeout(timeout, f"MCP server {name!r}: timeout")
        connect = check_timeout(connect_timeout, f"MCP server {name!r}: connect_timeout")
        assert connect is not None
        self._connect_timeout = connect
        self._connections: Connections | None = None

    @property
    def name(self) -> str:
        """The server's name: it keys the server's listings in transcripts."""
        return self._name

    @property
    def target(self) -> Target:
        """Where the server is: a `StdioTarget` or an `HttpTarget`."""
        return self._target

    @property
    def prefix(self) -> str:
        """Put before each tool's name, as the model sees it."""
        return self._prefix

    @property
    def timeout(self) -> float | None:
        """Seconds one call may run (None: the agent's ``tool_timeout``)."""
        return self._timeout

    def __repr__(self) -> str:
        where = (
            self._target.url
            if isinstance(self._target, HttpTarget)
            else " ".join([self._target.command, *self._target.args])
        )
        return f"<McpServer {self._name!r} at {where!r}>"

    def _conns(self) -> Connections:
        if self._connections is None:
            from ._connection import Connections

            self._connections = Connections(self._name, self._target, self._connect_timeout)
        return self._connections

    async def list_tools(self) -> tuple[McpToolSpec, ...]:
        """Ask the server for its tools now (every page), less those left out.

        Returns:
            The tools, in the server's order (``include`` and ``exclude`` applied).

        Raises:
            ToolUnavailableError: The server cannot be reached.
            McpToolError: It refused the listing.
        """
        specs = await self._conns().list_tools()
        return tuple(
            spec
            for spec in specs
            if (self._include is None or spec.name in self._include)
            and spec.name not in self._exclude
        )

    def tool_name(self, listed: str) -> str:
        """The name the model calls a listed tool by.

        The prefix, then the tool's name with each character a model provider does not
        take in a name (``.``, ``/``, ...) as ``_``.
        """
        return self._prefix + _NOT_IN_A_TOOL_NAME.sub("_", listed)

    def tools(self, specs: Sequence[McpToolSpec]) -> list[McpTool]:
        """The agent's tools for a listing of this server.

        Raises:
            ConfigurationError: A tool's name is not one a model can call (too long,
                or two tools map to one name).
        """
        made: dict[str, McpTool] = {}
        for spec in specs:
            name = self.tool_name(spec.name)
            if not _TOOL_NAME.match(name):
                raise ConfigurationError(
                    f"MCP server {self._name!r} lists a tool {spec.name!r} whose name "
                    f"{name!r} is longer than 64 characters; leave it out (exclude=...) "
                    "or use a shorter prefix"
                )
            if name in made:
                raise ConfigurationError(
                    f"MCP server {self._name!r} lists {made[name].spec.name!r} and "
                    f"{spec.name!r}, which are both called {name!r}; leave one out "
                    "(exclude=...)"
                )
            made[name] = McpTool(
                self,
                spec,
                name=name,
                approval=self._approval_of(spec.name),
                idempotent=self._idempotent_of(spec),
                timeout=self._timeout,
            )
        return list(made.values())

    def _approval_of(self, listed: str) -> ApprovalPolicy:
        if isinstance(self._approval, Mapping):
            return self._approval.get(listed, approval.never())
        return self._approval

    def _idempotent_of(self, spec: McpToolSpec) -> bool:
        if isinstance(self._idempotent, bool):
            return self._idempotent
        if self._idempotent is not None and spec.name in self._idempotent:
            return self._idempotent[spec.name]
        # The annotations' defaults are false: a tool that says nothing may repeat an
        # effect if run twice, so a crash mid-call makes its outcome unknown.
        return bool(spec.read_only_hint) or bool(spec.idempotent_hint)

    async def _ready(self) -> None:
        await self._conns().get()

    async def _call(self, listed: str, arguments: Mapping[str, Any], key: str) -> str:
        from ._results import result_text

        result = await self._conns().call_tool(listed, arguments, {IDEMPOTENCY_KEY_META: key})
        text = result_text(result)
        if result.is_error:
            raise McpToolError(self._name, listed, text)
        return text

    async def aclose(self) -> None:
        """Close this event loop's connection to the server (a stdio server stops).

        The next turn that needs the server connects again.
        """
        if self._connections is not None:
            await self._connections.aclose()


class McpTool(Tool):
    """A tool an MCP server listed, as the agent's model sees and calls it.

    Made by `McpServer.tools` from a listing. Its schema is the server's, and the
    server checks the arguments (tether only checks they are a JSON object); what the
    server refuses reaches the model as the tool's error (`McpToolError`).
    """

    __slots__ = ("_server", "_spec")

    def __init__(
        self,
        server: McpServer,
        spec: McpToolSpec,
        *,
        name: str,
        approval: ApprovalPolicy,
        idempotent: bool,
        timeout: float | None,
    ) -> None:
        # Not `Tool.__init__`: there is no signature to read; the schema is the server's.
        self._server = server
        self._spec = spec
        self._fn = self.invoke
        self._name = name
        self._description = spec.description
        self._approval = approval
        self._idempotent = idempotent
        self._is_workflow = False
        self._is_async = True
        self._arguments = ObjectArguments(name, dict(spec.input_schema))
        self._timeout = timeout
        self._auth = ()
        self._limit = None

    @property
    def server(self) -> McpServer:
        """The server that listed the tool."""
        return self._server

    @property
    def spec(self) -> McpToolSpec:
        """The tool as the server listed it."""
        return self._spec

    def __repr__(self) -> str:
        return f"<mcp tool {self._name!r} of {self._server.name!r}>"

    async def _prepare(self) -> None:
        await self._server._ready()

    async def invoke(
        self,
        arguments: Mapping[str, Any],
        context: ToolContext,
        *,
        run_sync: Callable[..., Awaitable[Any]] | None = None,
    ) -> Any:
        """Call the tool on its server, with the call's idempotency key in ``_meta``.

        Args:
            arguments: The call's arguments (a JSON object).
            context: The call's context; its idempotency key goes to the server.
            run_sync: Unused (the call is async).

        Returns:
            The result's content as text (see `tether.agent.mcp`).

        Raises:
            ToolArgumentsError: The arguments are not a JSON object.
            McpToolError: The server refused the call.
            ToolUnavailableError: The server cannot be reached.
        """
        validated = self.validate(arguments)
        return await self._server._call(self._spec.name, validated, context.idempotency_key)


def mcp_server(
    name: str,
    *,
    command: str | None = None,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    prefix: str = "",
    include: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    approval: ApprovalPolicy | Mapping[str, ApprovalPolicy] | None = None,
    idempotent: bool | Mapping[str, bool] | None = None,
    timeout: float | None = None,
    connect_timeout: float = 30.0,
) -> McpServer:
    """Declare an MCP server whose tools an agent gets, over stdio or streamable HTTP.

    Give ``command`` (and ``args``, ``env``, ``cwd``) to run the server as a subprocess
    spoken to over stdio, or ``url`` (and ``headers``) for a streamable-HTTP endpoint.

    Args:
        name: Names the server in transcripts and errors; keep it stable across
            deployments (1-64 letters, digits, ``_``, ``-``).
        command: The program to run (stdio).
        args: Its arguments.
        env: Environment variables for it, added to the few the SDK passes on
            (``PATH``, ``HOME``, ...).
        cwd: Its working directory.
        url: The endpoint (``http://`` or ``https://``), e.g. ``http://127.0.0.1:8000/mcp``.
        headers: HTTP headers sent with every request (an ``Authorization``, ...).
        prefix: Put before each tool's name as the model sees it (``"fs_"``), to keep
            two servers' tools apart.
        include: Only these tools (by the server's names); default all.
        exclude: Leave these tools out (by the server's names).
        approval: A policy for every tool (``approval.always()``), or one per tool by the
            server's names (others: never).
        idempotent: Whether an interrupted call may run again: True or False for every
            tool, or per tool by the server's names. Default: the server's annotations
            (``readOnlyHint`` or ``idempotentHint``); a tool without them is not
            idempotent (a crash in a call makes its outcome unknown).
        timeout: Seconds one call may run (default: the agent's ``tool_timeout``).
        connect_timeout: Seconds to connect and initialize before the server counts
            as unavailable (the step is retried).

    Returns:
        The `McpServer`, to put among the agent's tools.

    Raises:
        MissingExtraError: The MCP SDK is not installed (``pip install 'tether[mcp]'``).
        ConfigurationError: Neither or both of ``command`` and ``url``, a URL that is
            not HTTP, or another bad value (the message says which).
    """
    try:
        import mcp  # noqa: F401
    except ImportError as exc:
        raise MissingExtraError("mcp", "mcp") from exc
    if (command is None) == (url is None):
        raise ConfigurationError(
            f"MCP server {name!r}: give command=... (a server run over stdio) or url=... "
            "(a streamable-HTTP endpoint), one of them"
        )
    target: Target
    if command is not None:
        if headers is not None:
            raise ConfigurationError(f"MCP server {name!r}: headers are for url=..., not stdio")
        if not isinstance(command, str) or not command:
            raise ConfigurationError(f"MCP server {name!r}: command must be a program to run")
        if isinstance(args, str) or not all(isinstance(a, str) for a in args):
            raise ConfigurationError(f"MCP server {name!r}: args must be a list of strings")
        if env is not None and not all(
            isinstance(k, str) and isinstance(v, str) for k, v in env.items()
        ):
            raise ConfigurationError(f"MCP server {name!r}: env must map strings to strings")
        target = StdioTarget(
            command=command,
            args=tuple(args),
            env=None if env is None else dict(env),
            cwd=None if cwd is None else os.fspath(cwd),
        )
    else:
        assert url is not None
        if args or env is not None or cwd is not None:
            raise ConfigurationError(
                f"MCP server {name!r}: args, env and cwd are for command=..., not url=..."
            )
        parts = urlsplit(url) if isinstance(url, str) else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigurationError(
                f"MCP server {name!r}: url must be an http:// or https:// address, not {url!r}"
            )
        if headers is not None and not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            raise ConfigurationError(f"MCP server {name!r}: headers must map strings to strings")
        target = HttpTarget(url=url, headers=dict(headers or {}))
    return McpServer(
        name,
        target,
        prefix=prefix,
        include=include,
        exclude=exclude,
        approval=approval,
        idempotent=idempotent,
        timeout=timeout,
        connect_timeout=connect_timeout,
    )


def _names(server: str, what: str, names: Iterable[str]) -> frozenset[str]:
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise ConfigurationError(
            f"MCP server {server!r}: {what} must be a list of tool names, not {names!r}"
        )
    return frozenset(names)


def _approval(
    server: str, value: ApprovalPolicy | Mapping[str, ApprovalPolicy] | None
) -> ApprovalPolicy | Mapping[str, ApprovalPolicy]:
    if value is None:
        return approval.never()
    if isinstance(value, ApprovalPolicy):
        return value
    if isinstance(value, Mapping) and all(
        isinstance(k, str) and isinstance(v, ApprovalPolicy) for k, v in value.items()
    ):
        return dict(value)
    raise ConfigurationError(
        f"MCP server {server!r}: approval must be an ApprovalPolicy such as "
        f"approval.always(), or a dict of them by tool name, not {value!r}"
    )


def _idempotent(
    server: str, value: bool | Mapping[str, bool] | None
) -> bool | Mapping[str, bool] | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, Mapping) and all(
        isinstance(k, str) and isinstance(v, bool) for k, v in value.items()
    ):
        return dict(value)
    raise ConfigurationError(
        f"MCP server {server!r}: idempotent must be True, False, None (the tools' "
        f"annotations decide) or a dict of booleans by tool name, not {value!r}"
    )
