"""HTTP plumbing of the app: JSON responses, query parameters, endpoint error mapping."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from ._problems import ApiProblem, problem_of, problem_response

__all__ = ["Handler", "bool_param", "endpoint", "int_param", "is_loopback", "json_response"]

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


def int_param(
    raw: str | None,
    name: str,
    *,
    default: int,
    low: int | None = None,
    high: int | None = None,
) -> int:
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiProblem(422, "invalid_input", f"{name} must be an integer, not {raw!r}") from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiProblem(422, "invalid_input", f"{name} must be in [{low}, {high}], not {value}")
    if abs(value) > 1 << 53:
        raise ApiProblem(422, "invalid_input", f"{name} is out of range")
    return value


def bool_param(raw: str | None, name: str, *, default: bool) -> bool:
    if raw is None or raw == "":
        return default
    lowered = raw.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise ApiProblem(422, "invalid_input", f"{name} is true or false, not {raw!r}")


Handler = Callable[[Request], Awaitable[Response]]


def endpoint(fn: Handler) -> Handler:
    async def run(request: Request) -> Response:
        try:
            return await fn(request)
        except (ApiProblem, ValidationError, Exception) as exc:
            problem = problem_of(exc)
            if problem is None:
                raise
            return problem_response(problem)

    return run
