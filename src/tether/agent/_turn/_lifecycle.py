"""The steps that open and end a session, fail a turn, and carry a sub-agent's task."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ... import durable
from ...errors import FatalError
from ...stores import (
    AttemptRef,
    ResolveSubmissions,
    SettleSubmission,
    StreamIdentity,
    SubmissionInput,
)
from .._agent import Retention
from .._context._values import fold_state, settle_state
from .._records._cursor import Cursor, Producer, StepAction, StepResult
from .._records._entries import AssistantEntry, ContextEntry, StateEntry, TurnEndEntry
from .._records._event_data import (
    SessionClosed,
    SessionFailed,
    SessionMoved,
    SessionStarted,
    TurnFailed,
)
from .._records._events import EVENTS_STREAM, decode_event
from .._records._keys import conversation_path, task_submission_id, turn_id_of
from .._stored._line import SessionLine
from .._stored._mail import read_mail, settle_lanes
from .._stored._retention import purge_session
from .._stored._transcript import Transcript
from ._dynamic_step import carried_instructions
from ._emitter import Emitter
from ._turn_ops import announce_idle, begin_turn, end_turn, resolve_stray
from ._work import StepWork

log = logging.getLogger("tether.agent")

if TYPE_CHECKING:
    from ._runtime import SessionRuntime

__all__ = [
    "admit_task",
    "close_session",
    "fail_opening",
    "fail_session",
    "fail_turn",
    "final_reply",
    "open_session",
    "shared_state",
]


async def open_session(
    runtime: SessionRuntime,
    session_id: str,
    owner: str | None,
    interactive: bool,
    inbox: str,
    line: SessionLine | None = None,
    state: Mapping[str, Any] | None = None,
) -> Cursor:
    """Create the transcript (idempotent), take its production, announce the session.

    A run that continues the session (`SessionLine.moved`) announces the move instead
    of a start; a transcript that opens with context (a compaction's summary) gets it
    as its first entry. (A reset session's predecessor history is given by the
    ``session.started`` handlers that run next, each in its own step.)
    """
    stores, agent = runtime.stores, runtime.agent
    conflict = runtime.declared.conflict
    if conflict is not None:
        # Two declarations of a state key: it cannot open (no retry fixes that).
        raise FatalError(str(conflict)) from conflict
    line = line or SessionLine()
    path = conversation_path(agent.name, session_id, line.generation)
    # Created if missing and its production taken, in one write.
    claim = await stores.conversations.acquire_producer(
        path,
        f"session:{session_id}",
        create=StreamIdentity(agent_name=agent.name, instance_id=session_id),
    )
    producer = Producer(
        path=path,
        producer_id=claim.producer_id,
        epoch=claim.producer_epoch,
        incarnation=claim.incarnation,
    )
    if interactive:
        emitter = Emitter(None, None)
        if line.moved is not None:
            emitter.emit(
                SessionMoved(
                    reason=line.moved,
                    run_id=durable.step_info().run_id,
                    deployment=runtime.deployment,
                    generation=line.generation,
                )
            )
        else:
            emitter.emit(
                SessionStarted(
                    session_id=session_id,
                    agent=agent.name,
                    owner=owner,
                    predecessor=line.predecessor,
                )
            )
    context = _opening_context(line)
    # A deploy hand-off reads what it was handed under this code's declarations; a
    # clear or a compaction carries the state to its fresh transcript, and the
    # instructions its session.started handlers gave (they do not run again).
    carry = line.moved == "deploy" or (line.moved is not None and bool(runtime.declared.keys))
    instructed = line.moved is not None and any(d.on == "session.started" for d in agent.dynamic)
    # A sub-agent's task opens with the values its caller shares (`Agent.as_tool`).
    seeded = {k: v for k, v in (state or {}).items() if k in runtime.declared.keys}
    if context is not None or carry or instructed or seeded:
        transcript = Transcript(stores, path, producer, runtime.transcript_cache)
        entries = await transcript.entries()
        opening: list[Any] = []
        # A fresh transcript only: an earlier attempt of this step appended nothing (its
        # append rides on the completion), a moved run's transcript may hold more.
        if context is not None and not entries:
            opening.append(context)
        if seeded and not entries:
            opening.append(StateEntry(values=seeded))
        if carry:
            opening.extend(await _carried_state(runtime, session_id, line, entries))
        if instructed:
            opening.extend(await carried_instructions(runtime, session_id, line, entries))
        if opening:
            appended = transcript.append(opening)
            durable.commit_with_step(appended)
            durable.after_commit(functools.partial(transcript.landed, appended))
    return Cursor(
        session_id=session_id,
        agent_name=agent.name,
        owner=owner,
        producer=producer,
        interactive=interactive,
        inbox=inbox,
        generation=line.generation,
    )


async def idle_expired(runtime: SessionRuntime, cursor: Cursor, deadline: float) -> bool:
    """Whether the session's idle timeout passed with no message or command waiting.

    Decided in a step (journaled), so a replay takes the same way whichever of the
    timer and the inbox it sees first.
    """
    mail = await read_mail(runtime.stores, runtime.agent.name, cursor.session_id)
    if mail.messages or mail.command_ids:
        return False
    return time.time() >= deadline


async def compact(runtime: SessionRuntime, cursor: Cursor) -> str | None:
    """Compact the transcript (the agent's `Compaction`); None when it failed.

    A failure is logged ``session handoff failed`` and the session stays where it is;
    it is tried again at its next idle point.
    """
    compaction = runtime.agent.compaction
    if compaction is None:
        return None
    try:
        entries = await Transcript(
            runtime.stores, cursor.producer.path, cache=runtime.transcript_cache
        ).entries()
        return await compaction.compact(entries, runtime.model)
    except Exception as exc:
        log.warning(
            "session handoff failed: session %r could not compact its transcript (tried "
            "again at its next idle point): %s",
            cursor.session_id,
            exc,
        )
        return None


async def _carried_state(
    runtime: SessionRuntime, session_id: str, line: SessionLine, entries: list[Any]
) -> list[StateEntry]:
    """The state a moved run opens with, read under this code's declarations.

    A deploy hand-off keeps the transcript: what this code does not declare (or what
    no longer fits) is removed from it. A clear or a compaction starts a fresh one:
    the state kept of the previous transcript is written into it.
    """
    keys = runtime.declared.keys
    if line.moved == "deploy" or line.generation == 0:
        _, dropped = settle_state(fold_state(entries), keys, session_id)
        return [StateEntry(removed=dropped)] if dropped else []
    if any(isinstance(e, StateEntry) for e in entries):
        return []  # written by an earlier attempt of this step
    path = conversation_path(runtime.agent.name, session_id, line.generation - 1)
    before = await Transcript(runtime.stores, path, cache=runtime.transcript_cache).entries()
    kept, _ = settle_state(fold_state(before), keys, session_id)
    return [StateEntry(values=kept)] if kept else []


def _opening_context(line: SessionLine) -> ContextEntry | None:
    # A reset session's predecessor history is given by a handler (`PREDECESSOR_HISTORY`),
    # in its own step once the session opened.
    if line.summary is not None:
        return ContextEntry(text=line.summary, source="compaction")
    return None


async def fail_turn(runtime: SessionRuntime, cursor: Cursor, error: str) -> StepResult:
    """A turn step used its attempts: the turn fails (the session goes on).

    When the failed step was the one beginning the turn, of its attempts only their
    `turn.started` landed (written at once, each): the message they began is begun and
    failed here, so it does not run again, and announced only if none of them got as
    far as announcing it.
    """
    work = StepWork(runtime, cursor)
    await work.load()
    resolve_stray(work)
    if work.turn is None:
        head = work.mail.next_turn
        if head is None:
            await work.finish()
            return StepResult(action="idle", cursor=cursor, rings=work.rings)
        announced = await _announced(runtime, turn_id_of(head.submission_id))
        begin_turn(work, head, owner=f"run:{work.run_id}", announce=not announced)
    end_turn(work, "failed", 0, error=error)
    joined = work.joined_ids()
    waiting = [m for m in work.mail.queued if m.submission_id not in joined]
    pending = work.mail.close is not None or work.mail.clear is not None
    action: StepAction = "continue" if waiting or pending else "idle"
    if action == "idle":
        announce_idle(work, 0)
    await work.finish()
    return StepResult(action=action, cursor=replace(cursor, turn=None), rings=work.rings)


#: Events read back at a time by `_announced`.
_PAGE = 64


async def _announced(runtime: SessionRuntime, turn_id: str) -> bool:
    """Whether the run's stream holds `turn.started` of `turn_id`.

    Only the turn's own events can follow it (the turn was in progress since), so the
    stream is read back from its tail through them: past the first event of anything
    else, the turn was not announced.
    """
    stream = runtime.client.stream(durable.step_info().run_id, EVENTS_STREAM)
    chunks, _ = await stream.read(-_PAGE, limit=_PAGE)
    while chunks:
        for chunk in reversed(chunks):
            event = decode_event(chunk.data, chunk.index, unknown="skip")
            if event is None:
                continue  # a type a newer release emits: it tells nothing of this turn
            if event.meta.turn_id != turn_id:
                return False
            if event.type == "turn.started":
                return True
        first = chunks[0].index
        if first == 0:
            return False
        start = max(0, first - _PAGE)
        chunks, _ = await stream.read(start, limit=first - start)
    return False


async def fail_session(
    runtime: SessionRuntime, cursor: Cursor, error: str, retention: Retention
) -> None:
    """The session cannot go on: settle what it holds, announce it, apply retention.

    Nothing is appended to the transcript: the session may have lost it.
    """
    if retention == 0:
        await purge_session(
            runtime.stores,
            runtime.client,
            runtime.agent,
            cursor.session_id,
            durable.step_info().run_id,
            shred=cursor.interactive,
        )
        runtime.transcript_cache.drop(cursor.producer.path)
    work = StepWork(runtime, cursor)
    work.mail = await work.reread_mail()
    turn = cursor.turn
    if turn is not None:
        work.write(
            SettleSubmission(
                attempt=AttemptRef(submission_id=turn.submission_id, attempt_id=turn.turn_id),
                outcome="failed",
                error=error,
            )
        )
        work.emitter.emit(TurnFailed(submission_id=turn.submission_id, error=error, terminal=True))
    waiting = [m.submission_id for m in work.mail.queued]
    if waiting:
        work.write(
            ResolveSubmissions(
                submission_ids=tuple(waiting),
                outcome="failed",
                error=f"the session failed before this message ran: {error}",
            )
        )
    if work.mail.command_ids:
        work.write(
            ResolveSubmissions(
                submission_ids=tuple(work.mail.command_ids),
                outcome="failed",
                error="the session failed",
            )
        )
    Emitter(None, None).emit(SessionFailed(error=error))
    await work.finish()


async def fail_opening(
    runtime: SessionRuntime,
    session_id: str,
    interactive: bool,
    error: str,
    retention: Retention,
) -> None:
    """The run could not open its session: fail what waits for it and announce it.

    No cursor exists (its `open_session` step used its attempts), so this works from
    the ledger alone: every message and command waiting in the session's lanes is
    settled failed, which its sender sees, and the run's stream says
    ``session.failed``. A client that sends again is refused (the session ended).
    """
    if retention == 0:
        await purge_session(
            runtime.stores,
            runtime.client,
            runtime.agent,
            session_id,
            durable.step_info().run_id,
            shred=interactive,
        )
    await settle_lanes(
        runtime.stores,
        runtime.agent.name,
        session_id,
        f"the session could not open before this message ran: {error}",
    )
    Emitter(None, None).emit(SessionFailed(error=f"the session could not open: {error}"))


async def close_session(runtime: SessionRuntime, cursor: Cursor, retention: Retention) -> None:
    """End the session; with retention ``0`` delete its content (and its tasks')."""
    if retention == 0:
        await purge_session(
            runtime.stores,
            runtime.client,
            runtime.agent,
            cursor.session_id,
            durable.step_info().run_id,
            shred=cursor.interactive,
        )
        runtime.transcript_cache.drop(cursor.producer.path)
    Emitter(None, None).emit(SessionClosed(session_id=cursor.session_id))


async def shared_state(
    runtime: SessionRuntime, cursor: Cursor, keys: tuple[str, ...]
) -> dict[str, Any]:
    """The JSON values of `keys` a task's transcript holds at its end (defaults if unset)."""
    entries = await Transcript(
        runtime.stores, cursor.producer.path, cache=runtime.transcript_cache
    ).entries()
    stored = fold_state(entries)
    declared = runtime.declared.keys
    return {
        k: stored[k] if k in stored else declared[k].dump(declared[k].initial())
        for k in keys
        if k in declared
    }


async def admit_task(runtime: SessionRuntime, session_id: str, task: str) -> str:
    """Admit a sub-agent's task as its session's first message (idempotent)."""
    submission_id = task_submission_id(session_id)
    await runtime.stores.submissions.admit_direct(
        SubmissionInput(
            submission_id=submission_id,
            agent_name=runtime.agent.name,
            instance_id=session_id,
            payload={"text": task, "principal": None},
            canonical_ready=True,
        )
    )
    return submission_id


async def final_reply(runtime: SessionRuntime, cursor: Cursor, submission_id: str) -> str | None:
    """The text of the last reply of a task's turn; None if the turn was cancelled.

    Raises:
        FatalError: The turn failed.
    """
    turn_id = turn_id_of(submission_id)
    entries: list[Any] = await Transcript(
        runtime.stores, cursor.producer.path, cache=runtime.transcript_cache
    ).entries()
    mine = [e for e in entries if getattr(e, "turn_id", None) == turn_id]
    end = next((e for e in reversed(mine) if isinstance(e, TurnEndEntry)), None)
    if end is not None and end.outcome == "cancelled":
        return None
    if end is None or end.outcome != "completed":
        outcome = "did not end" if end is None else end.outcome
        detail = getattr(end, "error", None)
        raise FatalError(f"the sub-agent's turn {outcome}" + (f": {detail}" if detail else ""))
    replies = [e for e in mine if isinstance(e, AssistantEntry)]
    return replies[-1].text if replies else ""
