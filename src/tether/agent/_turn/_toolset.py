"""The tools a turn sees: the agent's own, and those its MCP servers listed for the turn.

The first step of a turn that calls the model or runs tools lists each MCP server's
tools and records the listing in the transcript (`McpToolsEntry`), before the model
sees them: it lands with the step's first checkpoint, so a reply that calls the tools
is never on record without the listing it was made from. Every later step of the turn,
a retried attempt and a replay read the recorded listing and never ask the server
again; an attempt that failed before anything of it was recorded lists afresh, as
nothing depends on what it saw. The next turn lists again, so a server's new or
changed tools reach the model from the next message on.

A listing equal to the server's latest one in the transcript is recorded by its digest
alone (``tools`` None), so an unchanged server adds a few bytes per turn.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from ...errors import ConfigurationError, FatalError, McpToolError
from .._records._entries import McpToolsEntry, McpToolSpec
from .._records._json import json_value
from .._tools._tools import Tool
from ..models._types import ToolDefinition

if TYPE_CHECKING:
    from .._agent import Agent
    from .._records._cursor import TurnState


class _TurnWork(Protocol):
    """What listing a turn's tools reads of the step's work (`StepWork`)."""

    agent: Agent
    turn: TurnState | None
    entries: list[Any]

    def turn_entries(self) -> list[Any]: ...

    def record(self, *entries: Any) -> None: ...


__all__ = ["TurnTools", "listing_digest", "own_tools", "turn_tools"]


class TurnTools:
    """The tools of one turn, by the name the model calls them."""

    __slots__ = ("_by_name",)

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._by_name = {t.name: t for t in tools}

    def get(self, name: str) -> Tool | None:
        """The tool called `name`, or None."""
        return self._by_name.get(name)

    def names(self) -> list[str]:
        """The tools' names, sorted."""
        return sorted(self._by_name)

    def definitions(self) -> tuple[ToolDefinition, ...]:
        """What a model request declares."""
        return tuple(t.definition() for t in self._by_name.values())


def own_tools(agent: Agent) -> TurnTools:
    """The agent's own tools (no MCP server's)."""
    return TurnTools(t for t in agent.tools if isinstance(t, Tool))


def listing_digest(specs: Sequence[McpToolSpec]) -> str:
    """A listing's digest: the same tools give the same digest in every process."""
    data = orjson.dumps(json_value(list(specs)), option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(data).hexdigest()


async def turn_tools(work: _TurnWork) -> TurnTools:
    """The turn's tools, listing its MCP servers' tools if this turn has not yet.

    Raises:
        ToolUnavailableError: A server cannot be reached (the step is retried).
        FatalError: A server's tools cannot be offered (a name clash, or a listing it
            refused): the turn fails with the reason.
    """
    agent = work.agent
    servers = agent.mcp_servers
    own = [t for t in agent.tools if isinstance(t, Tool)]
    if not servers:
        return TurnTools(own)
    assert work.turn is not None
    turn_id = work.turn.turn_id
    recorded = {e.server: e for e in work.turn_entries() if isinstance(e, McpToolsEntry)}
    missing = [s for s in servers if s.name not in recorded]
    if missing:
        try:
            listings = await asyncio.gather(*(s.list_tools() for s in missing))
        except McpToolError as exc:
            raise FatalError(f"MCP server {exc.server!r} refused to list its tools: {exc}") from exc
        for server, specs in zip(missing, listings, strict=True):
            entry = _entry(work.entries, turn_id, server.name, specs)
            work.record(entry)
            recorded[server.name] = entry
    tools: list[Tool] = list(own)
    try:
        for server in servers:
            tools.extend(server.tools(_specs(work.entries, recorded[server.name])))
    except ConfigurationError as exc:
        raise FatalError(str(exc)) from exc
    names = [t.name for t in tools]
    clashes = sorted({n for n in names if names.count(n) > 1})
    if clashes:
        raise FatalError(
            f"agent {agent.name!r}: its MCP servers list tools named like other tools "
            f"of the agent: {clashes}; give the servers a prefix (mcp_server(..., "
            "prefix=...)) or leave those tools out (exclude=...)"
        )
    return TurnTools(tools)


def _entry(
    entries: Sequence[Any], turn_id: str, server: str, specs: Sequence[McpToolSpec]
) -> McpToolsEntry:
    digest = listing_digest(specs)
    entry = McpToolsEntry(turn_id=turn_id, server=server, digest=digest, tools=tuple(specs))
    if _full(entries, server, digest) is not None:
        return replace(entry, tools=None)
    return entry


def _full(entries: Sequence[Any], server: str, digest: str) -> McpToolsEntry | None:
    """The latest entry of `server` with the tools of `digest` spelled out."""
    for entry in reversed(entries):
        if (
            isinstance(entry, McpToolsEntry)
            and entry.server == server
            and entry.digest == digest
            and entry.tools is not None
        ):
            return entry
    return None


def _specs(entries: Sequence[Any], entry: McpToolsEntry) -> tuple[McpToolSpec, ...]:
    if entry.tools is not None:
        return entry.tools
    # Recorded by digest only when a full entry was in the same transcript before it:
    # entries are only ever appended, so it is still there.
    full = _full(entries, entry.server, entry.digest)
    if full is None or full.tools is None:
        raise FatalError(
            f"the transcript records a listing of MCP server {entry.server!r} by digest "
            f"{entry.digest[:12]} without the listing itself"
        )
    return full.tools
