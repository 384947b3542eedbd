"""tether: durable AI agents in plain async Python.

Workflows, steps, parked hooks, durable sleeps and child runs journaled in SQLite
(embedded) or PostgreSQL, resumed from their last committed boundary after a crash.
"""

from __future__ import annotations

from ._version import ENGINE_VERSION as __version__
from .durable import (
    ChildRun,
    Client,
    Hook,
    Registry,
    RetryPolicy,
    RunHandle,
    RunInfo,
    Schedules,
    StepInfo,
    StepView,
    Worker,
    WorkflowContext,
    step_info,
)
from .errors import (
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    FatalError,
    ForkError,
    HookTokenInUseError,
    InputRequestError,
    NonDeterminismError,
    NotFoundError,
    RetryableError,
    RunCancelledError,
    RunFailedError,
    RunTimeoutError,
    SerializationError,
    SessionClosedError,
    SessionStrandedError,
    StepFailedError,
    StrandedRunError,
    TetherError,
    UnknownWorkflowError,
)
from .stores import Backend, open_backend

__all__ = [
    "Backend",
    "ChildRun",
    "Client",
    "ConfigurationError",
    "ConflictError",
    "ContentDeletedError",
    "FatalError",
    "ForkError",
    "Hook",
    "HookTokenInUseError",
    "InputRequestError",
    "NonDeterminismError",
    "NotFoundError",
    "Registry",
    "RetryPolicy",
    "RetryableError",
    "RunCancelledError",
    "RunFailedError",
    "RunHandle",
    "RunInfo",
    "RunTimeoutError",
    "Schedules",
    "SerializationError",
    "SessionClosedError",
    "SessionStrandedError",
    "StepFailedError",
    "StepInfo",
    "StepView",
    "StrandedRunError",
    "TetherError",
    "UnknownWorkflowError",
    "Worker",
    "WorkflowContext",
    "__version__",
    "open_backend",
    "step_info",
]
