"""A model that answers from a script, for tests and demos: no network, no key."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

import orjson

from ..agent.models import (
    DEFAULT_STALL_TIMEOUT,
    AssistantMessage,
    ModelRequest,
    ModelResponse,
    ResponseComplete,
    StopReason,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolCallArgsDelta,
    ToolCallComplete,
    ToolCallStart,
    ToolResultMessage,
    Usage,
    UsageUpdate,
    UserMessage,
)
from ..agent.models._attachments import ALL_KINDS, AttachmentKind, attachment_kind
from ..errors import ModelError

__all__ = ["Reply", "ScriptEntry", "ScriptedModel", "tool_call"]

_WORDS = re.compile(r"\s*\S+\s*|\s+")


@dataclass(frozen=True, slots=True, kw_only=True)
class Reply:
    """One scripted answer: text, tool calls, or both.

    Tool calls without a ``call_id`` get one derived from the conversation, so the same
    request always gets the same ids and different turns never share one.
    """

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: StopReason | None = None
    usage: Usage | None = None


def tool_call(
    name: str, arguments: Mapping[str, Any] | None = None, *, call_id: str = ""
) -> ToolCall:
    """Return a tool call for a :class:`Reply`.

    Args:
        name: The tool to call.
        arguments: Its arguments (a JSON object).
        call_id: A fixed id; empty derives one from the conversation.
    """
    args = dict(arguments or {})
    return ToolCall(
        call_id=call_id, name=name, arguments=args, arguments_json=orjson.dumps(args).decode()
    )


ScriptEntry: TypeAlias = str | Reply | ModelResponse | BaseException
"""One answer: text, a :class:`Reply`, a full response, or an exception to raise."""

_Entry: TypeAlias = ScriptEntry | Callable[[ModelRequest], ScriptEntry | Awaitable[ScriptEntry]]


class ScriptedModel:
    """A :class:`~tether.agent.models.Model` that answers from a script.

    Each call takes the next entry of ``script`` (or, with ``select="transcript"``,
    the entry whose position is the number of assistant messages already in the
    request, which survives a process restart in the middle of a conversation). An
    entry may be text, a :class:`Reply`, a :class:`ModelResponse`, an exception to
    raise, or a callable from the request to one of those (sync or async). A
    callable ``script`` answers every call.

    Text streams in word-sized deltas; tool-call arguments stream in two fragments.
    Every request is recorded in :attr:`requests`.

    Args:
        script: The answers, in order, or one callable for all calls.
        name: Shown as ``"scripted:<name>"``.
        select: ``"call"`` takes entries in call order; ``"transcript"`` indexes them
            by the number of assistant messages in the request.
        calls_file: Append one line per call to this file, so another process can
            count calls (see :meth:`count_calls`). Call numbers then count the lines
            of the file, across every process that shares it.
        fail_on: Raise the given exception on these call numbers (1-based).
        stall_on: On these call numbers, stream the first delta, then go silent for
            ``stall_timeout`` seconds and raise the retryable "stalled" error a real
            provider adapter raises.
        stall_timeout: See ``stall_on``.
        delta_delay: Seconds to sleep before each delta (to kill a process mid-stream).
        attachment_kinds: The kinds of files it takes (``"image"``, ``"pdf"``,
            ``"text"``; default all), as a provider's model declares them.
    """

    def __init__(
        self,
        script: Sequence[_Entry] | Callable[[ModelRequest], ScriptEntry | Awaitable[ScriptEntry]],
        *,
        name: str = "model",
        select: Literal["call", "transcript"] = "call",
        calls_file: str | os.PathLike[str] | None = None,
        fail_on: Mapping[int, BaseException] | None = None,
        stall_on: Iterable[int] = (),
        stall_timeout: float = DEFAULT_STALL_TIMEOUT,
        delta_delay: float = 0.0,
        attachment_kinds: Iterable[AttachmentKind] = ALL_KINDS,
    ) -> None:
        self._script = script if callable(script) else tuple(script)
        self._name = name
        self.select = select
        self.calls_file = Path(calls_file) if calls_file is not None else None
        self.fail_on = dict(fail_on or {})
        self.stall_on = frozenset(stall_on)
        self.stall_timeout = stall_timeout
        self.delta_delay = delta_delay
        self.requests: list[ModelRequest] = []
        self.attachment_kinds = frozenset(attachment_kinds)

    @property
    def name(self) -> str:
        """The model as ``"scripted:<name>"``."""
        return f"scripted:{self._name}"

    def accepts_attachment(self, mime_type: str) -> bool:
        """Whether a message may carry a file of `mime_type` to it."""
        return attachment_kind(mime_type) in self.attachment_kinds

    @property
    def calls(self) -> int:
        """How many calls this object received."""
        return len(self.requests)

    def __repr__(self) -> str:
        return f"ScriptedModel(name={self._name!r}, calls={self.calls})"

    @staticmethod
    def count_calls(path: str | os.PathLike[str]) -> int:
        """Return the number of calls logged in a ``calls_file`` (0 if it is absent)."""
        try:
            with open(path, "rb") as file:
                return sum(1 for line in file if line.strip())
        except FileNotFoundError:
            return 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Answer ``request`` from the script, streaming it as a provider would.

        Raises:
            ModelError: The script has no entry for this call (not retryable), or the
                call was told to stall (retryable).
            BaseException: Whatever the script or ``fail_on`` says to raise.
        """
        self.requests.append(request)
        call_number = self._log_call()
        failure = self.fail_on.get(call_number)
        if failure is not None:
            raise failure
        entry = await self._entry(request, call_number)
        if isinstance(entry, BaseException):
            raise entry
        response = self._response(request, entry)
        stall = call_number in self.stall_on
        deltas = _WORDS.findall(response.text)
        for position, delta in enumerate(deltas):
            if self.delta_delay:
                await asyncio.sleep(self.delta_delay)
            yield TextDelta(text=delta)
            if stall and position == 0:
                break
        if stall:
            await asyncio.sleep(self.stall_timeout)
            raise ModelError(
                f"{self.name}: the stream stalled: no data for {self.stall_timeout} s "
                f"(scripted stall on call {call_number})",
                provider="scripted",
                retryable=True,
            )
        for index, call in enumerate(response.tool_calls):
            yield ToolCallStart(index=index, call_id=call.call_id, name=call.name)
            text = call.arguments_text()
            middle = len(text) // 2
            for fragment in (text[:middle], text[middle:]):
                if fragment:
                    yield ToolCallArgsDelta(index=index, call_id=call.call_id, delta=fragment)
            yield ToolCallComplete(index=index, call=call)
        yield UsageUpdate(usage=response.usage)
        yield ResponseComplete(response=response)

    def _log_call(self) -> int:
        if self.calls_file is None:
            return self.calls
        line = f"{self.name} pid={os.getpid()}\n".encode()
        # One O_APPEND write per call: lines from several processes never interleave.
        fd = os.open(self.calls_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
        return self.count_calls(self.calls_file)

    async def _entry(self, request: ModelRequest, call_number: int) -> ScriptEntry:
        script = self._script
        if callable(script):
            entry: _Entry = script
        else:
            if self.select == "transcript":
                position = sum(isinstance(m, AssistantMessage) for m in request.messages)
            else:
                position = call_number - 1
            if position >= len(script):
                how = "assistant messages in the request" if self.select == "transcript" else ""
                raise ModelError(
                    f"{self.name}: the script has {len(script)} entries and call "
                    f"{call_number} asked for entry {position + 1}"
                    + (f" ({position} {how})" if how else "")
                    + "; add entries to the script",
                    provider="scripted",
                    retryable=False,
                )
            entry = script[position]
        if callable(entry) and not isinstance(entry, BaseException):
            result = entry(request)
            if inspect.isawaitable(result):
                return await result
            return result
        return entry

    def _response(self, request: ModelRequest, entry: str | Reply | ModelResponse) -> ModelResponse:
        if isinstance(entry, ModelResponse):
            return entry
        reply = Reply(text=entry) if isinstance(entry, str) else entry
        calls = tuple(
            call
            if call.call_id
            else ToolCall(
                call_id=_derived_call_id(request, index, call.name),
                name=call.name,
                arguments=call.arguments,
                arguments_json=call.arguments_json,
                parse_error=call.parse_error,
            )
            for index, call in enumerate(reply.tool_calls)
        )
        usage = reply.usage or Usage(
            input_tokens=_estimate_tokens(request), output_tokens=len(reply.text) // 4 + 1
        )
        stop = reply.stop_reason or ("tool_calls" if calls else "end_turn")
        return ModelResponse(
            text=reply.text,
            tool_calls=calls,
            stop_reason=stop,
            provider_stop_reason=stop,
            usage=usage,
            model=self.name,
        )


def _derived_call_id(request: ModelRequest, index: int, name: str) -> str:
    digest = hashlib.sha256(f"{request.messages!r}|{index}|{name}".encode()).hexdigest()
    return f"call_{digest[:20]}"


def _estimate_tokens(request: ModelRequest) -> int:
    size = len(request.instructions or "")
    for message in request.messages:
        if isinstance(message, UserMessage | AssistantMessage):
            size += len(message.text)
        elif isinstance(message, ToolResultMessage):
            size += len(message.content)
    return size // 4 + 1
