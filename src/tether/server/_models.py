"""The wire models of the HTTP API (pydantic): request bodies and response shapes."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..agent import Attachment, Display, OptionStyle, TranscriptEntry

__all__ = [
    "CURSOR_PATTERN",
    "FILENAME_PATTERN",
    "ID_PATTERN",
    "MAX_WIRE_INT",
    "AnswerBody",
    "AnsweredOut",
    "AttachmentIn",
    "AttachmentOut",
    "CancelledOut",
    "ChatBody",
    "ClearingOut",
    "ClosingOut",
    "CreateSessionBody",
    "EventOut",
    "HealthOut",
    "HistoryOut",
    "HookOut",
    "InputRequestOut",
    "OptionOut",
    "PendingOut",
    "Problem",
    "ResumeEntry",
    "RunAgentInput",
    "SendBody",
    "SessionDetailOut",
    "SessionInfoOut",
    "SessionListOut",
    "SessionProgressOut",
    "SessionStateOut",
    "StateOut",
    "SubmissionOut",
    "TokenCountsOut",
    "TranscriptOut",
    "UsageOut",
    "is_id",
    "refs_of",
]

#: Ids clients choose (session ids, message ids): printable, no separators that matter.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$"
#: A `next_cursor`: a page key (`k1.` and base64url), or a row count of earlier releases.
CURSOR_PATTERN = r"^(0|[1-9][0-9]{0,17}|k1\.[A-Za-z0-9_-]{1,700})$"
#: A filename: 1 to 255 characters, no control characters, not only white space (the
#: white space of Unicode spelled out: regex engines disagree on what ``\s`` holds).
_SPACE = r"\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
FILENAME_PATTERN = rf"^[^\x00-\x1f\x7f]*[^\x00-\x1f\x7f{_SPACE}][^\x00-\x1f\x7f]*$"
#: Integers in query strings and headers: at most 2**53 either way (a JSON number a
#: JavaScript client reads exactly).
MAX_WIRE_INT = 1 << 53

_ID = re.compile(ID_PATTERN)


def is_id(value: object) -> bool:
    """Whether `value` is an id of `ID_PATTERN` (the whole string: no trailing newline)."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def _integral(value: Any) -> Any:
    """A float without a fraction as the integer it is (JSON Schema counts 2.0 as one)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class _Body(BaseModel):
    # Strict: a JSON value of another type than the document says is refused (no
    # "5" for 5, no 1 for true), as the document's JSON Schema refuses it.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class CreateSessionBody(_Body):
    """Open a session (idempotent by `session_id`)."""

    agent: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="The agent; may be left out when the app serves one agent.",
    )
    session_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="A client-chosen id: creating it again returns the same session.",
    )
    retention: Literal["default", 0] | None = Field(
        default=None, description="Overrides the agent's retention for this session."
    )
    audience: Literal["public", "private", "unknown"] = Field(
        default="unknown",
        description=(
            "Who the session is for. When neither the request nor the agent sets a "
            "retention, a private or unknown session on a production host gets 0."
        ),
    )

    @field_validator("retention", mode="before")
    @classmethod
    def _retention(cls, value: Any) -> Any:
        # A literal 0 would take false (False == 0): JSON Schema's enum does not.
        if isinstance(value, bool):
            raise ValueError('retention is "default" or 0, not a boolean')
        return _integral(value)


_WHOLE = ("mime_type", "size", "sha256")


def _by_id_or_whole(schema: dict[str, Any]) -> None:
    """What `AttachmentIn._whole_or_id` checks, in its JSON Schema: all three or none.

    Each branch restates the members' schemas whole (a generator that merges a branch
    into the object's schema may take the branch's member schema as the only one).
    """
    members = schema["properties"]
    given = {name: members[name]["anyOf"][0] for name in _WHOLE}
    schema["oneOf"] = [
        {"title": "By id", "properties": {name: {"type": "null"} for name in _WHOLE}},
        {"title": "The whole reference", "required": list(_WHOLE), "properties": given},
    ]


class AttachmentIn(_Body):
    """A file uploaded to the session, sent with a message.

    Its id alone, or its whole reference as the upload returned it (then its type,
    size and digest are checked against what is stored).
    """

    model_config = ConfigDict(json_schema_extra=_by_id_or_whole)

    id: str = Field(pattern=ID_PATTERN, description="The id the upload returned.")
    mime_type: str | None = Field(default=None, max_length=255)
    size: int | None = Field(default=None, ge=0)
    sha256: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]{64}$")
    filename: str | None = Field(default=None, max_length=255, description="Not checked.")

    @field_validator("size", mode="before")
    @classmethod
    def _size(cls, value: Any) -> Any:
        return _integral(value)

    @model_validator(mode="after")
    def _whole_or_id(self) -> AttachmentIn:
        given = [self.mime_type is not None, self.size is not None, self.sha256 is not None]
        if any(given) and not all(given):
            raise ValueError("give the id alone, or with mime_type, size and sha256")
        return self


class AttachmentOut(BaseModel):
    """A file stored with a session, by reference."""

    id: str
    mime_type: str
    size: int
    sha256: str = Field(description="Lowercase hex SHA-256 of the bytes.")
    filename: str | None


class SendBody(_Body):
    """Send a user message."""

    text: str = Field(max_length=1_000_000, description="The message.")
    client_message_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="Makes the send idempotent: the same id again admits nothing new.",
    )
    turn_policy: Literal["steer", "queue"] | None = Field(
        default=None,
        description="steer the running turn (default) or queue behind it.",
    )
    attachments: list[AttachmentIn] = Field(
        default_factory=list,
        max_length=32,
        description="Files uploaded to this session (POST .../attachments) it carries.",
    )


class AnswerBody(_Body):
    """Answer an input request."""

    answer: Any = Field(
        description=(
            'An approval: "approve" / "deny" (or true / false, or {"approved": bool, '
            '"reason": str}); a question: the id of one of its options, or a string when '
            'it has none, or {"cancelled": true} to decline it; an authorization: '
            '{"authorized": true}.'
        )
    )


class Problem(BaseModel):
    """An RFC 9457 problem details body (``application/problem+json``)."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    engine_version: str | None = None
    deployment: str | None = None
    errors: list[dict[str, Any]] | None = None


