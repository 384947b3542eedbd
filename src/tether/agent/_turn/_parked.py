"""Steps of a turn parked in a workflow tool: announce a question, and look what changed.

The session's body waits for whatever the tool waits for (an answer, a timer, a
sub-agent) and for its inbox at once. Whichever comes first, a `check_parked` step
decides from durable facts only (the ledger lanes, the clock, the child's status), so a
replay, which may find both ready, takes the same branch as the first run: the body
acts on the step's journaled verdict, never on which wait won.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ... import durable
from ..._names import journaled
from ...durable import Client
from ...errors import NotFoundError
from ...stores import (
    TERMINAL_RUN_STATUSES,
    AttemptRef,
    ResolveSubmissions,
    SettleSubmission,
    SubmissionInput,
)
from .._records._cursor import Cursor, TurnState
from .._records._event_data import InputRequested, InputResolved, TurnWaiting
from .._records._keys import COMMANDS_LANE, cancel_id, task_submission_id, turn_id_of
from .._records._requests import InputRequest
from .._stored._mail import Mail, read_mail
from ._emitter import PART, Emitter
from ._parked_gauge import label_parked
from ._tracing import timer_wait_ended, traced, wait_ended

if TYPE_CHECKING:
    from .._agent import Agent
    from ._runtime import SessionRuntime

__all__ = ["Deadline", "Question", "Task", "Verdict", "check_parked", "request_input"]


@journaled("agent.Question")
@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """Waiting for the answer to a question."""

    request_id: str
    #: When the turn parked on it (its ``turn.waiting`` event's time; None in runs
    #: journaled before it was kept): the start of the wait's span.
    since: float | None = None


@journaled("agent.Deadline")
@dataclass(frozen=True, slots=True, kw_only=True)
class Deadline:
    """Waiting for a durable timer (Unix time it is due)."""

    at: float
    #: When the sleep began (the workflow's clock; None in runs journaled before it was
    #: kept) and the tool call that sleeps: the wait's span.
    since: float | None = None
    call_id: str = ""


@journaled("agent.Task")
@dataclass(frozen=True, slots=True, kw_only=True)
class Task:
    """Waiting for a sub-agent's task run."""

    run_id: str
    task_session_id: str
    agent: str
    #: The tool call that runs it (empty in runs journaled before it was kept).
    call_id: str = ""


@journaled("agent.Verdict")
@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """What a `check_parked` step found.

    The wait is ``done``, goes on (``wait``), or the turn was cancelled (``cancel``: a
    task it waited for is cancelled with it).
    """

    action: Literal["done", "wait", "cancel"]
    answer: Any = None
    by: str | None = None
    rings: int = 0


def _emitter(cursor: Cursor) -> Emitter:
    turn = cursor.turn
    assert turn is not None
    return Emitter(turn.turn_id, turn.step_index)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Work:
    """What the wait's span reads of a `check_parked` step (see `_tracing.StepWork`)."""

    turn: TurnState | None
    mail: Mail
    agent: Agent
    cursor: Cursor


async def request_input(runtime: SessionRuntime, cursor: Cursor, request: InputRequest) -> float:
    """Announce a question of a workflow tool, and that the turn waits for it.

    Returns the time the turn parked (journaled: the wait's span starts there).
    """
    events = _emitter(cursor)
    events.emit(InputRequested(request=request))
    at = time.time()
    events.emit(TurnWaiting(on="input", request_ids=(request.request_id,)), 0, PART - 1, at=at)
    # Before the step commits: a retry labels again (see `_parked_gauge`).
    await label_parked(runtime.client, durable.step_info().run_id, 1, at)
    return at


async def _question_over(
    runtime: SessionRuntime, cursor: Cursor, mail: Mail, wait: Question, at: float, outcome: str
) -> None:
    """A workflow tool's question no longer parks its turn: its span, its run's labels."""
    turn = cursor.turn
    assert turn is not None
    if wait.since is not None:
        work = _Work(turn=turn, mail=mail, agent=runtime.agent, cursor=cursor)
        wait_ended(work, turn, "input", wait.since, at, outcome, (wait.request_id,))
    await label_parked(runtime.client, durable.step_info().run_id, 0, None)


