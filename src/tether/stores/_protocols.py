"""The backend seam: `Backend` opens `Stores`; each store is a protocol.

The engine (`tether.durable`) and the agent layer see only these protocols; SQL lives
in the backend packages. Every backend that ships with tether passes the contract
suites in `tether.testing`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ._agent_protocols import AttachmentStore, ConversationStore, SubmissionStore
from ._budgets import BudgetStore
from ._credentials import CredentialStore
from ._inspection import InspectionStore
from ._roles import RunLog, RunStreams, StepPermits, WorkerRegistry, WorkQueue

if TYPE_CHECKING:
    from ._keyring import DataKeys

__all__ = [
    "Backend",
    "Capability",
    "Stores",
    "WorkflowStore",
]


class Capability(enum.StrEnum):
    """Optional behaviour a backend declares; contract tests of it skip otherwise."""

    #: The conversation store keeps a stream's fold checkpoint (`put_fold_checkpoint`):
    #: a session's producer stores its transcript's fold there, and a cold load of the
    #: transcript starts from it. Without it, a cold load reads every batch.
    FOLD_CHECKPOINTS = "fold_checkpoints"
    FORMAT_STAMP = "format_stamp"
    CROSS_PROCESS = "cross_process"
    DURABLE = "durable"
    #: A lease holder's last commit may start the run's successor in the same
    #: transaction (`Commit.continuation`), moving the run's hooks to it without ever
    #: freeing them (force-claim): continue-as-new.
    CONTINUE_AS_NEW = "continue_as_new"
    #: A token released by its run's end stays reserved for the run's chain for the
    #: backend's retention window; anyone may take it once the window is over.
    HOOK_RETENTION = "hook_retention"


@runtime_checkable
class WorkflowStore(
    RunLog, WorkQueue, StepPermits, WorkerRegistry, RunStreams, InspectionStore, Protocol
):
    """The engine's store: runs and their event log, the queue, permits, workers, streams.

    It declares nothing of its own: it is the intersection of its roles, which a
    backend implements together in one object (see `stores._roles`):

    - `RunLog`: runs, steps, hooks, waits and the append-only event log they are
      views of;
    - `WorkQueue`: activation messages, the claims of their runs, flow control;
    - `StepPermits`: the permits of step-level limits;
    - `WorkerRegistry`: the store's clock and worker liveness;
    - `RunStreams`: a run's named byte streams;
    - `InspectionStore`: the operator's reads (a step by id, correlated events,
      streams) and `cancel_runs`.

    A caller that uses one role may name that role alone; one that needs the whole
    store names `WorkflowStore`.
    """


@dataclass(frozen=True, slots=True, kw_only=True)
class Stores:
    """The stores one backend connection provides.

    `keys` is set when the backend encrypts (see `EncryptedBackend`): the data keys,
    through which content is erased. `credentials` is None on a backend that keeps no
    credentials (tools then cannot keep OAuth tokens).
    """

    workflow: WorkflowStore
    submissions: SubmissionStore
    conversations: ConversationStore
    attachments: AttachmentStore
    budgets: BudgetStore
    keys: DataKeys | None = None
    credentials: CredentialStore | None = None


class Backend(Protocol):
    """A persistence backend: `migrate()`, then `connect()`, and `close()` at the end."""

    @property
    def url(self) -> str:
        """Where the backend keeps its data (secrets redacted)."""
        ...

    @property
    def capabilities(self) -> frozenset[Capability]:
        """The optional behaviours this backend declares."""
        ...

    @property
    def stores(self) -> Stores:
        """The connected stores; raises `ConfigurationError` before `connect()`."""
        ...

    async def migrate(self) -> None:
        """Create or upgrade the schema; stamps a fresh store with the format version.

        Refuses a store stamped with an unknown or newer format before reading or
        writing anything else.
        """
        ...

    async def connect(self) -> Stores:
        """Open connections and return the stores (checking the format stamp first)."""
        ...

    async def close(self) -> None:
        """Release connections and background tasks."""
        ...
