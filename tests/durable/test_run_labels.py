"""Run labels through the public API, on every backend: set on start, kept along a
chain, given to children only when asked, filtered on by `list_runs` / `page_runs`."""

from __future__ import annotations

from typing import Any

import pytest

import tether
from tether.errors import InvalidInputError
from tether.stores import Backend

registry = tether.Registry(deployment="labels")


async def double(n: int) -> int:
    return n * 2


@registry.workflow(name="labels.leaf")
async def leaf(ctx: tether.WorkflowContext, n: int) -> int:
    return await ctx.step(double, n, name="double")


@registry.workflow(name="labels.parent")
async def parent(ctx: tether.WorkflowContext, n: int) -> list[int]:
    plain = await ctx.start_child(leaf, n, run_id=f"{ctx.run_id}-plain")
    tagged = await ctx.start_child(
        leaf, n + 1, run_id=f"{ctx.run_id}-tagged", labels={"kind": "child"}
    )
    return [await plain.result(), await tagged.result()]


@registry.workflow(name="labels.counter")
async def counter(ctx: tether.WorkflowContext, n: int, last: int) -> int:
    n = await ctx.step(double, n, name="double")
    if n < last:
        await ctx.continue_as_new(n, last)
    return n


async def test_start_with_labels_and_list_by_them(backend: Backend) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        started = []
        for n in range(5):
            labels = {"tenant": "acme" if n % 2 == 0 else "other", "batch": str(n // 3)}
            started.append(await client.start(leaf, n, run_id=f"leaf{n}", labels=labels))
        for handle in started:
            await handle.result(timeout=20)
    acme = await client.list_runs(labels={"tenant": "acme"})
    assert [r.run_id for r in acme] == ["leaf4", "leaf2", "leaf0"]
    assert dict(acme[0].labels) == {"tenant": "acme", "batch": "1"}
    both = await client.list_runs(labels={"tenant": "acme", "batch": "0"}, status="completed")
    assert [r.run_id for r in both] == ["leaf2", "leaf0"]
    ids: list[str] = []
    cursor = None
    while True:
        page = await client.page_runs(labels={"tenant": "acme"}, limit=2, cursor=cursor)
        ids += [r.run_id for r in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert ids == ["leaf4", "leaf2", "leaf0"]
    assert await client.list_runs(labels={"tenant": "nobody"}) == []
    info = await (await client.get("leaf1")).info()
    assert dict(info.labels) == {"tenant": "other", "batch": "0"}


@pytest.mark.parametrize("labels", [{"": "x"}, {"k": ""}, {"k": "a\x00"}, {"k": 3}])
async def test_invalid_labels_are_refused_before_anything_is_written(
    backend: Backend, labels: Any
) -> None:
    client = tether.Client(backend, registry=registry)
    with pytest.raises(InvalidInputError):
        await client.start(leaf, 1, run_id="bad", labels=labels)
    assert await client.list_runs() == []
    with pytest.raises(InvalidInputError):
        await client.page_runs(labels=labels)


async def test_children_get_only_their_own_labels(backend: Backend) -> None:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await client.start(parent, 1, run_id="p", labels={"tenant": "acme"})
        assert await handle.result(timeout=20) == [2, 4]
    plain = await (await client.get("p-plain")).info()
    tagged = await (await client.get("p-tagged")).info()
    assert dict(plain.labels) == {} and dict(tagged.labels) == {"kind": "child"}
    assert [r.run_id for r in await client.list_runs(labels={"tenant": "acme"})] == ["p"]


async def test_a_chain_keeps_its_labels(backend: Backend) -> None:
    if tether.stores.Capability.CONTINUE_AS_NEW not in backend.capabilities:
        pytest.skip("no continue-as-new")
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await client.start(counter, 1, 8, run_id="c", labels={"tenant": "acme"})
        assert await handle.result(timeout=20) == 8
    runs = await client.list_runs(labels={"tenant": "acme"})
    assert sorted(r.run_id for r in runs) == ["c", "c~1", "c~2"]
    assert all(dict(r.labels) == {"tenant": "acme"} for r in runs)
