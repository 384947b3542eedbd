"""Budgets over HTTP: read a budget's state; operators set and raise them.

A session's budget is read by whoever may read the session
(``GET /v1/sessions/{id}/budget``). Changing a budget is an operator's
(`ServerOptions.operators`; every request of a server without authentication is one):
``POST /v1/sessions/{id}/budget/raise`` for a session's, and
``GET``/``PUT /v1/budgets/{kind}/{name}`` and ``POST .../raise`` for an agent's or a
tenant's. A raise wakes the turns parked on that budget. Anyone else gets 403
``operator_only``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..agent import AgentHost, Budget, BudgetScope, BudgetStatus, Session
from ..errors import BudgetError, NotFoundError
from ._auth import Principal
from ._http import endpoint, json_response
from ._models import _Body
from ._openapi_parts import json_body, ok, operation, path_param, session_operation
from ._problems import ApiProblem

__all__ = ["BUDGET_MODELS", "budget_paths", "budget_routes"]


class BudgetOut(BaseModel):
    """A budget as it stands: its limits, what was used, what calls in flight reserve."""

    scope: str = Field(description="session:<agent>/<id>, agent:<name> or tenant:<owner>")
    kind: Literal["session", "agent", "tenant"]
    name: str
    tokens: int | None = Field(description="the token limit (input plus output); null: none")
    cost: float | None = Field(description="the cost limit at the server's prices; null: none")
    on_exceeded: Literal["ask", "fail"]
    used_tokens: int
    used_cost: float
    reserved_tokens: int = Field(description="reserved by model calls in flight")
    reserved_cost: float
    remaining_tokens: int | None
    remaining_cost: float | None


def _whole(value: Any) -> Any:
    # JSON Schema's integer is any whole number, 1e3 and 5.0 too.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _one_limit_at_least(schema: dict[str, Any]) -> None:
    # A limit left out keeps (or has) none; null is no value a body sends.
    for name in ("tokens", "cost"):
        prop = schema["properties"][name]
        prop.pop("default", None)
        kept = [t for t in prop.pop("anyOf") if t.get("type") != "null"]
        prop.update(kept[0])
    schema["anyOf"] = [{"required": ["tokens"]}, {"required": ["cost"]}]


class _Limits(_Body):
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, json_schema_extra=_one_limit_at_least
    )

    # Bounds a JSON number holds exactly, and SQL integers and floats too.
    tokens: int | None = Field(default=None, ge=0, le=2**53)
    cost: float | None = Field(default=None, ge=0, le=1e15, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _whole_tokens(cls, data: Any) -> Any:
        # JSON Schema's integer is any whole number, 1e3 and 5.0 too.
        if isinstance(data, dict):
            data = {**data, "tokens": _whole(data["tokens"])} if "tokens" in data else data
        return data

    @model_validator(mode="after")
    def _some_limit(self) -> _Limits:
        given = [n for n in ("tokens", "cost") if getattr(self, n) is not None]
        if not given:
            raise ValueError("give tokens, cost or both")
        if len(given) < len(self.model_fields_set & {"tokens", "cost"}):
            raise ValueError("a limit is a number, not null (leave it out to keep it)")
        return self


class BudgetListOut(BaseModel):
    """The budgets a session's model calls count against (those that exist)."""

    budgets: list[BudgetOut] = Field(description="its own, its agent's, its tenant's")


class RaiseBudgetBody(_Limits):
    """Raise a budget's limits (one left out stays as it is); parked turns resume."""


class SetBudgetBody(_Limits):
    """Put a budget: create it or change its limits (what was used stays)."""

    on_exceeded: Literal["ask", "fail"] = "ask"


#: The wire models of these routes, for the OpenAPI document's schemas.
BUDGET_MODELS: tuple[tuple[type[BaseModel], Literal["validation", "serialization"]], ...] = (
    (RaiseBudgetBody, "validation"),
    (SetBudgetBody, "validation"),
    (BudgetOut, "serialization"),
    (BudgetListOut, "serialization"),
)


class _Api(Protocol):
    host: AgentHost

    async def principal(self, request: Request) -> Principal: ...

    async def operator(self, request: Request) -> Principal: ...

    async def session(self, session_id: str, principal: Principal) -> Session: ...

    async def body(self, request: Request, model: Any, limit: int | None = None) -> Any: ...


def _out(status: BudgetStatus | None, what: str) -> Response:
    if status is None:
        raise ApiProblem(404, "not_found", f"{what} has no budget")
    return json_response(status.to_json())


def _refused(exc: BudgetError) -> ApiProblem:
    if "no such budget" in exc.reason:
        return ApiProblem(404, "not_found", str(exc))
    if "does not lower" in exc.reason:
        # Valid on its face; the budget as it stands refuses it.
        return ApiProblem(409, "budget_conflict", str(exc), reason=exc.reason)
    return ApiProblem(422, "invalid_budget", str(exc), reason=exc.reason)


def _scope(request: Request) -> BudgetScope:
    kind, name = request.path_params["kind"], request.path_params["name"]
    if kind not in ("agent", "tenant"):
        raise ApiProblem(
            404,
            "not_found",
            f"no budgets of kind {kind!r} (agent or tenant; a session's "
            "is under /v1/sessions/{id}/budget)",
        )
    try:
        if not 1 <= len(name) <= 200:
            raise BudgetError("a budget's name is 1 to 200 characters")
        return BudgetScope(kind=kind, name=name)
    except BudgetError as exc:
        raise ApiProblem(404, "not_found", f"no budget {kind}:{name!r}: {exc}") from None