async def _timer_over(
    runtime: SessionRuntime, cursor: Cursor, mail: Mail, wait: Deadline | Task, outcome: str
) -> None:
    """A durable sleep or a sub-agent's task no longer parks its turn: its wait's span."""
    if not traced():
        return  # nothing to emit: not even the task's run is read
    work = _Work(turn=cursor.turn, mail=mail, agent=runtime.agent, cursor=cursor)
    if isinstance(wait, Deadline):
        if wait.since is not None:
            span = (wait.since, time.time())
            extra = {"tether.wait.until": wait.at}
            timer_wait_ended(work, "sleep", wait.call_id, span, outcome, extra)
        return
    if not wait.call_id:
        return  # journaled before the call was kept: no span
    try:
        info = await (await runtime.client.get(wait.run_id, follow=False)).info()
    except NotFoundError:
        return
    span = (info.created_at.timestamp(), time.time())
    found = {"tether.task.run_id": wait.run_id, "tether.task.agent": wait.agent}
    timer_wait_ended(work, "task", wait.call_id, span, outcome, found)


async def _cancel_task(client: Client, task: Task) -> None:
    try:
        await (await client.get(task.run_id)).cancel("the calling turn was cancelled")
    except NotFoundError:
        pass


async def check_parked(
    runtime: SessionRuntime, cursor: Cursor, wait: Question | Deadline | Task
) -> Verdict:
    """Look whether the wait is over, or the turn was cancelled."""
    turn = cursor.turn
    assert turn is not None
    rings = durable.hook_received(cursor.inbox) if cursor.inbox else 0
    mail = await read_mail(runtime.stores, runtime.agent.name, cursor.session_id)
    cancel = mail.cancels.get(turn.turn_id)
    # A close cancels a parked turn too.
    if cancel is not None or mail.close is not None:
        if isinstance(wait, Task):
            child = task_submission_id(wait.task_session_id)
            child_turn = turn_id_of(child)
            # A task parked is cancelled at once with its run; one running stops at its
            # next commit, and its turn sees this cancel (it stops its model and tools).
            await runtime.stores.submissions.admit_direct(
                SubmissionInput(
                    submission_id=cancel_id(wait.task_session_id, child_turn),
                    agent_name=wait.agent,
                    instance_id=wait.task_session_id,
                    session=COMMANDS_LANE,
                    payload={"kind": "cancel", "turn_id": child_turn, "principal": None},
                    canonical_ready=True,
                )
            )
            await _cancel_task(runtime.client, wait)
            # The task's message settles with it, whichever ends it first.
            durable.commit_with_step(
                SettleSubmission(
                    attempt=AttemptRef(submission_id=child, attempt_id=child_turn),
                    outcome="aborted",
                    error="the calling turn was cancelled",
                ),
                ResolveSubmissions(submission_ids=(child,), outcome="aborted"),
            )
        if isinstance(wait, Question):
            await _question_over(runtime, cursor, mail, wait, time.time(), "cancelled")
        else:
            await _timer_over(runtime, cursor, mail, wait, "cancelled")
        return Verdict(action="cancel", rings=rings)
    if isinstance(wait, Question):
        found = mail.answer_of(wait.request_id)
        if found is None:
            return Verdict(action="wait", rings=rings)
        answer, by = found
        now = time.time()
        _emitter(cursor).emit(
            InputResolved(request_id=wait.request_id, answer=answer, by=by), at=now
        )
        await _question_over(runtime, cursor, mail, wait, now, "answered")
        durable.commit_with_step(
            ResolveSubmissions(
                submission_ids=(mail.answers[wait.request_id].submission_id,), outcome="completed"
            )
        )
        return Verdict(action="done", answer=answer, by=by, rings=rings)
    if isinstance(wait, Deadline):
        if time.time() < wait.at:
            return Verdict(action="wait", rings=rings)
        await _timer_over(runtime, cursor, mail, wait, "elapsed")
        return Verdict(action="done", rings=rings)
    try:
        status = await (await runtime.client.get(wait.run_id)).status()
    except NotFoundError:
        return Verdict(action="wait", rings=rings)
    if status not in TERMINAL_RUN_STATUSES:
        return Verdict(action="wait", rings=rings)
    await _timer_over(runtime, cursor, mail, wait, str(status))
    return Verdict(action="done", rings=rings)
