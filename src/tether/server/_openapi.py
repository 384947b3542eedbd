"""The OpenAPI 3.1 document of the sessions API, built from the wire models.

It states every bound the handlers enforce (the agents served, id patterns, lengths,
ranges, the media types uploads take), so that a request the document allows is not
refused for its shape, and one it refuses is refused (422, or 404 for a path that
names nothing). `tests/server/test_fuzz.py` holds the server to it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from ..agent import Agents
from ..agent.models import accepts_attachment, attachment_kind
from ._models import (
    CURSOR_PATTERN,
    FILENAME_PATTERN,
    ID_PATTERN,
    MAX_WIRE_INT,
    AnswerBody,
    AnsweredOut,
    AttachmentOut,
    CancelledOut,
    ChatBody,
    ClearingOut,
    ClosingOut,
    CreateSessionBody,
    EventOut,
    HealthOut,
    HistoryOut,
    HookOut,
    PendingOut,
    Problem,
    RunAgentInput,
    SendBody,
    SessionDetailOut,
    SessionListOut,
    SessionStateOut,
    StateOut,
    SubmissionOut,
    TranscriptOut,
    UsageOut,
)

__all__ = ["openapi_document"]

_REF = "#/components/schemas/{model}"
_MODELS: list[tuple[type[BaseModel], JsonSchemaMode]] = [
    *((m, "validation") for m in (AnswerBody, CreateSessionBody, SendBody, ChatBody)),
    (RunAgentInput, "validation"),
    *(
        (m, "serialization")
        for m in (
            AnsweredOut,
            AttachmentOut,
            CancelledOut,
            ClearingOut,
            ClosingOut,
            HealthOut,
            HistoryOut,
            HookOut,
            PendingOut,
            Problem,
            SessionDetailOut,
            SessionListOut,
            SessionStateOut,
            StateOut,
            SubmissionOut,
            TranscriptOut,
            UsageOut,
        )
    ),
]

#: Media types an upload may have, listed when a served agent's model takes them.
#: Other text types (``text/markdown``, ``text/csv``, XML, YAML, ``+json``, ...) are
#: taken as well; the summary says so (a document listing them would have clients
#: send them as what they are not: a string as JSON, say).
_UPLOAD_TYPES = (
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "application/pdf",
    "text/plain",
    "application/json",
)

_ID = {"type": "string", "pattern": ID_PATTERN}
_INDEX = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}


def _sse(data: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An event stream, by the schema of each of its events (``data`` and its fields)."""
    event = {
        "type": "object",
        "required": ["data", *required],
        "properties": {"data": data, "event": {"type": "string"}, "id": _INDEX},
    }
    return {"text/event-stream": {"schema": event}}


def _json_data(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "string", "contentMediaType": "application/json", "contentSchema": schema}


_TYPED = {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}
#: The AI SDK's UI message stream: a UI message chunk (JSON) per event, then ``[DONE]``.
_UI_STREAM = _sse({"type": "string", "description": "a UI message chunk (JSON), or [DONE]"})
_UI_VERSION = {
    "x-vercel-ai-ui-message-stream": {"required": True, "schema": {"const": "v1"}},
}
#: AG-UI events, one per SSE event; the last of a session event's carries its index.
_AGUI_STREAM = _sse(_json_data(_TYPED))


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _int(low: int = -MAX_WIRE_INT, high: int = MAX_WIRE_INT) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


def _path(name: str, schema: dict[str, Any] = _ID) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, **_said(description)}


def _header(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "schema": schema, **_said(description)}


def _said(description: str) -> dict[str, str]:
    return {"description": description}


def _json(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": _ref(model)}}}


_NEXT_OFFSET = {
    "Stream-Next-Offset": {
        "required": True,
        "schema": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        "description": "the index to go on from",
    }
}


def _ok(
    model: type[BaseModel] | None,
    description: str,
    headers: dict[str, Any] | None = None,
    content: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if model is not None:
        out["content"] = {"application/json": {"schema": _ref(model)}}
    if content is not None:
        out["content"] = content
    if headers:
        out["headers"] = headers
    return out


_PROBLEM_HEADERS = {
    401: {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}}},
    503: {"Retry-After": {"required": True, "schema": {"type": "string"}}},
}
_PROBLEM_SAYS = {
    401: "no valid bearer token",
    403: "the principal may not do this",
    404: "no such session (or another tenant's), thread, attachment or hook",
    409: "a conflict with the session's state: stranded, closed, an id taken, a request "
    "already answered otherwise, an attachment it does not hold",
    410: "retention or erasure deleted the session's content",
    413: "the body is over the server's limit",
    415: "a media type the agent's model does not take",
    422: "the request does not fit this document, or an answer does not fit its question "
    "(invalid_answer: not one of its option ids)",
    503: "the store is unavailable for a moment",
}


