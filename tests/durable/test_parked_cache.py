"""Parked runs kept warm (`Worker(cached_runs=...)`): resumed without a replay.

A worker keeps the activation of a run it parked suspended where the body waits; the
run's next wake-up on that worker goes on from there. Every test counts how often the
body's code before the park ran: once when the run was kept warm, twice when the
wake-up replayed. Runs another worker moved on meanwhile, evicted runs, cancels and
timers are covered on every backend.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

import tether
from tether.errors import ConfigurationError
from tether.stores import Backend

registry = tether.Registry(deployment="parked-cache")
ran: Counter[str] = Counter()


async def note(what: str) -> str:
    ran[f"step:{what}"] += 1
    return what


@registry.workflow(name="cache.one_park")
async def one_park(ctx: tether.WorkflowContext, key: str) -> list[object]:
    ran[f"body:{key}"] += 1
    first = await ctx.step(note, f"{key}-first")
    seen = await ctx.create_hook(token=f"hook-{key}")
    return [first, seen, await ctx.step(note, f"{key}-after")]


@registry.workflow(name="cache.two_parks")
async def two_parks(ctx: tether.WorkflowContext, key: str) -> list[object]:
    ran[f"body:{key}"] += 1
    one = await ctx.create_hook(token=f"one-{key}")
    middle = await ctx.step(note, f"{key}-middle")
    two = await ctx.create_hook(token=f"two-{key}")
    return [one, middle, two]


async def slow(key: str) -> str:
    ran[f"step:{key}"] += 1
    await asyncio.sleep(2.0)
    return key


@registry.workflow(name="cache.slow_after_park")
async def slow_after_park(ctx: tether.WorkflowContext, key: str) -> str:
    ran[f"body:{key}"] += 1
    await ctx.create_hook(token=f"slow-{key}")
    return await ctx.step(slow, f"{key}-slow")


@registry.workflow(name="cache.sleeper")
async def sleeper(ctx: tether.WorkflowContext, key: str) -> str:
    ran[f"body:{key}"] += 1
    await ctx.sleep(0.3)
    return await ctx.step(note, f"{key}-woke")


async def lineage_of(what: str) -> str:
    ran[f"step:{what}"] += 1
    return tether.step_info().lineage


@registry.workflow(name="cache.lineages")
async def lineages(ctx: tether.WorkflowContext, key: str) -> list[str]:
    first = await ctx.step(lineage_of, f"{key}-first")
    await ctx.create_hook(token=f"lin1-{key}")
    middle = await ctx.step(lineage_of, f"{key}-middle")
    await ctx.create_hook(token=f"lin2-{key}")
    return [first, middle, await ctx.step(lineage_of, f"{key}-last")]


async def parked(backend: Backend, run_id: str) -> None:
    """Until the run is parked (no lease held)."""
    store = backend.stores.workflow
    for _ in range(1000):
        run = await store.get_run(run_id)
        if run is not None and run.status == "running" and run.lease_owner is None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"run {run_id!r} never parked")


@pytest.fixture(autouse=True)
def _clear() -> None:
    ran.clear()


@pytest.mark.parametrize("cached", [256, 0])
async def test_a_parked_run_goes_on_without_a_replay(backend: Backend, cached: int) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02, cached_runs=cached) as worker:
        handle = await worker.client.start(one_park, "k", run_id="warm-1")
        await parked(backend, "warm-1")
        await worker.client.resume_hook("hook-k", "hello")
        assert await handle.result(timeout=20) == ["k-first", "hello", "k-after"]
    # Warm: the body before the park ran once. Replayed: twice (the step body only once).
    assert ran["body:k"] == (1 if cached else 2)
    assert ran["step:k-first"] == ran["step:k-after"] == 1


async def test_a_run_another_worker_moved_on_is_taken_up_with_its_progress(
    backend: Backend,
) -> None:
    async with (
        tether.Worker(backend, registry, poll_interval=0.02) as first,
        tether.Worker(backend, registry, poll_interval=0.02) as second,
    ):
        handle = await first.client.start(two_parks, "m", run_id="moved-1")
        await parked(backend, "moved-1")  # warm on `first`
        # The second worker claims the wake-up (eagerly, in the resume's own write),
        # replays, runs the middle step and parks on the second hook.
        await second.client.resume_hook("one-m", "one")
        for _ in range(1000):
            if ran["step:m-middle"]:
                break
            await asyncio.sleep(0.01)
        await parked(backend, "moved-1")
        # `first` takes the run up again from its warm activation, parked before all
        # that: it folds in what the second worker did and goes on.
        await first.client.resume_hook("two-m", "two")
        assert await handle.result(timeout=20) == ["one", "m-middle", "two"]
    assert ran["step:m-middle"] == 1
    assert ran["body:m"] == 2  # `first` once, `second`'s replay once; no third


async def test_evicted_runs_replay_and_finish(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02, cached_runs=1) as worker:
        a = await worker.client.start(one_park, "a", run_id="evict-a")
        await parked(backend, "evict-a")
        b = await worker.client.start(one_park, "b", run_id="evict-b")
        await parked(backend, "evict-b")  # a is evicted: one run kept
        await worker.client.resume_hook("hook-a", 1)
        await worker.client.resume_hook("hook-b", 2)
        assert (await a.result(timeout=20))[1] == 1
        assert (await b.result(timeout=20))[1] == 2
    assert (ran["body:a"], ran["body:b"]) == (2, 1)


async def test_a_warm_run_obeys_a_cancel_and_a_timer(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        doomed = await worker.client.start(one_park, "c", run_id="warm-cancel")
        sleepy = await worker.client.start(sleeper, "s", run_id="warm-timer")
        await parked(backend, "warm-cancel")
        await worker.client.cancel("warm-cancel")
        with pytest.raises(tether.RunCancelledError):
            await doomed.result(timeout=20)
        assert await sleepy.result(timeout=20) == "s-woke"
    assert ran["body:s"] == 1 and ran["step:c-after"] == 0


async def test_a_stopped_worker_leaves_its_warm_runs_to_others(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        handle = await worker.client.start(one_park, "w", run_id="warm-stop")
        await parked(backend, "warm-stop")
    async with tether.Worker(backend, registry, poll_interval=0.02) as other:
        await other.client.resume_hook("hook-w", "x")
        assert (await handle.result(timeout=20))[1] == "x"
    assert ran["body:w"] == 2


@pytest.mark.parametrize("bad", [-1, True, 1.5])
async def test_cached_runs_is_checked(backend: Backend, bad: object) -> None:
    with pytest.raises(ConfigurationError, match="cached_runs"):
        tether.Worker(backend, registry, cached_runs=bad)  # type: ignore[arg-type]


async def test_claims_leave_out_the_log_a_worker_holds_warm(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        handle = await worker.client.start(one_park, "p", run_id="partial-1")
        await parked(backend, "partial-1")
        held = worker._parked.known()  # kept warm in the same step that settled the park
        assert held is not None and set(held) == {"partial-1"}
    store = backend.stores.workflow
    client = tether.Client(backend)
    await client.resume_hook("hook-p", "x")
    ((message, claim),) = await store.claim_next(
        registry.queue, owner="w9", lease_seconds=30, limit=1, known=held
    )
    assert claim.run is not None and claim.run.run_id == "partial-1"
    # Only what the worker does not hold is read.
    assert claim.after == held["partial-1"]
    assert claim.events[0].slot == claim.after + 1
    await store.release_run("partial-1", owner="w9", epoch=claim.epoch)
    await store.nack(message.message_id, owner="w9", delay=0)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        assert (await handle.result(timeout=20))[1] == "x"


async def test_a_partial_claim_without_its_warm_run_replays_the_whole_log(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        handle = await worker.client.start(one_park, "f", run_id="fallback-1")
        await parked(backend, "fallback-1")
        # The warm run is gone by the time the claim is handled (evicted meanwhile, say):
        # the claim left its log out, so the worker reads it whole and replays.
        monkeypatch.setattr(worker._parked, "take_up", lambda *args: None)
        await worker.client.resume_hook("hook-f", "y")
        assert await handle.result(timeout=20) == ["f-first", "y", "f-after"]
    assert ran["body:f"] == 2 and ran["step:f-first"] == 1


async def test_a_warm_run_keeps_its_lease_renewed(backend: Backend) -> None:
    # A step longer than the lease, after a warm resume: the activation must be held
    # (renewed) as any other, or it would give the run up and the step run again.
    async with tether.Worker(
        backend, registry, poll_interval=0.02, lease_seconds=0.6, heartbeat_interval=0.1,
        dead_after=5.0,
    ) as worker:  # fmt: skip
        handle = await worker.client.start(slow_after_park, "l", run_id="warm-lease")
        await parked(backend, "warm-lease")
        await worker.client.resume_hook("slow-l", None)
        assert await handle.result(timeout=30) == "l-slow"
    assert ran["body:l"] == 1 and ran["step:l-slow"] == 1


async def test_a_run_parked_longer_than_the_ttl_replays(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        handle = await worker.client.start(one_park, "t", run_id="ttl-1")
        await parked(backend, "ttl-1")
        assert worker._parked.known() == {"ttl-1": (await _head(backend, "ttl-1"))}
        # Shortened only now: the sweep reads the ttl when it runs, and a loaded machine
        # could outlast a short one before the check above.
        worker._parked.ttl = 0.05
        await asyncio.sleep(0.3)
        assert worker._parked.known() is None  # expired: unwound, memory released
        await worker.client.resume_hook("hook-t", "late")
        assert (await handle.result(timeout=20))[1] == "late"
    assert ran["body:t"] == 2


async def _head(backend: Backend, run_id: str) -> int:
    run = await backend.stores.workflow.get_run(run_id)
    assert run is not None
    return run.head


@registry.workflow(name="cache.after_hook")
async def after_hook(ctx: tether.WorkflowContext, key: str) -> object:
    seen = await ctx.create_hook(token=f"after-{key}")
    ran[f"after:{key}"] += 1  # the body's first code once woken
    await ctx.step(note, f"{key}-next")
    return seen


async def test_a_warm_run_woken_here_goes_on_before_the_sender_does(backend: Backend) -> None:
    # Someone waits for what the woken run does next (a reply's first event): its
    # activation runs up to its next commit before `resume_hook` returns to the
    # sender, whose own work (an HTTP answer) then overlaps that commit.
    async with tether.Worker(backend, registry, poll_interval=0.02) as worker:
        handle = await worker.client.start(after_hook, "s", run_id="goes-on")
        await parked(backend, "goes-on")
        await worker.client.resume_hook("after-s", "hi")
        assert ran["after:s"] == 1
        assert await handle.result(timeout=20) == "hi"


@pytest.mark.parametrize("cached", [256, 0])
async def test_a_lineage_lasts_while_only_payloads_arrive(backend: Backend, cached: int) -> None:
    """Steps of a run kept warm share a lineage; each replay starts a new one."""
    async with tether.Worker(backend, registry, poll_interval=0.02, cached_runs=cached) as worker:
        handle = await worker.client.start(lineages, "p", run_id="lineage-1")
        await parked(backend, "lineage-1")
        await worker.client.resume_hook("lin1-p", None)
        for _ in range(1000):
            if ran["step:p-middle"]:
                break
            await asyncio.sleep(0.01)
        await parked(backend, "lineage-1")
        await worker.client.resume_hook("lin2-p", None)
        first, middle, last = await handle.result(timeout=20)
    assert first and middle and last
    if cached:
        assert first == middle == last
    else:
        assert len({first, middle, last}) == 3


async def test_a_lineage_ends_when_another_worker_ran_steps_meanwhile(backend: Backend) -> None:
    """A warm run taken up after another worker ran its steps is in a new lineage.

    Whatever this process keeps of the run's writes (an agent's transcript) missed
    what the other worker wrote, so the lineage that vouched for it must not go on.
    """
    async with (
        tether.Worker(backend, registry, poll_interval=0.02) as first,
        tether.Worker(backend, registry, poll_interval=0.02) as second,
    ):
        handle = await first.client.start(lineages, "o", run_id="lineage-2")
        await parked(backend, "lineage-2")  # warm on `first`
        await second.client.resume_hook("lin1-o", None)  # `second` replays, runs `middle`
        for _ in range(1000):
            if ran["step:o-middle"]:
                break
            await asyncio.sleep(0.01)
        await parked(backend, "lineage-2")
        await first.client.resume_hook("lin2-o", None)  # `first` folds that in
        before, middle, after = await handle.result(timeout=20)
    assert ran["step:o-middle"] == 1
    assert len({before, middle, after}) == 3
