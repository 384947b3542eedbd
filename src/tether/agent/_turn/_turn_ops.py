"""The moves of a turn that change its ledger, transcript and events together.

Begin a turn, join messages into it, record answers, withdraw requests, and end it
(completed, cancelled or failed). Each adds transcript entries, ledger writes and
events to the step's `StepWork`; they land with its next checkpoint or its completion.
Ending a turn answers every call it left open, so no later model request holds an
unanswered tool call.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from ...stores import (
    AttemptRef,
    JoinSubmissions,
    ResolveSubmissions,
    SettleSubmission,
    StartSubmission,
)
from .._records._cursor import TurnState
from .._records._entries import ApprovalEntry, TurnEndEntry, UserEntry
from .._records._event_data import (
    InputResolved,
    SessionWaiting,
    ToolReturned,
    TurnCancelled,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    TurnSteered,
)
from .._records._keys import turn_id_of
from .._records._usage import turn_usage
from .._stored._mail import MessageView
from ._emitter import Emitter
from ._tool_runner import result_entry
from ._tracing import turn_ended, turn_start, wait_ended
from ._work import StepWork

__all__ = [
    "announce_idle",
    "approved",
    "attempt_of",
    "begin_turn",
    "end_turn",
    "join_messages",
    "record_answers",
    "resolve_stray",
    "withdraw_requests",
]


def attempt_of(turn: TurnState) -> AttemptRef:
    """The turn's hold on its submission (its attempt is the turn id: one per turn)."""
    return AttemptRef(submission_id=turn.submission_id, attempt_id=turn.turn_id)


def approved(answer: Any) -> bool:
    """Whether an answer to an approval or an authorization says yes."""
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        return answer.strip().lower() in ("approve", "approved", "yes", "y", "ok", "allow")
    if isinstance(answer, Mapping):
        for key in ("approved", "authorized", "approve"):
            if key in answer:
                return bool(answer[key])
    return False


def _reason(answer: Any) -> str | None:
    if isinstance(answer, Mapping) and isinstance(answer.get("reason"), str):
        return str(answer["reason"])
    return None


def begin_turn(
    work: StepWork, message: MessageView, owner: str, *, announce: bool = True
) -> TurnState:
    """Begin a turn for `message` (the step that begins it has step index 0).

    `announce=False` emits no `turn.started`: an attempt of the step already did.
    """
    turn = TurnState(
        turn_id=turn_id_of(message.submission_id),
        submission_id=message.submission_id,
        principal=message.principal,
        policy=work.agent.turn_policy,
        started_at=turn_start(),
    )
    work.turn = turn
    work.emitter = Emitter(turn.turn_id, turn.step_index)
    work.write(StartSubmission(attempt=attempt_of(turn), owner_id=owner))
    if message.submission_id not in work.joined_ids():
        work.record(
            UserEntry(
                turn_id=turn.turn_id,
                submission_id=message.submission_id,
                text=message.text,
                principal=message.principal,
                attachments=message.attachments,
            )
        )
    if not announce:
        return turn
    # At once: the turn's first event must not wait for the model (nor for the step's
    # end, with a fast one).
    work.emitter.emit_now(
        TurnStarted(
            submission_id=message.submission_id,
            text=message.text,
            principal=message.principal,
            attachments=message.attachments,
        ),
        0,
        0,
    )
    return turn


def join_messages(work: StepWork, messages: Iterable[MessageView], part: int) -> int:
    """Join queued messages into the turn (steering); returns how many."""
    turn = work.turn
    assert turn is not None
    present = work.joined_ids()
    joined = [m for m in messages if m.submission_id not in present]
    for message in joined:
        work.record(
            UserEntry(
                turn_id=turn.turn_id,
                submission_id=message.submission_id,
                text=message.text,
                principal=message.principal,
                attachments=message.attachments,
            )
        )
        work.emitter.emit_live(
            TurnSteered(
                submission_id=message.submission_id,
                text=message.text,
                principal=message.principal,
                attachments=message.attachments,
            ),
            part,
        )
    if joined:
        work.write(
            JoinSubmissions(
                host=attempt_of(turn), submission_ids=tuple(m.submission_id for m in joined)
            )
        )
    return len(joined)


def _call_of(request_id: str) -> str:
    # approve:<call id> and authorize:<call id>:<n>
    return request_id.split(":", 2)[1] if ":" in request_id else request_id


def record_answers(work: StepWork) -> None:
    """Record the admitted answers to the turn's pending approvals and authorizations."""
    turn = work.turn
    assert turn is not None
    left = []
    # One time for the step's resolutions: the last one ends the turn's wait.
    now = time.time()
    for request_id in turn.requests:
        found = work.mail.answer_of(request_id)
        if found is None:
            left.append(request_id)
            continue
        answer, by = found
        work.record(
            ApprovalEntry(
                turn_id=turn.turn_id,
                call_id=_call_of(request_id),
                request_id=request_id,
                approved=approved(answer),
                by=by,
                reason=_reason(answer),
            )
        )
        work.emitter.emit(InputResolved(request_id=request_id, answer=answer, by=by), 0, at=now)
        work.write(
            ResolveSubmissions(
                submission_ids=(work.mail.answers[request_id].submission_id,), outcome="completed"
            )
        )
    work.turn = replace(turn, requests=tuple(left))
    if not left:
        _wait_over(work, turn, now, "answered")


