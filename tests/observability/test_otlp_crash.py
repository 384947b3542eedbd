"""Real OTLP/HTTP from two worker processes, the first SIGKILLed mid-step.

A receiver in the test decodes what the SDK's OTLP exporters post (protobuf, with
`opentelemetry-proto`). The run's spans arrive in one trace, the caller's: the killed
attempt's (emitted by the worker that took the run over), linked from the attempt
that finished; the step the second worker replayed has no second span.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from _telemetry import Telemetry
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Status

import tether

sys.path.insert(0, str(Path(__file__).parent))
import otlp_app

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("otlp_app.py")


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    return None if kind is None else getattr(value, kind)


@dataclass
class Received:
    """A span as it arrived: its fields, its attributes and its process's resource."""

    name: str
    trace_id: int
    span_id: int
    parent_id: int
    links: list[tuple[int, int]]
    attributes: dict[str, Any]
    resource: dict[str, Any]
    error: bool


@dataclass
class Receiver:
    """An OTLP/HTTP receiver on a free loopback port."""

    spans: list[Received] = field(default_factory=list)
    sums: dict[str, list[tuple[dict[str, Any], float]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def took(self, body: bytes, path: str) -> bytes:
        if path == "/v1/traces":
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            with self.lock:
                for batch in request.resource_spans:
                    resource = {a.key: _value(a.value) for a in batch.resource.attributes}
                    for scope in batch.scope_spans:
                        self.spans.extend(_span(s, resource) for s in scope.spans)
            return ExportTraceServiceResponse().SerializeToString()
        request_m = ExportMetricsServiceRequest()
        request_m.ParseFromString(body)
        with self.lock:
            for batch_m in request_m.resource_metrics:
                for scope_m in batch_m.scope_metrics:
                    for metric in scope_m.metrics:
                        if metric.WhichOneof("data") != "sum":
                            continue
                        self.sums[metric.name] = [
                            (
                                {a.key: _value(a.value) for a in p.attributes},
                                p.as_int or p.as_double,
                            )
                            for p in metric.sum.data_points
                        ]
        return ExportMetricsServiceResponse().SerializeToString()

    def named(self, prefix: str) -> list[Received]:
        with self.lock:
            return [s for s in self.spans if s.name.startswith(prefix)]


def _span(span: Any, resource: dict[str, Any]) -> Received:
    return Received(
        name=span.name,
        trace_id=int.from_bytes(span.trace_id, "big"),
        span_id=int.from_bytes(span.span_id, "big"),
        parent_id=int.from_bytes(span.parent_span_id, "big") if span.parent_span_id else 0,
        links=[
            (int.from_bytes(link.trace_id, "big"), int.from_bytes(link.span_id, "big"))
            for link in span.links
        ],
        attributes={a.key: _value(a.value) for a in span.attributes},
        resource=resource,
        error=span.status.code == Status.STATUS_CODE_ERROR,
    )


@pytest.fixture
def receiver() -> Iterator[tuple[Receiver, str]]:
    found = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            answer = found.took(body, self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield found, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


async def until(check: Any, timeout: float = 30) -> None:
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


async def test_the_spans_of_a_killed_attempt_and_its_retry_arrive_linked_in_one_trace(
    tmp_path: Path,
    receiver: tuple[Receiver, str],
    telemetry: Telemetry,
    db: tuple[str, str | None],
) -> None:
    got, endpoint = receiver
    url, namespace = db[0], db[1] or ""
    env = {**os.environ, "PYTHONPATH": str(APP.parent)}
    procs: list[subprocess.Popen[bytes]] = []

    def worker() -> subprocess.Popen[bytes]:
        args = [sys.executable, str(APP), url, namespace, endpoint, str(tmp_path)]
        proc = subprocess.Popen(args, env=env)
        procs.append(proc)
        return proc

    options = {"namespace": namespace} if namespace else {}
    try:
        async with tether.open_backend(url, **options) as backend:
            client = tether.Client(backend, registry=otlp_app.registry)
            with telemetry.tracer.start_as_current_span("caller") as caller:
                handle = await client.start(otlp_app.chain)
            first = worker()
            await until(lambda: (tmp_path / "ready").exists())
            await until(lambda: got.named("step a"))
            first.send_signal(signal.SIGKILL)
            first.wait()
            second = worker()
            assert await handle.result(timeout=60) == ["a", "b", "c"]
            await until(lambda: got.named("run otlp.chain"))
            (tmp_path / "stop").touch()
            assert second.wait(timeout=30) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()

    origin = caller.get_span_context()
    tethers = [s for s in got.spans if s.name.startswith(("run ", "step "))]
    assert {s.trace_id for s in tethers} == {origin.trace_id}
    (run,) = got.named("run otlp.chain")
    assert run.parent_id == origin.span_id
    (a,) = got.named("step a")  # replayed by the second worker: no second span
    assert a.resource["test.pid"] == first.pid
    b1, b2 = sorted(got.named("step b"), key=lambda s: int(s.attributes["tether.step.attempt"]))
    assert b1.attributes["tether.step.attempt"] == 1
    assert b1.attributes["tether.step.outcome"] == "interrupted" and b1.error
    assert b2.attributes["tether.step.attempt"] == 2
    assert b2.attributes["tether.step.outcome"] == "completed" and not b2.error
    assert b2.links == [(origin.trace_id, b1.span_id)]
    assert b1.resource["test.pid"] == b2.resource["test.pid"] == second.pid
    (c,) = got.named("step c")
    assert {a.parent_id, b1.parent_id, b2.parent_id, c.parent_id} == {run.span_id}
    # What the second worker counted, exported through the SDK's OTLP metric exporter.
    steps = {p[0]["tether.step.outcome"]: p[1] for p in got.sums["tether.steps"]}
    assert steps == {"completed": 2, "interrupted": 1}
    assert sum(v for _, v in got.sums.get("tether.lease.takeovers", [])) >= 1
