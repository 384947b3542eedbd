"""Typed records at the boundaries: transcript entries, event data, wire forms."""

from __future__ import annotations

from typing import Any, get_args

import orjson
import pytest
from _harness import hosted

from tether.agent import (
    EVENT_DATA,
    AssistantEntry,
    EventData,
    InputRequest,
    InputRequested,
    SessionEvent,
    SessionEventType,
    ToolResultEntry,
    TurnEndEntry,
    UserEntry,
    tool,
)
from tether.agent import Agent as _Agent
from tether.agent._records._entries import read_entries
from tether.agent._records._events import decode_event, encode_event
from tether.agent.models import AssistantMessage, ToolCall
from tether.errors import SerializationError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: ok"


async def test_a_malformed_call_reaches_the_model_as_it_was_sent(backend: Backend) -> None:
    broken = ToolCall(
        call_id="c1",
        name="lookup",
        arguments_json='{"service": "api"',
        parse_error="the arguments are not valid JSON",
    )
    model = ScriptedModel([Reply(tool_calls=(broken,)), "sorry"])
    agent = _Agent(name="ops", model=model, tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="p1")
        await session.send("go")
        await session.wait_for("turn.completed")
        transcript = await session.transcript()
    [asked] = [m for m in model.requests[-1].messages if isinstance(m, AssistantMessage)]
    [call] = asked.tool_calls
    assert call.arguments_json == '{"service": "api"'
    assert call.parse_error == "the arguments are not valid JSON"
    assert [type(e) for e in transcript] == [
        UserEntry,
        AssistantEntry,
        ToolResultEntry,
        AssistantEntry,
        TurnEndEntry,
    ]
    [entry] = transcript[1].tool_calls
    assert entry.parse_error == "the arguments are not valid JSON"
    assert transcript[2].is_error and "not valid JSON" in transcript[2].content


def test_events_round_trip_and_have_one_wire_form() -> None:
    request = InputRequest(
        request_id="approve:c1",
        kind="approval",
        turn_id="t1",
        principal="ada",
        tool_name="restart",
        call_id="c1",
        data={"arguments": {"service": "api"}},
    )
    raw = encode_event(
        InputRequested(request=request), turn_id="t1", step_index=2, sequence=3, attempt=2
    )
    event = decode_event(raw, 7)
    assert isinstance(event, SessionEvent) and event.data == InputRequested(request=request)
    wire: dict[str, Any] = event.to_json()
    assert orjson.loads(orjson.dumps(wire)) == wire
    assert wire["type"] == "input.requested" and wire["index"] == 7
    assert wire["meta"]["turnId"] == "t1" and wire["meta"]["attempt"] == 2
    assert wire["data"]["request"]["principal"] == "ada"
    # The wire form reads back into the same event (what the UI adapters' pure
    # projections take).
    assert SessionEvent.from_json(wire) == event
    assert SessionEvent.from_json(orjson.loads(orjson.dumps(wire))) == event


def test_every_event_type_has_one_record() -> None:
    # One table of event types: the `SessionEventType` literal, `EVENT_DATA` and the
    # `EventData` union name the same types and records.
    assert set(EVENT_DATA) == set(get_args(SessionEventType))
    assert set(EVENT_DATA.values()) == set(get_args(EventData))
    assert len(set(EVENT_DATA.values())) == len(EVENT_DATA)


def test_stored_records_are_validated_at_the_boundary() -> None:
    with pytest.raises(SerializationError, match="malformed"):
        read_entries([{"kind": "user", "turn_id": "t"}], what="transcript")
    with pytest.raises(SerializationError):
        read_entries([{"kind": "nonsense"}], what="transcript")
    with pytest.raises(SerializationError):
        decode_event(b'{"type": "tool.call", "meta": {"id": "e"}, "data": {}}', 0)
    with pytest.raises(SerializationError):
        decode_event(b"not json", 0)
    with pytest.raises(SerializationError, match="not a session event"):
        decode_event(b'{"type": "session.waiting", "data": {}, "meta": {}}', 0)
    with pytest.raises(SerializationError, match="not a session event"):
        decode_event(b'{"type": "session.waiting", "meta": {"id": "e", "attempt": "x"}}', 0)
    wire = {"index": 3, "type": "session.waiting", "data": {}, "meta": {"id": "e"}}
    assert SessionEvent.from_json(wire).index == 3
    with pytest.raises(SerializationError, match="its index"):
        SessionEvent.from_json({k: v for k, v in wire.items() if k != "index"})
    with pytest.raises(SerializationError, match="not a session event"):
        SessionEvent.from_json({**wire, "type": "session.dreaming"})
    with pytest.raises(SerializationError, match="malformed"):
        SessionEvent.from_json({**wire, "type": "message.delta"})
