"""SIGKILL a worker inside a dynamic handler: a completed handler step never runs again.

The session's ``session.started`` handler completes (its step is journaled); the
worker is killed while the turn's ``turn.started`` handler runs. The next worker runs
only the interrupted handler again (its step had not completed), not the completed
one, and the turn's model call gets both handlers' texts.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from _harness import WorkerProcesses

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("dynamic_crash_app.py")
sys.path.insert(0, str(APP.parent))
import dynamic_crash_app as app  # noqa: E402


async def test_a_killed_handler_runs_again_and_a_completed_one_does_not(
    worker_processes: WorkerProcesses,
) -> None:
    workers = worker_processes
    host = app.build_host(workers.backend)
    first = workers.spawn(APP, "hang")
    session = await host.open_session("crashy", session_id="dk", owner="ada")
    await session.send("hello", client_message_id="m1")
    for _ in range(1500):
        if (workers.dir / "ready").exists():
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the turn's handler never ran")
    workers.kill(first)
    second = workers.spawn(APP)
    await session.wait_for("turn.completed", timeout=60)
    effects = [json.loads(x) for x in (workers.dir / "effects.log").read_text().splitlines()]
    assert [(e["call"], e["pid"]) for e in effects] == [
        ("profile", first.pid),
        ("per_turn", first.pid),
        ("per_turn", second.pid),
        ("model", second.pid),
    ]
    assert effects[-1]["instructions"] == "Base.\n\nThe user is ada.\n\nTurn 1."
    steps = await workers.backend.stores.workflow.list_steps(session.run_id)
    handlers = [
        (s.name.rsplit("//", 1)[-1], s.status, s.attempt) for s in steps if "//dynamic." in s.name
    ]
    assert handlers == [("dynamic.profile", "completed", 1), ("dynamic.per_turn", "completed", 2)]
    assert "dynamic.failed" not in [e.type for e in await session.read_events()]
