"""`tether runs list`, `show`, `fork` and `resume`."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from ..durable import Client, Registry
from ..errors import ConfigurationError
from ..stores import FORK_SLOT_LABEL, FORKED_FROM_LABEL, Backend, RunStatus
from ._format import printable
from ._terminal import show_table


def _short(value: Any, width: int = 40) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"


async def list_runs(backend: Backend, status: RunStatus | None, limit: int, as_json: bool) -> int:
    """Print runs, newest first."""
    runs = await Client(backend).list_runs(status=status, limit=limit)
    if as_json:
        print(json.dumps([dataclasses.asdict(r) for r in runs], default=str, indent=2))
        return 0
    rows = [
        [
            r.run_id,
            r.workflow_name,
            r.status + (" (stranded)" if r.stranded else ""),
            r.deployment,
            r.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        ]
        for r in runs
    ]
    show_table(["run", "workflow", "status", "deployment", "created"], rows, status="status")
    return 0


async def show_run(backend: Backend, run_id: str, as_json: bool) -> int:
    """Print one run and its decoded journal."""
    handle = await Client(backend).get(run_id)
    info = await handle.info()
    steps = await handle.steps()
    if as_json:
        print(
            json.dumps(
                {"run": dataclasses.asdict(info), "steps": [dataclasses.asdict(s) for s in steps]},
                default=str,
                indent=2,
            )
        )
        return 0
    print(
        printable(
            f"run {info.run_id}  workflow {info.workflow_name}  status {info.status}"
            f"{' (stranded)' if info.stranded else ''}  deployment {info.deployment}  "
            f"tether {info.engine_version}"
        )
    )
    source = info.labels.get(FORKED_FROM_LABEL)
    if source is not None:
        print(printable(f"forked from run {source} at slot {info.labels.get(FORK_SLOT_LABEL)}"))
    waited = await _limit_waits(backend, info.run_id)
    rows = []
    for s in steps:
        took = (
            ""
            if s.completed_at is None
            else f"{(s.completed_at - s.started_at).total_seconds() * 1000:.1f} ms"
        )
        rows.append(
            [
                str(s.slot),
                s.name,
                s.status,
                str(s.attempt),
                took,
                _short(s.input),
                _short(s.output if s.status == "completed" else s.error),
            ]
        )
    headers = ["slot", "step", "status", "attempts", "took", "input", "output / error"]
    if waited:
        # Steps under a step-level limit: the seconds their attempts waited for permits.
        headers.insert(5, "limit wait")
        for s, row in zip(steps, rows, strict=True):
            row.insert(5, f"{waited[s.step_id]:.3f} s" if s.step_id in waited else "")
    show_table(headers, rows, status="status")
    return 0


async def _limit_waits(backend: Backend, run_id: str) -> dict[str, float]:
    """Each step's seconds of waiting for permits, from its attempts' start events."""
    waits: dict[str, float] = {}
    for event in await backend.stores.workflow.list_events(run_id):
        wait = event.attrs.get("limit_wait")
        if isinstance(wait, int | float) and event.correlation_id is not None:
            waits[event.correlation_id] = waits.get(event.correlation_id, 0.0) + float(wait)
    return waits


def _json_input(text: str | None, kind: type, what: str) -> Any:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ConfigurationError(f"{what} is not JSON: {exc}") from None
    if not isinstance(value, kind):
        raise ConfigurationError(f"{what} must be a JSON {'array' if kind is list else 'object'}")
    return value


async def fork_run(backend: Backend, registry: Registry | None, args: argparse.Namespace) -> int:
    """Fork a run (`tether runs fork`) or resume one (`tether runs resume`); print the new run."""
    step: int | str | None = args.from_step
    if isinstance(step, str) and step.isdigit():
        step = int(step)
    options: dict[str, Any] = {
        "new_run_id": args.new_run_id,
        "args": _json_input(args.args, list, "--args"),
        "kwargs": _json_input(args.kwargs, dict, "--kwargs"),
    }
    client = Client(backend, registry=registry)
    if args.runs == "fork":
        assert step is not None  # argparse requires it
        handle = await client.fork(args.run_id, from_step=step, **options)
    else:
        handle = await client.resume(args.run_id, from_step=step, **options)
    info = await handle.info()
    if args.json:
        print(json.dumps(dataclasses.asdict(info), default=str, indent=2))
        return 0
    slot = info.labels.get(FORK_SLOT_LABEL)
    verb = "forked" if args.runs == "fork" else "resumed"
    print(
        printable(
            f"{verb} {args.run_id} from slot {slot} as run {info.run_id}  "
            f"(status {info.status}, deployment {info.deployment})"
        )
    )
    return 0
