"""A worker exporting over OTLP/HTTP: `python otlp_app.py URL NAMESPACE ENDPOINT DIR`.

Spans go out one by one as they end (the SDK's simple processor), metrics every 0.2 s,
to ENDPOINT (``http://127.0.0.1:PORT``). The step ``b`` of ``otlp.chain`` hangs on its
first attempt, after writing ``DIR/ready``, until the process is killed. The worker
stops, flushing its metrics, once ``DIR/stop`` exists.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from opentelemetry import metrics, trace
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor

import tether

registry = tether.Registry(deployment="otlp")
DIR = Path(sys.argv[4]) if len(sys.argv) > 4 else Path()


def step(label: str) -> str:
    if label == "b" and tether.step_info().attempt == 1:
        (DIR / "ready").touch()
        time.sleep(3600)
    return label


@registry.workflow(name="otlp.chain")
async def chain(ctx: tether.WorkflowContext) -> list[str]:
    return [await ctx.step(step, label, name=label) for label in ("a", "b", "c")]


async def main(url: str, namespace: str, endpoint: str) -> None:
    resource = Resource.create({"service.name": "otlp-app", "test.pid": os.getpid()})
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(
        SimpleSpanProcessor(OTLPSpanExporter(endpoint=f"{endpoint}/v1/traces"))
    )
    trace.set_tracer_provider(tracer_provider)
    reader = PeriodicExportingMetricReader(
        OTLPMetricExporter(endpoint=f"{endpoint}/v1/metrics"), export_interval_millis=200
    )
    meter_provider = MeterProvider(resource=resource, metric_readers=[reader])
    metrics.set_meter_provider(meter_provider)
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(url, **options) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.02):
            while not (DIR / "stop").exists():
                await asyncio.sleep(0.05)
    meter_provider.shutdown()
    tracer_provider.shutdown()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
