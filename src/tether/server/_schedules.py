"""Schedules over HTTP, for operators: list them, pause, resume, trigger a tick now.

A schedule belongs to the deployment, not to a tenant, so its routes answer only an
operator (`ServerOptions.operators`; every request of a server without authentication
is one): any other principal gets 403 ``operator_only``. The routes are what
`tether.durable.Schedules` does, with its errors as problem documents (404 for a
schedule no worker runs).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .._validate import check_identifier
from ..durable import Client, Schedules
from ..errors import InvalidInputError
from ._auth import Principal
from ._http import endpoint, json_response
from ._openapi_parts import ok, operation, path_param
from ._problems import ApiProblem

__all__ = ["SCHEDULE_MODELS", "schedule_paths", "schedule_routes"]

_CONTROLS = ("pause", "resume", "trigger")


class ScheduleOut(BaseModel):
    """A schedule as its scheduler last published it."""

    name: str
    workflow: str = Field(description="the workflow each tick runs")
    cron: str | None
    every: float | None = Field(description="the interval in seconds, or null for cron")
    timezone: str = Field(description="the IANA time zone of cron")
    missed: str = Field(description="what a late wake-up runs: skip, run_once or run_all")
    paused: bool
    last_tick: str | None = Field(description="the last tick handled (ISO 8601, UTC)")
    next_tick: str | None = Field(description="the next tick due; null while paused")
    run_id: str = Field(description="the scheduler's current run")
    status: str = Field(description="that run's status")
    deployment: str


class ScheduleListOut(BaseModel):
    """The store's schedules, by name."""

    schedules: list[ScheduleOut]


class ScheduleControlOut(BaseModel):
    """A control sent to a schedule's scheduler (202): it acts at its next wake-up."""

    schedule: str
    control: Literal["pause", "resume", "trigger"]


#: The wire models of these routes, for the OpenAPI document's schemas.
SCHEDULE_MODELS: tuple[type[BaseModel], ...] = (
    ScheduleListOut,
    ScheduleOut,
    ScheduleControlOut,
)


def schedule_routes(
    operator: Callable[[Request], Awaitable[Principal]], client: Client
) -> list[Route]:
    """The routes, each answering only a principal `operator` lets through."""
    schedules = Schedules(client)

    async def listing(request: Request) -> Response:
        await operator(request)
        found = await schedules.list()
        return json_response({"schedules": [s.to_json() for s in found]})

    def control(verb: str) -> Callable[[Request], Awaitable[Response]]:
        async def send(request: Request) -> Response:
            await operator(request)
            name = request.path_params["name"]
            try:
                check_identifier(name, what="schedule name")
            except InvalidInputError as exc:
                raise ApiProblem(404, "not_found", f"no schedule {name!r}: {exc}") from None
            await getattr(schedules, verb)(name)
            return json_response({"schedule": name, "control": verb}, 202)

        return send

    return [
        Route("/v1/schedules", endpoint(listing), methods=["GET"]),
        *(
            Route(f"/v1/schedules/{{name}}/{verb}", endpoint(control(verb)), methods=["POST"])
            for verb in _CONTROLS
        ),
    ]


_SAYS = {
    "pause": "Pause a schedule: no tick starts until it is resumed",
    "resume": "Resume a schedule: its ticks go on from now (the paused ones are not run)",
    "trigger": "Start a run of the schedule's workflow now, once, besides its ticks",
}


def schedule_paths() -> dict[str, Any]:
    """The routes' entries of the OpenAPI document's ``paths``."""
    name = path_param("name", {"type": "string", "minLength": 1, "maxLength": 200})
    paths: dict[str, Any] = {
        "/v1/schedules": {
            "get": operation(
                "listSchedules",
                "The store's schedules as their schedulers last published them (operators)",
                {"200": ok(ScheduleListOut, "them")},
                403,
            )
        }
    }
    for verb in _CONTROLS:
        paths[f"/v1/schedules/{{name}}/{verb}"] = {
            "post": operation(
                f"{verb}Schedule",
                f"{_SAYS[verb]} (operators)",
                {"202": ok(ScheduleControlOut, "sent to its scheduler")},
                403,
                404,
                parameters=[name],
            )
        }
    return paths
