"""Soak: 4 worker processes on one namespace, SIGKILL a random one every second.

500 runs of 10 steps; for 10 s a random worker is killed and restarted each second.
Every run must finish with the right result, every step be committed once, and no two
executions of one step overlap in time (checked from logs written outside the
database). ``TETHER_SOAK_RUNS`` changes the number of runs.
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tether
from tether.stores.postgres import PostgresBackend

pytestmark = [pytest.mark.postgres, pytest.mark.crash]

APP = Path(__file__).with_name("soak_app.py")
sys.path.insert(0, str(APP.parent))
sys.path.insert(0, str(APP.parent.parent / "faults"))
import soak_app  # noqa: E402
from fleet import Fleet  # noqa: E402

RUNS = int(os.environ.get("TETHER_SOAK_RUNS", "500"))
WORKERS = 4
KILLS = 10
# Long enough that the work outlasts the kills (about 13 s on 2 cores).
STEP_SECONDS = 0.07


@pytest.fixture
def fleet(pg_url: str, pg_namespace: str, tmp_path: Path) -> Iterator[Fleet]:
    f = soak_fleet(pg_url, pg_namespace, tmp_path, STEP_SECONDS)
    try:
        yield f
    finally:
        f.stop()


def soak_fleet(url: str, namespace: str, log_dir: Path, step_seconds: float) -> Fleet:
    """Worker processes running `soak_app.py` on one namespace."""
    env = {"NAMESPACE": namespace, "STEP_SECONDS": str(step_seconds)}
    return Fleet(url, log_dir, env=env, app=APP)


def check_no_overlap(fleet: Fleet, runs: list[str]) -> int:
    """Assert no two executions of one step overlapped and every step of `runs` finished.

    Returns how many executions were cut short.
    """
    cut = fleet.check_no_overlap()
    for (run_id, slot), executions in fleet.executions().items():
        last = max(executions, key=lambda e: e.start)
        assert last.end is not None, f"{run_id} slot {slot} never finished"
    steps = {key for key in fleet.executions()}
    assert steps == {(r, s) for r in runs for s in range(1, soak_app.STEPS + 1)}
    return cut


def _cut_short(fleet: Fleet) -> bool:
    return any(
        e.end is None and e.pid in fleet.killed_at
        for found in fleet.executions().values()
        for e in found
    )


@pytest.mark.slow
async def test_sigkill_a_random_worker_every_second(
    pg_backend: PostgresBackend, fleet: Fleet
) -> None:
    started = time.monotonic()
    started_ns = time.monotonic_ns()
    client = tether.Client(pg_backend, registry=soak_app.registry)
    handles = [await client.start("chain", seed, run_id=f"soak-{seed}") for seed in range(RUNS)]
    for _ in range(WORKERS):
        fleet.start()
    rng = random.Random(4)
    kills = 0
    # On a loaded machine the first kills may land before any worker has started a step:
    # go on (a little) until one has cut a step short, the case this soak is about.
    while kills < KILLS or (kills < 2 * KILLS and not _cut_short(fleet)):
        await asyncio.sleep(1.0)
        fleet.kill(rng.choice(fleet.live()))
        fleet.start()
        kills += 1
    kills_over = time.monotonic() - started
    results = await asyncio.gather(*(h.result(timeout=60) for h in handles))
    assert results == [soak_app.expected(seed) for seed in range(RUNS)]
    finished = time.monotonic() - started

    store = pg_backend.stores.workflow
    retried = 0
    for handle in handles:
        events = await store.list_events(handle.run_id)
        completed = collections.Counter(
            e.correlation_id for e in events if e.event_type == "step_completed"
        )
        assert len(completed) == soak_app.STEPS and set(completed.values()) == {1}
        steps = await store.list_steps(handle.run_id)
        retried += sum(s.attempt > 1 for s in steps)
        run = await store.get_run(handle.run_id)
        assert run is not None and run.lease_owner is None
    cut = check_no_overlap(fleet, [h.run_id for h in handles])
    last = max(e.end or 0 for found in fleet.executions().values() for e in found)
    # The kills landed inside steps, and the interrupted steps ran again elsewhere.
    assert cut > 0 and retried > 0
    print(
        f"\nsoak: {RUNS} runs x {soak_app.STEPS} steps, {kills} kills over {kills_over:.1f}s, "
        f"last step ended at {(last - started_ns) / 1e9:.1f}s, results read at {finished:.1f}s; "
        f"{cut} executions cut short, {retried} steps retried"
    )


def test_the_overlap_check_catches_overlaps(tmp_path: Path) -> None:
    fleet = soak_fleet("", "", tmp_path, 0)
    (tmp_path / "steps-1.log").write_text("start r 1 1 1 100\n")  # killed at 150
    (tmp_path / "steps-2.log").write_text("start r 1 2 2 120\nend r 1 2 2 130\n")
    fleet.killed_at[1] = 150
    with pytest.raises(AssertionError, match="same time"):
        check_no_overlap(fleet, [])
