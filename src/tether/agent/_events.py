"""The session event stream: typed events with stable coordinates.

Every event has a unique ``meta.id`` and coordinates (``turnId``, ``stepIndex``,
``sequence``) that are the same on every attempt of the step that emitted it; only the
id changes on a retry. Store de-duplication of *events* uses the id, of *side effects*
the coordinates.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from .._ids import new_ulid

__all__ = [
    "EVENTS_STREAM",
    "EventMeta",
    "EventType",
    "SessionEvent",
    "decode_event",
    "encode_event",
]

#: The workflow-store stream (of the session's run) that holds its events.
EVENTS_STREAM = "events"

EventType = Literal[
    "session.started",
    "turn.started",
    "message.delta",
    "message.completed",
    "tool.call",
    "tool.result",
    "input.requested",
    "input.resolved",
    "authorization.required",
    "turn.waiting",
    "turn.steered",
    "turn.completed",
    "turn.failed",
    "turn.cancelled",
    "session.waiting",
    "session.failed",
    "session.closed",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class EventMeta:
    """Identity and coordinates of one event."""

    id: str
    turn_id: str | None
    step_index: int | None
    sequence: int
    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionEvent:
    """One event of a session; `index` is its position in the stream."""

    type: EventType
    meta: EventMeta
    data: dict[str, Any] = field(default_factory=dict)
    index: int = -1


def encode_event(
    type_: EventType,
    data: dict[str, Any],
    *,
    turn_id: str | None,
    step_index: int | None,
    sequence: int,
) -> bytes:
    """Serialize an event with a fresh id."""
    meta = {
        "id": new_ulid("evt_"),
        "turnId": turn_id,
        "stepIndex": step_index,
        "sequence": sequence,
        "at": time.time(),
    }
    return orjson.dumps({"type": type_, "meta": meta, **data})


def decode_event(raw: bytes, index: int) -> SessionEvent:
    """Parse a stored event."""
    value = orjson.loads(raw)
    meta = value.pop("meta")
    type_ = value.pop("type")
    return SessionEvent(
        type=type_,
        meta=EventMeta(
            id=meta["id"],
            turn_id=meta.get("turnId"),
            step_index=meta.get("stepIndex"),
            sequence=meta.get("sequence", 0),
            at=meta.get("at", 0.0),
        ),
        data=value,
        index=index,
    )
