"""`RunHandle.step`: one journal entry by its step id, decoded, on every backend."""

from __future__ import annotations

import tether
from tether.stores import Backend

registry = tether.Registry()


def double(x: int) -> int:
    return 2 * x


@registry.workflow()
async def twice(ctx: tether.WorkflowContext, x: int) -> int:
    return await ctx.step(double, await ctx.step(double, x))


async def test_a_step_by_its_id_is_the_journals_entry(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        handle = await tether.Client(backend).start(twice, 5)
        assert await handle.result(timeout=20) == 20
    journal = await handle.steps()
    assert [s.output for s in journal] == [10, 20]
    for entry in journal:
        assert await handle.step(entry.step_id) == entry
    assert await handle.step("no-such-step") is None
