"""Step-level limits across worker processes on one Postgres namespace, SIGKILL included."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import tether

pytestmark = [pytest.mark.postgres, pytest.mark.crash, pytest.mark.slow]

HERE = Path(__file__).parent
APP = HERE / "step_limit_app.py"
sys.path.insert(0, str(HERE))
import flow_app  # noqa: E402
import step_limit_app  # noqa: E402


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()


def _worker(
    procs: list[subprocess.Popen[bytes]], url: str, namespace: str, effects: Path, **env: str
) -> subprocess.Popen[bytes]:
    full = {**os.environ, "PYTHONPATH": str(HERE), **env}
    proc = subprocess.Popen([sys.executable, str(APP), url, namespace, str(effects)], env=full)
    procs.append(proc)
    return proc


async def _until(check: Callable[[], object], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition never held")
        await asyncio.sleep(0.02)


async def test_a_tools_concurrency_limit_of_one_holds_across_worker_processes(
    pg_url: str, pg_namespace: str, tmp_path: Path, procs: list[subprocess.Popen[bytes]]
) -> None:
    async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
        client = tether.Client(backend, registry=step_limit_app.registry)
        # The runs themselves are unlimited: both processes run up to 4 at once, and
        # only their steps' permits keep the bodies one at a time.
        handles = [await client.start(step_limit_app.limited, 0.05) for _ in range(6)]
        for _ in range(2):
            _worker(procs, pg_url, pg_namespace, tmp_path)
        for handle in handles:
            await handle.result(timeout=30)
        events = await backend.stores.workflow.list_events(handles[-1].run_id)
    assert flow_app.most_at_once(tmp_path) == 1
    assert len({e[1] for e in flow_app.effects(tmp_path)}) == 6
    # Each step started once: waiting on the limit spent no attempt.
    assert all(attempt == 1 for _, _, attempt, _ in flow_app.effects(tmp_path))
    created = next(e for e in events if e.event_type == "step_created")
    assert created.attrs["limit"] == "tool" and float(created.attrs["limit_wait"]) >= 0


async def test_a_sigkilled_holders_permit_comes_back(
    pg_url: str, pg_namespace: str, tmp_path: Path, procs: list[subprocess.Popen[bytes]]
) -> None:
    async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
        client = tether.Client(backend, registry=step_limit_app.registry)
        held = await client.start(step_limit_app.limited, 0.0, True, run_id="held")
        doomed = _worker(procs, pg_url, pg_namespace, tmp_path, FLOW_LEASE="1.5")
        # A worker process starting on a loaded machine (the suite's heaviest tests run
        # beside it) may take a while to reach the step.
        await _until(lambda: (tmp_path / "ready-held").exists(), timeout=90)
        waiting = await client.start(step_limit_app.limited, 0.0, run_id="waiting")
        survivor = _worker(procs, pg_url, pg_namespace, tmp_path)
        # The survivor takes the waiting run (runs are unlimited); its step waits for
        # the permit the doomed worker holds.
        deadline = time.monotonic() + 20
        while True:
            run = await backend.stores.workflow.get_run("waiting")
            assert run is not None and time.monotonic() < deadline
            if run.status == "running":
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)
        assert [e[1] for e in flow_app.effects(tmp_path)] == ["held"]
        assert survivor.poll() is None
        doomed.send_signal(signal.SIGKILL)
        doomed.wait()
        killed_at = time.time()
        # The dead holder stops renewing: its permit lapses and the place comes back.
        assert await waiting.result(timeout=30) == "waiting"
        assert await held.result(timeout=30) == "held"
    starts = [e for e in flow_app.effects(tmp_path) if e[0] == "start"]
    assert sorted((run_id, attempt) for _, run_id, attempt, _ in starts) == [
        ("held", 1),
        ("held", 2),
        ("waiting", 1),
    ]
    # Nothing started again before the kill; one at a time after it (the killed
    # body never ended).
    after = [e for e in flow_app.effects(tmp_path) if (e[1], e[2]) != ("held", 1)]
    assert all(at >= killed_at for _, _, _, at in after)
    assert flow_app.most_at_once(tmp_path) == 2  # the killed body, and one at a time
    kinds = [kind for kind, _, _, _ in sorted(after, key=lambda e: e[3])]
    assert kinds == ["start", "end", "start", "end"]
