"""What each session event says: one frozen record per event type.

`SessionEvent.data` is one of these; `EVENT_DATA` maps an event type to its record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from ._attachments import Attachment
from ._requests import InputRequest, TaskRef

__all__ = [
    "EVENT_DATA",
    "AuthorizationRequested",
    "DynamicFailed",
    "EventData",
    "InputRequested",
    "InputResolved",
    "MessageCompleted",
    "MessageDelta",
    "SessionClosed",
    "SessionEventType",
    "SessionFailed",
    "SessionMoved",
    "SessionStarted",
    "SessionWaiting",
    "StateChanged",
    "ToolCallRef",
    "ToolCalled",
    "ToolOutcome",
    "ToolReturned",
    "TurnCancelled",
    "TurnCompleted",
    "TurnFailed",
    "TurnStarted",
    "TurnSteered",
    "TurnWaiting",
]

SessionEventType: TypeAlias = Literal[
    "session.started",
    "session.moved",
    "turn.started",
    "dynamic.failed",
    "message.delta",
    "message.completed",
    "tool.call",
    "tool.result",
    "state.changed",
    "input.requested",
    "input.resolved",
    "authorization.required",
    "turn.waiting",
    "turn.steered",
    "turn.completed",
    "turn.failed",
    "turn.cancelled",
    "session.waiting",
    "session.failed",
    "session.closed",
]
"""The type of a session event (the `type` of `SessionEvent`)."""

ToolOutcome: TypeAlias = Literal["ok", "error", "denied", "revoked", "cancelled", "unknown"]
ResolutionOutcome: TypeAlias = Literal["answered", "revoked", "cancelled"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionStarted:
    """``session.started``: the session's run opened its transcript."""

    session_id: str
    agent: str
    owner: str | None = None
    #: After `Session.reset`: the run of the session this one follows (its predecessor).
    predecessor: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionMoved:
    """``session.moved``: the session goes on in a new run (same id, stream, inbox).

    ``reason`` is ``clear`` (a fresh transcript), ``compaction`` (a compacted one) or
    ``deploy`` (the newest deployment took it over while it was idle).
    """

    reason: str
    run_id: str
    deployment: str
    generation: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted:
    """``turn.started``: a message began a turn (with the files it carries, by reference)."""

    submission_id: str
    text: str
    principal: str | None = None
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageDelta:
    """``message.delta``: a fragment of the model's text as it streams."""

    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallRef:
    """A tool call named by a ``message.completed`` event."""

    call_id: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CallUsage:
    """What one model call used, as its provider reported it (`models.Usage`).

    Attributes:
        model: The model that answered (as the provider names it).
        input_tokens: Input tokens in all, cached ones included.
        output_tokens: Output tokens.
        cached_tokens: Of `input_tokens`, those read from the provider's prompt cache.
        details: The provider's own usage fields, flattened (`models.Usage.details`).
        attempt: The attempt of the step that called the provider (None: recorded
            before tether kept it). A reply adopted by a later attempt keeps it, so
            the same call is never counted twice; a call made again by a later
            attempt (the reply never committed) has that attempt's number.
    """

    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    details: Mapping[str, int] = field(default_factory=dict)
    attempt: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenCounts:
    """Tokens summed over model calls (a turn's, a session's, a model's).

    Attributes:
        calls: Model calls counted.
        input_tokens: Their input tokens, cached ones included.
        output_tokens: Their output tokens.
        cached_tokens: Of `input_tokens`, those read from a prompt cache.
    """

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0

    def plus(self, usage: CallUsage) -> TokenCounts:
        """These counts with one more call's."""
        return TokenCounts(
            calls=self.calls + 1,
            input_tokens=self.input_tokens + usage.input_tokens,
            output_tokens=self.output_tokens + usage.output_tokens,
            cached_tokens=self.cached_tokens + usage.cached_tokens,
        )

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, slots=True, kw_only=True)
class MessageCompleted:
    """``message.completed``: the model's whole reply (on record in the transcript).

    It lands with the commit that records the reply, or before it when the step's
    stream writes its buffered events live (while a long tool runs): an attempt cut
    short after that leaves it in the stream, and the step's next attempt, which calls
    the model again, emits its own at the same coordinates with a later
    ``usage.attempt``. The reply the turn goes on with is the last one.

    ``usage`` is what the call used, when the provider said (None from a reply recorded
    before tether kept usage).
    """

    text: str
    tool_calls: tuple[ToolCallRef, ...] = ()
    usage: CallUsage | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCalled:
    """``tool.call``: a tool starts (a workflow tool or sub-agent: ``workflow`` true)."""

    call_id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    workflow: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolReturned:
    """``tool.result``: a tool call's result as the model will see it.

    ``outcome`` is ``ok``, ``error``, ``denied`` (an approval was refused), ``revoked``
    (a steering message withdrew it), ``cancelled`` (the turn was cancelled) or
    ``unknown`` (a non-idempotent tool was interrupted after it started).

    A large result is stored once, by content (see `ToolResultEntry`): the stored event
    holds its id in ``content_ref``; the session's event reads return it whole.
    """

    call_id: str
    name: str
    content: str
    is_error: bool = False
    outcome: ToolOutcome = "ok"
    content_ref: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StateChanged:
    """``state.changed``: a tool call changed the session's declared state (`State`).

    Emitted with the call's result, in the same write as the change. ``values`` holds
    the new JSON value of each key it changed; ``reset`` names those it put back to
    their default (their ``values`` entry is that default).
    """

    call_id: str
    values: Mapping[str, Any]
    reset: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class InputRequested:
    """``input.requested``: the turn asks for an approval or an answer."""

    request: InputRequest


