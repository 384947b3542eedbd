"""Every exception tether raises, in one tree.

```
TetherError
├─ ConfigurationError          misuse found when things are defined or opened
│  ├─ MissingExtraError        an optional dependency is not installed
│  ├─ InvalidInputError        a value no backend can store alike (NUL in an id, ...)
│  └─ EncryptionKeyError       the store's encryption key is missing or not the right one
├─ StoreError                  the persistence layer refused an operation or failed
│  ├─ StoreUnavailableError    it could not be reached or could not write now: retried
│  ├─ NotFoundError            the named record does not exist
│  │  └─ ContentDeletedError   the content existed and was deleted by retention
│  ├─ ConflictError            same identity, other content; never an overwrite
│  │  ├─ HookTokenInUseError   an active hook owns that token, or its chain still retains it
│  │  └─ StaleHeadError        the run's log moved on since the writer loaded it
│  ├─ IntegrityError           stored or supplied bytes fail their size/digest check
│  │  └─ DecryptionError       a ciphertext fails to authenticate where it is read
│  ├─ FencedError              a writer with a stale lease epoch or producer was fenced
│  │  └─ NotOwnerError         a submission-owned append without owning the submission
│  ├─ FormatVersionError       the store is stamped with a format this code cannot use
│  ├─ InvalidTransitionError   an event would move an entity out of a terminal state
│  │  └─ StreamPositionError   a stream append expected another index than the stream's next
│  ├─ PayloadTooLargeError     one payload is over a documented cap
│  └─ InvalidOffsetError       a stream offset is malformed or past the stream's head
├─ SerializationError          a value cannot be encoded, or stored bytes cannot be decoded
├─ WorkflowError               a run cannot go on as asked
│  ├─ UnknownWorkflowError     no workflow of that name is registered
│  ├─ NonDeterminismError      replay asked for another step than the journal holds
│  ├─ StrandedRunError         no live worker runs the versions that built the run
│  ├─ ForkError                a run cannot be forked or resumed as asked (fork point, status)
│  ├─ RunFailedError           handle.result() of a run that failed
│  ├─ RunCancelledError        handle.result() of a run that was cancelled
│  ├─ RunTimeoutError          handle.result(timeout=...) ran out first
│  ├─ StepTimeoutError         an attempt of a step ran past its timeout (then retried)
│  ├─ StepFailedError          a step used its retry budget or raised FatalError
│  └─ ContinueAsNewError       ctx.continue_as_new cannot happen now; the run goes on
│     └─ ContinueAsNewUnavailableError   the backend cannot move hooks or retain tokens
└─ AgentError                  the agent layer (models, tools)
   ├─ ModelError              a model provider call failed; ``retryable`` says if a retry may help
   ├─ ToolArgumentsError      a model's tool arguments fail the tool's schema (told to the model)
   ├─ ToolUnavailableError    a tool's service cannot be reached now: the turn step is retried
   ├─ McpToolError            an MCP server refused a tool call (told to the model)
   ├─ OAuthError              an OAuth authorization server refused a code or a refresh
   │  └─ OAuthStateError      an authorization callback's state is unknown, used or expired
   ├─ InputRequestError       an answer to an input request that is not pending, or not allowed
   │  └─ InvalidAnswerError   an answer that does not fit its question (not one of its option ids)
   ├─ SessionClosedError      a send to a session that was closed or failed, or whose run ended
   ├─ SessionStrandedError    a send to a session no live worker can serve (built by other versions)
   ├─ AttachmentError         a file a session cannot store or send (unknown, unsupported, invalid)
   ├─ SessionFormatError      a session written in a checkpoint format this release does not read
   ├─ BudgetError             a budget declared or changed wrongly (bad limits, a raise that lowers)
   ├─ SessionForkError        a session that cannot be forked as asked (its point, or its content)
   ├─ DynamicError            a `Dynamic` declaration that cannot run (event, handler, time limit)
   └─ StateError              a session's declared state (`State`) was misused
      ├─ StateValueError      a value that does not fit its declaration, or is not JSON
      ├─ UnknownStateError    a key the agent does not declare
      └─ StateConflictError   two declarations of one key differ: no session opens or moves
FatalError                     raised by user code: fail now, do not retry
RecordedError                  stands in for an error whose class cannot be rebuilt here
AuthorizationRequired          raised by a tool: park the turn until the user authorizes
RetryableError                 raised by user code: retry, optionally after a delay
```

Errors carry their facts as attributes, and messages quote values with ``!r``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

__all__ = [
    "AgentError",
    "AttachmentError",
    "AuthorizationRequired",
    "BudgetError",
    "ConfigurationError",
    "ConflictError",
    "ContentDeletedError",
    "ContinueAsNewError",
    "ContinueAsNewUnavailableError",
    "DecryptionError",
    "DynamicError",
    "EncryptionKeyError",
    "FatalError",
    "FencedError",
    "FlowLimitError",
    "ForkError",
    "FormatVersionError",
    "HookTokenInUseError",
    "InputRequestError",
    "IntegrityError",
    "InvalidAnswerError",
    "InvalidInputError",
    "InvalidOffsetError",
    "InvalidTransitionError",
    "McpToolError",
    "MigrationPrivilegeError",
    "MissingExtraError",
    "ModelError",
    "NonDeterminismError",
    "NotFoundError",
    "NotOwnerError",
    "OAuthError",
    "OAuthStateError",
    "PayloadTooLargeError",
    "RecordedError",
    "RetryableError",
    "RunCancelledError",
    "RunDormantError",
    "RunFailedError",
    "RunTimeoutError",
    "SerializationError",
    "SessionClosedError",
    "SessionForkError",
    "SessionFormatError",
    "SessionStrandedError",
    "StaleHeadError",
    "StateConflictError",
    "StateError",
    "StateValueError",
    "StepFailedError",
    "StepTimeoutError",
    "StoreError",
    "StoreUnavailableError",
    "StrandedRunError",
    "StreamPositionError",
    "TetherError",
    "ToolArgumentsError",
    "ToolUnavailableError",
    "UnknownStateError",
    "UnknownWorkflowError",
    "WorkflowError",
]


class TetherError(Exception):
    """Root of every error tether raises (user signals excepted)."""


class ConfigurationError(TetherError):
    """Misuse detected when something is defined, opened or started."""


class MissingExtraError(ConfigurationError, ImportError):
    """An optional dependency is missing; the message says which extra installs it."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package!r} is not installed; install it with: pip install 'tether[{extra}]'"
        )


