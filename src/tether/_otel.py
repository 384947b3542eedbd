"""The OpenTelemetry glue every layer shares: the tracer, span ids, trace contexts, meters.

OpenTelemetry is optional (``pip install 'tether[otel]'``). Its API is imported once,
lazily; without it, or with it and no SDK configured (the API's default providers),
`tracer()` is None and `instruments()` empty, and tether records nothing, at the cost
of one call per step.

Span ids are derived from the work's coordinates (`span_id_of`): a run's span from its
id, a step attempt's from (run, slot, attempt), a turn's from its id. Any process can
then name a span another process emits, or emitted days ago, or will emit: a step's
parent, a retried attempt's link to the attempt before it, the span of an attempt cut
short by a SIGKILL (emitted by the attempt after it). tether's spans are emitted once
their work has ended (`emit_span`), with the times it ran; the SDK is made to use the
derived ids by giving tether's own tracer an id generator that takes them.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import importlib
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import MissingExtraError

__all__ = [
    "TRACEPARENT_LABEL",
    "AttemptTrace",
    "Instruments",
    "Tally",
    "add_meter_provider",
    "attempt_span_id",
    "current_attempt",
    "current_traceparent",
    "defer",
    "emit_span",
    "instruments",
    "parse_traceparent",
    "remove_meter_provider",
    "require_metrics",
    "run_span_id",
    "span_context",
    "span_id_of",
    "step_attributes",
    "summary",
    "trace_id_of",
    "traceparent",
    "tracer",
]

#: The run label that carries the W3C ``traceparent`` of whoever started the run (a
#: `Client.start` caller with a current span, or the parent run of a child run).
TRACEPARENT_LABEL = "tether.traceparent"

_SCOPE = "tether"
_SAMPLED = 1

_trace: Any = None
_metrics: Any = None
_context: Any = None
_metrics_globals: Any = None
_loaded = False
#: Whether the API's globals can be read as they are: the public getters cost
#: microseconds, paid on every step; the globals are None until a provider is set.
_direct_trace = _direct_metrics = False


def _load() -> None:
    """Import OpenTelemetry's API, once, at first use (nothing of it when it is missing)."""
    global _trace, _metrics, _context, _metrics_globals, _loaded, _direct_trace, _direct_metrics
    _loaded = True
    try:
        from opentelemetry import context, metrics, trace
        from opentelemetry.metrics import _internal as metrics_globals
    except ImportError:  # pragma: no cover - the extra is installed where tests run
        return
    _trace, _metrics, _context, _metrics_globals = trace, metrics, context, metrics_globals
    # A provider named by the environment is loaded by the getter: then always ask it.
    _direct_trace = hasattr(trace, "_TRACER_PROVIDER") and (
        "OTEL_PYTHON_TRACER_PROVIDER" not in os.environ
    )
    _direct_metrics = hasattr(metrics_globals, "_METER_PROVIDER") and (
        "OTEL_PYTHON_METER_PROVIDER" not in os.environ
    )


def _tracer_provider() -> Any:
    """The global tracer provider; None while none is set."""
    if _direct_trace:
        return _trace._TRACER_PROVIDER
    return _trace.get_tracer_provider()


def _meter_provider() -> Any:
    """The global meter provider; None while none is set."""
    if _direct_metrics:
        return _metrics_globals._METER_PROVIDER
    return _metrics.get_meter_provider()


_FORCED: contextvars.ContextVar[tuple[int, int] | None] = contextvars.ContextVar(
    "tether_otel_forced_ids", default=None
)


def span_id_of(*parts: object) -> int:
    """A span id (64 bits, never 0) derived from `parts`: the same in every process."""
    raw = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(raw, "big") or 1


def trace_id_of(*parts: object) -> int:
    """A trace id (128 bits, never 0) derived from `parts`."""
    raw = hashlib.blake2b("\x1f".join(map(str, parts)).encode(), digest_size=16).digest()
    return int.from_bytes(raw, "big") or 1


def traceparent(trace_id: int, span_id: int) -> str:
    """The W3C ``traceparent`` header value naming a sampled span."""
    return f"00-{trace_id:032x}-{span_id:016x}-01"


def parse_traceparent(value: object) -> tuple[int, int] | None:
    """(trace id, span id) of a W3C ``traceparent`` value; None if it is not one."""
    if not isinstance(value, str) or len(value) != 55:
        return None
    parts = value.split("-")
    if len(parts) != 4 or len(parts[1]) != 32 or len(parts[2]) != 16:
        return None
    try:
        trace_id, span_id = int(parts[1], 16), int(parts[2], 16)
    except ValueError:
        return None
    if not trace_id or not span_id:
        return None
    return trace_id, span_id


