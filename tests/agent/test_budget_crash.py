"""SIGKILL a real worker between a model call's reserve and its settle: counted once.

The killed attempt reserved its estimate and never settled (its reply never reached
the transcript). The restarted worker's attempt of the same step releases that
reservation when it reserves for the call again, calls the model, and settles to what
the call used: the budget ends with one call used and nothing reserved.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from _harness import WorkerProcesses

from tether.agent import BudgetScope
from tether.testing import ScriptedModel

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("budget_crash_app.py")
sys.path.insert(0, str(APP.parent))
import budget_crash_app as app  # noqa: E402


# One SQLite run: the store's part is in the budget contract, run on every backend.
@pytest.mark.parametrize("worker_processes", ["sqlite"], indirect=True)
async def test_a_kill_between_reserve_and_settle_counts_the_call_once(
    worker_processes: WorkerProcesses,
) -> None:
    store = worker_processes
    host = app.build_host(store.backend, store.dir)
    store.spawn(APP)
    session = await host.open_session("metered", session_id="crash-1")
    scope = BudgetScope.session("metered", "crash-1")
    await session.send("talk", client_message_id="m1")

    async def streaming() -> bool:
        events = await session.read_events()
        return sum(e.type == "message.delta" for e in events) >= 3

    for _ in range(1000):
        if await streaming():
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the model never streamed")
    held = await host.budget(scope)
    assert held is not None
    assert (held.used_tokens, held.reserved_tokens) == (0, app.ESTIMATE)
    store.kill(store.procs[0])
    assert ScriptedModel.count_calls(store.dir / "calls.log") == 1

    store.spawn(APP)
    await session.wait_for("turn.completed", timeout=30)
    assert ScriptedModel.count_calls(store.dir / "calls.log") == 2
    status = await host.budget(scope)
    assert status is not None
    used = app.USAGE.input_tokens + app.USAGE.output_tokens
    assert (status.used_tokens, status.reserved_tokens) == (used, 0)
    completed = [e for e in await session.read_events() if e.type == "message.completed"]
    assert len(completed) == 1
