"""The durable execution engine: workflows, steps, hooks, sleeps, child runs, workers."""

from __future__ import annotations

from ..stores import PRIORITY_LABEL, FlowLimit
from ._ambient import current_backend
from ._client import Client, LiveDeployment
from ._context import ChildRun, Hook, StepInfo, WorkflowContext, step_info
from ._flow import MAX_PRIORITY, priority_labels
from ._fork import RESUMABLE_RUN_STATUSES
from ._forwarder import Forwarder
from ._generations import DEV_MARK, dev_generation, forward_new_runs, is_dev_generation
from ._handle import ChainInfo, RunHandle, RunInfo, StepView
from ._progress import RunProgress, StepProgress, WakeUp
from ._prune import (
    DEFAULT_PRUNE_BATCH,
    PRUNE_INTERVAL,
    Pruned,
    PrunedKind,
    PruneReport,
    RunPruner,
    prune,
)
from ._registry import Registry, WorkflowDef
from ._replay import REPLAY_OUTCOMES, ReplayOutcome, ReplayReport, check_runs, replay_run
from ._retry import DEFAULT_MAX_ATTEMPTS, RetryPolicy, parse_duration
from ._run_reads import HookView, RunInput
from ._schedule_spec import MissedPolicy, Schedule
from ._scheduler import ScheduleInfo, Schedules
from ._seeded import start_seeded
from ._step_limits import LimitWait, step_limit
from ._step_scope import (
    StepStream,
    after_commit,
    checkpoint,
    commit_with_step,
    hook_received,
    step_started,
    step_stream,
    to_thread,
)
from ._streams import RunStream
from ._takeover import TAKEOVER_LEASE, Takeover
from ._worker import Worker

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "DEFAULT_PRUNE_BATCH",
    "DEV_MARK",
    "MAX_PRIORITY",
    "PRIORITY_LABEL",
    "PRUNE_INTERVAL",
    "REPLAY_OUTCOMES",
    "RESUMABLE_RUN_STATUSES",
    "TAKEOVER_LEASE",
    "ChainInfo",
    "ChildRun",
    "Client",
    "FlowLimit",
    "Forwarder",
    "Hook",
    "HookView",
    "LimitWait",
    "LiveDeployment",
    "MissedPolicy",
    "PruneReport",
    "Pruned",
    "PrunedKind",
    "Registry",
    "ReplayOutcome",
    "ReplayReport",
    "RetryPolicy",
    "RunHandle",
    "RunInfo",
    "RunInput",
    "RunProgress",
    "RunPruner",
    "RunStream",
    "Schedule",
    "ScheduleInfo",
    "Schedules",
    "StepInfo",
    "StepProgress",
    "StepStream",
    "StepView",
    "Takeover",
    "WakeUp",
    "Worker",
    "WorkflowContext",
    "WorkflowDef",
    "after_commit",
    "check_runs",
    "checkpoint",
    "commit_with_step",
    "current_backend",
    "dev_generation",
    "forward_new_runs",
    "hook_received",
    "is_dev_generation",
    "parse_duration",
    "priority_labels",
    "prune",
    "replay_run",
    "start_seeded",
    "step_info",
    "step_limit",
    "step_started",
    "step_stream",
    "to_thread",
]
