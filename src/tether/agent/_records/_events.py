"""The session event envelope: type, typed data, identity and stable coordinates.

Every event has a unique ``meta.id`` and coordinates (``turn_id``, ``step_index``,
``sequence``) that are the same on every attempt of the step that emitted it; only the
id (and ``attempt``) change on a retry. De-duplicate stored *events* by the id and
*side effects* by the coordinates.

Stored form (one chunk of the run's ``events`` stream), also the wire form minus
``index``::

    {"type": "tool.call", "data": {...}, "meta": {"id": "evt_...", "turnId": ...,
     "stepIndex": 1, "sequence": 2000000, "attempt": 1, "at": 1767225600.0}}
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, overload

import orjson

from ..._ids import new_ulid
from ...errors import NotFoundError, SerializationError
from ._event_data import EVENT_DATA, EventData, SessionEventType
from ._json import json_value, read_record

__all__ = [
    "EVENTS_STREAM",
    "EventMeta",
    "SessionEvent",
    "decode_event",
    "decode_events",
    "encode_event",
    "first_event",
]

#: The stream (of the session's run) that holds its events.
EVENTS_STREAM = "events"

_log = logging.getLogger("tether.agent")
_warned: set[str] = set()


@dataclass(frozen=True, slots=True, kw_only=True)
class EventMeta:
    """Identity and coordinates of one event.

    Attributes:
        id: Unique per emission: a retried step emits its events again with new ids.
        turn_id: The turn the event belongs to (None for session events).
        step_index: The turn's durable step that emitted it (0 starts the turn).
        sequence: The event's place in its step, derived from what the step records
            (the n-th model call, the n-th tool call of a reply), so it is the same on
            every attempt; a model call's deltas count from its part's base.
        attempt: The attempt of the step that emitted it: 1, 2, ... (an abandoned
            attempt's output has a lower attempt than the one that completed).
        at: When it was emitted (Unix seconds, the emitting worker's clock).
    """

    id: str
    turn_id: str | None
    step_index: int | None
    sequence: int
    attempt: int
    at: float

    def to_json(self) -> dict[str, Any]:
        """The JSON form (camelCase coordinates, as in the seed)."""
        return {
            "id": self.id,
            "turnId": self.turn_id,
            "stepIndex": self.step_index,
            "sequence": self.sequence,
            "attempt": self.attempt,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionEvent:
    """One event of a session.

    Attributes:
        index: Its position in the session's event stream (the SSE ``id:``); read
            from any index again with `Session.events(start=...)`.
        type: ``"turn.started"``, ``"message.delta"``, ... (see `SessionEventType`).
        data: The event's record; one record type per event type (`EVENT_DATA`).
        meta: Identity, coordinates and attempt.
    """

    index: int
    type: SessionEventType
    data: EventData
    meta: EventMeta

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``{"index", "type", "data", "meta"}`` as JSON-safe values."""
        return {
            "index": self.index,
            "type": self.type,
            "data": _data_json(self.data),
            "meta": self.meta.to_json(),
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> SessionEvent:
        """Read the wire form back (`to_json`'s inverse), validated into its record.

        Raises:
            SerializationError: `value` is not a session event of a known type.
        """
        try:
            index = int(value["index"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SerializationError(f"not a session event (its index): {exc!r}") from None
        return _read(value, index)


def encode_event(
    data: EventData,
    *,
    turn_id: str | None,
    step_index: int | None,
    sequence: int,
    attempt: int,
    at: float | None = None,
) -> bytes:
    """Serialize an event with a fresh id (its type follows from the record).

    `at` is its time (Unix seconds; default: now).
    """
    return orjson.dumps(
        {
            "type": _TYPE_OF[type(data)],
            "data": _data_json(data, stored=True),
            "meta": {
                "id": new_ulid("evt_"),
                "turnId": turn_id,
                "stepIndex": step_index,
                "sequence": sequence,
                "attempt": attempt,
                "at": time.time() if at is None else at,
            },
        }
    )


@overload
def decode_event(raw: bytes, index: int) -> SessionEvent: ...
@overload
def decode_event(raw: bytes, index: int, *, unknown: Literal["skip"]) -> SessionEvent | None: ...
def decode_event(
    raw: bytes, index: int, *, unknown: Literal["raise", "skip"] = "raise"
) -> SessionEvent | None:
    """Parse a stored event (validated into its record).

    With ``unknown="skip"``, an event of a type this release does not define is None.

    Raises:
        SerializationError: The chunk is not a session event of a known type.
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise SerializationError(f"event {index} is not a session event: {exc!r}") from None
    if unknown == "skip" and _unknown(value) is not None:
        return None
    return _read(value, index)


class _Chunk(Protocol):
    @property
    def index(self) -> int: ...
    @property
    def data(self) -> bytes: ...


def _data_json(data: EventData, *, stored: bool = False) -> Any:
    """An event record's JSON form; a result stored by content keeps only its reference.

    ``content_ref`` is left out unless set, so events without one read as they always
    did; stored, a result that has one holds no copy of its content (see `ToolReturned`).
    """
    out = json_value(data)
    if isinstance(out, dict) and "content_ref" in out:
        if out["content_ref"] is None:
            del out["content_ref"]
        elif stored:
            out["content"] = ""
    return out


def decode_events(chunks: Iterable[_Chunk]) -> list[SessionEvent]:
    """The session events of stored chunks, passing over types this release does not know.

    A newer release (a worker of the next deployment, during a rolling one) may emit
    event types this one has no record for; what this release folds from the events
    it knows is unchanged by them, so they are skipped, with one warning per type.

    Raises:
        SerializationError: A chunk is not a session event, or one of a known type
            does not fit its record.
    """
    events = []
    for chunk in chunks:
        event = decode_event(chunk.data, chunk.index, unknown="skip")
        if event is not None:
            events.append(event)
    return events


def _unknown(value: Any) -> str | None:
    """The event type of a decoded form when it is a type this release does not define."""
    type_ = value.get("type") if isinstance(value, dict) else None
    if isinstance(type_, str) and type_ not in EVENT_DATA:
        if type_ not in _warned:
            _warned.add(type_)
            _log.warning(
                "skipping session events of type %r, which this release of tether does "
                "not define (written by a newer one?)",
                type_,
            )
        return type_
    return None


def _read(value: Any, index: int) -> SessionEvent:
    """The event of a decoded stored or wire form (the wire form's ``index`` aside)."""
    try:
        type_ = value["type"]
        kind = EVENT_DATA[type_]
        raw = value["meta"]
        meta = EventMeta(
            id=str(raw["id"]),
            turn_id=raw.get("turnId"),
            step_index=raw.get("stepIndex"),
            sequence=int(raw.get("sequence", 0)),
            attempt=int(raw.get("attempt", 1)),
            at=float(raw.get("at", 0.0)),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SerializationError(f"event {index} is not a session event: {exc!r}") from None
    data: EventData = read_record(kind, value.get("data") or {}, what=f"event {index} ({type_})")
    return SessionEvent(index=index, type=type_, data=data, meta=meta)


_TYPE_OF: dict[type[Any], SessionEventType] = {cls: t for t, cls in EVENT_DATA.items()}


async def first_event(
    events: AsyncIterator[SessionEvent], event_type: str, match: Mapping[str, Any], session_id: str
) -> SessionEvent:
    """The first of `events` of `event_type` whose data fields equal `match`.

    Raises:
        NotFoundError: `events` ended first.
    """
    async for event in events:
        if event.type == event_type and all(
            getattr(event.data, k, None) == v for k, v in match.items()
        ):
            return event
    raise NotFoundError(f"the event stream of {session_id!r} ended first")
