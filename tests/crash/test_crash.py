"""SIGKILL a real worker process at each boundary, restart it, check what re-ran."""

from __future__ import annotations

import asyncio
import collections
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import tether

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("crash_app.py")
sys.path.insert(0, str(APP.parent))
import crash_app  # noqa: E402


@dataclass
class Harness:
    db: Path
    dir: Path
    client: tether.Client
    backend: tether.Backend
    procs: list[subprocess.Popen[bytes]]

    def start_worker(self, **extra: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": str(APP.parent), **extra}
        proc = subprocess.Popen([sys.executable, str(APP), str(self.db), str(self.dir)], env=env)
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def effects(self) -> list[list[str]]:
        path = self.dir / "effects.log"
        return [line.split() for line in path.read_text().splitlines()] if path.exists() else []

    def runs_of(self, run_id: str, kind: str) -> collections.Counter[str]:
        return collections.Counter(e[2] for e in self.effects() if e[0] == kind and e[1] == run_id)

    async def until(self, check: Callable[[], object], timeout: float = 20) -> None:
        for _ in range(int(timeout / 0.02)):
            if check():
                return
            await asyncio.sleep(0.02)
        raise AssertionError("condition never held")


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    db = tmp_path / "crash.db"
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        h = Harness(db, tmp_path, tether.Client(backend, registry=crash_app.registry), backend, [])
        yield h
        for proc in h.procs:
            if proc.poll() is None:
                h.kill(proc)


async def test_kill_inside_a_step_before_its_commit(harness: Harness) -> None:
    handle = await harness.client.start("chain", "b", run_id="r1")
    worker = harness.start_worker()
    await harness.until(lambda: (harness.dir / "ready-r1-b").exists())
    harness.kill(worker)
    harness.start_worker()
    assert await handle.result(timeout=30) == 3
    assert harness.runs_of("r1", "end") == {"a": 1, "b": 1, "c": 1}
    starts = [e for e in harness.effects() if e[0] == "start" and e[2] == "b"]
    assert [e[3] for e in starts] == ["1", "2"]  # attempt 2 after the crash
    assert starts[0][4] == starts[1][4] == "r1:2"  # same idempotency key
    steps = {s.name.rsplit("//", 1)[-1]: s for s in await handle.steps()}
    assert steps["a"].attempt == 1 and steps["b"].attempt == 2 and steps["c"].attempt == 1


async def test_kill_inside_a_step_of_an_eagerly_started_run(harness: Harness) -> None:
    """Started on its worker at once (no queue): its message still brings it back."""
    worker = harness.start_worker(EAGER_RUN="eager")
    await harness.until(lambda: (harness.dir / "ready-eager-b").exists())
    run = await harness.backend.stores.workflow.get_run("eager")
    assert run is not None and run.lease_epoch == 1  # claimed once: at its creation
    harness.kill(worker)
    harness.start_worker()
    handle = await harness.client.get("eager")
    assert await handle.result(timeout=30) == 3
    assert harness.runs_of("eager", "end") == {"a": 1, "b": 1, "c": 1}
    starts = [e[3] for e in harness.effects() if e[0] == "start" and e[2] == "b"]
    assert starts == ["1", "2"]


def _attempts(harness: Harness, run_id: str, kind: str) -> list[str]:
    return [e[3] for e in harness.effects() if e[0] == kind and e[1] == run_id]


async def test_kill_in_a_read_ahead_step_before_it_asked_for_its_start(
    harness: Harness,
) -> None:
    """Killed while it read: its start was never committed, so the step runs again as
    the same attempt, and its effect happens once."""
    handle = await harness.client.start("ahead", "reading", run_id="ra1")
    worker = harness.start_worker()
    await harness.until(lambda: (harness.dir / "ready-ra1-reading").exists())
    assert await harness.backend.stores.workflow.list_steps("ra1") == []  # no start yet
    harness.kill(worker)
    harness.start_worker()
    assert await handle.result(timeout=30) == 1
    assert _attempts(harness, "ra1", "read") == ["1", "1"]
    assert _attempts(harness, "ra1", "start") == ["1"]
    assert _attempts(harness, "ra1", "end") == ["1"]
    assert [(s.status, s.attempt) for s in await handle.steps()] == [("completed", 1)]


async def test_kill_in_a_read_ahead_step_after_its_start(harness: Harness) -> None:
    """Killed after its start was committed: the next attempt is attempt 2, as for any
    step killed mid-body."""
    handle = await harness.client.start("ahead", "started", run_id="ra2")
    worker = harness.start_worker()
    await harness.until(lambda: (harness.dir / "ready-ra2-started").exists())
    (step,) = await harness.backend.stores.workflow.list_steps("ra2")
    assert (step.status, step.attempt) == ("running", 1)
    harness.kill(worker)
    harness.start_worker()
    assert await handle.result(timeout=30) == 1
    assert _attempts(harness, "ra2", "start") == ["1", "2"]
    assert _attempts(harness, "ra2", "end") == ["2"]
    assert [(s.status, s.attempt) for s in await handle.steps()] == [("completed", 2)]


async def test_kill_right_after_a_commit(harness: Harness) -> None:
    handle = await harness.client.start("chain", "c", run_id="r2")
    worker = harness.start_worker()
    store = harness.backend.stores.workflow

    async def b_committed() -> bool:
        return any(
            s.status == "completed" and s.name.endswith("//b") for s in await store.list_steps("r2")
        )

    for _ in range(1000):
        if await b_committed():
            break
        await asyncio.sleep(0.01)
    harness.kill(worker)
    harness.start_worker()
    assert await handle.result(timeout=30) == 3
    assert harness.runs_of("r2", "start")["b"] == 1  # committed: never executed again
    assert harness.runs_of("r2", "end") == {"a": 1, "b": 1, "c": 1}


async def test_kill_during_a_durable_sleep(harness: Harness) -> None:
    handle = await harness.client.start("sleeper", run_id="r3")
    worker = harness.start_worker()
    store = harness.backend.stores.workflow
    for _ in range(1000):
        if await store.list_waits("r3"):
            break
        await asyncio.sleep(0.01)
    harness.kill(worker)
    harness.start_worker()
    assert await handle.result(timeout=30) == 2
    assert harness.runs_of("r3", "start") == {"a": 1, "b": 1}


async def test_kill_while_parked_on_a_hook(harness: Harness) -> None:
    handle = await harness.client.start("hooked", run_id="r4")
    worker = harness.start_worker()
    store = harness.backend.stores.workflow
    for _ in range(1000):
        run = await store.get_run("r4")
        if (
            await store.get_hook("ok-r4") is not None
            and run is not None
            and run.lease_owner is None
        ):
            break
        await asyncio.sleep(0.01)
    harness.kill(worker)
    await harness.client.resume_hook("ok-r4", {"approved": True})
    harness.start_worker()
    assert await handle.result(timeout=30) == {"approved": True}
    assert harness.runs_of("r4", "start") == {"a": 1, "b": 1}


async def test_kill_during_retry_backoff(harness: Harness) -> None:
    handle = await harness.client.start("backoff", run_id="r5")
    worker = harness.start_worker()
    await harness.until(lambda: harness.runs_of("r5", "start")["f"] == 1)
    await asyncio.sleep(0.3)
    harness.kill(worker)
    harness.start_worker()
    assert await handle.result(timeout=30) == "ok"
    starts = [e[3] for e in harness.effects() if e[0] == "start" and e[2] == "f"]
    assert starts == ["1", "2"]
    assert harness.runs_of("r5", "start")["a"] == 1


async def test_two_workers_on_one_file_commit_each_step_once(harness: Harness) -> None:
    handles = [await harness.client.start("many", 5, run_id=f"m{i}") for i in range(30)]
    harness.start_worker()
    harness.start_worker()
    assert [await h.result(timeout=60) for h in handles] == [5] * 30
    store = harness.backend.stores.workflow
    for h in handles:
        events = await store.list_events(h.run_id)
        completed = collections.Counter(
            e.correlation_id for e in events if e.event_type == "step_completed"
        )
        assert len(completed) == 5 and set(completed.values()) == {1}
        assert harness.runs_of(h.run_id, "end") == {f"s{i}": 1 for i in range(5)}
