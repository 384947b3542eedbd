"""``tether.retention.pruned``: what the retention sweep deleted, by kind, counted once."""

from __future__ import annotations

import asyncio

from _telemetry import Telemetry

import tether
from tether.agent import Agent, AgentHost
from tether.durable import prune
from tether.testing import ScriptedModel

registry = tether.Registry(deployment="pruned-metric")


@registry.workflow(name="metric.note")
async def note(ctx: tether.WorkflowContext, text: str) -> str:
    return await ctx.step(str.upper, text, name="upper")


def _counts(telemetry: Telemetry) -> dict[str, int]:
    return {
        p.attributes["tether.retention.kind"]: p.value
        for p in telemetry.points("tether.retention.pruned")
    }


async def test_the_sweep_counts_runs_and_sessions_it_deleted(telemetry: Telemetry) -> None:
    async with tether.open_backend("memory://") as backend:
        client = tether.Client(backend, registry=registry)
        async with tether.Worker(backend, registry, poll_interval=0.02):
            for run_id in ("m1", "m2", "m3"):
                await (await client.start(note, "x", run_id=run_id)).result(timeout=10)
        host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(["hi"]))])
        async with host.worker(poll_interval=0.02):
            session = await host.open_session("ops", session_id="metric")
            await session.send("hello")
            await session.wait_for("turn.completed")
            await session.close()
            await (await host.client.get(session.run_id)).result(timeout=10)
        pruner = host.registry.pruner
        await prune(backend, older_than=1e-6, pruner=pruner, dry_run=True)
        assert _counts(telemetry) == {}  # a dry run deletes nothing, counts nothing
        # Two sweeps at once: each run and the session counted once between them.
        await asyncio.gather(
            *(prune(backend, older_than=1e-6, pruner=pruner, batch_size=1) for _ in range(2))
        )
        assert _counts(telemetry) == {"run": 3, "session": 1}
        await prune(backend, older_than=1e-6, pruner=pruner)
        assert _counts(telemetry) == {"run": 3, "session": 1}
