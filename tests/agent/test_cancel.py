"""`cancel_turn()` stops whatever the turn is doing, on every backend.

A workflow tool that sleeps or asks, and a sub-agent task (a child run), are stopped:
the turn ends ``turn.cancelled``, its submission settles ``aborted``, child runs are
cancelled, and its requests leave `pending_requests()` (answering one is refused). A
workflow tool that catches ``Exception`` cannot swallow the cancellation.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _harness import hosted, settled, types

from tether.agent import Agent, ToolWorkflowContext, tool, workflow_tool
from tether.errors import InputRequestError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

effects: list[Any] = []


@pytest.fixture(autouse=True)
def _reset() -> None:
    effects.clear()


@workflow_tool
async def wait_a_day(ctx: ToolWorkflowContext, what: str) -> str:
    """Wait a long time, durably."""
    await ctx.sleep("1d")
    effects.append(("waited", what))
    return "waited"


@workflow_tool
async def ask_first(ctx: ToolWorkflowContext, what: str) -> str:
    """Ask a human, then act."""
    answer = await ctx.ask(f"Really {what}?", options=["yes", "no"])
    effects.append(("asked", answer.option_id))
    return str(answer.option_id)


@workflow_tool
async def stubborn(ctx: ToolWorkflowContext, what: str) -> str:
    """Ask, and swallow every exception (as careless user code does)."""
    try:
        await ctx.ask(f"Really {what}?")
    except Exception:
        effects.append(("swallowed", what))
        return "swallowed"
    return "answered"


@tool
async def slow_lookup(service: str) -> str:
    """Look up a service, slowly."""
    await asyncio.sleep(30)
    effects.append(("looked up", service))
    return "ok"


def one_call(name: str, **arguments: Any) -> ScriptedModel:
    return ScriptedModel([Reply(tool_calls=(tool_call(name, arguments),)), "after", "later"])


@pytest.mark.parametrize("name", ["wait_a_day", "ask_first", "stubborn"])
async def test_cancel_stops_a_workflow_tool(backend: Backend, name: str) -> None:
    model = one_call(name, what="it")
    agent = Agent(name="ops", model=model, tools=[wait_a_day, ask_first, stubborn])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id=f"c-{name}")
        sub = await session.send("go", principal="ada")
        await session.wait_for("tool.call")
        asked = None
        if name != "wait_a_day":
            asked = await session.wait_for("input.requested")
        await session.cancel_turn(principal="ada")
        cancelled = await session.wait_for("turn.cancelled", timeout=10)
        assert await session.pending_requests() == []
        if asked is not None:
            with pytest.raises(InputRequestError, match="cancelled"):
                await session.answer(asked.data.request.request_id, "yes", principal="ada")
        # The session goes on: the next message is a new turn.
        await session.send("next", principal="ada")
        await session.wait_for("turn.completed", after=cancelled.index)
        events = await session.read_events()
    assert (await settled(backend, sub)).outcome == "aborted"
    assert effects == []
    assert "turn.completed" not in types(events[: cancelled.index])


async def test_cancel_stops_a_sub_agent_task(backend: Backend) -> None:
    researcher = Agent(
        name="researcher",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("slow_lookup", {"service": "db"}),)), "db ok"]
        ),
        tools=[slow_lookup],
    )
    lead = Agent(
        name="lead",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("researcher", {"task": "check the db"}),)), "later"]
        ),
        tools=[researcher.as_tool()],
    )
    async with hosted(backend, lead) as host:
        session = await host.open_session("lead", session_id="p1")
        sub = await session.send("how is the db?", principal="ada")
        waiting = await session.wait_for("turn.waiting", on="tasks")
        [task] = waiting.data.tasks
        child = await host.client.get(task.run_id)
        await session.cancel_turn(principal="ada")
        await session.wait_for("turn.cancelled", timeout=10)
        # The child was running its tool: it stops at once and is cancelled.
        for _ in range(500):
            if await child.status() == "cancelled":
                break
            await asyncio.sleep(0.01)
        assert (await child.status()) == "cancelled"
    assert (await settled(backend, sub)).outcome == "aborted"
    assert effects == []