class MigrationPrivilegeError(ConfigurationError):
    """The database user may not create or alter the schema a migration needs.

    Raised when a store is opened with ``migrate=True`` (or by ``tether migrate``) as a
    role without DDL rights, such as the least-privilege runtime role, and the schema is
    not current. Run ``tether migrate`` as the schema owner, then open the store as the
    runtime role (with ``migrate=False``, or ``migrate=True``, which then finds nothing
    to do).

    Args:
        message: What was refused and how to fix it.
        user: The database user that was refused.
        where: The namespace (or keyring schema) being migrated.
    """

    def __init__(self, message: str, *, user: str, where: str) -> None:
        self.user = user
        self.where = where
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_migration_privilege, (str(self), self.user, self.where))


def _rebuild_migration_privilege(message: str, user: str, where: str) -> MigrationPrivilegeError:
    return MigrationPrivilegeError(message, user=user, where=where)


class InvalidInputError(ConfigurationError, ValueError):
    """A value that not every backend can store: refused before anything is written.

    Raised at the public API (a run id, step name, hook token or workflow name with a
    NUL character, say) and by the stores themselves, the same on every backend. It is
    a refusal: trying again with the same value cannot succeed.

    Args:
        what: What the value is (e.g. ``"run_id"``).
        value: The value refused (None when the database refused a value unnamed).
        reason: What is wrong with it.
        hint: How to fix it.
    """

    def __init__(self, what: str, value: Any, reason: str, *, hint: str = "") -> None:
        self.what = what
        self.value = value
        self.reason = reason
        shown = "" if value is None else " " + repr(value)
        if len(shown) > 80:
            shown = shown[:60] + "..." + shown[-16:]
        suffix = f"; {hint}" if hint else ""
        super().__init__(f"{what}{shown} cannot be used: {reason}{suffix}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_invalid_input, (self.what, self.value, self.reason, str(self)))


def _rebuild_invalid_input(what: str, value: Any, reason: str, text: str) -> InvalidInputError:
    error = InvalidInputError.__new__(InvalidInputError)
    error.what, error.value, error.reason = what, value, reason
    error.args = (text,)
    return error


class FlowLimitError(ConfigurationError):
    """A flow-control declaration that cannot hold: a bad limit or priority.

    Raised by `Registry.limit` and `Registry.workflow` (a limit without a bound, a
    bound that is not a positive number, a name declared twice, a priority out of
    range) and when a worker starts with a workflow naming a limit its registry does
    not declare.

    Attributes:
        limit: The limit's name (None for a priority).
    """

    def __init__(self, message: str, *, limit: str | None = None) -> None:
        super().__init__(message)
        self.limit = limit

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_flow_limit, (str(self), self.limit))


