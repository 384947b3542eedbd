"""The inspector's entries of the OpenAPI document: its wire models and operations."""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel, Field

from ..stores import RunStatus
from ._forks import ForkBody
from ._models import (
    CURSOR_PATTERN,
    AnswerBody,
    AnsweredOut,
    SessionListOut,
    SessionStateOut,
    TokenCountsOut,
    UsageOut,
)
from ._openapi_parts import integer, json_body, ok, operation, path_param, query

__all__ = [
    "ASSETS",
    "INSPECT_MODELS",
    "LABEL_PATTERN",
    "RUN_STATES",
    "SESSION_STATES",
    "TENANT_PATTERN",
    "WORKFLOW_PATTERN",
    "inspect_paths",
]

#: The page's files, by the name each is served under, with its media type.
ASSETS = {
    "inspector.js": "text/javascript; charset=utf-8",
    "inspector.css": "text/css; charset=utf-8",
}

#: A label filter, ``KEY=VALUE``: short enough for every backend's label index.
LABEL_PATTERN = r"^[^=\x00]{1,32}=[^\x00]{1,128}$"
#: A tenant filter (a session's owner).
TENANT_PATTERN = r"^[^\x00]{1,128}$"
#: A workflow name filter.
WORKFLOW_PATTERN = r"^[^\x00]{1,256}$"
SESSION_STATES = ("idle", "running", "closed", "failed", "cancelled")
RUN_STATES: tuple[str, ...] = get_args(RunStatus)


class TraceOut(BaseModel):
    """The trace a run belongs to (from its ``tether.traceparent`` label)."""

    trace_id: str
    span_id: str = Field(description="the span that started the run")
    url: str | None = Field(description="the trace in a tracing UI (ServerOptions.trace_url)")


class InspectRunOut(BaseModel):
    """A run as the inspector lists it (times in Unix seconds)."""

    run_id: str
    workflow_name: str
    status: str
    deployment: str
    engine_version: str
    created_at: float
    updated_at: float
    completed_at: float | None
    parent_run_id: str | None
    stranded: bool
    chain_id: str
    generation: int
    continued_to: str | None
    labels: dict[str, str]
    trace: TraceOut | None


class InspectRunListOut(BaseModel):
    """A page of runs of every workflow and tenant, newest first."""

    items: list[InspectRunOut]
    next_cursor: str | None


class InspectSessionOut(BaseModel):
    """A session across the runs of its chain, read without reading its events."""

    session_id: str
    agent: str | None = Field(description="null once erasure took the session's identity")
    owner: str | None = Field(description="its tenant")
    tail: int = Field(description="the index after its last event")
    runs: list[InspectRunOut] = Field(description="its chain's runs, oldest first")
    redacted: str | None = Field(description="why its content is not shown (deleted)")


class InspectStateOut(BaseModel):
    """What a session is doing now, why, and what waits for an answer (its events folded)."""

    session_id: str
    state: dict[str, Any] = Field(description="what GET /v1/sessions/{id} says")
    progress: dict[str, Any] = Field(description="why it moves or not, worker ids kept")
    pending: list[dict[str, Any]] = Field(
        description="requests waiting for answers, each with asked_at and age (seconds)"
    )


class InspectEventsOut(BaseModel):
    """A page of a session's events (the wire events of the event stream)."""

    events: list[dict[str, Any]]
    first: int = Field(description="the index of the first event of the page")
    next_offset: int = Field(description="the index after the session's last event")
    redacted: str | None = Field(description="why no event is shown (content deleted)")


class InspectStepOut(BaseModel):
    """A journal entry, decoded; ``redacted`` names the fields not shown, and why."""

    slot: int
    step_id: str
    name: str
    status: str
    attempt: int = Field(description="attempts so far: above 1 after a retry or a takeover")
    started_at: float
    completed_at: float | None
    retry_after: float | None
    input: Any
    output: Any
    error: Any
    redacted: dict[str, str] = Field(description="field -> deleted or encrypted")


class InspectRunDetailOut(BaseModel):
    """One run: its decoded input and outcome, its journal, what it waits on."""

    run: InspectRunOut
    input: Any
    output: Any
    error: Any
    redacted: dict[str, str] = Field(description="field -> deleted or encrypted")
    session_id: str | None = Field(description="the session the run carries, if any")
    steps: list[InspectStepOut]
    hooks: int
    progress: dict[str, Any]


