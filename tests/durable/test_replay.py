"""Dry replay (`replay_run`, `check_runs`): new code against recorded journals, on every backend.

Runs are built and parked by a real worker running version 1 of the code; versions 2
are then replayed against their journals. Nothing may run and nothing may be written.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import tether
from tether.durable import REPLAY_OUTCOMES, ReplayReport, check_runs, replay_run
from tether.errors import NotFoundError
from tether.stores import Backend

ran: list[str] = []


def price(n: int) -> int:
    ran.append("price")
    return n * 10


def ship(n: int) -> str:
    ran.append("ship")
    return f"shipped {n}"


def v1(deployment: str = "v1") -> tether.Registry:
    registry = tether.Registry(deployment=deployment)

    @registry.workflow(name="order")
    async def order(ctx: tether.WorkflowContext, n: int) -> str:
        cents = await ctx.step(price, n, name="price")
        approval = await ctx.create_hook(token=f"ok-{ctx.run_id}")
        return await ctx.step(ship, cents + len(str(approval)), name="ship")

    return registry


def variant(kind: str) -> tether.Registry:
    """Version 2 of `order`: compatible or not, in one way each."""
    registry = tether.Registry(deployment="v2")

    def other(n: int) -> int:
        ran.append("other")
        return n

    if kind == "compatible":
        # Another step body, the same durable operations in the same order, one more at the end.
        @registry.workflow(name="order")
        async def order(ctx: tether.WorkflowContext, n: int) -> str:
            cents = await ctx.step(other, n, name="price")
            approval = await ctx.create_hook(token=f"ok-{ctx.run_id}")
            shipped = await ctx.step(ship, cents + len(str(approval)), name="ship")
            return await ctx.step(other, shipped, name="notify")

    elif kind == "renamed":

        @registry.workflow(name="order")
        async def order(ctx: tether.WorkflowContext, n: int) -> str:
            cents = await ctx.step(price, n, name="quote")
            approval = await ctx.create_hook(token=f"ok-{ctx.run_id}")
            return await ctx.step(ship, cents + len(str(approval)), name="ship")

    elif kind == "reordered":

        @registry.workflow(name="order")
        async def order(ctx: tether.WorkflowContext, n: int) -> str:
            approval = await ctx.create_hook(token=f"ok-{ctx.run_id}")
            cents = await ctx.step(price, n, name="price")
            return await ctx.step(ship, cents + len(str(approval)), name="ship")

    elif kind == "shortened":

        @registry.workflow(name="order")
        async def order(ctx: tether.WorkflowContext, n: int) -> str:
            return str(await ctx.step(price, n, name="price"))

    elif kind == "blocking":

        @registry.workflow(name="order")
        async def order(ctx: tether.WorkflowContext, n: int) -> str:
            await asyncio.sleep(60)  # not a durable operation: a replay would hang here
            return ""

    elif kind == "signature":

        @registry.workflow(name="order")
        async def order(ctx: tether.WorkflowContext, n: int, currency: str) -> str:
            return currency

    elif kind == "missing":

        @registry.workflow(name="invoice")
        async def invoice(ctx: tether.WorkflowContext) -> None:
            return None

    return registry


async def _wait(check: Callable[[], Any], timeout: float = 15.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if await check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition never held")


async def parked_runs(backend: Backend) -> None:
    """`o1` parked at its hook after `price`, `o2` completed: built by a version 1 worker."""
    registry = v1()
    client = tether.Client(backend, registry=registry)
    store = backend.stores.workflow
    async with tether.Worker(backend, registry, poll_interval=0.02):
        await client.start("order", 1, run_id="o1")
        done = await client.start("order", 2, run_id="o2")
        await _wait(lambda: _has_hook(backend, "ok-o2"))
        await client.resume_hook("ok-o2", "yes")
        assert await done.result(timeout=15) == "shipped 23"
        await _wait(lambda: _has_hook(backend, "ok-o1"))
    assert (await store.get_run("o1")).status == "running"  # type: ignore[union-attr]
    ran.clear()


async def _has_hook(backend: Backend, token: str) -> bool:
    return await backend.stores.workflow.get_hook(token) is not None


async def _log(backend: Backend, run_id: str) -> list[tuple[int, str]]:
    return [(e.slot, e.event_type) for e in await backend.stores.workflow.list_events(run_id)]


async def test_a_compatible_change_replays_without_running_or_writing(backend: Backend) -> None:
    assert "nondeterministic" in REPLAY_OUTCOMES and len(REPLAY_OUTCOMES) == 6
    await parked_runs(backend)
    before = await _log(backend, "o1")
    reports = await check_runs(backend, variant("compatible"))
    # Only the unfinished run is replayed; the completed one is not taken over by anyone.
    assert [r.run_id for r in reports] == ["o1"]
    report = reports[0]
    assert report.ok and report.outcome == "compatible"
    assert (report.workflow_name, report.deployment, report.status) == ("order", "v1", "running")
    assert (report.recorded, report.replayed, report.stopped_at) == (2, 2, "parked")
    assert ran == []  # no step body ran, not even the changed one
    assert await _log(backend, "o1") == before
    assert await backend.stores.workflow.get_hook("ok-o1") is not None


async def test_a_renamed_step_is_reported_with_slot_expected_and_found(backend: Backend) -> None:
    await parked_runs(backend)
    before = await _log(backend, "o1")
    report = await replay_run(backend, variant("renamed"), "o1")
    assert not report.ok and report.outcome == "nondeterministic"
    assert (report.slot, report.expected, report.found) == (1, "price", "quote")
    assert report.error is not None and "slot 1 holds 'price'" in report.error
    assert ran == [] and await _log(backend, "o1") == before
    assert (await backend.stores.workflow.get_run("o1")).status == "running"  # type: ignore[union-attr]


async def test_a_reordered_operation_is_reported(backend: Backend) -> None:
    await parked_runs(backend)
    report = await replay_run(backend, variant("reordered"), "o1")
    assert report.outcome == "nondeterministic"
    assert (report.slot, report.expected, report.found) == (1, "price", "hook")


async def test_code_that_ends_before_the_record_is_flagged_not_failed(backend: Backend) -> None:
    await parked_runs(backend)
    report = await replay_run(backend, variant("shortened"), "o1")
    assert report.ok and report.stopped_at == "completed"
    assert (report.recorded, report.replayed, report.unreached) == (2, 1, 1)
    assert (await replay_run(backend, variant("compatible"), "o1")).unreached == 0


async def test_a_body_blocked_outside_durable_operations_times_out(backend: Backend) -> None:
    await parked_runs(backend)
    report = await replay_run(backend, variant("blocking"), "o1", timeout=0.2)
    assert report.outcome == "timeout" and not report.ok
    assert report.stopped_at == "blocked for 0.2s on something other than a durable operation"


async def test_new_arguments_and_a_removed_workflow_are_failures(backend: Backend) -> None:
    await parked_runs(backend)
    wrong = await replay_run(backend, variant("signature"), "o1")
    assert wrong.outcome == "error" and not wrong.ok
    assert wrong.error is not None and "currency" in wrong.error
    gone = await replay_run(backend, variant("missing"), "o1")
    assert gone.outcome == "unknown_workflow" and gone.error is not None and "order" in gone.error


async def test_pending_and_interrupted_runs(backend: Backend) -> None:
    client = tether.Client(backend, registry=v1())
    await client.start("order", 5, run_id="p1")  # no worker: never started
    report = await replay_run(backend, variant("compatible"), "p1")
    assert report.ok and report.status == "pending"
    assert (report.recorded, report.stopped_at) == (0, "new step 'price' at slot 1")
    assert ran == []
    # An interrupted step (its start recorded, no end) would run again: not here.
    store = backend.stores.workflow
    claim = await store.claim_run("p1", owner="gone", lease_seconds=30)
    assert claim.run is not None
    head = claim.run.head
    from tether.stores import Commit, NewEvent

    step = NewEvent(
        event_type="step_created",
        correlation_id="step_1",
        attrs={"slot": 1, "name": "step//tether@0.1.0//price", "attempt": 1},
    )
    await store.commit(
        Commit(run_id="p1", owner="gone", epoch=claim.epoch, expected_head=head, events=(step,))
    )
    report = await replay_run(backend, v1(), "p1")
    assert report.ok and report.stopped_at == "step 'price' would run again (attempt 2)"
    assert ran == []


async def test_only_the_deployments_asked_for_and_unknown_runs(backend: Backend) -> None:
    await parked_runs(backend)
    assert await check_runs(backend, variant("renamed"), deployments={"v0"}) == []
    reports: list[ReplayReport] = await check_runs(backend, variant("renamed"), deployments={"v1"})
    assert [(r.run_id, r.outcome) for r in reports] == [("o1", "nondeterministic")]
    with pytest.raises(NotFoundError):
        await replay_run(backend, v1(), "nope")
