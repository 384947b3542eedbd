"""A schedule whose workers are SIGKILLed: every tick still starts, and only once."""

from __future__ import annotations

import asyncio
import collections
import itertools
import sys
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


async def test_ticks_start_once_each_while_workers_are_killed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/tether.db"
    async with tether.open_backend(url):
        pass  # created (and migrated) before the workers race to open it
    fleet = Fleet(url, tmp_path, app=Path(schedule_app.__file__), env={"EVERY": "0.5"})
    try:
        fleet.start()
        fleet.start()
        for _ in range(4):
            await asyncio.sleep(2.0)
            fleet.kill(fleet.live()[0])
            fleet.start()
        await asyncio.sleep(3.0)  # the last take-over (a 1 s lease) and a few ticks more
    finally:
        fleet.stop()
    lines = [line.split() for line in _tick_log(tmp_path)]
    executions = collections.Counter(at for at, _ in lines)
    ticks = sorted(datetime.fromisoformat(at).timestamp() for at in executions)
    assert len(ticks) >= 15, ticks
    # None missed: consecutive multiples of the interval from the first to the last.
    assert [round(b - a, 3) for a, b in itertools.pairwise(ticks)] == [0.5] * (len(ticks) - 1), (
        ticks
    )
    async with tether.open_backend(url) as backend:
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
