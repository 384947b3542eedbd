"""`tether runs list` and `tether runs show`."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ..durable import Client
from ..stores import Backend, RunStatus
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
    show_table(headers, rows, status="status")
    return 0
