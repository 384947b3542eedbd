"""Flow control across worker processes on one Postgres namespace, SIGKILL included."""

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

APP = Path(__file__).with_name("flow_app.py")
sys.path.insert(0, str(APP.parent))
import flow_app  # noqa: E402


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
    full = {**os.environ, "PYTHONPATH": str(APP.parent), **env}
    proc = subprocess.Popen([sys.executable, str(APP), url, namespace, str(effects)], env=full)
    procs.append(proc)
    return proc


async def _until(check: Callable[[], object], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition never held")
        await asyncio.sleep(0.02)


async def test_a_concurrency_limit_holds_across_worker_processes(
    pg_url: str, pg_namespace: str, tmp_path: Path, procs: list[subprocess.Popen[bytes]]
) -> None:
    async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
        client = tether.Client(backend, registry=flow_app.registry)
        # Queued before any worker runs: both processes find them all ready at once.
        handles = [await client.start(flow_app.gated, 0.1) for _ in range(8)]
        for _ in range(2):
            _worker(procs, pg_url, pg_namespace, tmp_path)
        for handle in handles:
            await handle.result(timeout=30)
    assert flow_app.most_at_once(tmp_path) == 2  # each process runs up to 4, the limit 2
    workers = {line.split()[1] for line in (tmp_path / "effects.log").read_text().splitlines()}
    assert len(workers) == 8


async def test_a_sigkilled_workers_place_comes_back(
    pg_url: str, pg_namespace: str, tmp_path: Path, procs: list[subprocess.Popen[bytes]]
) -> None:
    env = {"FLOW_CONCURRENCY": "1"}
    async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
        client = tether.Client(backend, registry=flow_app.registry)
        held = await client.start(flow_app.gated, 0.0, True, run_id="held")
        doomed = _worker(procs, pg_url, pg_namespace, tmp_path, FLOW_LEASE="2", **env)
        await _until(lambda: (tmp_path / "ready-held").exists())
        waiting = await client.start(flow_app.gated, 0.0, run_id="waiting")
        survivor = _worker(procs, pg_url, pg_namespace, tmp_path, **env)
        # The one place is the doomed worker's: the survivor leaves the waiting run be.
        await asyncio.sleep(1.0)
        run = await backend.stores.workflow.get_run("waiting")
        assert run is not None and run.status == "pending"
        doomed.send_signal(signal.SIGKILL)
        doomed.wait()
        killed_at = time.time()
        # Its place was its message's lease: once that ends (or the dead worker is
        # found), the held run comes back and the waiting one follows.
        assert await held.result(timeout=30) == "held"
        assert await waiting.result(timeout=30) == "waiting"
        assert survivor.poll() is None
    starts = [e for e in flow_app.effects(tmp_path) if e[0] == "start"]
    assert [(run_id, attempt) for _, run_id, attempt, _ in starts] == [
        ("held", 1),
        ("held", 2),
        ("waiting", 1),
    ]
    assert starts[1][3] >= killed_at
    # Apart from the killed body (which never ended), one at a time.
    ends = {run_id: at for kind, run_id, attempt, at in flow_app.effects(tmp_path) if kind == "end"}
    assert ends["held"] <= starts[2][3]