def budget_routes(api: _Api) -> list[Route]:
    """The routes (see the module docstring)."""
    host = api.host

    async def session_budget(request: Request) -> Response:
        principal = await api.principal(request)
        session = await api.session(request.path_params["session_id"], principal)
        return _out(await session.budget(), f"session {session.session_id!r}")

    async def raise_session(request: Request) -> Response:
        await api.operator(request)
        session_id = request.path_params["session_id"]
        body: RaiseBudgetBody = await api.body(request, RaiseBudgetBody)
        try:
            session = await host.get_session(session_id)
        except NotFoundError:
            raise ApiProblem(404, "not_found", f"no session {session_id!r}") from None
        try:
            raised = await session.raise_budget(tokens=body.tokens, cost=body.cost)
        except BudgetError as exc:
            raise _refused(exc) from None
        return _out(raised, f"session {session_id!r}")

    async def scoped(request: Request) -> Response:
        await api.operator(request)
        scope = _scope(request)
        if request.method == "GET":
            return _out(await host.budget(scope), scope.key)
        body: SetBudgetBody = await api.body(request, SetBudgetBody)
        try:
            budget = Budget(tokens=body.tokens, cost=body.cost, on_exceeded=body.on_exceeded)
            return _out(await host.set_budget(scope, budget), scope.key)
        except BudgetError as exc:
            raise _refused(exc) from None

    async def raise_scoped(request: Request) -> Response:
        await api.operator(request)
        scope = _scope(request)
        body: RaiseBudgetBody = await api.body(request, RaiseBudgetBody)
        try:
            raised = await host.raise_budget(scope, tokens=body.tokens, cost=body.cost)
        except BudgetError as exc:
            raise _refused(exc) from None
        return _out(raised, scope.key)

    async def session_budgets(request: Request) -> Response:
        # The inspector's: every budget the session counts against, for an operator.
        await api.operator(request)
        session_id = request.path_params["session_id"]
        try:
            session = await host.get_session(session_id)
            owner = (await session.state()).owner
        except NotFoundError:
            raise ApiProblem(404, "not_found", f"no session {session_id!r}") from None
        scopes = [BudgetScope.session(session.agent_name, session_id)]
        scopes.append(BudgetScope.agent(session.agent_name))
        if owner:
            scopes.append(BudgetScope.tenant(owner))
        found = [await host.budget(scope) for scope in scopes]
        return json_response({"budgets": [s.to_json() for s in found if s is not None]})

    def route(path: str, fn: Callable[[Request], Awaitable[Response]], methods: list[str]) -> Route:
        return Route(path, endpoint(fn), methods=methods)

    return [
        route("/v1/sessions/{session_id}/budget", session_budget, ["GET"]),
        route("/v1/sessions/{session_id}/budget/raise", raise_session, ["POST"]),
        route("/v1/budgets/{kind}/{name}", scoped, ["GET", "PUT"]),
        route("/v1/budgets/{kind}/{name}/raise", raise_scoped, ["POST"]),
        route("/v1/inspect/sessions/{session_id}/budgets", session_budgets, ["GET"]),
    ]


def budget_paths() -> dict[str, Any]:
    """The routes' entries of the OpenAPI document's ``paths``."""
    scope = [
        path_param("kind", {"type": "string", "enum": ["agent", "tenant"]}),
        path_param("name", {"type": "string", "minLength": 1, "maxLength": 200}),
    ]
    raised = "raised; the turns parked on it resume"
    return {
        "/v1/sessions/{session_id}/budget": {
            "get": session_operation(
                "sessionBudget",
                "The session's budget: its limits, what was used, what is reserved",
                {"200": ok(BudgetOut, "its budget")},
            )
        },
        "/v1/sessions/{session_id}/budget/raise": {
            "post": session_operation(
                "raiseSessionBudget",
                "Raise the session's budget; its parked turn resumes (operators)",
                {"200": ok(BudgetOut, raised)},
                403,
                409,
                422,
                body=json_body(RaiseBudgetBody),
            )
        },
        "/v1/inspect/sessions/{session_id}/budgets": {
            "get": session_operation(
                "inspectSessionBudgets",
                "The budgets a session's model calls count against: its own, its agent's, "
                "its tenant's (operators)",
                {"200": ok(BudgetListOut, "those that exist")},
                403,
            )
        },
        "/v1/budgets/{kind}/{name}": {
            "get": operation(
                "getBudget",
                "An agent's or a tenant's budget (operators)",
                {"200": ok(BudgetOut, "the budget")},
                403,
                404,
                parameters=scope,
            ),
            "put": operation(
                "setBudget",
                "Put an agent's or a tenant's budget: create it or change its limits (operators)",
                {"200": ok(BudgetOut, "the budget")},
                403,
                404,
                422,
                parameters=scope,
                body=json_body(SetBudgetBody),
            ),
        },
        "/v1/budgets/{kind}/{name}/raise": {
            "post": operation(
                "raiseBudget",
                "Raise an agent's or a tenant's budget; the turns parked on it resume (operators)",
                {"200": ok(BudgetOut, raised)},
                403,
                404,
                409,
                422,
                parameters=scope,
                body=json_body(RaiseBudgetBody),
            )
        },
    }
