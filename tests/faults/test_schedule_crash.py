"""A schedule whose workers are SIGKILLed: every tick still starts, and only once."""

from __future__ import annotations

import asyncio
import collections
import itertools
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

import tether

sys.path.insert(0, str(Path(__file__).parent))
import schedule_app
from fleet import Fleet

pytestmark = pytest.mark.crash


def _tick_log(log_dir: Path) -> list[str]:
    return [line for p in log_dir.glob("ticks-*.log") for line in p.read_text().splitlines()]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, dict[str, str]]:
    """A store the worker processes share: its URL and the options to open it."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tether.db", {}
    url: str = request.getfixturevalue("pg_url")
    return url, {"namespace": request.getfixturevalue("pg_namespace")}


async def test_ticks_start_once_each_while_workers_are_killed(
    tmp_path: Path, store: tuple[str, dict[str, str]]
) -> None:
    url, options = store
    async with tether.open_backend(url, **options):
        pass  # created (and migrated) before the workers race to open it
    env = {"EVERY": "0.5", **({"NAMESPACE": options["namespace"]} if options else {})}
    fleet = Fleet(url, tmp_path, app=Path(schedule_app.__file__), env=env)
    try:
        for _ in range(3):
            fleet.start()
        for _ in range(600):
            if _tick_log(tmp_path):
                break  # ticking: now the kills
            await asyncio.sleep(0.05)
        for _ in range(4):
            await asyncio.sleep(2.0)
            fleet.kill(fleet.live()[0])
            fleet.start()
        # The last take-over (a 1 s lease), and the scheduler caught up with the ticks
        # that went by meanwhile (run_all).
        async with tether.open_backend(url, **options) as backend:
            schedules = tether.Schedules(tether.Client(backend))
            for _ in range(600):
                listed = await schedules.list()
                last = listed[0].last_tick if listed else None
                if last is not None and last.timestamp() >= time.time() - 1.0:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"the schedule never caught up: {listed}")
            # The ticks' runs started so far finish before the workers stop: a tick
            # started but not yet run would look like a missed one in the log.
            client = tether.Client(backend, registry=schedule_app.registry)
            for _ in range(600):
                started = await client.list_runs(
                    labels={"tether.schedule": "ticks"}, workflow="tick", limit=1000
                )
                if all(r.status == "completed" for r in started):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"tick runs never finished: {started}")
    finally:
        fleet.stop()
    lines = [line.split() for line in _tick_log(tmp_path)]
    executions = collections.Counter(at for at, _ in lines)
    ticks = sorted(datetime.fromisoformat(at).timestamp() for at in executions)
    assert len(ticks) >= 12, ticks  # 8 s of kills, a tick every 0.5 s
    # None missed: consecutive multiples of the interval from the first to the last.
    assert [round(b - a, 3) for a, b in itertools.pairwise(ticks)] == [0.5] * (len(ticks) - 1), (
        ticks
    )
    async with tether.open_backend(url, **options) as backend:
        client = tether.Client(backend, registry=schedule_app.registry)
        runs = await client.list_runs(
            labels={"tether.schedule": "ticks"}, workflow="tick", limit=1000
        )
    # One run a tick (its id is the tick's): a scheduler's retried step started nothing new.
    assert len(runs) == len({r.run_id for r in runs}) >= len(ticks)
    by_tick = collections.Counter(r.labels["tether.schedule.tick"] for r in runs)
    assert set(by_tick.values()) == {1}
    # A tick's step ran once, or again only after a SIGKILL cut its run short.
    assert sum(n - 1 for n in executions.values()) <= 4, executions
