"""Soak under faults: SIGKILLs, connection cuts and stalls longer than the lease, 4 workers.

Postgres: four worker processes reach the server through a fault-injecting proxy; for
a while, every ~0.7 s one fault strikes: a worker is SIGKILLed (and another started),
every connection is cut for up to 2.5 s, or all traffic stalls for 2.5 s (the lease is
2 s). SQLite: four workers on one file on a small tmpfs, SIGKILLs and 2.5 s of full
disk. Then every run must finish with the right result, every step be committed once,
and no two executions of one step overlap in time (from logs written outside the
store). ``TETHER_FAULT_SOAK_RUNS`` and ``TETHER_FAULT_SOAK_SECONDS`` change the size
(`bench/fault_soak.py` runs a longer one).
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import tether
from tether.testing import FaultProxy, SmallDisk

sys.path.insert(0, str(Path(__file__).parent))
import fault_app
from fleet import Fleet

pytestmark = pytest.mark.crash

RUNS = int(os.environ.get("TETHER_FAULT_SOAK_RUNS", "120"))
SECONDS = float(os.environ.get("TETHER_FAULT_SOAK_SECONDS", "10"))
WORKERS = 4
ENV = {"LEASE": "2", "STEP_SECONDS": "0.05", "CONCURRENCY": "8"}


async def _chaos(
    fleet: Fleet, rng: random.Random, faults: dict[str, Callable[[], object]]
) -> collections.Counter[str]:
    """Strike one fault at a time until `SECONDS` pass; returns what struck."""
    struck: collections.Counter[str] = collections.Counter()
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        await asyncio.sleep(rng.uniform(0.3, 0.9))
        # A worker started while the store is unreachable exits with an error (as it
        # should: it cannot even check the schema); its replacement comes here.
        for _ in range(WORKERS - len(fleet.live())):
            fleet.start()
        kind = rng.choice(["kill", *faults])
        struck[kind] += 1
        if kind == "kill":
            fleet.kill(rng.choice(fleet.live()))
            fleet.start()
        else:
            result = faults[kind]()
            if asyncio.iscoroutine(result):
                await result
    for _ in range(WORKERS - len(fleet.live())):
        fleet.start()
    return struck


async def _check(backend: tether.Backend, handles: list[tether.RunHandle], fleet: Fleet) -> str:
    results = await asyncio.gather(*(h.result(timeout=120) for h in handles))
    assert results == [fault_app.expected(i) for i in range(len(handles))]
    store = backend.stores.workflow
    retried = 0
    for handle in handles:
        events = await store.list_events(handle.run_id)
        completed = collections.Counter(
            e.correlation_id for e in events if e.event_type == "step_completed"
        )
        assert len(completed) == fault_app.STEPS and set(completed.values()) == {1}
        retried += sum(s.attempt > 1 for s in await store.list_steps(handle.run_id))
        run = await store.get_run(handle.run_id)
        assert run is not None and run.lease_owner is None
    cut = fleet.check_no_overlap()
    done = {key for key, found in fleet.executions().items() if any(e.end for e in found)}
    assert done == {(h.run_id, s) for h in handles for s in range(1, fault_app.STEPS + 1)}
    return f"{cut} executions cut short, {retried} steps retried"


@pytest.mark.slow
@pytest.mark.postgres
async def test_soak_postgres_kills_cuts_and_stalls(
    pg_url: str, pg_namespace: str, tmp_path: Path
) -> None:
    rng = random.Random(int(os.environ.get("TETHER_FAULT_SOAK_SEED", "10")))

    async def cut() -> None:
        proxy.cut()
        await asyncio.sleep(rng.choice([0.3, 1.0, 2.5]))
        proxy.restore()

    async def stall() -> None:
        proxy.pause()
        await asyncio.sleep(2.5)
        proxy.resume()

    with FaultProxy.for_url(pg_url) as proxy:
        fleet = Fleet(proxy.url(pg_url), tmp_path, env={"NAMESPACE": pg_namespace, **ENV})
        async with tether.open_backend(pg_url, namespace=pg_namespace, pool_size=2) as backend:
            client = tether.Client(backend, registry=fault_app.registry)
            handles = [await client.start("chain", i, run_id=f"soak-{i}") for i in range(RUNS)]
            try:
                for _ in range(WORKERS):
                    fleet.start()
                started = time.monotonic()
                struck = await _chaos(fleet, rng, {"cut": cut, "stall": stall})
                summary = await _check(backend, handles, fleet)
            finally:
                fleet.stop()
    print(
        f"\nfault soak (postgres): {RUNS} runs x {fault_app.STEPS} steps, faults {dict(struck)}, "
        f"all done {time.monotonic() - started:.1f}s after start; {summary}"
    )


@pytest.mark.slow
async def test_soak_sqlite_kills_and_a_full_disk(tmp_path: Path) -> None:
    if not SmallDisk.available():
        pytest.skip("needs root to mount a small tmpfs")
    rng = random.Random(int(os.environ.get("TETHER_FAULT_SOAK_SEED", "11")))
    with SmallDisk(64 * 1024) as disk:

        async def full() -> None:
            with disk.full():
                await asyncio.sleep(2.5)

        url = f"sqlite:///{disk.path}/tether.db"
        fleet = Fleet(url, tmp_path, env=ENV)
        async with tether.open_backend(url) as backend:
            client = tether.Client(backend, registry=fault_app.registry)
            handles = [await client.start("chain", i, run_id=f"soak-{i}") for i in range(RUNS)]
            try:
                for _ in range(WORKERS):
                    fleet.start()
                started = time.monotonic()
                struck = await _chaos(fleet, rng, {"full": full})
                summary = await _check(backend, handles, fleet)
            finally:
                fleet.stop()
    print(
        f"\nfault soak (sqlite): {RUNS} runs x {fault_app.STEPS} steps, faults {dict(struck)}, "
        f"all done {time.monotonic() - started:.1f}s after start; {summary}"
    )
