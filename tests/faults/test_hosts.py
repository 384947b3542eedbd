"""A worker in another pid namespace under the same hostname must not look dead.

Two containers may share a hostname without sharing process ids: each would find the
other's pids missing and take its runs over while they still run. The worker in a new
pid namespace here (``unshare --pid``) sees no process with the other worker's pid.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tether

sys.path.insert(0, str(Path(__file__).parent))
import fault_app
from fleet import Fleet, until

pytestmark = pytest.mark.crash

# --kill-child: SIGKILLing unshare must take the worker (pid 1 of its namespace) with it,
# or the worker outlives the test.
UNSHARE = ("unshare", "--pid", "--fork", "--kill-child=SIGKILL", "--mount-proc")


def _can_unshare() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run([*UNSHARE, "true"], capture_output=True, check=False)
    return probe.returncode == 0


async def test_a_live_worker_in_another_pid_namespace_is_not_taken_for_dead(
    tmp_path: Path,
) -> None:
    if not _can_unshare():
        pytest.skip("needs `unshare --pid` (root, or user namespaces)")
    url = f"sqlite:///{tmp_path}/tether.db"
    # A long lease: the only way for the second worker to take the run is to judge the
    # first one dead by its pid.
    fleet = Fleet(url, tmp_path, env={"LEASE": "30", "STEP_SECONDS": "3", "DEAD_AFTER": "20"})
    async with tether.open_backend(url) as backend:
        handle = await tether.Client(backend, registry=fault_app.registry).start(
            "chain", 3, 1, run_id="two-containers"
        )
        try:
            fleet.start()
            await until(lambda: fleet.started(handle.run_id) >= 1, what="the step started")
            fleet.start(wrap=UNSHARE)
            assert await handle.result(timeout=30) == fault_app.expected(3, 1)
            await asyncio.sleep(0.5)
        finally:
            fleet.stop()
    assert len(fleet.executions()[("two-containers", 1)]) == 1
    fleet.check_no_overlap()
