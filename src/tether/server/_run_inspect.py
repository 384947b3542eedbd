"""A run's step with its events, a run's streams, and cancelling runs by filter.

``GET /v1/inspect/runs/{id}/steps/{step_id}``: one journal entry, decoded as the run's
detail shows it, with the events of its life (every event whose correlation id is the
step's). ``GET /v1/inspect/runs/{id}/streams``: the run's streams, each with its length
and whether it is closed. ``POST /v1/inspect/cancel-runs``: every active run a filter
selects (status, workflow, labels) cancelled as ``tether runs cancel`` does; a body
must name a filter or say ``"all": true``. Like every ``/v1/inspect`` route, these
answer only an operator; anyone else gets 403 ``operator_only``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .._validate import check_identifier
from ..errors import InvalidInputError
from ..stores import MAX_CANCEL_RUNS, EventRecord
from ._http import endpoint, json_response
from ._inspect import InspectApi
from ._inspect_doc import LABEL_PATTERN, WORKFLOW_PATTERN, InspectStepOut
from ._inspect_reads import step_json
from ._models import _Body, _integral
from ._openapi_parts import json_body, ok, operation, path_param
from ._problems import ApiProblem

__all__ = ["RUN_INSPECT_MODELS", "RunCancelBody", "run_inspect_paths", "run_inspect_routes"]

_Label = Annotated[str, Field(pattern=LABEL_PATTERN)]


#: The document says what the validator checks: a filter, or ``"all": true``.
_A_FILTER: dict[str, Any] = {
    "anyOf": [
        {"required": ["status"], "properties": {"status": {"enum": ["pending", "running"]}}},
        {"required": ["workflow"], "properties": {"workflow": {"type": "string"}}},
        {"required": ["labels"], "properties": {"labels": {"minItems": 1}}},
        {"required": ["all"], "properties": {"all": {"const": True}}},
    ]
}


class RunCancelBody(_Body):
    """Which active runs to cancel: those matching every filter given."""

    model_config = ConfigDict(**_Body.model_config, json_schema_extra=_A_FILTER)

    status: Literal["pending", "running"] | None = Field(
        default=None, description="only runs in this status (default: pending and running)"
    )
    workflow: str | None = Field(
        default=None, pattern=WORKFLOW_PATTERN, description="only runs of this workflow"
    )
    labels: list[_Label] = Field(
        default_factory=list, max_length=16, description="only runs carrying each KEY=VALUE"
    )
    reason: str | None = Field(
        default=None,
        max_length=1000,
        pattern=r"^[^\x00]*$",
        description="the reason each cancellation records",
    )
    limit: int = Field(default=1000, ge=1, le=MAX_CANCEL_RUNS, description="the most runs")
    all: bool = Field(default=False, description="true to cancel every active run (no filter)")

    @field_validator("limit", mode="before")
    @classmethod
    def _whole(cls, value: Any) -> Any:
        return _integral(value)

    @model_validator(mode="after")
    def _a_filter(self) -> RunCancelBody:
        if not self.all and self.status is None and self.workflow is None and not self.labels:
            raise ValueError('name a filter (status, workflow, labels) or say "all": true')
        return self


class InspectEventOut(BaseModel):
    """One event of a run's log (its payload's size only: payloads are not decoded here)."""

    event_id: str
    slot: int
    event_type: str
    correlation_id: str | None
    attrs: dict[str, Any]
    payload_bytes: int | None = Field(description="the stored payload's size, or null")
    created_at: float


class InspectStepDetailOut(BaseModel):
    """A journal entry and the events of its life, in slot order."""

    step: InspectStepOut
    events: list[InspectEventOut]


class InspectStreamOut(BaseModel):
    """One named stream of a run."""

    name: str
    length: int = Field(description="the index its next chunk gets")
    closed: bool


class InspectStreamsOut(BaseModel):
    """The streams of a run, by name."""

    streams: list[InspectStreamOut]


class CancelledRunOut(BaseModel):
    """A run the cancel reached: ``cancelled``, or still ``running`` until its holder obeys."""

    run_id: str
    workflow_name: str
    status: str


class InspectCancelOut(BaseModel):
    """The runs cancelled, newest first per status."""

    cancelled: list[CancelledRunOut]


#: The wire models of the routes, for the document's components.
RUN_INSPECT_MODELS: tuple[type[BaseModel], ...] = (
    InspectEventOut,
    InspectStepDetailOut,
    InspectStreamOut,
    InspectStreamsOut,
    CancelledRunOut,
    InspectCancelOut,
)


def _event_json(event: EventRecord) -> dict[str, Any]:
    return {
        "event_id": event.event_id,
        "slot": event.slot,
        "event_type": event.event_type,
        "correlation_id": event.correlation_id,
        "attrs": dict(event.attrs),
        "payload_bytes": None if event.payload is None else len(event.payload),
        "created_at": event.created_at,
    }


def _path_id(request: Request, name: str, what: str) -> str:
    value: str = request.path_params[name]
    try:
        return check_identifier(value, what=name)
    except InvalidInputError:
        raise ApiProblem(404, "not_found", f"no {what} {value!r}") from None


def run_inspect_routes(api: InspectApi) -> list[Route]:
    """The three routes on the app's API object, each answering only an operator."""
    store = api.host.backend.stores.workflow

    async def step(request: Request) -> Response:
        await api.operator(request)
        run_id = _path_id(request, "run_id", "run")
        step_id = _path_id(request, "step_id", "step")
        found = await store.get_step(run_id, step_id)
        if found is None:
            raise ApiProblem(404, "not_found", f"run {run_id!r} has no step {step_id!r}")
        events = await store.list_correlated_events(run_id, step_id)
        return json_response({"step": step_json(found), "events": [_event_json(e) for e in events]})

    async def streams(request: Request) -> Response:
        await api.operator(request)
        run_id = _path_id(request, "run_id", "run")
        if await store.get_run(run_id) is None:
            raise ApiProblem(404, "not_found", f"no run {run_id!r}")
        found = await store.list_streams(run_id)
        return json_response(
            {"streams": [{"name": s.name, "length": s.length, "closed": s.closed} for s in found]}
        )

    async def cancel(request: Request) -> Response:
        await api.operator(request)
        body = await api.body(request, RunCancelBody)
        labels = dict(label.split("=", 1) for label in body.labels)
        try:
            runs = await store.cancel_runs(
                status=body.status,
                workflow_name=body.workflow,
                labels=labels or None,
                reason=body.reason,
                limit=body.limit,
            )
        except InvalidInputError as exc:
            raise ApiProblem(422, "invalid_input", str(exc)) from None
        out = [
            {"run_id": r.run_id, "workflow_name": r.workflow_name, "status": r.status} for r in runs
        ]
        return json_response({"cancelled": out})

    return [
        Route("/v1/inspect/cancel-runs", endpoint(cancel), methods=["POST"]),
        Route("/v1/inspect/runs/{run_id}/steps/{step_id}", endpoint(step), methods=["GET"]),
        Route("/v1/inspect/runs/{run_id}/streams", endpoint(streams), methods=["GET"]),
    ]


def run_inspect_paths() -> dict[str, Any]:
    """The routes' entries of the OpenAPI document's ``paths``."""
    run = path_param("run_id", {"type": "string", "minLength": 1})
    step = path_param("step_id", {"type": "string", "minLength": 1})
    return {
        "/v1/inspect/cancel-runs": {
            "post": operation(
                "inspectCancelRuns",
                "Cancel the active runs a filter selects (operators)",
                {"200": ok(InspectCancelOut, "the runs cancelled")},
                403,
                413,
                422,
                body=json_body(RunCancelBody),
            )
        },
        "/v1/inspect/runs/{run_id}/steps/{step_id}": {
            "get": operation(
                "inspectRunStep",
                "One step of a run, decoded, with the events of its life (operators)",
                {"200": ok(InspectStepDetailOut, "the step and its events")},
                403,
                404,
                parameters=[run, step],
            )
        },
        "/v1/inspect/runs/{run_id}/streams": {
            "get": operation(
                "inspectRunStreams",
                "The streams of a run, with their lengths (operators)",
                {"200": ok(InspectStreamsOut, "the run's streams")},
                403,
                404,
                parameters=[run],
            )
        },
    }
