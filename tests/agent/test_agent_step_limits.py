"""Agents under step-level limits: a tool's calls and an agent's model calls take permits."""

from __future__ import annotations

import asyncio
import collections

import pytest

import tether
from tether.agent import Agent, AgentHost, Agents, ToolContext, tool
from tether.agent.models import ModelRequest
from tether.durable import FlowLimit
from tether.errors import ConfigurationError, FlowLimitError
from tether.testing import Reply, ScriptedModel, tool_call

running: collections.Counter[str] = collections.Counter()
peaks: collections.Counter[str] = collections.Counter()


async def _hold(group: str) -> None:
    running[group] += 1
    peaks[group] = max(peaks[group], running[group])
    await asyncio.sleep(0.03)
    running[group] -= 1


@tool(limit="search")
async def search(ctx: ToolContext, q: str) -> str:
    """Search."""
    await _hold("search")
    return f"found {q}"


async def answer(request: ModelRequest) -> Reply | str:
    await _hold("model")
    if not any(m.role == "tool" for m in request.messages):
        return Reply(tool_calls=tuple(tool_call("search", {"q": f"q{i}"}) for i in range(3)))
    return "done"


async def test_a_tools_limit_holds_its_parallel_calls_and_model_calls_too() -> None:
    running.clear()
    peaks.clear()
    agent = Agent(name="ops", model=ScriptedModel(answer), tools=[search], model_limit="llm")
    agents = Agents(
        [agent],
        step_limits=[FlowLimit(name="search", concurrency=1), FlowLimit(name="llm", concurrency=1)],
    )
    async with tether.open_backend("memory://") as backend:
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.02):
            sessions = [await host.open_session("ops", session_id=f"s{n}") for n in range(2)]
            for session in sessions:
                await session.send("go")
            for session in sessions:
                await session.wait_for("turn.completed", timeout=20)
            results = [r for r in await sessions[0].transcript() if r.kind == "tool_result"]
    assert len(results) == 3 and {r.outcome for r in results} == {"ok"}
    # Three parallel calls in each of two sessions, one at a time; so the model calls.
    assert peaks["search"] == 1 and peaks["model"] == 1


def test_a_limit_no_one_declares_is_refused_when_agents_are_built() -> None:
    with pytest.raises(FlowLimitError, match=r"tool 'search' of agent 'ops'.*step_limits"):
        Agents([Agent(name="ops", model=ScriptedModel(answer), tools=[search])])
    with pytest.raises(FlowLimitError, match="model_limit names limit 'llm'"):
        Agents(
            [Agent(name="ops", model=ScriptedModel(answer), model_limit="llm")],
            step_limits=[FlowLimit(name="search", concurrency=1)],
        )

    def lookup(q: str) -> str:
        """Look up."""
        return q

    with pytest.raises(ConfigurationError, match="limit is the name of a limit"):
        tool(limit="")(lookup)