def _rebuild_flow_limit(text: str, limit: str | None) -> FlowLimitError:
    return FlowLimitError(text, limit=limit)


class EncryptionKeyError(ConfigurationError):
    """The store is encrypted and the configured key cannot open it (or none is configured).

    Raised when a backend is opened, before anything is read or written (``"rotated"``:
    by a process whose keys a rotation left behind).

    Args:
        message: What is wrong and how to fix it.
        reason: ``"missing"`` (the store is encrypted, no key is configured),
            ``"wrong"`` (the configured keys are not the ones the store's data keys are
            wrapped with), ``"keyring"`` (the store belongs to another keyring) or
            ``"rotated"`` (the keyring takes new data keys wrapped under another
            key-encryption key than this process's current one: a rotation began).
    """

    def __init__(self, message: str, *, reason: str) -> None:
        self.reason = reason
        super().__init__(message)


class StoreError(TetherError):
    """The persistence layer refused an operation or failed.

    Only `StoreUnavailableError` says trying again may help; any other `StoreError` is
    a refusal of what was asked, and asking again gets the same answer.
    """


class StoreUnavailableError(StoreError):
    """The store could not be reached or could not write just now.

    A lost connection, a restarting server, a full disk, a lock held too long: the same
    call may succeed later, and it may also have taken effect before the failure was
    seen.
    """


class NotFoundError(StoreError):
    """The named record does not exist."""


class ContentDeletedError(NotFoundError):
    """The content asked for was deleted by a retention policy; its records remain."""


class ConflictError(StoreError):
    """An identity already exists with other content; stores never overwrite."""


class HookTokenInUseError(ConflictError):
    """An active hook already owns this token, or the chain of its ended run retains it.

    ``retained_until`` is set in the second case: the run that held the token ended,
    and the token stays reserved for that run's chain until then (hook retention).
    """

    def __init__(self, token: str, run_id: str, *, retained_until: float | None = None) -> None:
        self.token = token
        self.run_id = run_id
        self.retained_until = retained_until
        if retained_until is None:
            message = (
                f"hook token {token!r} is already in use by an active hook of run {run_id!r}; "
                "choose another token or let that hook's run end first"
            )
        else:
            message = (
                f"hook token {token!r} was released when run {run_id!r} ended and stays "
                f"reserved for that run's chain until {retained_until!r} (epoch seconds; "
                "hook retention): choose another token, or open the backend with a shorter "
                "hook_retention"
            )
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        rebuild = functools.partial(HookTokenInUseError, retained_until=self.retained_until)
        return (rebuild, (self.token, self.run_id))


class StaleHeadError(ConflictError):
    """The run's event log moved on since the writer loaded it."""

    def __init__(self, run_id: str, expected: int, actual: int) -> None:
        self.run_id = run_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"run {run_id!r}: the writer expected the log head at slot {expected}, "
            f"it is at {actual}"
        )


class IntegrityError(StoreError):
    """Bytes fail their declared size or digest."""


