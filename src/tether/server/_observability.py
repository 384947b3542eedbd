"""Traces and metrics on the HTTP side: a span per admitting request, ``GET /metrics``.

A request that changes something (any method but GET, HEAD and OPTIONS) gets a server
span, child of the caller's W3C ``traceparent`` header when it sends one; the
messages it admits carry that span to the turns they start, in whatever process
those run. With ``ServerOptions(metrics=True)`` the app keeps a meter provider of
its own with a Prometheus reader, and ``GET /metrics`` (authenticated like every
other route) answers tether's metrics recorded in this process (its worker's, with
``tether serve``) in the Prometheus text format.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import _otel
from ._http import endpoint
from ._problems import ApiProblem

__all__ = ["PrometheusMetrics", "TraceMiddleware", "metrics_routes", "trace_middleware"]

_READS = frozenset({"GET", "HEAD", "OPTIONS"})
# An id after one of these segments is named by the route, not by the span name.
_ID_AFTER = re.compile(r"/(sessions|requests|hooks|attachments)/[^/]+")


def route_name(path: str) -> str:
    """`path` with its ids replaced by placeholders (a span name of bounded cardinality)."""
    return _ID_AFTER.sub(lambda m: f"/{m.group(1)}/{{id}}", path)


class TraceMiddleware:
    """An ASGI middleware: a server span around each request that changes something."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") in _READS:
            await self.app(scope, receive, send)
            return
        tracer = _otel.tracer()
        if tracer is None:
            await self.app(scope, receive, send)
            return
        from opentelemetry import propagate, trace

        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        method = scope["method"]
        path = scope.get("path", "")
        with tracer.start_as_current_span(
            f"{method} {route_name(path)}",
            context=propagate.extract(headers),
            kind=trace.SpanKind.SERVER,
            attributes={"http.request.method": method, "url.path": path},
        ) as span:

            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    status = int(message["status"])
                    span.set_attribute("http.response.status_code", status)
                    if status >= 500:
                        span.set_status(trace.Status(trace.StatusCode.ERROR))
                await send(message)

            await self.app(scope, receive, sending)


class PrometheusMetrics:
    """A meter provider of the app's own, read as Prometheus text by ``GET /metrics``.

    Raises:
        MissingExtraError: OpenTelemetry's SDK or its Prometheus exporter is missing.
    """

    def __init__(self) -> None:
        _otel.require_metrics()
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
        from opentelemetry.sdk.metrics import MeterProvider
        from prometheus_client import CollectorRegistry

        self.registry = CollectorRegistry()
        self.provider = MeterProvider(
            metric_readers=[PrometheusMetricReader(registry=self.registry)]
        )
        _otel.add_meter_provider(self.provider)

    def text(self) -> tuple[bytes, str]:
        """The metrics now, and their content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def close(self) -> None:
        """Stop recording on this app's provider."""
        _otel.remove_meter_provider(self.provider)
        self.provider.shutdown()


def trace_middleware() -> Middleware:
    """The app's `TraceMiddleware` (which does nothing while tracing is off)."""
    return Middleware(TraceMiddleware)


def metrics_routes(
    principal: Callable[[Request], Awaitable[Any]], enabled: bool
) -> tuple[list[Route], Callable[[], None]]:
    """The ``GET /metrics`` route, authenticated, and what ends its recording.

    Called as the app is made: a missing extra fails then, before any route answers.

    Raises:
        MissingExtraError: `enabled`, and OpenTelemetry's SDK or its Prometheus
            exporter is missing.
    """
    prometheus = PrometheusMetrics() if enabled else None

    async def metrics(request: Request) -> Response:
        await principal(request)
        if prometheus is None:
            raise ApiProblem(
                404, "not_found", "metrics are off: serve with ServerOptions(metrics=True)"
            )
        body, content_type = prometheus.text()
        return Response(body, media_type=content_type)

    def close() -> None:
        if prometheus is not None:
            prometheus.close()

    return [Route("/metrics", endpoint(metrics), methods=["GET"])], close
