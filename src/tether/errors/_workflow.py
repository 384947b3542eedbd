"""Errors of the engine: workflows, runs, steps, continue-as-new, forks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._base import TetherError

__all__ = [
    "ContinueAsNewError",
    "ContinueAsNewUnavailableError",
    "ForkError",
    "NonDeterminismError",
    "RunCancelledError",
    "RunDormantError",
    "RunFailedError",
    "RunTimeoutError",
    "StepFailedError",
    "StepTimeoutError",
    "StrandedRunError",
    "UnknownWorkflowError",
    "WorkflowError",
]


class WorkflowError(TetherError):
    """A run cannot go on as asked."""


class UnknownWorkflowError(WorkflowError):
    """No workflow of that name is registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(
            f"no workflow named {name!r} is registered; known workflows: {sorted(known)!r}"
        )


class NonDeterminismError(WorkflowError):
    """Replay asked for a different operation at a slot than the journal holds."""

    def __init__(self, run_id: str, slot: int, recorded: str, requested: str) -> None:
        self.run_id = run_id
        self.slot = slot
        self.recorded = recorded
        self.requested = requested
        super().__init__(
            f"run {run_id!r} is not deterministic: slot {slot} holds {recorded!r} in the "
            f"journal but the workflow now asks for {requested!r}; workflow bodies must make "
            "the same calls in the same order on every replay (move clock, random, I/O and "
            "environment reads into steps)"
        )


class StrandedRunError(WorkflowError):
    """No live worker runs the engine and deployment versions that built this run."""

    def __init__(self, run_id: str, engine_version: str, deployment: str) -> None:
        self.run_id = run_id
        self.engine_version = engine_version
        self.deployment = deployment
        super().__init__(
            f"run {run_id!r} was built by tether {engine_version!r}, deployment "
            f"{deployment!r}, and no live worker serves those versions; it is stranded: "
            "start a worker of that deployment to finish it, or cancel it"
        )


class RunDormantError(StrandedRunError):
    """The run belongs to a `tether dev` generation no live worker serves.

    `tether dev` restarted without ``--resume`` leaves the unfinished runs of earlier
    generations dormant: a payload sent to one would wait for no one, so it is refused.
    """

    def __init__(self, run_id: str, engine_version: str, deployment: str) -> None:
        super().__init__(run_id, engine_version, deployment)
        self.args = (
            f"run {run_id!r} belongs to the dev generation {deployment!r}, which no worker "
            "serves: `tether dev` was restarted without --resume, so the run is dormant and "
            "nothing sent to it would be received; restart `tether dev` with --resume to "
            "recover it, or cancel it",
        )


