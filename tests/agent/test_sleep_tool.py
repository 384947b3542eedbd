"""`sleep_tool`: the model waits, parked on a durable timer, on every backend.

The bounds are in the schema and in the validation: a call out of range is answered
with a `ToolArgumentsError` the model reads; a call in range parks the run (no worker
holds it) until the timer is due, then the tool returns. A SIGKILLed worker during the
wait is the process tests' (`test_sleep_tool_crash.py`).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from _harness import WorkerProcesses, hosted

from tether.agent import Agent, sleep_tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.errors import ConfigurationError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


def results(request: ModelRequest) -> list[tuple[str, bool]]:
    return [(m.content, m.is_error) for m in request.messages if isinstance(m, ToolResultMessage)]


async def test_the_model_sleeps_within_the_bounds_the_author_set(backend: Backend) -> None:
    seen: list[list[tuple[str, bool]]] = []

    def done(request: ModelRequest) -> str:
        seen.append(results(request))
        return "waited"

    def again(request: ModelRequest) -> Reply:
        seen.append(results(request))
        return Reply(tool_calls=(tool_call("sleep", {"seconds": 1.5}),))

    model = ScriptedModel([Reply(tool_calls=(tool_call("sleep", {"seconds": 120}),)), again, done])
    agent = Agent(name="ops", model=model, tools=[sleep_tool(max_seconds="1m")])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="z1")
        await session.send("wait a bit")
        called = await session.wait_for("tool.call", arguments={"seconds": 1.5}, timeout=10)
        began = time.monotonic()
        # While it sleeps the run is parked: no worker holds it.
        parked = False
        while not parked and time.monotonic() - began < 1.2:
            current = await host.client.latest(session.run_id)
            run = await backend.stores.workflow.get_run(current.run_id)
            assert run is not None and run.status in ("pending", "running")
            parked = run.lease_owner is None
            await asyncio.sleep(0.02)
        assert parked, run
        assert "tool.result" not in [e.type for e in await session.read_events(called.index)]
        await session.wait_for("turn.completed", after=called.index, timeout=20)
        assert time.monotonic() - began >= 1.4
    # Out of range: the model was told which bound and asked to call again.
    [refused], [_, slept] = seen
    assert refused[1] and "ToolArgumentsError" in refused[0]
    assert "less than or equal to 60" in refused[0] and "Call the tool again" in refused[0]
    assert slept == ("slept 1.5 seconds", False)


def test_the_schema_states_the_bounds() -> None:
    tool = sleep_tool(max_seconds=timedelta(minutes=5), name="pause")
    assert tool.name == "pause" and tool.is_workflow
    seconds = tool.parameters["properties"]["seconds"]
    assert (seconds["exclusiveMinimum"], seconds["maximum"]) == (0, 300)
    assert "at most 300" in tool.description
    assert tool.validate({"seconds": "2.5"}) == {"seconds": 2.5}
    for bad in (0, -1, 301, "forever", None):
        with pytest.raises(Exception, match="invalid arguments for tool 'pause'"):
            tool.validate({"seconds": bad})


@pytest.mark.parametrize("limit", [0, -5, "soon", float("inf"), float("nan"), True])
def test_a_maximum_that_is_not_a_positive_duration_is_refused(limit: object) -> None:
    with pytest.raises(ConfigurationError, match="duration"):
        sleep_tool(max_seconds=limit)  # type: ignore[arg-type]


# -- a worker SIGKILLed during the sleep -------------------------------------------------

APP = Path(__file__).with_name("sleep_crash_app.py")
sys.path.insert(0, str(APP.parent))
import sleep_crash_app as app  # noqa: E402


@pytest.mark.crash
async def test_a_worker_killed_during_the_sleep_is_replaced_when_it_is_due(
    worker_processes: WorkerProcesses,
) -> None:
    workers = worker_processes
    host = app.build_host(workers.backend, workers.dir)
    first = workers.spawn(APP)
    session = await host.open_session("ops", session_id="zk")
    await session.send("wait, then go on", client_message_id="m1")
    called = await session.wait_for("tool.call", name="sleep", timeout=30)
    began = time.monotonic()
    # Parked on the timer (no lease), then the worker dies.
    for _ in range(500):
        current = await host.client.latest(session.run_id)
        run = await workers.backend.stores.workflow.get_run(current.run_id)
        if run is not None and run.lease_owner is None:
            break
        await asyncio.sleep(0.01)
    assert run is not None and run.lease_owner is None, run
    workers.kill(first)
    assert time.monotonic() - began < app.SLEEP, "the sleep ended before the kill"
    second = workers.spawn(APP)
    done = await session.wait_for("turn.completed", after=called.index, timeout=60)
    assert time.monotonic() - began >= app.SLEEP - 0.2
    events = await session.read_events(called.index)
    returned = [e.data for e in events if e.type == "tool.result"]
    assert [(r.content, r.is_error) for r in returned] == [("slept 3 seconds", False)]
    assert done.index > called.index
    effects = [json.loads(x) for x in (workers.dir / "effects.log").read_text().splitlines()]
    # The model was called once after the sleep, by the second worker.
    assert [e["results"] for e in effects] == [[["slept 3 seconds", False]]]
    assert [e["pid"] for e in effects] == [second.pid]
