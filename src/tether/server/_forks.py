"""``POST /v1/sessions/{id}/fork``: a new session with a session's history up to a turn's end.

The fork belongs to the caller's tenant, as the session it is made from (another
tenant's session is a 404, as on every session route). It answers 201 with the new
session's state and its ``Location``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ._http import endpoint, json_response
from ._models import ID_PATTERN, MAX_WIRE_INT, SessionStateOut, _Body, _integral
from ._openapi_parts import json_body, ok, session_operation
from ._problems import ApiProblem

if TYPE_CHECKING:
    from ..agent import Session
    from ._auth import Principal

M = TypeVar("M", bound=BaseModel)


class _Api(Protocol):
    """What the route takes of the app's API object (`_app._Api`)."""

    @property
    def _known(self) -> Mapping[str, Any]: ...

    async def principal(self, request: Request) -> Principal: ...
    async def session(self, session_id: str, principal: Principal) -> Session: ...
    async def body(self, request: Request, model: type[M], limit: int | None = None) -> M: ...
    async def exists(self, session_id: str) -> bool: ...
    def remember(self, session_id: str, agent: str, owner: str | None) -> None: ...


__all__ = ["FORK_MODELS", "ForkBody", "fork_paths", "fork_routes"]


def _one_point(schema: dict[str, Any]) -> None:
    """What `ForkBody._one_point` checks, in its JSON Schema: not both points."""
    both = {"type": "integer"}
    schema["not"] = {"required": ["at", "at_event"], "properties": {"at": both, "at_event": both}}


class ForkBody(_Body):
    """Fork a session: at most one of `at` and `at_event` (neither: all its ended turns)."""

    model_config = ConfigDict(json_schema_extra=_one_point)

    at: int | None = Field(
        default=None, ge=0, le=MAX_WIRE_INT, description="How many ended turns to keep."
    )
    at_event: int | None = Field(
        default=None,
        ge=0,
        le=MAX_WIRE_INT,
        description="An event index: the turn it falls in is kept whole (up to its end).",
    )
    session_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="The fork's id (default a new one); the same fork again returns it.",
    )

    @field_validator("at", "at_event", mode="before")
    @classmethod
    def _points(cls, value: Any) -> Any:
        return _integral(value)

    @model_validator(mode="after")
    def _one_point(self) -> ForkBody:
        if self.at is not None and self.at_event is not None:
            raise ValueError("give at or at_event, not both")
        return self


#: The wire models of the route, for the document's components.
FORK_MODELS = (ForkBody,)


def fork_routes(api: _Api) -> list[Route]:
    """The fork route on the app's API object."""

    async def fork(request: Request) -> Response:
        principal = await api.principal(request)
        session = await api.session(request.path_params["session_id"], principal)
        body = await api.body(request, ForkBody)
        if body.session_id is not None and (
            body.session_id in api._known or await api.exists(body.session_id)
        ):
            # Taken (by this tenant or another: say only that it is taken), unless it
            # is this very fork asked for again.
            try:
                again = await api.session(body.session_id, principal)
            except ApiProblem:
                again = None
            if again is None:
                raise ApiProblem(409, "conflict", f"session id {body.session_id!r} is taken")
        forked = await session.fork(
            at=body.at, at_event=body.at_event, session_id=body.session_id, owner=principal.tenant
        )
        api.remember(forked.session_id, forked.agent_name, principal.tenant)
        return json_response(
            (await forked.state()).to_json(),
            201,
            headers={"Location": f"/v1/sessions/{forked.session_id}"},
        )

    return [Route("/v1/sessions/{session_id}/fork", endpoint(fork), methods=["POST"])]


def fork_paths() -> dict[str, Any]:
    """The route's entry of the OpenAPI document's ``paths``."""
    return {
        "/v1/sessions/{session_id}/fork": {
            "post": session_operation(
                "forkSession",
                "A new session holding this one's history up to the end of a turn (this "
                "one is only read)",
                {"201": ok(SessionStateOut, "the fork")},
                409,
                413,
                422,
                body=json_body(ForkBody, required=False),
            )
        }
    }
