"""Cross-origin access (CORS): which browser pages of other origins may call the API.

Starlette's `CORSMiddleware` answers preflights and adds the ``Access-Control-*``
headers; this module fixes what it allows: the methods the API has, the request
headers its clients send, and every response header they read.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from ._options import ServerOptions
from ._problems import ApiProblem, problem_response

__all__ = ["ALLOWED_HEADERS", "ALLOWED_METHODS", "EXPOSED_HEADERS", "cors_middleware"]

#: The methods the API's routes answer.
ALLOWED_METHODS = ("GET", "POST")
#: Request headers the API reads, beyond those every CORS request may carry (Accept,
#: Content-Type with a form or text type, ...).
ALLOWED_HEADERS = (
    "Authorization",  # bearer tokens
    "Content-Type",  # application/json bodies, an upload's media type
    "Last-Event-ID",  # resuming an event stream (sessions, AG-UI)
    "Content-Disposition",  # an upload's filename
)
#: Response headers the API sets that a page may read (the CORS-safelisted ones, such
#: as Content-Type and Cache-Control, are readable anyway).
EXPOSED_HEADERS = (
    "Stream-Next-Offset",  # history and event streams: where to go on from
    "x-vercel-ai-ui-message-stream",  # the AI SDK route: the UI message stream version
    "Location",  # a created session or attachment
    "Retry-After",  # 503: the store is unavailable for a moment
    "WWW-Authenticate",  # 401
    "Allow",  # 405
    "ETag",  # an attachment's download: its SHA-256
    "Repr-Digest",
    "Content-Disposition",
)
#: Seconds a browser may reuse a preflight's answer.
MAX_AGE = 600


class _Cors(CORSMiddleware):
    """Starlette's middleware, answering a refused preflight as problem details."""

    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        origin = request_headers["origin"]
        method = request_headers["access-control-request-method"]
        asked = request_headers.get("access-control-request-headers", "")
        if not self.is_allowed_origin(origin):
            detail = f"the origin {origin!r} may not call this API"
        elif method not in self.allow_methods:
            detail = f"the method {method!r} is not one of {', '.join(ALLOWED_METHODS)}"
        else:
            detail = f"the headers {asked!r} are not among {', '.join(ALLOWED_HEADERS)}"
        problem = ApiProblem(
            403,
            "cors_refused",
            f"cross-origin request refused: {detail} (the server's allowed origins are "
            "set with ServerOptions.cors_origins or tether serve --cors-origin)",
        )
        # The Vary header stays (caches key preflights by origin); no Allow-Origin.
        headers = {"Vary": response.headers["vary"]}
        return problem_response(problem, headers=headers)


def cors_middleware(options: ServerOptions) -> list[Middleware]:
    """The CORS middleware of `options` (none when no origin is allowed)."""
    if not options.cors_origins:
        return []
    return [
        Middleware(
            _Cors,
            allow_origins=list(options.cors_origins),
            allow_methods=list(ALLOWED_METHODS),
            allow_headers=list(ALLOWED_HEADERS),
            allow_credentials=options.allows_credentials,
            expose_headers=list(EXPOSED_HEADERS),
            max_age=MAX_AGE,
        )
    ]
