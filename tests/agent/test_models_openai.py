from __future__ import annotations

import json
import pickle
import sys
from typing import TYPE_CHECKING, Any

import pytest

from tether.agent.models import (
    AssistantMessage,
    ModelRequest,
    ModelSettings,
    OpenAIChatModel,
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
    forbid_network_models,
    parse_tool_arguments,
    resolve_model,
)
from tether.errors import ConfigurationError, MissingExtraError, ModelError

if TYPE_CHECKING:
    from _providers import ProviderServer

WEATHER = ToolDefinition(
    name="get_weather",
    description="Weather for a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)


def data(payload: Any) -> str:
    return f"data: {json.dumps(payload)}\n\n"


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None) -> str:
    return data(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "model": "gpt-4o-mini-2024-07-18",
            "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}],
        }
    )


def usage(prompt: int, completion: int) -> str:
    return data(
        {
            "id": "chatcmpl-1",
            "choices": [],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
    )


def tool_fragment(index: int, *, id: str = "", name: str = "", args: str = "") -> dict[str, Any]:
    fragment: dict[str, Any] = {"index": index, "function": {"arguments": args}}
    if id:
        fragment["id"] = id
        fragment["type"] = "function"
    if name:
        fragment["function"]["name"] = name
    return {"tool_calls": [fragment]}


DONE = "data: [DONE]\n\n"


def model(server: ProviderServer, **options: Any) -> OpenAIChatModel:
    options.setdefault("api_key", "sk-test")
    return OpenAIChatModel("gpt-4o-mini", base_url=f"{server.url}/v1", **options)


def request(**overrides: Any) -> ModelRequest:
    return ModelRequest(
        instructions=overrides.pop("instructions", "Be brief."),
        messages=overrides.pop("messages", (UserMessage(text="Hi"),)),
        **overrides,
    )


async def run(m: OpenAIChatModel, req: ModelRequest) -> list[StreamEvent]:
    return [event async for event in m.stream(req)]


async def test_streams_text_and_sends_the_chat_completions_body(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(
        [
            chunk({"role": "assistant", "content": ""}),
            chunk({"content": "Hel"}),
            chunk({"content": "lo "}) + chunk({"content": "wörld"}),
            chunk(finish="stop"),
            usage(12, 3),
            DONE,
        ]
    )
    prior_call = parse_tool_arguments("call_0", "get_weather", '{"city": "Oslo"}')
    req = request(
        messages=(
            UserMessage(text="Weather in Oslo?"),
            AssistantMessage(text="", tool_calls=(prior_call,)),
            ToolResultMessage(call_id="call_0", name="get_weather", content='{"temp": 3}'),
            UserMessage(text="Thanks"),
        ),
        tools=(WEATHER,),
        settings=ModelSettings(max_tokens=100, temperature=0.2, stop=("END",)),
    )
    events = await run(model(provider_server), req)

    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Hel", "lo ", "wörld"]
    assert events[-2] == UsageUpdate(usage=events[-1].response.usage)  # type: ignore[union-attr]
    final = events[-1]
    assert isinstance(final, ResponseComplete)
    response = final.response
    assert response.text == "Hello wörld"
    assert response.tool_calls == ()
    assert response.stop_reason == "end_turn"
    assert response.provider_stop_reason == "stop"
    assert (response.usage.input_tokens, response.usage.output_tokens) == (12, 3)
    assert response.model == "gpt-4o-mini-2024-07-18"
    assert response.response_id == "chatcmpl-1"

    [received] = provider_server.requests
    assert (received.method, received.path) == ("POST", "/v1/chat/completions")
    assert received.headers["authorization"] == "Bearer sk-test"
    assert received.headers["content-type"] == "application/json"
    body = received.json()
    assert body["model"] == "gpt-4o-mini"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_tokens"] == 100
    assert body["temperature"] == 0.2
    assert body["stop"] == ["END"]
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Oslo?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_0",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_0", "content": '{"temp": 3}'},
        {"role": "user", "content": "Thanks"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ]


async def test_tool_call_arguments_split_across_chunks_and_bytes(
    provider_server: ProviderServer,
) -> None:
    stream = (
        chunk({"role": "assistant", "content": None})
        + chunk(tool_fragment(0, id="call_abc", name="get_weather"))
        + chunk(tool_fragment(0, args='{"ci'))
        + chunk(tool_fragment(0, args='ty": "Zü'))
        + chunk(tool_fragment(0, args='rich"}'))
        + chunk(finish="tool_calls")
        + DONE
    ).encode()
    # Cut the body into 7-byte pieces: lines, events and a UTF-8 character get split.
    provider_server.sse([stream[i : i + 7] for i in range(0, len(stream), 7)])
    events = await run(model(provider_server, include_usage=False), request(tools=(WEATHER,)))

    starts = [e for e in events if isinstance(e, ToolCallStart)]
    assert starts == [ToolCallStart(index=0, call_id="call_abc", name="get_weather")]
    fragments = [e.delta for e in events if isinstance(e, ToolCallArgsDelta)]
    assert fragments == ['{"ci', 'ty": "Zü', 'rich"}']
    [complete] = [e for e in events if isinstance(e, ToolCallComplete)]
    assert complete.call.arguments == {"city": "Zürich"}
    assert complete.call.parse_error is None
    response = events[-1].response  # type: ignore[union-attr]
    assert response.stop_reason == "tool_calls"
    assert response.tool_calls == (complete.call,)
    assert "stream_options" not in provider_server.requests[0].json()


async def test_parallel_tool_calls_interleaved(provider_server: ProviderServer) -> None:
    provider_server.sse(
        [
            chunk({"role": "assistant", "content": "Checking both."}),
            chunk(tool_fragment(0, id="call_a", name="get_weather", args='{"city"')),
            chunk(tool_fragment(1, id="call_b", name="get_weather", args='{"city": ')),
            chunk(tool_fragment(0, args=': "Oslo"}')),
            chunk(tool_fragment(1, args='"Rome"}')),
            chunk(finish="tool_calls"),
            usage(40, 20),
            DONE,
        ]
    )
    response = await collect_response(model(provider_server).stream(request(tools=(WEATHER,))))
    assert response.text == "Checking both."
    assert [(c.call_id, c.name, dict(c.arguments)) for c in response.tool_calls] == [
        ("call_a", "get_weather", {"city": "Oslo"}),
        ("call_b", "get_weather", {"city": "Rome"}),
    ]
    assert response.usage.total_tokens == 60


async def test_invalid_tool_arguments_are_reported_not_raised(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(
        [
            chunk(tool_fragment(0, id="call_x", name="get_weather", args='{"city": ')),
            chunk(finish="tool_calls"),
            DONE,
        ]
    )
    response = await collect_response(model(provider_server).stream(request()))
    [call] = response.tool_calls
    assert call.arguments == {}
    assert call.parse_error is not None and "not valid JSON" in call.parse_error
    assert call.arguments_json == '{"city": '


async def test_crlf_lines_comments_and_no_key(provider_server: ProviderServer) -> None:
    body = (
        ": keep-alive\r\n\r\n"
        + chunk({"content": "ok"}).replace("\n", "\r\n")
        + chunk(finish="stop").replace("\n", "\r\n")
        + DONE.replace("\n", "\r\n")
    )
    provider_server.sse([body])
    m = OpenAIChatModel("llama3.1", base_url=f"{provider_server.url}/v1/", provider="ollama")
    response = await collect_response(m.stream(request()))
    assert response.text == "ok"
    assert "authorization" not in provider_server.requests[0].headers
    assert provider_server.requests[0].path == "/v1/chat/completions"
    assert m.name == "ollama:llama3.1"


async def test_429_is_retryable_and_honours_retry_after(provider_server: ProviderServer) -> None:
    provider_server.json_error(
        429,
        {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit"}},
        retry_after="7",
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    error = caught.value
    assert (error.status_code, error.retryable, error.retry_after) == (429, True, 7.0)
    assert error.provider == "openai"
    assert "Rate limit reached" in str(error)


async def test_retry_after_ms_wins(provider_server: ProviderServer) -> None:
    provider_server.json_error(429, {"error": {"message": "slow down"}}, retry_after_ms="1500")
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retry_after == 1.5


async def test_retry_after_as_an_http_date(provider_server: ProviderServer) -> None:
    provider_server.json_error(
        503, {"error": {"message": "x"}}, retry_after="Wed, 21 Oct 2015 07:28:00 GMT"
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retry_after == 0.0  # a date in the past: retry now


@pytest.mark.parametrize("status", [500, 502, 503, 529])
async def test_server_errors_are_retryable(provider_server: ProviderServer, status: int) -> None:
    provider_server.json_error(status, {"error": {"message": "upstream broke"}})
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is True
    assert caught.value.status_code == status
    assert caught.value.retry_after is None


@pytest.mark.parametrize(
    ("status", "hint"),
    [
        (401, "check OPENAI_API_KEY"),
        (403, "may not use model 'gpt-4o-mini'"),
        (404, "check the model name 'gpt-4o-mini'"),
        (400, "fix it before retrying"),
    ],
)
async def test_client_errors_are_not_retryable_and_say_what_to_fix(
    provider_server: ProviderServer, status: int, hint: str
) -> None:
    provider_server.json_error(
        status, {"error": {"message": "Incorrect API key provided", "type": "invalid_request"}}
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is False
    assert caught.value.status_code == status
    assert hint in str(caught.value)
    assert "Incorrect API key provided" in str(caught.value)


async def test_stalled_stream_is_abandoned_as_retryable(provider_server: ProviderServer) -> None:
    provider_server.sse([chunk({"content": "partial"}), provider_server.STALL])
    seen: list[StreamEvent] = []
    with pytest.raises(ModelError) as caught:
        async for event in model(provider_server, stall_timeout=0.3).stream(request()):
            seen.append(event)
    assert seen == [TextDelta(text="partial")]
    assert caught.value.retryable is True
    assert "stalled" in str(caught.value)


async def test_no_headers_within_stall_timeout_is_retryable(
    provider_server: ProviderServer,
) -> None:
    provider_server.hang()
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server, stall_timeout=0.3).stream(request()))
    assert caught.value.retryable is True
    assert "stalled" in str(caught.value)


async def test_malformed_chunk_is_a_clear_error(provider_server: ProviderServer) -> None:
    provider_server.sse([chunk({"content": "a"}), "data: {not json\n\n", DONE])
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is True  # a bad answer: another call may do
    assert "malformed stream chunk" in str(caught.value)
    assert "{not json" in str(caught.value)


async def test_error_chunk_in_stream(provider_server: ProviderServer) -> None:
    provider_server.sse(
        [chunk({"content": "a"}), data({"error": {"message": "overloaded", "code": 503}})]
    )
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert (caught.value.retryable, caught.value.status_code) == (True, 503)


async def test_truncated_stream_is_retryable(provider_server: ProviderServer) -> None:
    provider_server.sse([chunk({"content": "half an ans"})])
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is True
    assert "ended before" in str(caught.value)


async def test_json_instead_of_a_stream_is_a_clear_error(provider_server: ProviderServer) -> None:
    provider_server.json_error(200, {"detail": "Not an OpenAI endpoint"})
    with pytest.raises(ModelError) as caught:
        await collect_response(model(provider_server).stream(request()))
    assert caught.value.retryable is False
    assert "text/event-stream" in str(caught.value)


async def test_connection_refused_is_retryable(provider_server: ProviderServer) -> None:
    url = provider_server.url
    await provider_server.stop()
    m = OpenAIChatModel("gpt-4o-mini", base_url=url, api_key="k", connect_timeout=2)
    with pytest.raises(ModelError) as caught:
        await collect_response(m.stream(request()))
    assert caught.value.retryable is True
    assert "connection" in str(caught.value)
    await provider_server.start()  # the fixture stops it again


async def test_model_error_pickles_with_its_fields() -> None:
    error = ModelError("boom", provider="openai", status_code=429, retryable=True, retry_after=2.0)
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.provider, copy.status_code, copy.retryable, copy.retry_after) == (
        "boom",
        "openai",
        429,
        True,
        2.0,
    )


def test_resolve_openai_reads_the_environment() -> None:
    m = resolve_model("openai:gpt-4o-mini", env={"OPENAI_API_KEY": "sk-env"}, stall_timeout=5.0)
    assert isinstance(m, OpenAIChatModel)
    assert (m.name, m.api_key, m.base_url, m.stall_timeout) == (
        "openai:gpt-4o-mini",
        "sk-env",
        "https://api.openai.com/v1",
        5.0,
    )
    local = resolve_model("openai:qwen2.5", env={"OPENAI_BASE_URL": "http://localhost:8000/v1"})
    assert isinstance(local, OpenAIChatModel)
    assert (local.base_url, local.api_key) == ("http://localhost:8000/v1", None)
    compatible = resolve_model(
        "openai-compatible:llama3.1", env={}, base_url="http://localhost:11434/v1"
    )
    assert compatible.name == "openai-compatible:llama3.1"


def test_resolve_explains_what_is_missing() -> None:
    with pytest.raises(ConfigurationError, match="set OPENAI_API_KEY"):
        resolve_model("openai:gpt-4o-mini", env={})
    with pytest.raises(ConfigurationError, match="needs a base URL"):
        resolve_model("openai-compatible:llama3.1", env={})
    with pytest.raises(ConfigurationError, match=r"unknown model provider 'gemeni'"):
        resolve_model("gemeni:pro", env={})
    with pytest.raises(ConfigurationError, match="provider:model"):
        resolve_model("gpt-4o-mini", env={})
    with pytest.raises(ConfigurationError, match="invalid option"):
        resolve_model("openai:gpt-4o-mini", env={"OPENAI_API_KEY": "k"}, temprature=0)


async def test_forbid_network_models(provider_server: ProviderServer) -> None:
    m = model(provider_server)
    with forbid_network_models():
        with pytest.raises(ConfigurationError, match="ScriptedModel"):
            resolve_model("openai:gpt-4o-mini", env={"OPENAI_API_KEY": "k"})
        with pytest.raises(ConfigurationError, match="forbidden"):
            await collect_response(m.stream(request()))
    assert provider_server.requests == []
    assert resolve_model(m) is m


def test_missing_httpx_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'tether\[openai\]'"):
        OpenAIChatModel("gpt-4o-mini", api_key="k")


async def test_cached_and_reasoning_tokens_are_kept(provider_server: ProviderServer) -> None:
    provider_server.sse(
        [
            chunk({"role": "assistant", "content": "Hi"}),
            chunk(finish="stop"),
            data(
                {
                    "id": "chatcmpl-1",
                    "choices": [],
                    "usage": {
                        "prompt_tokens": 1200,
                        "completion_tokens": 90,
                        "total_tokens": 1290,
                        "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
                        "completion_tokens_details": {"reasoning_tokens": 64},
                    },
                }
            ),
            DONE,
        ]
    )
    response = await collect_response(model(provider_server).stream(request()))
    usage = response.usage
    assert (usage.input_tokens, usage.output_tokens, usage.cached_tokens) == (1200, 90, 1024)
    assert usage.details == {
        "prompt_tokens": 1200,
        "completion_tokens": 90,
        "total_tokens": 1290,
        "prompt_tokens_details.cached_tokens": 1024,
        "prompt_tokens_details.audio_tokens": 0,
        "completion_tokens_details.reasoning_tokens": 64,
    }
