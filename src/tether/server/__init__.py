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

from ._agui_projection import AguiProjection, agui_events
from ._aisdk_projection import ui_parts
from ._app import create_app
from ._auth import LOCAL_PRINCIPAL, Authenticator, BearerTokens, Principal, default_authenticator
from ._feeds import FeedHub, WireEvent
from ._options import OPERATORS_ENV, ServerOptions
from ._problems import ApiProblem

__all__ = [
    "LOCAL_PRINCIPAL",
    "OPERATORS_ENV",
    "AguiProjection",
    "ApiProblem",
    "Authenticator",
    "BearerTokens",
    "FeedHub",
    "Principal",
    "ServerOptions",
    "WireEvent",
    "agui_events",
    "create_app",
    "default_authenticator",
    "ui_parts",
]
