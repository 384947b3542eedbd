"""`create_app`: the sessions API as an ASGI app (Starlette)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import __version__
from ..agent import AgentHost, Agents
from ..errors import (
    ConfigurationError,
)
from ..stores import Backend
from ._agui import agui_routes
from ._aisdk import aisdk_routes
from ._api import _Api
from ._attachments import attachment_routes
from ._auth import Authenticator, default_authenticator
from ._budgets import budget_routes
from ._cors import cors_middleware
from ._forks import fork_routes
from ._http import (
    Handler,
    endpoint,
    http_error,
    json_response,
)
from ._inspect import inspector_routes
from ._oauth import oauth_routes
from ._observability import metrics_routes, trace_middleware
from ._openapi import openapi_document
from ._options import ServerOptions
from ._run_forks import run_fork_routes
from ._run_inspect import run_inspect_routes
from ._schedules import schedule_routes

__all__ = ["create_app"]

log = logging.getLogger("tether.server")


def create_app(
    agents: Agents | AgentHost,
    backend: Backend | None = None,
    *,
    authenticator: Authenticator | None = None,
    no_auth: bool = False,
    options: ServerOptions | None = None,
) -> Starlette:
    """The sessions API as an ASGI app, to serve or to mount in a Starlette/FastAPI app.

    Args:
        agents: The agents served (an `Agents`, or an `AgentHost` already on `backend`).
        backend: An open backend (left out when `agents` is an `AgentHost`).
        authenticator: Turns a request into its `Principal` (None refuses it with 401).
            Default: bearer tokens from ``TETHER_SERVER_TOKENS_FILE`` or
            ``TETHER_SERVER_TOKENS`` (see `BearerTokens`).
        no_auth: Serve without authentication: every request is the principal
            ``local`` of tenant ``local``, and requests from anywhere but the loopback
            interface are refused (401). Logged loudly.
        options: Body limit, keep-alive interval and the like.

    Raises:
        ConfigurationError: No backend, or no authenticator configured and not
            `no_auth`.
    """
    auth = authenticator
    if auth is None and not no_auth:
        auth = default_authenticator()
        if auth is None:
            raise ConfigurationError(
                "the server needs an authenticator: set TETHER_SERVER_TOKENS "
                "(TOKEN=PRINCIPAL@TENANT,...) or TETHER_SERVER_TOKENS_FILE, pass "
                "authenticator=, or serve localhost only with no_auth=True"
            )
    if no_auth:
        auth = None
        log.warning(
            "tether server: AUTHENTICATION IS OFF; every request is principal 'local' "
            "and only loopback clients are answered"
        )
    # Checked after the authenticator: a misconfigured server fails before it touches
    # the store.
    if isinstance(agents, AgentHost):
        if backend is not None and backend is not agents.backend:
            raise ConfigurationError("create_app: the AgentHost is on another backend")
        host = agents
    else:
        if backend is None:
            raise ConfigurationError("create_app needs an open backend (or an AgentHost)")
        host = AgentHost(backend, agents)
    api = _Api(host, auth, options or ServerOptions())
    document = openapi_document(host.agents, __version__)
    metrics, close_metrics = metrics_routes(api.principal, api.options.metrics)

    async def openapi(request: Request) -> Response:
        return json_response(document)

    async def health(request: Request) -> Response:
        return json_response({"ok": True})

    def route(path: str, fn: Handler, methods: list[str]) -> Route:
        return Route(path, endpoint(fn), methods=methods)

    async def sessions(request: Request) -> Response:
        # One route for the path, so that a 405 there lists both of its methods.
        return await (api.create if request.method == "POST" else api.list)(request)

    routes = [
        route("/v1/openapi.json", openapi, ["GET"]),
        route("/v1/health", health, ["GET"]),
        route("/v1/sessions", sessions, ["GET", "POST"]),
        route("/v1/sessions/{session_id}", api.get, ["GET"]),
        route("/v1/sessions/{session_id}/messages", api.send, ["POST"]),
        route("/v1/sessions/{session_id}/requests", api.requests, ["GET"]),
        route("/v1/sessions/{session_id}/requests/{request_id}/answer", api.answer, ["POST"]),
        route("/v1/sessions/{session_id}/cancel", api.cancel, ["POST"]),
        route("/v1/sessions/{session_id}/close", api.close, ["POST"]),
        route("/v1/sessions/{session_id}/reset", api.reset, ["POST"]),
        route("/v1/sessions/{session_id}/clear", api.clear, ["POST"]),
        route("/v1/sessions/{session_id}/history", api.history, ["GET"]),
        route("/v1/sessions/{session_id}/transcript", api.transcript, ["GET"]),
        route("/v1/sessions/{session_id}/state", api.state_values, ["GET"]),
        route("/v1/sessions/{session_id}/usage", api.usage, ["GET"]),
        route("/v1/sessions/{session_id}/events", api.events, ["GET"]),
        route("/v1/hooks/{token}", api.hook, ["POST"]),
    ]

    routes.extend([*attachment_routes(api), *fork_routes(api), *aisdk_routes(api), *metrics])
    routes.extend([*agui_routes(api), *schedule_routes(api.operator, host.client)])
    routes.extend(oauth_routes(host))
    routes.extend([*run_inspect_routes(api), *inspector_routes(api), *run_fork_routes(api)])
    routes.extend(budget_routes(api))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await api.feeds.close()
            close_metrics()

    app = Starlette(
        routes=routes,
        middleware=[trace_middleware(), *cors_middleware(api.options)],
        exception_handlers={HTTPException: http_error},
        lifespan=lifespan,
    )
    app.state.tether = api
    return app
