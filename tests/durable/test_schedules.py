"""Schedules: ticks as durable runs, once each, on every backend, with their controls."""

from __future__ import annotations

import asyncio
import collections
import itertools
import secrets
import time
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

import tether
from tether.durable import Schedule, Schedules
from tether.errors import ConfigurationError, NotFoundError
from tether.stores import Backend, Capability

#: Every execution of a tick's body: (schedule's registry, scheduled_at).
ran: collections.Counter[tuple[str, str]] = collections.Counter()


def _registry(deployment: str, **schedule: Any) -> tether.Registry:
    registry = tether.Registry(deployment=deployment)

    async def note(tag: str, scheduled_at: str) -> str:
        ran[(tag, scheduled_at)] += 1
        return scheduled_at

    @registry.workflow(name="report")
    async def report(ctx: tether.WorkflowContext, tag: str, *, scheduled_at: str) -> str:
        out: str = await ctx.step(note, tag, scheduled_at, name="note")
        return out

    registry.schedule("report", report, args=(deployment,), **schedule)
    return registry


def _ticks(tag: str) -> list[float]:
    return sorted(datetime.fromisoformat(at).timestamp() for (t, at) in ran if t == tag)


async def _until(
    check: Any, what: str, timeout: float = 20.0, client: tether.Client | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            why = ""
            if client is not None:  # what the scheduler was doing
                why = f"; {await Schedules(client).list()}"
                why += f"; {await client.progress('tether.schedule:report')}"
            raise AssertionError(f"never: {what}{why}")
        await asyncio.sleep(0.05)


async def test_an_interval_schedule_runs_each_tick_once_across_two_workers(
    backend: Backend,
) -> None:
    tag = f"every-{secrets.token_hex(6)}"
    # run_all: a wake-up a little late (a timer is found by a poll) skips no tick.
    registry = _registry(tag, every=0.5, missed="run_all")
    async with (
        tether.Worker(backend, registry, poll_interval=0.02),
        tether.Worker(backend, registry, poll_interval=0.02),
    ):

        async def four() -> bool:
            return len(_ticks(tag)) >= 4

        await _until(four, "four ticks")
    ticks = _ticks(tag)
    # Whole multiples of the interval since the epoch, none skipped, none run twice.
    assert all(t / 0.5 == round(t / 0.5) for t in ticks), ticks
    assert [round(b - a, 3) for a, b in itertools.pairwise(ticks)] == [0.5] * (len(ticks) - 1), (
        ticks
    )
    assert all(ran[(tag, at)] == 1 for (t, at) in ran if t == tag)
    client = tether.Client(backend, registry=registry)
    runs = await client.list_runs(labels={"tether.schedule": "report"}, workflow="report")
    assert len({r.run_id for r in runs}) == len(runs) >= 4
    assert all(r.run_id.startswith("tether.schedule:report:") for r in runs)


@pytest.mark.parametrize("missed", ["run_once", "run_all", "skip"])
async def test_ticks_missed_while_no_worker_ran_follow_the_policy(
    backend: Backend, missed: str
) -> None:
    tag = f"missed-{missed}-{secrets.token_hex(6)}"
    registry = _registry(tag, every=1.0, missed=missed, grace=0.2)
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):

        async def waiting() -> bool:
            listed = await Schedules(client).list()
            return bool(listed) and listed[0].next_tick is not None

        await _until(waiting, "the scheduler waits for its first tick")
    stopped = time.time()
    await asyncio.sleep(4.2)  # four ticks go by with no worker
    back = time.time()
    async with tether.Worker(backend, registry, poll_interval=0.02):

        async def caught_up() -> bool:
            listed = await Schedules(client).list()
            last = listed[0].last_tick
            if last is None or last.timestamp() < back - 1.0:
                return False
            # A tick counts as handled when it is started; its run's body runs after.
            runs = await client.list_runs(labels={"tether.schedule": "report"}, limit=1000)
            ticks = [r for r in runs if r.deployment == tag and r.run_id.count(":") > 1]
            return all(r.status == "completed" for r in ticks)

        await _until(caught_up, "the scheduler handled the missed ticks", 40.0, client)
    missed_ticks = [float(t) for t in range(int(stopped) + 1, int(back) + 1) if stopped < t <= back]
    assert len(missed_ticks) >= 4
    ran_of = [t for t in _ticks(tag) if stopped < t <= back]
    if missed == "run_all":
        assert ran_of == missed_ticks
    elif missed == "run_once":
        # The latest tick due when the scheduler woke, once: the last missed one, or a
        # later one if the worker took over a second to come up.
        assert ran_of in (missed_ticks[-1:], []), ran_of
    else:
        # None that was more than `grace` (0.2 s) late when the worker came back.
        assert [t for t in ran_of if t < back - 0.25] == [], ran_of
    assert all(ran[(t, at)] == 1 for (t, at) in ran if t == tag)


