"""Identifiers are checked the same way on every backend, before anything is written.

PostgreSQL refuses a NUL character in text and SQLite takes it: a hook token or step
name with one used to make a Postgres run retry its commit forever, while the same
workflow ran on SQLite.
"""

from __future__ import annotations

from typing import Any

import pytest

import tether
from tether.errors import InvalidInputError
from tether.stores import Backend, Commit, NewEvent, NewRun

registry = tether.Registry(deployment="identifiers")
NUL = "bad\x00id"
BAD_IDS = {
    "nul": NUL,
    "empty": "",
    "1025 bytes": "x" * 1025,
    "lone surrogate": "\ud800",
    "1026 utf-8 bytes": "é" * 513,
}


def noop() -> str:
    return "ok"


@registry.workflow(name="child")
async def child(ctx: tether.WorkflowContext) -> str:
    return "child"


@registry.workflow(name="uses")
async def uses(ctx: tether.WorkflowContext, what: str, value: str) -> str:
    if what == "step":
        await ctx.step(noop, name=value)
    elif what == "hook":
        await ctx.create_hook(token=value)
    elif what == "child":
        await ctx.start_child(child, run_id=value)
    return "ran"


@pytest.mark.parametrize("what", ["step", "hook", "child"])
async def test_bad_identifiers_in_a_workflow_fail_the_run(backend: Backend, what: str) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend).start(uses, what, NUL)
        with pytest.raises(tether.RunFailedError) as info:
            await handle.result(timeout=20)
    cause = info.value.cause
    assert isinstance(cause, InvalidInputError), info.value
    assert "NUL" in str(cause)
    assert [s.name for s in await handle.steps()] == []


@pytest.mark.parametrize("value", BAD_IDS.values(), ids=BAD_IDS.keys())
async def test_client_refuses_bad_run_ids_before_writing(backend: Backend, value: str) -> None:
    client = tether.Client(backend)
    with pytest.raises(InvalidInputError, match="run_id"):
        await client.start(uses, "none", "", run_id=value)
    assert await client.list_runs() == []


async def test_client_refuses_bad_lookups(backend: Backend) -> None:
    client = tether.Client(backend)
    with pytest.raises(InvalidInputError, match="token"):
        await client.resume_hook(NUL, {"x": 1})
    with pytest.raises(InvalidInputError, match="run_id"):
        await client.get(NUL)
    with pytest.raises(InvalidInputError, match="run_id"):
        await client.cancel(NUL)
    handle = await client.start(uses, "none", "", run_id="fine")
    with pytest.raises(InvalidInputError, match="reason"):
        await handle.cancel(reason="because\x00")
    with pytest.raises(InvalidInputError, match="workflow"):
        await client.list_runs(workflow=NUL)
    with pytest.raises(tether.ConfigurationError, match="status"):
        await client.list_runs(status="bogus")  # type: ignore[arg-type]


def test_registry_refuses_bad_names() -> None:
    local = tether.Registry(deployment="x")
    with pytest.raises(InvalidInputError, match="workflow name"):
        local.workflow(name=NUL)(child)
    with pytest.raises(InvalidInputError, match="deployment"):
        tether.Registry(deployment="v\x001")


def new_run(run_id: str = "r", workflow_name: str = "w") -> NewRun:
    return NewRun(
        run_id=run_id,
        workflow_name=workflow_name,
        input=b"TJ1\x00{}",
        deployment="d",
        engine_version="e",
        queue="q",
    )


async def test_stores_refuse_bad_identifiers_alike(backend: Backend) -> None:
    """The same typed refusal from every backend, never a raw driver error."""
    store = backend.stores.workflow
    with pytest.raises(InvalidInputError, match="run_id"):
        await store.create_run(new_run(run_id=NUL))
    with pytest.raises(InvalidInputError, match="workflow_name"):
        await store.create_run(new_run(workflow_name=NUL))
    with pytest.raises(InvalidInputError, match="token"):
        await store.resume_hook(NUL, b"")
    await store.create_run(new_run())
    claim = await store.claim_run("r", owner="w1", lease_seconds=30)
    assert claim.run is not None

    def commit(*events: NewEvent) -> Commit:
        assert claim.run is not None
        return Commit(
            run_id="r", owner="w1", epoch=claim.epoch, expected_head=claim.run.head, events=events
        )

    hook = NewEvent(event_type="hook_created", correlation_id="h1", attrs={"slot": 1, "token": NUL})
    with pytest.raises(InvalidInputError, match="token"):
        await store.commit(commit(hook))
    step: dict[str, Any] = {"slot": 1, "name": "step//x//" + NUL, "attempt": 1}
    with pytest.raises(InvalidInputError, match="name"):
        await store.commit(commit(NewEvent(event_type="step_created", correlation_id="s1",
                                           attrs=step)))  # fmt: skip
    with pytest.raises(InvalidInputError, match="reason"):
        await store.request_cancel("r", reason="no\x00")
    # Nothing was written by the refused calls: the log holds the creation and the claim.
    events = [e.event_type for e in await store.list_events("r")]
    assert events == ["run_created", "run_started"]
    assert [r.run_id for r in (await store.list_runs()).items] == ["r"]


async def test_reads_of_impossible_ids_are_never_store_outages(backend: Backend) -> None:
    """A read the database refuses is a typed refusal, not a retryable StoreError."""
    store = backend.stores.workflow
    for read in (store.get_run(NUL), store.get_hook(NUL), store.get_run("\ud800")):
        try:
            assert await read is None
        except InvalidInputError:
            pass
