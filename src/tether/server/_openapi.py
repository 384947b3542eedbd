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
from ._budgets import BUDGET_MODELS, budget_paths
from ._forks import FORK_MODELS, fork_paths
from ._inspect_doc import INSPECT_MODELS, inspect_paths
from ._models import (
    CURSOR_PATTERN,
    FILENAME_PATTERN,
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
from ._oauth import oauth_paths
from ._openapi_parts import (
    ID_SCHEMA,
    REF,
    header,
    integer,
    json_body,
    ok,
    operation,
    path_param,
    query,
    schema_ref,
    session_operation,
)
from ._run_forks import RUN_FORK_MODELS, run_fork_paths
from ._run_inspect import RUN_INSPECT_MODELS, RunCancelBody, run_inspect_paths
from ._schedules import SCHEDULE_MODELS, schedule_paths

__all__ = ["openapi_document"]

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
    *((m, "serialization") for m in SCHEDULE_MODELS),
    *((m, "validation") for m in FORK_MODELS),
    *((m, "validation") for m in RUN_FORK_MODELS),
    (RunCancelBody, "validation"),
    *((m, "serialization") for m in RUN_INSPECT_MODELS),
    *((m, "serialization") for m in INSPECT_MODELS),
    *BUDGET_MODELS,
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


_NEXT_OFFSET = {
    "Stream-Next-Offset": {
        "required": True,
        "schema": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        "description": "the index to go on from",
    }
}


def _schemas(agents: list[str]) -> dict[str, Any]:
    _, defs = models_json_schema(_MODELS, ref_template=REF)
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
    agent = path_param("agent", {"type": "string", "enum": names})
    limit = query("limit", integer(1, 500), "page size (default 50)")
    location = {"Location": {"required": True, "schema": {"type": "string"}}}
    # Text is a string (sent as UTF-8, what text uploads must be), JSON any JSON value;
    # the rest are bytes. None may be empty.
    uploads = {mime: {"schema": _upload_schema(mime)} for mime in _upload_types(agents)}
    after = integer(-1)
    paths: dict[str, Any] = {
        "/v1/health": {
            "get": operation(
                "health", "The server answers", {"200": ok(HealthOut, "up")}, public=True
            )
        },
        "/v1/openapi.json": {
            "get": operation(
                "openapi",
                "This document",
                {"200": ok(None, "it", content={"application/json": {"schema": {}}})},
                public=True,
            )
        },
        "/v1/sessions": {
            "post": operation(
                "createSession",
                "Open a session (idempotent by session_id)",
                {
                    "201": ok(SessionStateOut, "created", location),
                    "200": ok(SessionStateOut, "it existed", location),
                },
                409,
                413,
                422,
                body=json_body(CreateSessionBody, required=False),
            ),
            "get": operation(
                "listSessions",
                "The caller's sessions, newest first",
                {"200": ok(SessionListOut, "a page")},
                422,
                parameters=[
                    limit,
                    query("agent", {"type": "string", "enum": names}, "only this agent"),
                    query(
                        "cursor",
                        {"type": "string", "pattern": CURSOR_PATTERN},
                        "the next_cursor of the previous page",
                    ),
                ],
            ),
        },
        "/v1/sessions/{session_id}": {
            "get": session_operation(
                "getSession",
                "What the session is doing now, and why it is or is not moving",
                {"200": ok(SessionDetailOut, "its state and progress")},
            )
        },
        "/v1/sessions/{session_id}/messages": {
            "post": session_operation(
                "sendMessage",
                "Send a message (idempotent by client_message_id)",
                {"202": ok(SubmissionOut, "admitted")},
                409,
                413,
                422,
                body=json_body(SendBody),
            )
        },
        "/v1/sessions/{session_id}/attachments": {
            "post": session_operation(
                "uploadAttachment",
                "Store a file with the session (raw body; Content-Type is its media type): "
                "images, PDFs, UTF-8 text (any text type: text/*, XML, YAML, ...), as the "
                "agent's model takes them",
                {"201": ok(AttachmentOut, "stored", location)},
                409,
                413,
                415,
                422,
                parameters=[
                    path_param("session_id"),
                    query(
                        "filename",
                        {"type": "string", "maxLength": 255, "pattern": FILENAME_PATTERN},
                        "its name (else a Content-Disposition filename)",
                    ),
                    query("id", ID_SCHEMA, "makes the upload idempotent"),
                ],
                body={"required": True, "content": uploads},
            )
        },
        "/v1/sessions/{session_id}/attachments/{attachment_id}": {
            "get": session_operation(
                "getAttachment",
                "The bytes of a file stored with the session (a download)",
                {
                    "200": {
                        "description": "the bytes, with their media type; ETag is the SHA-256",
                        "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
                    }
                },
                parameters=[path_param("session_id"), path_param("attachment_id")],
            )
        },
        "/v1/sessions/{session_id}/requests": {
            "get": session_operation(
                "pendingRequests",
                "Pending approvals, questions and authorizations",
                {"200": ok(PendingOut, "the requests")},
            )
        },
        "/v1/sessions/{session_id}/requests/{request_id}/answer": {
            "post": session_operation(
                "answerRequest",
                "Answer an input request",
                {"200": ok(AnsweredOut, "answered")},
                403,
                409,
                413,
                422,
                parameters=[path_param("session_id"), path_param("request_id", {"type": "string"})],
                body=json_body(AnswerBody),
            )
        },
        "/v1/sessions/{session_id}/cancel": {
            "post": session_operation(
                "cancelTurn",
                "Cancel the turn in progress",
                {"202": ok(CancelledOut, "cancelling")},
                409,
            )
        },
        "/v1/sessions/{session_id}/close": {
            "post": session_operation(
                "closeSession",
                "Close the session once its turn ends",
                {"202": ok(ClosingOut, "closing")},
                409,
            )
        },
        "/v1/sessions/{session_id}/reset": {
            "post": session_operation(
                "resetSession",
                "End the session's run; the id opens again as a new session that knows its "
                "predecessor (allowed on stranded sessions)",
                {"200": ok(SessionStateOut, "the new session")},
                409,
            )
        },
        "/v1/sessions/{session_id}/clear": {
            "post": session_operation(
                "clearSession",
                "A fresh transcript in the same session (refused when stranded)",
                {"202": ok(ClearingOut, "clearing")},
                409,
            )
        },
        "/v1/sessions/{session_id}/history": {
            "get": session_operation(
                "history",
                "Events without following (read-only)",
                {"200": ok(HistoryOut, "events", _NEXT_OFFSET)},
                422,
                parameters=[
                    path_param("session_id"),
                    query("start", integer(), "first index; negative counts from the tail"),
                    query("limit", integer(1, 10_000), "at most this many (default 1000)"),
                ],
            )
        },
        "/v1/sessions/{session_id}/transcript": {
            "get": session_operation(
                "transcript",
                "The canonical transcript (read-only)",
                {"200": ok(TranscriptOut, "entries")},
            )
        },
        "/v1/sessions/{session_id}/state": {
            "get": session_operation(
                "sessionState",
                "The session's declared state (the values its tools read and change)",
                {"200": ok(StateOut, "its values")},
            )
        },
        "/v1/sessions/{session_id}/usage": {
            "get": session_operation(
                "usage",
                "Tokens used by the session's model calls, by model and turn, and their cost",
                {"200": ok(UsageOut, "its usage")},
            )
        },
        "/v1/sessions/{session_id}/events": {
            "get": session_operation(
                "events",
                "The event stream (SSE or NDJSON); Last-Event-ID resumes after it",
                {
                    "200": ok(
                        None,
                        "the stream; Stream-Next-Offset is its first index (follow) or the "
                        "index after it (follow=false)",
                        _NEXT_OFFSET,
                        {
                            **_sse(_json_data(schema_ref(EventOut)), ("id",)),
                            "application/x-ndjson": {"schema": {"type": "string"}},
                        },
                    )
                },
                409,
                422,
                parameters=[
                    path_param("session_id"),
                    query("start", integer(), "first index; negative counts from the tail"),
                    query("follow", {"type": "boolean"}, "wait for new events (default true)"),
                    query("format", {"enum": ["sse", "ndjson"]}, "default from Accept, else sse"),
                    header("Last-Event-ID", after, "the last index received (wins over start)"),
                ],
            )
        },
        "/v1/ui/aisdk/chat": {
            "post": operation(
                "aisdkChat",
                "AI SDK useChat: send the last message (or approval responses) and stream the "
                "turn as a UI message stream",
                {"200": ok(None, "UI message stream", _UI_VERSION, _UI_STREAM)},
                404,
                409,
                410,
                413,
                422,
                parameters=[
                    query("agent", {"type": "string", "enum": names}, "when the body names none")
                ],
                body=json_body(ChatBody),
            )
        },
        "/v1/ui/aisdk/chat/{chat_id}/stream": {
            "get": operation(
                "aisdkResume",
                "AI SDK resume: replay the turn in progress (204 if none)",
                {
                    "200": ok(None, "UI message stream", _UI_VERSION, _UI_STREAM),
                    "204": {
                        "description": "no turn in progress (also: no session of the "
                        "caller's has that id yet)"
                    },
                },
                404,
                410,
                parameters=[path_param("chat_id")],
            )
        },
        "/v1/agui/{agent}": {
            "post": operation(
                "aguiRun",
                "AG-UI: run the agent on a thread (its session, opened on first use) with the "
                "new user messages or the resume of its interrupts; answers the run as AG-UI "
                "events (SSE; each frame's id is its session event's index)",
                {
                    "200": ok(
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
                body=json_body(RunAgentInput),
            )
        },
        "/v1/agui/{agent}/{thread_id}/stream": {
            "get": operation(
                "aguiStream",
                "AG-UI: go on with a run's stream after an event index, or (without one) "
                "replay the thread's run in progress or parked on interrupts",
                {
                    "200": ok(None, "AG-UI events", content=_AGUI_STREAM),
                    "204": {"description": "no run in progress or waiting"},
                },
                404,
                409,
                410,
                422,
                parameters=[
                    agent,
                    path_param("thread_id"),
                    query("offset", after, "go on after this event index"),
                    query("runId", {"type": "string", "minLength": 1, "maxLength": 200}, "its id"),
                    header("Last-Event-ID", after, "the id of the last frame (wins over offset)"),
                ],
            )
        },
        "/metrics": {
            "get": operation(
                "metrics",
                "This process's metrics, as Prometheus text (404 unless served with --metrics)",
                {"200": ok(None, "them", content={"text/plain": {"schema": {"type": "string"}}})},
                404,
            )
        },
        "/v1/hooks/{token}": {
            "post": operation(
                "resumeHook",
                "Resume a workflow's ctx.create_hook (the token is the authority)",
                {"202": ok(HookOut, "resumed")},
                404,
                413,
                422,
                parameters=[path_param("token", {"type": "string"})],
                body={"required": False, "content": {"application/json": {"schema": {}}}},
                public=True,
            )
        },
        **fork_paths(),
        **schedule_paths(),
        **inspect_paths(names),
        **run_fork_paths(),
        **run_inspect_paths(),
        **oauth_paths(),
        **budget_paths(),
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
