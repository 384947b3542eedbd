"""RFC 9457 problem details: every error the API answers, and tether errors mapped to them."""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import ValidationError
from starlette.responses import Response

from ..errors import (
    AttachmentError,
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    InputRequestError,
    InvalidAnswerError,
    NotFoundError,
    SerializationError,
    SessionClosedError,
    SessionForkError,
    SessionStrandedError,
    StateConflictError,
    StoreUnavailableError,
    StrandedRunError,
)

__all__ = ["ApiProblem", "problem_of", "problem_response"]

PROBLEM_TYPE = "https://tether.dev/problems/"
#: The ``Retry-After`` of a 503 (the store unavailable).
RETRY_AFTER_SECONDS = 1


class ApiProblem(Exception):
    """An error answered as problem details.

    Args:
        status: The HTTP status.
        code: A stable machine-readable code (``session_stranded``, ``not_found``, ...).
        detail: What happened, for humans.
        extra: More members of the problem body.
    """

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.extra = extra


_TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    410: "Gone",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


def problem_response(problem: ApiProblem, headers: dict[str, str] | None = None) -> Response:
    """The ``application/problem+json`` response of a problem."""
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE + problem.code,
        "title": _TITLES.get(problem.status, "Error"),
        "status": problem.status,
        "detail": problem.detail,
        "code": problem.code,
    }
    body.update({k: v for k, v in problem.extra.items() if v is not None})
    all_headers = dict(headers or {})
    if problem.status == 401:
        all_headers.setdefault("WWW-Authenticate", 'Bearer realm="tether"')
    if problem.status == 503:
        # An outage (a failover, a restart): the request may go through in a moment.
        all_headers.setdefault("Retry-After", str(RETRY_AFTER_SECONDS))
    return Response(
        orjson.dumps(body),
        status_code=problem.status,
        media_type="application/problem+json",
        headers=all_headers,
    )


def _validation_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": [str(p) for p in err["loc"]], "msg": err["msg"], "type": err["type"]}
        for err in exc.errors(include_url=False, include_input=False)
    ]


def problem_of(exc: Exception) -> ApiProblem | None:
    """The problem a tether error maps to (None for errors that are the server's fault)."""
    if isinstance(exc, ApiProblem):
        return exc
    if isinstance(exc, ValidationError):
        return ApiProblem(
            422, "invalid_body", "the request body is not valid", errors=_validation_errors(exc)
        )
    if isinstance(exc, SessionStrandedError):
        return ApiProblem(
            409,
            "session_stranded",
            str(exc),
            engine_version=exc.engine_version,
            deployment=exc.deployment,
        )
    if isinstance(exc, StrandedRunError):
        return ApiProblem(
            409,
            "run_stranded",
            str(exc),
            engine_version=exc.engine_version,
            deployment=exc.deployment,
        )
    if isinstance(exc, ContentDeletedError):
        return ApiProblem(410, "session_expired", str(exc))
    if isinstance(exc, NotFoundError):
        return ApiProblem(404, "not_found", str(exc))
    if isinstance(exc, SessionClosedError):
        return ApiProblem(409, "session_closed", str(exc), session_status=exc.status)
    if isinstance(exc, AttachmentError):
        # A reference the session does not hold (or holds otherwise) is a conflict with
        # its state, resolved by uploading first; 422 is for what the document refuses.
        return ApiProblem(
            409 if exc.reason in ("unknown", "mismatch") else 422,
            "invalid_attachment",
            str(exc),
            reason=exc.reason,
            attachment_id=exc.attachment_id,
        )
    if isinstance(exc, InvalidAnswerError):
        # The body does not fit the question (not the request's state): 422.
        return ApiProblem(
            422, "invalid_answer", str(exc), reason=exc.reason, option_ids=list(exc.option_ids)
        )
    if isinstance(exc, SessionForkError):
        # The point does not fit the session as it is (its turns, its events): 409.
        return ApiProblem(409, "fork_refused", str(exc), reason=exc.reason)
    if isinstance(exc, InputRequestError):
        return ApiProblem(409, "answer_refused", str(exc), reason=exc.reason)
    if isinstance(exc, ConflictError):
        return ApiProblem(409, "conflict", str(exc))
    if isinstance(exc, StoreUnavailableError):
        return ApiProblem(503, "store_unavailable", "the store is unavailable; try again")
    if isinstance(exc, StateConflictError):
        return ApiProblem(409, "state_conflict", str(exc), key=exc.key)
    if isinstance(exc, ConfigurationError):
        return ApiProblem(422, "invalid_input", str(exc))
    if isinstance(exc, SerializationError):
        # Stored data this release cannot read (damaged, or of a format it does not
        # know): nothing the request can change, and nothing a retry cures.
        return ApiProblem(500, "unreadable_data", str(exc))
    return None
