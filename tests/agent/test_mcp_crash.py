"""SIGKILL a worker while its MCP calls run; a new worker finishes the turn.

The worker (`mcp_crash_app.py`) runs in a subprocess on a real SQLite file or Postgres
namespace, and runs the MCP server (`mcp_app.py`) over stdio as its own child.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from _harness import WorkerProcesses
from _mcp import calls, logged, pid_alive, until

from tether.agent import McpToolsEntry
from tether.testing import ScriptedModel

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("mcp_crash_app.py")
sys.path.insert(0, str(APP.parent))
import mcp_crash_app as app  # noqa: E402


async def test_a_worker_killed_mid_call(worker_processes: WorkerProcesses) -> None:
    workers, dir = worker_processes, worker_processes.dir
    (dir / "hang-charge").touch()
    (dir / "hang-lookup").touch()
    host = app.build_host(workers.backend, dir)
    session = await host.open_session("ops", session_id="s1")
    first = workers.spawn(APP)
    await session.send("go")
    await until(lambda: (dir / "ready-charge").exists() and (dir / "ready-lookup").exists())
    workers.kill(first)
    server = int((dir / "ready-charge").read_text())
    # Its stdio server saw its stdin close, but its call hangs on: stopped here.
    if pid_alive(server):
        os.kill(server, signal.SIGKILL)
    (dir / "hang-charge").unlink()
    (dir / "hang-lookup").unlink()
    workers.spawn(APP)
    await session.wait_for("turn.completed", timeout=60)
    # `charge` is not idempotent and had started: never run again, its outcome unknown.
    # `lookup` is idempotent (its annotations say so): run again, with the same key,
    # by the new worker's server.
    assert len(calls(dir, "charge")) == 1
    before, after = calls(dir, "lookup")
    assert before["key"] == after["key"] and before["pid"] != after["pid"]
    assert len(logged(dir, "started")) == 2
    transcript = await session.transcript()
    outcomes = [(r.name, r.outcome) for r in transcript if r.kind == "tool_result"]
    assert outcomes == [("charge", "unknown"), ("lookup", "ok")]
    # The new worker went on with the turn's recorded listing: no second one.
    assert len([r for r in transcript if isinstance(r, McpToolsEntry)]) == 1
    assert ScriptedModel.count_calls(dir / "calls.log") == 2
