"""The step that runs one `Dynamic` handler, and what its results add to a model call.

The session's body runs each handler of an event as its own durable step
(``dynamic.<name>``): on ``session.started`` after the session opens, on
``turn.started`` between the step that began the turn and the turn's first model call.
What the handler returns lands in the transcript with the step's completion (an
`InstructionsEntry`, and a `ContextEntry` for its history), so a replay reads the
journaled step and calls nothing. A handler that raises or runs past its timeout gives
nothing: the failure is recorded (``error``), logged and told by ``dynamic.failed``,
and the session goes on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ... import durable
from ...errors import FatalError
from .._context._dynamic import Dynamic, DynamicContext, DynamicEvent, Instructions, handlers_on
from .._context._values import StateValues, fold_state
from .._records._cursor import Cursor
from .._records._entries import ContextEntry, InstructionsEntry, UserEntry
from .._records._event_data import DynamicFailed, SessionStarted, TurnStarted
from .._records._keys import conversation_path
from .._stored._line import SessionLine, predecessor_text
from .._stored._transcript import Transcript
from ._emitter import Emitter

__all__ = ["carried_instructions", "dynamic_instructions", "run_dynamic", "session_handlers"]

if TYPE_CHECKING:
    from ._runtime import SessionRuntime

log = logging.getLogger("tether.agent")


def session_handlers(declared: Sequence[Dynamic], line: SessionLine | None) -> tuple[Dynamic, ...]:
    """The ``session.started`` handlers of a run with `line` (none for a moved run)."""
    if line is not None and line.moved is not None:
        return ()  # the session goes on: it started in an earlier run
    return handlers_on(
        declared, "session.started", after_reset=line is not None and line.predecessor is not None
    )


async def run_dynamic(
    runtime: SessionRuntime, cursor: Cursor, on: DynamicEvent, name: str, line: SessionLine | None
) -> str | None:
    """Call handler `name` and record what it gave; returns its error (None: it gave)."""
    agent = runtime.agent
    found = [d for d in handlers_on(agent.dynamic, on, after_reset=True) if d.name == name]
    if not found:
        # Only a run of other code could ask (runs replay on the code that built them).
        raise FatalError(f"agent {agent.name!r} has no {on} handler named {name!r}")
    handler = found[0]
    transcript = Transcript(
        runtime.stores, cursor.producer.path, cursor.producer, runtime.transcript_cache
    )
    entries = await transcript.entries()
    turn = cursor.turn if on == "turn.started" else None
    turn_id = turn.turn_id if turn is not None else None
    stored = fold_state(entries)
    state = StateValues(
        runtime.declared.keys,
        {k: v for k, v in stored.items() if k in runtime.declared.keys},
        readonly=True,
    )
    line = line or SessionLine()
    event: SessionStarted | TurnStarted
    if turn is None:
        event = SessionStarted(
            session_id=cursor.session_id,
            agent=agent.name,
            owner=cursor.owner,
            predecessor=line.predecessor,
        )
    else:
        begun = _begun(entries, turn.turn_id)
        event = TurnStarted(
            submission_id=turn.submission_id,
            text=begun.text if begun is not None else "",
            principal=turn.principal,
            attachments=begun.attachments if begun is not None else (),
        )
    context = DynamicContext(
        session_id=cursor.session_id,
        agent=agent.name,
        on=on,
        event=event,
        owner=cursor.owner,
        state=state,
        turn_id=turn_id,
        turn=_turn_number(entries) if turn is not None else None,
        message=event.text if isinstance(event, TurnStarted) else None,
        principal=turn.principal if turn is not None else None,
        predecessor=line.predecessor,
        read_predecessor=functools.partial(
            _read_predecessor, runtime, cursor.session_id, line.predecessor_generation
        ),
    )
    error: str | None = None
    given = Instructions()
    limit = asyncio.timeout(handler.timeout)
    try:
        async with limit:
            value = await handler.fn(context)
        given = _given(value)
    except TimeoutError as exc:
        # Its own TimeoutError (a call of its that timed out) is a failure like any.
        error = (
            f"it ran past its timeout of {handler.timeout:g} s"
            if limit.expired()
            else f"it raised {type(exc).__name__}: {exc}"
        )
    except Exception as exc:
        error = f"it raised {type(exc).__name__}: {exc}"
    records: list[Any] = []
    if given.text or error is not None:
        records.append(
            InstructionsEntry(handler=name, on=on, text=given.text, turn_id=turn_id, error=error)
        )
    if given.history:
        records.append(ContextEntry(text=given.history, source=name))
    if records:
        appended = transcript.append(records)
        durable.commit_with_step(appended)
        durable.after_commit(functools.partial(transcript.landed, appended))
    if error is not None:
        log.warning(
            "dynamic handler %r of agent %r on %s in session %r gave nothing (the session "
            "goes on without it): %s",
            name,
            agent.name,
            on,
            cursor.session_id,
            error,
        )
        emitter = Emitter(turn_id, turn.step_index if turn is not None else None)
        emitter.emit(DynamicFailed(handler=name, on=on, error=error))
    return error


def _given(value: object) -> Instructions:
    if value is None:
        return Instructions()
    if isinstance(value, str):
        return Instructions(text=value)
    if isinstance(value, Instructions):
        if not isinstance(value.text, str) or not isinstance(value.history, str):
            raise TypeError("Instructions holds text and history as strings")
        return value
    raise TypeError(f"it returned {type(value).__name__}, not a str, Instructions or None")


def _turn_number(entries: Iterable[Any]) -> int:
    return len({e.turn_id for e in entries if isinstance(e, UserEntry)})


def _begun(entries: Iterable[Any], turn_id: str) -> UserEntry | None:
    """The message that began turn `turn_id` (its first user entry)."""
    begun = (e for e in entries if isinstance(e, UserEntry) and e.turn_id == turn_id)
    return next(begun, None)


async def _read_predecessor(
    runtime: SessionRuntime, session_id: str, generation: int, last: int, timeout: float
) -> str:
    return await predecessor_text(
        runtime.stores, runtime.agent.name, session_id, generation, last=last, timeout=timeout
    )


def dynamic_instructions(
    entries: Iterable[Any], turn_id: str | None, declared: Iterable[Dynamic]
) -> list[str]:
    """The handlers' texts a model call of turn `turn_id` adds to its instructions.

    The session's (recorded on ``session.started``, or carried from the transcript
    before a clear or a compaction), then the turn's, each in the order they ran. Only
    those of handlers the agent declares (`declared`, and the built-in ones): a session
    moved to code that dropped a handler no longer gets its text.
    """
    names = {d.name for d in handlers_on(tuple(declared), "session.started", after_reset=True)}
    names.update(d.name for d in handlers_on(tuple(declared), "turn.started"))
    session: list[str] = []
    turn: list[str] = []
    for entry in entries:
        if isinstance(entry, InstructionsEntry) and entry.text and entry.handler in names:
            if entry.turn_id is None:
                session.append(entry.text)
            elif entry.turn_id == turn_id:
                turn.append(entry.text)
    return [*session, *turn]


async def carried_instructions(
    runtime: SessionRuntime, session_id: str, line: SessionLine, entries: list[Any]
) -> list[InstructionsEntry]:
    """The session's handler instructions a clear or a compaction carries over.

    A deploy hand-off keeps the transcript, and them with it.
    """
    if line.moved in (None, "deploy") or line.generation == 0:
        return []
    if any(isinstance(e, InstructionsEntry) for e in entries):
        return []  # written by an earlier attempt of this step
    path = conversation_path(runtime.agent.name, session_id, line.generation - 1)
    before = await Transcript(runtime.stores, path, cache=runtime.transcript_cache).entries()
    return [e for e in before if isinstance(e, InstructionsEntry) and e.turn_id is None and e.text]
