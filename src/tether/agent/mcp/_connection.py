"""Connections to an MCP server: one per event loop, each held open by a task of its own.

The SDK's `Client` is an async context manager whose transport runs in a task group: it
must be entered and left by one task, and a transport that breaks cancels the task
inside it. So each connection has a holder task (with an empty context: it outlives
the step that opened it) that enters the client, publishes it, and waits until it is
closed or its transport ends. Steps of any session on the loop send their requests
through it concurrently.

A connection whose transport ended (the server's process exited, its HTTP endpoint
went away) is dead: the next use opens a new one. What failed because the server
could not be reached is an outage (`ToolUnavailableError`, the step is retried); what
the server answered is the server's word (`McpToolError`, the model sees it).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import weakref
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

import anyio
import httpx2
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import (
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    CallToolResult,
    ListToolsResult,
)
from mcp_types import Tool as ListedTool

from ...errors import McpToolError, ToolUnavailableError
from .._records._entries import McpToolSpec
from ._targets import HttpTarget, StdioTarget, Target

__all__ = ["Connections"]

#: Pages of ``tools/list`` one listing follows at most (a server whose cursor never
#: ends cannot hold a step forever).
MAX_PAGES = 100

#: Errors the SDK's HTTP transport makes up for a request whose answer never came
#: from the MCP server: a non-JSON 4xx/5xx answer (a proxy saying 502 or 503), and a
#: 404 for a session the server no longer knows (it restarted). They are outages.
_HTTP_OUTAGES = frozenset(
    {
        (INTERNAL_ERROR, "Server returned an error response"),
        (INVALID_REQUEST, "Session terminated"),
    }
)


def _transport(target: Target) -> AbstractAsyncContextManager[Any]:
    if isinstance(target, StdioTarget):
        params = StdioServerParameters(
            command=target.command,
            args=list(target.args),
            env=None if target.env is None else dict(target.env),
            cwd=target.cwd,
        )
        return stdio_client(params)
    return _http(target)


@contextlib.asynccontextmanager
async def _http(target: HttpTarget) -> AsyncIterator[Any]:
    # The SDK's own defaults: 30 s to connect or write, 300 s between reads (a response
    # stream may stay open while a tool runs).
    timeout = httpx2.Timeout(30.0, read=300.0)
    async with httpx2.AsyncClient(headers=dict(target.headers), timeout=timeout) as http:
        async with streamable_http_client(target.url, http_client=http) as streams:
            yield streams


class _WatchedRead:
    """The transport's read stream, noting when it ends (the SDK's `ReadStream` protocol).

    A stdio server that exits closes its stdout: the stream ends, and the connection
    is then known dead before the next call is sent to it.
    """

    def __init__(self, inner: Any, ended: asyncio.Event) -> None:
        self._inner = inner
        self._ended = ended

    def __getattr__(self, name: str) -> Any:
        # `last_context` and anything else the SDK reads from its own streams.
        return getattr(self._inner, name)

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._ended.set()
            raise

    def __aiter__(self) -> _WatchedRead:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        self._ended.set()
        await self._inner.aclose()

    async def __aenter__(self) -> _WatchedRead:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@contextlib.asynccontextmanager
async def _watched(target: Target, ended: asyncio.Event) -> AsyncIterator[Any]:
    async with _transport(target) as (read, write):
        yield _WatchedRead(read, ended), write


class _Connection:
    """One MCP client session, held open by its own task until closed or broken."""

    def __init__(self, server: str, target: Target) -> None:
        self.server = server
        self._target = target
        self._ended = asyncio.Event()
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        self._client: Client | None = None
        # An empty context: the holder outlives the step that opened it, and must not
        # carry that step's context variables.
        self._task = asyncio.get_running_loop().create_task(
            self._hold(), name=f"tether mcp {server}", context=contextvars.Context()
        )

    @property
    def alive(self) -> bool:
        return self._client is not None and not self._ended.is_set() and not self._task.done()

    @property
    def client(self) -> Client:
        assert self._client is not None
        return self._client

    async def _hold(self) -> None:
        try:
            async with Client(_watched(self._target, self._ended), cache=None) as client:
                self._client = client
                self._ready.set_result(client)
                ended = asyncio.ensure_future(self._ended.wait())
                stop = asyncio.ensure_future(self._stop.wait())
                try:
                    await asyncio.wait({ended, stop}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    ended.cancel()
                    stop.cancel()
        except asyncio.CancelledError:
            if not self._ready.done():
                self._ready.set_exception(ConnectionError("the connection was cancelled"))
            raise
        except Exception as exc:
            # The transport broke (its task group failed) or never opened.
            if not self._ready.done():
                self._ready.set_exception(exc)
        finally:
            self._ended.set()

    async def opened(self, timeout: float) -> None:
        """Wait until the session is initialized.

        Raises:
            ToolUnavailableError: It failed or took longer than `timeout` seconds.
        """
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except TimeoutError:
            await self.close(abort=True)
            raise ToolUnavailableError(
                f"MCP server {self.server}", f"it did not answer within {timeout:g} s"
            ) from None
        except Exception as exc:
            raise ToolUnavailableError(
                f"MCP server {self.server}", f"cannot connect: {_describe(exc)}"
            ) from exc

    async def close(self, *, abort: bool = False) -> None:
        """Close the session (a stdio server's process stops) and wait for it."""
        self._stop.set()
        if abort:
            self._task.cancel()
        with contextlib.suppress(BaseException):
            await self._task
        if not self._ready.done():
            self._ready.cancel()
        elif not self._ready.cancelled():
            # Retrieved, so an unused failure is not reported as never awaited.
            self._ready.exception()


class _LoopConnections:
    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.current: _Connection | None = None


class Connections:
    """The connections to one MCP server: one per event loop, opened at first use."""

    def __init__(self, server: str, target: Target, connect_timeout: float) -> None:
        self._server = server
        self._target = target
        self._connect_timeout = connect_timeout
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopConnections] = (
            weakref.WeakKeyDictionary()
        )

    def _here(self) -> _LoopConnections:
        loop = asyncio.get_running_loop()
        here = self._loops.get(loop)
        if here is None:
            here = self._loops[loop] = _LoopConnections()
        return here

    async def get(self) -> _Connection:
        """This loop's live connection, opened (again) if there is none.

        Raises:
            ToolUnavailableError: The server cannot be reached.
        """
        here = self._here()
        current = here.current
        if current is not None and current.alive:
            return current
        async with here.lock:
            current = here.current
            if current is not None and current.alive:
                return current
            if current is not None:
                here.current = None
                await current.close()
            fresh = _Connection(self._server, self._target)
            await fresh.opened(self._connect_timeout)
            here.current = fresh
            return fresh

    async def drop(self, connection: _Connection) -> None:
        """Close `connection` after it broke; the next use opens another."""
        here = self._here()
        if here.current is connection:
            here.current = None
        await connection.close()

    async def aclose(self) -> None:
        """Close this loop's connection, if any."""
        here = self._loops.pop(asyncio.get_running_loop(), None)
        if here is not None and here.current is not None:
            await here.current.close()

    # -- requests ------------------------------------------------------------------------
    async def list_tools(self) -> list[McpToolSpec]:
        """Every tool the server lists now, page after page.

        Raises:
            ToolUnavailableError: The server cannot be reached (or broke meanwhile).
            McpToolError: It refused the listing.
        """
        connection = await self.get()
        specs: list[McpToolSpec] = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            page: ListToolsResult = await self._request(
                connection, "tools/list", functools.partial(_list_page, cursor=cursor)
            )
            specs.extend(_spec(tool) for tool in page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return specs
        raise McpToolError(
            self._server, "tools/list", f"the listing did not end after {MAX_PAGES} pages"
        )

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any], meta: Mapping[str, Any]
    ) -> CallToolResult:
        """Call a tool; the result as the server gave it (``is_error`` included).

        Raises:
            ToolUnavailableError: The server cannot be reached (or broke meanwhile).
            McpToolError: It answered with a JSON-RPC error.
        """
        connection = await self.get()
        result: CallToolResult = await self._request(
            connection,
            name,
            lambda c: c.call_tool(name, dict(arguments), meta=dict(meta)),  # type: ignore[arg-type]
        )
        return result

    async def _request(
        self, connection: _Connection, what: str, send: Callable[[Client], Any]
    ) -> Any:
        try:
            return await send(connection.client)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED or (exc.code, exc.message) in _HTTP_OUTAGES:
                await self.drop(connection)
                raise ToolUnavailableError(
                    f"MCP server {self._server}", f"{what}: {exc.message}"
                ) from exc
            raise McpToolError(self._server, what, exc.message, exc.code) from exc
        except Exception as exc:
            # A transport failure, or anything at all from a connection that died
            # under the request: an outage. From a live one: the server's answer was
            # not one the SDK accepts (a malformed result), which the model is told.
            if connection.alive and not isinstance(exc, OSError | httpx2.TransportError):
                raise McpToolError(self._server, what, _describe(exc)) from exc
            await self.drop(connection)
            raise ToolUnavailableError(
                f"MCP server {self._server}", f"{what}: {_describe(exc)}"
            ) from exc


async def _list_page(client: Client, *, cursor: str | None) -> ListToolsResult:
    # Not the SDK's response cache: a turn's listing is what the server says now.
    return await client.list_tools(cursor=cursor, cache_mode="bypass")


def _spec(tool: ListedTool) -> McpToolSpec:
    hints = tool.annotations
    return McpToolSpec(
        name=tool.name,
        description=tool.description or tool.title or "",
        input_schema=dict(tool.input_schema),
        title=tool.title or (hints.title if hints is not None else None),
        read_only_hint=None if hints is None else hints.read_only_hint,
        destructive_hint=None if hints is None else hints.destructive_hint,
        idempotent_hint=None if hints is None else hints.idempotent_hint,
        open_world_hint=None if hints is None else hints.open_world_hint,
    )


def _describe(exc: BaseException) -> str:
    """One line for an error, the first leaf of an exception group."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
