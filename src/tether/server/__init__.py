"""The HTTP server: the sessions API, resumable event streams, auth, and UI adapters.

`create_app(agents, backend)` returns the ASGI app (Starlette); `tether serve app:agents
--db URL` runs it with uvicorn and, unless ``--no-worker``, a worker in the same process.
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the install
    from ..errors import MissingExtraError

    raise MissingExtraError("starlette", "server") from exc

from ._aisdk import ui_parts
from ._app import ServerOptions, create_app
from ._auth import LOCAL_PRINCIPAL, Authenticator, BearerTokens, Principal, default_authenticator
from ._feeds import FeedHub, FileWatcher, WireEvent
from ._problems import ApiProblem

__all__ = [
    "LOCAL_PRINCIPAL",
    "ApiProblem",
    "Authenticator",
    "BearerTokens",
    "FeedHub",
    "FileWatcher",
    "Principal",
    "ServerOptions",
    "WireEvent",
    "create_app",
    "default_authenticator",
    "ui_parts",
]
