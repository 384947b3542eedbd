"""Spans of turns, model calls and tool calls (GenAI conventions), and the agent metrics."""

from __future__ import annotations

import pytest
from _telemetry import Telemetry

import tether
from tether.agent import Agent, AgentHost, Agents, tool
from tether.agent.models import Usage
from tether.errors import ConflictError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def agents() -> Agents:
    model = ScriptedModel(
        [
            Reply(
                tool_calls=(tool_call("add", {"a": 1, "b": 2}),),
                usage=Usage(input_tokens=10, output_tokens=3, cached_tokens=4),
            ),
            Reply(text="3", usage=Usage(input_tokens=20, output_tokens=1)),
        ],
        name="mini",
    )
    return Agents([Agent(name="calc", model=model, tools=[add])], deployment="otel")


async def test_a_turn_its_steps_model_and_tool_calls_are_spans_of_the_senders_trace(
    backend: Backend, telemetry: Telemetry
) -> None:
    host = AgentHost(backend, agents())
    async with host.worker(poll_interval=0.01):
        session = await host.open_session("calc", session_id="c1")
        with telemetry.tracer.start_as_current_span("sender") as sender:
            await session.send("1 + 2?")
        called = await session.wait_for("tool.call")
        await session.wait_for("turn.completed")
        (turn,) = await telemetry.wait_for("invoke_agent calc")
    origin = sender.get_span_context()
    assert turn.context.trace_id == origin.trace_id
    assert turn.parent is not None and turn.parent.span_id == origin.span_id
    assert turn.attributes is not None
    assert turn.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert turn.attributes["gen_ai.agent.name"] == "calc"
    assert turn.attributes["tether.turn.outcome"] == "completed"
    assert turn.attributes["tether.session.id"] == "c1"
    steps = [s for s in telemetry.spans("step ") if s.context.trace_id == origin.trace_id]
    assert len(steps) == 2  # a model call and its tool; then the final answer
    assert {s.parent.span_id for s in steps if s.parent} == {turn.context.span_id}
    by_step = {s.context.span_id for s in steps}
    chats = telemetry.spans("chat ")
    assert [c.name for c in chats] == ["chat mini", "chat mini"]
    for chat, (given, taken) in zip(chats, [(10, 3), (20, 1)], strict=True):
        assert chat.parent is not None and chat.parent.span_id in by_step
        assert chat.attributes is not None
        assert chat.attributes["gen_ai.operation.name"] == "chat"
        assert chat.attributes["gen_ai.provider.name"] == "scripted"
        assert chat.attributes["gen_ai.system"] == "scripted"
        assert chat.attributes["gen_ai.request.model"] == "mini"
        assert chat.attributes["gen_ai.usage.input_tokens"] == given
        assert chat.attributes["gen_ai.usage.output_tokens"] == taken
    assert chats[0].attributes["gen_ai.response.finish_reasons"] == ("tool_calls",)
    assert chats[1].attributes["gen_ai.response.finish_reasons"] == ("end_turn",)
    (ran,) = telemetry.spans("execute_tool ")
    assert ran.name == "execute_tool add"
    assert ran.attributes is not None
    assert ran.attributes["gen_ai.operation.name"] == "execute_tool"
    assert ran.attributes["gen_ai.tool.name"] == "add"
    assert ran.attributes["gen_ai.tool.call.id"] == called.data.call_id
    assert ran.parent is not None and ran.parent.span_id == chats[0].parent.span_id

    tokens = telemetry.points("gen_ai.client.token.usage")
    by_type = {p.attributes["gen_ai.token.type"]: p.sum for p in tokens}
    assert by_type == {"input": 30, "output": 4}
    assert {p.attributes["gen_ai.request.model"] for p in tokens} == {"mini"}
    (turns,) = telemetry.points("tether.turns")
    assert turns.value == 1 and turns.attributes["tether.turn.outcome"] == "completed"
    (took,) = telemetry.points("tether.turn.duration")
    assert took.count == 1 and took.sum > 0
    steps_ended = telemetry.points("tether.steps")
    completed = [p for p in steps_ended if p.attributes["tether.step.outcome"] == "completed"]
    assert sum(p.value for p in completed) >= 3  # the session's opening step and two turn steps


async def test_a_message_sent_again_from_another_trace_is_the_same_message(
    encrypted: Backend, telemetry: Telemetry
) -> None:
    host = AgentHost(encrypted, agents())
    session = await host.open_session("calc", session_id="c2")
    with telemetry.tracer.start_as_current_span("first try"):
        first = await session.send("1 + 2?", client_message_id="m1")
    with telemetry.tracer.start_as_current_span("retry"):
        again = await session.send("1 + 2?", client_message_id="m1")
    assert again == first
    again_untraced = await session.send("1 + 2?", client_message_id="m1")
    assert again_untraced == first
    with pytest.raises(ConflictError):
        await session.send("2 + 2?", client_message_id="m1")
    async with host.worker(poll_interval=0.01):
        await session.wait_for("turn.completed")
        turns = await telemetry.wait_for("invoke_agent calc")
    assert len(turns) == 1
    first_try = telemetry.spans("first try")[0]
    assert turns[0].parent is not None
    assert turns[0].parent.span_id == first_try.context.span_id


async def test_a_child_run_of_a_run_started_untraced_still_joins_its_trace(
    backend: Backend, telemetry: Telemetry
) -> None:
    registry = tether.Registry(deployment="otel-untraced")

    @registry.workflow(name="otel.leaf")
    async def leaf(ctx: tether.WorkflowContext) -> int:
        return await ctx.step(lambda: 1, name="one")

    @registry.workflow(name="otel.root")
    async def root(ctx: tether.WorkflowContext) -> int:
        return int(await (await ctx.start_child(leaf)).result())

    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.01):
        handle = await client.start(root)  # no span current: the run's trace is its own
        assert await handle.result(timeout=20) == 1
        (top,) = await telemetry.wait_for("run otel.root")
        (kid,) = await telemetry.wait_for("run otel.leaf")
    assert top.parent is None
    assert kid.context.trace_id == top.context.trace_id
    assert kid.parent is not None and kid.parent.span_id == top.context.span_id