@dataclass(frozen=True, slots=True, kw_only=True)
class AuthorizationRequested:
    """``authorization.required``: a tool needs a connection authorized first."""

    request: InputRequest
    provider: str = ""
    url: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class InputResolved:
    """``input.resolved``: a request was answered, revoked or dropped with its turn."""

    request_id: str
    answer: Any = None
    by: str | None = None
    outcome: ResolutionOutcome = "answered"


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnWaiting:
    """``turn.waiting``: the turn is parked on ``input`` (requests) or ``tasks``."""

    on: Literal["input", "tasks"]
    request_ids: tuple[str, ...] = ()
    tasks: tuple[TaskRef, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnSteered:
    """``turn.steered``: a message joined the running turn (same turn id)."""

    submission_id: str
    text: str
    principal: str | None = None
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnCompleted:
    """``turn.completed``: the turn ended with the model's final reply.

    ``usage`` sums the model calls of the turn whose replies are on record.
    """

    submission_id: str
    usage: TokenCounts | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnFailed:
    """``turn.failed``: the turn ended in failure; ``terminal`` ends the session too.

    ``code`` names a failure of a known kind: ``"budget_exceeded"`` (a budget whose
    policy is ``"fail"`` had no room for the next model call, or its request for more
    was declined); None otherwise.
    """

    submission_id: str | None
    error: str
    terminal: bool = False
    code: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnCancelled:
    """``turn.cancelled``: the turn was cancelled (its pending requests are dropped)."""

    submission_id: str
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionWaiting:
    """``session.waiting``: the session is idle; a new message starts a new turn."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DynamicFailed:
    """``dynamic.failed``: a `Dynamic` handler raised or ran past its timeout.

    The session goes on without what it would have given: the turn it ran for (or,
    on ``session.started``, the session) has no instructions of it. ``on`` is the event
    it ran on; ``error`` says what happened.
    """

    handler: str
    on: str
    error: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionClosed:
    """``session.closed``: the session ended; sends are refused from now on."""

    session_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionFailed:
    """``session.failed``: the session cannot go on; sends are refused from now on."""

    error: str


EventData: TypeAlias = (
    SessionStarted
    | SessionMoved
    | TurnStarted
    | DynamicFailed
    | MessageDelta
    | MessageCompleted
    | ToolCalled
    | ToolReturned
    | StateChanged
    | InputRequested
    | AuthorizationRequested
    | InputResolved
    | TurnWaiting
    | TurnSteered
    | TurnCompleted
    | TurnFailed
    | TurnCancelled
    | SessionWaiting
    | SessionClosed
    | SessionFailed
)
"""The record of any session event."""

EVENT_DATA: dict[SessionEventType, type[EventData]] = {
    "session.started": SessionStarted,
    "session.moved": SessionMoved,
    "turn.started": TurnStarted,
    "dynamic.failed": DynamicFailed,
    "message.delta": MessageDelta,
    "message.completed": MessageCompleted,
    "tool.call": ToolCalled,
    "tool.result": ToolReturned,
    "state.changed": StateChanged,
    "input.requested": InputRequested,
    "authorization.required": AuthorizationRequested,
    "input.resolved": InputResolved,
    "turn.waiting": TurnWaiting,
    "turn.steered": TurnSteered,
    "turn.completed": TurnCompleted,
    "turn.failed": TurnFailed,
    "turn.cancelled": TurnCancelled,
    "session.waiting": SessionWaiting,
    "session.closed": SessionClosed,
    "session.failed": SessionFailed,
}
"""The record type of each event type."""

#: Events after which a session's stream has nothing more to say.
TERMINAL_EVENTS: frozenset[str] = frozenset({"session.closed", "session.failed"})
