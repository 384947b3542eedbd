from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from tether.agent.models import (
    AnthropicModel,
    AssistantMessage,
    ModelRequest,
    ModelSettings,
    ResponseComplete,
    StreamEvent,
    TextDelta,
    ToolCallArgsDelta,
    ToolCallComplete,
    ToolCallStart,
    ToolDefinition,
    ToolResultMessage,
    UsageUpdate,
    UserMessage,
    collect_response,
    parse_tool_arguments,
    resolve_model,
)
from tether.errors import ConfigurationError, ModelError

if TYPE_CHECKING:
    from _providers import ProviderServer

WEATHER = ToolDefinition(
    name="get_weather",
    description="Weather for a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)


def event(name: str, **payload: Any) -> str:
    return f"event: {name}\ndata: {json.dumps({'type': name, **payload})}\n\n"


def message_start(input_tokens: int = 25, usage: dict[str, int] | None = None) -> str:
    return event(
        "message_start",
        message={
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": "claude-sonnet-4-5-20250929",
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage or {"input_tokens": input_tokens, "output_tokens": 1},
        },
    )


def text_block(index: int, *parts: str) -> list[str]:
    return [
        event("content_block_start", index=index, content_block={"type": "text", "text": ""}),
        *(
            event("content_block_delta", index=index, delta={"type": "text_delta", "text": part})
            for part in parts
        ),
        event("content_block_stop", index=index),
    ]


def tool_block(index: int, call_id: str, name: str, *fragments: str) -> list[str]:
    return [
        event(
            "content_block_start",
            index=index,
            content_block={"type": "tool_use", "id": call_id, "name": name, "input": {}},
        ),
        *(
            event(
                "content_block_delta",
                index=index,
                delta={"type": "input_json_delta", "partial_json": fragment},
            )
            for fragment in fragments
        ),
        event("content_block_stop", index=index),
    ]


def message_end(stop_reason: str, output_tokens: int) -> list[str]:
    return [
        event(
            "message_delta",
            delta={"stop_reason": stop_reason, "stop_sequence": None},
            usage={"output_tokens": output_tokens},
        ),
        event("message_stop"),
    ]


PING = event("ping")


def model(server: ProviderServer, **options: Any) -> AnthropicModel:
    return AnthropicModel(
        "claude-sonnet-4-5", api_key="sk-ant-test", base_url=server.url, **options
    )


def request(**overrides: Any) -> ModelRequest:
    return ModelRequest(
        instructions=overrides.pop("instructions", "Be brief."),
        messages=overrides.pop("messages", (UserMessage(text="Hi"),)),
        **overrides,
    )


async def run(m: AnthropicModel, req: ModelRequest) -> list[StreamEvent]:
    return [e async for e in m.stream(req)]


async def test_streams_text_and_sends_the_messages_body(provider_server: ProviderServer) -> None:
    provider_server.sse(
        [
            message_start(),
            PING,
            *text_block(0, "Hel", "lo ", "wörld"),
            *message_end("end_turn", 7),
        ]
    )
    call = parse_tool_arguments("toolu_0", "get_weather", '{"city": "Oslo"}')
    req = request(
        messages=(
            UserMessage(text="Weather in Oslo?"),
            AssistantMessage(text="Let me check.", tool_calls=(call,)),
            ToolResultMessage(call_id="toolu_0", name="get_weather", content="3 C"),
            ToolResultMessage(call_id="toolu_9", name="get_weather", content="no", is_error=True),
            UserMessage(text="Thanks"),
        ),
        tools=(WEATHER,),
        settings=ModelSettings(temperature=0.5, stop=("END",)),
    )
    events = await run(model(provider_server), req)

    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo ", "wörld"]
    assert isinstance(events[0], UsageUpdate)
    final = events[-1]
    assert isinstance(final, ResponseComplete)
    response = final.response
    assert response.text == "Hello wörld"
    assert response.stop_reason == "end_turn"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (25, 7)
    assert response.model == "claude-sonnet-4-5-20250929"
    assert response.response_id == "msg_01"

    [received] = provider_server.requests
    assert (received.method, received.path) == ("POST", "/v1/messages")
    assert received.headers["x-api-key"] == "sk-ant-test"
    assert received.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in received.headers
    body = received.json()
    assert body["model"] == "claude-sonnet-4-5"
    assert body["stream"] is True
    assert body["max_tokens"] == 4096
    assert body["system"] == "Be brief."
    assert body["temperature"] == 0.5
    assert body["stop_sequences"] == ["END"]
    assert body["tools"] == [
        {
            "name": "get_weather",
            "description": "Weather for a city",
            "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
        }
    ]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Weather in Oslo?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me check."},
                {
                    "type": "tool_use",
                    "id": "toolu_0",
                    "name": "get_weather",
                    "input": {"city": "Oslo"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_0", "content": "3 C"},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_9",
                    "content": "no",
                    "is_error": True,
                },
                {"type": "text", "text": "Thanks"},
            ],
        },
    ]


