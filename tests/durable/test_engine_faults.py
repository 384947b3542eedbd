"""Runs that used to wedge or take another branch on replay, on every backend.

Each ends in a committed outcome now: a failed attempt, a failed run, or the branch the
workflow saw the first time. None may hang with its lease renewed forever.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tether
from tether.errors import ConflictError, StepTimeoutError, StoreUnavailableError
from tether.stores import Backend, Commit, CommitResult

registry = tether.Registry(deployment="test-faults")
ONCE = tether.RetryPolicy(max_attempts=1)
TWICE = tether.RetryPolicy(max_attempts=2, initial_delay=0.01)
attempts: list[str] = []


class Boom(BaseException):
    """Not an Exception: a user's `except Exception` would not catch it either."""


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


async def cancels_itself() -> None:
    task = asyncio.create_task(asyncio.sleep(10))
    task.cancel()
    await task


def raises_base_in_thread() -> None:
    raise Boom("from a thread")


async def raises_base() -> None:
    raise Boom("from the loop")


async def sleeps_async(seconds: float) -> str:
    attempts.append("async")
    await asyncio.sleep(seconds)
    return "woke"


def sleeps_sync(seconds: float) -> str:
    attempts.append("sync")
    time.sleep(seconds)
    return "woke"


@registry.workflow(name="one_step")
async def one_step(ctx: tether.WorkflowContext, which: str) -> Any:
    steps = {
        "cancels_itself": cancels_itself,
        "base_in_thread": raises_base_in_thread,
        "base": raises_base,
    }
    return await ctx.step(steps[which], retry=ONCE)


@registry.workflow(name="body_raises")
async def body_raises(ctx: tether.WorkflowContext, which: str) -> None:
    if which == "unprintable":
        raise Unprintable()
    if which == "base":
        raise Boom("from the body")
    task = asyncio.get_running_loop().create_future()
    task.cancel()
    await task


@registry.workflow(name="timed")
async def timed(ctx: tether.WorkflowContext, kind: str, seconds: float) -> Any:
    fn = sleeps_async if kind == "async" else sleeps_sync
    return await ctx.step(fn, seconds, retry=TWICE, timeout=0.2)


@registry.workflow(name="holds_token")
async def holds_token(ctx: tether.WorkflowContext, token: str) -> Any:
    return await ctx.create_hook(token=token)


@registry.workflow(name="hook_or_fallback")
async def hook_or_fallback(ctx: tether.WorkflowContext, token: str) -> list[Any]:
    try:
        value = await ctx.create_hook(token=token)
        branch = "hook"
    except tether.HookTokenInUseError as exc:
        assert exc.token == token
        value = await ctx.create_hook(token=f"fallback-{ctx.run_id}")
        branch = "fallback"
    return [branch, value]


@registry.workflow(name="echo")
async def echo(ctx: tether.WorkflowContext, value: int) -> int:
    return value


@registry.workflow(name="starts_child")
async def starts_child(ctx: tether.WorkflowContext, child_id: str, value: int) -> list[Any]:
    try:
        child = await ctx.start_child(echo, value, run_id=child_id)
    except ConflictError as exc:
        # Park once, so the refusal is read back from the journal on replay.
        await ctx.sleep(0.05)
        return ["refused", str(exc)]
    return ["started", await child.result()]


def add_one(value: int) -> int:
    attempts.append(f"add_one:{value}")
    return value + 1


@registry.workflow(name="three_steps")
async def three_steps(ctx: tether.WorkflowContext) -> int:
    value = 0
    for _ in range(3):
        value = await ctx.step(add_one, value)
    return value


@pytest.fixture(autouse=True)
def _reset() -> None:
    attempts.clear()


@pytest.fixture
async def client(backend: Backend) -> AsyncIterator[tether.Client]:
    async with tether.Worker(backend, registry, poll_interval=0.02, lease_seconds=5.0):
        yield tether.Client(backend, registry=registry)


@pytest.mark.parametrize("which", ["cancels_itself", "base_in_thread", "base"])
async def test_a_step_raising_a_base_exception_fails_its_attempt(
    client: tether.Client, which: str
) -> None:
    handle = await client.start(one_step, which)
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=15)
    assert isinstance(info.value.cause, tether.StepFailedError)
    (step,) = await handle.steps()
    assert step.status == "failed" and step.attempt == 1