class ForkError(WorkflowError):
    """A run that cannot be forked or resumed as asked; nothing was written.

    Args:
        run_id: The run asked for.
        reason: What is wrong, and how to ask instead.
    """

    def __init__(self, run_id: str, reason: str) -> None:
        self.run_id = run_id
        self.reason = reason
        super().__init__(f"run {run_id!r} cannot be forked so: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (ForkError, (self.run_id, self.reason))


class RunFailedError(WorkflowError):
    """The run failed; ``cause`` is the decoded error.

    ``cause`` is the workflow's exception rebuilt as its own class, or a
    `RecordedError` when that class cannot be rebuilt here; either way
    ``error_type``, ``error_message`` and ``error_traceback`` say what was recorded.
    """

    def __init__(
        self,
        run_id: str,
        message: str,
        cause: BaseException | None = None,
        *,
        error_type: str | None = None,
        error_message: str | None = None,
        error_traceback: str | None = None,
    ) -> None:
        self.run_id = run_id
        self.cause = cause
        self.error_type = error_type
        self.error_message = error_message
        self.error_traceback = error_traceback
        super().__init__(f"run {run_id!r} failed: {message}")


class RunCancelledError(WorkflowError):
    """The run was cancelled."""

    def __init__(self, run_id: str, reason: str | None = None) -> None:
        self.run_id = run_id
        self.reason = reason
        suffix = f": {reason}" if reason else ""
        super().__init__(f"run {run_id!r} was cancelled{suffix}")


class RunTimeoutError(WorkflowError, TimeoutError):
    """Waiting for a run's result took longer than the caller allowed."""

    def __init__(self, run_id: str, timeout: float, status: str) -> None:
        self.run_id = run_id
        self.timeout = timeout
        self.status = status
        super().__init__(
            f"run {run_id!r} did not finish within {timeout} s (status {status!r}); "
            "the run goes on: wait again or cancel it"
        )


class StepTimeoutError(WorkflowError, TimeoutError):
    """An attempt of a step ran longer than its ``timeout``; it counts as a failed attempt.

    An async step is cancelled at the deadline. A sync step's thread cannot be stopped:
    the attempt fails at the deadline all the same, and the thread is left to finish
    on its own, its result discarded.
    """

    def __init__(self, run_id: str, slot: int, step_name: str, attempt: int, timeout: float):
        self.run_id = run_id
        self.slot = slot
        self.step_name = step_name
        self.attempt = attempt
        self.timeout = timeout
        super().__init__(
            f"attempt {attempt} of step {step_name!r} (slot {slot} of run {run_id!r}) "
            f"ran longer than its timeout of {timeout:g} s"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            StepTimeoutError,
            (self.run_id, self.slot, self.step_name, self.attempt, self.timeout),
        )


class StepFailedError(WorkflowError):
    """A step failed for good: it raised FatalError or used its retry budget.

    Whatever the step raised, the workflow gets this error. ``__cause__`` is the step's
    exception rebuilt as its own class, or a `RecordedError` when that class cannot be
    rebuilt (pydantic's ``ValidationError``, a class defined inside a function, ...).

    Attributes:
        error_type: The qualified name of the step's exception class.
        error_message: Its text (a placeholder when ``str()`` of it raised).
        error_traceback: Its traceback as text, when one was recorded.
    """

    def __init__(
        self,
        run_id: str,
        slot: int,
        step_name: str,
        attempts: int,
        message: str,
        *,
        error_type: str | None = None,
        error_message: str | None = None,
        error_traceback: str | None = None,
    ) -> None:
        self.run_id = run_id
        self.slot = slot
        self.step_name = step_name
        self.attempts = attempts
        self.error_type = error_type
        self.error_message = message if error_message is None else error_message
        self.error_traceback = error_traceback
        super().__init__(
            f"step {step_name!r} at slot {slot} of run {run_id!r} failed after "
            f"{attempts} attempt(s): {message}"
        )


class ContinueAsNewError(WorkflowError):
    """`ctx.continue_as_new` cannot happen now; nothing was written and the run goes on.

    Raised inside the workflow body, which may catch it: the run continues as it was.
    """

    def __init__(self, run_id: str, reason: str) -> None:
        self.run_id = run_id
        self.reason = reason
        super().__init__(f"run {run_id!r} cannot continue as new: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (ContinueAsNewError, (self.run_id, self.reason))


class ContinueAsNewUnavailableError(ContinueAsNewError):
    """The backend cannot move a run's hooks to a successor or retain released tokens.

    A backend declares both as capabilities (`Capability.CONTINUE_AS_NEW`,
    `Capability.HOOK_RETENTION`); on one without them a run never moves to a successor
    (sessions stay on their run) and the worker logs ``session handoff unavailable``
    once.
    """

    def __init__(self, run_id: str, backend: str, missing: Sequence[str]) -> None:
        self.backend = backend
        self.missing = tuple(missing)
        ContinueAsNewError.__init__(
            self,
            run_id,
            f"the backend {backend!r} does not declare {', '.join(self.missing)}; a run "
            "moves to a successor only on a backend that moves its hooks and retains "
            "released tokens (memory, SQLite and Postgres do)",
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (ContinueAsNewUnavailableError, (self.run_id, self.backend, self.missing))
