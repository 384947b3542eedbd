"""SIGKILL a worker mid-turn: the large result that landed is read whole by others.

One reply calls two tools returning results stored by content. The first lands (its
text in the session's attachment stream, its entry referring to it) while the second
hangs; the worker is killed. The next worker runs only the call without a result, and
this process, which stored neither, reads both back whole from the store.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from _harness import WorkerProcesses

from tether.agent import ToolResultEntry, payload_id

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("payload_crash_app.py")
sys.path.insert(0, str(APP.parent))
import payload_crash_app as app  # noqa: E402


async def test_a_killed_turn_keeps_its_landed_large_result(
    worker_processes: WorkerProcesses,
) -> None:
    workers = worker_processes
    host = app.build_host(workers.backend)
    first = workers.spawn(APP)
    session = await host.open_session("reports", session_id="pk")
    await session.send("two reports", client_message_id="m1")

    async def first_landed() -> bool:
        if not (workers.dir / "ready").exists():
            return False
        return any(isinstance(e, ToolResultEntry) for e in await session.transcript())

    for _ in range(1500):
        if await first_landed():
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the first result never landed")
    workers.kill(first)
    second = workers.spawn(APP)
    await session.wait_for("turn.completed", timeout=60)
    effects = [json.loads(x) for x in (workers.dir / "effects.log").read_text().splitlines()]
    runs = sorted((e["tool"], e["pid"]) for e in effects)
    assert runs == sorted(
        [("report", first.pid), ("report_and_hang", first.pid), ("report_and_hang", second.pid)]
    )
    results = {e.name: e for e in await session.transcript() if isinstance(e, ToolResultEntry)}
    assert results["report"].content == app.text(1)
    assert results["report_and_hang"].content == app.text(2)
    assert {r.content_ref for r in results.values()} == {
        payload_id(app.text(1)),
        payload_id(app.text(2)),
    }
    events = [e.data for e in await session.read_events() if e.type == "tool.result"]
    assert sorted(e.content for e in events) == sorted([app.text(1), app.text(2)])
