"""Fork and resume (`Client.fork`, `Client.resume`) on every backend, with a real worker.

Step bodies count their executions: a fork replays what it copied without running it,
and runs the rest.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tether
from tether.errors import ConflictError, ForkError, NotFoundError
from tether.stores import FORK_SLOT_LABEL, FORKED_FROM_LABEL, Backend, EnvKeyProvider, NewRun

ran: collections.Counter[str] = collections.Counter()


def _counted(name: str, fail: bool = False) -> Any:
    def body(value: Any) -> Any:
        ran[name] += 1
        if fail:
            raise tether.FatalError(f"{name} broke")
        return f"{value}>{name}"

    body.__name__ = name
    return body


def registry(*, fixed: bool = True, deployment: str = "v1") -> tether.Registry:
    reg = tether.Registry(deployment=deployment)

    @reg.workflow(name="pipeline")
    async def pipeline(ctx: tether.WorkflowContext, start: str) -> str:
        a = await ctx.step(_counted("a"), start, name="a")
        b = await ctx.step(_counted("b", fail=not fixed), a, name="b")
        return str(await ctx.step(_counted("c"), b, name="c"))

    @reg.workflow(name="napper")
    async def napper(ctx: tether.WorkflowContext) -> str:
        a = await ctx.step(_counted("a"), "n", name="a")
        await ctx.sleep(0.05)
        return str(await ctx.step(_counted("c"), a, name="c"))

    @reg.workflow(name="child")
    async def child(ctx: tether.WorkflowContext, x: str) -> str:
        return str(await ctx.step(_counted("kid"), x, name="kid"))

    @reg.workflow(name="parent")
    async def parent(ctx: tether.WorkflowContext) -> str:
        a = await ctx.step(_counted("a"), "p", name="a")
        kid = await ctx.start_child("child", a)
        got = await kid.result()
        return str(await ctx.step(_counted("c"), got, name="c"))

    @reg.workflow(name="asker")
    async def asker(ctx: tether.WorkflowContext) -> str:
        answer = await ctx.create_hook(token=f"ask-{ctx.run_id}")
        return str(await ctx.step(_counted("c"), answer, name="c"))

    @reg.workflow(name="tolerant")
    async def tolerant(ctx: tether.WorkflowContext) -> str:
        try:
            await ctx.step(_counted("bad", fail=True), "t", name="bad")
        except tether.StepFailedError:
            pass
        return str(await ctx.step(_counted("c"), "t", name="c"))

    def flaky(value: str) -> str:
        ran["flaky"] += 1
        if ran["flaky"] == 1:
            raise tether.RetryableError("not yet", retry_after=3600)
        return value + "!"

    @reg.workflow(name="patient")
    async def patient(ctx: tether.WorkflowContext) -> str:
        return str(await ctx.step(flaky, "f", name="flaky"))

    return reg


@pytest.fixture(autouse=True)
def _reset() -> None:
    ran.clear()


@pytest.fixture
async def memory() -> AsyncIterator[Backend]:
    """The memory backend, for the cases where what the store does is the same on every
    one (the contract cases check the store's part on each)."""
    async with tether.open_backend("memory://") as opened:
        yield opened


@pytest.fixture
async def sealed() -> AsyncIterator[Backend]:
    """The memory backend, encrypting (the contract cases cover each encrypted store)."""
    keys = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    async with tether.open_backend("memory://", keys=keys) as opened:
        yield opened


async def _log(backend: Backend, run_id: str) -> list[tuple[int, str, bytes | None]]:
    events = await backend.stores.workflow.list_events(run_id)
    return [(e.slot, e.event_type, e.payload) for e in events]


async def _done(client: tether.Client, workflow: str, *args: Any, run_id: str) -> None:
    handle = await client.start(workflow, *args, run_id=run_id)
    await handle.result(timeout=15)


async def test_a_fork_replays_the_steps_before_it_and_runs_the_rest(backend: Backend) -> None:
    reg = registry()
    client = tether.Client(backend, registry=reg)
    async with tether.Worker(backend, reg, poll_interval=0.02):
        await _done(client, "pipeline", "x", run_id="p1")
        before = await _log(backend, "p1")
        assert ran == {"a": 1, "b": 1, "c": 1}
        fork = await client.fork("p1", from_step="b", new_run_id="p1-fork")
        assert await fork.result(timeout=15) == "x>a>b>c"
        assert ran == {"a": 1, "b": 2, "c": 2}  # a replayed, never run again
        # From the very start every step runs; past the last one, none does.
        assert await (await client.fork("p1", from_step=1)).result(timeout=15) == "x>a>b>c"
        assert ran == {"a": 2, "b": 3, "c": 3}
        assert await (await client.fork("p1", from_step=4)).result(timeout=15) == "x>a>b>c"
        assert ran == {"a": 2, "b": 3, "c": 3}
        # A new input: the copied step keeps its recorded output.
        other = await client.fork("p1", from_step=2, args=["y"])
        assert await other.result(timeout=15) == "x>a>b>c"
        assert (await other.input()).args == ("y",)
    assert await _log(backend, "p1") == before  # the original is untouched
    info = await (await client.get("p1-fork")).info()
    assert info.labels[FORKED_FROM_LABEL] == "p1" and info.labels[FORK_SLOT_LABEL] == "2"
    steps = await (await client.get("p1-fork")).steps()
    assert [(s.name.rpartition("//")[2], s.status) for s in steps] == [
        ("a", "completed"),
        ("b", "completed"),
        ("c", "completed"),
    ]
    forks = await client.list_runs(labels={FORKED_FROM_LABEL: "p1"})
    assert len(forks) == 4
    # The same fork asked for again under its id is the same run.
    again = await client.fork("p1", from_step="b", new_run_id="p1-fork")
    assert again.run_id == "p1-fork"


async def test_a_fork_of_a_run_with_a_sleep_keeps_the_sleep_done(memory: Backend) -> None:
    reg = registry()
    client = tether.Client(memory, registry=reg)
    async with tether.Worker(memory, reg, poll_interval=0.02):
        await _done(client, "napper", run_id="n1")
        fork = await client.fork("n1", from_step=3)
        assert await fork.result(timeout=15) == "n>a>c"
        waits = await memory.stores.workflow.list_waits(fork.run_id)
        assert [(w.slot, w.completed) for w in waits] == [(2, True)]
    assert ran == {"a": 1, "c": 2}


async def test_a_fork_after_a_child_run_shares_its_outcome_and_before_starts_its_own(
    backend: Backend,
) -> None:
    reg = registry()
    client = tether.Client(backend, registry=reg)
    store = backend.stores.workflow
    async with tether.Worker(backend, reg, poll_interval=0.02):
        await _done(client, "parent", run_id="par")
        assert ran == {"a": 1, "kid": 1, "c": 1}
        after = await client.fork("par", from_step=3, new_run_id="after")
        assert await after.result(timeout=15) == "p>a>kid>c"
        assert ran == {"a": 1, "kid": 1, "c": 2}  # the child did not run again
        assert await store.get_run("after:2") is None
        before = await client.fork("par", from_step=2, new_run_id="before")
        assert await before.result(timeout=15) == "p>a>kid>c"
        assert ran == {"a": 1, "kid": 2, "c": 3}
        kid = await store.get_run("before:2")
        assert kid is not None and kid.parent_run_id == "before" and kid.status == "completed"
        # A child run forked is a run of its own: no parent waits for it.
        orphan = await client.fork("par:2", from_step=1)
        assert await orphan.result(timeout=15) == "p>a>kid"
        forked = await store.get_run(orphan.run_id)
        assert forked is not None and forked.parent_run_id is None
    assert ran == {"a": 1, "kid": 3, "c": 3}


async def test_a_fork_takes_a_hook_under_a_new_token_with_what_it_had_received(
    backend: Backend,
) -> None:
    reg = registry()
    client = tether.Client(backend, registry=reg)
    store = backend.stores.workflow
    async with tether.Worker(backend, reg, poll_interval=0.02):
        handle = await client.start("asker", run_id="h1")
        await _until(lambda: store.get_hook("ask-h1"))
        # Parked at its hook: a fork past it has the hook open at a token of its own.
        open_fork = await client.fork("h1", from_step=2)
        (hook,) = await _until(lambda: client.hooks(open_fork.run_id))
        assert hook.token != "ask-h1"
        await client.resume_hook("ask-h1", "yes")
        assert await handle.result(timeout=15) == "yes>c"
        # The fork did not hear what was sent to the original after it forked.
        assert (await open_fork.info()).status == "running"
        await client.resume_hook(hook.token, "also")
        assert await open_fork.result(timeout=15) == "also>c"
        # Forked after the payload arrived: the fork has it, and runs on at once.
        late = await client.fork("h1", from_step=2)
        assert await late.result(timeout=15) == "yes>c"
    assert ran == {"c": 3}
    assert await store.get_hook("ask-h1") is None


async def _until(read: Any, timeout: float = 15.0) -> Any:
    for _ in range(int(timeout / 0.02)):
        found = await read()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("condition never held")


async def test_resume_runs_the_failed_step_with_the_fixed_code_and_nothing_before(
    backend: Backend,
) -> None:
    broken = registry(fixed=False)
    client = tether.Client(backend, registry=broken)
    async with tether.Worker(backend, broken, poll_interval=0.02):
        handle = await client.start("pipeline", "x", run_id="f1")
        with pytest.raises(tether.RunFailedError):
            await handle.result(timeout=15)
    before = await _log(backend, "f1")
    assert ran == {"a": 1, "b": 1}
    fixed = registry(deployment="v2")
    client = tether.Client(backend, registry=fixed)
    await client.start("pipeline", "z", run_id="pending")
    with pytest.raises(ForkError, match="it is 'pending': only a failed or cancelled run resumes"):
        await client.resume("pending")
    await client.cancel("pending")
    resumed = await client.resume("f1")
    assert resumed.run_id == "f1.resumed-2"
    async with tether.Worker(backend, fixed, poll_interval=0.02):
        assert await resumed.result(timeout=15) == "x>a>b>c"
    assert ran == {"a": 1, "b": 2, "c": 1}
    info = await resumed.info()
    assert info.deployment == "v2" and info.labels[FORK_SLOT_LABEL] == "2"
    # Asked again (a retried command), the same run: the failed step never runs twice.
    assert (await client.resume("f1")).run_id == "f1.resumed-2"
    assert await _log(backend, "f1") == before
    assert (await (await client.get("f1")).info()).status == "failed"
    # Another input is another resumed run, named by the caller.
    with pytest.raises(ConflictError):
        await client.resume("f1", args=["w"])
    other = await client.resume("f1", args=["w"], new_run_id="f1-w")
    async with tether.Worker(backend, fixed, poll_interval=0.02):
        assert await other.result(timeout=15) == "x>a>b>c"


async def test_a_cancelled_run_resumes_at_the_operation_it_waited_on(memory: Backend) -> None:
    reg = registry()
    client = tether.Client(memory, registry=reg)
    store = memory.stores.workflow
    async with tether.Worker(memory, reg, poll_interval=0.02):
        handle = await client.start("asker", run_id="c1")
        await _until(lambda: store.get_hook("ask-c1"))
        await client.cancel("c1")
        with pytest.raises(tether.RunCancelledError):
            await handle.result(timeout=15)
        resumed = await client.resume("c1")
        assert resumed.run_id == "c1.resumed-2"  # the hook is replayed, waited on again
        (hook,) = await _until(lambda: client.hooks(resumed.run_id))
        await client.resume_hook(hook.token, "later")
        assert await resumed.result(timeout=15) == "later>c"


async def test_bad_forks_are_refused_with_what_to_do(memory: Backend) -> None:
    reg = registry()
    client = tether.Client(memory, registry=reg)
    async with tether.Worker(memory, reg, poll_interval=0.02):
        await _done(client, "pipeline", "x", run_id="b1")
    with pytest.raises(NotFoundError):
        await client.fork("nope", from_step=1)
    with pytest.raises(ForkError, match=r"out of range.*slot 1 to 4"):
        await client.fork("b1", from_step=5)
    with pytest.raises(ForkError, match="out of range"):
        await client.fork("b1", from_step=0)
    with pytest.raises(ForkError, match=r"no step named 'zz' \(its steps: a, b, c\)"):
        await client.fork("b1", from_step="zz")
    with pytest.raises(ForkError, match="must be a slot"):
        await client.fork("b1", from_step=True)
    with pytest.raises(ConflictError):
        await client.fork("b1", from_step=2, new_run_id="b1")
    with pytest.raises(tether.UnknownWorkflowError):
        await tether.Client(memory, registry=tether.Registry(deployment="empty")).fork(
            "b1", from_step=2
        )
    assert [r.run_id for r in await client.list_runs()] == ["b1"]
    # tether's own workflows (sessions, tasks, the scheduler) are not forked.
    own = NewRun(
        run_id="sched",
        workflow_name="tether.scheduler",
        input=b"",
        deployment="v1",
        engine_version="e",
        queue="q",
    )
    await memory.stores.workflow.create_run(own)
    with pytest.raises(ForkError, match=r"tether's own workflow 'tether\.scheduler'"):
        await client.fork("sched", from_step=1)
    # Content deleted by retention cannot be replayed: a fork says so, unless it
    # replays nothing and is given the input.
    await memory.stores.workflow.purge_run_content("b1")
    with pytest.raises(ForkError, match="its input was deleted"):
        await client.fork("b1", from_step=2)
    with pytest.raises(ForkError, match="outputs of its steps were deleted"):
        await client.fork("b1", from_step=2, args=["x"])
    fresh = await client.fork("b1", from_step=1, args=["x"])
    assert (await fresh.info()).status == "pending"


async def test_a_fork_on_an_encrypted_store_seals_its_copies_for_itself(sealed: Backend) -> None:
    reg = registry()
    client = tether.Client(sealed, registry=reg)
    async with tether.Worker(sealed, reg, poll_interval=0.02):
        await _done(client, "pipeline", "s", run_id="e1")
        fork = await client.fork("e1", from_step="c")
        assert await fork.result(timeout=15) == "s>a>b>c"
    assert ran == {"a": 1, "b": 1, "c": 2}
    (step, *_) = await (await client.get(fork.run_id)).steps()
    assert step.output == "s>a"


async def test_a_failure_the_body_caught_is_replayed_not_run_again(memory: Backend) -> None:
    reg = registry()
    client = tether.Client(memory, registry=reg)
    async with tether.Worker(memory, reg, poll_interval=0.02):
        await _done(client, "tolerant", run_id="t1")
        fork = await client.fork("t1", from_step="c")
        assert await fork.result(timeout=15) == "t>c"
    assert ran == {"bad": 1, "c": 2}
    steps = await (await client.get(fork.run_id)).steps()
    assert [s.status for s in steps] == ["failed", "completed"]


async def test_a_step_that_had_not_ended_runs_afresh_in_the_fork(memory: Backend) -> None:
    reg = registry()
    client = tether.Client(memory, registry=reg)
    store = memory.stores.workflow
    async with tether.Worker(memory, reg, poll_interval=0.02):
        await client.start("patient", run_id="w1")
        # Its one step waits an hour for its second attempt.
        await _until(lambda: _step_status(store, "w1", "retrying"))
        fork = await client.fork("w1", from_step=2)
        assert await fork.result(timeout=15) == "f!"
    (step,) = await store.list_steps(fork.run_id)
    assert (step.slot, step.attempt, step.status) == (1, 1, "completed")
    assert await _step_status(store, "w1", "retrying")
    assert ran == {"flaky": 2}


async def _step_status(store: Any, run_id: str, status: str) -> bool:
    return [s.status for s in await store.list_steps(run_id)] == [status]
