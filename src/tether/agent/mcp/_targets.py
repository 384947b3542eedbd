"""Where an MCP server is: a command run over stdio, or a streamable-HTTP endpoint."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["HttpTarget", "StdioTarget", "Target"]


@dataclass(frozen=True, slots=True, kw_only=True)
class StdioTarget:
    """A server run as a subprocess, spoken to over its stdin and stdout.

    ``env`` is added to the few variables the SDK passes on (``PATH``, ``HOME``, ...).
    """

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpTarget:
    """A server at a streamable-HTTP endpoint; ``headers`` go with every request."""

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)


Target = StdioTarget | HttpTarget
