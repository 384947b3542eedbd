"""Questions of a workflow tool (``ctx.ask``): options, display hints, answers, declines.

On every backend: the request carries its options (id, label, style) and display hint
in ``input.requested`` and in the session's state; an answer that is not an option id
is refused at admission (`InvalidAnswerError`, nothing changes); ``ctx.ask`` returns an
`Answer` (the chosen id and its label, free text, or ``cancelled`` when declined).
Records written before options had labels (bare strings) still decode.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from _harness import hosted

from tether._codec import decode
from tether.agent import (
    DECLINE,
    Agent,
    Answer,
    InputRequest,
    Option,
    ToolWorkflowContext,
    decode_event,
    workflow_tool,
)
from tether.agent.models import ToolResultMessage
from tether.errors import (
    ConfigurationError,
    InputRequestError,
    InvalidAnswerError,
    SerializationError,
)
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

answers: list[Answer] = []


@pytest.fixture(autouse=True)
def _reset() -> None:
    answers.clear()


LEVELS = [
    Option(id="p1", label="P1 (revenue impact)", style="primary"),
    Option(id="p2", label="P2 (partly degraded)"),
    Option(id="p3", label="P3 (no user impact)"),
]


@workflow_tool
async def handle_incident(ctx: ToolWorkflowContext, incident_id: str) -> dict[str, Any]:
    """Two confirmations, as the long-task design shows them."""
    level = await ctx.ask(f"Severity of {incident_id}?", display="confirmation", options=LEVELS)
    answers.append(level)
    if level.status != "answered":
        return {"status": "cancelled"}
    ok = await ctx.ask(
        f"Mitigate {incident_id} at {level.option_id}?",
        display="confirmation",
        options=[Option(id="approve", label="Go", style="primary"), "cancel"],
    )
    answers.append(ok)
    if ok.status != "answered" or ok.option_id != "approve":
        return {"status": "rejected", "level": level.option_id}
    return {"status": "done", "level": level.option_id}


@workflow_tool
async def note(ctx: ToolWorkflowContext) -> str:
    """A free-text question."""
    said = await ctx.ask("Anything to add?")
    answers.append(said)
    return said.text or "(declined)"


@workflow_tool
async def misuse(ctx: ToolWorkflowContext, how: str) -> str:
    """Ask in a way `ask` refuses."""
    if how == "text-with-options":
        await ctx.ask("?", display="text", options=["a"])
    elif how == "confirmation-without-options":
        await ctx.ask("?", display="confirmation")
    elif how == "unknown-display":
        await ctx.ask("?", display="slider", options=["a"])  # type: ignore[arg-type]
    else:
        await ctx.ask("?", options=["a", Option(id="a", label="A")])
    return "asked"


def agent(*script: Any) -> Agent:
    model = ScriptedModel([*script, "Done."])
    return Agent(name="ops", model=model, tools=[handle_incident, note, misuse])


def incident() -> Reply:
    return Reply(tool_calls=(tool_call("handle_incident", {"incident_id": "inc-7"}),))


async def test_options_travel_and_the_answer_is_a_record(backend: Backend) -> None:
    async with hosted(backend, agent(incident())) as host:
        session = await host.open_session("ops", session_id="q1")
        await session.send("triage inc-7", principal="ada")
        asked = await session.wait_for("input.requested")
        request = asked.data.request
        assert request.kind == "question" and request.display == "confirmation"
        assert request.options == tuple(LEVELS)
        # The session's state and the wire form carry the same options and hint.
        [pending] = (await session.state()).pending
        assert pending == request
        wire = asked.to_json()["data"]["request"]
        first = {"id": "p1", "label": "P1 (revenue impact)", "style": "primary"}
        assert wire["options"][0] == first
        assert wire["display"] == "confirmation"
        # Not an option id (a label is not one either): refused, nothing changes.
        for wrong in ("p9", "P1 (revenue impact)", {"option_id": "p1"}):
            with pytest.raises(InvalidAnswerError, match="option ids") as refused:
                await session.answer(request.request_id, wrong, principal="ada")
            assert refused.value.option_ids == ("p1", "p2", "p3")
            assert isinstance(refused.value, InputRequestError)
        assert [r.request_id for r in await session.pending_requests()] == [request.request_id]
        await session.answer(request.request_id, "p1", principal="ada")
        second = await session.wait_for("input.requested", after=asked.index)
        assert second.data.request.options == (
            Option(id="approve", label="Go", style="primary"),
            Option(id="cancel", label="cancel"),
        )
        await session.answer(second.data.request.request_id, "approve", principal="ada")
        await session.wait_for("turn.completed")
    assert answers == [
        Answer(status="answered", option_id="p1", text="P1 (revenue impact)", by="ada"),
        Answer(status="answered", option_id="approve", text="Go", by="ada"),
    ]


async def test_a_declined_question_returns_cancelled(backend: Backend) -> None:
    model = agent(incident())
    async with hosted(backend, model) as host:
        session = await host.open_session("ops", session_id="q2")
        await session.send("triage inc-7")
        asked = await session.wait_for("input.requested")
        await session.answer(asked.data.request.request_id, DECLINE)
        # Declining again is the same answer (a retry); an option now is refused.
        await session.answer(asked.data.request.request_id, {"cancelled": True})
        with pytest.raises(InputRequestError, match="already answered"):
            await session.answer(asked.data.request.request_id, "p1")
        done = await session.wait_for("turn.completed")
        resolved = [e for e in await session.read_events() if e.type == "input.resolved"]
    assert answers == [Answer(status="cancelled")] and not answers[0].answered
    assert [e.data.answer for e in resolved] == [{"cancelled": True}]
    result = next(m for m in model.model.requests[-1].messages if isinstance(m, ToolResultMessage))
    assert json.loads(result.content) == {"status": "cancelled"}
    assert done.type == "turn.completed"


async def test_free_text_questions_take_strings(backend: Backend) -> None:
    async with hosted(backend, agent(Reply(tool_calls=(tool_call("note", {}),)))) as host:
        session = await host.open_session("ops", session_id="q3")
        await session.send("note")
        asked = await session.wait_for("input.requested")
        assert asked.data.request.options is None and asked.data.request.display == "text"
        with pytest.raises(InvalidAnswerError, match="free text"):
            await session.answer(asked.data.request.request_id, 42)
        await session.answer(asked.data.request.request_id, "the db is fine")
        await session.wait_for("turn.completed")
    assert answers == [Answer(status="answered", text="the db is fine")]


async def test_a_message_waits_for_the_question(backend: Backend) -> None:
    model = agent(Reply(tool_calls=(tool_call("note", {}),)), "Noted.")
    async with hosted(backend, model) as host:
        session = await host.open_session("ops", session_id="q4")
        first = await session.send("note", principal="ada")
        asked = await session.wait_for("input.requested")
        later = await session.send("never mind", principal="ada")
        # The question stays asked (the tool is mid-work); the message waits.
        await asyncio.sleep(0.5)
        assert [r.request_id for r in await session.pending_requests()] == [
            asked.data.request.request_id
        ]
        await session.answer(asked.data.request.request_id, "all good", principal="ada")
        done = await session.wait_for("turn.completed", submission_id=first)
        await session.wait_for("turn.completed", submission_id=later)
        events = await session.read_events()
    assert answers == [Answer(status="answered", text="all good", by="ada")]
    started = [e.data.submission_id for e in events if e.type == "turn.started"]
    assert started == [first, later] and "turn.steered" not in [e.type for e in events]
    assert done.index < next(
        e.index for e in events if e.type == "turn.started" and e.data.submission_id == later
    )


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("text-with-options", "display 'text' takes no options"),
        ("confirmation-without-options", "display 'confirmation' needs options"),
        ("unknown-display", "display must be one of"),
        ("repeated-id", "repeated: ['a']"),
    ],
)
async def test_ask_refuses_misuse(backend: Backend, how: str, says: str) -> None:
    model = agent(Reply(tool_calls=(tool_call("misuse", {"how": how}),)))
    async with hosted(backend, model) as host:
        session = await host.open_session("ops", session_id=f"q-{how}")
        await session.send("misuse")
        returned = await session.wait_for("tool.result")
        await session.wait_for("turn.completed")
    assert returned.data.is_error and says in returned.data.content, returned.data.content
    assert "input.requested" not in [e.type for e in await session.read_events()]


def test_option_checks_its_fields() -> None:
    with pytest.raises(ConfigurationError, match="style must be one of"):
        Option(id="a", label="A", style="loud")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="non-empty string"):
        Option(id="", label="A")
    with pytest.raises(ConfigurationError, match="label"):
        Option(id="a", label="")


# The exact records an earlier release wrote: options as bare strings, no display.
OLD_EVENT = (
    b'{"type":"input.requested","data":{"request":{"request_id":"ask:c1:1","kind":"question",'
    b'"turn_id":"t1","principal":"ada","tool_name":null,"call_id":"c1","prompt":"Severity?",'
    b'"options":["p1","p2"],"approvers":[],"data":{}}},"meta":{"id":"evt_1","turnId":"t1",'
    b'"stepIndex":3,"sequence":0,"attempt":1,"at":1.0}}'
)
OLD_STEP_INPUT = (
    b'TJ1\x01{"$tether":"dataclass","cls":"tether.agent._requests:InputRequest","v":'
    b'{"request_id":"ask:c1:1","kind":"question","turn_id":"t1","principal":"ada",'
    b'"tool_name":null,"call_id":"c1","prompt":"Severity?","options":["p1","p2"],'
    b'"approvers":[],"data":{}}}'
)


def test_records_with_string_options_still_decode() -> None:
    strings = (Option(id="p1", label="p1"), Option(id="p2", label="p2"))
    event = decode_event(OLD_EVENT, 4)
    assert event.data.request.options == strings  # type: ignore[union-attr]
    assert event.data.request.display is None  # type: ignore[union-attr]
    journaled = decode(OLD_STEP_INPUT)
    assert isinstance(journaled, InputRequest)
    assert journaled.options == strings and journaled.option_ids == ("p1", "p2")
    # Either way they read back as the new shape, and round-trip in it.
    again = decode_event(json.dumps(event.to_json()).encode(), 4)
    assert again.data == event.data
    # Options that are not options make a malformed event, like any other bad field.
    for bad in (b'[{"label":"no id"}]', b'[{"id":"a","label":"A","style":"loud"}]', b"[1]"):
        raw = OLD_EVENT.replace(b'["p1","p2"]', bad)
        with pytest.raises(SerializationError, match="malformed"):
            decode_event(raw, 4)
