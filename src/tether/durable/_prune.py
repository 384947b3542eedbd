"""The retention sweep: the content of runs that ended longer ago than the retention period.

A backend's retention period (`open_backend(retention=...)`) is how long the content of
an ended run is kept. The sweep asks the store for runs that ended before now minus the
period and whose content is still there (`WorkflowStore.list_prunable_runs`: their whole
chain and their parent ended before that too), a batch at a time, and deletes their
content as retention ``0`` does: inputs, outputs, errors, event payloads and stream
chunks go; ids, statuses, names and timestamps stay. A registry may name what deletes a
run of its workflows (`Registry.pruner`: an agent host's deletes a session whole, its
transcripts and message texts with its runs).

Safe beside running workers: a run is listed only once it and its chain ended, and an
ended run is never written again. Every deletion is idempotent and marks the run last
(a purge marks it in the same write as its own deletion): a sweep killed midway leaves
each run purged or intact, and the next sweep finds what is left. Of sweeps at once each
run's first purge is one sweep's (the store says which), so each run and session is
counted once, in the report and in the ``tether.retention.pruned`` counter.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal, Protocol

from .. import _otel
from ..errors import ConfigurationError, StoreError
from ..stores import Backend, RunRecord, chain_of, retention_period, retention_seconds

__all__ = [
    "DEFAULT_PRUNE_BATCH",
    "PRUNE_INTERVAL",
    "PruneReport",
    "Pruned",
    "PrunedKind",
    "RunPruner",
    "keep_pruning",
    "prune",
]

log = logging.getLogger("tether.worker")

#: Runs one batch of the sweep lists and deletes (`prune(batch_size=...)`).
DEFAULT_PRUNE_BATCH = 100
#: Seconds between two sweeps of a worker while its backend has a retention period.
PRUNE_INTERVAL = 300.0

PrunedKind = Literal["run", "session"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pruned:
    """What a sweep deleted (or, in a dry run, would delete) for one listed run.

    Attributes:
        kind: ``"run"``, or ``"session"`` (every run of its chain, and what it wrote).
        id: The run's id, or the session's id.
        first: Whether this sweep's deletion was the first (a sweep at the same time
            may have done it): only first deletions are counted.
    """

    kind: PrunedKind
    id: str
    first: bool = True


class RunPruner(Protocol):
    """Deletes the content of a listed run of a registry's workflows (`Registry.pruner`).

    Returns what it deleted, or None to leave the run to the sweep (which purges the
    run's own content). A ``"session"`` covers its whole chain: the sweep passes the
    chain's other runs by. With `dry_run` nothing is deleted; it says what would be.
    """

    async def __call__(
        self, backend: Backend, run: RunRecord, *, dry_run: bool
    ) -> Pruned | None: ...


class _Sweeping(Protocol):
    """What a worker's sweep reads of its registry."""

    pruner: RunPruner | None

    def names(self) -> list[str]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class PruneReport:
    """What one sweep deleted (`prune`; `tether prune`).

    Attributes:
        ended_before: Runs that ended before this time (Unix seconds) were swept.
        runs: The ids of the runs whose content was deleted (sessions' runs not
            among them), oldest end first.
        sessions: The ids of the sessions whose content was deleted.
        dry_run: Nothing was deleted: the ids are what would have been.
        batches: The store reads the sweep made.
        complete: Whether the sweep reached the end of the list (False when
            `max_batches` stopped it first).
    """

    ended_before: float
    runs: tuple[str, ...]
    sessions: tuple[str, ...]
    dry_run: bool
    batches: int
    complete: bool


async def prune(
    backend: Backend,
    *,
    older_than: float | timedelta | str | None = None,
    batch_size: int = DEFAULT_PRUNE_BATCH,
    max_batches: int | None = None,
    dry_run: bool = False,
    pruner: RunPruner | None = None,
    workflows: Collection[str] | None = None,
) -> PruneReport:
    """Sweep once: delete the content of runs that ended longer ago than the period.

    Args:
        backend: An open backend.
        older_than: The period (seconds, a timedelta or a string such as ``"30d"``);
            default the backend's retention period.
        batch_size: Runs listed and deleted at a time.
        max_batches: Stop after this many batches (None: until none is left).
        dry_run: Delete nothing; report what would be deleted.
        pruner: Deletes runs of the kinds it knows (an agent host's sessions); None
            purges every run's own content.
        workflows: Sweep only runs of these workflows (None: every run).

    Raises:
        ConfigurationError: No period (the backend has no retention period and
            `older_than` is None), a period that is not a duration > 0, or a
            `batch_size` or `max_batches` that is not an integer of at least 1.
    """
    period = (
        retention_period(backend)
        if older_than is None
        else retention_seconds(older_than, what="older_than")
    )
    if period is None:
        raise ConfigurationError(
            f"{backend.url} has no retention period: open it with "
            "open_backend(url, retention=timedelta(days=30)) (or TETHER_RETENTION=30d), "
            "or say how old an ended run must be (older_than=..., tether prune --older-than 30d)"
        )
    for value, what in ((batch_size, "batch_size"), (max_batches, "max_batches")):
        if what == "max_batches" and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigurationError(f"{what} must be an integer of at least 1, not {value!r}")
    store = backend.stores.workflow
    ended_before = time.time() - period
    runs: list[str] = []
    sessions: list[str] = []
    swept_chains: set[str] = set()
    after: tuple[float, str] | None = None
    batches = 0
    complete = False
    while max_batches is None or batches < max_batches:
        found = await store.list_prunable_runs(ended_before, limit=batch_size, after=after)
        batches += 1
        for run in found:
            if chain_of(run) in swept_chains:
                continue  # its session went whole with an earlier run of its chain
            if workflows is not None and run.workflow_name not in workflows:
                continue
            pruned = None if pruner is None else await pruner(backend, run, dry_run=dry_run)
            if pruned is None:
                first = dry_run or await store.purge_run_content(run.run_id)
                pruned = Pruned(kind="run", id=run.run_id, first=first)
            if pruned.kind == "session":
                swept_chains.add(chain_of(run))
            if pruned.first:
                (sessions if pruned.kind == "session" else runs).append(pruned.id)
                if not dry_run:
                    for counter in _otel.each("pruned"):
                        counter.add(1, {"tether.retention.kind": pruned.kind})
        if len(found) < batch_size:
            complete = True
            break
        last = found[-1]
        # A dry run deletes nothing, and a run passed by stays: go on past the batch.
        after = (last.completed_at or 0.0, last.run_id)
    return PruneReport(
        ended_before=ended_before,
        runs=tuple(runs),
        sessions=tuple(sessions),
        dry_run=dry_run,
        batches=batches,
        complete=complete,
    )


async def keep_pruning(backend: Backend, registry: _Sweeping) -> None:
    """A worker's housekeeping: sweep at start, then every `PRUNE_INTERVAL`, forever.

    Only while the backend has a retention period (read at each sweep), and only runs
    of the registry's workflows, deleted by its `pruner`. Sweeps of several workers at
    once are safe (see the module's notes); a store outage skips a sweep.
    """
    while True:
        if retention_period(backend) is not None:
            try:
                report = await prune(
                    backend, pruner=registry.pruner, workflows=frozenset(registry.names())
                )
            except StoreError as exc:
                log.warning("retention sweep skipped: %s", exc)
            else:
                if report.runs or report.sessions:
                    log.info(
                        "retention sweep deleted the content of %d runs and %d sessions "
                        "that ended before %.0f",
                        len(report.runs),
                        len(report.sessions),
                        report.ended_before,
                    )
        await asyncio.sleep(PRUNE_INTERVAL)
