"""A hung tool or model cannot hold a run forever, on every backend.

A tool past its timeout fails (the model sees the error); a turn step past the
agent's `step_timeout` fails its attempt, which counts toward the step's 4 attempts.
Sync tools run on the engine's tracked step threads.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from _harness import hosted

from tether.agent import Agent, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

threads: list[str] = []


@tool(timeout=0.3)
async def hangs(what: str) -> str:
    """Never returns."""
    await asyncio.sleep(3600)
    return what


@tool
async def also_hangs(what: str) -> str:
    """Never returns either (bounded by the agent's tool_timeout)."""
    await asyncio.sleep(3600)
    return what


@tool
def sync_lookup(service: str) -> str:
    """A plain function: runs in a thread."""
    threads.append(threading.current_thread().name)
    time.sleep(0.01)
    return f"{service}: ok"


def last_result(model: ScriptedModel) -> ToolResultMessage:
    return next(m for m in model.requests[-1].messages if isinstance(m, ToolResultMessage))


async def test_a_tool_past_its_timeout_fails_and_the_turn_goes_on(backend: Backend) -> None:
    model = ScriptedModel(
        [
            Reply(tool_calls=(tool_call("hangs", {"what": "a"}),)),
            Reply(tool_calls=(tool_call("also_hangs", {"what": "b"}),)),
            "gave up",
        ]
    )
    agent = Agent(name="ops", model=model, tools=[hangs, also_hangs], tool_timeout=0.3)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="t1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=20)
        results = [e.data for e in await session.read_events() if e.type == "tool.result"]
    assert [(r.name, r.is_error) for r in results] == [("hangs", True), ("also_hangs", True)]
    assert all("timed out" in r.content for r in results)
    assert last_result(model).is_error


async def test_a_hung_step_fails_its_attempt_and_is_retried(backend: Backend) -> None:
    async def hang(request: ModelRequest) -> str:
        await asyncio.sleep(3600)
        return "never"

    model = ScriptedModel([hang, "recovered"])
    agent = Agent(name="ops", model=model, tools=[sync_lookup], step_timeout=0.5)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="t2")
        await session.send("go")
        done = await session.wait_for("turn.completed", timeout=30)
        steps = await (await host.client.get(session.run_id)).steps()
        events = await session.read_events()
    # The turn's step took two attempts (other turn steps: an idle one may have run before
    # the message arrived, and the session may be in its next, idle, step already).
    turn_steps = [s for s in steps if s.name.endswith("//turn_step")]
    assert [s.attempt for s in turn_steps].count(2) == 1 and model.calls == 2
    completed = [e for e in events if e.type == "message.completed"]
    assert [e.data.text for e in completed] == ["recovered"]
    assert completed[0].meta.attempt == 2 and done.meta.turn_id == completed[0].meta.turn_id


async def test_sync_tools_run_on_the_engines_step_threads(backend: Backend) -> None:
    threads.clear()
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("sync_lookup", {"service": "api"}),)), "fine"]
    )
    agent = Agent(name="ops", model=model, tools=[sync_lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="t3")
        await session.send("go")
        await session.wait_for("turn.completed")
    assert len(threads) == 1 and threads[0].startswith("tether-step"), threads


async def test_tool_timeouts_are_checked(backend: Backend) -> None:
    import pytest

    from tether.errors import ConfigurationError

    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ConfigurationError, match="timeout"):
            tool(timeout=bad)(sync_lookup.fn)
        with pytest.raises(ConfigurationError, match="timeout"):
            Agent(name="ops", model="openai:x", tool_timeout=bad)
    _: Any = backend