class _ForcedIds:
    """An SDK id generator that hands out the ids `emit_span` asks for, else its own."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def generate_span_id(self) -> int:
        forced = _FORCED.get()
        return forced[1] if forced is not None else int(self.inner.generate_span_id())

    def generate_trace_id(self) -> int:
        forced = _FORCED.get()
        return forced[0] if forced is not None else int(self.inner.generate_trace_id())

    def is_trace_id_random(self) -> bool:
        return bool(getattr(self.inner, "is_trace_id_random", lambda: True)())


_last: tuple[Any, Any] = (None, None)


def tracer() -> Any | None:
    """The tracer of tether, from the global tracer provider; None when tracing is off."""
    global _last
    if not _loaded:
        _load()
    if _trace is None:
        return None
    provider = _tracer_provider()
    if provider is None:
        return None
    if provider is _last[0]:
        return _last[1]
    if isinstance(provider, _trace.ProxyTracerProvider | _trace.NoOpTracerProvider):
        return None
    from ._version import ENGINE_VERSION

    made = provider.get_tracer(_SCOPE, ENGINE_VERSION)
    if hasattr(made, "id_generator"):  # the SDK's tracer: it takes the derived ids
        made.id_generator = _ForcedIds(made.id_generator)
    _last = (provider, made)
    return made


def summary(error: BaseException) -> str:
    """``Type: message`` of `error`, for a span's status; never raises (a broken ``__str__``)."""
    try:
        text = str(error)
    except Exception:
        text = "(its message cannot be printed)"
    return f"{type(error).__name__}: {text}"[:1000]


@functools.lru_cache(maxsize=1024)
def span_context(trace_id: int, span_id: int) -> Any:
    """An OpenTelemetry context whose current span is the (remote) span named.

    Kept (contexts are immutable): every step of a run hangs under the same one.
    """
    return _make_context(trace_id, span_id)


def _make_context(trace_id: int, span_id: int) -> Any:
    assert _trace is not None
    parent = _trace.SpanContext(trace_id, span_id, is_remote=True, trace_flags=_sampled())
    return _trace.set_span_in_context(_trace.NonRecordingSpan(parent))


@functools.cache
def _sampled() -> Any:
    assert _trace is not None
    return _trace.TraceFlags(_SAMPLED)


def current_traceparent() -> str | None:
    """The ``traceparent`` of the caller's current span, when tracing is on and one is."""
    if tracer() is None:
        return None
    found = _trace.get_current_span().get_span_context()
    if not found.is_valid:
        return None
    return traceparent(found.trace_id, found.span_id)


def emit_span(
    name: str,
    *,
    trace_id: int,
    span_id: int,
    parent_id: int | None,
    start: float,
    end: float | None = None,
    attributes: Mapping[str, Any] | None = None,
    links: Sequence[tuple[int, int, Mapping[str, Any]]] = (),
    kind: str = "INTERNAL",
    error: str | None = None,
) -> None:
    """Emit one ended span with the given ids and times (Unix seconds).

    Args:
        name: The span's name.
        trace_id: Its trace.
        span_id: Its id (derived from coordinates, see `span_id_of`).
        parent_id: Its parent's span id in the same trace; None for a root span.
        start: When its work began.
        end: When it ended (default: now).
        attributes: Its attributes.
        links: (trace id, span id, attributes) of spans it follows from.
        kind: Its `SpanKind` name.
        error: Its status is an error with this description; None is unset.
    """
    found = tracer()
    if found is None or _trace is None:
        return
    context = span_context(trace_id, parent_id) if parent_id is not None else _context.Context()
    span_links = (
        [
            _trace.Link(
                _trace.SpanContext(t, s, is_remote=True, trace_flags=_sampled()),
                dict(a),
            )
            for t, s, a in links
        ]
        if links
        else ()
    )
    forced = _FORCED.set((trace_id, span_id))
    try:
        span = found.start_span(
            name,
            context=context,
            kind=_kind(kind),
            attributes=attributes,  # the SDK copies them
            links=span_links,
            start_time=int(start * 1e9),
        )
    finally:
        _FORCED.reset(forced)
    if error is not None:
        span.set_status(_trace.Status(_trace.StatusCode.ERROR, error))
    span.end(end_time=int((time.time() if end is None else end) * 1e9))


@functools.cache
def _kind(name: str) -> Any:
    return _trace.SpanKind[name]


_pending: list[Callable[[], None]] = []
_flush_on: asyncio.AbstractEventLoop | None = None


