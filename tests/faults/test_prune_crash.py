"""A retention sweep SIGKILLed midway: every run is purged or intact, and the next finishes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tether
from tether.stores import Commit, NewEvent, NewRun

pytestmark = pytest.mark.crash

RUNS = 60
OUTPUT = b'"kept output"'

_SWEEP = """
import asyncio, sys
import tether
from tether.agent import SessionPruner
from tether.durable import prune

async def main():
    async with tether.open_backend(sys.argv[1]) as backend:
        print("sweeping", flush=True)
        await prune(backend, older_than=1e-6, batch_size=1, pruner=SessionPruner())
        print("done", flush=True)

asyncio.run(main())
"""


async def _ended_runs(url: str) -> None:
    async with tether.open_backend(url, synchronous="NORMAL") as backend:
        store = backend.stores.workflow
        for n in range(RUNS):
            run_id = f"k{n:03d}"
            await store.create_run(
                NewRun(
                    run_id=run_id, workflow_name="wf", input=b'{"args":["secret"]}',
                    deployment="d", engine_version="e", queue="q",
                )
            )  # fmt: skip
            claim = await store.claim_run(run_id, owner="w", lease_seconds=30)
            assert claim.run is not None
            done = NewEvent(event_type="run_completed", payload=OUTPUT)
            await store.commit(
                Commit(
                    run_id=run_id, owner="w", epoch=claim.epoch, expected_head=claim.run.head,
                    events=(done,), release=True,
                )
            )  # fmt: skip


async def _left(url: str) -> int:
    async with tether.open_backend(url, migrate=False) as backend:
        return len(await backend.stores.workflow.list_prunable_runs(time.time(), limit=RUNS))


async def test_a_sweep_killed_midway_leaves_each_run_whole(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/crash.db"
    await _ended_runs(url)
    sweep = subprocess.Popen([sys.executable, "-c", _SWEEP, url], stdout=subprocess.PIPE, text=True)
    try:
        assert sweep.stdout is not None and sweep.stdout.readline().strip() == "sweeping"
        for _ in range(2000):
            left = await _left(url)
            if left < RUNS - 5:
                break
            await asyncio.sleep(0.002)
        os.kill(sweep.pid, signal.SIGKILL)
        assert sweep.wait(timeout=10) == -signal.SIGKILL
    finally:
        if sweep.poll() is None:
            sweep.kill()
            sweep.wait(timeout=10)
        assert sweep.stdout is not None
        sweep.stdout.close()
    async with tether.open_backend(url) as backend:
        store = backend.stores.workflow
        left = {r.run_id for r in await store.list_prunable_runs(time.time(), limit=RUNS)}
        assert 0 < len(left) < RUNS, "the kill did not land midway"
        for n in range(RUNS):
            run = await store.get_run(f"k{n:03d}")
            assert run is not None
            # Purged (input and output gone, off the list) or intact (both there, listed).
            if run.run_id in left:
                assert run.output is not None and run.input is not None
            else:
                assert run.output is None and run.input is None
        report = await tether.durable.prune(backend, older_than=1e-6)
        assert sorted(report.runs) == sorted(left)
        assert await store.list_prunable_runs(time.time(), limit=RUNS) == []
        for n in range(RUNS):
            run = await store.get_run(f"k{n:03d}")
            assert run is not None and run.output is None
