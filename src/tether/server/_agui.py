"""AG-UI over tether sessions: ``POST /v1/agui/{agent}`` (RunAgentInput -> SSE events).

An AG-UI thread is a tether session (``threadId`` is the session id, opened for the
caller's tenant on first use). A run's new user messages are sent with their message
id as ``client_message_id``; its ``resume`` entries answer the session's pending
approvals and questions (a ``cancelled`` entry denies an approval, declines a question
and cancels the turn of an authorization). The answer is the run's part of the
session's event stream, projected onto AG-UI events, up to the turn's end
(``RUN_FINISHED``), its park on input (``RUN_FINISHED`` with an ``interrupt`` outcome)
or its failure (``RUN_ERROR``). An agent that declares session state (`State`) sends
its values (``STATE_SNAPSHOT``) just before that last event.

The projection keeps no state of its own: where a run starts is found in the
session's durable events (the ``turn.started`` / ``turn.steered`` of its message, the
``input.resolved`` of its answers), so a retried POST admits nothing new and streams
the same run again; each SSE frame's ``id:`` is the index of the session event it
came from, and ``GET /v1/agui/{agent}/{threadId}/stream?offset=N`` (or
``Last-Event-ID: N``) continues a dropped stream exactly after it (AG-UI itself has
no resume yet: ag-ui#2105).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..agent import (
    DECLINE,
    AuthorizationRequested,
    InputRequested,
    InputResolved,
    RequestKind,
    Session,
    SessionEvent,
    TurnStarted,
    TurnSteered,
    TurnWaiting,
)
from ._agui_events import AguiEvent, RunStarted, StateSnapshot
from ._agui_projection import AguiProjection, ends_run
from ._http import endpoint, int_param
from ._models import ID_PATTERN, ResumeEntry, RunAgentInput
from ._problems import ApiProblem
from ._wire_events import UnknownTypes

if TYPE_CHECKING:
    from ._api import _Api

__all__ = ["agui_routes", "answer_of"]

_ID = re.compile(ID_PATTERN)
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


# -- answers --------------------------------------------------------------------------------
def answer_of(kind: RequestKind, entry: ResumeEntry) -> Any:
    """The `Session.answer` of a resolved resume entry to a request of `kind`.

    Raises:
        ApiProblem: 422, the payload is no answer to such a request.
    """
    payload = entry.payload
    bad = ApiProblem(
        422,
        "invalid_input",
        f"resume {entry.interruptId!r}: the payload does not fit the interrupt's responseSchema",
    )
    if kind in ("approval", "budget"):
        if payload is None or payload is True or payload == "approve":
            return "approve"
        if payload is False or payload == "deny":
            return "deny"
        if isinstance(payload, dict) and isinstance(payload.get("approved"), bool):
            if isinstance(payload.get("reason"), str):
                return {"approved": payload["approved"], "reason": payload["reason"]}
            return "approve" if payload["approved"] else "deny"
        raise bad
    if kind == "authorization":
        if payload is None or payload == {"authorized": True}:
            return {"authorized": True}
        raise bad
    if isinstance(payload, dict):
        payload = payload.get("answer")
    if not isinstance(payload, str):
        raise bad
    return payload


def _user_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise ApiProblem(422, "invalid_input", "a user message's content is text or parts")
    texts: list[str] = []
    for part in content:
        if not isinstance(part, dict) or part.get("type") != "text":
            raise ApiProblem(
                422,
                "invalid_input",
                "only text parts are taken (upload files with POST "
                "/v1/sessions/{id}/attachments and send them on the sessions API)",
            )
        texts.append(str(part.get("text", "")))
    return "".join(texts)


def _new_messages(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(id, text) of the user messages after the last message of any other role."""
    out: list[tuple[str, str]] = []
    for message in reversed(messages):
        if message.get("role") != "user":
            break
        message_id = message.get("id")
        if not isinstance(message_id, str) or not _ID.fullmatch(message_id):
            raise ApiProblem(422, "invalid_input", "message ids are [A-Za-z0-9._:-], 1-128")
        out.append((message_id, _user_text(message)))
    return out[::-1]


def _sse(events: list[AguiEvent], index: int | None) -> bytes:
    frames = [b"data: " + orjson.dumps(e.to_json()) + b"\n\n" for e in events]
    if index is not None and frames:
        # Only the last frame of a session event carries its index: a client that saw
        # the id saw every frame of that event.
        frames[-1] = f"id: {index}\n".encode() + frames[-1]
    return b"".join(frames)


