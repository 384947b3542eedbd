"""The inspector: a page for operators, and the JSON routes it reads.

``GET /inspector`` serves the page (HTML, JavaScript and CSS shipped in the package:
nothing to build, nothing fetched from elsewhere). The page asks for a bearer token
once, keeps it in the tab's ``sessionStorage``, and calls the routes under
``/v1/inspect``: sessions and runs of every tenant, a session's timeline across the
runs of its chain, a run's decoded journal, usage summed across sessions. Like the
schedules' routes, those answer only an operator (`ServerOptions.operators`); anyone
else gets 403 ``operator_only``.

Answering an approval or a question from the page goes through the rules of
``POST /v1/sessions/{id}/requests/{rid}/answer``: only the turn's principal or an
approver the agent names may answer, whoever else asks is refused with 403
``forbidden``. Being an operator lets a principal see a session, not answer for it.
Forking a session from the page (``POST /v1/inspect/sessions/{id}/fork``, at a turn's
end) makes a session of the original's owner; forking and resuming a run are
`_run_forks`'s routes.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any, Protocol, TypeVar

import orjson
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .._validate import check_identifier
from ..agent import AgentHost, Session
from ..agent._session._session import session_run_id
from ..errors import ContentDeletedError, InvalidInputError, NotFoundError
from ._auth import Principal
from ._feeds import read_wire
from ._forks import ForkBody
from ._http import bool_param, endpoint, int_param, json_response, pattern_param
from ._inspect_doc import (
    ASSETS,
    LABEL_PATTERN,
    RUN_STATES,
    SESSION_STATES,
    TENANT_PATTERN,
    WORKFLOW_PATTERN,
)
from ._inspect_reads import chain_runs, pending_ages, readable, run_detail, run_json
from ._models import CURSOR_PATTERN, AnswerBody, is_id
from ._options import ServerOptions
from ._problems import ApiProblem

__all__ = ["InspectApi", "answer_as", "inspector_routes"]

M = TypeVar("M", bound=BaseModel)

# The page loads its own files only and talks to this origin only.
_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

_CURSOR = re.compile(CURSOR_PATTERN)
_LABEL = re.compile(LABEL_PATTERN)
_WORKFLOW = re.compile(WORKFLOW_PATTERN)
_TENANT = re.compile(TENANT_PATTERN)
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_MEDIA = {"sse": "text/event-stream", "ndjson": "application/x-ndjson"}


class InspectApi(Protocol):
    """What the inspector's routes use of the app (`create_app`'s route bodies)."""

    host: AgentHost
    options: ServerOptions

    async def operator(self, request: Request) -> Principal: ...

    async def body(self, request: Request, model: type[M], limit: int | None = None) -> M: ...

    def _stream(self, run_id: str, start: int, fmt: str) -> AsyncIterator[bytes]: ...


async def answer_as(session: Session, principal: Principal, request_id: str, answer: Any) -> None:
    """Answer as `principal`: 403 unless the turn's principal or an approver it names.

    The one rule of both answer routes, the session API's and the inspector's: seeing
    a session (an operator sees every one) is not leave to answer for it.
    """
    for pending in await session.pending_requests():
        if pending.request_id == request_id and not pending.may_answer(principal.id):
            raise ApiProblem(
                403,
                "forbidden",
                f"{principal.id!r} may not answer request {request_id!r}: only the "
                "turn's principal or an approver the agent names may",
            )
    await session.answer(request_id, answer, principal=principal.id)


@functools.cache
def _asset(name: str) -> bytes:
    """A file of the page, read from the package once (`ASSETS` names the ones served)."""
    return resources.files(__package__ or "tether.server").joinpath("inspector", name).read_bytes()


def _labels(request: Request) -> dict[str, str]:
    out: dict[str, str] = {}
    for raw in request.query_params.getlist("label"):
        pattern_param(raw, "label", _LABEL, "KEY=VALUE")
        key, _, value = raw.partition("=")
        out[key] = value
    return out


def _one_of(raw: str | None, name: str, allowed: tuple[str, ...]) -> str | None:
    if raw is not None and raw not in allowed:
        raise ApiProblem(422, "invalid_input", f"{name} is one of {list(allowed)}, not {raw!r}")
    return raw


def _time(raw: str | None, name: str) -> float | None:
    """A query time in Unix seconds (a finite decimal number), None when absent."""
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not _NUMBER.fullmatch(raw):
        raise ApiProblem(422, "invalid_input", f"{name} is Unix seconds (a number), not {raw!r}")
    return value


def inspector_routes(api: InspectApi) -> list[Route]:
    """The page and its routes, each JSON route answering only an operator."""
    host = api.host
    template = api.options.trace_url

    async def session_of(request: Request) -> Session:
        session_id = request.path_params["session_id"]
        if not is_id(session_id):
            raise ApiProblem(404, "not_found", f"no session {session_id!r}")
        return await host.get_session(session_id)

    async def page(request: Request) -> Response:
        return Response(
            _asset("index.html"),
            media_type="text/html; charset=utf-8",
            headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"},
        )

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            raise ApiProblem(404, "not_found", f"the inspector has no file {name!r}")
        return Response(
            _asset(name), media_type=ASSETS[name], headers={"Cache-Control": "no-cache"}
        )

    async def sessions(request: Request) -> Response:
        await api.operator(request)
        query = request.query_params
        limit = int_param(query.get("limit"), "limit", default=50, low=1, high=500)
        agent = _one_of(query.get("agent"), "agent", tuple(host.agents.names()))
        state = _one_of(query.get("state"), "state", SESSION_STATES)
        tenant = pattern_param(query.get("tenant"), "tenant", _TENANT, "a tenant")
        cursor = pattern_param(query.get("cursor"), "cursor", _CURSOR, "a next_cursor")
        try:
            found = await host.list_sessions(
                owner=tenant,
                agent=agent,
                labels=_labels(request),
                status=state,  # type: ignore[arg-type]
                limit=limit,
                cursor=cursor,
            )
        except (InvalidInputError, ValueError) as exc:
            raise ApiProblem(422, "invalid_input", f"bad filter or cursor: {exc}") from None
        return json_response(
            {"items": [i.to_json() for i in found.items], "next_cursor": found.next_cursor}
        )

    async def session(request: Request) -> Response:
        # What the first screen needs, without reading the session's events: who it is,
        # its runs, where its stream ends. Its state (a fold of every event) comes apart.
        await api.operator(request)
        session_id = request.path_params["session_id"]
        try:
            found = await session_of(request)
        except ContentDeletedError as exc:
            # Erased on an encrypted store: who it was is gone, its runs remain.
            runs = await chain_runs(host, session_run_id(session_id))
            return json_response(_summary(session_id, None, runs, 0, str(exc)))
        runs = await chain_runs(host, found.run_id)
        deleted = await readable(found)
        tail = 0 if deleted else await _tail(found)
        return json_response(_summary(session_id, found, runs, tail, deleted))

    def _summary(
        session_id: str, found: Session | None, runs: list[Any], tail: int, redacted: str | None
    ) -> dict[str, Any]:
        return {
            "session_id": session_id,
            "agent": None if found is None else found.agent_name,
            "owner": None if found is None else found.owner,
            "tail": tail,
            "runs": [run_json(r, template) for r in runs],
            "redacted": redacted,
        }

    async def state(request: Request) -> Response:
        await api.operator(request)
        found = await session_of(request)
        state = await found.state()
        progress = await host.session_progress(found.session_id, state=state)
        pending: list[dict[str, Any]] = []
        if await readable(found) is None:
            asked = await pending_ages(found, [r.request_id for r in state.pending])
            now = time.time()
            for r in state.pending:
                at = asked.get(r.request_id)
                age = None if at is None else max(0.0, now - at)
                pending.append({**r.to_json(), "asked_at": at, "age": age})
        return json_response(
            {
                "session_id": found.session_id,
                "state": state.to_json(),
                "progress": progress.to_json(),
                "pending": pending,
            }
        )

    async def _tail(found: Session) -> int:
        chunks, _ = await host.client.stream(found.run_id, "events").read(-1)
        return chunks[-1].index + 1 if chunks else 0

    async def events(request: Request) -> Response:
        await api.operator(request)
        query = request.query_params
        follow = bool_param(query.get("follow"), "follow", default=False)
        start = int_param(query.get("start"), "start", default=-200)
        limit = int_param(query.get("limit"), "limit", default=200, low=1, high=2000)
        fmt = _one_of(query.get("format"), "format", ("ndjson", "sse")) or "ndjson"
        try:
            found = await session_of(request)
        except ContentDeletedError as exc:
            if follow:
                raise
            return json_response({"events": [], "first": 0, "next_offset": 0, "redacted": str(exc)})
        if follow:
            deleted = await readable(found)
            if deleted is not None:
                raise ApiProblem(410, "session_expired", deleted)
            tail = await _tail(found)
            first = max(0, tail + start) if start < 0 else min(start, tail)
            return StreamingResponse(
                api._stream(found.run_id, first, fmt),
                media_type=_MEDIA[fmt],
                headers={
                    "Stream-Next-Offset": str(first),
                    "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",
                },
            )
        try:
            wire = (await read_wire(found, start))[:limit]
        except ContentDeletedError as exc:
            return json_response({"events": [], "first": 0, "next_offset": 0, "redacted": str(exc)})
        tail = wire[-1].index + 1 if wire else await _tail(found)
        return json_response(
            {
                "events": [orjson.Fragment(w.json) for w in wire],
                "first": wire[0].index if wire else tail,
                "next_offset": tail,
                "redacted": None,
            }
        )

    async def usage(request: Request) -> Response:
        await api.operator(request)
        found = await session_of(request)
        try:
            return json_response((await found.usage()).to_json())
        except ContentDeletedError as exc:
            raise ApiProblem(410, "session_expired", str(exc)) from None

    async def usage_sums(request: Request) -> Response:
        await api.operator(request)
        query = request.query_params
        agent = _one_of(query.get("agent"), "agent", tuple(host.agents.names()))
        tenant = pattern_param(query.get("tenant"), "tenant", _TENANT, "a tenant")
        since, until = _time(query.get("since"), "since"), _time(query.get("until"), "until")
        try:
            report = await host.usage(
                since=since, until=until, owner=tenant, agent=agent, labels=_labels(request)
            )
        except InvalidInputError as exc:
            raise ApiProblem(422, "invalid_input", str(exc)) from None
        return json_response(report.to_json())

    async def answer(request: Request) -> Response:
        principal = await api.operator(request)
        found = await session_of(request)
        request_id = request.path_params["request_id"]
        body = await api.body(request, AnswerBody)
        await answer_as(found, principal, request_id, body.answer)
        return json_response({"request_id": request_id, "answered": True})

    async def fork(request: Request) -> Response:
        await api.operator(request)
        found = await session_of(request)
        body = await api.body(request, ForkBody)
        # The fork is the original's owner's (an operator sees sessions, owns none).
        forked = await found.fork(at=body.at, at_event=body.at_event, session_id=body.session_id)
        location = f"/v1/inspect/sessions/{forked.session_id}"
        state = (await forked.state()).to_json()
        return json_response(state, 201, headers={"Location": location})

    async def runs(request: Request) -> Response:
        await api.operator(request)
        query = request.query_params
        limit = int_param(query.get("limit"), "limit", default=50, low=1, high=500)
        status = _one_of(query.get("status"), "status", RUN_STATES)
        workflow = pattern_param(query.get("workflow"), "workflow", _WORKFLOW, "a workflow name")
        cursor = pattern_param(query.get("cursor"), "cursor", _CURSOR, "a next_cursor")
        try:
            found = await host.client.page_runs(
                status=status,  # type: ignore[arg-type]
                workflow=workflow,
                labels=_labels(request),
                limit=limit,
                cursor=cursor,
            )
        except (InvalidInputError, ValueError) as exc:
            raise ApiProblem(422, "invalid_input", f"bad filter or cursor: {exc}") from None
        items = [run_json(r, template) for r in found.items]
        return json_response({"items": items, "next_cursor": found.next_cursor})

    async def run(request: Request) -> Response:
        await api.operator(request)
        run_id = request.path_params["run_id"]
        try:
            check_identifier(run_id, what="run_id")
            return json_response(await run_detail(host, run_id, template))
        except (InvalidInputError, NotFoundError):
            raise ApiProblem(404, "not_found", f"no run {run_id!r}") from None

    def route(path: str, fn: Callable[[Request], Awaitable[Response]], *methods: str) -> Route:
        return Route(path, endpoint(fn), methods=list(methods or ("GET",)))

    return [
        route("/inspector", page),
        route("/inspector/{name}", asset),
        route("/v1/inspect/sessions", sessions),
        route("/v1/inspect/usage", usage_sums),
        route("/v1/inspect/sessions/{session_id}", session),
        route("/v1/inspect/sessions/{session_id}/state", state),
        route("/v1/inspect/sessions/{session_id}/events", events),
        route("/v1/inspect/sessions/{session_id}/usage", usage),
        route("/v1/inspect/sessions/{session_id}/requests/{request_id}/answer", answer, "POST"),
        route("/v1/inspect/sessions/{session_id}/fork", fork, "POST"),
        route("/v1/inspect/runs", runs),
        route("/v1/inspect/runs/{run_id}", run),
    ]
