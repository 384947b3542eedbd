"""OpenAI-compatible Chat Completions, streamed over server-sent events.

Works with any server that speaks the Chat Completions wire format: OpenAI itself,
vLLM, Ollama, LM Studio, llama.cpp's server and most gateways. Needs ``httpx``
(``pip install 'tether[openai]'``).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import orjson

from ...errors import ModelError
from ._accepts import check_request_attachments, provider_kinds
from ._attachments import AttachmentData, AttachmentKind, attachment_kind
from ._guard import check_network_allowed
from ._http import (
    DEFAULT_CONNECT_TIMEOUT,
    is_quota_error,
    require_httpx,
    status_of,
    stream_sse,
)
from ._model import DEFAULT_STALL_TIMEOUT
from ._types import (
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
    parse_tool_arguments,
    usage_details,
)

if TYPE_CHECKING:
    import httpx

__all__ = ["OPENAI_BASE_URL", "OpenAIChatModel"]

OPENAI_BASE_URL = "https://api.openai.com/v1"
"""The default base URL: OpenAI's own API."""

_STOP_REASONS: dict[str, StopReason] = {
    "stop": "end_turn",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "length": "max_tokens",
    "content_filter": "content_filter",
}


class OpenAIChatModel:
    """A model served by an OpenAI-compatible Chat Completions endpoint.

    Args:
        model: The model name the server knows, e.g. ``"gpt-4o-mini"`` or ``"llama3.1"``.
        base_url: The API root, ending before ``/chat/completions``.
        api_key: Sent as a bearer token; ``None`` sends no ``authorization`` header
            (local servers often need none).
        provider: The provider name used in :attr:`name` and in errors.
        stall_timeout: Seconds without a byte after which the stream is abandoned.
        connect_timeout: Seconds to establish a connection.
        include_usage: Ask for a final usage chunk (``stream_options.include_usage``);
            turn it off for servers that reject ``stream_options``.
        max_tokens_field: The body field for ``ModelSettings.max_tokens``. Default:
            ``"max_completion_tokens"`` for OpenAI's reasoning models (``o1``, ``o3``,
            ``o4-*``, ``gpt-5*``), which reject ``max_tokens``, else ``"max_tokens"``
            (what OpenAI-compatible servers take).
        headers: Extra headers for every request.
        http_client: An ``httpx.AsyncClient`` to reuse; by default each call opens its own.
        attachment_kinds: The kinds of files the model takes; a message carrying another
            kind is refused when it is sent. Default: images, PDFs (as file parts) and
            text for ``openai``; images and text for other providers, since few
            compatible servers take file parts.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str = OPENAI_BASE_URL,
        api_key: str | None = None,
        provider: str = "openai",
        stall_timeout: float = DEFAULT_STALL_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        include_usage: bool = True,
        max_tokens_field: Literal["max_tokens", "max_completion_tokens"] | None = None,
        headers: dict[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
        attachment_kinds: Iterable[AttachmentKind] | None = None,
    ) -> None:
        require_httpx("openai")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.provider = provider
        self.stall_timeout = stall_timeout
        self.connect_timeout = connect_timeout
        self.include_usage = include_usage
        self.max_tokens_field: Literal["max_tokens", "max_completion_tokens"] = (
            max_tokens_field or default_max_tokens_field(model)
        )
        self.headers = dict(headers or {})
        self.http_client = http_client
        self.attachment_kinds = frozenset(
            provider_kinds(provider) if attachment_kinds is None else attachment_kinds
        )

    @property
    def name(self) -> str:
        """The model as ``"provider:model"``."""
        return f"{self.provider}:{self.model}"

    def accepts_attachment(self, mime_type: str) -> bool:
        """Whether a message may carry a file of `mime_type` to this model."""
        return attachment_kind(mime_type) in self.attachment_kinds

    def __repr__(self) -> str:
        return f"OpenAIChatModel({self.model!r}, base_url={self.base_url!r})"

    def build_body(self, request: ModelRequest) -> dict[str, Any]:
        """Return the JSON body sent for ``request``.

        Raises:
            ModelError: (not retryable) a message carries a file the model does not take.
        """
        check_request_attachments(self.provider, request, self.attachment_kinds)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": _messages(request),
            "stream": True,
        }
        if self.include_usage:
            body["stream_options"] = {"include_usage": True}
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": dict(tool.parameters),
                    },
                }
                for tool in request.tools
            ]
        settings = request.settings
        if settings.max_tokens is not None:
            body[self.max_tokens_field] = settings.max_tokens
        if settings.temperature is not None:
            body["temperature"] = settings.temperature
        if settings.top_p is not None:
            body["top_p"] = settings.top_p
        if settings.stop:
            body["stop"] = list(settings.stop)
        return body

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamEvent]:
        """Send ``request`` and yield the answer as it streams.

        Raises:
            ModelError: The call failed; ``retryable`` says whether retrying may help.
            ConfigurationError: Network models are forbidden in this context.
        """
        check_network_allowed(self.name)
        headers = dict(self.headers)
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        state = _StreamState(provider=self.provider)
        events = stream_sse(
            provider=self.provider,
            url=f"{self.base_url}/chat/completions",
            headers=headers,
            body=self.build_body(request),
            stall_timeout=self.stall_timeout,
            connect_timeout=self.connect_timeout,
            http_client=self.http_client,
            hints=_hints(self.provider, self.model, self.base_url),
        )
        try:
            async for sse in events:
                if sse.data.strip() == "[DONE]":
                    state.done = True
                    break
                for event in state.chunk(sse.data):
                    yield event
        finally:
            await events.aclose()
        if not state.done and state.finish_reason is None:
            raise ModelError(
                f"{self.provider}: the stream ended before the answer was complete "
                "(no finish_reason and no [DONE])",
                provider=self.provider,
                retryable=True,
            )
        for event in state.finish():
            yield event


def _hints(provider: str, model: str, base_url: str) -> dict[int, str]:
    key = "OPENAI_API_KEY" if provider == "openai" else "the api_key"
    return {
        401: f"the API key was rejected: check {key}",
        403: f"the API key may not use model {model!r}: check its permissions",
        404: f"check the model name {model!r} and the base URL {base_url!r}",
        0: "the request was rejected: fix it before retrying",
    }


def _attachment_part(item: AttachmentData) -> dict[str, Any]:
    kind = item.kind
    if kind == "image":
        return {"type": "image_url", "image_url": {"url": item.data_url()}}
    if kind == "pdf":
        filename = item.filename or "attachment.pdf"
        return {"type": "file", "file": {"filename": filename, "file_data": item.data_url()}}
    return {"type": "text", "text": item.as_text()}


def _messages(request: ModelRequest) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    if request.instructions:
        messages.append({"role": "system", "content": request.instructions})
    for message in request.messages:
        if isinstance(message, UserMessage):
            if message.attachments:
                parts = [{"type": "text", "text": message.text}] if message.text else []
                parts.extend(_attachment_part(item) for item in message.attachments)
                messages.append({"role": "user", "content": parts})
            else:
                messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.call_id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments_text()},
                    }
                    for call in message.tool_calls
                ]
            messages.append(entry)
        elif isinstance(message, ToolResultMessage):
            messages.append(
                {"role": "tool", "tool_call_id": message.call_id, "content": message.content}
            )
    return messages


@dataclass(slots=True)
class _PendingCall:
    index: int
    call_id: str
    name: str
    arguments: list[str] = field(default_factory=list)
    started: bool = False


@dataclass(slots=True)
class _StreamState:
    """Accumulates chunks; tool calls are keyed by the ``index`` the server gives them."""

    provider: str
    text: list[str] = field(default_factory=list)
    calls: dict[int, _PendingCall] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    response_id: str | None = None
    done: bool = False

    def _malformed(self, why: str, data: str) -> ModelError:
        # A corrupted chunk is a bad answer, not a bad request: another call may succeed.
        return ModelError(
            f"{self.provider}: malformed stream chunk ({why}): {data[:200]!r}",
            provider=self.provider,
            retryable=True,
        )

    def chunk(self, data: str) -> list[StreamEvent]:
        try:
            payload: Any = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise self._malformed(f"not JSON: {exc}", data) from None
        if not isinstance(payload, dict):
            raise self._malformed("not a JSON object", data)
        if "error" in payload:
            raise _stream_error(self.provider, payload["error"])
        events: list[StreamEvent] = []
        if isinstance(payload.get("model"), str):
            self.model = payload["model"]
        if isinstance(payload.get("id"), str):
            self.response_id = payload["id"]
        choices = payload.get("choices") or []
        if not isinstance(choices, list):
            raise self._malformed("'choices' is not a list", data)
        for choice in choices[:1]:
            if not isinstance(choice, dict):
                raise self._malformed("a choice is not an object", data)
            delta = choice.get("delta") or {}
            if not isinstance(delta, dict):
                raise self._malformed("'delta' is not an object", data)
            content = delta.get("content")
            if isinstance(content, str) and content:
                self.text.append(content)
                events.append(TextDelta(text=content))
            for position, fragment in enumerate(delta.get("tool_calls") or []):
                events.extend(self._tool_fragment(position, fragment, data))
            reason = choice.get("finish_reason")
            if isinstance(reason, str) and reason:
                self.finish_reason = reason
        usage = payload.get("usage")
        if isinstance(usage, dict):
            prompt = usage.get("prompt_tokens_details")
            self.usage = Usage(
                input_tokens=int(usage.get("prompt_tokens") or 0),
                output_tokens=int(usage.get("completion_tokens") or 0),
                cached_tokens=int(
                    (prompt.get("cached_tokens") if isinstance(prompt, dict) else 0) or 0
                ),
                details=usage_details(usage),
            )
            events.append(UsageUpdate(usage=self.usage))
        return events

    def _tool_fragment(self, position: int, fragment: Any, data: str) -> list[StreamEvent]:
        if not isinstance(fragment, dict):
            raise self._malformed("a tool call fragment is not an object", data)
        index = fragment.get("index", position)
        if not isinstance(index, int):
            raise self._malformed("a tool call index is not an integer", data)
        function = fragment.get("function") or {}
        if not isinstance(function, dict):
            raise self._malformed("'function' is not an object", data)
        pending = self.calls.get(index)
        if pending is None:
            pending = _PendingCall(index=index, call_id="", name="")
            self.calls[index] = pending
        if isinstance(fragment.get("id"), str) and fragment["id"]:
            pending.call_id = fragment["id"]
        if isinstance(function.get("name"), str) and function["name"]:
            pending.name = function["name"]
        events: list[StreamEvent] = []
        if not pending.started and pending.name:
            if not pending.call_id:
                # Some compatible servers omit ids; the conversation still needs one.
                pending.call_id = f"call_{uuid.uuid4().hex[:24]}"
            pending.started = True
            events.append(ToolCallStart(index=index, call_id=pending.call_id, name=pending.name))
            if pending.arguments:
                events.append(
                    ToolCallArgsDelta(
                        index=index, call_id=pending.call_id, delta="".join(pending.arguments)
                    )
                )
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            pending.arguments.append(arguments)
            if pending.started:
                events.append(
                    ToolCallArgsDelta(index=index, call_id=pending.call_id, delta=arguments)
                )
        return events

    def finish(self) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        calls: list[ToolCall] = []
        for index in sorted(self.calls):
            pending = self.calls[index]
            if not pending.started:
                raise ModelError(
                    f"{self.provider}: the stream sent a tool call (index {index}) without a "
                    "function name",
                    provider=self.provider,
                    retryable=False,
                )
            call = parse_tool_arguments(pending.call_id, pending.name, "".join(pending.arguments))
            calls.append(call)
            events.append(ToolCallComplete(index=index, call=call))
        if self.finish_reason is None:
            stop: StopReason = "tool_calls" if calls else "end_turn"
        else:
            stop = _STOP_REASONS.get(self.finish_reason, "other")
        response = ModelResponse(
            text="".join(self.text),
            tool_calls=tuple(calls),
            stop_reason=stop,
            provider_stop_reason=self.finish_reason,
            usage=self.usage,
            model=self.model,
            response_id=self.response_id,
        )
        events.append(ResponseComplete(response=response))
        return events


def _stream_error(provider: str, error: Any) -> ModelError:
    """Classify an ``{"error": ...}`` chunk sent in the middle of a stream.

    Servers send ``code`` as a number, a numeric string (``"500"``) or a word, and
    ``type`` may be null: a status-like code decides, then the words.
    """
    if not isinstance(error, dict):
        return ModelError(
            f"{provider}: error in stream: {error!r}", provider=provider, retryable=True
        )
    message = str(error.get("message") or error)
    kind = str(error.get("type") or "")
    code = error.get("code")
    status = status_of(code)
    if is_quota_error(error):
        retryable = False
    elif status is not None:
        retryable = status in (408, 409, 429) or status >= 500
    else:
        words = f"{kind} {code or ''}"
        retryable = not any(w in words for w in ("invalid", "auth", "permission", "not_found"))
    label = f"{kind}: " if kind else ""
    return ModelError(
        f"{provider}: error in stream: {label}{message}",
        provider=provider,
        status_code=status,
        retryable=retryable,
    )


_REASONING_MODELS = re.compile(r"^(o\d|gpt-5)")


def default_max_tokens_field(model: str) -> Literal["max_tokens", "max_completion_tokens"]:
    """The field an OpenAI model wants for the output limit.

    Reasoning models (``o1``, ``o3``, ``o4-*``, ``gpt-5*``) reject ``max_tokens``.
    """
    return "max_completion_tokens" if _REASONING_MODELS.match(model) else "max_tokens"
