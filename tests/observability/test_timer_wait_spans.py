"""A workflow tool's durable sleep and a sub-agent's task are each one wait span.

``wait sleep`` runs from the sleep's start (the workflow's clock, the same on every
replay) to the step that found the timer due; ``wait task`` from the sub-agent's run's
creation to the step that found it ended. Both hang under the turn's span. A worker killed
during the sleep leaves the span to the worker that wakes the turn; a replay (a third
worker) emits it no second time.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from _telemetry import Telemetry

import tether
from tether.agent import Agent, AgentHost, Agents, Session, sleep_tool
from tether.testing import Reply, ScriptedModel, tool_call

sys.path.insert(0, str(Path(__file__).parent))
import wait_app

APP = Path(__file__).with_name("wait_app.py")


async def _until_event(session: Session, type_: str, count: int = 1) -> float:
    """The time of the `count`-th event `type_` (read: another process writes them)."""
    for _ in range(1500):
        found = [e for e in await session.read_events() if e.type == type_]
        if len(found) >= count:
            return found[count - 1].meta.at
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {count} events {type_!r}")


async def test_a_sub_agents_task_is_one_wait_span_under_the_turn(telemetry: Telemetry) -> None:
    researcher = Agent(name="researcher", model=ScriptedModel(["the db is fine"]))
    lead = Agent(
        name="lead",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("researcher", {"task": "check the db"}),)), "Fine."]
        ),
        tools=[researcher.as_tool()],
    )
    agents = Agents([lead, researcher], deployment="tasks")
    async with tether.open_backend("memory://") as backend:
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.01):
            session = await host.open_session("lead", session_id="t1")
            await session.send("how is the db?", principal="ada")
            waiting = await session.wait_for("turn.waiting", on="tasks")
            await session.wait_for("turn.completed")
            (wait,) = await telemetry.wait_for("wait ")
            (turn,) = await telemetry.wait_for("invoke_agent lead")
            (task,) = waiting.data.tasks
            child = await backend.stores.workflow.get_run(task.run_id)
            events = await session.read_events()
    (result,) = [e.data for e in events if e.type == "tool.result"]
    assert getattr(result, "content", None) == "the db is fine"
    assert child is not None and child.completed_at is not None
    assert wait.name == "wait task"
    assert wait.attributes is not None
    assert wait.attributes["tether.wait.on"] == "task"
    assert wait.attributes["tether.wait.outcome"] == "completed"
    assert wait.attributes["tether.task.run_id"] == task.run_id
    assert wait.attributes["tether.task.agent"] == "researcher"
    assert wait.attributes["gen_ai.tool.call.id"] == task.call_id
    assert wait.attributes["tether.session.id"] == "t1"
    # From the child's start to after its end, within the turn.
    assert wait.start_time is not None and wait.end_time is not None
    assert turn.start_time is not None and turn.end_time is not None
    assert turn.start_time <= wait.start_time < wait.end_time <= turn.end_time
    # The task run's creation, to the microsecond a run's record keeps.
    assert abs(wait.start_time - child.created_at * 1e9) <= 1_000
    assert wait.end_time >= int(child.completed_at * 1e9)
    assert wait.context.trace_id == turn.context.trace_id
    assert wait.parent is not None and wait.parent.span_id == turn.context.span_id
    assert len(telemetry.spans("wait ")) == 1
    # The turn's span starts with the step attempt that began it: none of its children
    # (its steps, their model and tool calls) starts before it.
    children = [
        s for s in telemetry.spans() if s.parent and s.parent.span_id == turn.context.span_id
    ]
    assert len(children) >= 3 and {s.name for s in children} >= {"step turn_step", "wait task"}
    assert min(s.start_time or 0 for s in children) == turn.start_time


async def test_a_sleep_cut_short_by_a_cancel_is_a_cancelled_wait(telemetry: Telemetry) -> None:
    model = ScriptedModel([Reply(tool_calls=(tool_call("sleep", {"seconds": 600}),))])
    sleeper = Agent(name="sleeper", model=model, tools=[sleep_tool(max_seconds=3600)])
    async with tether.open_backend("memory://") as backend:
        host = AgentHost(backend, Agents([sleeper], deployment="cancel"))
        async with host.worker(poll_interval=0.01):
            session = await host.open_session("sleeper", session_id="c1")
            await session.send("rest", principal="ada")
            await session.wait_for("tool.call")
            await session.cancel_turn(principal="ada")
            await session.wait_for("turn.cancelled")
            (wait,) = await telemetry.wait_for("wait ")
    assert wait.name == "wait sleep" and wait.attributes is not None
    assert wait.attributes["tether.wait.outcome"] == "cancelled"
    until = wait.attributes["tether.wait.until"]
    assert isinstance(until, float) and wait.end_time is not None
    assert wait.end_time < int(until * 1e9)  # cut short


@pytest.mark.crash
async def test_a_durable_sleep_across_a_sigkill_is_one_wait_span(
    tmp_path: Path, telemetry: Telemetry
) -> None:
    url = f"sqlite:///{tmp_path}/tether.db"
    env = {**os.environ, "PYTHONPATH": str(APP.parent)}
    async with tether.open_backend(url) as backend:
        host = wait_app.build_host(backend)
        session = await host.open_session("sleeper", session_id="s1")
        await session.send("rest a while", principal="ada")
        first = subprocess.Popen([sys.executable, str(APP), url, "", str(tmp_path)], env=env)
        try:
            await _until_event(session, "tool.call")
            # Asleep: the worker releases the run's lease, and is killed then.
            for _ in range(1500):
                run = await backend.stores.workflow.get_run(session.run_id)
                if run is not None and run.lease_owner is None:
                    break
                await asyncio.sleep(0.02)
            assert run is not None and run.lease_owner is None
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        events = [e.type for e in await session.read_events()]
        assert "turn.completed" not in events, "the first worker woke before it was killed"
        async with host.worker(poll_interval=0.01):
            await _until_event(session, "turn.completed")
            (wait,) = await telemetry.wait_for("wait ")
            (turn,) = await telemetry.wait_for("invoke_agent sleeper")
        # A third worker replays the session's run for its next turn.
        async with host.worker(poll_interval=0.01):
            await session.send("anything else?", principal="ada")
            await _until_event(session, "turn.completed", 2)
            await telemetry.wait_for("invoke_agent sleeper", 2)
    assert len(telemetry.spans("wait ")) == 1
    assert wait.name == "wait sleep"
    assert wait.attributes is not None
    assert wait.attributes["tether.wait.on"] == "sleep"
    assert wait.attributes["tether.wait.outcome"] == "elapsed"
    assert wait.attributes["tether.session.id"] == "s1"
    until = wait.attributes["tether.wait.until"]
    assert isinstance(until, float)
    # It starts where the sleep began (its end minus its length) and ends once due.
    assert wait.start_time is not None and wait.end_time is not None
    assert abs(wait.start_time / 1e9 - (until - wait_app.SLEEP)) < 1e-6
    assert wait.end_time >= int(until * 1e9)
    assert wait.parent is not None and wait.parent.span_id == turn.context.span_id
    assert wait.context.trace_id == turn.context.trace_id
