"""Engine behaviour through the public API, on every backend."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tether
from tether.stores import Backend

registry = tether.Registry(deployment="test")
side_effects: list[Any] = []
flaky_failures: dict[str, int] = {}
switch = {"branch": "a"}


def add(a: int, b: int) -> int:
    side_effects.append(("add", a, b))
    return a + b


async def record_info() -> dict[str, Any]:
    info = tether.step_info()
    side_effects.append(("info", info.attempt, info.idempotency_key))
    if info.attempt < 3:
        raise tether.RetryableError("not yet", retry_after=0.01)
    return {"attempt": info.attempt, "key": info.idempotency_key, "slot": info.slot}


def fatal() -> None:
    side_effects.append("fatal")
    raise tether.FatalError("card declined")


def always_fails() -> None:
    side_effects.append("fails")
    raise RuntimeError("boom")


@dataclasses.dataclass(frozen=True)
class Receipt:
    order: str
    cents: int


def receipt(order: str) -> Receipt:
    return Receipt(order=order, cents=1250)


class Opaque:
    pass


def opaque() -> Opaque:
    return Opaque()


@registry.workflow(name="double")
async def double(ctx: tether.WorkflowContext, x: int) -> int:
    return await ctx.step(add, x, x)


@registry.workflow(name="pipeline")
async def pipeline(ctx: tether.WorkflowContext, n: int) -> dict[str, Any]:
    total = 0
    for i in range(n):
        total = await ctx.step(add, total, i)
    await ctx.sleep(0.05)
    decision = await ctx.create_hook(token=f"approve-{ctx.run_id}")
    child = await ctx.start_child(double, total)
    return {"total": total, "decision": decision, "child": await child.result()}


@registry.workflow(name="retries")
async def retries(ctx: tether.WorkflowContext) -> dict[str, Any]:
    return await ctx.step(record_info, retry=tether.RetryPolicy(max_attempts=4, initial_delay=0.01))


@registry.workflow(name="fatal")
async def fatal_wf(ctx: tether.WorkflowContext) -> None:
    await ctx.step(fatal)


@registry.workflow(name="exhausts")
async def exhausts(ctx: tether.WorkflowContext) -> None:
    await ctx.step(always_fails, retry=tether.RetryPolicy(max_attempts=2, initial_delay=0.01))


@registry.workflow(name="typed")
async def typed(ctx: tether.WorkflowContext) -> Receipt:
    got = await ctx.step(receipt, "o-1")
    assert isinstance(got, Receipt)
    return got


@registry.workflow(name="unserializable")
async def unserializable(ctx: tether.WorkflowContext) -> None:
    await ctx.step(opaque)


@registry.workflow(name="branchy")
async def branchy(ctx: tether.WorkflowContext) -> str:
    if switch["branch"] == "a":
        await ctx.step(add, 1, 1, name="first")
    else:
        await ctx.step(add, 1, 1, name="second")
    await ctx.create_hook(token=f"go-{ctx.run_id}")
    return "done"


@registry.workflow(name="deterministic")
async def deterministic(ctx: tether.WorkflowContext) -> dict[str, Any]:
    before = (ctx.random(), str(ctx.uuid()), ctx.now().isoformat())
    side_effects.append(("before", before))
    seen = await ctx.create_hook(token=f"det-{ctx.run_id}")
    after = (ctx.random(), str(ctx.uuid()))
    return {"before": list(before), "seen": seen, "after": list(after)}


@registry.workflow(name="parked")
async def parked(ctx: tether.WorkflowContext) -> None:
    await ctx.create_hook(token=f"never-{ctx.run_id}")


@registry.workflow(name="waits_on_parked_child")
async def waits_on_parked_child(ctx: tether.WorkflowContext) -> None:
    child = await ctx.start_child(parked, run_id=f"{ctx.run_id}-child")
    await child.result()


@registry.workflow(name="two_hooks")
async def two_hooks(ctx: tether.WorkflowContext, token: str) -> Any:
    return await ctx.create_hook(token=token)


@registry.workflow(name="parallel")
async def parallel(ctx: tether.WorkflowContext) -> list[int]:
    return list(await asyncio.gather(*(ctx.step(add, i, i) for i in range(5))))


@pytest.fixture(autouse=True)
def _reset() -> None:
    side_effects.clear()
    switch["branch"] = "a"


@pytest.fixture
async def running(backend: Backend) -> AsyncIterator[tether.Client]:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        yield tether.Client(backend)


@pytest.fixture
async def replaying(backend: Backend) -> AsyncIterator[tether.Client]:
    """A worker that keeps no parked run warm: every wake-up replays the history."""
    async with tether.Worker(backend, registry, poll_interval=0.02, cached_runs=0):
        yield tether.Client(backend)


async def resume_when_parked(client: tether.Client, token: str, payload: Any) -> None:
    """Resume a hook once its run has parked on it (its lease released)."""
    await parked_on(client, token)
    await client.resume_hook(token, payload)


async def parked_on(client: tether.Client, token: str) -> None:
    """Until a run has parked on the hook `token` (its lease released)."""
    store = client.backend.stores.workflow
    for _ in range(1000):
        hook = await store.get_hook(token)
        run = None if hook is None else await store.get_run(hook.run_id)
        if run is not None and run.lease_owner is None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no run parked on hook {token!r}")


async def resume_when_ready(client: tether.Client, token: str, payload: Any) -> None:
    for _ in range(500):
        try:
            await client.resume_hook(token, payload)
            return
        except tether.TetherError:
            await asyncio.sleep(0.01)
    raise AssertionError(f"hook {token!r} never appeared")


async def test_pipeline_end_to_end(running: tether.Client) -> None:
    handle = await running.start(pipeline, 4, run_id="order-42")
    same = await running.start(pipeline, 4, run_id="order-42")
    assert same.run_id == handle.run_id
    await resume_when_ready(running, "approve-order-42", {"ok": True})
    result = await handle.result(timeout=30)
    assert result == {"total": 6, "decision": {"ok": True}, "child": 12}
    adds = [e for e in side_effects if e[0] == "add"]
    assert len(adds) == 5  # four steps of the parent, one of the child: none ran twice
    steps = await handle.steps()
    assert [s.name for s in steps] == ["step//tether@0.1.0//add"] * 4
    assert all(s.status == "completed" and s.attempt == 1 for s in steps)
    assert [s.output for s in steps] == [0, 1, 3, 6]
    assert await handle.status() == "completed"
    runs = await running.list_runs(workflow="pipeline")
    assert [r.run_id for r in runs] == ["order-42"]


async def test_retries_keep_slot_and_idempotency_key(running: tether.Client) -> None:
    handle = await running.start(retries)
    result = await handle.result(timeout=30)
    assert result["attempt"] == 3
    keys = {e[2] for e in side_effects if e[0] == "info"}
    assert keys == {f"{handle.run_id}:1"}
    assert [e[1] for e in side_effects if e[0] == "info"] == [1, 2, 3]
    (step,) = await handle.steps()
    assert step.attempt == 3 and step.status == "completed"


async def test_fatal_error_never_retries(running: tether.Client) -> None:
    handle = await running.start(fatal_wf)
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=30)
    assert isinstance(info.value.cause, tether.StepFailedError)
    assert side_effects == ["fatal"]
    (step,) = await handle.steps()
    assert step.status == "failed" and step.attempt == 1


async def test_retry_budget_is_per_step(running: tether.Client) -> None:
    handle = await running.start(exhausts)
    with pytest.raises(tether.RunFailedError, match="after 2 attempt"):
        await handle.result(timeout=30)
    assert side_effects == ["fails", "fails"]


async def test_typed_values_round_trip(running: tether.Client) -> None:
    assert await (await running.start(typed)).result(timeout=30) == Receipt("o-1", 1250)


async def test_unserializable_output_names_step_and_type(running: tether.Client) -> None:
    handle = await running.start(unserializable)
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=30)
    cause = info.value.cause
    assert isinstance(cause, tether.StepFailedError)
    assert "opaque" in str(cause) and "Opaque" in str(cause)


async def test_non_determinism_is_detected_and_named(replaying: tether.Client) -> None:
    running = replaying
    handle = await running.start(branchy)
    # Parked, not only at the hook: a run still live on its worker would go on from the
    # hook without a replay, and no replay sees the changed code.
    await parked_on(running, f"go-{handle.run_id}")
    switch["branch"] = "b"
    await running.resume_hook(f"go-{handle.run_id}", None)
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=30)
    cause = info.value.cause
    assert isinstance(cause, tether.NonDeterminismError)
    assert cause.slot == 1 and cause.recorded.endswith("//first")
    assert cause.requested.endswith("//second")


async def test_now_random_uuid_are_stable_across_replay(replaying: tether.Client) -> None:
    running = replaying
    handle = await running.start(deterministic)
    await resume_when_parked(running, f"det-{handle.run_id}", "x")
    result = await handle.result(timeout=30)
    # The body ran once before the park and once more on the replay after it: the values
    # drawn before the park are the same both times.
    drawn = [e[1] for e in side_effects if e[0] == "before"]
    assert len(drawn) == 2 and drawn[0] == drawn[1]
    assert result["seen"] == "x" and result["after"] != result["before"][:2]
    other = await running.start(deterministic, run_id="det-2")
    await resume_when_ready(running, "det-det-2", "x")
    assert (await other.result(timeout=30))["before"][0] != result["before"][0]


async def test_hook_token_in_use_is_a_typed_error(running: tether.Client) -> None:
    first = await running.start(two_hooks, "shared")
    for _ in range(200):
        if (await running.backend.stores.workflow.get_hook("shared")) is not None:
            break
        await asyncio.sleep(0.01)
    second = await running.start(two_hooks, "shared", run_id="second")
    with pytest.raises(tether.RunFailedError) as info:
        await second.result(timeout=30)
    assert isinstance(info.value.cause, tether.HookTokenInUseError)
    await running.resume_hook("shared", 7)
    assert await first.result(timeout=30) == 7


async def test_cancel_a_parked_run(running: tether.Client) -> None:
    handle = await running.start(parked)
    await asyncio.sleep(0.1)
    await handle.cancel("no longer needed")
    with pytest.raises(tether.RunCancelledError):
        await handle.result(timeout=30)
    assert await running.backend.stores.workflow.list_hooks(handle.run_id) == []


async def test_cancelling_a_parent_cancels_its_children(running: tether.Client) -> None:
    handle = await running.start(waits_on_parked_child, run_id="parent")
    store = running.backend.stores.workflow
    for _ in range(300):
        if (await store.get_hook("never-parent-child")) is not None:
            break
        await asyncio.sleep(0.01)
    await handle.cancel("no longer needed")
    with pytest.raises(tether.RunCancelledError):
        await handle.result(timeout=30)
    child = await running.get("parent-child")
    with pytest.raises(tether.RunCancelledError):
        await child.result(timeout=30)
    assert await store.list_hooks("parent-child") == []
    ended = [e for e in await store.list_events("parent-child") if e.event_type == "run_cancelled"]
    assert ended[0].attrs["reason"] == "its parent run 'parent' was cancelled"


async def test_parallel_steps(running: tether.Client) -> None:
    assert await (await running.start(parallel)).result(timeout=30) == [0, 2, 4, 6, 8]


async def test_unknown_workflow_is_refused(backend: Backend) -> None:
    client = tether.Client(backend, registry=registry)
    with pytest.raises(tether.UnknownWorkflowError, match="nope"):
        await client.start("nope")
    other = tether.Registry(deployment="test")

    @other.workflow(name="only-elsewhere")
    async def elsewhere(ctx: tether.WorkflowContext) -> None:
        return None

    handle = await tether.Client(backend).start(elsewhere)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        with pytest.raises(tether.RunFailedError) as info:
            await handle.result(timeout=30)
    assert isinstance(info.value.cause, tether.UnknownWorkflowError)


async def test_stranded_run_reports_its_versions(backend: Backend) -> None:
    old = tether.Registry(deployment="v1")
    new = tether.Registry(deployment="v2")
    old.workflow(name="wf")(_plain)
    new.workflow(name="wf")(_plain2)
    handle = await tether.Client(backend, registry=old).start("wf", 1)
    async with tether.Worker(backend, new, poll_interval=0.02):
        with pytest.raises(tether.StrandedRunError) as info:
            await handle.result(timeout=10)
    assert info.value.deployment == "v1" and info.value.engine_version == "0.1.0"
    assert await handle.status() == "pending"


async def _plain(ctx: tether.WorkflowContext, x: int) -> int:
    return x


async def _plain2(ctx: tether.WorkflowContext, x: int) -> int:
    return x


async def test_result_timeout_says_the_run_goes_on(backend: Backend) -> None:
    handle = await tether.Client(backend).start(double, 1)
    with pytest.raises(tether.RunTimeoutError, match="goes on"):
        await handle.result(timeout=0.05)


async def test_durations() -> None:
    from tether.durable import parse_duration

    assert parse_duration("1h30m") == 5400 and parse_duration("500ms") == 0.5
    with pytest.raises(tether.ConfigurationError, match="not a duration"):
        parse_duration("soon")
