"""The session workflow: one durable run per session, turns as durable steps.

The run owns one inbox hook. `Session.send` admits the message into the ledger and
rings the inbox; answers and cancel requests arrive through it too. Because the
inbox's payloads are journaled in order, every replay of the body sees the same
commands at the same points. Waiting on the inbox parks the run: no worker and no
memory is held while a turn waits three days for an approval.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar, overload

from ..durable import Hook, RetryPolicy, WorkflowContext
from ..errors import StepFailedError
from ._inbox import inbox_token
from ._registry import TASK_WORKFLOW
from ._steps import SessionSteps

__all__ = ["ToolWorkflowContext", "run_session", "run_task"]

T = TypeVar("T")


class TurnUnwind(BaseException):
    """Unwinds a cancelled turn's workflow tools; `except Exception` cannot swallow it."""


_SUPERSEDED = {"approved": False, "reason": "superseded by a new message from the same user"}


async def run_session(
    ctx: WorkflowContext,
    steps: SessionSteps,
    session_id: str,
    owner: str | None = None,
    retention: Any = "default",
) -> dict[str, Any]:
    """The body of a session run: open, serve turns until closed, apply retention."""
    inbox = ctx.create_hook(token=inbox_token(session_id))
    turn: dict[str, Any] | None = None
    try:
        claim = await ctx.step(steps.open_session, ctx.run_id, session_id, name="open_session")
        while True:
            turn = await ctx.step(
                steps.begin_turn, ctx.run_id, session_id, claim, name="begin_turn"
            )
            if turn is None:
                # Park until a command arrives; stale ones only cost another look.
                command = await inbox.receive()
                if isinstance(command, dict) and command.get("kind") == "close":
                    break
                continue
            running = _Turn(ctx, steps, inbox, session_id, claim, turn)
            await running.run()
            turn = None
            if running.closing:
                break
    except StepFailedError as exc:
        # A step of the session itself (not of a turn) used its budget: the session
        # cannot go on. Say so, then fail the run.
        await ctx.step(steps.fail_session, ctx.run_id, turn, str(exc), name="fail_session")
        raise
    await ctx.step(
        steps.close_session, ctx.run_id, session_id, claim, retention, name="close_session"
    )
    deleted = retention == 0
    return {"closed": True, "retention": "deleted" if deleted else "kept"}


async def run_task(
    ctx: WorkflowContext,
    steps: SessionSteps,
    session_id: str,
    task: str,
    retention: Any = "default",
) -> str:
    """The body of a sub-agent task: one turn on its own session, returning its reply."""
    inbox = ctx.create_hook(token=inbox_token(session_id))
    await ctx.step(steps.admit_task, session_id, task, name="admit_task")
    claim = await ctx.step(steps.open_session, ctx.run_id, session_id, name="open_session")
    turn = await ctx.step(steps.begin_turn, ctx.run_id, session_id, claim, name="begin_turn")
    if turn is None:
        raise RuntimeError(f"the task of session {session_id!r} was not admitted")
    outcome = await _Turn(ctx, steps, inbox, session_id, claim, turn).run()
    if outcome != "completed":
        raise RuntimeError(f"the sub-agent's turn ended {outcome}")
    reply: str = await ctx.step(steps.final_reply, claim, turn, name="final_reply")
    return reply