def _wait_over(work: StepWork, parked: TurnState, at: float, outcome: str) -> None:
    """The turn waits for no request any more: its wait's span, from park to `at`."""
    assert work.turn is not None
    work.turn = replace(work.turn, parked_at=None)
    if parked.parked_at is not None and parked.requests:
        wait_ended(work, parked, "input", parked.parked_at, at, outcome)


def withdraw_requests(work: StepWork, reason: str, outcome: str = "revoked") -> None:
    """Withdraw the turn's pending requests (a steering message, a cancel)."""
    turn = work.turn
    assert turn is not None
    now = time.time()
    for request_id in turn.requests:
        work.record(
            ApprovalEntry(
                turn_id=turn.turn_id,
                call_id=_call_of(request_id),
                request_id=request_id,
                approved=False,
                reason=f"{outcome}: {reason}",
            )
        )
        work.emitter.emit(
            InputResolved(request_id=request_id, outcome=outcome),  # type: ignore[arg-type]
            0,
            at=now,
        )
    work.turn = replace(turn, requests=())
    _wait_over(work, turn, now, outcome)


def resolve_stray(work: StepWork, keep: Iterable[str] = ()) -> None:
    """Settle commands that no longer apply, except those in `keep`.

    Answers to requests that are not pending, cancels of turns that ended, and
    commands the run does not know.
    """
    kept = set(keep)
    turn = work.turn
    stray = []
    for request_id, sub in work.mail.answers.items():
        if turn is None or request_id not in turn.requests:
            stray.append(sub.submission_id)
    for turn_id, sub in work.mail.cancels.items():
        if turn is None or turn_id != turn.turn_id:
            stray.append(sub.submission_id)
    stray.extend(s.submission_id for s in work.mail.stray)
    stray = [s for s in stray if s not in kept]
    if stray:
        work.write(
            ResolveSubmissions(
                submission_ids=tuple(stray),
                outcome="failed",
                error="it no longer applied when the session read it",
            )
        )


def end_turn(
    work: StepWork,
    outcome: str,
    part: int,
    *,
    error: str | None = None,
    reason: str | None = None,
    code: str | None = None,
) -> None:
    """End the turn: answer its open calls, settle it, record and announce its end."""
    turn = work.turn
    assert turn is not None
    if outcome != "completed":
        why = reason or error or outcome
        result_outcome = "cancelled" if outcome == "cancelled" else "error"
        text = (
            f"This call was cancelled with its turn ({why})."
            if outcome == "cancelled"
            else f"The turn failed before this call returned ({why})."
        )
        reply = work.last_reply()
        open_ids = {c.call_id for c in work.open_calls()}
        for call in reply.tool_calls if reply is not None else ():
            if call.call_id not in open_ids:
                continue
            work.record(
                result_entry(turn.turn_id, call, text, is_error=True, outcome=result_outcome)
            )
            work.emitter.emit(
                ToolReturned(
                    call_id=call.call_id,
                    name=call.name,
                    content=text,
                    is_error=True,
                    outcome=result_outcome,  # type: ignore[arg-type]
                ),
                part,
            )
        if turn.requests:
            withdraw_requests(work, why, "cancelled")
    settled = {"completed": "completed", "cancelled": "aborted"}.get(outcome, "failed")
    work.write(SettleSubmission(attempt=attempt_of(turn), outcome=settled, error=error or reason))  # type: ignore[arg-type]
    cancel = work.mail.cancels.get(turn.turn_id)
    if cancel is not None:
        work.write(ResolveSubmissions(submission_ids=(cancel.submission_id,), outcome="completed"))
    work.record(TurnEndEntry(turn_id=turn.turn_id, outcome=outcome, error=error or reason))  # type: ignore[arg-type]
    turn_ended(work, outcome, error or reason)
    if outcome == "completed":
        usage = turn_usage(work.entries, turn.turn_id)
        work.emitter.emit(TurnCompleted(submission_id=turn.submission_id, usage=usage), part)
    elif outcome == "cancelled":
        work.emitter.emit(TurnCancelled(submission_id=turn.submission_id, reason=reason), part)
    else:
        work.emitter.emit(
            TurnFailed(
                submission_id=turn.submission_id, error=error or "failed", terminal=False, code=code
            ),
            part,
        )
    work.turn = None


def announce_idle(work: StepWork, part: int) -> None:
    """The session has nothing to do: say so."""
    work.emitter.emit(SessionWaiting(), part)