class DecryptionError(IntegrityError):
    """A ciphertext does not authenticate at the place it is read from.

    Every encrypted payload is bound to its place (scope, run or stream, step or offset
    identity, kind); one copied to another row or session, altered, or read with
    another key fails here, never decrypting to a wrong value.

    Args:
        scope: The key scope the ciphertext names.
        place: Where it was read, e.g. ``"step.output run='r1' step='s1'"``.
        reason: Why it failed.
    """

    def __init__(self, scope: str, place: str, reason: str) -> None:
        self.scope = scope
        self.place = place
        self.reason = reason
        super().__init__(
            f"encrypted payload at {place} (key scope {scope!r}) cannot be decrypted: {reason}; "
            "it was moved from another place, altered, or the store was opened with another "
            "keyring"
        )


class FencedError(StoreError):
    """A writer whose lease epoch or producer claim is no longer current was refused."""


class FormatVersionError(StoreError):
    """The store carries a format stamp this version of tether cannot read or write."""


class InvalidTransitionError(StoreError):
    """An event would move an entity out of a terminal state, or is out of order."""


class StreamPositionError(InvalidTransitionError):
    """A stream append would land elsewhere than its `at` (or the stream is closed)."""


class PayloadTooLargeError(StoreError):
    """A single payload is larger than a documented cap."""


class SerializationError(TetherError):
    """A value cannot be encoded, or stored bytes cannot be decoded."""


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


class AgentError(TetherError):
    """The agent layer failed (models, tools, sessions)."""