def defer(emit: Callable[[], None]) -> None:
    """Call `emit()` (it emits spans or records metrics) at the event loop's next turn.

    What ended a step is a commit; what comes next is the next commit, handed to the
    store's thread: at the loop's next turn the spans are made while the store writes,
    not before it is handed its next write. Outside a loop, `emit()` runs now.
    """
    global _flush_on
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        emit()
        return
    _pending.append(emit)
    if _flush_on is not loop:
        _flush_on = loop
        loop.call_soon(_flush)


def _flush() -> None:
    global _flush_on
    _flush_on = None
    batch = _pending[:]
    _pending.clear()
    for emit in batch:
        try:
            emit()
        except Exception:  # telemetry never breaks the work it describes
            logging.getLogger("tether").exception("emitting telemetry failed")


# -- step attempts ----------------------------------------------------------------------

_ATTEMPT: contextvars.ContextVar[AttemptTrace | None] = contextvars.ContextVar(
    "tether_attempt_trace", default=None
)


@functools.lru_cache(maxsize=4096)
def run_span_id(run_id: str) -> int:
    """The span id of run `run_id`'s span (kept: every step of the run asks for it)."""
    return span_id_of("run", run_id)


def attempt_span_id(run_id: str, slot: int, attempt: int) -> int:
    """The span id of attempt `attempt` of the step at `slot` of run `run_id`."""
    return span_id_of("step", run_id, slot, attempt)


@dataclass(slots=True, kw_only=True)
class AttemptTrace:
    """One live step attempt, traced: its coordinates, its place in a trace, its times."""

    run_id: str
    workflow: str
    slot: int
    attempt: int
    label: str
    trace_id: int
    parent_id: int
    start: float
    traced: bool
    #: The run's trace and span: where the attempt began, before any `reparent`.
    run_trace_id: int = 0
    #: The start of the attempt before this one, when it was cut short.
    interrupted: float | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    token: object = None
    here: contextvars.Token[AttemptTrace | None] | None = None

    #: This attempt's span id (`attempt_span_id`, derived once).
    span_id: int = 0
    #: The context of this attempt's span, made once (`context`).
    made: Any = None

    def __post_init__(self) -> None:
        if not self.span_id:
            self.span_id = attempt_span_id(self.run_id, self.slot, self.attempt)

    def reparent(self, trace_id: int, parent_id: int, **attributes: Any) -> None:
        """Hang this attempt (and what it emits from now on) under another span."""
        self.trace_id, self.parent_id = trace_id, parent_id
        self.attributes.update(attributes)
        self.made = None
        if self.traced:
            # The body's own spans from now on nest under this attempt in its new trace
            # (the context is the body's task's: it ends with it).
            _context.attach(self.context())

    def context(self) -> Any:
        """An OpenTelemetry context whose current span is this attempt's."""
        # Not `span_context`'s: an attempt's is asked for by its own code only, and
        # would push the runs' (asked for by every step) out of that cache.
        if self.made is None:
            self.made = _make_context(self.trace_id, self.span_id)
        return self.made


def current_attempt() -> AttemptTrace | None:
    """The traced step attempt running here, if any (tracing or metrics on)."""
    return _ATTEMPT.get()


# -- metrics ----------------------------------------------------------------------------


class Tally:
    """Step attempts ended, by (workflow, outcome): counted here, read at each collection.

    ``tether.steps`` is an observable counter over these counts. A step ends many
    times a second; a synchronous counter would have the SDK validate, hash and
    aggregate the same two attributes every time (a third of what the step's span costs),
    where a dict increment does. The meter provider asks for the totals only when its
    reader collects, on the reader's schedule.
    """

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], int] = {}

    def add(self, workflow: str, outcome: str, count: int = 1) -> None:
        """Count `count` attempts of `workflow` that ended with `outcome`."""
        key = (workflow, outcome)
        self.counts[key] = self.counts.get(key, 0) + count

    def observe(self, _options: Any) -> list[Any]:
        """The cumulative counts, as observations (the SDK's callback)."""
        assert _metrics is not None
        # A copy in one C call: the loop's thread may count while a reader collects.
        counts = dict(self.counts)
        return [
            _metrics.Observation(count, step_attributes(workflow, outcome))
            for (workflow, outcome), count in counts.items()
        ]


@functools.lru_cache(maxsize=1024)
def step_attributes(workflow: str, outcome: str) -> dict[str, str]:
    """The attributes of a step's metrics (one dict per pair: the SDK only reads it)."""
    return {"tether.workflow": workflow, "tether.step.outcome": outcome}


