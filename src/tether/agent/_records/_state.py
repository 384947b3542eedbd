"""What a session is doing now (`SessionState`) and a row of `list_sessions` (`SessionInfo`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from ._event_data import (
    AuthorizationRequested,
    InputRequested,
    InputResolved,
    MessageCompleted,
    MessageDelta,
    SessionClosed,
    SessionFailed,
    SessionStarted,
    ToolCalled,
    ToolReturned,
    TurnCancelled,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    TurnWaiting,
)
from ._json import json_value
from ._requests import InputRequest

if TYPE_CHECKING:
    from ._events import SessionEvent

__all__ = [
    "RUN_ENDINGS",
    "Fold",
    "ParkedOn",
    "SessionInfo",
    "SessionState",
    "SessionStatus",
    "fold_events",
]

SessionStatus: TypeAlias = Literal["idle", "running", "parked", "closed", "failed", "cancelled"]
"""``idle`` (no turn), ``running`` (a turn works), ``parked`` (a turn waits, no worker
held), ``closed``, ``failed`` or ``cancelled`` (the session's run ended)."""

ParkedOn: TypeAlias = Literal["input", "tasks", "authorization"]

#: The status of a session whose run ended with this run status.
RUN_ENDINGS: dict[str, SessionStatus] = {
    "completed": "closed",
    "failed": "failed",
    "cancelled": "cancelled",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionState:
    """A session's state, read from its run, its ledger and its event stream.

    Attributes:
        session_id: The session.
        agent_name: Its agent.
        owner: Who opened it (None if nobody was named).
        status: See `SessionStatus`.
        parked_on: While parked: ``input`` (approvals, questions), ``authorization``
            or ``tasks`` (sub-agents).
        turn_id: The turn in progress, if any.
        pending: The input requests the turn waits for.
        stranded: Built by a tether version or deployment that no live worker serves:
            reads work, sends raise `SessionStrandedError`.
        deployment: The deployment that built the session's run.
        engine_version: The tether version that built it.
        created_at: When the session was opened (Unix seconds).
        updated_at: When its run last changed.
    """

    session_id: str
    agent_name: str
    owner: str | None
    status: SessionStatus
    parked_on: ParkedOn | None
    turn_id: str | None
    pending: tuple[InputRequest, ...]
    stranded: bool
    deployment: str
    engine_version: str
    created_at: float
    updated_at: float

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        out: dict[str, Any] = json_value(self)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionInfo:
    """A session as `AgentHost.list_sessions` lists it.

    ``status`` is ``idle`` for an open session without a turn in progress, ``running``
    while a turn is (its exact state: `Session.state`), else how its run ended.
    """

    session_id: str
    agent_name: str
    owner: str | None
    status: SessionStatus
    created_at: float
    updated_at: float

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        out: dict[str, Any] = json_value(self)
        return out


@dataclass(slots=True)
class Fold:
    """What a session's events say about its current turn (see `fold_events`)."""

    turn_id: str | None = None
    submission_id: str | None = None
    pending: dict[str, InputRequest] = field(default_factory=dict)
    waiting_tasks: bool = False
    ended: str | None = None  # the terminal session event seen, if any
    answered: dict[str, Any] = field(default_factory=dict)
    dropped: set[str] = field(default_factory=set)

    @property
    def status(self) -> SessionStatus:
        """``idle``, ``running`` or ``parked`` as far as the events tell."""
        if self.turn_id is None:
            return "idle"
        return "parked" if self.pending or self.waiting_tasks else "running"

    @property
    def parked_on(self) -> ParkedOn | None:
        """What a parked turn waits for."""
        if self.pending:
            kinds = {r.kind for r in self.pending.values()}
            return "authorization" if kinds == {"authorization"} else "input"
        return "tasks" if self.waiting_tasks else None


def fold_events(events: Iterable[SessionEvent], *, follows: str | None = None) -> Fold:
    """Fold a session's events (in order) into its current turn and its pending requests.

    A request stays pending until it is resolved or its turn ends; answered and
    dropped ids are remembered so a late answer can be told apart from an unknown one.

    Args:
        events: The session's events.
        follows: The run the session's current run follows after a reset (its line's
            predecessor). Until that run announces itself (``session.started`` naming
            it), every event is the ended session's, and the new one has no turn.
    """
    fold = Fold()
    opened = follows is None
    for event in events:
        data = event.data
        if isinstance(data, SessionStarted):
            # A session opened again under this id (a reset): what came before is over.
            fold = Fold()
            opened = opened or data.predecessor == follows
        elif isinstance(data, TurnStarted):
            fold.turn_id, fold.submission_id = event.meta.turn_id, data.submission_id
            fold.waiting_tasks = False
        elif isinstance(data, InputRequested | AuthorizationRequested):
            fold.pending[data.request.request_id] = data.request
        elif isinstance(data, InputResolved):
            fold.pending.pop(data.request_id, None)
            if data.outcome == "answered":
                fold.answered[data.request_id] = data.answer
            else:
                fold.dropped.add(data.request_id)
        elif isinstance(data, TurnWaiting):
            fold.waiting_tasks = data.on == "tasks"
        elif isinstance(data, ToolReturned | ToolCalled | MessageDelta | MessageCompleted):
            fold.waiting_tasks = False
        elif isinstance(data, TurnCompleted | TurnFailed | TurnCancelled):
            fold.dropped.update(fold.pending)
            fold.pending.clear()
            fold.turn_id = fold.submission_id = None
            fold.waiting_tasks = False
        elif isinstance(data, SessionClosed | SessionFailed):
            fold.ended = event.type
            fold.dropped.update(fold.pending)
            fold.pending.clear()
            fold.turn_id = fold.submission_id = None
    return fold if opened else Fold()
