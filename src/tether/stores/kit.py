"""The seam for backend authors: what a store implementation builds on, in one module.

A backend implements the store protocols (`Backend`, `WorkflowStore`,
`SubmissionStore`, `ConversationStore`, `AttachmentStore`, and optionally
`CredentialStore`) over its own storage. The rules every backend must follow alike are
written once, so that a backend holds its rows and transactions and nothing else.

Most are rules over a rule transaction (`RuleTxn`): synchronous functions whose first
argument is the rows of one store inside one of the backend's transactions, a protocol
the backend implements; a `Runner` runs one rule in one transaction:

- `workflow_rules`: runs, steps, hooks, waits and the queue, over a `ViewTxn` (the
  run and step views, hooks, waits, queue entries and the event log of one store);
- `ledger_rules`: the submission ledger, over a `LedgerTxn`; `LedgerStore` is the
  whole `SubmissionStore` over them, given the backend's runners;
- `conversation_rules`: conversation streams, fenced producers and batches, over a
  `StreamTxn` (the stream rows and batches of one transaction); `ConversationWrites`
  is a `ConversationStore`'s writes over them, given the backend's runner, which the
  backend's store extends with its reads;

and the other rules of the kit:

- `apply_writes`: the writes that ride on a run's commit (`StoreWrite`), in the
  commit's transaction;
- `permit_rules`: step-level limits (`WorkflowStore.acquire_permit`): whether one
  acquisition is granted, from the key's live permits and its token bucket;
- `plan_reserve`, `plan_settle`, `plan_release`: the rules of budgets
  (`BudgetStore`), over the rows one transaction read;
- `RunCancels`: `WorkflowStore.cancel_runs` over the store's own `list_runs` and
  `request_cancel`, a mixin.

The memory backend (`tether.stores.memory`) is built on this module alone and is the
worked example; the how-to "Write a backend" walks through it.
"""

from __future__ import annotations

from .._aio import wait_event, within
from .._ids import new_ulid
from .._validate import check_labels
from . import _conversation_rules as conversation_rules
from . import _flow as flow_rules
from . import _ledger as ledger_rules
from . import _logic as workflow_rules
from . import _permits as permit_rules
from ._agent_records import (
    OFFSET_START,
    AttachmentRef,
    AttemptRef,
    ConversationBatch,
    FoldCheckpoint,
    JsonValue,
    ProducerClaim,
    ReadResult,
    SettledRecord,
    StoredAttachment,
    StreamIdentity,
    StreamMeta,
    Submission,
    SubmissionStatus,
    check_same_attachment,
    clamp_read_limit,
    format_offset,
    parse_offset,
    verify_attachment_bytes,
)
from ._budgets import (
    BudgetGrant,
    BudgetLimits,
    BudgetPlan,
    BudgetRequest,
    BudgetReservation,
    BudgetState,
    BudgetStore,
    CallCounts,
    check_scope,
    plan_release,
    plan_reserve,
    plan_settle,
)
from ._conversation_rules import StreamTxn
from ._conversation_writes import ConversationWrites
from ._credentials import Credential, CredentialStore, check_credential_version
from ._flow import Bucket, FlowCandidate, FlowClaim, FlowLimit, FlowPolicy, HeldRun
from ._inspection import InspectionStore, RunCancels, StreamInfo
from ._ledger import LedgerTxn
from ._ledger_store import LedgerStore
from ._pages import page_of, page_start, rows_from
from ._permits import Permit
from ._protocols import Backend, Capability, Stores
from ._records import (
    ACTIVE_RUN_STATUSES,
    DEFAULT_HOOK_RETENTION,
    TERMINAL_RUN_STATUSES,
    ChainRecord,
    Claim,
    Commit,
    CommitResult,
    EventRecord,
    HookRecord,
    Message,
    NewMessage,
    NewRun,
    Page,
    QueueDepth,
    QueueEntry,
    RunFork,
    RunRecord,
    RunStatus,
    StepRecord,
    StreamChunk,
    WaitRecord,
    WorkerRecord,
    chain_of,
    hook_retention_seconds,
)
from ._retention_period import retention_seconds
from ._rule_txn import RuleTxn, Runner
from ._shared import FORMAT_VERSION, LEGACY_FORMAT_STAMPS
from ._streams import StreamTaps, follow, misplaced, resolve_start
from ._view import ViewTxn
from ._write_rules import apply_writes
from ._writes import AppendRecords, AppendStream, SettleSubmission, StartSubmission, StoreWrite

#: The earlier names of `LedgerTxn` and `StreamTxn`, kept for backends written against them.
LedgerTx = LedgerTxn
StreamTx = StreamTxn

__all__ = [
    "ACTIVE_RUN_STATUSES",
    "DEFAULT_HOOK_RETENTION",
    "FORMAT_VERSION",
    "LEGACY_FORMAT_STAMPS",
    "OFFSET_START",
    "TERMINAL_RUN_STATUSES",
    "AppendRecords",
    "AppendStream",
    "AttachmentRef",
    "AttemptRef",
    "Backend",
    "Bucket",
    "BudgetGrant",
    "BudgetLimits",
    "BudgetPlan",
    "BudgetRequest",
    "BudgetReservation",
    "BudgetState",
    "BudgetStore",
    "CallCounts",
    "Capability",
    "ChainRecord",
    "Claim",
    "Commit",
    "CommitResult",
    "ConversationBatch",
    "ConversationWrites",
    "Credential",
    "CredentialStore",
    "EventRecord",
    "FlowCandidate",
    "FlowClaim",
    "FlowLimit",
    "FlowPolicy",
    "FoldCheckpoint",
    "HeldRun",
    "HookRecord",
    "InspectionStore",
    "JsonValue",
    "LedgerStore",
    "LedgerTx",
    "LedgerTxn",
    "Message",
    "NewMessage",
    "NewRun",
    "Page",
    "Permit",
    "ProducerClaim",
    "QueueDepth",
    "QueueEntry",
    "ReadResult",
    "RuleTxn",
    "RunCancels",
    "RunFork",
    "RunRecord",
    "RunStatus",
    "Runner",
    "SettleSubmission",
    "SettledRecord",
    "StartSubmission",
    "StepRecord",
    "StoreWrite",
    "StoredAttachment",
    "Stores",
    "StreamChunk",
    "StreamIdentity",
    "StreamInfo",
    "StreamMeta",
    "StreamTaps",
    "StreamTx",
    "StreamTxn",
    "Submission",
    "SubmissionStatus",
    "ViewTxn",
    "WaitRecord",
    "WorkerRecord",
    "apply_writes",
    "chain_of",
    "check_credential_version",
    "check_labels",
    "check_same_attachment",
    "check_scope",
    "clamp_read_limit",
    "conversation_rules",
    "flow_rules",
    "follow",
    "format_offset",
    "hook_retention_seconds",
    "ledger_rules",
    "misplaced",
    "new_ulid",
    "page_of",
    "page_start",
    "parse_offset",
    "permit_rules",
    "plan_release",
    "plan_reserve",
    "plan_settle",
    "resolve_start",
    "retention_seconds",
    "rows_from",
    "verify_attachment_bytes",
    "wait_event",
    "within",
    "workflow_rules",
]