async def test_parallel_tool_calls_with_split_json(provider_server: ProviderServer) -> None:
    body = "".join(
        [
            message_start(),
            *text_block(0, "Checking."),
            *tool_block(1, "toolu_a", "get_weather", '{"ci', 'ty": "Zü', 'rich"}'),
            PING,
            *tool_block(2, "toolu_b", "get_weather", "", '{"city": "Rome"}'),
            *message_end("tool_use", 40),
        ]
    ).encode()
    # 5-byte HTTP chunks split lines, events and UTF-8 characters.
    provider_server.sse([body[i : i + 5] for i in range(0, len(body), 5)])
    events = await run(model(provider_server), request(tools=(WEATHER,)))

    assert [e for e in events if isinstance(e, ToolCallStart)] == [
        ToolCallStart(index=0, call_id="toolu_a", name="get_weather"),
        ToolCallStart(index=1, call_id="toolu_b", name="get_weather"),
    ]
    assert [(e.index, e.delta) for e in events if isinstance(e, ToolCallArgsDelta)] == [
        (0, '{"ci'),
        (0, 'ty": "Zü'),
        (0, 'rich"}'),
        (1, '{"city": "Rome"}'),
    ]
    completes = [e for e in events if isinstance(e, ToolCallComplete)]
    assert [dict(e.call.arguments) for e in completes] == [{"city": "Zürich"}, {"city": "Rome"}]
    response = events[-1].response  # type: ignore[union-attr]
    assert response.text == "Checking."
    assert response.stop_reason == "tool_calls"
    assert response.provider_stop_reason == "tool_use"
    assert [c.call_id for c in response.tool_calls] == ["toolu_a", "toolu_b"]


async def test_tool_without_arguments_and_unknown_blocks(provider_server: ProviderServer) -> None:
    provider_server.sse(
        [
            message_start(),
            event(
                "content_block_start",
                index=0,
                content_block={"type": "thinking", "thinking": "", "signature": ""},
            ),
            event(
                "content_block_delta",
                index=0,
                delta={"type": "thinking_delta", "thinking": "hmm"},
            ),
            event("content_block_stop", index=0),
            *tool_block(1, "toolu_n", "now"),
            event("some_future_event", detail=1),
            *message_end("tool_use", 3),
        ]
    )
    response = await collect_response(model(provider_server).stream(request()))
    assert response.text == ""
    [call] = response.tool_calls
    assert (call.name, dict(call.arguments), call.parse_error) == ("now", {}, None)


async def test_max_tokens_setting_and_extra_headers(provider_server: ProviderServer) -> None:
    provider_server.sse([message_start(), *text_block(0, "x"), *message_end("max_tokens", 1)])
    m = model(provider_server, headers={"anthropic-beta": "tools-2024"})
    response = await collect_response(
        m.stream(request(instructions=None, settings=ModelSettings(max_tokens=1)))
    )
    assert response.stop_reason == "max_tokens"
    received = provider_server.requests[0]
    assert received.headers["anthropic-beta"] == "tools-2024"
    assert received.json()["max_tokens"] == 1
    assert "system" not in received.json()


