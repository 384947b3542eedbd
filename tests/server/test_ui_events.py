"""Every session event type reaches both UI adapters: shown, or listed as not shown.

For each type the agent layer defines there is a scenario, a short realistic run of
session events holding one event of that type. Each adapter projects the scenario
with and without that event, the way its routes feed it, and records what its front
end has seen after every event. A type the adapter lists in its ``NOT_SHOWN`` must
change nothing; any other type must change what the front end sees. A type without
a scenario fails, and so does one the adapter has no case for (its `match` ends in
`assert_never`), so a new event type cannot vanish from a front end unnoticed.

An event of a type this version does not define is skipped with a warning naming it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import pytest

from tether.agent import EVENT_DATA, SessionEvent
from tether.server import AguiProjection, agui_events, ui_parts
from tether.server._agui_projection import NOT_SHOWN as AGUI_NOT_SHOWN
from tether.server._aisdk_projection import NOT_SHOWN as AISDK_NOT_SHOWN
from tether.server._aisdk_projection import UiProjection


def _events(
    *specs: tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], int | None],
) -> list[dict[str, Any]]:
    """Wire-form events: (type, data) or (type, data, step index), turn ``t1``."""
    out = []
    for index, spec in enumerate(specs):
        kind, data = spec[0], spec[1]
        step = spec[2] if len(spec) > 2 else (None if kind.startswith("session.") else 1)
        meta = {"id": f"evt_{index}", "turnId": "t1", "stepIndex": step, "attempt": 1}
        out.append({"index": index, "type": kind, "data": data, "meta": meta})
    return out


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """Session events with the one event (`marked`) whose type the scenario is about.

    `aisdk_from`/`aisdk_opened`: where the AI SDK response starts and whether the
    client's message is open (a response to answered approvals goes on from the tail,
    with the message open); `agui_markers`: the markers of the AG-UI run.
    """

    events: list[dict[str, Any]]
    marked: int
    aisdk_from: int = 0
    aisdk_opened: bool = False
    agui_markers: frozenset[str] = frozenset({"sub:s:m1"})


STARTED = ("turn.started", {"submission_id": "s:m1", "text": "hi"}, 0)
DELTA = ("message.delta", {"text": "Hello"})
COMPLETED = ("turn.completed", {"submission_id": "s:m1"}, 2)
APPROVAL = {
    "request_id": "r1",
    "kind": "approval",
    "turn_id": "t1",
    "tool_name": "restart",
    "call_id": "c1",
    "data": {"arguments": {"service": "api"}},
}
QUESTION = {"request_id": "r1", "kind": "question", "turn_id": "t1", "prompt": "Severity?"}
AUTHORIZATION = {"request_id": "r1", "kind": "authorization", "turn_id": "t1"}
WAITING = ("turn.waiting", {"on": "input", "request_ids": ["r1"]})
CALL = ("tool.call", {"call_id": "c1", "name": "restart", "arguments": {"service": "api"}})
RESULT = ("tool.result", {"call_id": "c1", "name": "restart", "content": "restarted"})

SCENARIOS: dict[str, Scenario] = {
    "session.started": Scenario(
        events=_events(("session.started", {"session_id": "s", "agent": "ops"}), STARTED, DELTA),
        marked=0,
    ),
    "session.moved": Scenario(
        events=_events(
            ("session.moved", {"reason": "clear", "run_id": "run-2", "deployment": "d"}),
            STARTED,
            DELTA,
        ),
        marked=0,
    ),
    # Emitted by the previous turn's last step, before this turn starts.
    "session.waiting": Scenario(
        events=_events(("session.waiting", {}, 3), STARTED, DELTA, COMPLETED), marked=0
    ),
    "turn.started": Scenario(events=_events(STARTED, DELTA, COMPLETED), marked=0),
    # A turn.started handler's own step, between the turn's first step and the one
    # that calls the model.
    "dynamic.failed": Scenario(
        events=_events(
            STARTED,
            ("dynamic.failed", {"handler": "h", "on": "turn.started", "error": "timeout"}, 1),
            ("message.delta", {"text": "Hello"}, 2),
            ("turn.completed", {"submission_id": "s:m1"}, 2),
        ),
        marked=1,
    ),
    "message.delta": Scenario(events=_events(STARTED, DELTA, COMPLETED), marked=1),
    # An adopted reply streams no deltas: its completion carries the text.
    "message.completed": Scenario(
        events=_events(STARTED, ("message.completed", {"text": "Hello"}), COMPLETED), marked=1
    ),
    "tool.call": Scenario(events=_events(STARTED, CALL, RESULT, COMPLETED), marked=1),
    "tool.result": Scenario(events=_events(STARTED, CALL, RESULT, COMPLETED), marked=2),
    "state.changed": Scenario(
        events=_events(
            STARTED, CALL, ("state.changed", {"call_id": "c1", "values": {"n": 1}}), RESULT
        ),
        marked=2,
    ),
    "input.requested": Scenario(
        events=_events(STARTED, ("input.requested", {"request": QUESTION}), WAITING), marked=1
    ),
    "authorization.required": Scenario(
        events=_events(
            STARTED,
            ("authorization.required", {"request": AUTHORIZATION, "provider": "github"}),
            WAITING,
        ),
        marked=1,
    ),
    # The run that answers the approval: AG-UI folds from the turn's start and arms on
    # the answer; the AI SDK response goes on from the tail, the message still open.
    "input.resolved": Scenario(
        events=_events(
            STARTED,
            ("input.requested", {"request": APPROVAL}),
            WAITING,
            ("input.resolved", {"request_id": "r1", "answer": "approve"}, 2),
            (*RESULT, 2),
            COMPLETED,
        ),
        marked=3,
        aisdk_from=3,
        aisdk_opened=True,
        agui_markers=frozenset({"req:r1"}),
    ),
    # The run of the message that joined the turn.
    "turn.steered": Scenario(
        events=_events(
            STARTED,
            DELTA,
            ("turn.steered", {"submission_id": "s:m2", "text": "and the db"}, 2),
            (*DELTA, 2),
            COMPLETED,
        ),
        marked=2,
        agui_markers=frozenset({"sub:s:m2"}),
    ),
    "turn.waiting": Scenario(
        events=_events(STARTED, ("input.requested", {"request": APPROVAL}), WAITING), marked=2
    ),
    "turn.completed": Scenario(events=_events(STARTED, DELTA, COMPLETED), marked=2),
    "turn.failed": Scenario(
        events=_events(STARTED, DELTA, ("turn.failed", {"submission_id": "s:m1", "error": "x"})),
        marked=2,
    ),
    "turn.cancelled": Scenario(
        events=_events(STARTED, DELTA, ("turn.cancelled", {"submission_id": "s:m1"})), marked=2
    ),
    "session.closed": Scenario(
        events=_events(STARTED, DELTA, ("session.closed", {"session_id": "s"})), marked=2
    ),
    "session.failed": Scenario(
        events=_events(STARTED, DELTA, ("session.failed", {"error": "gone"})), marked=2
    ),
}


def _aisdk_seen(scenario: Scenario, skip: int | None) -> tuple[list[list[Any]], bool]:
    """What the AI SDK client has after each event; whether the marked one was fed."""
    projection = UiProjection(opened=scenario.aisdk_opened)
    return _timeline(scenario, skip, scenario.aisdk_from, projection.parts)


def _agui_seen(scenario: Scenario, skip: int | None) -> tuple[list[list[Any]], bool]:
    """What the AG-UI client has after each event; whether the marked one was fed."""
    projection = AguiProjection("th", "run", markers=scenario.agui_markers)
    return _timeline(scenario, skip, 0, projection.feed)


def _timeline(
    scenario: Scenario, skip: int | None, start: int, feed: Any
) -> tuple[list[list[Any]], bool]:
    seen: list[Any] = []
    timeline: list[list[Any]] = []
    fed = ended = False
    for index, value in enumerate(scenario.events[start:], start):
        if index != skip and not ended:
            parts, ended = feed(SessionEvent.from_json(value))
            seen.extend(part.to_json() for part in parts)
            fed = fed or index == scenario.marked
        timeline.append(list(seen))
    return timeline, fed


def test_every_event_type_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(EVENT_DATA)
    for kind, scenario in SCENARIOS.items():
        assert scenario.events[scenario.marked]["type"] == kind
    assert AISDK_NOT_SHOWN <= set(EVENT_DATA) and AGUI_NOT_SHOWN <= set(EVENT_DATA)


@pytest.mark.parametrize("kind", sorted(EVENT_DATA))
@pytest.mark.parametrize(
    ("front_end", "seen", "not_shown"),
    [("AI SDK", _aisdk_seen, AISDK_NOT_SHOWN), ("AG-UI", _agui_seen, AGUI_NOT_SHOWN)],
)
def test_every_event_type_is_shown_or_listed_as_not_shown(
    kind: str, front_end: str, seen: Any, not_shown: frozenset[str]
) -> None:
    scenario = SCENARIOS[kind]
    with_it, fed = seen(scenario, None)
    without_it, _ = seen(scenario, scenario.marked)
    assert fed, f"the scenario of {kind} ends before its {kind} event reaches {front_end}"
    if kind in not_shown:
        assert with_it == without_it, f"{front_end} lists {kind} as not shown, but shows it"
    else:
        assert with_it != without_it, f"{kind} changes nothing on {front_end}: list it as not shown"


def test_the_lists_of_types_not_shown() -> None:
    # What each front end leaves out, and why, is in its NOT_SHOWN's comment.
    assert AISDK_NOT_SHOWN == {
        "session.started",
        "session.moved",
        "session.waiting",
        "turn.steered",
        "input.resolved",
        "state.changed",
        "dynamic.failed",
    }
    assert AGUI_NOT_SHOWN == {
        "session.started",
        "session.moved",
        "session.waiting",
        "dynamic.failed",
    }


def test_an_unknown_event_type_is_skipped_with_one_warning_per_type(
    caplog: pytest.LogCaptureFixture,
) -> None:
    turn = _events(STARTED, DELTA, COMPLETED)
    novel = [
        {**turn[0], "index": 10, "type": "message.reasoning", "data": {"text": "hmm"}},
        {**turn[0], "index": 11, "type": "message.reasoning", "data": {"text": "so"}},
        {**turn[0], "index": 12, "type": "tool.progress", "data": {"call_id": "c1"}},
    ]
    mixed = [turn[0], novel[0], novel[2], turn[1], novel[1], turn[2]]
    with caplog.at_level(logging.WARNING, logger="tether.server"):
        aisdk = ui_parts(mixed)
        agui = agui_events(mixed)
    assert aisdk == ui_parts(turn) and agui == agui_events(turn)
    assert [p["type"] for p in aisdk][-3:] == ["text-end", "finish-step", "finish"]
    warnings = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert len(warnings) == 4, warnings  # once per type and per stream
    for front_end in ("AI SDK", "AG-UI"):
        for kind in ("message.reasoning", "tool.progress"):
            assert [
                level
                for level, text in warnings
                if f"the {front_end} adapter" in text and repr(kind) in text
            ] == [logging.WARNING]
