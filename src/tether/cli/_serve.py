"""`tether serve MODULE:ATTR`: the HTTP API (uvicorn) and, unless --no-worker, a worker."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
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


def _server_class() -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server, ending the app's event streams as it begins to shut down."""

        on_exit: Any = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.on_exit is not None:
                # A signal handler: hand the call to the event loop's thread.
                with contextlib.suppress(RuntimeError):
                    asyncio.get_running_loop().call_soon_threadsafe(self.on_exit)
            super().handle_exit(sig, frame)

    return Server


async def serve(
    agents: Any,
    url: str,
    *,
    host: str,
    port: int,
    worker: bool,
    concurrency: int | None,
    cors_origins: tuple[str, ...] = (),
    metrics: bool = False,
    operators: tuple[str, ...] = (),
    trace_url: str | None = None,
) -> int:
    """Serve `agents` (an `Agents`) on a backend until interrupted.

    Raises:
        ConfigurationError: No authentication on a public address, or a CORS origin
            a browser never sends (checked before the store is opened).
    """
    try:
        import uvicorn
    except ImportError as exc:
        raise MissingExtraError("uvicorn", "server") from exc
    from ..agent import AgentHost
    from ..server import OPERATORS_ENV, ServerOptions, create_app, default_authenticator
    from ..stores import open_backend

    _Server = _server_class()
    authenticator = default_authenticator()
    no_auth = authenticator is None
    if no_auth and not _loopback(host):
        raise ConfigurationError(
            f"refusing to serve on {host!r} without authentication: set "
            "TETHER_SERVER_TOKENS (TOKEN=PRINCIPAL@TENANT,...) or TETHER_SERVER_TOKENS_FILE, "
            "or bind to 127.0.0.1"
        )
    named = [o for o in os.environ.get(OPERATORS_ENV, "").split(",") if o.strip()]
    options = ServerOptions(
        cors_origins=cors_origins,
        metrics=metrics,
        operators=(*named, *operators),
        trace_url=trace_url,
    )
    async with open_backend(url) as backend:
        agent_host = AgentHost(backend, agents)
        app = create_app(agent_host, authenticator=authenticator, no_auth=no_auth, options=options)
        # Event streams never end by themselves: on Ctrl-C they get 3 s, then are cut
        # (their clients reconnect with Last-Event-ID to another server).
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=3,
        )
        server = _Server(config)
        server.on_exit = app.state.tether.end_streams
        if no_auth:
            print(
                "tether serve: WARNING: AUTHENTICATION IS OFF (no TETHER_SERVER_TOKENS); "
                "answering loopback clients only, as principal 'local'",
                file=sys.stderr,
                flush=True,
            )
        print(
            f"tether serve: agents {agents.names()}, deployment {agents.deployment!r}, store "
            f"{backend.url}, http://{host}:{port}/v1, inspector http://{host}:{port}/inspector "
            f"({'with a worker' if worker else 'no worker'})"
            + (f", CORS for {', '.join(cors_origins)}" if cors_origins else ""),
            flush=True,
        )
        if not worker:
            await server.serve()
            return 0
        async with agent_host.worker(concurrency=concurrency):
            await server.serve()
    return 0
