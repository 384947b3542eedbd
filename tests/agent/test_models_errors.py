"""Provider error classification found against real servers, on a local HTTP server
speaking the real wire formats (OpenAI Chat Completions and Anthropic Messages SSE).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from tether.agent.models import (
    AnthropicModel,
    ModelRequest,
    ModelSettings,
    OpenAIChatModel,
    UserMessage,
    collect_response,
    resolve_model,
)
from tether.errors import ModelError

if TYPE_CHECKING:
    from _providers import ProviderServer


def data(payload: Any) -> str:
    return f"data: {json.dumps(payload)}\n\n"


def openai_chunk(content: str) -> str:
    return data(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}],
        }
    )


def openai(server: ProviderServer, model: str = "gpt-4o-mini", **options: Any) -> OpenAIChatModel:
    return OpenAIChatModel(model, base_url=f"{server.url}/v1", api_key="sk-test", **options)


def anthropic(server: ProviderServer) -> AnthropicModel:
    return AnthropicModel("claude-test", base_url=server.url, api_key="sk-ant-test")


def request(settings: ModelSettings | None = None) -> ModelRequest:
    return ModelRequest(messages=(UserMessage(text="Hi"),), settings=settings or ModelSettings())


async def failure(model: Any) -> ModelError:
    with pytest.raises(ModelError) as caught:
        await collect_response(model.stream(request()))
    return caught.value


# -- a corrupted chunk is a bad answer, retried ----------------------------------------------


async def test_a_corrupted_openai_chunk_is_retryable(provider_server: ProviderServer) -> None:
    provider_server.sse([openai_chunk("a"), "data: {not json\n\n", "data: [DONE]\n\n"])
    error = await failure(openai(provider_server))
    assert error.retryable is True and "malformed stream chunk" in str(error)


async def test_a_corrupted_anthropic_event_is_retryable(provider_server: ProviderServer) -> None:
    provider_server.sse(["event: message_start\ndata: {broken\n\n"])
    error = await failure(anthropic(provider_server))
    assert error.retryable is True and "malformed stream event" in str(error)


# -- error objects in the middle of a stream ----------------------------------------------------


@pytest.mark.parametrize(
    ("code", "retryable"), [("500", True), ("503", True), ("400", False), ("429", True)]
)
async def test_a_string_code_and_a_null_type_are_classified_by_the_code(
    provider_server: ProviderServer, code: str, retryable: bool
) -> None:
    provider_server.sse(
        [openai_chunk("a"), data({"error": {"message": "boom", "type": None, "code": code}})]
    )
    error = await failure(openai(provider_server))
    assert (error.retryable, error.status_code) == (retryable, int(code))


async def test_insufficient_quota_fails_at_once(provider_server: ProviderServer) -> None:
    body = {
        "error": {
            "message": "You exceeded your current quota, please check your plan and billing.",
            "type": "insufficient_quota",
            "param": None,
            "code": "insufficient_quota",
        }
    }
    provider_server.json_error(429, body, retry_after="20")
    error = await failure(openai(provider_server))
    assert (error.status_code, error.retryable, error.retry_after) == (429, False, None)
    assert "quota" in str(error)
    # The same error in the middle of a stream.
    provider_server.sse([openai_chunk("a"), data(body)])
    assert (await failure(openai(provider_server))).retryable is False


# -- request bodies ------------------------------------------------------------------------------


async def test_openai_sends_max_completion_tokens(provider_server: ProviderServer) -> None:
    done = [
        openai_chunk("ok"),
        data({"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        "data: [DONE]\n\n",
    ]
    settings = ModelSettings(max_tokens=64)
    for _ in range(3):
        provider_server.sse(list(done))
    # OpenAI's own API: o-series models reject max_tokens; every model takes this field.
    hosted = resolve_model(
        "openai:o3-mini", env={"OPENAI_API_KEY": "sk"}, base_url=f"{provider_server.url}/v1"
    )
    await collect_response(hosted.stream(request(settings)))
    # An OpenAI-compatible server (vLLM, Ollama, llama.cpp) keeps max_tokens.
    compatible = resolve_model(
        "openai-compatible:qwen", env={}, base_url=f"{provider_server.url}/v1"
    )
    await collect_response(compatible.stream(request(settings)))
    chosen = openai(provider_server, max_tokens_field="max_completion_tokens")
    await collect_response(chosen.stream(request(settings)))
    bodies = [r.json() for r in provider_server.requests]
    assert bodies[0]["max_completion_tokens"] == 64 and "max_tokens" not in bodies[0]
    assert bodies[1]["max_tokens"] == 64 and "max_completion_tokens" not in bodies[1]
    assert bodies[2]["max_completion_tokens"] == 64


async def test_anthropic_sends_no_sampling_field_unasked(provider_server: ProviderServer) -> None:
    events = [
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"c",'
        '"usage":{"input_tokens":1,"output_tokens":0}}}\n\n',
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,'
        '"content_block":{"type":"text","text":""}}\n\n',
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
        '"delta":{"type":"text_delta","text":"hi"}}\n\n',
        'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},'
        '"usage":{"output_tokens":1}}\n\n',
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ]
    provider_server.sse(list(events))
    provider_server.sse(list(events))
    model = anthropic(provider_server)
    await collect_response(model.stream(request()))
    await collect_response(model.stream(request(ModelSettings(temperature=0.2, top_p=0.9))))
    plain, asked = (r.json() for r in provider_server.requests)
    sampling = {"temperature", "top_p", "top_k", "stop_sequences"}
    assert sampling.isdisjoint(plain)
    # Recent models take one of temperature and top_p: only the first asked is sent.
    assert asked.get("temperature") == 0.2 and "top_p" not in asked
