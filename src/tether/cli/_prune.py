"""`tether prune`: one retention sweep now (`tether.durable.prune`), and what it deleted."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from ..agent import SessionPruner
from ..durable import prune
from ..errors import ConfigurationError
from ..stores import Backend, retention_period, retention_seconds
from ._format import printable


async def prune_command(
    backend: Backend,
    *,
    older_than: str | None,
    batch_size: int,
    max_batches: int | None,
    dry_run: bool,
    as_json: bool,
) -> int:
    """Sweep once; print the sessions and runs deleted (or, with `dry_run`, to delete).

    Raises:
        ConfigurationError: A bad option, or no period (the store has none and
            `older_than` is None).
    """
    period = (
        retention_period(backend)
        if older_than is None
        else retention_seconds(older_than, what="--older-than")
    )
    if period is None:
        raise ConfigurationError(
            f"{backend.url} has no retention period: pass --older-than (e.g. 30d) or set "
            "TETHER_RETENTION (e.g. 30d)"
        )
    for value, flag in ((batch_size, "--batch-size"), (max_batches, "--max-batches")):
        if value is not None and value < 1:
            raise ConfigurationError(f"{flag} must be at least 1, not {value}")
    report = await prune(
        backend,
        older_than=period,
        batch_size=batch_size,
        max_batches=max_batches,
        dry_run=dry_run,
        pruner=SessionPruner(),
    )
    before = datetime.fromtimestamp(report.ended_before, UTC)
    if as_json:
        doc = {
            "dry_run": report.dry_run,
            "ended_before": before.isoformat(),
            "sessions": list(report.sessions),
            "runs": list(report.runs),
            "batches": report.batches,
            "complete": report.complete,
        }
        print(json.dumps(doc, indent=2))
        return 0
    verb = "would delete" if dry_run else "deleted"
    sessions, runs = len(report.sessions), len(report.runs)
    print(
        f"{verb} the content of {sessions} session{'' if sessions == 1 else 's'} and "
        f"{runs} run{'' if runs == 1 else 's'} that ended before "
        f"{before:%Y-%m-%d %H:%M:%S} UTC"
    )
    for session_id in report.sessions:
        print(printable(f"  session {session_id}"))
    for run_id in report.runs:
        print(printable(f"  run {run_id}"))
    if not report.complete:
        print(f"stopped after {report.batches} batches: more runs are past the period")
    return 0
