"""Message delivery while a turn runs (seed §10.10), on every backend.

Each test pins one rule the first pass broke: another principal's message waits for a
parked turn to end; a message sent while text streams joins the same turn at the next
boundary with the streamed text kept; and a model request never leaves a tool call
unanswered, after a revoked approval or a cancelled turn.
"""

from __future__ import annotations

import asyncio
from typing import Any

from _harness import assert_calls_answered, hosted, settled, types, users

from tether.agent import Agent, approval, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

effects: list[Any] = []

STREAM = " ".join(f"word{i}" for i in range(40))


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    effects.append(("restart", service))
    return f"{service} restarted"


def count_users(request: ModelRequest) -> str:
    return f"users: {users(request)}"


async def test_another_principals_message_waits_for_the_parked_turn_to_end(
    backend: Backend,
) -> None:
    effects.clear()
    model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            count_users,
            count_users,
        ]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="s1")
        ada = await session.send("restart api", principal="ada")
        requested = await session.wait_for("input.requested")
        bob = await session.send("an unrelated question", principal="bob")
        await asyncio.sleep(0.3)
        await session.answer(requested.data.request.request_id, "approve", principal="ada")
        first = await session.wait_for("turn.completed")
        second = await session.wait_for("turn.completed", after=first.index)
        events = await session.read_events()
    # Bob's message never joined ada's turn: it began a turn of its own afterwards.
    assert [e for e in events if e.type == "turn.steered"] == []
    started = [e for e in events if e.type == "turn.started"]
    assert [e.data.submission_id for e in started] == [ada, bob]
    assert started[1].meta.turn_id == second.meta.turn_id != first.meta.turn_id
    texts = [e.data.text for e in events if e.type == "message.completed"]
    assert texts[1:] == ["users: 1", "users: 2"]
    assert (await settled(backend, ada)).outcome == "completed"
    assert (await settled(backend, bob)).outcome == "completed"
    assert effects == [("restart", "api")]


async def test_a_message_sent_while_text_streams_joins_the_same_turn(backend: Backend) -> None:
    model = ScriptedModel([STREAM, count_users], delta_delay=0.02)
    agent = Agent(name="ops", model=model, tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="s2")
        first = await session.send("tell me a story", principal="ada")
        await session.wait_for("message.delta")
        second = await session.send("and make it short", principal="ada")
        done = await session.wait_for("turn.completed")
        events = await session.read_events()
    # One turn: the streamed reply is kept whole, then the message joins and the model
    # is called again in the same turn.
    assert types(events).count("turn.started") == 1
    assert [e.data.text for e in events if e.type == "message.completed"] == [
        STREAM,
        "users: 2",
    ]
    steered = [e for e in events if e.type == "turn.steered"]
    assert [e.data.submission_id for e in steered] == [second]
    assert steered[0].meta.turn_id == done.meta.turn_id
    order = types(events)
    assert order.index("message.completed") < order.index("turn.steered")
    assert (await settled(backend, first)).outcome == "completed"
    assert (await settled(backend, second)).outcome == "completed"


async def test_a_revoked_approval_answers_its_call_before_the_steering_message(
    backend: Backend,
) -> None:
    effects.clear()
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)), "skipped"]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="s3")
        await session.send("restart api", principal="ada")
        await session.wait_for("input.requested")
        await session.send("no wait, don't", principal="ada")
        await session.wait_for("turn.completed")
        events = await session.read_events()
    messages = model.requests[-1].messages
    assert_calls_answered(messages)
    result = next(m for m in messages if isinstance(m, ToolResultMessage))
    assert result.is_error and "revoked" in result.content
    returned = [e.data for e in events if e.type == "tool.result"]
    assert [r.outcome for r in returned] == ["revoked"]
    assert effects == []


async def test_a_cancelled_turn_leaves_no_call_unanswered(backend: Backend) -> None:
    effects.clear()
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)), "hello again"]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="s4")
        await session.send("restart api", principal="ada")
        await session.wait_for("input.requested")
        await session.cancel_turn(principal="ada")
        cancelled = await session.wait_for("turn.cancelled")
        await session.send("hello", principal="ada")
        await session.wait_for("turn.completed", after=cancelled.index)
    messages = model.requests[-1].messages
    assert_calls_answered(messages)
    result = next(m for m in messages if isinstance(m, ToolResultMessage))
    assert result.is_error and "cancelled" in result.content
    assert effects == []
