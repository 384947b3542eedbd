"""What a model takes: which files a model or provider reads, checked before a call.

What a model takes is asked with `accepts_attachment`, so a message with a file its
model cannot read is refused when it is sent, not inside a turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import ModelError
from ._attachments import ALL_KINDS, AttachmentKind, attachment_kind
from ._model import Model
from ._types import ModelRequest

__all__ = ["accepts_attachment", "check_request_attachments", "provider_kinds"]

# Chat Completions servers other than OpenAI's (vLLM, Ollama, ...) take image parts;
# few take OpenAI's file parts, so PDFs are refused for them unless configured.
_PROVIDER_KINDS: dict[str, frozenset[AttachmentKind]] = {
    "openai": ALL_KINDS,
    "anthropic": ALL_KINDS,
    "openai-compatible": frozenset({"image", "text"}),
}


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