def _problems(*statuses: int) -> dict[str, Any]:
    content = {"application/problem+json": {"schema": _ref(Problem)}}
    out: dict[str, Any] = {}
    for status in sorted({*statuses, 503}):
        response: dict[str, Any] = {"description": _PROBLEM_SAYS[status], "content": content}
        if status in _PROBLEM_HEADERS:
            response["headers"] = _PROBLEM_HEADERS[status]
        out[str(status)] = response
    return out


def _op(
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
    problems = statuses if public else (401, *statuses)
    op["responses"] = {**responses, **_problems(*problems)}
    return op


def _session_op(
    operation_id: str, summary: str, responses: dict[str, Any], *statuses: int, **more: Any
) -> dict[str, Any]:
    """An operation on `/v1/sessions/{session_id}...` (404 and 410 besides `statuses`)."""
    more.setdefault("parameters", [_path("session_id")])
    return _op(operation_id, summary, responses, 404, 410, *statuses, **more)


def _schemas(agents: list[str]) -> dict[str, Any]:
    _, defs = models_json_schema(_MODELS, ref_template=_REF)
    schemas: dict[str, Any] = defs.get("$defs", {})
    # The agents this app serves, by name; left out only when it serves one.
    named = {"type": "string", "enum": agents}
    create = schemas["CreateSessionBody"]
    chat = schemas["ChatBody"]
    # The AI SDK route may be told the agent by ?agent= instead.
    chat["properties"]["agent"]["anyOf"] = [named, {"type": "null"}]
    if len(agents) == 1:
        create["properties"]["agent"]["anyOf"] = [named, {"type": "null"}]
    else:
        create["properties"]["agent"] = {**create["properties"]["agent"], **named}
        del create["properties"]["agent"]["anyOf"], create["properties"]["agent"]["default"]
        create["required"] = ["agent"]
    return schemas


def _upload_types(agents: Agents) -> list[str]:
    return [
        mime
        for mime in _UPLOAD_TYPES
        if attachment_kind(mime) is not None
        and any(accepts_attachment(agent.model, mime) for agent in agents)
    ]


def _upload_schema(mime: str) -> dict[str, Any]:
    if mime == "application/json":
        return {}
    if attachment_kind(mime) == "text":
        return {"type": "string", "minLength": 1}
    return {"type": "string", "format": "binary", "minLength": 1}


def openapi_document(agents: Agents, version: str) -> dict[str, Any]:
    """The document served at ``/v1/openapi.json``, for the agents `agents` serves."""
    names = agents.names()
    agent = _path("agent", {"type": "string", "enum": names})
    limit = _query("limit", _int(1, 500), "page size (default 50)")
    location = {"Location": {"required": True, "schema": {"type": "string"}}}
    # Text is a string (sent as UTF-8, what text uploads must be), JSON any JSON value;
    # the rest are bytes. None may be empty.
    uploads = {mime: {"schema": _upload_schema(mime)} for mime in _upload_types(agents)}
    after = _int(-1)
    paths: dict[str, Any] = {
        "/v1/health": {
            "get": _op("health", "The server answers", {"200": _ok(HealthOut, "up")}, public=True)
        },
        "/v1/openapi.json": {
            "get": _op(
                "openapi",
                "This document",
                {"200": _ok(None, "it", content={"application/json": {"schema": {}}})},
                public=True,
            )
        },
        "/v1/sessions": {
            "post": _op(
                "createSession",
                "Open a session (idempotent by session_id)",
                {
                    "201": _ok(SessionStateOut, "created", location),
                    "200": _ok(SessionStateOut, "it existed", location),
                },
                409,
                413,
                422,
                body=_json(CreateSessionBody, required=False),
            ),
            "get": _op(
                "listSessions",
                "The caller's sessions, newest first",
                {"200": _ok(SessionListOut, "a page")},
                422,
                parameters=[
                    limit,
                    _query("agent", {"type": "string", "enum": names}, "only this agent"),
                    _query(
                        "cursor",
                        {"type": "string", "pattern": CURSOR_PATTERN},
                        "the next_cursor of the previous page",
                    ),
                ],
            ),
        },
        "/v1/sessions/{session_id}": {
            "get": _session_op(
                "getSession",
                "What the session is doing now, and why it is or is not moving",
                {"200": _ok(SessionDetailOut, "its state and progress")},
            )
        },
        "/v1/sessions/{session_id}/messages": {
            "post": _session_op(
                "sendMessage",
                "Send a message (idempotent by client_message_id)",
                {"202": _ok(SubmissionOut, "admitted")},
                409,
                413,
                422,
                body=_json(SendBody),
            )
        },
        "/v1/sessions/{session_id}/attachments": {
            "post": _session_op(
                "uploadAttachment",
                "Store a file with the session (raw body; Content-Type is its media type): "
                "images, PDFs, UTF-8 text (any text type: text/*, XML, YAML, ...), as the "
                "agent's model takes them",
                {"201": _ok(AttachmentOut, "stored", location)},
                409,
                413,
                415,
                422,
                parameters=[
                    _path("session_id"),
                    _query(
                        "filename",
                        {"type": "string", "maxLength": 255, "pattern": FILENAME_PATTERN},
                        "its name (else a Content-Disposition filename)",
                    ),
                    _query("id", _ID, "makes the upload idempotent"),
                ],
                body={"required": True, "content": uploads},
            )
        },
        "/v1/sessions/{session_id}/attachments/{attachment_id}": {
            "get": _session_op(
                "getAttachment",
                "The bytes of a file stored with the session (a download)",
                {
                    "200": {
                        "description": "the bytes, with their media type; ETag is the SHA-256",
                        "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
                    }
                },
                parameters=[_path("session_id"), _path("attachment_id")],
            )
        },
        "/v1/sessions/{session_id}/requests": {
            "get": _session_op(
                "pendingRequests",
                "Pending approvals, questions and authorizations",
                {"200": _ok(PendingOut, "the requests")},
            )
        },
        "/v1/sessions/{session_id}/requests/{request_id}/answer": {
            "post": _session_op(
                "answerRequest",
                "Answer an input request",
                {"200": _ok(AnsweredOut, "answered")},
                403,
                409,
                413,
                422,
                parameters=[_path("session_id"), _path("request_id", {"type": "string"})],
                body=_json(AnswerBody),
            )
        },
        "/v1/sessions/{session_id}/cancel": {
            "post": _session_op(
                "cancelTurn",
                "Cancel the turn in progress",
                {"202": _ok(CancelledOut, "cancelling")},
                409,
            )
        },
        "/v1/sessions/{session_id}/close": {
            "post": _session_op(
                "closeSession",
                "Close the session once its turn ends",
                {"202": _ok(ClosingOut, "closing")},
                409,
            )
        },
        "/v1/sessions/{session_id}/reset": {
            "post": _session_op(
                "resetSession",
                "End the session's run; the id opens again as a new session that knows its "
                "predecessor (allowed on stranded sessions)",
                {"200": _ok(SessionStateOut, "the new session")},
                409,
            )
        },
        "/v1/sessions/{session_id}/clear": {
            "post": _session_op(
                "clearSession",
                "A fresh transcript in the same session (refused when stranded)",
                {"202": _ok(ClearingOut, "clearing")},
                409,
            )
        },
        "/v1/sessions/{session_id}/history": {
            "get": _session_op(
                "history",
                "Events without following (read-only)",
                {"200": _ok(HistoryOut, "events", _NEXT_OFFSET)},
                422,
                parameters=[
                    _path("session_id"),
                    _query("start", _int(), "first index; negative counts from the tail"),
                    _query("limit", _int(1, 10_000), "at most this many (default 1000)"),
                ],
            )
        },
        "/v1/sessions/{session_id}/transcript": {
            "get": _session_op(
                "transcript",
                "The canonical transcript (read-only)",
                {"200": _ok(TranscriptOut, "entries")},
            )
        },
        "/v1/sessions/{session_id}/state": {
            "get": _session_op(
                "sessionState",
                "The session's declared state (the values its tools read and change)",
                {"200": _ok(StateOut, "its values")},
            )
        },
        "/v1/sessions/{session_id}/usage": {
            "get": _session_op(
                "usage",
                "Tokens used by the session's model calls, by model and turn, and their cost",
                {"200": _ok(UsageOut, "its usage")},
            )
        },
        "/v1/sessions/{session_id}/events": {
            "get": _session_op(
                "events",
                "The event stream (SSE or NDJSON); Last-Event-ID resumes after it",
                {
                    "200": _ok(
                        None,
                        "the stream; Stream-Next-Offset is its first index (follow) or the "
                        "index after it (follow=false)",
                        _NEXT_OFFSET,
                        {
                            **_sse(_json_data(_ref(EventOut)), ("id",)),
                            "application/x-ndjson": {"schema": {"type": "string"}},
                        },
                    )
                },
                409,
                422,
                parameters=[
                    _path("session_id"),
                    _query("start", _int(), "first index; negative counts from the tail"),
                    _query("follow", {"type": "boolean"}, "wait for new events (default true)"),
                    _query("format", {"enum": ["sse", "ndjson"]}, "default from Accept, else sse"),
                    _header("Last-Event-ID", after, "the last index received (wins over start)"),
                ],
            )
        },
        "/v1/ui/aisdk/chat": {
            "post": _op(
                "aisdkChat",
                "AI SDK useChat: send the last message (or approval responses) and stream the "
                "turn as a UI message stream",
                {"200": _ok(None, "UI message stream", _UI_VERSION, _UI_STREAM)},
                404,
                409,
                410,
                413,
                422,
                parameters=[
                    _query("agent", {"type": "string", "enum": names}, "when the body names none")
                ],
                body=_json(ChatBody),
            )
        },
        "/v1/ui/aisdk/chat/{chat_id}/stream": {
            "get": _op(
                "aisdkResume",
                "AI SDK resume: replay the turn in progress (204 if none)",
                {
                    "200": _ok(None, "UI message stream", _UI_VERSION, _UI_STREAM),
                    "204": {
                        "description": "no turn in progress (also: no session of the "
                        "caller's has that id yet)"
                    },
                },
                404,
                410,
                parameters=[_path("chat_id")],
            )
        },
        "/v1/agui/{agent}": {
            "post": _op(
                "aguiRun",
                "AG-UI: run the agent on a thread (its session, opened on first use) with the "
                "new user messages or the resume of its interrupts; answers the run as AG-UI "
                "events (SSE; each frame's id is its session event's index)",
                {
                    "200": _ok(
                        None,
                        "the run's AG-UI events, RUN_STARTED to RUN_FINISHED "
                        "(outcome success, interrupt or cancelled) or RUN_ERROR",
                        content=_AGUI_STREAM,
                    )
                },
                403,
                404,
                409,
                410,
                413,
                422,
                parameters=[agent],
                body=_json(RunAgentInput),
            )
        },
        "/v1/agui/{agent}/{thread_id}/stream": {
            "get": _op(
                "aguiStream",
                "AG-UI: go on with a run's stream after an event index, or (without one) "
                "replay the thread's run in progress or parked on interrupts",
                {
                    "200": _ok(None, "AG-UI events", content=_AGUI_STREAM),
                    "204": {"description": "no run in progress or waiting"},
                },
                404,
                409,
                410,
                422,
                parameters=[
                    agent,
                    _path("thread_id"),
                    _query("offset", after, "go on after this event index"),
                    _query("runId", {"type": "string", "minLength": 1, "maxLength": 200}, "its id"),
                    _header("Last-Event-ID", after, "the id of the last frame (wins over offset)"),
                ],
            )
        },
        "/metrics": {
            "get": _op(
                "metrics",
                "This process's metrics, as Prometheus text (404 unless served with --metrics)",
                {"200": _ok(None, "them", content={"text/plain": {"schema": {"type": "string"}}})},
                404,
            )
        },
        "/v1/hooks/{token}": {
            "post": _op(
                "resumeHook",
                "Resume a workflow's ctx.create_hook (the token is the authority)",
                {"202": _ok(HookOut, "resumed")},
                404,
                413,
                422,
                parameters=[_path("token", {"type": "string"})],
                body={"required": False, "content": {"application/json": {"schema": {}}}},
                public=True,
            )
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "tether sessions API", "version": version},
        "paths": paths,
        "components": {
            "schemas": _schemas(names),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
