"""The OpenAPI 3.1 document of the sessions API, built from the wire models."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from ._models import (
    ID_PATTERN,
    AnswerBody,
    AttachmentOut,
    CreateSessionBody,
    HistoryOut,
    Problem,
    SendBody,
    SessionDetailOut,
    SessionListOut,
    SessionStateOut,
    SubmissionOut,
)

__all__ = ["openapi_document"]

_REF = "#/components/schemas/{model}"
_MODELS: list[type[BaseModel]] = [
    AnswerBody,
    AttachmentOut,
    CreateSessionBody,
    HistoryOut,
    Problem,
    SendBody,
    SessionDetailOut,
    SessionListOut,
    SessionStateOut,
    SubmissionOut,
]


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _json_body(model: type[BaseModel]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(model)}}}


def _ok(status: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {"application/json": {"schema": schema}}
    return out


def _problems(*statuses: int) -> dict[str, Any]:
    content = {"application/problem+json": {"schema": _ref(Problem)}}
    return {str(s): {"description": "problem details", "content": content} for s in statuses}


# Media types listed for uploads (any type the agent's model takes is accepted).
_UPLOAD_TYPES = (
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "application/pdf",
    "text/plain",
    "application/octet-stream",
)

_SESSION_ID = {
    "name": "session_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": ID_PATTERN},
}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


def openapi_document(agents: list[str], version: str) -> dict[str, Any]:
    """The document served at ``/v1/openapi.json``."""
    _, defs = models_json_schema([(m, "validation") for m in _MODELS], ref_template=_REF)
    schemas = defs.get("$defs", {})
    common = _problems(401, 404, 422)
    session_op = {"parameters": [_SESSION_ID]}
    events_params = [
        _SESSION_ID,
        _query("start", {"type": "integer"}, "first index; negative counts from the tail"),
        _query("follow", {"type": "boolean"}, "wait for new events (default true)"),
        _query("format", {"enum": ["sse", "ndjson"]}, "default from Accept, else sse"),
    ]
    _agent = {
        "name": "agent",
        "in": "path",
        "required": True,
        "schema": {"type": "string", "enum": agents},
    }
    paths: dict[str, Any] = {
        "/v1/sessions": {
            "post": {
                "operationId": "createSession",
                "summary": "Open a session (idempotent by session_id)",
                "requestBody": _json_body(CreateSessionBody),
                "responses": {
                    "201": _ok("201", "created", _ref(SessionStateOut)),
                    "200": _ok("200", "it existed", _ref(SessionStateOut)),
                    **common,
                    **_problems(409, 413),
                },
            },
            "get": {
                "operationId": "listSessions",
                "summary": "The caller's sessions, newest first",
                "parameters": [
                    _query("limit", {"type": "integer", "minimum": 1, "maximum": 500}, "page"),
                    _query("agent", {"type": "string", "enum": agents}, "only this agent"),
                    _query("cursor", {"type": "string"}, "next_cursor of the previous page"),
                ],
                "responses": {"200": _ok("200", "a page", _ref(SessionListOut)), **common},
            },
        },
        "/v1/sessions/{session_id}": {
            "get": {
                **session_op,
                "operationId": "getSession",
                "summary": "What the session is doing now, and why it is or is not moving",
                "responses": {
                    "200": _ok("200", "its state and progress", _ref(SessionDetailOut)),
                    **common,
                },
            }
        },
        "/v1/sessions/{session_id}/messages": {
            "post": {
                **session_op,
                "operationId": "sendMessage",
                "summary": "Send a message (idempotent by client_message_id)",
                "requestBody": _json_body(SendBody),
                "responses": {
                    "202": _ok("202", "admitted", _ref(SubmissionOut)),
                    **common,
                    **_problems(409, 410, 413),
                },
            }
        },
        "/v1/sessions/{session_id}/attachments": {
            "post": {
                "parameters": [
                    _SESSION_ID,
                    _query("filename", {"type": "string", "maxLength": 255}, "its name"),
                    _query("id", {"type": "string", "pattern": ID_PATTERN}, "idempotent upload"),
                ],
                "operationId": "uploadAttachment",
                "summary": "Store a file with the session (raw body; Content-Type is its media "
                "type): images, PDFs, UTF-8 text, as the agent's model takes them",
                "requestBody": {
                    "required": True,
                    "content": {
                        kind: {"schema": {"type": "string", "format": "binary"}}
                        for kind in _UPLOAD_TYPES
                    },
                },
                "responses": {
                    "201": _ok("201", "stored", _ref(AttachmentOut)),
                    **common,
                    **_problems(409, 413, 415),
                },
            }
        },
        "/v1/sessions/{session_id}/attachments/{attachment_id}": {
            "get": {
                "parameters": [
                    _SESSION_ID,
                    {
                        "name": "attachment_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "pattern": ID_PATTERN},
                    },
                ],
                "operationId": "getAttachment",
                "summary": "The bytes of a file stored with the session (a download)",
                "responses": {
                    "200": {
                        "description": "the bytes, with their media type; ETag is the SHA-256",
                        "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
                    },
                    **common,
                    **_problems(410),
                },
            }
        },
        "/v1/sessions/{session_id}/requests": {
            "get": {
                **session_op,
                "operationId": "pendingRequests",
                "summary": "Pending approvals, questions and authorizations",
                "responses": {"200": _ok("200", "the requests", {"type": "object"}), **common},
            }
        },
        "/v1/sessions/{session_id}/requests/{request_id}/answer": {
            "post": {
                "parameters": [
                    _SESSION_ID,
                    {
                        "name": "request_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                ],
                "operationId": "answerRequest",
                "summary": "Answer an input request",
                "requestBody": _json_body(AnswerBody),
                "responses": {
                    "200": _ok("200", "answered", {"type": "object"}),
                    **common,
                    **_problems(403, 409, 413),
                },
            }
        },
        "/v1/sessions/{session_id}/cancel": {
            "post": {
                **session_op,
                "operationId": "cancelTurn",
                "summary": "Cancel the turn in progress",
                "responses": {"202": _ok("202", "cancelling", {"type": "object"}), **common},
            }
        },
        "/v1/sessions/{session_id}/close": {
            "post": {
                **session_op,
                "operationId": "closeSession",
                "summary": "Close the session once its turn ends",
                "responses": {"202": _ok("202", "closing", {"type": "object"}), **common},
            }
        },
        "/v1/sessions/{session_id}/reset": {
            "post": {
                **session_op,
                "operationId": "resetSession",
                "summary": "End the session's run; the id opens again as a new session that "
                "knows its predecessor (allowed on stranded sessions)",
                "responses": {
                    "200": _ok("200", "the new session", _ref(SessionStateOut)),
                    **common,
                    **_problems(409),
                },
            }
        },
        "/v1/sessions/{session_id}/clear": {
            "post": {
                **session_op,
                "operationId": "clearSession",
                "summary": "A fresh transcript in the same session (refused when stranded)",
                "responses": {
                    "202": _ok("202", "clearing", {"type": "object"}),
                    **common,
                    **_problems(409),
                },
            }
        },
        "/v1/sessions/{session_id}/history": {
            "get": {
                "parameters": [
                    _SESSION_ID,
                    _query("start", {"type": "integer"}, "negative counts from the tail"),
                    _query("limit", {"type": "integer", "minimum": 1, "maximum": 10000}, "max"),
                ],
                "operationId": "history",
                "summary": "Events without following (read-only)",
                "responses": {
                    "200": _ok("200", "events", _ref(HistoryOut)),
                    **common,
                    **_problems(410),
                },
            }
        },
        "/v1/sessions/{session_id}/transcript": {
            "get": {
                **session_op,
                "operationId": "transcript",
                "summary": "The canonical transcript (read-only)",
                "responses": {
                    "200": _ok("200", "entries", {"type": "object"}),
                    **common,
                    **_problems(410),
                },
            }
        },
        "/v1/sessions/{session_id}/events": {
            "get": {
                "parameters": events_params,
                "operationId": "events",
                "summary": "The event stream (SSE or NDJSON); Last-Event-ID resumes after it",
                "responses": {
                    "200": {
                        "description": "the stream; Stream-Next-Offset is its first index "
                        "(follow) or the index after it (follow=false)",
                        "content": {
                            "text/event-stream": {"schema": {"type": "string"}},
                            "application/x-ndjson": {"schema": {"type": "string"}},
                        },
                    },
                    **common,
                    **_problems(409, 410),
                },
            }
        },
        "/v1/ui/aisdk/chat": {
            "post": {
                "operationId": "aisdkChat",
                "summary": "AI SDK useChat: send the last message (or approval responses) and "
                "stream the turn as a UI message stream",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["id", "messages"],
                                "properties": {
                                    "id": {"type": "string", "pattern": ID_PATTERN},
                                    "messages": {"type": "array", "items": {"type": "object"}},
                                    "agent": {"type": "string"},
                                },
                            }
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "UI message stream (x-vercel-ai-ui-message-stream: v1)",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **common,
                    **_problems(409, 413),
                },
            }
        },
        "/v1/ui/aisdk/chat/{chat_id}/stream": {
            "get": {
                "parameters": [
                    {
                        "name": "chat_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "pattern": ID_PATTERN},
                    }
                ],
                "operationId": "aisdkResume",
                "summary": "AI SDK resume: replay the turn in progress (204 if none)",
                "responses": {
                    "200": {
                        "description": "UI message stream",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    "204": {"description": "no turn in progress"},
                    **common,
                },
            }
        },
        "/v1/agui/{agent}": {
            "post": {
                "parameters": [_agent],
                "operationId": "aguiRun",
                "summary": "AG-UI: run the agent on a thread (its session, opened on first use) "
                "with the new user messages or the resume of its interrupts; answers the "
                "run as AG-UI events (SSE; each frame's id is its session event's index)",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["threadId", "runId", "messages"],
                                "properties": {
                                    "threadId": {"type": "string", "pattern": ID_PATTERN},
                                    "runId": {"type": "string", "minLength": 1},
                                    "messages": {"type": "array", "items": {"type": "object"}},
                                    "resume": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["interruptId", "status"],
                                            "properties": {
                                                "interruptId": {"type": "string"},
                                                "status": {"enum": ["resolved", "cancelled"]},
                                                "payload": {},
                                            },
                                        },
                                    },
                                },
                            }
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "the run's AG-UI events, RUN_STARTED to RUN_FINISHED "
                        "(outcome success, interrupt or cancelled) or RUN_ERROR",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **common,
                    **_problems(403, 409, 413),
                },
            }
        },
        "/v1/agui/{agent}/{thread_id}/stream": {
            "get": {
                "parameters": [
                    _agent,
                    {
                        "name": "thread_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "pattern": ID_PATTERN},
                    },
                    _query("offset", {"type": "integer", "minimum": -1}, "go on after it"),
                    _query("runId", {"type": "string", "minLength": 1}, "the run's id"),
                    {
                        "name": "Last-Event-ID",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "integer", "minimum": -1},
                        "description": "the id of the last frame received (wins over offset)",
                    },
                ],
                "operationId": "aguiStream",
                "summary": "AG-UI: go on with a run's stream after an event index, or (without "
                "one) replay the thread's run in progress or parked on interrupts",
                "responses": {
                    "200": {
                        "description": "AG-UI events",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    "204": {"description": "no run in progress or waiting"},
                    **common,
                },
            }
        },
        "/v1/hooks/{token}": {
            "post": {
                "parameters": [
                    {"name": "token", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "operationId": "resumeHook",
                "summary": "Resume a workflow's ctx.create_hook (the token is the authority)",
                "security": [],
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": {}}},
                },
                "responses": {
                    "202": _ok("202", "resumed", {"type": "object"}),
                    **_problems(404, 413, 422),
                },
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "tether sessions API", "version": version},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
