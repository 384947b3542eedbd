"""The Vercel AI SDK UI message stream protocol over tether sessions (`useChat`).

``useChat({transport: new DefaultChatTransport({api: BASE + "/v1/ui/aisdk/chat"})})``
talks to a session unchanged: the chat id is the session id (opened for the caller's
tenant on first use), a user message is sent with its message id as
``client_message_id``, answered tool approvals (``addToolApprovalResponse``) become
`Session.answer` calls, and ``resume: true`` reconnects to the turn in progress
(``GET .../chat/{id}/stream``, a replay of the turn from its start).

The projection keeps no state of its own: every response is computed from the
session's durable event stream, from an index.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from ._attachments import message_attachments
from ._models import ID_PATTERN
from ._problems import ApiProblem, problem_of, problem_response

if TYPE_CHECKING:
    from ._app import _Api

__all__ = ["aisdk_routes", "ui_parts"]

ID_PATTERN_RE = re.compile(ID_PATTERN)
HEADERS = {
    "x-vercel-ai-ui-message-stream": "v1",
    "Cache-Control": "no-store",
    "X-Accel-Buffering": "no",
}


class ChatBody(BaseModel):
    """What `DefaultChatTransport` posts (extra members are the app's own)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(pattern=ID_PATTERN)
    messages: list[dict[str, Any]] = Field(min_length=1)
    trigger: str | None = None
    messageId: str | None = None
    agent: str | None = None


class _Projection:
    """Turns session events (wire JSON) into UI message chunks, one turn at a time."""

    def __init__(self) -> None:
        self.started = False
        self.step_open = False
        self.text_id: str | None = None
        self.texts = 0
        self.turn_id: str | None = None
        self.announced: set[str] = set()

    def _open(self, turn_id: str | None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if not self.started:
            self.started = True
            self.turn_id = turn_id
            start: dict[str, Any] = {"type": "start"}
            if turn_id:
                start["messageId"] = turn_id
            out.append(start)
        if not self.step_open:
            self.step_open = True
            out.append({"type": "start-step"})
        return out

    def _close_text(self) -> list[dict[str, Any]]:
        if self.text_id is None:
            return []
        text_id, self.text_id = self.text_id, None
        return [{"type": "text-end", "id": text_id}]

    def _finish(self, reason: str | None) -> list[dict[str, Any]]:
        out = self._close_text()
        if self.step_open:
            self.step_open = False
            out.append({"type": "finish-step"})
        finish: dict[str, Any] = {"type": "finish"}
        if reason is not None:
            finish["finishReason"] = reason
        out.append(finish)
        return out

    def parts(self, event: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """The chunks of one event, and whether the response ends after them."""
        kind: str = event["type"]
        data: dict[str, Any] = event.get("data") or {}
        turn_id = (event.get("meta") or {}).get("turnId")
        if kind in ("session.started", "session.waiting", "turn.steered", "input.resolved"):
            return [], False
        if kind == "turn.started":
            return self._open(turn_id), False
        if kind == "message.delta":
            out = self._open(turn_id)
            if self.text_id is None:
                self.texts += 1
                self.text_id = f"{turn_id}-text-{self.texts}"
                out.append({"type": "text-start", "id": self.text_id})
            out.append({"type": "text-delta", "id": self.text_id, "delta": data.get("text", "")})
            return out, False
        if kind == "message.completed":
            out = self._open(turn_id)
            text = data.get("text") or ""
            if self.text_id is None and text:
                self.texts += 1
                self.text_id = f"{turn_id}-text-{self.texts}"
                out.append({"type": "text-start", "id": self.text_id})
                out.append({"type": "text-delta", "id": self.text_id, "delta": text})
            out.extend(self._close_text())
            return out, False
        if kind == "tool.call":
            out = [*self._open(turn_id), *self._close_text()]
            if data["call_id"] in self.announced:
                return out, False
            self.announced.add(data["call_id"])
            out.append(
                {
                    "type": "tool-input-available",
                    "toolCallId": data["call_id"],
                    "toolName": data["name"],
                    "input": data.get("arguments") or {},
                    "dynamic": True,
                }
            )
            return out, False
        if kind == "tool.result":
            out = self._open(turn_id)
            outcome = data.get("outcome", "ok")
            if outcome == "denied":
                out.append({"type": "tool-output-denied", "toolCallId": data["call_id"]})
            elif data.get("is_error"):
                out.append(
                    {
                        "type": "tool-output-error",
                        "toolCallId": data["call_id"],
                        "errorText": data.get("content") or outcome,
                        "dynamic": True,
                    }
                )
            else:
                out.append(
                    {
                        "type": "tool-output-available",
                        "toolCallId": data["call_id"],
                        "output": data.get("content"),
                        "dynamic": True,
                    }
                )
            return out, False
        if kind in ("input.requested", "authorization.required"):
            request = data.get("request") or {}
            out = [*self._open(turn_id), *self._close_text()]
            if request.get("kind") == "approval" and request.get("call_id"):
                call_id = request["call_id"]
                if call_id not in self.announced:
                    # A call that needs approval is announced by its request: the UI
                    # shows the call, then asks.
                    self.announced.add(call_id)
                    out.append(
                        {
                            "type": "tool-input-available",
                            "toolCallId": call_id,
                            "toolName": request.get("tool_name") or "tool",
                            "input": (request.get("data") or {}).get("arguments") or {},
                            "dynamic": True,
                        }
                    )
                out.append(
                    {
                        "type": "tool-approval-request",
                        "approvalId": request["request_id"],
                        "toolCallId": request["call_id"],
                    }
                )
            else:
                # Questions and authorizations have no UI part of their own: a data part
                # carries the request (answer it with POST .../requests/{id}/answer).
                out.append(
                    {"type": "data-tether-input", "id": request.get("request_id"), "data": data}
                )
            return out, False
        if kind == "turn.waiting":
            return [*self._open(turn_id), *self._finish(None)], True
        if kind == "turn.completed":
            return [*self._open(turn_id), *self._finish("stop")], True
        if kind == "turn.cancelled":
            out = [*self._open(turn_id), *self._close_text()]
            out.append({"type": "abort", "reason": data.get("reason") or "cancelled"})
            return out, True
        if kind == "turn.failed":
            out = [*self._open(turn_id), *self._close_text()]
            out.append({"type": "error", "errorText": data.get("error") or "the turn failed"})
            out.extend(self._finish("error"))
            return out, True
        if kind in ("session.closed", "session.failed"):
            return self._finish("other") if self.started else [], True
        return [], False


def ui_parts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The UI message chunks of session events (wire JSON), up to the end of a response."""
    projection = _Projection()
    out: list[dict[str, Any]] = []
    for event in events:
        parts, end = projection.parts(event)
        out.extend(parts)
        if end:
            break
    return out


def _sse(part: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(part) + b"\n\n"


def aisdk_routes(api: _Api) -> list[Route]:
    """The adapter's routes on the app's API object."""

    async def stream_from(
        run_id: str, start: int, opened: bool = False, announced: frozenset[str] = frozenset()
    ) -> AsyncIterator[bytes]:
        projection = _Projection()
        projection.started = opened
        # Calls the client's message already holds (answered approvals) are not repeated.
        projection.announced.update(announced)
        try:
            async for event in api.feeds.follow(run_id, start):
                parts, end = projection.parts(orjson.loads(event.json))
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
            except ApiProblem:
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
                stream_from(session.run_id, start, opened, frozenset(announced)),
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
            session = await api.session(request.path_params["chat_id"], principal)
            events = await session.read_events()
            turn_start: int | None = None
            for event in events:
                if event.type == "turn.started":
                    turn_start = event.index
                elif event.type in (
                    "turn.completed",
                    "turn.failed",
                    "turn.cancelled",
                    "session.closed",
                    "session.failed",
                ):
                    turn_start = None
            if turn_start is None:
                return Response(status_code=204)
            return StreamingResponse(
                stream_from(session.run_id, turn_start),
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