# -- the routes -----------------------------------------------------------------------------
def agui_routes(api: _Api) -> list[Route]:
    """The adapter's routes on the app's API object."""

    async def stream(
        session: Session,
        projection: AguiProjection,
        start: int,
        opening: list[AguiEvent],
    ) -> AsyncIterator[bytes]:
        if opening:
            yield _sse(opening, None)
        unknown = UnknownTypes("AG-UI")
        async with contextlib.aclosing(api.live(session.run_id, start)) as events:
            async for event in events:
                if event is None:
                    yield b": keep-alive\n\n"
                    continue
                if event.event is None:
                    unknown.skip(event.type)
                    continue
                parts, end = projection.feed(event.event)
                if end and api.host.agents.get(session.agent_name).state_keys():
                    # The declared state as the run ends, just before its last event.
                    values = (await session.state_values()).to_json()
                    parts = [*parts[:-1], StateSnapshot(snapshot=values), *parts[-1:]]
                if parts:
                    yield _sse(parts, event.index)
                if end:
                    return
        if not api.stopping.is_set():  # the server stops: the client goes on by offset
            yield _sse(projection.ended(), None)

    def check_agent(request: Request) -> str:
        agent: str = request.path_params["agent"]
        if agent not in api.host.agents:
            raise ApiProblem(404, "not_found", f"no agent {agent!r}")
        return agent

    async def thread(request: Request, thread_id: str, create: bool) -> Session:
        principal = await api.principal(request)
        agent = check_agent(request)
        try:
            session = await api.session(thread_id, principal)
        except ApiProblem as problem:
            if problem.status != 404:  # its own session, expired
                raise
            if not create or await api.exists(thread_id):
                raise ApiProblem(404, "not_found", f"no thread {thread_id!r}") from None
            session = await api.host.open_session(
                agent, session_id=thread_id, owner=principal.tenant
            )
            api.remember(thread_id, agent, principal.tenant)
        if session.agent_name != agent:
            raise ApiProblem(409, "conflict", f"thread {thread_id!r} is of another agent")
        return session

    async def run(request: Request) -> Response:
        principal = await api.principal(request)
        check_agent(request)
        body = await api.body(request, RunAgentInput)
        new = _new_messages(body.messages)
        resume = body.resume or []
        if not new and not resume:
            raise ApiProblem(
                422, "invalid_input", "nothing to run: no new user message and no resume"
            )
        if len({e.interruptId for e in resume}) != len(resume):
            raise ApiProblem(422, "invalid_input", "an interrupt is resumed twice")
        # A resume answers a thread that exists: only a run with messages opens one.
        session = await thread(request, body.threadId, create=not resume)
        # 409 stranded (a client stops retrying), 410 when retention deleted it.
        await api._check_followable(session)
        sid = session.session_id
        events = await session.read_events()
        tail = events[-1].index + 1 if events else 0
        started = {
            e.data.submission_id: e.index
            for e in events
            if isinstance(e.data, TurnStarted | TurnSteered)
        }
        unsent = [(m, t) for m, t in new if f"{sid}:{m}" not in started]
        pending = {r.request_id: r for r in await session.pending_requests()}
        resumed = {e.interruptId for e in resume}
        missing = sorted(set(pending) - resumed)
        if missing and (resume or unsent):
            raise ApiProblem(
                422,
                "invalid_input",
                f"resume must answer every open interrupt; open: {missing}",
                open_interrupts=missing,
            )
        # Everything is checked before anything is written: a refused run admits nothing.
        answers: list[tuple[str, Any]] = []
        cancel = False
        for entry in resume:
            found = pending.get(entry.interruptId)
            if found is None:
                # Answered already (a retry: `Session.answer` checks it is the same
                # answer) or unknown (refused there: 409 answer_refused).
                kind = _kind_of(events, entry.interruptId)
                if kind is None:
                    raise ApiProblem(
                        409,
                        "answer_refused",
                        f"no interrupt {entry.interruptId!r} in thread {sid!r}",
                        reason="no such request",
                    )
                if entry.status == "resolved":
                    answers.append((entry.interruptId, answer_of(kind, entry)))
                elif kind == "approval":
                    answers.append((entry.interruptId, "deny"))
                elif kind == "question":
                    answers.append((entry.interruptId, dict(DECLINE)))
                continue
            if not found.may_answer(principal.id):
                raise ApiProblem(
                    403,
                    "forbidden",
                    f"{principal.id!r} may not answer {entry.interruptId!r}: only the "
                    "turn's principal or an approver the agent names may",
                )
            if entry.status == "cancelled":
                if found.kind == "approval":
                    answers.append((entry.interruptId, "deny"))
                elif found.kind == "question":
                    # The person dismissed it: `ctx.ask` returns status "cancelled".
                    answers.append((entry.interruptId, dict(DECLINE)))
                else:
                    # An authorization has no "no": the turn is cancelled.
                    cancel = True
            else:
                answers.append((entry.interruptId, answer_of(found.kind, entry)))
        if cancel:
            await session.cancel_turn(principal=principal.id)
        else:
            for request_id, answer in answers:
                await session.answer(request_id, answer, principal=principal.id)
        for message_id, text in new:
            await session.send(text, client_message_id=message_id, principal=principal.id)
        markers = {f"req:{e.interruptId}" for e in resume}
        markers |= {f"sub:{sid}:{m}" for m, _ in new}
        # Fold from the turn the run begins in: the earliest marker already recorded
        # (a retried run), else the tail before this request's writes.
        first = min([tail, *(started[f"{sid}:{m}"] for m, _ in new if f"{sid}:{m}" in started)])
        first = min([first, *(e.index for e in events if _asks(e, resumed))])
        begin = _turn_start(events, first)
        projection = AguiProjection(sid, body.runId, markers=frozenset(markers))
        opening: list[AguiEvent] = [RunStarted(thread_id=sid, run_id=body.runId)]
        return StreamingResponse(
            stream(session, projection, begin, opening),
            media_type="text/event-stream",
            headers=HEADERS,
        )

    async def follow(request: Request) -> Response:
        thread_id = request.path_params["thread_id"]
        session = await thread(request, thread_id, create=False)
        await api._check_followable(session)
        query = request.query_params
        # Present but empty is no index (422), as the document states.
        raw = request.headers.get("last-event-id")
        raw = query.get("offset") if raw is None else raw
        run_id = query.get("runId")
        if run_id is not None and not 0 < len(run_id) <= 200:
            raise ApiProblem(422, "invalid_input", "runId is 1 to 200 characters")
        events = await session.read_events()
        if raw is not None:
            after = int_param(raw.strip(), "offset", default=-1, low=-1)
            begin = _turn_start(events, max(after, 0))
            projection = AguiProjection(thread_id, run_id or f"{thread_id}:{begin}", after=after)
            return StreamingResponse(
                stream(session, projection, begin, []),
                media_type="text/event-stream",
                headers=HEADERS,
            )
        first = _latest_run(events)
        if first is None:
            return Response(status_code=204, headers=HEADERS)
        run_id = run_id or f"{thread_id}:{first}"
        projection = AguiProjection(thread_id, run_id, after=first - 1)
        opening: list[AguiEvent] = [RunStarted(thread_id=thread_id, run_id=run_id)]
        return StreamingResponse(
            stream(session, projection, _turn_start(events, first), opening),
            media_type="text/event-stream",
            headers=HEADERS,
        )

    return [
        Route("/v1/agui/{agent}", endpoint(run), methods=["POST"]),
        Route("/v1/agui/{agent}/{thread_id}/stream", endpoint(follow), methods=["GET"]),
    ]


