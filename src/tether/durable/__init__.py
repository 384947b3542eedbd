"""The durable execution engine: workflows, steps, hooks, sleeps, child runs, workers."""

from __future__ import annotations

from ._ambient import current_backend
from ._client import Client, LiveDeployment, RunHandle, RunInfo, StepView
from ._context import ChildRun, Hook, StepInfo, WorkflowContext, step_info
from ._registry import Registry, WorkflowDef
from ._retry import DEFAULT_MAX_ATTEMPTS, RetryPolicy, parse_duration
from ._run_reads import HookView, RunInput
from ._step_scope import (
    StepStream,
    checkpoint,
    commit_with_step,
    hook_received,
    step_stream,
    to_thread,
)
from ._streams import RunStream
from ._takeover import TAKEOVER_LEASE, Takeover
from ._worker import Worker

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "TAKEOVER_LEASE",
    "ChildRun",
    "Client",
    "Hook",
    "HookView",
    "LiveDeployment",
    "Registry",
    "RetryPolicy",
    "RunHandle",
    "RunInfo",
    "RunInput",
    "RunStream",
    "StepInfo",
    "StepStream",
    "StepView",
    "Takeover",
    "Worker",
    "WorkflowContext",
    "WorkflowDef",
    "checkpoint",
    "commit_with_step",
    "current_backend",
    "hook_received",
    "parse_duration",
    "step_info",
    "step_stream",
    "to_thread",
]
