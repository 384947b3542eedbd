"""`ServerOptions`: the tunables of the app (limits, stream timing, CORS)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..errors import ConfigurationError

__all__ = ["OPERATORS_ENV", "ServerOptions", "check_operators", "check_origins"]

#: Environment variable: the operators of ``tether serve``, ``ID@TENANT`` separated by
#: commas (``--operator`` adds to them).
OPERATORS_ENV = "TETHER_SERVER_OPERATORS"

#: The ports a browser leaves out of the origin it sends.
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerOptions:
    """Tunables of the app.

    Attributes:
        max_body_bytes: Request bodies over this size are refused with 413.
        max_attachment_bytes: Attachments (uploads, AI SDK file parts) over this size
            are refused with 413; the AI SDK chat route takes bodies up to
            ``max_body_bytes + 2 * max_attachment_bytes`` (files come as base64).
        keepalive: Seconds between keep-alive comments on a quiet event stream.
        feed_linger: Seconds a session's shared listener outlives its last follower.
        check_ttl: Seconds a follow's check of a session (not stranded, content not
            deleted) is reused by the next follow of the same session.
        cors_origins: The browser origins (``"https://app.example.com"``, as a browser
            sends them: scheme, host, port unless the default) whose pages may call the
            API from another origin; ``("*",)`` for any origin. Empty (the default): no
            cross-origin access.
        cors_credentials: Whether a cross-origin page may send credentials (cookies,
            HTTP authentication). Default: yes with named origins, no with ``"*"``.
        metrics: Serve tether's metrics recorded in this process (its worker's, with
            ``tether serve``) as Prometheus text on ``GET /metrics``, authenticated like
            every other route. Needs ``pip install 'tether[otel]'``.
        operators: The principals, written ``ID@TENANT`` (``ID`` alone: the tenant of
            the same name, as in ``TETHER_SERVER_TOKENS``), that may use the routes of
            the whole deployment (``/v1/schedules``); any other principal gets 403
            ``operator_only`` there. A server without authentication answers only its
            loopback principal, who is one.
        trace_url: The inspector's link from a run to its trace in a tracing UI: a URL
            with ``{trace_id}`` (and ``{span_id}``, the span that started the run) put
            in, e.g. ``"http://jaeger:16686/trace/{trace_id}"``. None: the inspector
            shows the trace id without a link.
    """

    max_body_bytes: int = 1 << 20
    max_attachment_bytes: int = 20 << 20
    keepalive: float = 15.0
    feed_linger: float = 5.0
    check_ttl: float = 1.0
    cors_origins: Sequence[str] = ()
    cors_credentials: bool | None = None
    metrics: bool = False
    operators: Sequence[str] = ()
    trace_url: str | None = None

    def __post_init__(self) -> None:
        if self.trace_url is not None and "{trace_id}" not in self.trace_url:
            raise ConfigurationError(
                f"trace_url {self.trace_url!r} has no {{trace_id}}: write the tracing UI's "
                "URL of a trace, e.g. 'http://jaeger:16686/trace/{trace_id}'"
            )
        object.__setattr__(self, "operators", check_operators(self.operators))
        origins = check_origins(self.cors_origins)
        # Frozen: the checked tuple replaces what was given (a list, say).
        object.__setattr__(self, "cors_origins", origins)
        if self.cors_credentials is not None and not origins:
            raise ConfigurationError(
                "cors_credentials has no effect without cors_origins: name the origins "
                "allowed to call the API"
            )
        if self.cors_credentials and origins == ("*",):
            raise ConfigurationError(
                "CORS credentials cannot be allowed for every origin ('*'): any page could "
                "then act as the signed-in user; name the origins (cors_origins / "
                "--cors-origin ORIGIN), or set cors_credentials=False"
            )

    @property
    def allows_credentials(self) -> bool:
        """Whether cross-origin requests may carry credentials (see `cors_credentials`)."""
        if not self.cors_origins:
            return False
        if self.cors_credentials is None:
            return self.cors_origins != ("*",)
        return self.cors_credentials


def check_operators(operators: Sequence[str]) -> tuple[str, ...]:
    """`operators` as a tuple of ``ID@TENANT`` (``ID`` alone gets the tenant ``ID``).

    Raises:
        ConfigurationError: Not a sequence of strings, or one that names no principal.
    """
    if isinstance(operators, str) or not isinstance(operators, Sequence):
        raise ConfigurationError(
            f"operators is a sequence of principals, not {type(operators).__name__}: "
            "write operators=('ada@ops',)"
        )
    out: list[str] = []
    for who in operators:
        principal, at, tenant = who.partition("@") if isinstance(who, str) else ("", "", "")
        principal, tenant = principal.strip(), (tenant if at else principal).strip()
        if not principal or not tenant or "@" in tenant or len(who) > 401:
            raise ConfigurationError(
                f"{who!r} does not name a principal: write ID@TENANT (e.g. 'ada@ops'), "
                "as the principal's token names it in TETHER_SERVER_TOKENS"
            )
        out.append(f"{principal}@{tenant}")
    return tuple(dict.fromkeys(out))


def check_origins(origins: Sequence[str]) -> tuple[str, ...]:
    """`origins` as a tuple, each as a browser sends it in ``Origin``.

    Raises:
        ConfigurationError: Not a sequence of strings, ``"*"`` among other origins, or
            an origin a browser never sends (a path, a trailing slash, upper case, a
            default port, ``null``), with the form to write instead.
    """
    if isinstance(origins, str) or not isinstance(origins, Sequence):
        raise ConfigurationError(
            f"cors_origins is a sequence of origins, not {type(origins).__name__}: "
            "write cors_origins=('https://app.example.com',)"
        )
    out = tuple(origins)
    if "*" in out:
        if len(out) > 1:
            raise ConfigurationError(
                "cors_origins: '*' (any origin) stands alone, not among named origins"
            )
        return out
    for origin in out:
        _check_origin(origin)
    return out


def _check_origin(origin: object) -> None:
    if not isinstance(origin, str):
        raise ConfigurationError(f"a CORS origin is a string, not {type(origin).__name__}")
    if origin == "null":
        raise ConfigurationError(
            "the CORS origin 'null' is what sandboxed frames and file: pages send: "
            "allowing it allows any of them; serve the page from an http(s) origin"
        )
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if (
        parts is None
        or not parts.scheme
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
        or origin.endswith(("?", "#"))
    ):
        raise ConfigurationError(
            f"{origin!r} is not an origin: write scheme://host[:port], with no path "
            "or trailing slash (e.g. 'https://app.example.com', 'http://localhost:3000')"
        )
    expected = f"{parts.scheme.lower()}://{parts.netloc.lower()}"
    if port is not None and _DEFAULT_PORTS.get(parts.scheme.lower()) == port:
        expected = expected.rsplit(":", 1)[0]
    if origin != expected:
        # Browsers send the origin lowercase and without its scheme's default port;
        # CORS compares the strings, so any other spelling would never match.
        raise ConfigurationError(
            f"write the CORS origin {origin!r} as browsers send it: {expected!r}"
        )
