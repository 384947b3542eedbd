"""Workflows that both the release before format 2 and this one run (by name).

`write` runs with the earlier release (in a subprocess whose path puts its sources
first): it leaves runs that ended, one whose step was retried, and one parked on a hook,
plus, with ``bulk``, many more ended runs written row by row so a migration takes long
enough to be killed midway. It prints what it wrote as one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import tether

registry = tether.Registry(deployment="format-1")


def echo(i: int) -> str:
    return f"out-{i}-" + "x" * 200


def flaky(mark: str) -> str:
    # The first attempt fails (the mark file survives it), the second succeeds.
    path = Path(mark)
    if not path.exists():
        path.touch()
        raise RuntimeError("first attempt fails")
    return "second attempt"


@registry.workflow(name="steps")
async def steps(ctx: tether.WorkflowContext, n: int) -> list[str]:
    return [await ctx.step(echo, i) for i in range(n)]


@registry.workflow(name="retried")
async def retried(ctx: tether.WorkflowContext, mark: str) -> str:
    return await ctx.step(flaky, mark, retry=tether.RetryPolicy(max_attempts=3, initial_delay=0.01))


@registry.workflow(name="parked")
async def parked(ctx: tether.WorkflowContext, n: int) -> str:
    done = [await ctx.step(echo, i) for i in range(n)]
    got = await ctx.create_hook(token="format-1-hook").receive()
    return f"{len(done)} {got}"


async def write(url: str, namespace: str, mark: str, bulk: int) -> dict[str, object]:
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(url, **options) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            client = tether.Client(backend, registry=registry)
            ended = await client.start(steps, 5, run_id="ended")
            await ended.result(timeout=60)
            again = await client.start(retried, mark, run_id="retried")
            await again.result(timeout=60)
            await client.start(parked, 3, run_id="parked")
            for _ in range(500):
                if await backend.stores.workflow.get_hook("format-1-hook") is not None:
                    break
                await asyncio.sleep(0.02)
            for k in range(bulk):
                await (await client.start(steps, 20, run_id=f"bulk-{k}")).result(timeout=60)
        store = backend.stores.workflow
        out: dict[str, object] = {}
        for run_id in ("ended", "retried", "parked"):
            out[run_id] = [
                [s.step_id, s.status, s.attempt, _hex(s.input), _hex(s.output), _hex(s.error)]
                for s in await store.list_steps(run_id)
            ]
        return out


def _hex(value: bytes | None) -> str | None:
    return None if value is None else value.hex()


if __name__ == "__main__":
    url, namespace, mark, bulk = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    print("WROTE " + json.dumps(asyncio.run(write(url, namespace, mark, bulk))), flush=True)
