"""Tools: plain functions a model may call, with argument schemas from their type hints.

A :class:`Tool` wraps a function. Its JSON schema and validation come from a pydantic
model generated from the signature; a parameter annotated :class:`ToolContext` is
injected at call time and is not part of the schema. Workflow tools take the workflow
context as their first parameter and run inside the durable workflow body, so they are
described and validated here but invoked by the turn machinery.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

import orjson
from pydantic_core import PydanticSerializationError, to_jsonable_python

from ...errors import ConfigurationError
from ..models._types import ToolDefinition
from ._approval import ApprovalPolicy, approval
from ._arguments import (
    AnyFn,
    Arguments,
    ObjectArguments,
    build_arguments,
    is_async_callable,
    parse_docstring,
)

if TYPE_CHECKING:
    from .._context._values import State, StateValues
    from ._oauth import OAuthAccess, OAuthProvider, OAuthToken

__all__ = [
    "Tool",
    "ToolContext",
    "check_timeout",
    "format_tool_error",
    "format_tool_result",
    "tool",
    "workflow_tool",
]

_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolContext:
    """What a running tool knows about its call.

    Declare a parameter annotated ``ToolContext`` (in any position) to receive it; it is
    not part of the tool's argument schema.

    Attributes:
        session_id: The session the call belongs to.
        call_id: The model's id of this tool call.
        turn_id: The turn that made the call.
        attempt: The durable step attempt running the call: 1, 2, ...
        state: The session's declared state (`StateValues`): read it, change it
            (``ctx.state[key] = value``); the changes are kept when the tool returns,
            in the same write as its result.
        oauth: What `authorization` gets tokens through (set by the turn for a tool
            that declares OAuth providers; None otherwise).
    """

    session_id: str
    call_id: str
    turn_id: str
    attempt: int
    state: StateValues = field(default_factory=lambda: _empty_values())
    oauth: OAuthAccess | None = field(default=None, repr=False, compare=False)

    async def authorization(self, provider: OAuthProvider | str | None = None) -> OAuthToken:
        """A valid OAuth access token of one of the tool's providers (``@tool(auth=...)``).

        The token comes from the credential store while it is valid; once it expires it
        is refreshed there (once, even when calls race). Without one the call raises
        `AuthorizationRequired` carrying the authorization URL: let it propagate. The
        turn parks on an ``authorization.required`` request; once the user has
        authorized in a browser, the call runs again and gets the token here.

        Args:
            provider: The provider (or its name); None when the tool declares one.

        Raises:
            AuthorizationRequired: No token yet (or the refresh token is no good).
            ConfigurationError: The tool does not declare `provider`, or this call does
                not run in a session turn.
            ToolUnavailableError: The token endpoint cannot be reached for a refresh
                (the turn step is retried).
        """
        if self.oauth is None:
            raise ConfigurationError(
                "ctx.authorization() works in a tool call of a session's turn, for a tool "
                "that declares its providers with @tool(auth=...)"
            )
        return await self.oauth.token(self.oauth.provider(provider))

    @property
    def idempotency_key(self) -> str:
        """``"<session_id>:<call_id>"``: the same on every retry of this call.

        Pass it to external services so a retried call does not repeat its effect.
        """
        return f"{self.session_id}:{self.call_id}"


def _empty_values() -> StateValues:
    from .._context._values import empty_values

    return empty_values()


class Tool:
    """A function a model may call, with its name, description and argument schema.

    Build tools with :func:`tool` or :func:`workflow_tool`; the attributes are read-only.

    Attributes:
        name: The name the model calls the tool by.
        description: What the tool does, for the model.
        parameters: The JSON schema (an object) of the arguments.
        approval: Whether a call must be approved by a human before it runs.
        idempotent: ``False`` means: if a crash interrupts the tool after it started,
            do not run it again (the model is told the outcome is unknown).
        is_workflow: True for workflow tools, whose body runs inside the durable
            workflow and which :meth:`invoke` refuses.
        fn: The wrapped function.
        state: The session state it declares (`State`), which every agent that has
            the tool declares with it.
    """

    __slots__ = (
        "_approval",
        "_arguments",
        "_auth",
        "_description",
        "_fn",
        "_idempotent",
        "_is_async",
        "_is_workflow",
        "_limit",
        "_name",
        "_state",
        "_timeout",
    )

    def __init__(
        self,
        fn: AnyFn,
        /,
        *,
        name: str | None = None,
        description: str | None = None,
        approval: ApprovalPolicy | None = None,
        idempotent: bool = True,
        is_workflow: bool = False,
        timeout: float | None = None,
        state: Sequence[State[Any]] = (),
        auth: OAuthProvider | Sequence[OAuthProvider] = (),
        limit: str | None = None,
    ) -> None:
        if not callable(fn):
            raise ConfigurationError(f"a tool wraps a function, not {fn!r}")
        tool_name = name if name is not None else getattr(fn, "__name__", "")
        if not isinstance(tool_name, str) or not _TOOL_NAME.match(tool_name):
            raise ConfigurationError(
                f"{tool_name!r} is not a valid tool name: use 1 to 64 letters, digits, "
                "'_' or '-' (pass name=... to choose one)"
            )
        if approval is not None and not isinstance(approval, ApprovalPolicy):
            raise ConfigurationError(
                f"tool {tool_name!r}: approval must be an ApprovalPolicy such as "
                f"approval.always(), not {approval!r}"
            )
        summary, arg_docs = parse_docstring(inspect.getdoc(fn))
        arguments = build_arguments(
            fn, tool_name, arg_docs=arg_docs, is_workflow=is_workflow, context_type=ToolContext
        )
        self._fn = fn
        self._name = tool_name
        self._description = description if description is not None else summary
        self._approval = approval if approval is not None else _never()
        self._idempotent = idempotent
        self._is_workflow = is_workflow
        self._is_async = is_async_callable(fn)
        self._arguments: Arguments | ObjectArguments = arguments
        self._timeout = check_timeout(timeout, f"tool {tool_name!r}: timeout")
        from .._context._values import state_keys

        self._state = state_keys(state, f"tool {tool_name!r}")
        from ._oauth import declared_providers

        self._auth = declared_providers(auth, f"tool {tool_name!r}")
        if limit is not None and (not isinstance(limit, str) or not limit):
            raise ConfigurationError(
                f"tool {tool_name!r}: limit is the name of a limit its calls are under "
                f"(declared with Agents(step_limits=[...])), not {limit!r}"
            )
        self._limit = limit

    @property
    def name(self) -> str:
        """The name the model calls the tool by."""
        return self._name

    @property
    def description(self) -> str:
        """What the tool does, for the model."""
        return self._description

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON schema (an object) of the arguments; do not mutate it."""
        return self._arguments.schema

    @property
    def approval(self) -> ApprovalPolicy:
        """The policy deciding whether a call must be approved first."""
        return self._approval

    @property
    def idempotent(self) -> bool:
        """Whether an interrupted call may run again (with the same idempotency key)."""
        return self._idempotent

    @property
    def is_workflow(self) -> bool:
        """True for workflow tools."""
        return self._is_workflow

    @property
    def timeout(self) -> float | None:
        """Seconds a call may run before it fails with a timeout (None: the agent's)."""
        return self._timeout

    @property
    def limit(self) -> str | None:
        """The name of the step-level limit its calls are under (None: none)."""
        return self._limit

    @property
    def state(self) -> tuple[State[Any], ...]:
        """The session state the tool declares."""
        return self._state

    @property
    def auth(self) -> tuple[OAuthProvider, ...]:
        """The OAuth providers the tool gets tokens from (`ToolContext.authorization`)."""
        return self._auth

    @property
    def fn(self) -> AnyFn:
        """The wrapped function."""
        return self._fn

    def __repr__(self) -> str:
        kind = "workflow_tool" if self._is_workflow else "tool"
        return f"<{kind} {self._name!r}>"

    def definition(self) -> ToolDefinition:
        """Return what a model request declares for this tool.

        Returns:
            The name, description and argument schema.
        """
        return ToolDefinition(
            name=self._name, description=self._description, parameters=self._arguments.schema
        )

    def validate(self, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
        """Check a model's arguments against the schema and coerce them.

        Validating arguments this method returned gives them back unchanged.

        Args:
            arguments: The parsed JSON object, or the raw JSON text (empty means none).

        Returns:
            The validated arguments by parameter name, defaults filled in.

        Raises:
            ToolArgumentsError: The text is not a JSON object, or an argument is
                missing, unexpected or of the wrong type. The message is for the model.
        """
        return self._arguments.validate(arguments)

    def requires_approval(self, arguments: Mapping[str, Any]) -> bool:
        """Return whether a call with these arguments must be approved before it runs.

        Args:
            arguments: The call's arguments; they are validated (again) first, so the
                policy always sees validated values.

        Raises:
            ToolArgumentsError: The arguments do not fit the schema.
        """
        return self._approval.requires_approval(self.validate(arguments))

    async def _prepare(self) -> None:
        """Get ready to run, before a call is marked started (a remote tool connects).

        Raises:
            ToolUnavailableError: The tool cannot run now (nothing was started).
        """

    async def invoke(
        self,
        arguments: Mapping[str, Any],
        context: ToolContext,
        *,
        run_sync: Callable[..., Awaitable[Any]] | None = None,
    ) -> Any:
        """Validate the arguments and run the tool.

        Async functions run on the event loop; sync functions run in a worker thread
        (with a copy of the caller's context variables), so they do not block it.

        Args:
            arguments: The call's arguments (validated or not).
            context: The call's context, injected if the function declares one.
            run_sync: Runs a sync function in a thread (default `asyncio.to_thread`;
                a turn passes the engine's tracked step threads).

        Returns:
            Whatever the function returned.

        Raises:
            ToolArgumentsError: The arguments do not fit the schema.
            ConfigurationError: This is a workflow tool; its body runs in the workflow.
        """
        if self._is_workflow:
            raise ConfigurationError(
                f"{self._name!r} is a workflow tool: its body runs inside the durable "
                "workflow, not through Tool.invoke"
            )
        validated = self.validate(arguments)
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for param in self._arguments.params:
            value = context if param.is_context else validated[param.name]
            if param.positional_only:
                args.append(value)
            else:
                kwargs[param.name] = value
        if self._is_async:
            return await self._fn(*args, **kwargs)
        # Both runners copy the caller's contextvars into the worker thread.
        result = await (run_sync or asyncio.to_thread)(self._fn, *args, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result


@overload
def tool(fn: AnyFn, /) -> Tool: ...


@overload
def tool(
    fn: None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    approval: ApprovalPolicy | None = None,
    idempotent: bool = True,
    timeout: float | None = None,
    state: Sequence[State[Any]] = (),
    auth: OAuthProvider | Sequence[OAuthProvider] = (),
    limit: str | None = None,
) -> Callable[[AnyFn], Tool]: ...


def tool(
    fn: AnyFn | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    approval: ApprovalPolicy | None = None,
    idempotent: bool = True,
    timeout: float | None = None,
    state: Sequence[State[Any]] = (),
    auth: OAuthProvider | Sequence[OAuthProvider] = (),
    limit: str | None = None,
) -> Tool | Callable[[AnyFn], Tool]:
    """Make a function a tool; use as ``@tool`` or ``@tool(...)``.

    Every parameter needs a type hint; the argument schema is generated from them with
    pydantic (str, int, float, bool, Optional, Literal, lists, dicts, enums, pydantic
    models, dataclasses...). Parameters with defaults are optional. A parameter
    annotated :class:`ToolContext` receives the call's context and is not an argument.
    Per-argument descriptions come from a Google-style ``Args:`` docstring section.

    Args:
        fn: The function (sync or async).
        name: The tool's name; defaults to the function's name.
        description: What the tool does; defaults to the docstring's first paragraph.
        approval: Whether calls need a human's approval; defaults to ``approval.never()``.
        idempotent: Set ``False`` if running the tool twice would repeat a side effect
            that cannot be deduplicated: a call interrupted by a crash after it started
            is then reported to the model as "outcome unknown" instead of run again.
        timeout: Seconds a call may run; past it the call fails with a timeout error
            the model sees (default: the agent's ``tool_timeout``). A sync function's
            thread cannot be stopped: it is disowned and runs on.
        state: The session state the tool uses (`State` declarations): an agent with
            the tool declares them too, so a library of tools brings its state along.
        auth: The OAuth providers (`OAuthProvider`) the tool gets tokens from with
            ``await ctx.authorization()``.
        limit: The name of a step-level limit every call is under, across every
            worker sharing the store (declared with ``Agents(step_limits=[...])``):
            a call waits for a permit before it runs, and its timeout counts from then.

    Returns:
        The :class:`Tool`, or a decorator making one.

    Raises:
        ConfigurationError: A parameter has no type hint, is ``*args``/``**kwargs`` or
            has a type pydantic cannot describe, or the name is not a valid tool name.
    """

    def make(function: AnyFn) -> Tool:
        return Tool(
            function,
            name=name,
            description=description,
            approval=approval,
            idempotent=idempotent,
            timeout=timeout,
            state=state,
            auth=auth,
            limit=limit,
        )

    return make if fn is None else make(fn)


@overload
def workflow_tool(fn: AnyFn, /) -> Tool: ...


@overload
def workflow_tool(
    fn: None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    approval: ApprovalPolicy | None = None,
    state: Sequence[State[Any]] = (),
) -> Callable[[AnyFn], Tool]: ...


def workflow_tool(
    fn: AnyFn | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    approval: ApprovalPolicy | None = None,
    state: Sequence[State[Any]] = (),
) -> Tool | Callable[[AnyFn], Tool]:
    """Make an async function a workflow tool; use as ``@workflow_tool`` or with options.

    The function's first parameter receives the workflow context (annotate it or not);
    its body may run steps, ask questions and sleep durably, under the engine's
    determinism rules. The other parameters are the tool's arguments, as for
    :func:`tool`.

    Args:
        fn: The async function ``fn(ctx, ...)``.
        name: The tool's name; defaults to the function's name.
        description: What the tool does; defaults to the docstring's first paragraph.
        approval: Whether calls need a human's approval; defaults to ``approval.never()``.
        state: The session state the tool uses (`State` declarations), as for
            :func:`tool`; the body reads and changes it through ``ctx.state``.

    Returns:
        The :class:`Tool` (``is_workflow=True``), or a decorator making one.

    Raises:
        ConfigurationError: As for :func:`tool`; also when the function is not async
            or has no parameter for the workflow context.
    """

    def make(function: AnyFn) -> Tool:
        return Tool(
            function,
            name=name,
            description=description,
            approval=approval,
            idempotent=True,
            is_workflow=True,
            state=state,
        )

    return make if fn is None else make(fn)


def format_tool_result(value: Any) -> str:
    """Render a tool's result as the text the model sees.

    Strings are shown as they are. Values JSON can represent (dicts, lists, numbers,
    pydantic models, dataclasses, datetimes...) become compact JSON; sets are sorted so
    the text is the same in every process. Anything else is shown with ``repr``.

    Args:
        value: What the tool returned.

    Returns:
        The text for the model.
    """
    if isinstance(value, str):
        return value
    try:
        data = to_jsonable_python(_sorted_sets(value))
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except (PydanticSerializationError, orjson.JSONEncodeError, TypeError, ValueError):
        return repr(value)


def format_tool_error(exc: BaseException) -> str:
    """Render an exception a tool raised as the text the model sees.

    Args:
        exc: The exception.

    Returns:
        ``"ToolError: <type>: <message>"`` (without ``": <message>"`` when it is empty).
    """
    message = str(exc)
    kind = type(exc).__name__
    return f"ToolError: {kind}: {message}" if message else f"ToolError: {kind}"


def _never() -> ApprovalPolicy:
    return approval.never()


def check_timeout(value: float | None, what: str) -> float | None:
    """A positive, finite number of seconds, or None.

    Raises:
        ConfigurationError: Anything else (zero, negative, NaN, infinite, not a number).
    """
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (0 < value < float("inf"))
    ):
        raise ConfigurationError(
            f"{what} must be a positive, finite number of seconds, not {value!r}"
        )
    return float(value)


def _sorted_sets(value: Any) -> Any:
    # Set iteration order depends on the hash seed; sort so the text is stable.
    if isinstance(value, set | frozenset):
        items = [_sorted_sets(item) for item in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=repr)
    if isinstance(value, dict):
        return {key: _sorted_sets(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_sorted_sets(item) for item in value]
    return value
