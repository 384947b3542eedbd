"""Files and images in a model request: their bytes, their kind, how a model reads them.

A user message carries `AttachmentData` (the bytes, read from the attachment store
when the request is built). Each provider adapter turns them into its own wire parts:
images as image parts, PDFs as document (Anthropic) or file (OpenAI) parts, text-like
files as text parts. Which of them a model takes is asked with `accepts_attachment`.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = [
    "ALL_KINDS",
    "IMAGE_TYPES",
    "AttachmentData",
    "AttachmentKind",
    "attachment_kind",
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
