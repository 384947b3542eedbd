"""`tether runs step`, `streams` and `cancel`: a step with its events, a run's streams.

`cancel` cancels runs by id, or every active run a filter selects.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from datetime import UTC, datetime

from ..durable import Client
from ..errors import ConfigurationError, NotFoundError
from ..stores import Backend, RunRecord
from ._format import printable
from ._terminal import show_table

__all__ = ["run_op"]


async def run_op(backend: Backend, args: argparse.Namespace) -> int:
    """Run the ``tether runs`` verb `args.runs` (step, streams or cancel)."""
    if args.runs == "step":
        return await _step(backend, args.run_id, args.step_id, args.json)
    if args.runs == "streams":
        return await _streams(backend, args.run_id, args.json)
    return await _cancel(backend, args)


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


async def _step(backend: Backend, run_id: str, step_id: str, as_json: bool) -> int:
    step = await (await Client(backend).get(run_id, follow=False)).step(step_id)
    if step is None:
        raise NotFoundError(f"run {run_id!r} has no step {step_id!r}")
    events = await backend.stores.workflow.list_correlated_events(run_id, step_id)
    if as_json:
        out = {
            "step": dataclasses.asdict(step),
            "events": [
                {**dataclasses.asdict(e), "event_id": e.event_id, "payload": None} for e in events
            ],
        }
        print(json.dumps(out, default=str, indent=2))
        return 0
    print(
        printable(
            f"step {step.step_id}  {step.name}  slot {step.slot}  status {step.status}  "
            f"attempts {step.attempt}"
        )
    )
    print(printable(f"input  {json.dumps(step.input, default=str)}"))
    shown = step.output if step.status == "completed" else step.error
    print(printable(f"{'output' if step.status == 'completed' else 'error '} "
                    f"{json.dumps(shown, default=str)}"))  # fmt: skip
    rows = [
        [str(e.slot), e.event_type, json.dumps(dict(e.attrs), default=str), _when(e.created_at)]
        for e in events
    ]
    show_table(["slot", "event", "attrs", "at"], rows)
    return 0


async def _streams(backend: Backend, run_id: str, as_json: bool) -> int:
    store = backend.stores.workflow
    if await store.get_run(run_id) is None:
        raise NotFoundError(f"run {run_id!r} does not exist")
    found = await store.list_streams(run_id)
    if as_json:
        print(json.dumps([dataclasses.asdict(s) for s in found], indent=2))
        return 0
    show_table(
        ["stream", "chunks", "closed"],
        [[s.name, str(s.length), "closed" if s.closed else ""] for s in found],
    )
    return 0


def _labels(pairs: list[str]) -> dict[str, str]:
    labels: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ConfigurationError(f"--label {pair!r} is not KEY=VALUE")
        labels[key] = value
    return labels


async def _cancel(backend: Backend, args: argparse.Namespace) -> int:
    store = backend.stores.workflow
    filtered = bool(args.status or args.workflow or args.label or args.all)
    if args.run_ids and filtered:
        raise ConfigurationError(
            "name runs or give a filter (--status, --workflow, --label, --all), not both"
        )
    if not args.run_ids and not filtered:
        raise ConfigurationError(
            "name the runs to cancel, or select them: --status, --workflow, --label, or --all "
            "for every active run"
        )
    cancelled: list[RunRecord] = []
    if args.run_ids:
        for run_id in args.run_ids:
            if await store.get_run(run_id) is None:
                raise NotFoundError(f"run {run_id!r} does not exist")
            cancelled.append(await store.request_cancel(run_id, reason=args.reason))
    else:
        cancelled = await store.cancel_runs(
            status=args.status,
            workflow_name=args.workflow,
            labels=_labels(args.label) or None,
            reason=args.reason,
            limit=args.limit,
        )
    if args.json:
        print(
            json.dumps(
                [
                    {"run_id": r.run_id, "workflow_name": r.workflow_name, "status": r.status}
                    for r in cancelled
                ],
                indent=2,
            )
        )
        return 0
    show_table(
        ["run", "workflow", "status"],
        [[r.run_id, r.workflow_name, r.status] for r in cancelled],
        status="status",
    )
    asked = sum(r.status != "cancelled" for r in cancelled)
    print(
        printable(
            f"{len(cancelled) - asked} cancelled"
            + (f", {asked} asked of the worker holding them" if asked else "")
        )
    )
    return 0
