"""The AG-UI projection of a session's events (wire JSON) onto AG-UI events.

See `tether.server._agui` for the routes; this is the pure part, tested on its own.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["RUN_ENDS", "AguiProjection", "agui_events"]

#: Session events that end an AG-UI run (besides ``turn.waiting`` on input).
RUN_ENDS = frozenset(
    {"turn.completed", "turn.failed", "turn.cancelled", "session.closed", "session.failed"}
)


def _interrupt(request: dict[str, Any], kind: str) -> dict[str, Any]:
    """The AG-UI interrupt of a pending tether request (its wire JSON)."""
    tether: dict[str, Any] = {"kind": request.get("kind") or "question"}
    out: dict[str, Any] = {"id": request["request_id"]}
    if request.get("kind") == "approval":
        out["reason"] = "tool_call" if request.get("call_id") else "confirmation"
        if request.get("call_id"):
            out["toolCallId"] = request["call_id"]
        out["message"] = f"Approve {request.get('tool_name') or 'this action'}?"
        out["responseSchema"] = {
            "type": "object",
            "properties": {"approved": {"type": "boolean"}, "reason": {"type": "string"}},
            "required": ["approved"],
        }
        tether.update(
            toolName=request.get("tool_name"),
            arguments=(request.get("data") or {}).get("arguments"),
        )
    elif kind == "authorization.required" or request.get("kind") == "authorization":
        out["reason"] = "input_required"
        out["message"] = request.get("prompt") or "Authorize the connection, then resume."
        out["responseSchema"] = {
            "type": "object",
            "properties": {"authorized": {"const": True}},
            "required": ["authorized"],
        }
        data = request.get("data") or {}
        tether.update(kind="authorization", provider=data.get("provider"), url=data.get("url"))
    else:
        out["reason"] = "input_required"
        if request.get("prompt"):
            out["message"] = request["prompt"]
        answer: dict[str, Any] = {"type": "string"}
        if request.get("options"):
            answer["enum"] = list(request["options"])
        out["responseSchema"] = {
            "type": "object",
            "properties": {"answer": answer},
            "required": ["answer"],
        }
        if request.get("call_id"):
            out["toolCallId"] = request["call_id"]
    # tether's requests do not expire (no expiresAt): they wait for their answer.
    tether.update(principal=request.get("principal"), approvers=request.get("approvers") or [])
    out["metadata"] = {"tether": {k: v for k, v in tether.items() if v is not None}}
    return out


class AguiProjection:
    """Session events (wire JSON, in index order) -> AG-UI events, for one run.

    Every event is folded into the projection's state; events are emitted only once
    the run is *armed*: every marker seen (``sub:<submission id>`` matches the
    ``turn.started``/``turn.steered`` of a message, ``req:<request id>`` the
    ``input.resolved`` of an answer) and the event's index past `after`. Feeding it
    from the turn's ``turn.started`` rebuilds what a dropped stream had already
    shown (open text, announced calls, pending requests), so a continuation from
    any index goes on exactly where the stream stopped.

    Args:
        thread_id: The AG-UI thread (the session id).
        run_id: The AG-UI run id, echoed in ``RUN_FINISHED``.
        markers: Keys that must all be seen before anything is emitted.
        after: Nothing at or before this index is emitted.
    """

    def __init__(
        self,
        thread_id: str,
        run_id: str,
        *,
        markers: frozenset[str] = frozenset(),
        after: int = -1,
    ) -> None:
        self.thread_id = thread_id
        self.run_id = run_id
        self.waiting = set(markers)
        self.after = after
        self.armed = False
        self.text: tuple[str, Any, Any] | None = None  # (message id, step, attempt)
        self.parent: str | None = None  # the reply's text message, for its tool calls
        self.step: str | None = None
        self.next_step: str | None = None
        self.announced: set[str] = set()
        self.requests: dict[str, tuple[dict[str, Any], str]] = {}

    def _close_text(self) -> list[dict[str, Any]]:
        if self.text is None:
            return []
        message_id, self.text = self.text[0], None
        return [{"type": "TEXT_MESSAGE_END", "messageId": message_id}]

    def _close_step(self) -> list[dict[str, Any]]:
        out = self._close_text()
        if self.step is not None:
            out.append({"type": "STEP_FINISHED", "stepName": self.step})
        self.step = self.next_step = None
        return out

    def _announce(self, call_id: str, name: str, arguments: Any) -> list[dict[str, Any]]:
        if call_id in self.announced:
            return []
        self.announced.add(call_id)
        start: dict[str, Any] = {
            "type": "TOOL_CALL_START",
            "toolCallId": call_id,
            "toolCallName": name,
        }
        if self.parent is not None:
            start["parentMessageId"] = self.parent
        return [
            *self._close_text(),
            start,
            {
                "type": "TOOL_CALL_ARGS",
                "toolCallId": call_id,
                "delta": orjson.dumps(arguments or {}).decode(),
            },
            {"type": "TOOL_CALL_END", "toolCallId": call_id},
        ]

    def _finished(self, outcome: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            *self._close_step(),
            {
                "type": "RUN_FINISHED",
                "threadId": self.thread_id,
                "runId": self.run_id,
                "outcome": outcome,
            },
        ]

    def feed(self, event: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """The AG-UI events of one session event, and whether the run ends with it."""
        kind: str = event["type"]
        data: dict[str, Any] = event.get("data") or {}
        meta: dict[str, Any] = event.get("meta") or {}
        index: int = event.get("index", 0)
        if kind in ("turn.started", "turn.steered") and data.get("submission_id"):
            self.waiting.discard("sub:" + data["submission_id"])
        elif kind == "input.resolved":
            self.waiting.discard("req:" + str(data.get("request_id")))
        elif kind in RUN_ENDS:
            # No request outlives its turn (a workflow tool's question may end with it
            # unresolved, when the turn is cancelled).
            self.waiting = {m for m in self.waiting if not m.startswith("req:")}
        if not self.armed and not self.waiting and index > self.after:
            self.armed = True
            if self.after < 0:
                # A new run: the client saw nothing of what came before.
                self.text = self.step = self.next_step = self.parent = None
        head: list[dict[str, Any]] = []
        step_index = meta.get("stepIndex")
        if step_index is not None and kind not in RUN_ENDS and kind != "turn.waiting":
            # A durable step of the turn is an AG-UI step, opened by its first event
            # that shows something.
            name = f"{meta.get('turnId')}/step-{step_index}"
            if name not in (self.step, self.next_step):
                head.extend(self._close_step())
                self.parent = None
                self.next_step = name
        out: list[dict[str, Any]] = []
        end = False
        if kind == "message.delta":
            coords = (step_index, meta.get("attempt"))
            if self.text is not None and self.text[1:] != coords:
                # Another attempt streams the reply again: a message of its own.
                out.extend(self._close_text())
            if self.text is None:
                message_id = f"{self.thread_id}:{index}"
                self.text = (message_id, *coords)
                self.parent = message_id
                out.append(
                    {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"}
                )
            out.append(
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": self.text[0], "delta": data["text"]}
            )
        elif kind == "message.completed":
            if self.text is None and data.get("text"):
                message_id = f"{self.thread_id}:{index}"
                self.parent = message_id
                out.append(
                    {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"}
                )
                out.append(
                    {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": data["text"]}
                )
                out.append({"type": "TEXT_MESSAGE_END", "messageId": message_id})
            out.extend(self._close_text())
        elif kind == "tool.call":
            out.extend(self._announce(data["call_id"], data["name"], data.get("arguments")))
        elif kind == "tool.result":
            out.extend(self._close_text())
            tether = {"outcome": data.get("outcome", "ok"), "isError": bool(data.get("is_error"))}
            out.append(
                {
                    "type": "TOOL_CALL_RESULT",
                    "messageId": f"{data['call_id']}:result",
                    "toolCallId": data["call_id"],
                    "content": data.get("content") or "",
                    "role": "tool",
                    "metadata": {"tether": tether},
                }
            )
        elif kind in ("input.requested", "authorization.required"):
            request = data.get("request") or {}
            if kind == "authorization.required":
                request = {**request, "data": {**(request.get("data") or {}), **data}}
            self.requests[request["request_id"]] = (request, kind)
            if request.get("kind") == "approval" and request.get("call_id"):
                # A call that needs approval is shown by its request: the UI shows the
                # call, then the interrupt that asks about it.
                arguments = (request.get("data") or {}).get("arguments")
                name = request.get("tool_name") or "tool"
                out.extend(self._announce(request["call_id"], name, arguments))
        elif kind == "input.resolved":
            self.requests.pop(str(data.get("request_id")), None)
        elif kind == "turn.waiting" and data.get("on") == "input":
            interrupts = [
                _interrupt(*self.requests[r])
                if r in self.requests
                else {"id": r, "reason": "input_required"}
                for r in data.get("request_ids") or []
            ]
            out.extend(self._finished({"type": "interrupt", "interrupts": interrupts}))
            end = True
        elif kind == "turn.completed":
            out.extend(self._finished({"type": "success"}))
            end = True
        elif kind in ("turn.cancelled", "session.closed"):
            out.extend(self._finished({"type": "cancelled"}))
            end = True
        elif kind in ("turn.failed", "session.failed"):
            out.extend(self._close_step())
            code = kind.replace(".", "_")
            message = data.get("error") or f"the {kind.split('.')[0]} failed"
            out.append({"type": "RUN_ERROR", "message": message, "code": code})
            end = True
        if out and not end and self.step is None and self.next_step is not None:
            self.step, self.next_step = self.next_step, None
            head.append({"type": "STEP_STARTED", "stepName": self.step})
        if not self.armed:
            if end:
                self.requests.clear()
            return [], False
        return head + out, end

    def ended(self) -> list[dict[str, Any]]:
        """What ends a stream whose session events stopped before the run's end."""
        return [
            *self._close_step(),
            {
                "type": "RUN_ERROR",
                "message": "the session's event stream ended before the run did",
                "code": "stream_ended",
            },
        ]


def agui_events(
    events: list[dict[str, Any]], thread_id: str = "t", run_id: str = "r"
) -> list[dict[str, Any]]:
    """The AG-UI events of session events (wire JSON), up to the run's end."""
    projection = AguiProjection(thread_id, run_id)
    out: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id}]
    for event in events:
        parts, end = projection.feed(event)
        out.extend(parts)
        if end:
            return out
    return out + projection.ended()
