"""What tracing and metrics cost: per step and per turn, telemetry off and on.

    python bench/telemetry.py [--pg URL | --no-pg] [--rounds N] [--steps N]

*Off* is the process as it starts: no tracer or meter provider set (OpenTelemetry's
API installed, its default providers). *On* is a deployment's setup: the SDK's
`TracerProvider` with a `BatchSpanProcessor` (its exporter drops what it is handed, so
no network is timed) and the SDK's `MeterProvider` with a reader, so every span and
every measurement is made, processed and aggregated as in production.

- *per step*: a workflow of S sequential async steps, in-process (started by the
  worker's own client, so it runs at once), timed from `Client.start` to its result,
  divided by S;
- *per turn*: an agent turn with one tool call (two model calls of a `ScriptedModel`
  that answers at once, so two turn steps), timed from its ``turn.started`` event to
  its ``turn.completed`` event (both stamped by the worker), turns of one session.

Off and on alternate workflow by workflow and turn by turn on the same store (N of
each), so drift (a growing WAL, a warm cache, load from elsewhere on the machine)
falls on both alike; each figure is the median of its N. The ratio is on / off. The
CPU rows are this process's CPU time (every thread: the span processor's too) over
the same windows (for a turn, from `send` to its ``turn.completed`` reaching the
client): what telemetry costs the worker, which load from other processes moves less
than it moves the clock.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import psycopg
from opentelemetry import metrics, trace
from opentelemetry.metrics import _internal as metrics_internal
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.util._once import Once
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, Session, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"

registry = tether.Registry(deployment="bench-telemetry")


async def noop_step(i: int) -> int:
    return i


@registry.workflow(name="bench.sequential")
async def sequential(ctx: tether.WorkflowContext, steps: int) -> int:
    total = 0
    for i in range(steps):
        total += await ctx.step(noop_step, i, name="noop")
    return total


@tool
def echo(i: int) -> int:
    """Return i."""
    return i


def one_tool_call(request: ModelRequest) -> Reply:
    """A tool call for each new user message, then the final answer."""
    messages = request.messages
    last_user = max(i for i, m in enumerate(messages) if isinstance(m, UserMessage))
    if any(isinstance(m, ToolResultMessage) for m in messages[last_user:]):
        return Reply(text="done")
    return Reply(tool_calls=(tool_call("echo", {"i": last_user}, call_id=f"c{last_user}"),))


class _Drop(SpanExporter):
    """An exporter that takes every batch and sends it nowhere."""

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        pass


class Telemetry:
    """Switches this process's global providers between none (off) and the SDK's (on)."""

    def __init__(self) -> None:
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(BatchSpanProcessor(_Drop()))
        self.meter_provider = MeterProvider(metric_readers=[InMemoryMetricReader()])

    @staticmethod
    def _clear() -> None:
        trace._TRACER_PROVIDER_SET_ONCE = Once()
        trace._TRACER_PROVIDER = None
        metrics_internal._METER_PROVIDER_SET_ONCE = Once()
        metrics_internal._METER_PROVIDER = None

    def off(self) -> None:
        self._clear()

    def on(self) -> None:
        self._clear()
        trace.set_tracer_provider(self.tracer_provider)
        metrics.set_meter_provider(self.meter_provider)

    def shutdown(self) -> None:
        self._clear()
        self.tracer_provider.shutdown()
        self.meter_provider.shutdown()


async def one_workflow(client: tether.Client, steps: int) -> tuple[float, float]:
    """Per-step seconds of one workflow of `steps` steps: wall clock, and CPU."""
    began, cpu = time.perf_counter(), time.process_time()
    handle = await client.start(sequential, steps)
    await handle.result(timeout=120)
    return (time.perf_counter() - began) / steps, (time.process_time() - cpu) / steps


async def one_turn(session: Session, after: int) -> tuple[float, float, int]:
    """Seconds of one one-tool-call turn (wall clock, CPU), and its last event's index."""
    cpu = time.process_time()
    await session.send("go")
    started = await session.wait_for("turn.started", after=after, timeout=120)
    done = await session.wait_for("turn.completed", after=started.index, timeout=120)
    return done.meta.at - started.meta.at, time.process_time() - cpu, done.index


async def measure(
    backend: Backend, telemetry: Telemetry, rounds: int, steps: int
) -> dict[str, dict[str, float]]:
    agent = Agent(name="bench-telemetry", model=ScriptedModel(one_tool_call), tools=[echo])
    host = AgentHost(backend, [agent], deployment="bench-telemetry-agents")
    figures: dict[str, dict[str, list[float]]] = {
        kind: {"off": [], "on": []} for kind in ("step", "turn", "step cpu", "turn cpu")
    }
    worker = tether.Worker(backend, registry, poll_interval=0.01)
    # The worker's own client: a run it starts runs here at once, not through the queue.
    client = worker.wake_client
    async with worker, host.worker(poll_interval=0.01):
        session = await host.open_session("bench-telemetry", session_id="bench")
        after = -1
        # Warm-ups, telemetry on then off (imports, statements, caches).
        for mode in ("on", "off", "on", "off"):
            getattr(telemetry, mode)()
            await one_workflow(client, steps)
            _, _, after = await one_turn(session, after)
        # Off and on alternate workflow by workflow and turn by turn, so a burst of
        # load from elsewhere on the machine falls on both alike.
        for i in range(rounds):
            for mode in ("off", "on") if i % 2 == 0 else ("on", "off"):
                getattr(telemetry, mode)()
                wall, cpu = await one_workflow(client, steps)
                figures["step"][mode].append(wall)
                figures["step cpu"][mode].append(cpu)
                took, cpu, after = await one_turn(session, after)
                figures["turn"][mode].append(took)
                figures["turn cpu"][mode].append(cpu)
        telemetry.off()
    return {
        kind: {mode: statistics.median(values) for mode, values in by_mode.items()}
        for kind, by_mode in figures.items()
    }


def report(name: str, found: dict[str, dict[str, float]]) -> None:
    print(f"\n{name}")
    print(f"{'':10}{'off':>12}{'on':>12}{'on / off':>10}")
    kinds = (
        ("step", "per step"),
        ("turn", "per turn"),
        ("step cpu", "CPU/step"),
        ("turn cpu", "CPU/turn"),
    )
    for kind, label in kinds:
        off, on = found[kind]["off"], found[kind]["on"]
        print(f"{label:10}{off * 1e6:>10.0f}us{on * 1e6:>10.0f}us{on / off:>9.3f}x")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG, help="PostgreSQL URL")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument("--rounds", type=int, default=60, help="workflows and turns of each mode")
    parser.add_argument("--steps", type=int, default=50, help="steps of each workflow")
    args = parser.parse_args()
    telemetry = Telemetry()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'telemetry.db'}"
            async with tether.open_backend(url) as backend:
                found = await measure(backend, telemetry, args.rounds, args.steps)
            report("SQLite", found)
        if not args.no_pg:
            namespace = f"bench_telemetry_{secrets.token_hex(4)}"
            try:
                async with tether.open_backend(args.pg, namespace=namespace) as backend:
                    found = await measure(backend, telemetry, args.rounds, args.steps)
                report(f"PostgreSQL ({args.pg})", found)
            finally:
                with psycopg.connect(args.pg, autocommit=True) as conn:
                    conn.execute(
                        sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                            sql.Identifier(namespace)
                        )
                    )
    finally:
        telemetry.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