class OptionOut(BaseModel):
    """One allowed answer of a question: answer with its ``id``, show its ``label``."""

    id: str
    label: str
    style: OptionStyle | None = Field(
        default=None, description="primary (the suggested one), danger, or plain (null)."
    )


class InputRequestOut(BaseModel):
    """A pending approval, question, authorization or budget request."""

    request_id: str
    kind: Literal["approval", "question", "authorization", "budget"]
    turn_id: str
    principal: str | None = None
    tool_name: str | None = None
    call_id: str | None = None
    prompt: str | None = None
    options: list[OptionOut] | None = Field(
        default=None, description="A question's allowed answers; null takes free text."
    )
    approvers: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)
    display: Display | None = Field(
        default=None,
        description=(
            "How to show a question: a text field, a list to pick from, or a dialog "
            "with a button per option; null for approvals, authorizations and "
            "questions an earlier release recorded."
        ),
    )


class SessionStateOut(BaseModel):
    """What a session is doing now."""

    session_id: str
    agent_name: str
    owner: str | None
    status: Literal["idle", "running", "parked", "closed", "failed", "cancelled"]
    parked_on: Literal["input", "tasks", "authorization"] | None
    turn_id: str | None
    pending: list[InputRequestOut]
    stranded: bool
    deployment: str
    engine_version: str
    created_at: float
    updated_at: float


class StepProgressOut(BaseModel):
    """An unfinished step of the session's run."""

    name: str
    slot: int
    status: Literal["running", "retrying"]
    attempt: int
    running_for: float = Field(description="seconds since the attempt started")
    retry_in: float | None = Field(description="(retrying) seconds until it may run again")


class WakeUpOut(BaseModel):
    """A wake-up of the session's run in the queue."""

    queue: str
    due_in: float = Field(description="seconds until it may be taken; negative: overdue")
    deliveries: int
    held_by: str | None = Field(
        description="the worker holding it (an opaque alias); null while it waits"
    )


class RunProgressOut(BaseModel):
    """What the session's run is doing and what it waits on."""

    run_id: str
    status: Literal["pending", "running", "completed", "failed", "cancelled", "continued"]
    holder: str | None = Field(
        description="the worker holding the run's live lease (an opaque alias, `w_...`)"
    )
    lease_left: float | None = Field(description="seconds left on the last lease")
    holder_alive: bool | None
    steps: list[StepProgressOut]
    timers: list[float] = Field(description="seconds until each open timer fires")
    hooks: int
    wake_ups: list[WakeUpOut]
    serving_workers: int = Field(description="live workers of the run's versions")


class WaitingOut(BaseModel):
    """A message or command admitted and not settled yet."""

    submission_id: str
    kind: str
    status: str
    age: float = Field(description="seconds since it was admitted")
    turn_id: str | None


class SessionProgressOut(BaseModel):
    """Why the session is or is not moving."""

    session_id: str
    state: Literal["working", "queued", "recovering", "waiting", "idle", "stuck", "ended"]
    reason: str
    waiting: list[WaitingOut]
    run: RunProgressOut


