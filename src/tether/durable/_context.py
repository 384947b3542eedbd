"""What a workflow body sees: `WorkflowContext`, hooks, child handles, step info."""

from __future__ import annotations

import contextvars
import math
import random as _random
import uuid as _uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar, overload

from .._codec import decode, decode_error
from .._validate import check_identifier, check_labels
from ..errors import ConfigurationError, RunCancelledError, RunFailedError
from ._flow import resolve_limit
from ._retry import RetryPolicy, parse_duration

if TYPE_CHECKING:
    from ..stores import FlowLimit, RunRecord

    class _Handoff(Protocol):
        @property
        def available(self) -> bool: ...

    class _Limits(Protocol):
        @property
        def limits(self) -> Mapping[str, FlowLimit]: ...


class _Operations(Protocol):
    """What a context, its hooks and child handles ask of the run's activation.

    `_executor.Activation` is one. They name this, not it, so the executor builds them
    while they know nothing of it: the engine's imports point one way.
    """

    @property
    def run_id(self) -> str: ...

    @property
    def run(self) -> RunRecord: ...

    @property
    def clock(self) -> float: ...

    @property
    def handoff(self) -> _Handoff: ...

    @property
    def registry(self) -> _Limits: ...

    async def run_step(
        self,
        label: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        policy: RetryPolicy,
        timeout: float | None = None,
        read_ahead: bool = False,
        limit: FlowLimit | None = None,
    ) -> Any: ...

    async def sleep(self, duration: float | Any) -> None: ...

    def create_hook(self, token: str | None) -> Hook: ...

    async def hook_payload(self, hook: Hook, index: int) -> Any: ...

    async def hook_beyond(self, hook: Hook, count: int) -> None: ...

    def hook_consumed(self, hook: Hook, count: int) -> None: ...

    async def start_child(
        self,
        workflow: Callable[..., Any] | str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        run_id: str | None,
        labels: Mapping[str, str] | None = None,
    ) -> ChildRun: ...

    async def continue_as_new(
        self,
        workflow: Callable[..., Any] | str | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any: ...

    async def child_outcome(self, child: ChildRun) -> tuple[str, bytes | None]: ...


__all__ = ["ChildRun", "Hook", "StepInfo", "WorkflowContext", "step_info"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class StepInfo:
    """Where the running step sits: all but `attempt` and `lineage` alike in every attempt.

    Attributes:
        run_id: The run.
        step_id: The step's id in the journal.
        slot: The step's position among the run's durable operations.
        name: The step's name (without the version tag).
        attempt: 1 on the first attempt, then 2, 3, ...
        idempotency_key: ``<run id>:<slot>`` — pass it to upstream APIs so a retried
            side effect happens once.
        lineage: An opaque token of the activation running the step, new whenever
            this process may have missed a step another activation ran: the run
            replayed (after a crash, a lost lease, on another worker), or taken up
            again after other activations ran its steps. Two steps of a run with the
            same lineage know that every step between them ran here and committed
            (a step's body does more than read only once its start is committed,
            which fences it): what this process keeps of their writes is whole.
    """

    run_id: str
    step_id: str
    slot: int
    name: str
    attempt: int
    idempotency_key: str
    lineage: str = ""


def _positive_duration(value: float | timedelta | str, what: str) -> float:
    seconds = parse_duration(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigurationError(f"{what} must be a positive, finite duration, not {value!r}")
    return seconds


#: Shared by every step without its own policy (it is frozen): a replay of thousands of
#: steps builds none.
_DEFAULT_RETRY = RetryPolicy()

_STEP: contextvars.ContextVar[StepInfo | None] = contextvars.ContextVar("tether_step", default=None)


def step_info() -> StepInfo:
    """The `StepInfo` of the step running in this context.

    Raises:
        ConfigurationError: Called outside a step.
    """
    info = _STEP.get()
    if info is None:
        raise ConfigurationError("tether.step_info() is only available inside a running step")
    return info


def set_step_info(info: StepInfo | None) -> contextvars.Token[StepInfo | None]:
    """Bind the current step (engine use)."""
    return _STEP.set(info)


def reset_step_info(token: contextvars.Token[StepInfo | None]) -> None:
    """Unbind the step bound by `set_step_info` (engine use)."""
    _STEP.reset(token)


class Hook:
    """A durable hook: await it to get the next payload sent to its token.

    `await hook` parks the run (no worker, no memory) until
    `client.resume_hook(hook.token, payload)`; a hook may receive many payloads, each
    `await` returns the next one in arrival order.
    """

    def __init__(self, activation: _Operations, slot: int, token: str, hook_id: str) -> None:
        self._activation = activation
        self.slot = slot
        self.token = token
        self.hook_id = hook_id
        self._consumed = 0

    def __await__(self) -> Generator[Any, None, Any]:
        return self.receive().__await__()

    async def receive(self) -> Any:
        """Wait for and return the next payload."""
        index = self._consumed
        self._consumed += 1
        return await self._activation.hook_payload(self, index)

    async def __aiter__(self) -> AsyncIterator[Any]:
        while True:
            yield await self.receive()

    async def wait_beyond(self, count: int) -> None:
        """Wait (parked) until the hook has received more than `count` payloads.

        Unlike `receive` it consumes nothing, so it may be raced against other waits
        and cancelled without losing a payload. Take `count` from a step
        (`durable.hook_received`): then every replay waits for the same thing.
        """
        await self._activation.hook_beyond(self, count)

    def consume_through(self, count: int) -> None:
        """Take the hook's first `count` payloads without reading them.

        For a run that counts payloads (`wait_beyond`) instead of receiving them: what
        it has taken is not carried to its successor by `continue_as_new` (only later
        payloads are), and `receive` goes on after them. Take `count` from a step, as
        for `wait_beyond`.
        """
        self._consumed = max(self._consumed, count)
        self._activation.hook_consumed(self, count)


class ChildRun:
    """A child run started by `ctx.start_child`."""

    def __init__(self, activation: _Operations, slot: int, run_id: str) -> None:
        self._activation = activation
        self.slot = slot
        self.run_id = run_id

    async def result(self) -> Any:
        """Wait (parked) for the child to end; return its output or raise its failure.

        Raises:
            RunFailedError: The child failed.
            RunCancelledError: The child was cancelled.
        """
        status, payload = await self._activation.child_outcome(self)
        if status == "completed":
            return decode(payload, what=f"output of child run {self.run_id!r}") if payload else None
        if status == "cancelled":
            raise RunCancelledError(self.run_id)
        facts = decode_error(payload, what=f"error of child run {self.run_id!r}")
        raise RunFailedError(
            self.run_id,
            facts.message,
            facts.error,
            error_type=facts.error_type,
            error_message=facts.message,
            error_traceback=facts.traceback,
        )


class WorkflowContext:
    """The durable operations a workflow body may use.

    The body runs again from the top whenever the run is activated after a park or a
    crash; every operation below returns what the journal recorded instead of running
    again. So the body must be deterministic: do clock, random, I/O and environment
    reads in steps, or through `now()`, `random()` and `uuid()`.
    """

    def __init__(self, activation: _Operations) -> None:
        self._a = activation
        self._seeded: _random.Random | None = None

    def _rng(self) -> _random.Random:
        # Seeded on first use: seeding costs more than a short run's whole replay.
        if self._seeded is None:
            self._seeded = _random.Random(self._a.run_id)
        return self._seeded

    @property
    def run_id(self) -> str:
        """This run's id."""
        return self._a.run_id

    @property
    def chain_id(self) -> str:
        """The id of this run's chain: its first run's id (see `continue_as_new`).

        The same in every run of the chain, so it names things that outlive one run
        (an idempotency scope, a stream, a hook token).
        """
        return self._a.run.chain_id or self._a.run_id

    @property
    def generation(self) -> int:
        """This run's place in its chain: 0 for the first run, n for ``<chain>~n``."""
        return self._a.run.generation

    @property
    def can_continue_as_new(self) -> bool:
        """Whether this run's backend lets it move to a successor (`continue_as_new`).

        False on a backend that does not declare `Capability.CONTINUE_AS_NEW` and
        `Capability.HOOK_RETENTION` (the worker logs ``session handoff unavailable``
        once); check it to keep a run where it is instead of catching the error.
        """
        return self._a.handoff.available

    @overload
    async def step(
        self,
        fn: Callable[..., Awaitable[T]],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float | timedelta | str | None = None,
        read_ahead: bool = False,
        limit: str | None = None,
        **kwargs: Any,
    ) -> T: ...

    @overload
    async def step(
        self,
        fn: Callable[..., T],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float | timedelta | str | None = None,
        read_ahead: bool = False,
        limit: str | None = None,
        **kwargs: Any,
    ) -> T: ...

    async def step(
        self,
        fn: Callable[..., Any],
        *args: Any,
        name: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float | timedelta | str | None = None,
        read_ahead: bool = False,
        limit: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run `fn(*args, **kwargs)` as a durable step and return its (decoded) result.

        A completed step never runs again: on replay its recorded output is returned.
        An interrupted or failed attempt runs again (attempt + 1) within the retry
        budget. Sync callables run in a worker thread. (`name`, `retry`, `timeout`,
        `read_ahead` and `limit` are this method's own: pass a callable's arguments of
        those names through `functools.partial`.)

        Args:
            fn: Any sync or async callable.
            *args: Positional arguments (recorded as the step's input).
            name: The durable step name; defaults to the callable's qualified name.
            retry: The retry policy; defaults to 4 attempts with exponential backoff.
            timeout: How long one attempt may run (seconds, a timedelta or "30s"). An
                attempt past it fails with `StepTimeoutError` and counts as one: an
                async callable is cancelled; a sync one's thread cannot be stopped and
                is left to finish unattended, its result dropped.
            read_ahead: Let an async callable begin while the commit that starts its
                attempt is under way, to read what it needs in the meantime (one round
                trip sooner). Until `tether.durable.step_started()` returns it must do
                nothing but read: it is cancelled if the start is refused (another
                worker took the run). Its stream flushes, checkpoints and `to_thread`
                calls wait for the start by themselves. Ignored for sync callables,
                and when the commit that starts the step (or one still under way)
                carries store writes of the step before it other than appends to the
                run's own streams: the body would read without them. (The run's own
                journal and streams are not for it to read ahead: its start's commit
                may carry events and chunks of theirs, the step before's included.)
            limit: The name of a limit declared with `Registry.limit` that every
                attempt is under, across every worker sharing the store: an attempt
                starts once it holds a permit (a place under ``concurrency``, a token
                under ``per_second``) and gives it back when it ends. Waiting for one
                holds no place and spends no attempt; the wait is recorded with the
                attempt's start (``limit_wait``). A keyed limit counts the run's value
                of its label key apart.
            **kwargs: Keyword arguments (recorded as the step's input).

        Raises:
            StepFailedError: The step raised FatalError or used its retry budget.
            FlowLimitError: `limit` is not a limit the registry declares.
            ConfigurationError: `timeout` is not a positive, finite duration.
            InvalidInputError: The step name is not an identifier every backend stores
                (empty, a NUL character, over 1024 UTF-8 bytes).
        """
        label = name if name is not None else getattr(fn, "__qualname__", None) or repr(fn)
        check_identifier(label, what="step name")
        seconds = None if timeout is None else _positive_duration(timeout, "timeout")
        under = None
        if limit is not None:
            under = resolve_limit(self._a.registry.limits, limit, what=f"step {label!r}")
        return await self._a.run_step(
            label, fn, args, kwargs, retry or _DEFAULT_RETRY, seconds, read_ahead, under
        )

    async def sleep(self, duration: float | timedelta | str) -> None:
        """Sleep durably: the run parks, and a timer in the store wakes it.

        Args:
            duration: Seconds, a timedelta, or a string like "10m" or "4h".
        """
        await self._a.sleep(duration)

    def create_hook(self, *, token: str | None = None) -> Hook:
        """Create a hook; `await` it for payloads sent with `client.resume_hook(token, ...)`.

        Args:
            token: The token senders use; default a random, unguessable one. A token in
                use by an active hook raises `HookTokenInUseError` when awaited.

        Raises:
            InvalidInputError: `token` is not an identifier every backend stores.
        """
        if token is not None:
            check_identifier(token, what="hook token")
        return self._a.create_hook(token)

    async def start_child(
        self,
        workflow: Callable[..., Any] | str,
        *args: Any,
        run_id: str | None = None,
        labels: Mapping[str, str] | None = None,
        **kwargs: Any,
    ) -> ChildRun:
        """Start a child run of another registered workflow of this deployment.

        Args:
            workflow: The registered workflow function or its name.
            *args: Its arguments.
            run_id: The child's id; default ``<this run id>:<slot>``.
            labels: The child's run labels (see `Client.start`); a child does not
                inherit its parent's.
            **kwargs: Its keyword arguments.

        Raises:
            InvalidInputError: `run_id` is not an identifier every backend stores, or a
                label is invalid.
        """
        if run_id is not None:
            check_identifier(run_id, what="run_id")
        checked = check_labels(labels, what="labels of the child run")
        return await self._a.start_child(workflow, args, kwargs, run_id, checked)

    async def continue_as_new(
        self,
        *args: Any,
        workflow: Callable[..., Any] | str | None = None,
        **kwargs: Any,
    ) -> NoReturn:
        """End this run and start its successor with new arguments; never returns.

        One commit ends the run with status ``continued`` and creates its successor:
        the same chain (`chain_id`), generation + 1, run id ``<chain id>~<n>``, input
        ``args``/``kwargs``. Use it to keep a long-lived run's history (and so the
        cost of replaying it) bounded: every N iterations, carry the state forward as
        arguments. Completed steps not yet committed are committed with it.

        Hooks move to the successor in the same transaction, never free: another run
        trying their tokens at any moment is refused. The successor adopts a hook by
        creating one with its token (``ctx.create_hook(token=...)``) and receives, in
        order and exactly once, the payloads this run received and did not take and
        those sent since. The successor answers to this run's parent; a cancel
        requested of this run before the commit ends it cancelled instead; a cancel
        of a continued run cancels its chain's current run. Timers and the journal do
        not carry over. `handle.result()` of any run of the chain waits for the
        chain's last run. (`workflow` is this method's own: a successor parameter of
        that name can only be given positionally.)

        Args:
            *args: The successor's arguments.
            workflow: Another registered workflow of this deployment to continue as
                (its function or name); default this run's workflow.
            **kwargs: The successor's keyword arguments.

        Raises:
            ContinueAsNewUnavailableError: The backend cannot move hooks or retain
                tokens (see `can_continue_as_new`); nothing was written.
            ContinueAsNewError: A step of this run is still running, or a child run
                is unfinished; nothing was written, the run goes on.
            UnknownWorkflowError: `workflow` is not registered in this deployment.
        """
        await self._a.continue_as_new(workflow, args, kwargs)
        raise AssertionError("continue_as_new returned")  # the activation unwinds the body

    def now(self) -> datetime:
        """The time as of the last operation the run consumed; the same on replay."""
        return datetime.fromtimestamp(self._a.clock, tz=UTC)

    def random(self) -> float:
        """A random float in [0, 1), the same sequence on every replay of this run."""
        return self._rng().random()

    def uuid(self) -> _uuid.UUID:
        """A random UUID (version 4), the same sequence on every replay of this run."""
        return _uuid.UUID(int=self._rng().getrandbits(128), version=4)