class _Turn:
    def __init__(
        self,
        ctx: WorkflowContext,
        steps: SessionSteps,
        inbox: Hook,
        session_id: str,
        claim: dict[str, Any],
        turn: dict[str, Any],
    ) -> None:
        self.ctx = ctx
        self.steps = steps
        self.agent = steps.agent
        self.inbox = inbox
        self.session_id = session_id
        self.claim = claim
        self.turn = turn
        # Every durable step of the turn gets its own index: the `stepIndex` coordinate
        # of the events it emits, the same on each of its attempts. 0 is `begin_turn`.
        self.step_index = 1
        self.model_steps = 0
        self.closing = False
        self.retry = RetryPolicy(max_attempts=4, initial_delay=1.0, max_delay=30.0)

    def next_index(self) -> int:
        """The step index of the turn's next durable step."""
        index = self.step_index
        self.step_index += 1
        return index

    async def run(self) -> str:
        """Run the turn to its end; returns "completed", "failed" or "cancelled"."""
        outcome, error = "completed", None
        try:
            while True:
                if self.model_steps >= self.agent.max_steps_per_turn:
                    outcome = "failed"
                    error = (
                        f"the turn used its {self.agent.max_steps_per_turn} steps "
                        "(max_steps_per_turn) without finishing"
                    )
                    break
                result = await self.ctx.step(
                    self.steps.turn_step,
                    self.ctx.run_id,
                    self.session_id,
                    self.claim,
                    self.turn,
                    self.next_index(),
                    name="turn_step",
                    retry=self.retry,
                )
                self.model_steps += 1
                action = result["action"]
                if action == "done":
                    break
                if action == "cancelled":
                    outcome = "cancelled"
                    break
                if action == "held":
                    if await self._wait_for_approvals(result["requests"]) == "cancelled":
                        outcome = "cancelled"
                        break
                elif action == "park":
                    await self._run_workflow_tools(result["calls"])
        except TurnUnwind:
            outcome = "cancelled"
        except StepFailedError as exc:
            outcome, error = "failed", str(exc)
        await self.ctx.step(
            self.steps.end_turn,
            self.ctx.run_id,
            self.session_id,
            self.claim,
            self.turn,
            self.next_index(),
            outcome,
            error,
            name="end_turn",
        )
        return outcome

    async def _wait_for_approvals(self, requests: list[dict[str, Any]]) -> str:
        await self.ctx.step(
            self.steps.request_input,
            self.ctx.run_id,
            self.turn,
            self.next_index(),
            requests,
            name="request_input",
        )
        pending = {r["request_id"]: r for r in requests}
        while pending:
            command = await self.inbox.receive()
            kind = command.get("kind") if isinstance(command, dict) else None
            if kind == "answer" and command.get("request_id") in pending:
                request = pending.pop(command["request_id"])
                await self.ctx.step(
                    self.steps.record_approval,
                    self.ctx.run_id,
                    self.claim,
                    self.turn,
                    self.next_index(),
                    request,
                    command.get("answer"),
                    command.get("principal"),
                    name="record_approval",
                )
            elif kind in ("cancel", "close"):
                self.closing = self.closing or kind == "close"
                return "cancelled"
            elif kind == "message" and self.agent.turn_policy == "steer":
                principal = await self.ctx.step(
                    self.steps.check_principal,
                    command.get("submission_id"),
                    name="check_principal",
                )
                if principal is not None and principal == (self.turn.get("principal") or ""):
                    # The person the turn serves changed their mind: the pending
                    # approvals are revoked and the message steers the turn.
                    for request in pending.values():
                        await self.ctx.step(
                            self.steps.record_approval,
                            self.ctx.run_id,
                            self.claim,
                            self.turn,
                            self.next_index(),
                            request,
                            _SUPERSEDED,
                            command.get("principal"),
                            name="record_approval",
                        )
                    await self.ctx.step(
                        self.steps.join_messages,
                        self.ctx.run_id,
                        self.claim,
                        self.turn,
                        self.next_index(),
                        name="join_messages",
                    )
                    return "steered"
        return "resolved"

    async def _run_workflow_tools(self, calls: list[dict[str, Any]]) -> None:
        from ._tools import format_tool_error, format_tool_result

        for call in calls:
            tool = self.agent.tool(call["name"])
            assert tool is not None  # the step only parks on known tools
            context = ToolWorkflowContext(self, call)
            try:
                arguments = tool.validate(call["arguments"])
                value = await tool.fn(context, **arguments)
                content, is_error = format_tool_result(value), False
            except TurnUnwind:
                raise
            except Exception as exc:
                content, is_error = format_tool_error(exc), True
            await self.ctx.step(
                self.steps.record_tool_result,
                self.ctx.run_id,
                self.claim,
                self.turn,
                self.next_index(),
                call,
                content,
                is_error,
                name="record_tool_result",
            )


class ToolWorkflowContext:
    """What a ``@workflow_tool`` body gets: durable steps, questions, sleeps.

    The body is replayed like any workflow body, so it must be deterministic: side
    effects go in `step`.
    """

    def __init__(self, turn: _Turn, call: dict[str, Any]) -> None:
        self._turn = turn
        self._ctx = turn.ctx
        self.call_id: str = call["call_id"]
        self.session_id = turn.session_id
        self._questions = 0

    @property
    def idempotency_key(self) -> str:
        """``<session id>:<call id>``, stable across retries."""
        return f"{self.session_id}:{self.call_id}"

    @overload
    async def step(
        self,
        fn: Callable[..., Awaitable[T]],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> T: ...

    @overload
    async def step(
        self,
        fn: Callable[..., T],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> T: ...

    async def step(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run a durable step (see `WorkflowContext.step`)."""
        return await self._ctx.step(fn, *args, name=name, retry=retry, **kwargs)

    async def run_agent(self, agent: Any, task: str) -> str:
        """Run another hosted agent on `task` as a child run; returns its final reply.

        The turn waits on ``tasks`` meanwhile (parked: no worker, no memory).
        """
        turn = self._turn
        name = agent if isinstance(agent, str) else agent.name
        session_id = f"{self.session_id}.{self.call_id}"
        task_info = {"call_id": self.call_id, "agent": name, "task_session_id": session_id}
        await self._ctx.step(
            turn.steps.announce_tasks,
            self._ctx.run_id,
            turn.turn,
            turn.next_index(),
            [task_info],
            name="announce_tasks",
        )
        child = await self._ctx.start_child(
            TASK_WORKFLOW, name, session_id, task, run_id=f"task:{session_id}"
        )
        return str(await child.result())

    async def sleep(self, duration: float | timedelta | str) -> None:
        """Sleep durably; the session parks meanwhile."""
        await self._ctx.sleep(duration)

    async def ask(self, prompt: str, *, options: list[str] | None = None) -> Any:
        """Ask the session's user a question and wait (parked) for the answer.

        Args:
            prompt: The question.
            options: Allowed answers; None accepts free text.

        """
        self._questions += 1
        turn = self._turn
        request = {
            "request_id": f"ask:{self.call_id}:{self._questions}",
            "kind": "question",
            "prompt": prompt,
            "options": options,
            "call_id": self.call_id,
        }
        await self._ctx.step(
            turn.steps.request_input,
            self._ctx.run_id,
            turn.turn,
            turn.next_index(),
            [request],
            name="request_input",
        )
        while True:
            command = await turn.inbox.receive()
            kind = command.get("kind") if isinstance(command, dict) else None
            if kind == "answer" and command.get("request_id") == request["request_id"]:
                return await self._ctx.step(
                    turn.steps.record_question,
                    self._ctx.run_id,
                    turn.turn,
                    turn.next_index(),
                    request,
                    command.get("answer"),
                    command.get("principal"),
                    name="record_question",
                )
            if kind in ("cancel", "close"):
                turn.closing = turn.closing or kind == "close"
                raise TurnUnwind(f"turn {turn.turn['turn_id']!r} was cancelled")
