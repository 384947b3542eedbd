"""The turn step: one durable step of a session, up to `model_calls_per_step` model calls.

It reads the session's transcript and ledger lanes, then does what they call for:
close the session, begin a turn with the next message, record answers, withdraw a
parked turn's requests for a steering message of its principal, run the tools of a
reply, call the model, join messages at boundaries, and end the turn. Its writes land
with its checkpoints (a reply with tool calls is durable before the tools run) and its
completion; its result tells the session's body what to do next.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from ... import durable
from ...stores import ResolveSubmissions
from .._context._dynamic import handlers_on
from .._records._cursor import ParkedCall, ParkedResult, StepResult
from .._records._entries import AssistantEntry, StateEntry, ToolResultEntry
from .._records._event_data import (
    InputRequested,
    ToolCalled,
    ToolOutcome,
    ToolReturned,
    TurnWaiting,
)
from .._records._keys import task_run_id, task_session_id
from .._records._requests import TaskRef
from .._stored._payloads import offload_payload
from ._budget_call import EXCEEDED, Refusal, budget_declined, release_turn, reserve_call
from ._emitter import PART, boundary_part, tools_part
from ._model_call import call_model
from ._tool_runner import run_calls
from ._toolset import turn_tools
from ._tracing import adopt_turn
from ._turn_ops import (
    announce_idle,
    begin_turn,
    end_turn,
    join_messages,
    record_answers,
    resolve_stray,
    withdraw_requests,
)
from ._watch import Watch, joinable, wants_cancel
from ._work import StepWork

__all__ = ["run_turn_step"]

_REVOKED = "a new message from the principal the turn serves"


async def run_turn_step(work: StepWork, results: tuple[ParkedResult, ...]) -> StepResult:
    """Run one turn step (see the module docstring)."""
    # Read before the step's start is committed (`read_ahead`), and buffer; nothing else
    # until `step_started()`.
    await work.load()
    turn = work.turn
    if turn is None:
        mail = work.mail
        resolve_stray(work)
        head = mail.next_turn
        # A close or a clear takes effect between turns: before a queued message.
        between = head is None or head.status == "queued"
        closing = mail.close is not None and between
        clearing = not closing and mail.clear is not None and between
        if head is not None and not closing and not clearing:
            # `turn.started` is buffered now: it lands with the step's start, in one
            # write, before the model is called.
            turn = begin_turn(work, head, owner=f"run:{work.run_id}")
            adopt_turn(work)
        await durable.step_started()
        if closing:
            return await _close(work)
        if clearing:
            # The session moves to a fresh transcript before its next message (which
            # runs on the new one).
            assert mail.clear is not None
            work.write(
                ResolveSubmissions(submission_ids=(mail.clear.submission_id,), outcome="completed")
            )
            await work.finish()
            return StepResult(action="move", cursor=work.cursor, rings=work.rings, reason="clear")
        if turn is None:
            await work.finish()
            return StepResult(action="idle", cursor=work.cursor, rings=work.rings, quiet=True)
        await work.emitter.written()
        if handlers_on(work.agent.dynamic, "turn.started"):
            # The turn's handlers run next, each in its own step, before its first
            # model call (which a later turn step makes, at the next step index).
            await work.finish()
            cursor = replace(work.cursor, turn=turn.next_step())
            return StepResult(action="dynamic", cursor=cursor, rings=work.rings)
        # The write woke the event's followers (a server's feed, then each connection's
        # response): one turn of the loop lets them send it before building the model's
        # request holds the loop (an instant answer, its whole handling).
        await asyncio.sleep(0)
    else:
        adopt_turn(work)
        await durable.step_started()
        resolve_stray(work)
        if results:
            # Back from workflow tools (parked): what arrived meanwhile from others
            # waits for the turn's end.
            work.turn = replace(turn, parked_through=work.mail.last_sequence)
        await _record_parked(work, results)
    return await _advance(work)


async def _record_parked(work: StepWork, results: tuple[ParkedResult, ...]) -> None:
    turn = work.turn
    reply = work.last_reply()
    if turn is None or reply is None:
        return
    positions = {c.call_id: i for i, c in enumerate(reply.tool_calls)}
    done = {e.call_id for e in work.turn_entries() if isinstance(e, ToolResultEntry)}
    for result in results:
        if result.call_id in done or result.call_id not in positions:
            continue
        outcome: ToolOutcome = "error" if result.is_error else "ok"
        if not result.is_error and (result.state_values or result.state_removed):
            # Its state changes land with its result (one write): both or neither.
            entry = StateEntry(values=dict(result.state_values), removed=result.state_removed)
            changed = work.keep_entry(entry, result.call_id)
            work.emitter.emit(changed, tools_part(None), PART // 2 + positions[result.call_id])
        # A large result is stored once, by content: the entry and the event refer to it.
        stored = await offload_payload(
            work.runtime.stores, work.cursor.agent_name, work.cursor.session_id, result.content
        )
        work.record(
            ToolResultEntry(
                turn_id=turn.turn_id,
                call_id=result.call_id,
                name=result.name,
                content=result.content,
                is_error=result.is_error,
                outcome=outcome,
                content_ref=stored.content_ref,
            )
        )
        work.emitter.emit(
            ToolReturned(
                call_id=result.call_id,
                name=result.name,
                content=result.content,
                is_error=result.is_error,
                outcome=outcome,
                content_ref=stored.content_ref,
            ),
            tools_part(None),
            2 * positions[result.call_id] + 1,
        )


async def _close(work: StepWork) -> StepResult:
    """A close with no turn in progress: refuse what still waits, then end the session."""
    mail = work.mail
    assert mail.close is not None
    queued = [m.submission_id for m in mail.queued]
    if queued:
        work.write(
            ResolveSubmissions(
                submission_ids=tuple(queued),
                outcome="failed",
                error="the session was closed before this message ran",
            )
        )
    if mail.clear is not None:
        work.write(
            ResolveSubmissions(
                submission_ids=(mail.clear.submission_id,),
                outcome="failed",
                error="the session was closed",
            )
        )
    work.write(ResolveSubmissions(submission_ids=(mail.close.submission_id,), outcome="completed"))
    await work.finish()
    return StepResult(action="closed", cursor=work.cursor, rings=work.rings)


def _done(work: StepWork, part: int) -> StepResult:
    """After a turn ended: go on with the next message, or wait idle."""
    mail = work.mail
    joined = work.joined_ids()
    waiting = [m for m in mail.queued if m.submission_id not in joined]
    if waiting or mail.close is not None or mail.clear is not None:
        return StepResult(
            action="continue", cursor=replace(work.cursor, turn=None), rings=work.rings
        )
    announce_idle(work, part)
    cursor = replace(work.cursor, turn=None)
    compaction = work.agent.compaction
    if compaction is not None and cursor.interactive and compaction.due(work.entries):
        # Idle, with nothing waiting: the session compacts now (what arrives meanwhile
        # waits in the ledger for the new run).
        return StepResult(action="move", cursor=cursor, rings=work.rings, reason="compaction")
    return StepResult(action="idle", cursor=cursor, rings=work.rings)


def _next(work: StepWork, action: str) -> StepResult:
    turn = work.turn
    assert turn is not None
    cursor = replace(
        work.cursor, turn=replace(turn, step_index=turn.step_index + 1, steps=turn.steps + 1)
    )
    return StepResult(action=action, cursor=cursor, rings=work.rings)  # type: ignore[arg-type]


async def _advance(work: StepWork) -> StepResult:
    turn = work.turn
    assert turn is not None
    agent = work.agent
    mail = work.mail
    # A cancel, or a close while the turn waits for a human, ends it now.
    if wants_cancel(mail, turn) or (mail.close is not None and turn.requests):
        reason = "cancelled" if wants_cancel(mail, turn) else "the session was closed"
        end_turn(work, "cancelled", 0, reason=reason)
        result = _done(work, 0)
        await work.finish()
        return result
    if turn.steps >= agent.max_steps_per_turn:
        end_turn(
            work,
            "failed",
            0,
            error=f"the turn used its {agent.max_steps_per_turn} steps (max_steps_per_turn) "
            "without finishing",
        )
        result = _done(work, 0)
        await work.finish()
        return result
    if turn.requests:
        # The turn was parked: what arrived meanwhile from others waits for its end.
        work.turn = turn = replace(turn, parked_through=mail.last_sequence)
        record_answers(work)
        turn = work.turn
        assert turn is not None
        if turn.requests:
            steering = joinable(
                mail, turn, agent.turn_policy, parked=True, joined=work.joined_ids()
            )
            if not steering:
                await work.finish()
                return _next(work, "held")
            # The principal changed their mind: the requests are withdrawn and the
            # message steers the turn (its calls get "revoked" results first).
            withdraw_requests(work, _REVOKED)
            join_messages(work, steering, 0)
    async with Watch(work) as watch:
        return await _execute(work, watch)


async def _execute(work: StepWork, watch: Watch) -> StepResult:
    agent = work.agent
    turn = work.turn
    assert turn is not None
    # The turn's tools: its MCP servers' are listed (and recorded) by its first step.
    work.tools = await turn_tools(work)
    # What this step already recorded (in an earlier attempt): its model calls count
    # toward its budget, and their events keep their parts (see `_emitter`).
    mine = [
        e
        for e in work.turn_entries()
        if isinstance(e, AssistantEntry) and e.step_index == turn.step_index
    ]
    calls = len(mine)
    phase: int | None = mine[-1].call if mine else None

    def boundary() -> int:
        return boundary_part(phase)

    async def join_now() -> None:
        turn = work.turn
        assert turn is not None
        mail = await work.reread_mail()
        found = joinable(mail, turn, agent.turn_policy, parked=False, joined=work.joined_ids())
        join_messages(work, found, boundary())

    while True:
        turn = work.turn
        assert turn is not None
        reply = work.last_reply()
        if reply is not None and work.open_calls():
            outcome = await run_calls(work, reply, tools_part(phase), watch)
            if outcome.cancelled:
                return await _cancelled(work, tools_part(phase))
            if outcome.held:
                ids = tuple(dict.fromkeys([*turn.requests, *(r.request_id for r in outcome.held)]))
                # A turn already parked keeps its wait's start (one span, park to resume).
                parked_at = turn.parked_at if turn.requests else outcome.waiting_at
                work.turn = replace(turn, requests=ids, parked_at=parked_at)
                await work.finish()
                return _next(work, "held")
            if outcome.parked:
                _announce_parked(work, reply, outcome.parked, tools_part(phase))
                await work.finish()
                result = _next(work, "park")
                return replace(result, calls=tuple(outcome.parked), state=dict(work.stored_state()))
        if watch.cancelled.is_set():
            return await _cancelled(work, boundary())
        # A boundary: messages that may join do so now; the turn ends if the model had
        # the last word and nothing joined.
        if watch.steered.is_set():
            # The watcher saw a message that may join: it does so at this boundary.
            watch.steered.clear()
            await join_now()
            if wants_cancel(work.mail, turn):
                return await _cancelled(work, boundary())
        if work.finished():
            end_turn(work, "completed", boundary())
            result = _done(work, boundary())
            await work.finish()
            return result
        if calls == agent.model_calls_per_step:
            await work.finish()
            return _next(work, "continue")
        if budget_declined(work):
            return await _over_budget(work, None, boundary())
        refusal = await reserve_call(work, calls)
        if refusal is not None:
            return await _over_budget(work, refusal, boundary())
        try:
            entry = await call_model(work, calls, watch, join_now)
        except Exception:
            if work.budget_held:
                # The call failed: what it reserved goes back (a retry reserves again).
                await release_turn(work)
            raise
        if entry is None:
            return await _cancelled(work, boundary())
        phase, calls = calls, calls + 1


async def _cancelled(work: StepWork, part: int) -> StepResult:
    end_turn(work, "cancelled", part, reason="cancelled")
    result = _done(work, part)
    await work.finish()
    return result


async def _over_budget(work: StepWork, refusal: Refusal | None, part: int) -> StepResult:
    """A budget has no room for the next call: park for more (``ask``), or fail."""
    turn = work.turn
    assert turn is not None
    if refusal is not None and refusal.request is not None:
        request = refusal.request
        work.emitter.emit(InputRequested(request=request), part)
        work.emitter.emit(TurnWaiting(on="input", request_ids=(request.request_id,)), part)
        work.turn = replace(turn, requests=(*turn.requests, request.request_id))
        await work.finish()
        return _next(work, "held")
    error = (
        refusal.message
        if refusal is not None
        else "a budget had no room for the next model call, and its request for more was declined"
    )
    end_turn(work, "failed", part, error=error, code=EXCEEDED)
    result = _done(work, part)
    await work.finish()
    return result


def _announce_parked(
    work: StepWork, reply: AssistantEntry, parked: list[ParkedCall], part: int
) -> None:
    positions = {c.call_id: i for i, c in enumerate(reply.tool_calls)}
    tasks = []
    for call in parked:
        work.emitter.emit(
            ToolCalled(
                call_id=call.call_id, name=call.name, arguments=dict(call.arguments), workflow=True
            ),
            part,
            2 * positions.get(call.call_id, 0),
        )
        tool = work.agent.tool(call.name)
        sub = getattr(tool.fn, "__tether_agent__", None) if tool is not None else None
        if sub is not None:
            task_session = task_session_id(work.cursor.session_id, call.call_id)
            tasks.append(
                TaskRef(
                    call_id=call.call_id,
                    agent=sub.name,
                    task_session_id=task_session,
                    run_id=task_run_id(task_session),
                )
            )
    if tasks:
        work.emitter.emit(TurnWaiting(on="tasks", tasks=tuple(tasks)), part, PART - 1)