@dataclass(frozen=True, slots=True, kw_only=True)
class Instruments:
    """tether's instruments on one meter provider."""

    #: ``tether.steps``: counted here, observed by the provider (see `Tally`).
    steps: Tally
    step_duration: Any
    turns: Any
    turn_duration: Any
    takeovers: Any
    outage_retries: Any
    tokens: Any
    queue_depth: Any
    pruned: Any
    inputs_parked: Any


_extra_providers: list[Any] = []
_instruments: dict[int, tuple[Any, Instruments]] = {}
_instrument_sets: tuple[Instruments, ...] = ()
_seen_global: Any = None


def _make(provider: Any) -> Instruments:
    from ._version import ENGINE_VERSION

    meter = provider.get_meter(_SCOPE, ENGINE_VERSION)
    steps = Tally()
    meter.create_observable_counter(
        "tether.steps",
        callbacks=[steps.observe],
        unit="{step}",
        description="Step attempts ended, by outcome",
    )
    return Instruments(
        steps=steps,
        step_duration=meter.create_histogram(
            "tether.step.duration", unit="s", description="How long a step attempt ran"
        ),
        turns=meter.create_counter(
            "tether.turns", unit="{turn}", description="Agent turns ended, by outcome"
        ),
        turn_duration=meter.create_histogram(
            "tether.turn.duration", unit="s", description="How long an agent turn took"
        ),
        takeovers=meter.create_counter(
            "tether.lease.takeovers",
            unit="{lease}",
            description="Leases of dead workers' runs taken over",
        ),
        outage_retries=meter.create_counter(
            "tether.outage.retries",
            unit="{retry}",
            description="Tries again through a store or tool outage",
        ),
        tokens=meter.create_histogram(
            "gen_ai.client.token.usage",
            unit="{token}",
            description="Tokens a model call used, by model and token type",
        ),
        queue_depth=meter.create_gauge(
            "tether.queue.depth",
            unit="{message}",
            description="Messages a queue holds, by state (ready, delayed, leased)",
        ),
        pruned=meter.create_counter(
            "tether.retention.pruned",
            unit="{deletion}",
            description="Ended runs and sessions whose content the retention sweep deleted",
        ),
        inputs_parked=meter.create_gauge(
            "tether.inputs.parked",
            unit="{request}",
            description="Input requests parked turns wait for, by agent and age",
        ),
    )


def instruments() -> tuple[Instruments, ...]:
    """The instruments to record on: the global meter provider's (if set) and the extras'."""
    global _seen_global
    if not _loaded:
        _load()
    if _metrics is None:
        return ()
    provider = _meter_provider()
    if provider is not _seen_global:
        _seen_global = provider
        _rebuild()
    return _instrument_sets


def _rebuild() -> None:
    global _instrument_sets
    providers = list(_extra_providers)
    name = type(_seen_global).__name__
    if _seen_global is not None and name not in ("_ProxyMeterProvider", "NoOpMeterProvider"):
        providers.insert(0, _seen_global)
    sets = []
    for provider in providers:
        kept = _instruments.get(id(provider))
        if kept is None or kept[0] is not provider:
            kept = (provider, _make(provider))
            _instruments[id(provider)] = kept
        sets.append(kept[1])
    _instrument_sets = tuple(sets)


def add_meter_provider(provider: Any) -> None:
    """Record tether's metrics on `provider` too (a server's Prometheus reader, say)."""
    _extra_providers.append(provider)
    if not _loaded:
        _load()
    if _metrics is not None:
        _seen_global_refresh()


def remove_meter_provider(provider: Any) -> None:
    """Stop recording on `provider` (see `add_meter_provider`)."""
    if provider in _extra_providers:
        _extra_providers.remove(provider)
    _instruments.pop(id(provider), None)
    if _metrics is not None:
        _seen_global_refresh()


def _seen_global_refresh() -> None:
    global _seen_global
    assert _metrics is not None
    _seen_global = _meter_provider()
    _rebuild()


def each(name: str) -> Iterator[Any]:
    """The instrument `name` of every meter provider tether records on."""
    for found in instruments():
        yield getattr(found, name)


def require_metrics() -> None:
    """Raise `MissingExtraError` (the install hint) unless the metrics SDK is installed."""
    for module, package in (
        ("opentelemetry.sdk.metrics", "opentelemetry-sdk"),
        ("opentelemetry.exporter.prometheus", "opentelemetry-exporter-prometheus"),
    ):
        try:
            importlib.import_module(module)
        except ImportError:
            raise MissingExtraError(package, "otel") from None
