"""A new run seeded from another: created with store writes in its own transaction.

The agent layer forks a session this way (`Session.fork`): a session run's journal
cannot be copied (its steps hold the run's own transcript producer and inbox), so the
new session is a fresh run of the session workflow whose transcript, events and ledger
receipts are copies the agent layer computed, written by `WorkflowStore.fork_run` in
the transaction that creates the run. A crash leaves no run and none of the copies, or
the run with all of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._validate import check_identifier, check_labels
from ..stores import RunFork, StoreWrite
from ._handle import RunHandle

if TYPE_CHECKING:
    from ._client import Client

__all__ = ["start_seeded"]


async def start_seeded(
    client: Client,
    workflow: Callable[..., Any] | str,
    *args: Any,
    run_id: str,
    source_run_id: str,
    labels: Mapping[str, str] | None = None,
    writes: Sequence[StoreWrite] = (),
) -> tuple[RunHandle, bool]:
    """Start a run recorded as a fork of `source_run_id` made before its first slot.

    Nothing of the source's journal is copied: the body runs from its start. `writes`
    land in the transaction that creates the run (see `WorkflowStore.fork_run`), and the
    run carries ``tether.forked_from`` (the source) and ``tether.fork_slot`` (``1``).

    Args:
        client: The client whose registry (deployment) the run is for.
        workflow: The workflow (or its name).
        *args: Its arguments after the context.
        run_id: The new run's id.
        source_run_id: The run it is seeded from (only read: it must exist).
        labels: The new run's labels (keys starting ``tether.`` allowed: tether's own).
        writes: Store writes that land with the run, or not at all.

    Returns:
        Its handle, and whether this call created it (False: the same run existed).

    Raises:
        NotFoundError: The source run does not exist (nothing is written).
        ConflictError: `run_id` names another run, or a write was refused (nothing is
            written).
    """
    check_identifier(run_id, what="run_id")
    new = client._new_run(workflow, args, {}, run_id)
    if labels:
        new = dataclasses.replace(new, labels=check_labels(labels, what="labels of the run"))
    store = client.backend.stores.workflow
    run, created = await store.fork_run(
        RunFork(run=new, source_run_id=source_run_id, from_slot=1), writes=writes
    )
    return RunHandle(store, run.run_id), created
