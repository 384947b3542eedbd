"""Files and images in a model request: their bytes, their kind, what a model accepts.

A user message carries `AttachmentData` (the bytes, read from the attachment store
when the request is built). Each provider adapter turns them into its own wire parts:
images as image parts, PDFs as document (Anthropic) or file (OpenAI) parts, text-like
files as text parts. What a model takes is asked with `accepts_attachment`, so a
message with a file its model cannot read is refused when it is sent, not inside a
turn.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from ...errors import ModelError

if TYPE_CHECKING:
    from ._model import Model
    from ._types import ModelRequest

__all__ = [
    "ALL_KINDS",
    "IMAGE_TYPES",
    "AttachmentData",
    "AttachmentKind",
    "accepts_attachment",
    "attachment_kind",
    "check_request_attachments",
    "provider_kinds",
]

AttachmentKind: TypeAlias = Literal["image", "pdf", "text"]
"""How a model reads a file: as an image, a PDF document, or text."""

ALL_KINDS: frozenset[AttachmentKind] = frozenset({"image", "pdf", "text"})

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""The image types both OpenAI and Anthropic take."""

_TEXT_APPLICATION_TYPES = frozenset(
    {
        "application/json",
        "application/ld+json",
        "application/x-ndjson",
        "application/xml",
        "application/yaml",
        "application/x-yaml",
        "application/toml",
        "application/javascript",
        "application/typescript",
        "application/sql",
        "application/x-sh",
        "application/csv",
    }
)

# Chat Completions servers other than OpenAI's (vLLM, Ollama, ...) take image parts;
# few take OpenAI's file parts, so PDFs are refused for them unless configured.
_PROVIDER_KINDS: dict[str, frozenset[AttachmentKind]] = {
    "openai": ALL_KINDS,
    "anthropic": ALL_KINDS,
    "openai-compatible": frozenset({"image", "text"}),
}


def attachment_kind(mime_type: str) -> AttachmentKind | None:
    """How a model reads `mime_type` (a bare, lowercase type), or None if it cannot."""
    if mime_type in IMAGE_TYPES:
        return "image"
    if mime_type == "application/pdf":
        return "pdf"
    if (
        mime_type.startswith("text/")
        or mime_type in _TEXT_APPLICATION_TYPES
        or mime_type.endswith(("+json", "+xml"))
    ):
        return "text"
    return None


def provider_kinds(provider: str) -> frozenset[AttachmentKind]:
    """The kinds a built-in provider's models take by default."""
    return _PROVIDER_KINDS.get(provider, ALL_KINDS)


def accepts_attachment(model: str | Model, mime_type: str) -> bool:
    """Whether `model` (an object, or a ``"provider:model"`` string) takes `mime_type`.

    A model object answers with its own ``accepts_attachment(mime_type)`` method; one
    without it is given every type (it decides what to do with them). A string is
    answered by its provider's defaults, without resolving it (no key needed).
    """
    if isinstance(model, str):
        kind = attachment_kind(mime_type)
        provider = model.partition(":")[0].strip().lower()
        return kind is not None and kind in provider_kinds(provider)
    accepts = getattr(model, "accepts_attachment", None)
    if accepts is None:
        return True
    return bool(accepts(mime_type))


@dataclass(frozen=True, slots=True, kw_only=True)
class AttachmentData:
    """A file or image as a model request carries it: its bytes and type.

    Attributes:
        data: The bytes.
        mime_type: Their media type (bare and lowercase, e.g. ``"image/png"``).
        filename: The name it was given, if any (shown to the model for files).
    """

    data: bytes
    mime_type: str
    filename: str | None = None

    @property
    def kind(self) -> AttachmentKind | None:
        """How a model reads it (see `attachment_kind`)."""
        return attachment_kind(self.mime_type)

    def base64(self) -> str:
        """The bytes in standard base64."""
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        """A ``data:`` URL of the bytes."""
        return f"data:{self.mime_type};base64,{self.base64()}"

    def as_text(self) -> str:
        """A text file as a model is shown it: its content inside a marked block.

        The marks say where the file begins and ends and what it is, so the model
        reads it as the file's content, not as the user's words.
        """
        name = f' name="{html.escape(self.filename, quote=True)}"' if self.filename else ""
        body = self.data.decode("utf-8", errors="replace")
        return f'<attachment{name} type="{self.mime_type}">\n{body}\n</attachment>'


def check_request_attachments(
    provider: str, request: ModelRequest, kinds: Iterable[AttachmentKind]
) -> None:
    """Refuse a request carrying a file the model does not take.

    Sessions check this when a message is sent; this is the last guard, for a model
    changed in between or a request built by hand.

    Raises:
        ModelError: (not retryable) naming the file and what the model takes.
    """
    allowed = frozenset(kinds)
    for message in request.messages:
        for item in getattr(message, "attachments", ()):
            if item.kind not in allowed:
                raise ModelError(
                    f"{provider}: this model does not take {item.mime_type!r} attachments "
                    f"({item.filename or 'unnamed'}); it takes {sorted(allowed)}",
                    provider=provider,
                    retryable=False,
                )
