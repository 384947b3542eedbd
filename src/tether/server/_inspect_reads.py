"""What the inspector's routes read: a session across its runs, a run's decoded journal.

Everything here is for an operator: sessions of every tenant, the worker holding a run.
Content the server cannot read is never an error: content retention or erasure deleted
is ``redacted`` with the reason ``deleted``, and content sealed with a key this server
does not hold is ``redacted`` with the reason ``encrypted``. Ids, names, statuses and
timestamps stay readable either way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .._codec import decode
from .._otel import TRACEPARENT_LABEL
from ..agent import AGENT_LABEL, AgentHost, Session
from ..durable import RunInfo
from ..errors import ContentDeletedError, NotFoundError, SerializationError
from ..stores import RunRecord, StepRecord

__all__ = [
    "MAX_CHAIN_RUNS",
    "chain_runs",
    "pending_ages",
    "run_detail",
    "run_json",
    "step_json",
    "trace_of",
]

#: The runs of a chain the session view lists (the newest ones past that).
MAX_CHAIN_RUNS = 200

#: How far back from the tail the ages of pending requests are looked for first.
_AGE_WINDOW = 500


def _time(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def trace_of(labels: Mapping[str, str], template: str | None) -> dict[str, Any] | None:
    """The trace a run's ``tether.traceparent`` label names, with its link (`template`)."""
    parts = labels.get(TRACEPARENT_LABEL, "").split("-")
    if len(parts) != 4 or len(parts[1]) != 32 or len(parts[2]) != 16:
        return None
    trace_id, span_id = parts[1], parts[2]
    url = None
    if template:
        url = template.replace("{trace_id}", trace_id).replace("{span_id}", span_id)
    return {"trace_id": trace_id, "span_id": span_id, "url": url}


def run_json(info: RunInfo, template: str | None = None) -> dict[str, Any]:
    """A run's listing entry (times as Unix seconds, its trace when it has one)."""
    out = {
        f.name: getattr(info, f.name)
        for f in dataclasses.fields(info)
        if f.name not in ("created_at", "updated_at", "completed_at", "labels")
    }
    out["labels"] = dict(info.labels)
    out["created_at"] = _time(info.created_at)
    out["updated_at"] = _time(info.updated_at)
    out["completed_at"] = _time(info.completed_at)
    out["trace"] = trace_of(info.labels, template)
    return out


async def chain_runs(host: AgentHost, chain_id: str) -> list[RunInfo]:
    """The runs of a chain in order: generation 0, then each run it continued as."""
    client = host.client
    found = [await (await client.get(chain_id, follow=False)).info()]
    while found[-1].continued_to is not None:
        try:
            handle = await client.get(found[-1].continued_to, follow=False)
        except NotFoundError:
            break  # the successor is being started: its record is not written yet
        found.append(await handle.info())
        if len(found) > MAX_CHAIN_RUNS:
            del found[0]
    return found


async def pending_ages(session: Session, request_ids: list[str]) -> dict[str, float]:
    """When each pending request was asked (its ``input.requested`` event's time).

    A pending request was asked in the current turn, so the tail holds it nearly always;
    the whole stream is read only when the tail does not.
    """
    asked: dict[str, float] = {}
    if not request_ids:
        return asked
    for start in (-_AGE_WINDOW, 0):
        for event in await session.read_events(start):
            if event.type in ("input.requested", "authorization.required"):
                request = getattr(event.data, "request", None)
                if request is not None and request.request_id in request_ids:
                    asked[request.request_id] = event.meta.at
        if len(asked) == len(request_ids):
            break
    return asked


def _content(data: bytes | None, status: str) -> tuple[Any, str | None]:
    """A stored payload decoded, or None and why it is not shown."""
    if data is None:
        # Written before the step ended: nothing yet. After: retention or erasure took it.
        return None, ("deleted" if status in ("completed", "failed", "cancelled") else None)
    try:
        return _shown(decode(data)), None
    except SerializationError:
        # Sealed with a key this server does not hold, or written by a newer format.
        return None, "encrypted"


def _shown(value: Any) -> Any:
    """A decoded payload as JSON can carry it.

    A failure (decoded to the exception it was) as its class and message (and its
    cause's), sets and tuples as lists.
    """
    if isinstance(value, BaseException):
        kind = type(value)
        out: dict[str, Any] = {"type": f"{kind.__module__}.{kind.__qualname__}"}
        out["message"] = str(value)
        cause = getattr(value, "cause", None)
        if isinstance(cause, BaseException) and cause is not value:
            out["cause"] = _shown(cause)
        return out
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): _shown(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_shown(v) for v in value]
    return value


def step_json(step: StepRecord) -> dict[str, Any]:
    """A journal entry, its input, output and error decoded (`InspectStepOut`)."""
    redacted: dict[str, str] = {}
    out: dict[str, Any] = {
        "slot": step.slot,
        "step_id": step.step_id,
        "name": step.name,
        "status": step.status,
        "attempt": step.attempt,
        "started_at": step.started_at,
        "completed_at": step.completed_at,
        "retry_after": step.retry_after,
    }
    fields = {"input": step.input, "output": step.output, "error": step.error}
    for name, data in fields.items():
        if name == "output" and step.status != "completed":
            data_status = "running"
        elif name == "error" and step.status == "completed":
            data_status = "running"  # a completed step has no error: nothing to say
        else:
            data_status = step.status
        out[name], why = _content(data, data_status)
        if why is not None:
            redacted[name] = why
    out["redacted"] = redacted
    return out


def _run_content(run: RunRecord) -> tuple[dict[str, Any], dict[str, str]]:
    ended = run.status in ("completed", "failed", "cancelled", "continued")
    out: dict[str, Any] = {}
    redacted: dict[str, str] = {}
    wanted = {
        "input": (run.input, "completed"),
        "output": (run.output, "completed" if run.status == "completed" else "running"),
        "error": (run.error, "failed" if run.status == "failed" else "running"),
    }
    for name, (data, status) in wanted.items():
        out[name], why = _content(data, status if ended or name == "input" else "running")
        if why is not None:
            redacted[name] = why
    return out, redacted


async def run_detail(host: AgentHost, run_id: str, template: str | None) -> dict[str, Any]:
    """One run: its record, decoded input and outcome, journal, hooks and progress.

    Raises:
        NotFoundError: No run has this id.
    """
    handle = await host.client.get(run_id, follow=False)
    info = await handle.info()
    store = host.backend.stores.workflow
    run = await store.get_run(run_id)
    if run is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    content, redacted = _run_content(run)
    steps = sorted(await store.list_steps(run_id), key=lambda s: s.slot)
    progress = await host.client.progress(run_id)
    session_id = None
    args = content["input"].get("args", []) if isinstance(content["input"], dict) else []
    # A session's run carries its agent's label; its input names the session.
    if AGENT_LABEL in info.labels and len(args) > 1:
        session_id = str(args[1])
    return {
        "run": run_json(info, template),
        **content,
        "redacted": redacted,
        "session_id": session_id,
        "steps": [step_json(s) for s in steps],
        "hooks": len(await store.list_hooks(run_id)),
        "progress": _jsonable(dataclasses.asdict(progress)),
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime):
        return value.timestamp()
    return value


async def readable(session: Session) -> str | None:
    """None if the session's events can be read, else why not (retention, erasure)."""
    try:
        await session.read_events(-1)
    except ContentDeletedError as exc:
        return str(exc)
    return None
