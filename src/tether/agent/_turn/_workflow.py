"""The session workflow: one durable run per session, turns as durable steps.

The run's body is a loop over turn steps. Between them it waits for its inbox hook
(idle, or parked for a human), or runs the workflow tools and sub-agents a step handed
it. Every decision comes from a step's journaled result, so every replay of the body
takes the same path; waiting parks the run (no worker, no memory held).

The inbox hook's token is random (the engine's default), and what rings it carries no
authority: clients write messages and commands to the ledger, where they are checked,
and only ring the bell.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from ...durable import Hook, RetryPolicy, WorkflowContext
from ...errors import StepFailedError, TranscriptLostError
from .._agent import Retention
from .._context._dynamic import DynamicEvent, handlers_on
from .._records._cursor import Cursor, ParkedResult, StepResult
from .._stored._line import SessionLine, read_line
from .._tools._tools import format_tool_error, format_tool_result
from ._dynamic_step import session_handlers
from ._steps import SessionSteps
from ._workflow_tools import ToolWorkflowContext, TurnUnwind

__all__ = ["TURN_RETRY", "run_session", "run_task"]

#: The retry policy of turn steps: 4 attempts, backoff from 1 s up to 30 s.
TURN_RETRY = RetryPolicy(max_attempts=4, initial_delay=1.0, max_delay=30.0)
#: The steps that settle a failure (its messages, its events). They are the last word
#: on work that spent its own budget: should faults cut them short four times too, the
#: run would end with its messages never settled. They are idempotent (a settled
#: message is not settled again), so they are tried until they land.
SETTLE_RETRY = RetryPolicy(max_attempts=1000, initial_delay=1.0, max_delay=30.0)


def _session_fatal(exc: StepFailedError) -> bool:
    return isinstance(exc.__cause__, TranscriptLostError) or "taken over" in str(exc)


def _reason(exc: StepFailedError) -> str:
    cause = exc.__cause__
    return str(cause) if cause is not None and str(cause) else str(exc)


async def _turn_step(
    ctx: WorkflowContext,
    steps: SessionSteps,
    cursor: Cursor,
    results: tuple[ParkedResult, ...],
    retention: Retention,
) -> StepResult:
    """One turn step; a step out of attempts fails its turn (or, if fatal, the session)."""
    try:
        return await ctx.step(
            steps.turn_step,
            cursor,
            results,
            name="turn_step",
            retry=TURN_RETRY,
            timeout=steps.agent.step_timeout,
            # It reads the transcript and the lanes while its start is committed.
            read_ahead=True,
        )
    except StepFailedError as exc:
        if _session_fatal(exc):
            await ctx.step(
                steps.fail_session,
                cursor,
                _reason(exc),
                retention,
                name="fail_session",
                retry=SETTLE_RETRY,
            )
            raise
        failed: StepResult = await ctx.step(
            steps.fail_turn, cursor, _reason(exc), name="fail_turn", retry=SETTLE_RETRY
        )
        return failed


async def _dynamic(
    ctx: WorkflowContext,
    steps: SessionSteps,
    cursor: Cursor,
    on: DynamicEvent,
    line: SessionLine | None,
    retention: Retention,
) -> Cursor:
    """Run the handlers of `on`, each as its own step (``dynamic.<name>``), in order.

    A handler that fails gives nothing and its step completes (see `_dynamic_step`); a
    step that cannot record its result within its attempts is passed over the same
    way, unless the session lost its transcript. On ``turn.started`` each step takes
    the turn's next step index.
    """
    if on == "session.started":
        handlers = session_handlers(steps.agent.dynamic, line)
    else:
        handlers = handlers_on(steps.agent.dynamic, on)
    for handler in handlers:
        try:
            await ctx.step(
                steps.dynamic, cursor, on, handler.name, line, name=f"dynamic.{handler.name}"
            )
        except StepFailedError as exc:
            if _session_fatal(exc):
                await ctx.step(
                    steps.fail_session,
                    cursor,
                    _reason(exc),
                    retention,
                    name="fail_session",
                    retry=SETTLE_RETRY,
                )
                raise
        if cursor.turn is not None:
            cursor = replace(cursor, turn=cursor.turn.next_step())
    return cursor


async def _open(
    ctx: WorkflowContext,
    steps: SessionSteps,
    session_id: str,
    owner: str | None,
    interactive: bool,
    inbox: str,
    line: SessionLine | None,
    retention: Retention,
) -> Cursor:
    """The `open_session` step; one out of attempts fails the session, settling its lanes.

    Without this, the messages admitted for the session would wait for a run that
    ended: their senders would never hear of them again.
    """
    try:
        cursor: Cursor = await ctx.step(
            steps.open_session, session_id, owner, interactive, inbox, line, name="open_session"
        )
    except StepFailedError as exc:
        reason = _reason(exc)
        fail = steps.fail_opening
        await ctx.step(
            fail,
            session_id,
            interactive,
            reason,
            retention,
            name="fail_session",
            retry=SETTLE_RETRY,
        )
        raise
    return cursor


async def run_session(
    ctx: WorkflowContext,
    steps: SessionSteps,
    session_id: str,
    owner: str | None = None,
    retention: Retention = "default",
    line: Any = None,
) -> dict[str, Any]:
    """The body of a session run: open, serve turns until closed, apply retention.

    A run that continues a session (`SessionLine`) adopts its inbox hook (moved to it
    with its token, never free) and writes the transcript generation it was given.
    """
    carried = read_line(line)
    token = carried.inbox
    if token is None and ctx.run_id != ctx.chain_id:
        # A successor whose line names no inbox (written by other code, or its inbox
        # key not one this release reads): the predecessor's inbox moved here with the
        # run, and clients ring it. Adopted, not replaced: a new hook beside it would be
        # one nobody rings, and the messages rung on the moved one would wait forever.
        token = await ctx.step(steps.moved_inbox, ctx.run_id, name="moved_inbox")
    inbox = ctx.create_hook(token=token) if token else ctx.create_hook()
    cursor = await _open(ctx, steps, session_id, owner, True, inbox.token, carried, retention)
    cursor = await _dynamic(ctx, steps, cursor, "session.started", carried, retention)
    results: tuple[ParkedResult, ...] = ()
    timeout = steps.agent.session_timeout
    # The deadline of the session's idle time: it counts from the idle point a turn (or
    # a command) reached, whatever follows while nothing happens: a compaction, a move
    # to the next run (whose line carries it), a wake-up that finds nothing to do.
    idle_deadline = carried.deadline
    while True:
        result = await _turn_step(ctx, steps, cursor, results, retention)
        cursor, results = result.cursor, ()
        if result.action == "closed":
            break
        if result.action == "dynamic":
            cursor = await _dynamic(ctx, steps, cursor, "turn.started", carried, retention)
            continue
        if timeout is None or result.action not in ("idle", "move"):
            idle_deadline = None
        elif idle_deadline is None or not result.quiet:
            # The turn step's end, on the run's clock.
            idle_deadline = ctx.now().timestamp() + timeout
        if result.action == "move":
            summary: str | None = None
            if result.reason == "compaction":
                summary = await ctx.step(steps.compact, cursor, name="compact")
                if summary is None:
                    # Not now (logged): the session stays idle, with its deadline;
                    # tried again when next idle.
                    if idle_deadline is None:
                        await inbox.wait_beyond(result.rings)
                    elif await _idle_until(ctx, steps, inbox, cursor, result.rings, idle_deadline):
                        break
                    continue
            following = replace(
                carried,
                generation=cursor.generation + 1,
                inbox=inbox.token,
                moved=result.reason,
                predecessor=None,
                summary=summary,
                deadline=idle_deadline,
            )
            if ctx.can_continue_as_new:
                # The rings the session accounted for stay behind: only later ones are
                # carried (else every ring ever sent would ride along, run after run).
                inbox.consume_through(result.rings)
                await ctx.continue_as_new(
                    steps.agent.name, session_id, owner, retention, following.to_json()
                )
            # The backend cannot move runs: the fresh transcript starts in this run.
            cursor = await _open(
                ctx, steps, session_id, owner, True, inbox.token, following, retention
            )
            continue
        if idle_deadline is not None:
            if await _idle_until(ctx, steps, inbox, cursor, result.rings, idle_deadline):
                break
        elif result.action in ("idle", "held"):
            # Parked until a ring the step could not have seen (a new message, a command).
            await inbox.wait_beyond(result.rings)
        elif result.action == "park":
            cursor, results = await run_parked(ctx, steps, inbox, cursor, result, retention)
    await ctx.step(steps.close_session, cursor, retention, name="close_session")
    return {"closed": True, "retention": "deleted" if retention == 0 else "kept"}


async def _idle_until(
    ctx: WorkflowContext,
    steps: SessionSteps,
    inbox: Hook,
    cursor: Cursor,
    rings: int,
    deadline: float,
) -> bool:
    """Wait for the inbox or the idle deadline (a durable timer); True: timed out."""
    remaining = deadline - ctx.now().timestamp()
    if remaining > 0:
        ring = asyncio.ensure_future(inbox.wait_beyond(rings))
        timer = asyncio.ensure_future(ctx.sleep(remaining))
        try:
            await asyncio.wait({ring, timer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (ring, timer):
                waiter.cancel()
            await asyncio.gather(ring, timer, return_exceptions=True)
    expired: bool = await ctx.step(steps.idle_expired, cursor, deadline, name="session_timeout")
    return expired


async def run_task(
    ctx: WorkflowContext,
    steps: SessionSteps,
    session_id: str,
    task: str,
    retention: Retention = "default",
) -> str:
    """The body of a sub-agent task: one turn on its own session, returning its reply."""
    inbox = ctx.create_hook()
    submission: str = await ctx.step(steps.admit_task, session_id, task, name="admit_task")
    cursor = await _open(ctx, steps, session_id, None, False, inbox.token, None, retention)
    cursor = await _dynamic(ctx, steps, cursor, "session.started", None, retention)
    results: tuple[ParkedResult, ...] = ()
    while True:
        result = await _turn_step(ctx, steps, cursor, results, retention)
        cursor, results = result.cursor, ()
        if cursor.turn is None:
            break
        if result.action == "dynamic":
            cursor = await _dynamic(ctx, steps, cursor, "turn.started", None, retention)
        elif result.action == "park":
            cursor, results = await run_parked(ctx, steps, inbox, cursor, result, retention)
        elif result.action == "held":
            await inbox.wait_beyond(result.rings)
    reply: str | None = await ctx.step(steps.final_reply, cursor, submission, name="final_reply")
    if reply is None:
        # Cancelled with the calling turn, which cancels this run too: wait for that
        # (the engine ends a parked run at once).
        await inbox.wait_beyond(result.rings + 1_000_000)
    return reply or ""


async def run_parked(
    ctx: WorkflowContext,
    steps: SessionSteps,
    inbox: Hook,
    cursor: Cursor,
    parked: StepResult,
    retention: Retention,
) -> tuple[Cursor, tuple[ParkedResult, ...]]:
    """Run the workflow tools (and sub-agents) the step `parked` parked on, in order.

    Returns the cursor (its step index moved past the steps they ran) and their results,
    which the next turn step records. A cancelled turn stops here: the next step finds
    the cancel in the ledger and ends the turn.
    """
    holder = _CursorHolder(cursor, parked.rings, dict(parked.state))
    results: list[ParkedResult] = []
    for call in parked.calls:
        tool = steps.agent.tool(call.name)
        assert tool is not None  # a step parks on known tools only
        context = ToolWorkflowContext(ctx, steps, inbox, holder, call, retention)
        try:
            arguments = tool.validate(call.arguments)
            value = await tool.fn(context, **arguments)
            change = context.state.pending()
            results.append(
                ParkedResult(
                    call_id=call.call_id,
                    name=call.name,
                    content=format_tool_result(value),
                    state_values={} if change is None else dict(change.values),
                    state_removed=() if change is None else change.removed,
                )
            )
            if change is not None:
                # The next tool of the park sees it, as the next step will.
                for key in change.removed:
                    holder.state.pop(key, None)
                holder.state.update(change.values)
        except TurnUnwind:
            break
        except Exception as exc:
            results.append(
                ParkedResult(
                    call_id=call.call_id,
                    name=call.name,
                    content=format_tool_error(exc),
                    is_error=True,
                )
            )
    return holder.cursor, tuple(results)


class _CursorHolder:
    """The cursor while workflow tools run, the rings their checks saw, and the state.

    Each step they take moves the cursor's step index. The state is the session's
    declared state (JSON values) with the changes of the tools that ran before.
    """

    def __init__(self, cursor: Cursor, rings: int, state: dict[str, Any]) -> None:
        self.cursor = cursor
        self.rings = rings
        self.state = state
