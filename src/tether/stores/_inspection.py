"""The operator's reads of a workflow store, and cancelling the runs a filter selects.

`InspectionStore` is one of the roles of `WorkflowStore`: one step of a run by id,
the events of a run that carry one correlation id (a step's, a hook's, a wait's), the
streams of a run and one stream's state, and `cancel_runs`, which cancels every active
run a filter selects. `RunCancels` implements `cancel_runs` once, over `list_runs` and
`request_cancel`, for every backend.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ..errors import InvalidInputError
from ._records import (
    ACTIVE_RUN_STATUSES,
    EventRecord,
    Page,
    RunRecord,
    RunStatus,
    StepRecord,
)

__all__ = ["MAX_CANCEL_RUNS", "InspectionStore", "RunCancels", "StreamInfo"]

#: The most runs one `cancel_runs` call cancels.
MAX_CANCEL_RUNS = 10_000


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamInfo:
    """One named stream of a run: how many chunks were written, and whether it is closed.

    `length` is the index its next chunk gets (chunks purged by retention count: a
    stream goes on at its next index).
    """

    run_id: str
    name: str
    length: int
    closed: bool


class InspectionStore(Protocol):
    """The inspection reads and the bulk cancel of a `WorkflowStore`."""

    async def get_step(self, run_id: str, step_id: str) -> StepRecord | None:
        """The step `step_id` of the run, or None."""
        ...

    async def list_correlated_events(self, run_id: str, correlation_id: str) -> list[EventRecord]:
        """The run's events whose `correlation_id` is `correlation_id`, in slot order.

        A step's, a hook's or a wait's id correlates the events of its life (scheduled,
        started, retried, completed, ...).
        """
        ...

    async def list_streams(self, run_id: str) -> list[StreamInfo]:
        """Every stream of the run that was written or closed, by name."""
        ...

    async def get_stream_info(self, run_id: str, name: str) -> StreamInfo | None:
        """One stream's state, or None when nothing was written to it nor was it closed."""
        ...

    async def cancel_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        labels: Mapping[str, str] | None = None,
        reason: str | None = None,
        limit: int = 1000,
    ) -> list[RunRecord]:
        """Cancel the active runs a filter selects, each as `request_cancel` does.

        Args:
            status: Only runs in this status, an active one (default: every active run).
            workflow_name: Only runs of this workflow.
            labels: Only runs carrying every one of these labels.
            reason: The reason every cancellation records.
            limit: The most runs to cancel (1 to `MAX_CANCEL_RUNS`), newest first.

        Returns:
            The runs cancelled (cancelling, or cancelled), as `request_cancel` returned
            them. Runs are picked as `list_runs` lists them and cancelled one at a time,
            each in its own transaction: a run that ended meanwhile is left as it is.

        Raises:
            InvalidInputError: `status` is not an active status, `limit` is out of
                range, or the labels are invalid.
        """
        ...


class _Lists(Protocol):
    async def list_runs(
        self,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
        labels: Mapping[str, str] | None = None,
    ) -> Page[RunRecord]: ...

    async def request_cancel(self, run_id: str, *, reason: str | None = None) -> RunRecord: ...


class RunCancels:
    """`cancel_runs` over the store's own `list_runs` and `request_cancel` (a mixin)."""

    async def cancel_runs(
        self: _Lists,
        *,
        status: RunStatus | None = None,
        workflow_name: str | None = None,
        labels: Mapping[str, str] | None = None,
        reason: str | None = None,
        limit: int = 1000,
    ) -> list[RunRecord]:
        """Cancel the active runs a filter selects; see `InspectionStore.cancel_runs`."""
        if status is not None and status not in ACTIVE_RUN_STATUSES:
            raise InvalidInputError(
                "status",
                status,
                "only active runs are cancelled",
                hint=f"pass one of {sorted(ACTIVE_RUN_STATUSES)}, or none for every active run",
            )
        if (
            isinstance(limit, bool)
            or not isinstance(limit, int)
            or not 0 < limit <= MAX_CANCEL_RUNS
        ):
            raise InvalidInputError("limit", limit, f"it is not an int from 1 to {MAX_CANCEL_RUNS}")
        cancelled: list[RunRecord] = []
        wanted_statuses: list[RunStatus] = ["pending", "running"] if status is None else [status]
        for wanted in wanted_statuses:
            cursor: str | None = None
            while len(cancelled) < limit:
                # The cursor is the key of the page's last run, so cancelling the runs
                # of a page (which leaves them out of the status) shifts no later page.
                page = await self.list_runs(
                    status=wanted,
                    workflow_name=workflow_name,
                    labels=labels,
                    limit=min(100, limit - len(cancelled)),
                    cursor=cursor,
                )
                for run in page.items:
                    cancelled.append(await self.request_cancel(run.run_id, reason=reason))
                cursor = page.next_cursor
                if cursor is None:
                    break
        return cancelled