def _request_of(event: SessionEvent) -> InputRequested | AuthorizationRequested | None:
    """The asking of a request, if `event` is one."""
    data = event.data
    return data if isinstance(data, InputRequested | AuthorizationRequested) else None


def _kind_of(events: list[SessionEvent], request_id: str) -> RequestKind | None:
    """The kind of a request the session asked (None: it never asked it)."""
    for event in events:
        asked = _request_of(event)
        if asked is not None and asked.request.request_id == request_id:
            return asked.request.kind
    return None


def _asks(event: SessionEvent, request_ids: set[str]) -> bool:
    """Whether `event` asks one of `request_ids` (the run that answers it begins there)."""
    asked = _request_of(event)
    return asked is not None and asked.request.request_id in request_ids


def _turn_start(events: list[SessionEvent], index: int) -> int:
    """The index of the ``turn.started`` at or before `index` (0 without one)."""
    for event in reversed(events):
        if event.index <= index and isinstance(event.data, TurnStarted):
            return event.index
    return 0


def _latest_run(events: list[SessionEvent]) -> int | None:
    """Where the session's latest run starts (None when the last one is over).

    A run in progress, or one parked on input (a reload learns its interrupts).
    """
    ends = [i for i, e in enumerate(events) if ends_run(e.data)]
    last = ends[-1] if ends else -1
    opens = (TurnStarted, TurnSteered, InputResolved)
    if any(isinstance(e.data, opens) for e in events[last + 1 :]):
        return events[last + 1].index
    if last >= 0 and isinstance(events[last].data, TurnWaiting):
        earlier = ends[-2] if len(ends) > 1 else -1
        return events[earlier + 1].index
    return None