async def test_pause_resume_and_trigger(backend: Backend) -> None:
    tag = f"controls-{secrets.token_hex(6)}"
    registry = _registry(tag, every=0.5)
    client = tether.Client(backend, registry=registry)
    schedules = Schedules(client)
    async with tether.Worker(backend, registry, poll_interval=0.02):

        async def one() -> bool:
            return len(_ticks(tag)) >= 1

        await _until(one, "a first tick")
        await schedules.pause("report")

        async def paused() -> bool:
            listed = await schedules.list()
            return listed[0].paused and listed[0].next_tick is None

        await _until(paused, "the schedule shows paused")
        before = len(_ticks(tag))
        await asyncio.sleep(1.6)
        assert len(_ticks(tag)) == before  # no tick while paused

        await schedules.trigger("report")

        async def triggered() -> bool:
            return len(_ticks(tag)) == before + 1

        await _until(triggered, "the triggered run")
        runs = await client.list_runs(labels={"tether.schedule": "report"}, workflow="report")
        manual = [r for r in runs if r.run_id.count(":") == 2 and "T" not in r.run_id[-20:]]
        assert len(manual) == 1, [r.run_id for r in runs]

        await schedules.resume("report")

        async def ticking() -> bool:
            return len(_ticks(tag)) >= before + 3

        await _until(ticking, "ticks again after resume")
        info = (await schedules.list())[0]
    assert info.name == "report" and info.workflow == "report" and info.every == 0.5
    assert not info.paused and info.next_tick is not None and info.deployment == tag
    with pytest.raises(NotFoundError, match="no schedule 'nightly' is running"):
        await schedules.pause("nightly")


async def test_the_scheduler_continues_as_new_and_its_ticks_go_on(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tether.durable._scheduler as scheduler

    monkeypatch.setattr(scheduler, "TICKS_PER_RUN", 2)
    tag = f"chain-{secrets.token_hex(6)}"
    registry = _registry(tag, every=0.3, missed="run_all")  # a late wake skips none
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        moves = {Capability.CONTINUE_AS_NEW, Capability.HOOK_RETENTION} <= backend.capabilities

        async def six() -> bool:
            # A wake-up that finds several ticks due runs them all in one turn of the
            # scheduler's loop, so six ticks may take fewer than three runs: wait for
            # the chain to have moved on twice (its hook with it) as well.
            latest = await backend.stores.workflow.latest_run("tether.schedule:report")
            moved = not moves or (latest is not None and latest.generation >= 2)
            return len(_ticks(tag)) >= 6 and moved

        await _until(six, "six ticks and two moves")
    current = await backend.stores.workflow.latest_run("tether.schedule:report")
    assert current is not None
    assert (await Schedules(client).list())[0].run_id == current.run_id
    ticks = _ticks(tag)
    assert [round(b - a, 3) for a, b in itertools.pairwise(ticks)] == [0.3] * (len(ticks) - 1), (
        ticks
    )


def test_cron_ticks_follow_the_time_zone_through_daylight_saving_changes() -> None:
    registry = _registry("cron-dst", cron="30 2 * * *", timezone="Europe/Paris")
    nightly = registry.schedules["report"]
    paris = ZoneInfo("Europe/Paris")
    # The night 02:00 jumps to 03:00: the 02:30 run happens at 03:00.
    tick = nightly.next_after(datetime(2026, 3, 28, 12, tzinfo=paris).timestamp())
    assert nightly.iso(tick) == "2026-03-29T03:00:00+02:00"
    # The night 02:30 comes twice: one run.
    start = datetime(2026, 10, 24, 12, tzinfo=paris).timestamp()
    ticks = nightly.due(start, start + 2 * 86400, limit=10)
    assert [nightly.iso(t) for t in ticks] == [
        "2026-10-25T02:30:00+02:00",
        "2026-10-26T02:30:00+01:00",
    ]


def test_bad_schedules_are_refused_with_what_to_fix() -> None:
    registry = tether.Registry(deployment="bad")

    @registry.workflow(name="job")
    async def job(ctx: tether.WorkflowContext, *, scheduled_at: str) -> None:
        return None

    cases: list[tuple[dict[str, Any], str]] = [
        ({}, "exactly one of cron"),
        ({"cron": "0 3 * * *", "every": 5}, "exactly one of cron"),
        ({"cron": "61 3 * * *"}, "is not a cron expression"),
        ({"cron": "0 3 * * *", "timezone": "Mars/Olympus"}, "unknown time zone"),
        ({"every": "soon"}, "is not a duration"),
        ({"every": 0}, "positive duration"),
        ({"every": 5, "missed": "later"}, "missed must be one of"),
        ({"every": 5, "args": (object(),)}, "must be JSON values"),
    ]
    for options, message in cases:
        with pytest.raises(ConfigurationError, match=message):
            registry.schedule("job", job, **options)
    with pytest.raises(ConfigurationError, match="not a workflow of this registry"):
        registry.schedule("other", "missing", every=5)
    assert isinstance(registry.schedule("job", job, every=5), Schedule)
    with pytest.raises(ConfigurationError, match="already defined"):
        registry.schedule("job", job, every=6)
    assert list(registry.schedules) == ["job"]


async def test_a_new_deployment_takes_over_a_schedule_its_old_one_left(backend: Backend) -> None:
    tag = f"deploy-{secrets.token_hex(6)}"
    old, new = _registry(f"{tag}-a", every=0.5), _registry(f"{tag}-b", every=0.5)
    client = tether.Client(backend, registry=new)
    async with tether.Worker(backend, old, poll_interval=0.02):

        async def first() -> bool:
            return bool(_ticks(f"{tag}-a"))

        await _until(first, "a tick on the old deployment")
    # The old deployment's workers are gone: the new one's moves the schedule, its state
    # with it, and ticks go on there.
    async with tether.Worker(backend, new, poll_interval=0.02):

        async def moved() -> bool:
            return len(_ticks(f"{tag}-b")) >= 2

        await _until(moved, "ticks on the new deployment")
        info = (await Schedules(client).list())[0]
    assert info.deployment == f"{tag}-b" and info.status == "running"
    runs = await client.list_runs(labels={"tether.schedule": "report"}, workflow="report")
    assert {r.deployment for r in runs} == {f"{tag}-a", f"{tag}-b"}
    assert len({r.run_id for r in runs}) == len(runs)
