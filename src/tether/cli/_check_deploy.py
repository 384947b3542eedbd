"""`tether check-deploy`: would the new code take over the runs in flight?"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from ..durable import Registry, ReplayReport, check_runs
from ..stores import Backend
from ._format import printable
from ._terminal import progress, show_table


def _where(report: ReplayReport) -> str:
    if report.outcome == "nondeterministic":
        return f"slot {report.slot}: expected {report.expected!r}, found {report.found!r}"
    if report.error is not None:
        return report.error
    return report.stopped_at


async def check_deploy(
    backend: Backend,
    registry: Registry,
    *,
    deployments: Sequence[str] | None,
    as_json: bool,
    timeout: float,
) -> int:
    """Dry-replay every unfinished run against `registry`; 1 when any would fail."""
    with progress("replaying unfinished runs") as done:
        reports = await check_runs(
            backend,
            registry,
            deployments=None if not deployments else set(deployments),
            timeout=timeout,
            on_progress=done,
        )
    failing = [r for r in reports if not r.ok]
    if as_json:
        print(
            json.dumps(
                {
                    "deployment": registry.deployment,
                    "checked": len(reports),
                    "failing": len(failing),
                    "runs": [
                        {**dataclasses.asdict(r), "ok": r.ok, "unreached": r.unreached}
                        for r in reports
                    ],
                },
                indent=2,
            )
        )
        return 1 if failing else 0
    print(
        printable(
            f"replayed {len(reports)} unfinished run(s) against deployment "
            f"{registry.deployment!r} ({backend.url}): {len(failing)} would fail"
        )
    )
    short = [r for r in reports if r.unreached]
    if short:
        print(
            printable(
                f"{len(short)} run(s) end before their last recorded operation (not a "
                "failure; check they should): "
                + ", ".join(f"{r.run_id} ({r.unreached} not reached)" for r in short[:10])
                + (" ..." if len(short) > 10 else "")
            )
        )
    if failing:
        rows = [[r.run_id, r.workflow_name, r.deployment, r.outcome, _where(r)] for r in failing]
        show_table(["run", "workflow", "built by", "outcome", "where"], rows, status="outcome")
    return 1 if failing else 0