class UsageRowOut(BaseModel):
    """What one tenant's sessions of one agent used of one model in the window."""

    tenant: str | None = Field(description="the sessions' owner; null: opened without one")
    agent: str
    model: str = Field(description="as its provider names it")
    calls: int
    input_tokens: int = Field(description="input tokens, cached ones included")
    output_tokens: int
    cached_tokens: int = Field(description="of the input tokens, those read from a cache")
    cost: float | None = Field(description="at the server's prices; null: no price for it")
    retried: TokenCountsOut = Field(
        description="of these calls, those whose reply never committed and that a later "
        "attempt made again (counted above too)"
    )


class UsageSumOut(BaseModel):
    """Rows summed over one of their dimensions (the one named: tenant, agent or model)."""

    model_config = {"extra": "allow"}

    calls: int
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    cost: float | None = Field(description="of the priced rows; null without prices")
    retried: TokenCountsOut = Field(description="of these calls, the retried ones")


class InspectUsageOut(BaseModel):
    """Token usage and cost across sessions, per tenant, agent and model, in a window."""

    since: float | None = Field(description="the window's start (Unix seconds, included)")
    until: float | None = Field(description="the window's end (Unix seconds, excluded)")
    sessions: int = Field(description="sessions with at least one call in the window")
    total: TokenCountsOut
    cost: float | None = Field(description="at the server's prices; null without prices")
    unpriced: list[str] = Field(description="models used that have no price (not in cost)")
    unreadable: int = Field(description="sessions whose events are gone (not counted)")
    retried: TokenCountsOut = Field(
        description="of total, the calls whose reply never committed and that a later "
        "attempt made again"
    )
    rows: list[UsageRowOut] = Field(description="one per (tenant, agent, model)")
    by_tenant: list[UsageSumOut] = Field(description="the rows per tenant (with `tenant`)")
    by_agent: list[UsageSumOut] = Field(description="the rows per agent (with `agent`)")
    by_model: list[UsageSumOut] = Field(description="the rows per model (with `model`)")


#: The wire models of these routes, for the OpenAPI document's schemas.
INSPECT_MODELS: tuple[type[BaseModel], ...] = (
    InspectEventsOut,
    InspectRunDetailOut,
    InspectRunListOut,
    InspectRunOut,
    InspectSessionOut,
    InspectStateOut,
    InspectStepOut,
    InspectUsageOut,
    TraceOut,
    UsageRowOut,
    UsageSumOut,
)

_CURSOR = query("cursor", {"type": "string", "pattern": CURSOR_PATTERN}, "a next_cursor")
_LABELS = {
    "name": "label",
    "in": "query",
    "required": False,
    "schema": {"type": "array", "items": {"type": "string", "pattern": LABEL_PATTERN}},
    "style": "form",
    "explode": True,
    "description": "KEY=VALUE: only those carrying it (repeat for several)",
}


def _html(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"text/html": {"schema": {"type": "string"}}}}


