"""SIGKILL a worker mid-turn: the session's state holds the completed tool calls only.

One reply calls two tools that each count a visit. The first returns, and its count
lands with its result; the worker is killed while the second hangs after counting.
The count it made in memory is gone; the next worker runs only the call without a
result (the first is not run again), so every call counted exactly once.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from _harness import WorkerProcesses

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("state_crash_app.py")
sys.path.insert(0, str(APP.parent))
import state_crash_app as app  # noqa: E402


async def test_a_killed_turn_keeps_the_state_of_its_completed_calls(
    worker_processes: WorkerProcesses,
) -> None:
    workers = worker_processes
    host = app.build_host(workers.backend)
    first = workers.spawn(APP)
    session = await host.open_session("shop", session_id="sk")
    await session.send("count me twice", client_message_id="m1")

    async def counted_once() -> bool:
        ready = (workers.dir / "ready").exists()
        return ready and (await session.state_values())[app.visits] == 1

    # The first call's count is durable (with its result) while the second hangs.
    await _until(counted_once)
    workers.kill(first)
    assert (await session.state_values())[app.visits] == 1
    second = workers.spawn(APP)
    await session.wait_for("turn.completed", timeout=60)
    assert (await session.state_values())[app.visits] == 2
    effects = [json.loads(x) for x in (workers.dir / "effects.log").read_text().splitlines()]
    runs = [(e["tool"], e["pid"]) for e in effects]
    assert runs == [
        ("bump", first.pid),
        ("bump_and_hang", first.pid),
        ("bump_and_hang", second.pid),
    ] or runs == [
        ("bump_and_hang", first.pid),
        ("bump", first.pid),
        ("bump_and_hang", second.pid),
    ]
    transcript = await session.transcript()
    results = [e.content for e in transcript if e.kind == "tool_result"]
    assert sorted(results) == ["bumped", "bumped, slowly"]


async def _until(check: Callable[[], Awaitable[bool]], timeout: float = 30) -> None:
    for _ in range(int(timeout / 0.02)):
        if await check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition never held")


async def test_a_workflow_tool_killed_mid_body_changes_the_state_once(
    worker_processes: WorkerProcesses,
) -> None:
    workers = worker_processes
    host = app.build_host(workers.backend)
    first = workers.spawn(APP)
    session = await host.open_session("counter", session_id="wk")
    await session.send("tally up", client_message_id="m1")

    async def parked_in_the_tool() -> bool:
        return (workers.dir / "ready").exists()

    # `bump` landed with the step that parked on `tally`; `tally` hangs in its step.
    await _until(parked_in_the_tool)
    assert (await session.state_values())[app.visits] == 1
    workers.kill(first)
    workers.spawn(APP)
    await session.wait_for("turn.completed", timeout=60)
    # The next worker ran the body again from its journal: it read the same 1 (the
    # parking step's result) and its change landed once, with its result.
    assert (await session.state_values())[app.visits] == 6
    transcript = await session.transcript()
    results = [e.content for e in transcript if e.kind == "tool_result"]
    assert sorted(results) == ["bumped", "tallied 6"]
    changes = [dict(e.values) for e in transcript if e.kind == "state"]
    assert changes == [{"visits": 1}, {"visits": 6}]
