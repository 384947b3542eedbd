"""Errors of the agent layer: models, tools, sessions, input requests, state."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ._base import ConfigurationError, FatalError, RetryableError, TetherError

__all__ = [
    "AgentError",
    "AttachmentError",
    "AuthorizationRequired",
    "BudgetError",
    "DynamicError",
    "InputRequestError",
    "InvalidAnswerError",
    "McpToolError",
    "ModelError",
    "OAuthError",
    "OAuthStateError",
    "SessionClosedError",
    "SessionForkError",
    "SessionFormatError",
    "SessionStrandedError",
    "StateConflictError",
    "StateError",
    "StateValueError",
    "ToolArgumentsError",
    "ToolUnavailableError",
    "TranscriptLostError",
    "UnknownStateError",
]


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


class TranscriptLostError(AgentError, FatalError):
    """Another producer took the session's transcript over: this run cannot go on.

    The session goes on in the run that took it over (a hand-off or a reset); the
    run that raised this one ends without writing to the transcript again.
    """


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
