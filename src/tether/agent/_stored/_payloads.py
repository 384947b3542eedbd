"""Large tool results, stored once by content in the session's attachment stream.

A tool result larger than `PAYLOAD_THRESHOLD` bytes would otherwise be written whole
wherever it appears: the transcript's result entry, the ``tool.result`` event, and (for
a workflow tool or sub-agent) the input of the step that records it. Instead its text
is put in the session's attachment stream (`attachments_path`) under an id derived
from its SHA-256 digest (`payload_id`), and each of those places keeps only that id
(``content_ref``) with an empty ``content``. The same bytes in a later turn have the
same id, and the attachment store's put is idempotent, so they add nothing.

Readers give the content back whole: `Transcript.entries` and the session's event
reads resolve every reference before anyone sees the record. The attachment stream is
the session's, so retention and erasure delete the payloads with the session's files,
and an encrypted store seals them under the session's key, as it does its files.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypeVar

from ...errors import IntegrityError
from ...stores import Stores, make_attachment_ref
from .._records._attachments import attachments_path

__all__ = [
    "PAYLOAD_THRESHOLD",
    "Offloaded",
    "held_payload",
    "load_payload",
    "offload_payload",
    "payload_id",
    "resolve_events",
    "resolve_held",
    "resolve_payloads",
]

#: Tool results larger than this many bytes (UTF-8) are stored once, by content.
PAYLOAD_THRESHOLD = 64 * 1024
_MIME = "text/plain"
#: Payloads this process stored or read lately, by id (bytes held at most `_HELD_BYTES`):
#: a step that stored one reads its own transcript back without a round trip.
_HELD_BYTES = 64 * 1024 * 1024
_held: OrderedDict[str, str] = OrderedDict()
_held_size = [0]

R = TypeVar("R")


def payload_id(text: str) -> str:
    """The attachment id of a payload: its SHA-256 digest, so equal texts share one."""
    return "payload-" + hashlib.sha256(text.encode()).hexdigest()


def _hold(ref: str, text: str) -> None:
    if ref in _held:
        _held.move_to_end(ref)
        return
    _held[ref] = text
    _held_size[0] += len(text)
    while _held_size[0] > _HELD_BYTES and len(_held) > 1:
        _, dropped = _held.popitem(last=False)
        _held_size[0] -= len(dropped)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Offloaded:
    """What a record stores for a result: ``content`` and ``content_ref`` (see module)."""

    content: str
    content_ref: str | None = None


async def offload_payload(
    stores: Stores, agent_name: str, session_id: str, content: str
) -> Offloaded:
    """Store `content` once by content when it is large; what a record keeps of it.

    Call it from the step that records the result: its put is sealed under the
    session's key (an encrypted store), and a retry of the step puts the same bytes
    under the same id again, which changes nothing.
    """
    body = content.encode()
    if len(body) <= PAYLOAD_THRESHOLD:
        return Offloaded(content=content)
    ref = payload_id(content)
    # Put every time: the put is idempotent (same id, same bytes), and only the store
    # knows whether this session's stream holds it (erased since? another backend?).
    await stores.attachments.put(
        stream_path=attachments_path(agent_name, session_id),
        conversation_id=session_id,
        ref=make_attachment_ref(ref, body, mime_type=_MIME),
        data=body,
    )
    _hold(ref, content)
    return Offloaded(content="", content_ref=ref)


async def load_payload(stores: Stores, agent_name: str, session_id: str, ref: str) -> str:
    """The text a ``content_ref`` names.

    Raises:
        IntegrityError: The session's attachment stream no longer holds it.
    """
    held = _held.get(ref)
    if held is not None:
        return held
    stored = await stores.attachments.get(
        stream_path=attachments_path(agent_name, session_id),
        conversation_id=session_id,
        attachment_id=ref,
    )
    if stored is None:
        raise IntegrityError(
            f"the tool result {ref!r} of session {session_id!r} is missing from its "
            "attachment stream"
        )
    text = stored.data.decode()
    _hold(ref, text)
    return text


def held_payload(ref: str) -> str | None:
    """The text of `ref` if this process holds it (no read)."""
    return _held.get(ref)


async def resolve_payloads(
    stores: Stores, agent_name: str, session_id: str, records: Sequence[R]
) -> list[R]:
    """`records` with every ``content_ref`` they carry read back into ``content``.

    Records without one (or already resolved: ``content`` set) are returned as they are.
    """
    out: list[R] = []
    for record in records:
        ref = getattr(record, "content_ref", None)
        if ref is not None and not getattr(record, "content", ""):
            text = await load_payload(stores, agent_name, session_id, ref)
            record = dataclasses.replace(record, content=text)  # type: ignore[type-var]
        out.append(record)
    return out


def resolve_held(records: Sequence[Any]) -> list[Any] | None:
    """`resolve_payloads` from what this process holds; None if any is not held."""
    out: list[Any] = []
    for record in records:
        ref = getattr(record, "content_ref", None)
        if ref is not None and not getattr(record, "content", ""):
            text = _held.get(ref)
            if text is None:
                return None
            record = dataclasses.replace(record, content=text)
        out.append(record)
    return out


async def resolve_events(
    stores: Stores, agent_name: str, session_id: str, events: Sequence[Any]
) -> list[Any]:
    """Session events with the results they refer to by content read back into them."""
    out: list[Any] = []
    for event in events:
        data = event.data
        ref = getattr(data, "content_ref", None)
        if ref is not None and not getattr(data, "content", ""):
            text = await load_payload(stores, agent_name, session_id, ref)
            event = dataclasses.replace(event, data=dataclasses.replace(data, content=text))
        out.append(event)
    return out