class ModelError(AgentError):
    """A call to a model provider failed.

    The model layer never retries by itself: it classifies. ``retryable`` is true for
    rate limits, provider overload and 5xx answers, connection failures, timeouts and
    stalled streams; the durable engine spends its step budget on those. It is false
    for errors a retry cannot fix (a bad key, an unknown model, a rejected request).

    Args:
        message: What went wrong and, when a retry cannot help, what to fix.
        provider: The provider that failed, e.g. ``"openai"``.
        status_code: The HTTP status of the answer, if there was one.
        retryable: Whether another attempt may succeed.
        retry_after: Seconds the provider asked to wait before the next attempt.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status_code: int | None = None,
        retryable: bool,
        retry_after: float | None = None,
    ) -> None:
        self.provider = provider
        self.status_code = status_code
        self.retryable = retryable
        self.retry_after = retry_after
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only fields do not survive the default exception pickling.
        rebuild = functools.partial(
            ModelError,
            provider=self.provider,
            status_code=self.status_code,
            retryable=self.retryable,
            retry_after=self.retry_after,
        )
        return (rebuild, (str(self),))


class ToolArgumentsError(AgentError):
    """The arguments a model gave a tool do not fit the tool's schema.

    The message is written for the model: which argument, what was wrong and what the
    schema expects, so the turn can send it back as the tool's result.

    Args:
        tool_name: The tool that was called.
        problems: One line per problem, e.g. ``"amount: missing required argument"``.
    """

    def __init__(self, tool_name: str, problems: Sequence[str]) -> None:
        self.tool_name = tool_name
        self.problems = tuple(problems)
        lines = "\n".join(f"- {problem}" for problem in self.problems)
        super().__init__(
            f"invalid arguments for tool {tool_name!r}:\n{lines}\n"
            "Call the tool again with arguments that match its schema."
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (ToolArgumentsError, (self.tool_name, self.problems))


class McpToolError(AgentError):
    """An MCP server refused a tool call: an ``isError`` result or a JSON-RPC error.

    The model sees it as the tool's error (``ToolError: McpToolError: ...``) and may
    correct its call; the turn goes on.

    Args:
        server: The `McpServer`'s name.
        tool_name: The tool's name on the server.
        message: What the server said.
        code: The JSON-RPC error code, or None for an ``isError`` result.
    """

    def __init__(self, server: str, tool_name: str, message: str, code: int | None = None) -> None:
        self.server = server
        self.tool_name = tool_name
        self.message = message
        self.code = code
        prefix = "" if code is None else f"error {code}: "
        super().__init__(f"{prefix}{message}" if message else f"{prefix}the call failed")

    def __reduce__(self) -> tuple[Any, ...]:
        return (McpToolError, (self.server, self.tool_name, self.message, self.code))


class FatalError(Exception):
    """Raise inside a step to fail it now, without retrying."""


class RetryableError(Exception):
    """Raise inside a step to retry it, optionally not before ``retry_after``.

    Args:
        message: What went wrong.
        retry_after: Seconds (or a timedelta) to wait before the next attempt.

    Raises:
        ConfigurationError: `retry_after` is negative, NaN or infinite.
    """

    def __init__(self, message: str = "", *, retry_after: float | timedelta | None = None) -> None:
        from ._validate import check_duration  # _validate imports this module

        super().__init__(message)
        if isinstance(retry_after, timedelta):
            retry_after = retry_after.total_seconds()
        if retry_after is not None:
            retry_after = check_duration(retry_after, what="RetryableError(retry_after=...)")
        self.retry_after = retry_after


class ToolUnavailableError(AgentError, RetryableError):
    """A tool's service cannot be reached now (an outage): the turn step is retried.

    Raised by a tool (an MCP server that is down, a connection that broke) instead of
    returning an error to the model: the step's attempt fails and runs again under the
    step's retry policy; results of other calls of the reply stay recorded. A
    non-idempotent call that had started is not run again: the model is told its
    outcome is unknown. When the attempts run out, the turn fails with this message.

    Args:
        tool_name: The tool (or the MCP server) that could not be reached.
        reason: What failed.
        retry_after: Seconds to wait before the next attempt (default: the policy's).
    """

    def __init__(self, tool_name: str, reason: str, *, retry_after: float | None = None) -> None:
        self.tool_name = tool_name
        self.reason = reason
        RetryableError.__init__(
            self, f"{tool_name!r} is unavailable: {reason}", retry_after=retry_after
        )

    def __reduce__(self) -> tuple[Any, ...]:
        rebuild = functools.partial(ToolUnavailableError, retry_after=self.retry_after)
        return (rebuild, (self.tool_name, self.reason))


class RecordedError(Exception):
    """An error as it was recorded, standing in for one whose class cannot be rebuilt.

    The journal keeps every error's class name, text and traceback. When the class
    cannot be imported here, or its instances cannot be made without running its
    constructor (pydantic's ``ValidationError``), decoding gives this instead of
    failing, so ``except StepFailedError`` and ``RunFailedError.cause`` still work.

    Args:
        error_type: The qualified name of the original class, e.g.
            ``"pydantic_core._pydantic_core.ValidationError"``.
        error_message: The original error's text.
        error_traceback: The original traceback as text, when one was recorded.
        reason: Why the original class could not be rebuilt.
    """

    def __init__(
        self,
        error_type: str,
        error_message: str,
        error_traceback: str | None = None,
        reason: str = "",
    ) -> None:
        self.error_type = error_type
        self.error_message = error_message
        self.error_traceback = error_traceback
        self.reason = reason
        super().__init__(f"{error_type}: {error_message}")

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.error_type, self.error_message, self.error_traceback, self.reason)
        return (RecordedError, args)


class NotOwnerError(FencedError):
    """A submission-owned conversation append came from a writer not owning the submission."""

    def __init__(self, submission_id: str, attempt_id: str, reason: str) -> None:
        self.submission_id = submission_id
        self.attempt_id = attempt_id
        self.reason = reason
        super().__init__(
            f"attempt {attempt_id!r} may not append records of submission "
            f"{submission_id!r}: {reason}"
        )


class InvalidOffsetError(StoreError):
    """A conversation stream offset is malformed or lies past the stream's head."""

    def __init__(self, path: str, offset: str, reason: str) -> None:
        self.path = path
        self.offset = offset
        self.reason = reason
        super().__init__(f"offset {offset!r} of stream {path!r} is invalid: {reason}")


class OAuthError(AgentError):
    """An OAuth token endpoint refused a request, or could not be reached (``unreachable``).

    `provider`, `error` (the server's error code) and `description` say which and what.
    """

    def __init__(self, provider: str, error: str, description: str = "", text: str = "") -> None:
        self.provider, self.error, self.description = provider, error, description
        said = f": {description}" if description else ""
        super().__init__(text or f"OAuth provider {provider!r} answered {error!r}{said}")


class OAuthStateError(OAuthError):
    """An OAuth callback whose ``state`` is unknown, used or expired; nothing was stored."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        text = f"this authorization cannot be completed: its state is {reason}; start again"
        super().__init__("", "invalid_state", reason, f"{text} from the request's url")


class InputRequestError(AgentError):
    """An answer that cannot be taken; nothing changes.

    The request is unknown, was answered otherwise, was dropped with its cancelled
    turn, or the answer (not one of the options) or the answering principal is not
    allowed.
    """

    def __init__(self, session_id: str, request_id: str, reason: str) -> None:
        self.session_id = session_id
        self.request_id = request_id
        self.reason = reason
        super().__init__(
            f"session {session_id!r} cannot take this answer to input request "
            f"{request_id!r}: {reason}; nothing was changed (list pending requests with "
            "session.pending_requests())"
        )


class InvalidAnswerError(InputRequestError):
    """An answer that does not fit its question; nothing changes.

    A question with options takes one of their ids; one without takes a string. Either
    may be declined with ``{"cancelled": True}``.

    Attributes:
        option_ids: The ids the question allows (empty for free text).
    """

    def __init__(
        self, session_id: str, request_id: str, reason: str, *, option_ids: tuple[str, ...] = ()
    ) -> None:
        self.option_ids = option_ids
        super().__init__(session_id, request_id, reason)


class SessionClosedError(AgentError):
    """The session cannot take messages: it was closed, it failed, or its run ended.

    Nothing was admitted; open a new session (or reset this one) to go on.
    """

    def __init__(self, session_id: str, status: str = "closed") -> None:
        self.session_id = session_id
        self.status = status
        super().__init__(
            f"session {session_id!r} is {status} and takes no more messages; nothing was "
            "admitted (open a new session to go on)"
        )


class BudgetError(AgentError, ValueError):
    """A budget that cannot be declared or changed as asked; nothing changed.

    Limits are numbers of at least 0 (or None for none), ``on_exceeded`` is ``"ask"``
    or ``"fail"``, a cost limit needs the agent's prices, and a raise never lowers a
    limit.

    Attributes:
        scope: The budget's scope key, when the budget has one.
        reason: What is wrong, and how to fix it.
    """

    def __init__(self, reason: str, *, scope: str | None = None) -> None:
        self.scope = scope
        self.reason = reason
        where = f"budget {scope!r}" if scope else "budget"
        super().__init__(f"{where}: {reason}; nothing was changed")


class SessionStrandedError(AgentError):
    """The session was built by a tether version or deployment no live worker serves.

    Its history stays readable; nothing new is admitted. Start a worker of the
    versions it names to go on with it, or open a new session.
    """

    def __init__(self, session_id: str, engine_version: str, deployment: str) -> None:
        self.session_id = session_id
        self.engine_version = engine_version
        self.deployment = deployment
        super().__init__(
            f"session {session_id!r} was built by tether {engine_version!r}, deployment "
            f"{deployment!r}, and no live worker serves those versions: it is stranded and "
            "nothing was admitted (its history stays readable; start a worker of that "
            "deployment, or open a new session)"
        )


class AttachmentError(AgentError):
    """A file or image a session cannot store, or a message cannot carry; nothing changed.

    ``reason`` says why: ``unknown`` (no attachment of that id in this session),
    ``unsupported`` (the agent's model does not take its media type), ``invalid`` (a
    malformed media type, id or filename, or text that is not UTF-8), ``mismatch`` (a
    reference whose digest, size or type differs from what the session stores).
    """

    def __init__(
        self, session_id: str, attachment_id: str | None, reason: str, detail: str
    ) -> None:
        self.session_id = session_id
        self.attachment_id = attachment_id
        self.reason = reason
        self.detail = detail
        what = f"attachment {attachment_id!r}" if attachment_id else "the attachment"
        super().__init__(f"session {session_id!r}: {what} cannot be used: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (AttachmentError, (self.session_id, self.attachment_id, self.reason, self.detail))


class SessionForkError(AgentError):
    """A session that cannot be forked as asked; nothing was written.

    Args:
        session_id: The session asked for.
        reason: What is wrong, and how to ask instead.
    """

    def __init__(self, session_id: str, reason: str) -> None:
        self.session_id = session_id
        self.reason = reason
        super().__init__(f"session {session_id!r} cannot be forked so: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (SessionForkError, (self.session_id, self.reason))


class SessionFormatError(AgentError):
    """A session's checkpoint was written in a format this tether release does not read.

    A release reads every format from its floor (`OLDEST_LINE_FORMAT`) up to its own
    (`LINE_FORMAT`); a newer release wrote this one, or one older than the floor.
    Nothing was changed: serve it with a release that reads that format.
    """

    def __init__(self, found: int, oldest: int, newest: int) -> None:
        self.found = found
        self.oldest = oldest
        self.newest = newest
        newer = found > newest
        super().__init__(
            f"the session's checkpoint has format {found}; this tether release reads formats "
            f"{oldest} to {newest}"
            + (
                " (a newer release wrote it: upgrade tether to serve it)"
                if newer
                else " (it predates this release's floor: serve it with an older release, or "
                "reset it)"
            )
        )


class DynamicError(AgentError, ConfigurationError):
    """A `Dynamic` declaration (instructions computed by a handler) that cannot run.

    Raised where it is declared (`dynamic(...)`, `Dynamic(...)`, `Agent(dynamic=...)`),
    never while a session runs.

    Args:
        name: The handler's name (or what was given instead of a handler).
        detail: What is wrong and how to fix it.
    """

    def __init__(self, name: str, detail: str) -> None:
        self.name = name
        self.detail = detail
        super().__init__(f"dynamic handler {name!r}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (DynamicError, (self.name, self.detail))


class StateError(AgentError):
    """A session's declared state (`tether.agent.State`) was misused."""


class StateValueError(StateError, ValueError):
    """A value that does not fit its `State` declaration, or has no JSON form.

    Nothing was changed: the session's state is as it was before the call.

    Args:
        key: The state key.
        detail: What was wrong with the value.
    """

    def __init__(self, key: str, detail: str) -> None:
        self.key = key
        self.detail = detail
        super().__init__(f"state {key!r} cannot take that value: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (StateValueError, (self.key, self.detail))


class UnknownStateError(StateError, KeyError):
    """A state key the agent does not declare (nor any of its tools).

    Args:
        key: The key asked for.
        declared: The keys the agent declares.
    """

    def __init__(self, key: str, declared: Sequence[str]) -> None:
        self.key = key
        self.declared = tuple(declared)
        super().__init__(
            f"no state {key!r} is declared; declared: {list(self.declared)} (add a "
            "State(...) to the agent's state=[...] or to a tool's)"
        )

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[Any, ...]:
        return (UnknownStateError, (self.key, self.declared))


class StateConflictError(StateError, ConfigurationError):
    """Two declarations of one state key differ (two tool packs both declare it, say).

    No session of that agent opens, and no session moves to a deployment that serves
    it: which declaration owns the stored value cannot be told. Sessions stay where
    they are.

    Args:
        agent_name: The agent.
        key: The key declared twice.
        declarations: The differing declarations, as text.
    """

    def __init__(self, agent_name: str, key: str, declarations: Sequence[str]) -> None:
        self.agent_name = agent_name
        self.key = key
        self.declarations = tuple(declarations)
        super().__init__(
            f"agent {agent_name!r} declares state {key!r} more than once, differently: "
            f"{'; '.join(self.declarations)} (declare it once, or share one State object)"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (StateConflictError, (self.agent_name, self.key, self.declarations))


class AuthorizationRequired(Exception):
    """Raise inside a tool when it needs the user to authorize a connection first.

    The turn emits ``authorization.required`` and parks (no worker held) until the user
    answers the request (``{"authorized": True}``); the tool then runs again.

    Args:
        message: What is needed, for the user.
        provider: The service to connect, e.g. ``"github"``.
        url: Where the user completes the authorization.
    """

    def __init__(self, message: str = "", *, provider: str = "", url: str | None = None) -> None:
        super().__init__(message)
        self.provider = provider
        self.url = url
