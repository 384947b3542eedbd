"""A parked turn's wait is one span, from its park to its resumption.

The first worker (a real process) parks the turn on an approval and is SIGKILLed; the
second resumes it when the answer comes: the wait's span starts at the ``turn.waiting``
event the first one committed and ends at the ``input.resolved`` event, once, and a
replay of the session (a third worker) emits it no second time.
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
from tether.agent import (
    Agent,
    AgentHost,
    Agents,
    Session,
    SessionEvent,
    ToolWorkflowContext,
    workflow_tool,
)
from tether.testing import Reply, ScriptedModel, tool_call

sys.path.insert(0, str(Path(__file__).parent))
import wait_app

APP = Path(__file__).with_name("wait_app.py")


def _event(events: list[SessionEvent], type_: str) -> SessionEvent:
    (found,) = [e for e in events if e.type == type_]
    return found


async def _until_event(session: Session, type_: str, count: int = 1) -> SessionEvent:
    """The `count`-th event `type_` (read, not followed: another process writes them)."""
    for _ in range(1500):
        found = [e for e in await session.read_events() if e.type == type_]
        if len(found) >= count:
            return found[count - 1]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no {count} events {type_!r}")


@pytest.mark.crash
async def test_a_wait_across_a_sigkill_is_one_span_from_park_to_resume(
    tmp_path: Path, telemetry: Telemetry, db: tuple[str, str | None]
) -> None:
    url, namespace = db[0], db[1] or ""
    options = {"namespace": namespace} if namespace else {}
    env = {**os.environ, "PYTHONPATH": str(APP.parent)}
    async with tether.open_backend(url, **options) as backend:
        host = wait_app.build_host(backend)
        session = await host.open_session("ops", session_id="w1")
        with telemetry.tracer.start_as_current_span("sender") as sender:
            await session.send("restart api", principal="ada")
        first = subprocess.Popen([sys.executable, str(APP), url, namespace, str(tmp_path)], env=env)
        try:
            requested = await _until_event(session, "input.requested")
            await _until_event(session, "turn.waiting")
            # Parked: the worker releases the run's lease, and is killed then.
            for _ in range(1500):
                run = await backend.stores.workflow.get_run(session.run_id)
                if run is not None and run.lease_owner is None:
                    break
                await asyncio.sleep(0.02)
            assert run is not None and run.lease_owner is None
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        assert telemetry.spans("wait ") == []
        async with host.worker(poll_interval=0.01):
            await session.answer(requested.data.request.request_id, "approve", principal="ada")
            await _until_event(session, "turn.completed")
            (wait,) = await telemetry.wait_for("wait ")
            (turn,) = await telemetry.wait_for("invoke_agent ops")
        # A third worker replays the session's run for its next turn.
        async with host.worker(poll_interval=0.01):
            await session.send("anything else?", principal="ada")
            await _until_event(session, "turn.completed", 2)
            await telemetry.wait_for("invoke_agent ops", 2)
        events = await session.read_events()
    assert len(telemetry.spans("wait ")) == 1
    parked, resumed = _event(events, "turn.waiting"), _event(events, "input.resolved")
    assert wait.name == "wait input"
    assert wait.start_time == int(parked.meta.at * 1e9)
    assert wait.end_time == int(resumed.meta.at * 1e9)
    assert wait.end_time - wait.start_time > 0
    assert wait.attributes is not None
    assert wait.attributes["tether.session.id"] == "w1"
    assert wait.attributes["tether.turn.id"] == parked.meta.turn_id
    assert wait.attributes["tether.wait.on"] == "input"
    assert wait.attributes["tether.wait.outcome"] == "answered"
    assert wait.attributes["tether.wait.request_ids"] == (requested.data.request.request_id,)
    # In the turn's trace (the sender's), under the turn's span.
    assert wait.context.trace_id == sender.get_span_context().trace_id
    assert wait.parent is not None and wait.parent.span_id == turn.context.span_id


@workflow_tool
async def confirm(ctx: ToolWorkflowContext) -> str:
    """Ask before going on."""
    said = await ctx.ask("Go on?", options=["yes", "no"])
    return str(said.option_id)


async def test_a_workflow_tools_question_is_one_wait_span(
    telemetry: Telemetry,
) -> None:
    model = ScriptedModel([Reply(tool_calls=(tool_call("confirm", {}),)), "Done."])
    agents = Agents([Agent(name="asker", model=model, tools=[confirm])], deployment="ask")
    async with tether.open_backend("memory://") as backend:
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.01):
            session = await host.open_session("asker", session_id="q1")
            await session.send("go", principal="ada")
            asked = await session.wait_for("input.requested")
            await session.answer(asked.data.request.request_id, "yes", principal="ada")
            await session.wait_for("turn.completed")
            (wait,) = await telemetry.wait_for("wait ")
            (turn,) = await telemetry.wait_for("invoke_agent asker")
            events = await session.read_events()
    parked, resumed = _event(events, "turn.waiting"), _event(events, "input.resolved")
    assert wait.name == "wait input"
    assert wait.start_time == int(parked.meta.at * 1e9)
    assert wait.end_time == int(resumed.meta.at * 1e9)
    assert wait.attributes is not None
    assert wait.attributes["tether.wait.request_ids"] == (asked.data.request.request_id,)
    assert wait.attributes["tether.turn.id"] == parked.meta.turn_id
    assert wait.parent is not None and wait.parent.span_id == turn.context.span_id
    assert len(telemetry.spans("wait ")) == 1
