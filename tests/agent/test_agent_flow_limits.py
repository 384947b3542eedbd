"""Agents under flow control: a limit keyed by the session owner holds its turns."""

from __future__ import annotations

import asyncio
import collections

import tether
from tether.agent import Agent, AgentHost, Agents
from tether.agent.models import ModelRequest, UserMessage
from tether.durable import FlowLimit
from tether.errors import FlowLimitError
from tether.testing import ScriptedModel

running: collections.Counter[str] = collections.Counter()
peaks: collections.Counter[str] = collections.Counter()


async def answer(request: ModelRequest) -> str:
    last = request.messages[-1]
    assert isinstance(last, UserMessage)
    who = last.text.split()[0]  # the owner, as the message names it
    running[who] += 1
    running["all"] += 1
    peaks[who] = max(peaks[who], running[who])
    peaks["all"] = max(peaks["all"], running["all"])
    await asyncio.sleep(0.05)
    running[who] -= 1
    running["all"] -= 1
    return "done"


async def test_a_limit_keyed_by_owner_runs_one_turn_of_each_owner_at_once() -> None:
    running.clear()
    peaks.clear()
    agent = Agent(name="ops", model=ScriptedModel(answer))
    agents = Agents([agent], limits=[FlowLimit(name="owners", concurrency=1, key="tether.owner")])
    async with tether.open_backend("memory://") as backend:
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.02):
            sessions = [
                await host.open_session("ops", session_id=f"s{n}", owner=owner)
                for n, owner in enumerate(["acme", "acme", "acme", "bolt", "bolt"])
            ]
            for session in sessions:
                await session.send(f"{session.owner} hello")
            for session in sessions:
                await session.wait_for("turn.completed", timeout=20)
    assert peaks["acme"] == peaks["bolt"] == 1
    assert peaks["all"] == 2  # the owners' turns ran side by side


def test_agents_refuse_a_limit_that_is_not_a_flow_limit() -> None:
    agent = Agent(name="ops", model=ScriptedModel(answer))
    try:
        Agents([agent], limits=["owners"])  # type: ignore[list-item]
    except FlowLimitError as exc:
        assert "FlowLimit" in str(exc)
    else:
        raise AssertionError("a bare name was taken as a limit")
