"""`tether serve MODULE:ATTR`: the HTTP API (uvicorn) and, unless --no-worker, a worker."""

from __future__ import annotations

import ipaddress
import sys
from typing import Any

from ..errors import ConfigurationError, MissingExtraError


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def serve(
    agents: Any,
    url: str,
    *,
    host: str,
    port: int,
    worker: bool,
    concurrency: int | None,
) -> int:
    """Serve `agents` (an `Agents`) on a backend until interrupted."""
    try:
        import uvicorn
    except ImportError as exc:
        raise MissingExtraError("uvicorn", "server") from exc
    from ..agent import AgentHost
    from ..server import create_app, default_authenticator
    from ..stores import open_backend

    authenticator = default_authenticator()
    no_auth = authenticator is None
    if no_auth and not _loopback(host):
        raise ConfigurationError(
            f"refusing to serve on {host!r} without authentication: set "
            "TETHER_SERVER_TOKENS (TOKEN=PRINCIPAL@TENANT,...) or TETHER_SERVER_TOKENS_FILE, "
            "or bind to 127.0.0.1"
        )
    async with open_backend(url) as backend:
        agent_host = AgentHost(backend, agents)
        app = create_app(agent_host, authenticator=authenticator, no_auth=no_auth)
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
        server = uvicorn.Server(config)
        if no_auth:
            print(
                "tether serve: WARNING: AUTHENTICATION IS OFF (no TETHER_SERVER_TOKENS); "
                "answering loopback clients only, as principal 'local'",
                file=sys.stderr,
                flush=True,
            )
        print(
            f"tether serve: agents {agents.names()}, deployment {agents.deployment!r}, store "
            f"{backend.url}, http://{host}:{port}/v1 "
            f"({'with a worker' if worker else 'no worker'})",
            flush=True,
        )
        if not worker:
            await server.serve()
            return 0
        async with agent_host.worker(concurrency=concurrency):
            await server.serve()
    return 0