class SessionDetailOut(SessionStateOut):
    """What a session is doing now, and why it is or is not moving."""

    progress: SessionProgressOut


class SessionInfoOut(BaseModel):
    """A session as listed."""

    session_id: str
    agent_name: str
    owner: str | None
    status: Literal["idle", "running", "parked", "closed", "failed", "cancelled"]
    created_at: float
    updated_at: float


class SessionListOut(BaseModel):
    """A page of the caller's sessions, newest first."""

    items: list[SessionInfoOut]
    next_cursor: str | None


class SubmissionOut(BaseModel):
    """An admitted message (202)."""

    submission_id: str
    session_id: str


class PendingOut(BaseModel):
    """The session's pending requests."""

    items: list[InputRequestOut]


class AnsweredOut(BaseModel):
    """An answered request."""

    request_id: str
    answered: Literal[True]


class CancelledOut(BaseModel):
    """A cancel taken (202): the turn stops at its next boundary."""

    session_id: str
    cancelled: Literal[True]


class ClosingOut(BaseModel):
    """A close taken (202): the session closes once its turn ends."""

    session_id: str
    closing: Literal[True]


class ClearingOut(BaseModel):
    """A clear taken (202): a fresh transcript at the session's next idle point."""

    session_id: str
    clearing: Literal[True]


class StateOut(BaseModel):
    """The session's declared state: every key its agent declares, in JSON form."""

    session_id: str
    values: dict[str, Any] = Field(
        description="each declared key's value (its default until a tool set one)"
    )


class TranscriptOut(BaseModel):
    """The session's canonical transcript."""

    entries: list[TranscriptEntry]


class TokenCountsOut(BaseModel):
    """Tokens summed over model calls."""

    calls: int
    input_tokens: int = Field(description="input tokens, cached ones included")
    output_tokens: int
    cached_tokens: int = Field(description="of the input tokens, those read from a cache")


class UsageOut(BaseModel):
    """What the session's model calls used, and what they cost."""

    session_id: str
    total: TokenCountsOut
    by_model: dict[str, TokenCountsOut] = Field(description="per model, as its provider names it")
    by_turn: dict[str, TokenCountsOut] = Field(description="per turn id, in the order begun")
    cost: float | None = Field(description="at the server's prices; null without prices")
    unpriced: list[str] = Field(description="models used that have no price (not in cost)")
    retried: TokenCountsOut = Field(
        description="of total, the calls whose reply never committed (the attempt was cut "
        "short after the provider answered) and that a later attempt made again"
    )


class HealthOut(BaseModel):
    """The server answers."""

    ok: Literal[True]


class HookOut(BaseModel):
    """A hook resumed (202)."""

    resumed: Literal[True]


class EventOut(BaseModel):
    """One session event (its `index` is its position in the stream)."""

    index: int
    type: str
    data: dict[str, Any]
    meta: dict[str, Any]


class HistoryOut(BaseModel):
    """Events read without following (read-only)."""

    events: list[EventOut]
    next_offset: int


# -- the UI adapters' request bodies ---------------------------------------------------
class ChatBody(BaseModel):
    """What `DefaultChatTransport` posts (extra members are the app's own)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(pattern=ID_PATTERN)
    messages: list[dict[str, Any]] = Field(min_length=1)
    trigger: str | None = None
    messageId: str | None = None
    agent: str | None = None


class ResumeEntry(BaseModel):
    """An answer to one interrupt of the previous run."""

    model_config = ConfigDict(extra="allow")

    interruptId: str = Field(min_length=1, max_length=300)
    status: Literal["resolved", "cancelled"]
    payload: Any = None


class RunAgentInput(BaseModel):
    """What an AG-UI client posts (state, tools, context and the like are ignored)."""

    model_config = ConfigDict(extra="allow")

    threadId: str = Field(pattern=ID_PATTERN)
    runId: str = Field(min_length=1, max_length=200)
    messages: list[dict[str, Any]] = Field(default_factory=list, max_length=10_000)
    resume: list[ResumeEntry] | None = Field(default=None, max_length=100)


def refs_of(items: list[AttachmentIn]) -> list[Attachment | str]:
    """What `Session.send` is given for the attachments of a send body."""
    out: list[Attachment | str] = []
    for item in items:
        if item.sha256 is None or item.size is None or item.mime_type is None:
            out.append(item.id)
        else:
            out.append(
                Attachment(
                    id=item.id,
                    mime_type=item.mime_type.strip().lower(),
                    size=item.size,
                    sha256=item.sha256.lower(),
                    filename=item.filename,
                )
            )
    return out
