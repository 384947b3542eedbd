"""What the model sees of an MCP tool's result: its content as text.

Text blocks are shown as they are, one after the other. Images, audio and binary
resources are named with their type and size (their bytes are not sent to the model);
resource links and embedded text resources show their address and text. A result with
no content but structured content shows that as JSON.
"""

from __future__ import annotations

import base64
import binascii

import orjson
from mcp_types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
)

__all__ = ["result_text"]


def result_text(result: CallToolResult) -> str:
    """The text for the model of a tool's result (an error's text too)."""
    parts = [_block(block) for block in result.content]
    if not parts and result.structured_content is not None:
        return orjson.dumps(result.structured_content, option=orjson.OPT_SORT_KEYS).decode()
    return "\n".join(parts)


def _block(block: ContentBlock) -> str:
    if isinstance(block, TextContent):
        return block.text
    if isinstance(block, ImageContent | AudioContent):
        kind = "image" if isinstance(block, ImageContent) else "audio"
        return f"[{kind}: {block.mime_type}, {_size(block.data)} bytes]"
    if isinstance(block, ResourceLink):
        return f"[resource link: {block.name} <{block.uri}>]"
    assert isinstance(block, EmbeddedResource)
    resource = block.resource
    if isinstance(resource, BlobResourceContents):
        mime = resource.mime_type or "application/octet-stream"
        return f"[resource: <{resource.uri}>, {mime}, {_size(resource.blob)} bytes]"
    return f"[resource: <{resource.uri}>]\n{resource.text}"


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return len(data)