async def test_429_is_retryable_with_retry_after(provider_server: ProviderServer) -> None:
    provider_server.json_error(
        429,
        {"type": "error", "error": {"type": "rate_limit_error", "message": "Slow down"}},
        retry_after="12",
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    error = caught.value
    assert (error.provider, error.status_code, error.retryable, error.retry_after) == (
        "anthropic",
        429,
        True,
        12.0,
    )
    assert "rate_limit_error: Slow down" in str(error)


@pytest.mark.parametrize("status", [500, 503, 529])
async def test_server_errors_and_overload_are_retryable(
    provider_server: ProviderServer, status: int
) -> None:
    provider_server.json_error(
        status, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert (caught.value.status_code, caught.value.retryable) == (status, True)


async def test_401_is_not_retryable_and_names_the_key(provider_server: ProviderServer) -> None:
    provider_server.json_error(
        401,
        {
            "type": "error",
            "error": {"type": "authentication_error", "message": "invalid x-api-key"},
        },
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is False
    assert "check ANTHROPIC_API_KEY" in str(caught.value)
    assert "invalid x-api-key" in str(caught.value)


async def test_overloaded_error_event_mid_stream_is_retryable(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(
        [
            message_start(),
            event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
            event("content_block_delta", index=0, delta={"type": "text_delta", "text": "partial"}),
            event("error", error={"type": "overloaded_error", "message": "Overloaded"}),
        ]
    )
    seen: list[StreamEvent] = []
    with pytest.raises(ModelError) as caught:
        async for e in model(provider_server).stream(request()):
            seen.append(e)
    assert TextDelta(text="partial") in seen
    assert caught.value.retryable is True
    assert "overloaded_error" in str(caught.value)


async def test_invalid_request_error_event_is_not_retryable(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(
        [event("error", error={"type": "invalid_request_error", "message": "bad tool schema"})]
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is False


async def test_stalled_stream_is_abandoned_as_retryable(provider_server: ProviderServer) -> None:
    provider_server.sse([message_start(), *text_block(0, "partial")[:2], provider_server.STALL])
    seen: list[StreamEvent] = []
    with pytest.raises(ModelError) as caught:
        async for e in model(provider_server, stall_timeout=0.3).stream(request()):
            seen.append(e)
    assert TextDelta(text="partial") in seen
    assert caught.value.retryable is True
    assert "stalled" in str(caught.value)


async def test_malformed_event_is_a_clear_error(provider_server: ProviderServer) -> None:
    provider_server.sse([message_start(), "event: content_block_delta\ndata: {oops\n\n"])
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is True  # a bad answer: another call may do
    assert "malformed stream event" in str(caught.value)


async def test_event_with_missing_fields_is_a_clear_error(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse([message_start(), event("content_block_delta", index=3, delta={})])
    with pytest.raises(ModelError, match="malformed stream event") as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is True  # a bad answer: another call may do


async def test_stream_without_message_stop_is_retryable(provider_server: ProviderServer) -> None:
    provider_server.sse([message_start(), *text_block(0, "cut")])
    with pytest.raises(ModelError, match="before message_stop") as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is True


def test_resolve_anthropic_reads_the_environment() -> None:
    m = resolve_model(
        "anthropic:claude-sonnet-4-5",
        env={"ANTHROPIC_API_KEY": "sk-ant", "ANTHROPIC_BASE_URL": "http://proxy:8080/"},
    )
    assert isinstance(m, AnthropicModel)
    assert (m.name, m.api_key, m.base_url) == (
        "anthropic:claude-sonnet-4-5",
        "sk-ant",
        "http://proxy:8080",
    )
    with pytest.raises(ConfigurationError, match="set ANTHROPIC_API_KEY"):
        resolve_model("anthropic:claude-sonnet-4-5", env={})


async def test_cache_reads_and_writes_are_kept(provider_server: ProviderServer) -> None:
    start = message_start(
        usage={
            "input_tokens": 20,
            "cache_creation_input_tokens": 100,
            "cache_read_input_tokens": 2000,
            "output_tokens": 1,
        }
    )
    provider_server.sse([start, *text_block(0, "Hi"), *message_end("end_turn", 9)])
    response = await collect_response(model(provider_server).stream(request()))
    usage = response.usage
    # Input counts every input token: fresh, written to the cache and read from it.
    assert (usage.input_tokens, usage.output_tokens, usage.cached_tokens) == (2120, 9, 2000)
    assert usage.details["cache_creation_input_tokens"] == 100
    assert usage.details["output_tokens"] == 9
