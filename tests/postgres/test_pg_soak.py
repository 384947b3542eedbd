"""Soak: 4 worker processes on one namespace, SIGKILL a random one every second.

500 runs of 10 steps; for 10 s a random worker is killed and restarted each second.
Every run must finish with the right result, every step be committed once, and no two
executions of one step overlap in time (checked from logs written outside the
database). ``TETHER_SOAK_RUNS`` changes the number of runs.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import tether
from tether.stores.postgres import PostgresBackend

pytestmark = [pytest.mark.postgres, pytest.mark.crash]

APP = Path(__file__).with_name("soak_app.py")
sys.path.insert(0, str(APP.parent))
import soak_app  # noqa: E402

RUNS = int(os.environ.get("TETHER_SOAK_RUNS", "500"))
WORKERS = 4
KILLS = 10
# Long enough that the work outlasts the kills (about 13 s on 2 cores).
STEP_SECONDS = 0.07


@dataclass
class Execution:
    pid: int
    attempt: int
    start: int
    end: int | None


@dataclass
class Fleet:
    """Worker processes of one namespace, and the log of their step executions."""

    url: str
    namespace: str
    log_dir: Path
    step_seconds: float
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    killed_at: dict[int, int] = field(default_factory=dict)

    def start(self) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": str(APP.parent)}
        args = [sys.executable, str(APP), self.url, self.namespace, str(self.log_dir)]
        proc = subprocess.Popen([*args, str(self.step_seconds)], env=env)
        self.procs.append(proc)
        return proc

    def live(self) -> list[subprocess.Popen[bytes]]:
        return [p for p in self.procs if p.poll() is None]

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        # Taken as the signal is sent (see tests/faults/fleet.py): a zombie is already
        # dead to the other workers, and this process may get the CPU back much later.
        self.killed_at[proc.pid] = time.monotonic_ns()
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def executions(self) -> dict[tuple[str, int], list[Execution]]:
        """Step executions by (run, slot); an unfinished one ends when its process died."""
        open_: dict[tuple[str, int, int, int], int] = {}
        done: dict[tuple[str, int], list[Execution]] = collections.defaultdict(list)
        for path in self.log_dir.glob("steps-*.log"):
            for line in path.read_text().splitlines():
                kind, run_id, slot, attempt, pid, at = line.split()
                key = (run_id, int(slot), int(attempt), int(pid))
                if kind == "start":
                    open_[key] = int(at)
                else:
                    start = open_.pop(key)
                    done[key[:2]].append(Execution(key[3], key[2], start, int(at)))
        for (run_id, slot, attempt, pid), start in open_.items():
            done[run_id, slot].append(Execution(pid, attempt, start, None))
        return done

    def stop(self) -> None:
        for proc in self.live():
            self.kill(proc)


@pytest.fixture
def fleet(pg_url: str, pg_namespace: str, tmp_path: Path) -> Iterator[Fleet]:
    f = Fleet(pg_url, pg_namespace, tmp_path, STEP_SECONDS)
    try:
        yield f
    finally:
        f.stop()


@pytest.fixture
async def soak_backend(pg_url: str, pg_namespace: str) -> AsyncIterator[PostgresBackend]:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=4)
    await backend.migrate()
    await backend.connect()
    try:
        yield backend
    finally:
        await backend.close()


def check_no_overlap(fleet: Fleet, runs: list[str]) -> int:
    """Assert no two executions of one step overlapped; return how many were cut short."""
    cut = 0
    for (run_id, slot), executions in fleet.executions().items():
        executions.sort(key=lambda e: e.start)
        for before, after in itertools.pairwise(executions):
            end = before.end
            if end is None and before.pid in fleet.killed_at:
                end = max(fleet.killed_at[before.pid], before.start)
            assert end is not None, f"{run_id} slot {slot}: pid {before.pid} never ended it"
            assert end <= after.start, (
                f"{run_id} slot {slot}: attempt {before.attempt} (pid {before.pid}) and "
                f"attempt {after.attempt} (pid {after.pid}) executed at the same time"
            )
        cut += sum(e.end is None for e in executions)
        assert executions[-1].end is not None, f"{run_id} slot {slot} never finished"
    steps = {key for key in fleet.executions()}
    assert steps == {(r, s) for r in runs for s in range(1, soak_app.STEPS + 1)}
    return cut


def _cut_short(fleet: Fleet) -> bool:
    return any(
        e.end is None and e.pid in fleet.killed_at
        for found in fleet.executions().values()
        for e in found
    )


async def test_sigkill_a_random_worker_every_second(
    soak_backend: PostgresBackend, fleet: Fleet
) -> None:
    started = time.monotonic()
    started_ns = time.monotonic_ns()
    client = tether.Client(soak_backend, registry=soak_app.registry)
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

    store = soak_backend.stores.workflow
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
    fleet = Fleet("", "", tmp_path, 0)
    (tmp_path / "steps-1.log").write_text("start r 1 1 1 100\n")  # killed at 150
    (tmp_path / "steps-2.log").write_text("start r 1 2 2 120\nend r 1 2 2 130\n")
    fleet.killed_at[1] = 150
    with pytest.raises(AssertionError, match="same time"):
        check_no_overlap(fleet, [])
