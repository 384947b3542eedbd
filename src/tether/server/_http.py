"""HTTP plumbing of the app: JSON responses, query parameters, endpoint error mapping."""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ._models import MAX_WIRE_INT
from ._problems import ApiProblem, problem_of, problem_response

__all__ = [
    "Handler",
    "bool_param",
    "endpoint",
    "http_error",
    "int_param",
    "is_loopback",
    "json_response",
    "pattern_param",
]

_LOOPBACK = ("localhost", "testclient")


def is_loopback(host: str | None) -> bool:
    if host is None or host in _LOOPBACK:
        return host is not None
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def json_response(value: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        orjson.dumps(value), status_code=status, media_type="application/json", headers=headers
    )


_INT = re.compile(r"-?[0-9]{1,100}")


def int_param(
    raw: str | None,
    name: str,
    *,
    default: int,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """A query or header integer (decimal ASCII digits), `default` when absent.

    Raises:
        ApiProblem: 422, not an integer (an empty value is none either), or out of
            [`low`, `high`] (by default +-2**53, as the OpenAPI document states).
    """
    if raw is None:
        return default
    if not _INT.fullmatch(raw):
        raise ApiProblem(422, "invalid_input", f"{name} must be an integer, not {raw!r}")
    value = int(raw)
    low = -MAX_WIRE_INT if low is None else low
    high = MAX_WIRE_INT if high is None else high
    if not low <= value <= high:
        raise ApiProblem(422, "invalid_input", f"{name} must be in [{low}, {high}], not {value}")
    return value


def bool_param(raw: str | None, name: str, *, default: bool) -> bool:
    """A query boolean (``true`` or ``false``, any case), `default` when absent.

    Raises:
        ApiProblem: 422, anything else.
    """
    if raw is None:
        return default
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    raise ApiProblem(422, "invalid_input", f"{name} is true or false, not {raw!r}")


def pattern_param(raw: str | None, name: str, pattern: re.Pattern[str], what: str) -> str | None:
    """A query string that must match `pattern` whole (None when absent).

    Raises:
        ApiProblem: 422, present but not matching (an empty value included).
    """
    if raw is not None and pattern.fullmatch(raw) is None:
        raise ApiProblem(422, "invalid_input", f"{name} is {what}, not {raw!r}")
    return raw


Handler = Callable[[Request], Awaitable[Response]]


_log = logging.getLogger("tether.server")


def endpoint(fn: Handler) -> Handler:
    async def run(request: Request) -> Response:
        try:
            return await fn(request)
        except (ApiProblem, ValidationError, Exception) as exc:
            problem = problem_of(exc)
            if problem is None:
                # The server's own fault: the log keeps the cause, the client gets a
                # problem document like every other answer (not Starlette's text).
                _log.exception("%s %s failed", request.method, request.url.path)
                problem = ApiProblem(
                    500, "internal_error", "the server failed to answer; its log has the cause"
                )
            return problem_response(problem)

    return run


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's 404 and 405 as problem details (a 405 with its path's methods in Allow)."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    detail = str(exc.detail)
    if exc.status_code == 405:
        allow = ", ".join(sorted(m.strip() for m in headers.get("Allow", "").split(",")))
        headers["Allow"] = allow
        detail = f"{request.method} is not a method of {request.url.path}: {allow}"
    elif exc.status_code == 404:
        detail = f"no route {request.url.path} (the API is described at /v1/openapi.json)"
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return problem_response(ApiProblem(exc.status_code, code, detail), headers=headers)
