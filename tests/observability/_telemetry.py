"""The SDK's in-memory exporters as this process's global providers (`telemetry`).

OpenTelemetry's API lets a process set its providers once; each test here sets them
and puts the API's globals back afterwards (as OpenTelemetry's own tests do), so that
tests run after these, in the same process, run with telemetry off as before.

In a module of its own, not in ``conftest``: tests import it by a name no other
directory's module has.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from opentelemetry import metrics, trace
from opentelemetry.metrics import _internal as metrics_internal
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.util._once import Once


@dataclass
class Telemetry:
    spans_exporter: InMemorySpanExporter
    reader: InMemoryMetricReader
    tracer: trace.Tracer

    def spans(self, prefix: str = "") -> list[ReadableSpan]:
        return [s for s in self.spans_exporter.get_finished_spans() if s.name.startswith(prefix)]

    async def wait_for(self, prefix: str, count: int = 1) -> list[ReadableSpan]:
        """The spans named `prefix...` once there are `count` of them (10 s at most)."""
        for _ in range(500):
            found = self.spans(prefix)
            if len(found) >= count:
                return found
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {count} spans {prefix!r}: {[s.name for s in self.spans()]}")

    def points(self, name: str) -> list[Any]:
        """The data points of metric `name` (all scopes)."""
        data = self.reader.get_metrics_data()
        found = []
        for resource in data.resource_metrics if data is not None else ():
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        found.extend(metric.data.data_points)
        return found


def _reset() -> None:
    trace._TRACER_PROVIDER_SET_ONCE = Once()
    trace._TRACER_PROVIDER = None
    metrics_internal._METER_PROVIDER_SET_ONCE = Once()
    metrics_internal._METER_PROVIDER = None


@contextmanager
def in_memory_telemetry() -> Iterator[Telemetry]:
    """Set the global providers to in-memory ones; put the API's globals back after."""
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])
    _reset()
    trace.set_tracer_provider(tracer_provider)
    metrics.set_meter_provider(meter_provider)
    try:
        yield Telemetry(exporter, reader, tracer_provider.get_tracer("tests"))
    finally:
        _reset()
        tracer_provider.shutdown()
        meter_provider.shutdown()