@pytest.mark.parametrize("which", ["unprintable", "base", "cancelled"])
async def test_a_body_raising_anything_fails_the_run(client: tether.Client, which: str) -> None:
    handle = await client.start(body_raises, which)
    with pytest.raises(tether.RunFailedError):
        await handle.result(timeout=15)
    assert await handle.status() == "failed"


@pytest.mark.parametrize("kind", ["async", "sync"])
async def test_a_step_past_its_timeout_fails_the_attempt(client: tether.Client, kind: str) -> None:
    handle = await client.start(timed, kind, 3.0)
    started = time.monotonic()
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=15)
    # Two attempts of 0.2 s each, not two of 3 s.
    assert time.monotonic() - started < 2.5
    assert isinstance(info.value.cause, tether.StepFailedError)
    assert attempts == [kind, kind]
    (step,) = await handle.steps()
    assert step.status == "failed" and step.attempt == 2
    assert isinstance(step.error, StepTimeoutError) and step.error.timeout == 0.2


async def test_a_step_within_its_timeout_returns(client: tether.Client) -> None:
    assert await (await client.start(timed, "sync", 0.01)).result(timeout=15) == "woke"


@registry.workflow(name="bad_timeout")
async def bad_timeout(ctx: tether.WorkflowContext, seconds: str) -> None:
    await ctx.step(add_one, 1, timeout=float(seconds))


@pytest.mark.parametrize("bad", ["nan", "inf", 0, -1])
async def test_a_step_timeout_must_be_a_positive_duration(client: tether.Client, bad: Any) -> None:
    handle = await client.start(bad_timeout, str(bad))
    with pytest.raises(tether.RunFailedError) as info:
        await handle.result(timeout=15)
    assert isinstance(info.value.cause, tether.ConfigurationError)
    assert attempts == []


async def test_a_refused_hook_token_is_journaled_so_replay_takes_the_same_branch(
    client: tether.Client,
) -> None:
    holder = await client.start(holds_token, "shared", run_id="holder")
    store = client.backend.stores.workflow
    for _ in range(500):
        if await store.get_hook("shared") is not None:
            break
        await asyncio.sleep(0.01)
    refused = await client.start(hook_or_fallback, "shared", run_id="refused")
    for _ in range(500):
        if await store.get_hook("fallback-refused") is not None:
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the workflow never took its fallback")
    # The token is free again before the refused run replays.
    await client.resume_hook("shared", "for the holder")
    assert await holder.result(timeout=15) == "for the holder"
    await client.resume_hook("fallback-refused", "for the fallback")
    assert await refused.result(timeout=15) == ["fallback", "for the fallback"]
    log = [e.event_type for e in await store.list_events("refused")]
    assert "hook_conflict" in log


@pytest.mark.parametrize("value", [2, 1], ids=["other-input", "same-input"])
async def test_a_child_id_naming_another_run_is_refused(client: tether.Client, value: int) -> None:
    other = await client.start(echo, 1, run_id="taken")
    assert await other.result(timeout=15) == 1
    parent = await client.start(starts_child, "taken", value, run_id="parent")
    branch, reason = await parent.result(timeout=15)
    assert branch == "refused" and "taken" in reason
    log = [e.event_type for e in await client.backend.stores.workflow.list_events("parent")]
    assert "child_refused" in log and "child_started" not in log


async def test_a_commit_whose_answer_was_lost_is_not_written_twice(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit reached the store, the answer did not (a cut connection)."""
    store = backend.stores.workflow
    commit = store.commit
    lost: list[int] = []

    async def answer_lost_once(c: Commit) -> CommitResult:
        result = await commit(c)
        if c.events and c.events[0].event_type == "step_completed" and not lost:
            lost.append(result.head)
            raise StoreUnavailableError("the connection was cut before the answer came")
        return result

    monkeypatch.setattr(store, "commit", answer_lost_once)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend, registry=registry).start(three_steps)
        assert await handle.result(timeout=15) == 3
    assert lost and attempts == ["add_one:0", "add_one:1", "add_one:2"]
    steps = await handle.steps()
    assert [(s.status, s.attempt) for s in steps] == [("completed", 1)] * 3
