"""Running the tool calls of one model reply inside a turn step.

Each call ends up answered (a result entry), held (it waits for an approval or an
authorization: an input request), or parked (a workflow tool or a sub-agent, which the
session's body runs). Calls that may run, run concurrently; a non-idempotent one is
marked started in the transcript before it runs, so a crash never runs it twice.
Results of calls that finish while others still run are made durable in the
background (coalesced), so a crash does not run them again either. A call whose
service cannot be reached (`ToolUnavailableError`) gets no result: the others' are
made durable and the step's attempt fails, to be retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from ... import durable
from ...errors import AuthorizationRequired, ToolArgumentsError, ToolUnavailableError
from .._records._cursor import ParkedCall
from .._records._entries import (
    AssistantEntry,
    AuthorizationEntry,
    ToolCallEntry,
    ToolResultEntry,
    ToolStartedEntry,
)
from .._records._event_data import (
    AuthorizationRequested,
    InputRequested,
    ToolCalled,
    ToolReturned,
    TurnWaiting,
)
from .._records._requests import InputRequest
from .._stored._payloads import offload_payload
from .._tools._oauth import OAuthAccess
from .._tools._tools import Tool, ToolContext, format_tool_error, format_tool_result
from ._emitter import PART
from ._tracing import tool_outage, tool_span
from ._watch import Watch
from ._work import StepWork

__all__ = [
    "ToolsOutcome",
    "approval_request_id",
    "authorization_request_id",
    "result_entry",
    "run_calls",
]


@dataclass(slots=True)
class ToolsOutcome:
    """How the calls of a reply stand after a step ran them."""

    held: list[InputRequest] = field(default_factory=list)
    parked: list[ParkedCall] = field(default_factory=list)
    cancelled: bool = False
    #: The time of the ``turn.waiting`` event announcing the held requests.
    waiting_at: float | None = None


def approval_request_id(call_id: str) -> str:
    """The request asking to approve a call."""
    return f"approve:{call_id}"


def authorization_request_id(call_id: str, n: int) -> str:
    """The `n`-th request (from 0) asking to authorize for a call."""
    return f"authorize:{call_id}:{n}"


def result_entry(
    turn_id: str,
    call: ToolCallEntry,
    content: str,
    *,
    is_error: bool,
    outcome: str | None = None,
    content_ref: str | None = None,
) -> ToolResultEntry:
    """The result entry of a call."""
    return ToolResultEntry(
        turn_id=turn_id,
        call_id=call.call_id,
        name=call.name,
        content=content,
        is_error=is_error,
        outcome=outcome or ("error" if is_error else "ok"),  # type: ignore[arg-type]
        content_ref=content_ref,
    )


@dataclass(slots=True)
class _Run:
    position: int
    call: ToolCallEntry
    tool: Tool
    arguments: dict[str, Any]


class _Calls:
    """The calls of one reply in one step, and what the step decided for each."""

    def __init__(self, work: StepWork, reply: AssistantEntry, part: int) -> None:
        assert work.turn is not None
        self.work = work
        self.turn = work.turn
        self.reply = reply
        self.part = part
        self.outcome = ToolsOutcome()
        entries = work.turn_entries()
        self.decisions = work.decisions()
        self.results = {e.call_id for e in entries if isinstance(e, ToolResultEntry)}
        self.started = {e.call_id for e in entries if isinstance(e, ToolStartedEntry)}
        self.auth: dict[str, list[AuthorizationEntry]] = {}
        for e in entries:
            if isinstance(e, AuthorizationEntry):
                self.auth.setdefault(e.call_id, []).append(e)
        self.runnable: list[_Run] = []
        self.outages: list[ToolUnavailableError] = []
        self._requests = 0

    def answer(
        self,
        position: int,
        call: ToolCallEntry,
        content: str,
        outcome: str,
        content_ref: str | None = None,
    ) -> None:
        is_error = outcome != "ok"
        entry = result_entry(
            self.turn.turn_id,
            call,
            content,
            is_error=is_error,
            outcome=outcome,
            content_ref=content_ref,
        )
        self.work.record(entry)
        self.results.add(call.call_id)
        self.work.emitter.emit(
            ToolReturned(
                call_id=call.call_id,
                name=call.name,
                content=content,
                is_error=is_error,
                outcome=entry.outcome,
                content_ref=content_ref,
            ),
            self.part,
            2 * position + 1,
        )

    def hold(
        self, request: InputRequest, *, new: bool, provider: str = "", url: str | None = None
    ) -> None:
        self.outcome.held.append(request)
        if not new:
            return
        index = 2 * len(self.reply.tool_calls) + self._requests
        self._requests += 1
        if request.kind == "authorization":
            data: Any = AuthorizationRequested(request=request, provider=provider, url=url)
        else:
            data = InputRequested(request=request)
        self.work.emitter.emit(data, self.part, index)

    def classify(self) -> None:
        for position, call in enumerate(self.reply.tool_calls):
            if call.call_id in self.results:
                continue
            tool = self.work.tools.get(call.name)
            if tool is None:
                known = self.work.tools.names()
                content = f"ToolError: unknown tool {call.name!r}; available: {known}"
                self.answer(position, call, content, "error")
                continue
            try:
                arguments = tool.validate(
                    call.arguments_json if call.parse_error else call.arguments
                )
            except ToolArgumentsError as exc:
                self.answer(position, call, format_tool_error(exc), "error")
                continue
            if not self._cleared(position, call, tool, arguments):
                continue
            if tool.is_workflow:
                self.outcome.parked.append(
                    ParkedCall(call_id=call.call_id, name=call.name, arguments=dict(call.arguments))
                )
                continue
            if (
                not tool.idempotent
                and call.call_id in self.started
                and not self._reauthorized(call)
            ):
                self.answer(
                    position,
                    call,
                    "Outcome unknown: the process running this tool stopped after it started "
                    "and before it returned; it was not run again.",
                    "unknown",
                )
                continue
            self.runnable.append(_Run(position, call, tool, arguments))

    def _cleared(
        self, position: int, call: ToolCallEntry, tool: Tool, arguments: dict[str, Any]
    ) -> bool:
        """Whether approvals and authorizations let the call run (else it is answered or held)."""
        work, turn = self.work, self.turn
        approve_id = approval_request_id(call.call_id)
        decision = self.decisions.get(approve_id)
        if decision is not None and not decision.approved:
            reason = decision.reason or "denied"
            if reason.startswith("revoked"):
                content = f"This call was withdrawn before it ran ({reason})."
                self.answer(position, call, content, "revoked")
            elif reason.startswith("cancelled"):
                self.answer(position, call, f"This call was cancelled ({reason}).", "cancelled")
            else:
                self.answer(
                    position, call, f"The user did not approve this call ({reason}).", "denied"
                )
            return False
        if decision is None and tool.requires_approval(arguments):
            if not work.cursor.interactive:
                self.answer(
                    position,
                    call,
                    "The user did not approve this call (a sub-agent's calls cannot wait for "
                    "an approval).",
                    "denied",
                )
                return False
            request = InputRequest(
                request_id=approve_id,
                kind="approval",
                turn_id=turn.turn_id,
                principal=turn.principal,
                tool_name=call.name,
                call_id=call.call_id,
                approvers=tuple(work.agent.approvers),
                data={"arguments": dict(call.arguments)},
            )
            self.hold(request, new=approve_id not in work.known_requests)
            return False
        asked = self.auth.get(call.call_id)
        if asked:
            last = asked[-1]
            verdict = self.decisions.get(last.request_id)
            if verdict is None:
                self.hold(self._auth_request(call, last.request_id, None), new=False)
                return False
            if not verdict.approved:
                self.answer(
                    position,
                    call,
                    f"The user did not authorize this call ({verdict.reason or 'declined'}).",
                    "denied",
                )
                return False
        return True

    def _reauthorized(self, call: ToolCallEntry) -> bool:
        # A tool that asked for authorization had not acted: once authorized it runs again.
        asked = self.auth.get(call.call_id)
        return asked is not None and self.decisions.get(asked[-1].request_id) is not None

    def _auth_request(
        self, call: ToolCallEntry, request_id: str, auth: AuthorizationRequired | None
    ) -> InputRequest:
        data: dict[str, Any] = {}
        if auth is not None:
            data = {"provider": auth.provider, "url": auth.url}
        return InputRequest(
            request_id=request_id,
            kind="authorization",
            turn_id=self.turn.turn_id,
            principal=self.turn.principal,
            tool_name=call.name,
            call_id=call.call_id,
            prompt=str(auth) if auth is not None else None,
            approvers=tuple(self.work.agent.approvers),
            data=data,
        )

    def _oauth(self, run: _Run) -> OAuthAccess | None:
        providers = run.tool.auth
        if not providers:
            return None
        # The request an AuthorizationRequired from this run becomes (see `_one`): the
        # pending authorization names it, so the callback answers that one.
        n = len(self.auth.get(run.call.call_id, ()))
        return OAuthAccess(
            stores=self.work.runtime.stores,
            agent=self.work.agent.name,
            session_id=self.work.cursor.session_id,
            principal=self.turn.principal,
            tool_name=run.call.name,
            providers=providers,
            request_id=authorization_request_id(run.call.call_id, n),
        )

    async def run(self, watch: Watch | None) -> None:
        """Run the runnable calls at once; a cancel stops those still running."""
        if not self.runnable:
            return
        work = self.work
        # Each tool's service is reached first (an MCP server connects): one that cannot
        # be fails the attempt here, before any call is marked started, so its retry
        # runs them all. The reply (and the answers given so far) are made durable
        # first: the retry runs the calls, it does not ask the model again.
        tools = list({id(run.tool): run.tool for run in self.runnable}.values())
        try:
            await asyncio.gather(*(t._prepare() for t in tools))
        except ToolUnavailableError:
            await work.checkpoint()
            raise
        for run in self.runnable:
            if not run.tool.idempotent:
                work.record(ToolStartedEntry(turn_id=self.turn.turn_id, call_id=run.call.call_id))
            work.emitter.emit(
                ToolCalled(
                    call_id=run.call.call_id, name=run.call.name, arguments=dict(run.call.arguments)
                ),
                self.part,
                2 * run.position,
            )
        # The reply and the started marks are durable before any tool acts.
        await work.checkpoint()
        sink = _ResultSink(work, len(self.runnable))
        tasks = [asyncio.ensure_future(self._one(run, sink)) for run in self.runnable]
        cancel_wait: asyncio.Future[Any] | None = None
        if watch is not None:
            cancel_wait = asyncio.ensure_future(watch.cancelled.wait())
        try:
            pending: set[asyncio.Future[Any]] = set(tasks)
            while pending:
                waiting = pending | ({cancel_wait} if cancel_wait is not None else set())
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                pending -= done
                if cancel_wait is not None and cancel_wait in done:
                    self.outcome.cancelled = True
                    for task in pending:
                        task.cancel()
                    await asyncio.gather(*pending, return_exceptions=True)
                    break
        finally:
            if cancel_wait is not None:
                cancel_wait.cancel()
        await sink.drain()
        if self.outages and not self.outcome.cancelled:
            # The results of the calls that ran are made durable, then the attempt fails
            # for the outage: its retry runs only the calls still without a result (a
            # non-idempotent one that had started gets "outcome unknown").
            await work.checkpoint()
            tool_outage(len(self.outages))
            raise self.outages[0]

    async def _one(self, run: _Run, sink: _ResultSink) -> None:
        work, turn = self.work, self.turn
        view = work.state_view()
        context = ToolContext(
            session_id=work.cursor.session_id,
            call_id=run.call.call_id,
            turn_id=turn.turn_id,
            attempt=durable.step_info().attempt,
            state=view,
            oauth=self._oauth(run),
        )
        timeout = run.tool.timeout or work.agent.tool_timeout
        # A call under a limit waits for its permit first: its timeout counts from then.
        limit = run.tool.limit
        permit = durable.step_limit(limit) if limit else contextlib.nullcontext()
        try:
            async with permit, asyncio.timeout(timeout):
                with tool_span(run.call.name, run.call.call_id):
                    value = await run.tool.invoke(
                        run.arguments, context, run_sync=durable.to_thread
                    )
            content, outcome = format_tool_result(value), "ok"
        except AuthorizationRequired as auth:
            if not work.cursor.interactive:
                content = (
                    f"ToolError: AuthorizationRequired: {auth} (a sub-agent cannot wait for "
                    "an authorization)"
                )
                self.answer(run.position, run.call, content, "error")
                sink.done()
                return
            n = len(self.auth.get(run.call.call_id, ()))
            request_id = authorization_request_id(run.call.call_id, n)
            work.record(
                AuthorizationEntry(
                    turn_id=turn.turn_id, call_id=run.call.call_id, request_id=request_id
                )
            )
            self.hold(
                self._auth_request(run.call, request_id, auth),
                new=True,
                provider=auth.provider,
                url=auth.url,
            )
            sink.done()
            return
        except ToolUnavailableError as outage:
            # Not the model's to see: the step is retried (see `run`).
            self.outages.append(outage)
            sink.done()
            return
        except TimeoutError:
            content = (
                f"ToolError: TimeoutError: the tool did not finish within {timeout:g} s "
                "(timed out); it was stopped"
            )
            outcome = "error"
        except Exception as exc:
            content, outcome = format_tool_error(exc), "error"
        if outcome == "ok":
            # Its state changes land with its result (one write): both or neither.
            changed = work.keep_state(view, run.call.call_id)
            if changed is not None:
                # Above the indexes of the part's calls, results and requests.
                work.emitter.emit(changed, self.part, PART // 2 + run.position)
        # A large result is stored once, by content: the entry and the event refer to it.
        stored = await offload_payload(
            work.runtime.stores, work.cursor.agent_name, work.cursor.session_id, content
        )
        self.answer(run.position, run.call, content, outcome, stored.content_ref)
        sink.done()


class _ResultSink:
    """Makes results durable while other calls of the reply still run (coalesced)."""

    def __init__(self, work: StepWork, total: int) -> None:
        self._work = work
        self._left = total
        self._flushing: asyncio.Task[None] | None = None

    def done(self) -> None:
        self._left -= 1
        if self._left > 0 and (self._flushing is None or self._flushing.done()):
            self._flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        # One loop turn lets results finishing together share the checkpoint.
        await asyncio.sleep(0)
        if self._left > 0:
            await self._work.checkpoint()

    async def drain(self) -> None:
        task = self._flushing
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def run_calls(
    work: StepWork, reply: AssistantEntry, part: int, watch: Watch | None
) -> ToolsOutcome:
    """Answer, hold, park or run every open call of `reply`."""
    calls = _Calls(work, reply, part)
    calls.classify()
    await calls.run(watch)
    if calls.outcome.held and not calls.outcome.cancelled:
        ids = tuple(r.request_id for r in calls.outcome.held)
        calls.outcome.waiting_at = time.time()
        work.emitter.emit(
            TurnWaiting(on="input", request_ids=ids), part, PART - 1, at=calls.outcome.waiting_at
        )
    return calls.outcome
