"""Files and images in model requests: the exact wire parts each provider is sent."""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

import pytest

from tether.agent.models import (
    AnthropicModel,
    AttachmentData,
    ModelRequest,
    OpenAIChatModel,
    UserMessage,
    accepts_attachment,
    attachment_kind,
    collect_response,
)
from tether.errors import ModelError

if TYPE_CHECKING:
    from _providers import ProviderServer

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(40))
PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n"
NOTES = "line one\nzwei: ü\n".encode()

IMAGE = AttachmentData(data=PNG, mime_type="image/png", filename="chart.png")
DOCUMENT = AttachmentData(data=PDF, mime_type="application/pdf", filename="report.pdf")
TEXT = AttachmentData(data=NOTES, mime_type="text/markdown", filename='notes "v2".md')


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def openai_done() -> list[str]:
    def data(payload: Any) -> str:
        return f"data: {json.dumps(payload)}\n\n"

    choice = {"index": 0, "delta": {"content": "ok"}, "finish_reason": None}
    end = {"index": 0, "delta": {}, "finish_reason": "stop"}
    return [
        data({"id": "c1", "model": "gpt-4o", "choices": [choice]}),
        data({"id": "c1", "model": "gpt-4o", "choices": [end]}),
        "data: [DONE]\n\n",
    ]


def anthropic_done() -> list[str]:
    def event(name: str, **payload: Any) -> str:
        return f"event: {name}\ndata: {json.dumps({'type': name, **payload})}\n\n"

    message = {"id": "m1", "model": "claude", "usage": {"input_tokens": 1, "output_tokens": 1}}
    return [
        event("message_start", message=message),
        event("content_block_start", index=0, content_block={"type": "text", "text": ""}),
        event("content_block_delta", index=0, delta={"type": "text_delta", "text": "ok"}),
        event("content_block_stop", index=0),
        event("message_delta", delta={"stop_reason": "end_turn"}, usage={"output_tokens": 1}),
        event("message_stop"),
    ]


def request(*attachments: AttachmentData, text: str = "What is in these?") -> ModelRequest:
    return ModelRequest(
        messages=(
            UserMessage(text="Earlier, no files"),
            UserMessage(text=text, attachments=attachments),
        )
    )


TEXT_PART = (
    '<attachment name="notes &quot;v2&quot;.md" type="text/markdown">\n'
    "line one\nzwei: ü\n\n</attachment>"
)


async def test_openai_gets_image_url_file_and_text_parts(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(openai_done())
    model = OpenAIChatModel("gpt-4o", base_url=f"{provider_server.url}/v1", api_key="sk")
    response = await collect_response(model.stream(request(IMAGE, DOCUMENT, TEXT)))
    assert response.text == "ok"
    body = provider_server.requests[0].json()
    assert body["messages"] == [
        {"role": "user", "content": "Earlier, no files"},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in these?"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{b64(PNG)}"}},
                {
                    "type": "file",
                    "file": {
                        "filename": "report.pdf",
                        "file_data": f"data:application/pdf;base64,{b64(PDF)}",
                    },
                },
                {"type": "text", "text": TEXT_PART},
            ],
        },
    ]


async def test_openai_message_of_files_alone_has_no_empty_text(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(openai_done())
    model = OpenAIChatModel("gpt-4o", base_url=f"{provider_server.url}/v1", api_key="sk")
    unnamed = AttachmentData(data=PDF, mime_type="application/pdf")
    await collect_response(model.stream(request(unnamed, text="")))
    content = provider_server.requests[0].json()["messages"][1]["content"]
    assert content == [
        {
            "type": "file",
            "file": {
                "filename": "attachment.pdf",
                "file_data": f"data:application/pdf;base64,{b64(PDF)}",
            },
        }
    ]


async def test_anthropic_gets_image_document_and_text_blocks(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(anthropic_done())
    model = AnthropicModel("claude-sonnet-4-5", api_key="k", base_url=provider_server.url)
    response = await collect_response(model.stream(request(IMAGE, DOCUMENT, TEXT)))
    assert response.text == "ok"
    body = provider_server.requests[0].json()
    # Neighbouring user messages merge into one (the API alternates roles); files come
    # before the words about them.
    assert body["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Earlier, no files"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": b64(PNG)},
                },
                {
                    "type": "document",
                    "source": {
                        "type": "base64",
                        "media_type": "application/pdf",
                        "data": b64(PDF),
                    },
                    "title": "report.pdf",
                },
                {"type": "text", "text": TEXT_PART},
                {"type": "text", "text": "What is in these?"},
            ],
        }
    ]


async def test_anthropic_message_of_files_alone_has_no_empty_text(
    provider_server: ProviderServer,
) -> None:
    provider_server.sse(anthropic_done())
    model = AnthropicModel("claude-sonnet-4-5", api_key="k", base_url=provider_server.url)
    only = ModelRequest(messages=(UserMessage(text="", attachments=(IMAGE,)),))
    await collect_response(model.stream(only))
    assert provider_server.requests[0].json()["messages"] == [
        {
            "role": "user",
            "content": [
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": b64(PNG)},
                }
            ],
        }
    ]


async def test_a_file_the_model_does_not_take_is_refused_before_any_request(
    provider_server: ProviderServer,
) -> None:
    compatible = OpenAIChatModel(
        "llama3.1", base_url=f"{provider_server.url}/v1", provider="openai-compatible"
    )
    assert not compatible.accepts_attachment("application/pdf")
    assert compatible.accepts_attachment("image/webp")
    with pytest.raises(ModelError, match="does not take 'application/pdf'") as caught:
        await collect_response(compatible.stream(request(DOCUMENT)))
    assert caught.value.retryable is False
    zip_file = AttachmentData(data=b"PK", mime_type="application/zip")
    claude = AnthropicModel("claude-sonnet-4-5", api_key="k", base_url=provider_server.url)
    with pytest.raises(ModelError, match="application/zip"):
        await collect_response(claude.stream(request(zip_file)))
    assert provider_server.requests == []
    images_only = AnthropicModel("c", api_key="k", attachment_kinds=["image"])
    assert images_only.accepts_attachment("image/png")
    assert not images_only.accepts_attachment("text/plain")


def test_kinds_and_what_model_strings_accept() -> None:
    assert attachment_kind("image/jpeg") == "image"
    assert attachment_kind("image/tiff") is None
    assert attachment_kind("application/pdf") == "pdf"
    assert attachment_kind("text/csv") == attachment_kind("application/json") == "text"
    assert attachment_kind("application/vnd.api+json") == "text"
    assert attachment_kind("application/octet-stream") is None
    assert accepts_attachment("openai:gpt-4o", "application/pdf")
    assert accepts_attachment("anthropic:claude-sonnet-4-5", "image/gif")
    assert not accepts_attachment("openai-compatible:llama3.1", "application/pdf")
    assert not accepts_attachment("anthropic:claude-sonnet-4-5", "application/zip")

    class Custom:
        name = "custom:any"

    assert accepts_attachment(Custom(), "application/zip")  # type: ignore[arg-type]
