"""Transcript entries: the typed records of a session's canonical transcript.

One record per concept, with a ``kind`` discriminator; stored as their JSON form in
the conversation store and validated once when read back (`read_entries`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field

from ._attachments import Attachment
from ._event_data import CallUsage, ToolOutcome
from ._json import json_value, read_record

__all__ = [
    "ApprovalEntry",
    "AssistantEntry",
    "AuthorizationEntry",
    "ContextEntry",
    "InstructionsEntry",
    "McpToolSpec",
    "McpToolsEntry",
    "StateEntry",
    "ToolCallEntry",
    "ToolResultEntry",
    "ToolStartedEntry",
    "TranscriptEntry",
    "TurnEndEntry",
    "UserEntry",
    "entry_json",
    "read_entries",
]

TurnOutcome: TypeAlias = Literal["completed", "failed", "cancelled"]


@dataclass(frozen=True, slots=True, kw_only=True)
class UserEntry:
    """A user's message; it began its turn or steered it.

    ``attachments`` are references to the files it carries (their bytes stay in the
    attachment store and are read when a model request is built).
    """

    turn_id: str
    submission_id: str
    text: str
    principal: str | None = None
    attachments: tuple[Attachment, ...] = ()
    kind: Literal["user"] = "user"


@dataclass(frozen=True, slots=True, kw_only=True)
class ContextEntry:
    """Context the session was given as data, not instructions.

    ``source`` says what: ``predecessor`` (the text of the session this one follows,
    `Session.reset`), ``compaction`` (a summary of the transcript it replaces), or the
    name of the `Dynamic` handler whose ``history`` it is. The model sees it as a user
    message marked as history.
    """

    text: str
    source: str
    kind: Literal["context"] = "context"


@dataclass(frozen=True, slots=True, kw_only=True)
class InstructionsEntry:
    """What a `Dynamic` handler returned: instructions added to the system prompt.

    ``on`` is the event it ran on; ``turn_id`` is the turn it holds for (None: for the
    rest of the session, carried across a clear or a compaction). ``error`` says why
    the handler gave nothing (it failed or ran past its timeout; ``text`` is empty).
    """

    handler: str
    on: str
    text: str = ""
    turn_id: str | None = None
    error: str | None = None
    kind: Literal["instructions"] = "instructions"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolCallEntry:
    """One tool call of an assistant reply, as the model sent it.

    ``parse_error`` is set when the model's arguments were not a JSON object; the call
    then goes back to the model as a tool error (``arguments_json`` keeps the text).
    """

    call_id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    arguments_json: str = "{}"
    parse_error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AssistantEntry:
    """One model reply: text, tool calls, or both.

    ``step_index`` and ``call`` say which durable step and which of its model calls
    produced it.
    """

    turn_id: str
    step_index: int
    call: int
    text: str = ""
    tool_calls: tuple[ToolCallEntry, ...] = ()
    #: What the call used (None in a reply recorded before tether kept usage).
    usage: CallUsage | None = None
    kind: Literal["assistant"] = "assistant"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolResultEntry:
    """The result of one tool call, as the model sees it (``outcome`` as in events).

    A large result is stored once, by content, in the session's attachment stream:
    the stored entry then holds its id in ``content_ref`` and an empty ``content``,
    which the transcript's readers fill in again (the entries they return hold it).
    """

    turn_id: str
    call_id: str
    name: str
    content: str
    is_error: bool = False
    outcome: ToolOutcome = "ok"
    content_ref: str | None = None
    kind: Literal["tool_result"] = "tool_result"


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalEntry:
    """A decision on a request about a tool call: an approval, or an authorization.

    ``approved`` is the yes or no (authorized or not); ``reason`` says why a call was
    not approved (``"revoked: ..."`` when a steering message withdrew the request).
    """

    turn_id: str
    call_id: str
    approved: bool
    request_id: str | None = None
    by: str | None = None
    reason: str | None = None
    kind: Literal["approval"] = "approval"


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolStartedEntry:
    """A non-idempotent tool call began (so an interrupted one is never run again)."""

    turn_id: str
    call_id: str
    kind: Literal["tool_started"] = "tool_started"


@dataclass(frozen=True, slots=True, kw_only=True)
class AuthorizationEntry:
    """A tool asked for an authorization before it acted (it runs again once given)."""

    turn_id: str
    call_id: str
    request_id: str
    kind: Literal["authorization"] = "authorization"


@dataclass(frozen=True, slots=True, kw_only=True)
class McpToolSpec:
    """One tool as an MCP server listed it (its ``tools/list`` entry, as tether keeps it).

    The hints are the server's tool annotations (None: not given); they are hints from
    the server, not guarantees.
    """

    name: str
    description: str = ""
    input_schema: Mapping[str, Any] = field(default_factory=dict)
    title: str | None = None
    read_only_hint: bool | None = None
    destructive_hint: bool | None = None
    idempotent_hint: bool | None = None
    open_world_hint: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class McpToolsEntry:
    """The tools an MCP server listed for a turn: every step of the turn sees these.

    ``tools`` is None when the listing is the same as an earlier one of this server in
    the transcript (the latest with the same ``digest`` holds the tools).
    """

    turn_id: str
    server: str
    digest: str
    tools: tuple[McpToolSpec, ...] | None = None
    kind: Literal["mcp_tools"] = "mcp_tools"


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEndEntry:
    """The end of a turn and how it ended."""

    turn_id: str
    outcome: TurnOutcome
    error: str | None = None
    kind: Literal["turn_end"] = "turn_end"


@dataclass(frozen=True, slots=True, kw_only=True)
class StateEntry:
    """A change of the session's declared state (`State`), in their JSON form.

    ``values`` are the keys set, ``removed`` those that went back to their default (or
    that the code reading them no longer declares). It lands in the same write as what
    made it: a tool call's result, or the opening of a run that carries the state.
    ``call_id`` names the tool call that made the change, if one did.
    """

    values: Mapping[str, Any] = field(default_factory=dict)
    removed: tuple[str, ...] = ()
    call_id: str | None = None
    kind: Literal["state"] = "state"


TranscriptEntry: TypeAlias = Annotated[
    UserEntry
    | ContextEntry
    | InstructionsEntry
    | AssistantEntry
    | ToolResultEntry
    | ApprovalEntry
    | ToolStartedEntry
    | AuthorizationEntry
    | McpToolsEntry
    | TurnEndEntry
    | StateEntry,
    Field(discriminator="kind"),
]
"""Any transcript entry (discriminated by ``kind``)."""


def entry_json(entry: Any) -> dict[str, Any]:
    """The stored (JSON) form of an entry."""
    out: dict[str, Any] = json_value(entry)
    if out.get("content_ref") is not None:
        out["content"] = ""  # stored once, by content (see `ToolResultEntry`)
    elif "content_ref" in out:
        del out["content_ref"]  # as entries were stored before references
    return out


def read_entries(values: Iterable[Any], *, what: str) -> list[Any]:
    """Validate stored entries into records.

    Raises:
        SerializationError: One does not fit any entry record.
    """
    return [read_record(TranscriptEntry, value, what=what) for value in values]
