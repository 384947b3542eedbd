"""The parts every operation of the OpenAPI document is built from.

An operation states its problem answers (`problems`): 401 unless it is public, and 503
(the store is unavailable for a moment) always.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ._models import ID_PATTERN, MAX_WIRE_INT, Problem

__all__ = [
    "ID_SCHEMA",
    "PROBLEM_SAYS",
    "REF",
    "header",
    "integer",
    "json_body",
    "ok",
    "operation",
    "path_param",
    "problems",
    "query",
    "said",
    "schema_ref",
    "session_operation",
]

REF = "#/components/schemas/{model}"
ID_SCHEMA = {"type": "string", "pattern": ID_PATTERN}


def schema_ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


def integer(low: int = -MAX_WIRE_INT, high: int = MAX_WIRE_INT) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


def path_param(name: str, schema: dict[str, Any] = ID_SCHEMA) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema}


def query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, **said(description)}


def header(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "schema": schema, **said(description)}


def said(description: str) -> dict[str, str]:
    return {"description": description}


def json_body(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema_ref(model)}}}


def ok(
    model: type[BaseModel] | None,
    description: str,
    headers: dict[str, Any] | None = None,
    content: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if model is not None:
        out["content"] = {"application/json": {"schema": schema_ref(model)}}
    if content is not None:
        out["content"] = content
    if headers:
        out["headers"] = headers
    return out


PROBLEM_HEADERS = {
    401: {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}}},
    503: {"Retry-After": {"required": True, "schema": {"type": "string"}}},
}
PROBLEM_SAYS = {
    400: "an OAuth callback whose state is unknown, used already or expired, or that has "
    "neither a code nor an error",
    401: "no valid bearer token",
    403: "the principal may not do this",
    404: "no such session (or another tenant's), run, thread, attachment, hook, schedule or budget",
    409: "a conflict with the session's state: stranded, closed, an id taken, a request "
    "already answered otherwise, an attachment it does not hold; or a run that cannot be "
    "forked or resumed so",
    410: "retention or erasure deleted the session's content",
    413: "the body is over the server's limit",
    415: "a media type the agent's model does not take",
    422: "the request does not fit this document, or an answer does not fit its question "
    "(invalid_answer: not one of its option ids)",
    502: "an OAuth provider's token endpoint refused the code, or could not be reached",
    503: "the store is unavailable for a moment",
}


def problems(*statuses: int) -> dict[str, Any]:
    content = {"application/problem+json": {"schema": schema_ref(Problem)}}
    out: dict[str, Any] = {}
    for status in sorted({*statuses, 503}):
        response: dict[str, Any] = {"description": PROBLEM_SAYS[status], "content": content}
        if status in PROBLEM_HEADERS:
            response["headers"] = PROBLEM_HEADERS[status]
        out[str(status)] = response
    return out


def operation(
    operation_id: str,
    summary: str,
    responses: dict[str, Any],
    *statuses: int,
    parameters: list[dict[str, Any]] | None = None,
    body: dict[str, Any] | None = None,
    public: bool = False,
) -> dict[str, Any]:
    """An operation; `statuses` are its problem answers (401 unless `public`, and 503)."""
    op: dict[str, Any] = {"operationId": operation_id, "summary": summary}
    if parameters:
        op["parameters"] = parameters
    if body is not None:
        op["requestBody"] = body
    if public:
        op["security"] = []
    answers = statuses if public else (401, *statuses)
    op["responses"] = {**responses, **problems(*answers)}
    return op


def session_operation(
    operation_id: str, summary: str, responses: dict[str, Any], *statuses: int, **more: Any
) -> dict[str, Any]:
    """An operation on `/v1/sessions/{session_id}...` (404 and 410 besides `statuses`)."""
    more.setdefault("parameters", [path_param("session_id")])
    return operation(operation_id, summary, responses, 404, 410, *statuses, **more)
