"""Fork and resume a run from the inspector: ``POST /v1/inspect/runs/{id}/fork|resume``.

What `Client.fork` and `Client.resume` do, for operators (like every ``/v1/inspect``
route: anyone else gets 403 ``operator_only``), with the code this server's host
serves. The original run is only read. Both answer 201 with the new run and its
``Location``; asking again for the same new run (a resume's id is fixed per fork point,
a fork's when the body names it) answers the same run.

Refusals: 404 for a run that does not exist; 409 ``not_resumable`` for a resume of a
run that neither failed nor was cancelled, ``fork_refused`` for a fork point that is not
one of the run's journal (or a run of tether's own workflows, or one whose input or
step outputs retention deleted), ``unknown_workflow`` when this server's code has no
workflow of the run's name, and ``conflict`` for a new run id another run holds.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from pydantic import BaseModel, Field, field_validator
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .._validate import check_identifier
from ..durable import RESUMABLE_RUN_STATUSES, RunHandle
from ..errors import (
    ForkError,
    InvalidInputError,
    NotFoundError,
    SerializationError,
    UnknownWorkflowError,
)
from ._http import endpoint, json_response
from ._inspect import InspectApi
from ._inspect_doc import InspectRunOut
from ._inspect_reads import run_json
from ._models import ID_PATTERN, MAX_WIRE_INT, _Body, _integral
from ._openapi_parts import json_body, ok, operation, path_param
from ._problems import ApiProblem

__all__ = ["RUN_FORK_MODELS", "RunForkBody", "RunResumeBody", "run_fork_paths", "run_fork_routes"]

_Slot = Annotated[int, Field(ge=1, le=MAX_WIRE_INT)]
_StepName = Annotated[str, Field(min_length=1, max_length=200)]

_FROM = (
    "A slot of the run's journal (1: the very start; one past its last operation: "
    "replay them all), or a step's name (its first step of that name)"
)
_ARGS = "A new input's positional arguments (with kwargs; default: the original input)"
_KWARGS = "A new input's keyword arguments (with args; default: the original input)"
_NEW_ID = "The new run's id; the same request again under it answers that run"


class RunForkBody(_Body):
    """Fork a run from a step, optionally with a new input."""

    from_step: _Slot | _StepName = Field(description=_FROM)
    args: list[Any] | None = Field(default=None, description=_ARGS)
    kwargs: dict[str, Any] | None = Field(default=None, description=_KWARGS)
    run_id: str | None = Field(default=None, pattern=ID_PATTERN, description=_NEW_ID)

    @field_validator("from_step", mode="before")
    @classmethod
    def _slot(cls, value: Any) -> Any:
        return _integral(value)


class RunResumeBody(_Body):
    """Resume a failed or cancelled run: by default from where it ended, with its input."""

    from_step: _Slot | _StepName | None = Field(
        default=None, description=_FROM + " (default: where the run ended)"
    )
    args: list[Any] | None = Field(default=None, description=_ARGS)
    kwargs: dict[str, Any] | None = Field(default=None, description=_KWARGS)
    run_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="The new run's id (default: <run id>.resumed-<slot>, the same for "
        "the same resume asked again)",
    )

    @field_validator("from_step", mode="before")
    @classmethod
    def _slot(cls, value: Any) -> Any:
        return _integral(value)


#: The wire models of the routes' bodies, for the document's components.
RUN_FORK_MODELS: tuple[type[BaseModel], ...] = (RunForkBody, RunResumeBody)


def _run_id(request: Request) -> str:
    run_id: str = request.path_params["run_id"]
    try:
        return check_identifier(run_id, what="run_id")
    except InvalidInputError:
        # No run can have this id (as GET /v1/inspect/runs/{id} answers it).
        raise ApiProblem(404, "not_found", f"no run {run_id!r}") from None


def run_fork_routes(api: InspectApi) -> list[Route]:
    """The two routes on the app's API object, each answering only an operator."""
    client = api.host.client

    async def started(run_id: str, body: RunForkBody | RunResumeBody, resume: bool) -> Response:
        args, kwargs = body.args, body.kwargs
        try:
            if resume:
                handle: RunHandle = await client.resume(
                    run_id,
                    from_step=body.from_step,
                    new_run_id=body.run_id,
                    args=args,
                    kwargs=kwargs,
                )
            else:
                assert body.from_step is not None  # RunForkBody requires it
                handle = await client.fork(
                    run_id,
                    from_step=body.from_step,
                    new_run_id=body.run_id,
                    args=args,
                    kwargs=kwargs,
                )
        except ForkError as exc:
            raise ApiProblem(409, "fork_refused", str(exc), run_id=run_id) from None
        except UnknownWorkflowError as exc:
            raise ApiProblem(
                409,
                "unknown_workflow",
                f"{exc}: this server's code cannot run the new run; fork it with the code "
                "that serves the workflow (tether runs fork --app MODULE:ATTR)",
            ) from None
        except SerializationError as exc:
            if args is None and kwargs is None:
                raise  # the original's input, unreadable: not the request's fault
            raise ApiProblem(
                422, "invalid_input", f"the new input cannot be stored: {exc}"
            ) from None
        info = await handle.info()
        location = f"/v1/inspect/runs/{quote(info.run_id, safe=':')}"
        return json_response(
            run_json(info, api.options.trace_url), 201, headers={"Location": location}
        )

    async def fork(request: Request) -> Response:
        await api.operator(request)
        run_id = _run_id(request)
        body = await api.body(request, RunForkBody)
        return await started(run_id, body, resume=False)

    async def resume(request: Request) -> Response:
        await api.operator(request)
        run_id = _run_id(request)
        body = await api.body(request, RunResumeBody)
        try:
            info = await (await client.get(run_id, follow=False)).info()
        except NotFoundError:
            raise ApiProblem(404, "not_found", f"no run {run_id!r}") from None
        if info.status not in RESUMABLE_RUN_STATUSES:
            raise ApiProblem(
                409,
                "not_resumable",
                f"run {run_id!r} is {info.status!r}: only a failed or cancelled run "
                "resumes; fork it from a step instead (POST /v1/inspect/runs/{id}/fork)",
                run_id=run_id,
                run_status=info.status,
            )
        return await started(run_id, body, resume=True)

    return [
        Route("/v1/inspect/runs/{run_id}/fork", endpoint(fork), methods=["POST"]),
        Route("/v1/inspect/runs/{run_id}/resume", endpoint(resume), methods=["POST"]),
    ]


def run_fork_paths() -> dict[str, Any]:
    """The routes' entries of the OpenAPI document's ``paths``."""
    run = [path_param("run_id", {"type": "string", "minLength": 1})]
    made = {"201": ok(InspectRunOut, "the new run (its Location: its inspector route)")}
    return {
        "/v1/inspect/runs/{run_id}/fork": {
            "post": operation(
                "inspectForkRun",
                "A new run of the same workflow from a run's journal up to a step, with "
                "this server's code (operators; the run is only read)",
                made,
                403,
                404,
                409,
                413,
                422,
                parameters=run,
                body=json_body(RunForkBody),
            )
        },
        "/v1/inspect/runs/{run_id}/resume": {
            "post": operation(
                "inspectResumeRun",
                "A failed or cancelled run taken up again, as a new run from where it "
                "ended, with this server's code (operators)",
                made,
                403,
                404,
                409,
                413,
                422,
                parameters=run,
                body=json_body(RunResumeBody, required=False),
            )
        },
    }