def inspect_paths(agents: list[str]) -> dict[str, Any]:
    """The inspector's entries of the OpenAPI document's ``paths``."""
    limit = query("limit", integer(1, 500), "at most this many (default 50)")
    session = [path_param("session_id")]
    asset = path_param("name", {"type": "string", "enum": sorted(ASSETS)})
    stream = {
        "application/json": {"schema": {"$ref": "#/components/schemas/InspectEventsOut"}},
        "application/x-ndjson": {"schema": {"type": "string"}},
        "text/event-stream": {"schema": {"type": "string"}},
    }
    return {
        "/inspector": {
            "get": operation(
                "inspectorPage",
                "The inspector's page (it asks for an operator's token)",
                {"200": _html("the page")},
                public=True,
            )
        },
        "/inspector/{name}": {
            "get": operation(
                "inspectorAsset",
                "A file of the inspector's page",
                {"200": {"description": "the file", "content": {"*/*": {"schema": {}}}}},
                404,
                parameters=[asset],
                public=True,
            )
        },
        "/v1/inspect/sessions": {
            "get": operation(
                "inspectSessions",
                "Sessions of every tenant, newest first, filtered (operators)",
                {"200": ok(SessionListOut, "a page")},
                403,
                422,
                parameters=[
                    limit,
                    query("agent", {"type": "string", "enum": agents}, "only this agent"),
                    query("tenant", {"type": "string", "pattern": TENANT_PATTERN}, "one owner"),
                    query("state", {"type": "string", "enum": list(SESSION_STATES)}, "one state"),
                    _LABELS,
                    _CURSOR,
                ],
            )
        },
        "/v1/inspect/usage": {
            "get": operation(
                "inspectUsage",
                "Token usage and cost across sessions per tenant, agent and model, in a "
                "window (operators)",
                {"200": ok(InspectUsageOut, "the sums")},
                403,
                422,
                parameters=[
                    query("since", {"type": "number"}, "Unix seconds: calls from then on"),
                    query("until", {"type": "number"}, "Unix seconds: calls before then"),
                    query("agent", {"type": "string", "enum": agents}, "only this agent"),
                    query("tenant", {"type": "string", "pattern": TENANT_PATTERN}, "one owner"),
                    _LABELS,
                ],
            )
        },
        "/v1/inspect/sessions/{session_id}": {
            "get": operation(
                "inspectSession",
                "A session: who it is, its chain's runs, where its events end (operators)",
                {"200": ok(InspectSessionOut, "the session")},
                403,
                404,
                parameters=session,
            )
        },
        "/v1/inspect/sessions/{session_id}/state": {
            "get": operation(
                "inspectSessionState",
                "What a session is doing, why, and its pending requests with their age (operators)",
                {"200": ok(InspectStateOut, "its state")},
                403,
                404,
                410,
                parameters=session,
            )
        },
        "/v1/inspect/sessions/{session_id}/events": {
            "get": operation(
                "inspectSessionEvents",
                "A page of a session's events, or (follow) its event stream (operators)",
                {"200": ok(None, "a page, or the stream", content=stream)},
                403,
                404,
                410,
                422,
                parameters=[
                    *session,
                    query("start", integer(), "first index; negative counts from the tail"),
                    query("limit", integer(1, 2000), "at most this many (default 200)"),
                    query("follow", {"type": "boolean"}, "stream from start on (default false)"),
                    query("format", {"type": "string", "enum": ["ndjson", "sse"]}, "framing"),
                ],
            )
        },
        "/v1/inspect/sessions/{session_id}/usage": {
            "get": operation(
                "inspectSessionUsage",
                "A session's token usage and cost (operators)",
                {"200": ok(UsageOut, "its usage")},
                403,
                404,
                410,
                parameters=session,
            )
        },
        "/v1/inspect/sessions/{session_id}/requests/{request_id}/answer": {
            "post": operation(
                "inspectAnswer",
                "Answer an input request as the operator (the answer route's rules hold)",
                {"200": ok(AnsweredOut, "answered")},
                403,
                404,
                409,
                410,
                413,
                422,
                parameters=[*session, path_param("request_id", {"type": "string"})],
                body=json_body(AnswerBody),
            )
        },
        "/v1/inspect/sessions/{session_id}/fork": {
            "post": operation(
                "inspectFork",
                "Fork a session at the end of a turn, as the original's owner (operators)",
                {"201": ok(SessionStateOut, "the fork")},
                403,
                404,
                409,
                410,
                413,
                422,
                parameters=session,
                body=json_body(ForkBody, required=False),
            )
        },
        "/v1/inspect/runs": {
            "get": operation(
                "inspectRuns",
                "Runs of every workflow, newest first, filtered (operators)",
                {"200": ok(InspectRunListOut, "a page")},
                403,
                422,
                parameters=[
                    limit,
                    query("status", {"type": "string", "enum": list(RUN_STATES)}, "one status"),
                    query("workflow", {"type": "string", "pattern": WORKFLOW_PATTERN}, "one name"),
                    _LABELS,
                    _CURSOR,
                ],
            )
        },
        "/v1/inspect/runs/{run_id}": {
            "get": operation(
                "inspectRun",
                "A run with its decoded input, outcome and journal (operators)",
                {"200": ok(InspectRunDetailOut, "the run")},
                403,
                404,
                parameters=[path_param("run_id", {"type": "string", "minLength": 1})],
            )
        },
    }
