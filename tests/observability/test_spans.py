"""Spans of runs and step attempts, on every backend, with the SDK's in-memory exporter."""

from __future__ import annotations

import asyncio
from typing import Any

from _telemetry import Telemetry
from opentelemetry.trace import StatusCode

import tether
from tether import RetryableError
from tether.durable import Registry
from tether.stores import Backend

registry = Registry(deployment="otel")


def flaky(key: str) -> str:
    attempt = tether.step_info().attempt
    if attempt == 1:
        raise RetryableError("not yet", retry_after=0.01)
    return f"{key} done at attempt {attempt}"


def double(x: int) -> int:
    return 2 * x


@registry.workflow(name="otel.child")
async def child(ctx: tether.WorkflowContext, x: int) -> int:
    return await ctx.step(double, x, name="double")


@registry.workflow(name="otel.parent")
async def parent(ctx: tether.WorkflowContext, key: str) -> list[Any]:
    first = await ctx.step(flaky, key, name="flaky")
    kid = await ctx.start_child(child, 21)
    return [first, await kid.result()]


@registry.workflow(name="otel.parked")
async def parked(ctx: tether.WorkflowContext) -> int:
    before = await ctx.step(double, 1, name="before")
    hook = ctx.create_hook(token="otel-parked-hook")
    got = await hook.receive()
    return await ctx.step(double, before + int(got), name="after")


def attempt(span: Any) -> int:
    return int(span.attributes["tether.step.attempt"])


async def test_a_runs_steps_and_its_child_join_the_callers_trace(
    backend: Backend, telemetry: Telemetry
) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.01):
        with telemetry.tracer.start_as_current_span("caller") as caller:
            handle = await client.start(parent, "a")
        assert await handle.result(timeout=20) == ["a done at attempt 2", 42]
        # Spans are emitted once their commit landed: just after what the result saw.
        await telemetry.wait_for("run otel.parent")
    caller_ctx = caller.get_span_context()
    spans = telemetry.spans()
    traced = [s for s in spans if s.name != "caller"]
    assert {s.context.trace_id for s in traced} == {caller_ctx.trace_id}
    (run,) = telemetry.spans("run otel.parent")
    assert run.parent is not None and run.parent.span_id == caller_ctx.span_id
    assert run.attributes["tether.run.outcome"] == "completed"
    first, second = sorted(telemetry.spans("step flaky"), key=attempt)
    assert [attempt(first), attempt(second)] == [1, 2]
    assert first.attributes["tether.step.outcome"] == "retrying"
    assert first.status.status_code is StatusCode.ERROR
    assert second.attributes["tether.step.outcome"] == "completed"
    # A retried attempt is a new span, linked to the attempt before it.
    assert [link.context.span_id for link in second.links] == [first.context.span_id]
    assert not first.links
    assert first.parent.span_id == second.parent.span_id == run.context.span_id
    (kid,) = telemetry.spans("run otel.child")
    assert kid.parent is not None and kid.parent.span_id == run.context.span_id
    (doubled,) = telemetry.spans("step double")
    assert doubled.parent is not None and doubled.parent.span_id == kid.context.span_id


async def test_a_replayed_step_emits_no_second_span(backend: Backend, telemetry: Telemetry) -> None:
    client = tether.Client(backend, registry=registry)
    handle = await client.start(parked)
    async with tether.Worker(backend, registry, poll_interval=0.01):
        for _ in range(500):  # parked: its hook made, its first step committed
            steps = await handle.steps()
            if steps and all(s.status == "completed" for s in steps) and await handle.hooks():
                break
            await asyncio.sleep(0.02)
    assert [attempt(s) for s in telemetry.spans("step before")] == [1]
    await client.resume_hook("otel-parked-hook", 5)
    # Another worker activates the run: its body replays `before` from the journal.
    async with tether.Worker(backend, registry, poll_interval=0.01):
        assert await handle.result(timeout=20) == 14
        await telemetry.wait_for("run otel.parked")
    assert len(telemetry.spans("step before")) == 1
    assert len(telemetry.spans("step after")) == 1
    assert len(telemetry.spans("run otel.parked")) == 1


async def test_without_a_configured_sdk_nothing_is_recorded_or_labeled(backend: Backend) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.01):
        handle = await client.start(parent, "off")
        assert await handle.result(timeout=20) == ["off done at attempt 2", 42]
    assert (await handle.info()).labels == {}
    kid = await client.get(f"{handle.run_id}:2", follow=False)
    assert (await kid.info()).labels == {}


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("__str__ is broken")


def raise_unprintable() -> None:
    raise Unprintable()


@registry.workflow(name="otel.unprintable")
async def unprintable(ctx: tether.WorkflowContext) -> str:
    try:
        await ctx.step(raise_unprintable, name="broken", retry=tether.RetryPolicy(max_attempts=1))
    except tether.StepFailedError:
        return "caught"
    return "not raised"


async def test_a_step_failing_with_an_unprintable_error_still_gets_its_span(
    backend: Backend, telemetry: Telemetry
) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.01):
        handle = await client.start(unprintable)
        assert await handle.result(timeout=20) == "caught"
        (broken,) = await telemetry.wait_for("step broken")
    assert broken.attributes is not None
    assert broken.attributes["tether.step.outcome"] == "failed"
    assert broken.status.status_code is StatusCode.ERROR
    assert broken.status.description == "Unprintable: (its message cannot be printed)"
