"""The Vercel AI SDK UI message stream protocol over tether sessions (`useChat`).

``useChat({transport: new DefaultChatTransport({api: BASE + "/v1/ui/aisdk/chat"})})``
talks to a session unchanged: the chat id is the session id (opened for the caller's
tenant on first use), a user message is sent with its message id as
``client_message_id``, answered tool approvals (``addToolApprovalResponse``) become
`Session.answer` calls, and ``resume: true`` reconnects to the turn in progress
(``GET .../chat/{id}/stream``, a replay of the turn from its start).

The projection (`tether.server._aisdk_projection`) keeps no state of its own: every
response is computed from the session's durable event stream, from an index. An agent
that declares session state (`State`) sends its values as a ``data-tether-state`` part
just before the turn's last part.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ..agent import (
    Session,
    SessionClosed,
    SessionFailed,
    TurnCancelled,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
)
from ._aisdk_parts import StatePart, UiPart
from ._aisdk_projection import UiProjection
from ._attachments import message_attachments
from ._models import ID_PATTERN, ChatBody, is_id
from ._problems import ApiProblem, problem_of, problem_response
from ._wire_events import UnknownTypes

if TYPE_CHECKING:
    from ._api import _Api

__all__ = ["aisdk_routes"]

ID_PATTERN_RE = re.compile(ID_PATTERN)
HEADERS = {
    "x-vercel-ai-ui-message-stream": "v1",
    "Cache-Control": "no-store",
    "X-Accel-Buffering": "no",
}


def _sse(part: UiPart) -> bytes:
    return b"data: " + orjson.dumps(part.to_json()) + b"\n\n"


def aisdk_routes(api: _Api) -> list[Route]:
    """The adapter's routes on the app's API object."""

    async def stream_from(
        session: Session,
        start: int,
        opened: bool = False,
        announced: frozenset[str] = frozenset(),
    ) -> AsyncIterator[bytes]:
        # Calls the client's message already holds (answered approvals) are not repeated.
        projection = UiProjection(opened=opened, announced=announced)
        unknown = UnknownTypes("AI SDK")
        declares = bool(api.host.agents.get(session.agent_name).state_keys())
        try:
            async for event in api.feeds.follow(session.run_id, start):
                if event.event is None:
                    unknown.skip(event.type)
                    continue
                parts, end = projection.parts(event.event)
                if end and declares:
                    # The declared state as the turn ends, before the message's last part.
                    values = (await session.state_values()).to_json()
                    parts = [*parts[:-1], StatePart(data=values), *parts[-1:]]
                for part in parts:
                    yield _sse(part)
                if end:
                    break
        finally:
            yield b"data: [DONE]\n\n"

    async def chat(request: Request) -> Response:
        try:
            principal = await api.principal(request)
            options = api.options
            limit = options.max_body_bytes + 2 * options.max_attachment_bytes
            body = await api.body(request, ChatBody, limit)
            agent = body.agent or request.query_params.get("agent")
            if agent is None:
                names = api.host.agents.names()
                if len(names) != 1:
                    raise ApiProblem(422, "invalid_input", f"name the agent: one of {names}")
                agent = names[0]
            if agent not in api.host.agents:
                raise ApiProblem(422, "invalid_input", f"no agent {agent!r}")
            try:
                session = await api.session(body.id, principal)
            except ApiProblem as refused:
                if refused.status != 404:  # its own session, expired
                    raise
                if await api.exists(body.id):
                    raise ApiProblem(404, "not_found", f"no session {body.id!r}") from None
                session = await api.host.open_session(
                    agent, session_id=body.id, owner=principal.tenant
                )
                api.remember(body.id, agent, principal.tenant)
            last = body.messages[-1]
            start = await api.tail(session)
            if last.get("role") == "user":
                text = "".join(
                    str(p.get("text", ""))
                    for p in last.get("parts") or []
                    if isinstance(p, dict) and p.get("type") == "text"
                )
                message_id = last.get("id")
                if not isinstance(message_id, str) or not message_id:
                    message_id = None
                elif not ID_PATTERN_RE.fullmatch(message_id):
                    raise ApiProblem(422, "invalid_input", "message ids are [A-Za-z0-9._:-]")
                files = await message_attachments(api, session, last, message_id)
                await session.send(
                    text, client_message_id=message_id, principal=principal.id, attachments=files
                )
                opened = False
                announced: set[str] = set()
            else:
                answered = 0
                announced = set()
                for part in last.get("parts") or []:
                    approval = part.get("approval") if isinstance(part, dict) else None
                    if (
                        isinstance(approval, dict)
                        and part.get("state") == "approval-responded"
                        and isinstance(approval.get("id"), str)
                    ):
                        answer: Any = "approve" if approval.get("approved") else "deny"
                        if approval.get("reason"):
                            answer = {
                                "approved": bool(approval.get("approved")),
                                "reason": str(approval["reason"]),
                            }
                        await session.answer(approval["id"], answer, principal=principal.id)
                        answered += 1
                        if isinstance(part.get("toolCallId"), str):
                            announced.add(part["toolCallId"])
                if not answered:
                    raise ApiProblem(
                        422,
                        "invalid_input",
                        "the last message is neither a user message nor "
                        "an assistant message with approval responses",
                    )
                opened = True
            return StreamingResponse(
                stream_from(session, start, opened, frozenset(announced)),
                media_type="text/event-stream",
                headers=HEADERS,
            )
        except Exception as exc:
            problem = problem_of(exc)
            if problem is None:
                raise
            return problem_response(problem)

    async def resume(request: Request) -> Response:
        try:
            principal = await api.principal(request)
            chat_id = request.path_params["chat_id"]
            try:
                session = await api.session(chat_id, principal)
            except ApiProblem as refused:
                # A chat with no session yet (useChat resumes as it mounts, before the
                # first message opens one) has no turn in progress; so, for the caller,
                # has another tenant's.
                if refused.status == 404 and is_id(chat_id):
                    return Response(status_code=204)
                raise
            events = await session.read_events()
            turn_start: int | None = None
            for event in events:
                match event.data:
                    case TurnStarted():
                        turn_start = event.index
                    case (
                        TurnCompleted()
                        | TurnFailed()
                        | TurnCancelled()
                        | SessionClosed()
                        | SessionFailed()
                    ):
                        turn_start = None
                    case _:
                        pass
            if turn_start is None:
                return Response(status_code=204)
            return StreamingResponse(
                stream_from(session, turn_start),
                media_type="text/event-stream",
                headers=HEADERS,
            )
        except Exception as exc:
            problem = problem_of(exc)
            if problem is None:
                raise
            return problem_response(problem)

    return [
        Route("/v1/ui/aisdk/chat", chat, methods=["POST"]),
        Route("/v1/ui/aisdk/chat/{chat_id}/stream", resume, methods=["GET"]),
    ]
