"""Attachments by reference: the files and images a session's messages carry.

The bytes go once into the backend's attachment store (immutable, SHA-256 verified,
chunked; sealed under the session's data key when the store is encrypted), in the
session's attachment stream (`attachments_path`). Messages, the transcript and the
events hold only `Attachment` references; a model request reads the bytes when it is
built, through a small cache (the bytes under an id never change). Retention and
erasure delete the stream with the session's other content.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..._ids import new_ulid
from ...errors import AttachmentError, FatalError
from ...stores import StoredAttachment, Stores, data_scope, make_attachment_ref, run_scope
from ..models import AttachmentData, accepts_attachment, attachment_kind
from ._json import read_record

if TYPE_CHECKING:
    from ..models import Model

__all__ = [
    "ATTACHMENT_CACHE_BYTES",
    "MAX_ATTACHMENTS",
    "Attachment",
    "AttachmentCache",
    "attachments_path",
    "files_note",
    "load_attachments",
    "normalize_mime_type",
    "read_attachment",
    "read_refs",
    "resolve_attachments",
    "store_attachment",
]

#: Attachments one message may carry.
MAX_ATTACHMENTS = 32
#: Bytes of attachments one process keeps read for model requests.
ATTACHMENT_CACHE_BYTES = 64 << 20

_MIME = re.compile(r"^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$")
_UTF8 = ("utf-8", "utf8", "us-ascii", "ascii")


@dataclass(frozen=True, slots=True, kw_only=True)
class Attachment:
    """A file or image stored with a session, by reference (never its bytes).

    Attributes:
        id: Its id within the session.
        mime_type: Its media type, bare and lowercase (``"image/png"``).
        size: Its length in bytes.
        sha256: The lowercase hex SHA-256 of its bytes (verified on every read).
        filename: The name it was given, if any (presentation only).
    """

    id: str
    mime_type: str
    size: int
    sha256: str
    filename: str | None = None

    @classmethod
    def of(cls, stored: StoredAttachment) -> Attachment:
        """The reference of a stored attachment."""
        ref = stored.ref
        return cls(
            id=ref.attachment_id,
            mime_type=ref.mime_type,
            size=ref.size,
            sha256=ref.digest.lower(),
            filename=ref.filename,
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form (as in events, the transcript and the HTTP API)."""
        return {
            "id": self.id,
            "mime_type": self.mime_type,
            "size": self.size,
            "sha256": self.sha256,
            "filename": self.filename,
        }


def attachments_path(agent_name: str, session_id: str) -> str:
    """The attachment stream of a session (one for its whole life: clear, reset, moves)."""
    return f"agents/{agent_name}/{session_id}#attachments"


def files_note(refs: Sequence[Attachment]) -> str:
    """A message's files in a line of text (for summaries): `` [files: a.png, b.pdf]``."""
    if not refs:
        return ""
    return " [files: " + ", ".join(r.filename or r.mime_type for r in refs) + "]"


def read_refs(value: Any) -> tuple[Attachment, ...]:
    """The references a stored message payload lists (none when it lists none).

    Raises:
        SerializationError: They do not fit `Attachment`.
    """
    if not value:
        return ()
    refs: tuple[Attachment, ...] = read_record(
        tuple[Attachment, ...], value, what="a message's attachments"
    )
    return refs


def normalize_mime_type(session_id: str, mime_type: str) -> str:
    """`mime_type` bare and lowercase (``"Text/Plain; charset=UTF-8"`` -> ``"text/plain"``).

    Raises:
        AttachmentError: (``invalid``) not a media type, or text in a charset other
            than UTF-8 (or ASCII).
    """
    bare, _, params = str(mime_type).partition(";")
    bare = bare.strip().lower()
    if not _MIME.match(bare):
        raise AttachmentError(
            session_id, None, "invalid", f"{mime_type!r} is not a media type (type/subtype)"
        )
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in _UTF8:
            raise AttachmentError(
                session_id, None, "invalid", f"text must be UTF-8, not {value.strip()!r}"
            )
    return bare


def _check_filename(session_id: str, filename: str | None) -> str | None:
    if filename is None:
        return None
    if not isinstance(filename, str) or not filename.strip() or len(filename) > 255:
        raise AttachmentError(
            session_id, None, "invalid", "a filename is 1 to 255 characters of text"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in filename):
        raise AttachmentError(session_id, None, "invalid", "a filename has no control characters")
    # A name, not a path: what a client sends as "../../x" is shown as "x".
    return re.split(r"[\\/]", filename)[-1] or None


def _check_supported(session_id: str, model: str | Model, mime_type: str, what: str | None) -> None:
    if attachment_kind(mime_type) is None or not accepts_attachment(model, mime_type):
        name = model if isinstance(model, str) else getattr(model, "name", type(model).__name__)
        raise AttachmentError(
            session_id,
            what,
            "unsupported",
            f"the agent's model {name} does not take {mime_type!r} files (images: png, "
            "jpeg, gif, webp; PDFs; UTF-8 text, JSON, XML, YAML, CSV, as the model allows)",
        )


async def store_attachment(
    stores: Stores,
    *,
    agent_name: str,
    session_id: str,
    run_id: str,
    model: str | Model,
    data: bytes | bytearray | memoryview,
    mime_type: str,
    filename: str | None = None,
    attachment_id: str | None = None,
) -> Attachment:
    """Store `data` in the session's attachment stream; its reference.

    Raises:
        AttachmentError: Bad media type, id or filename, a type the model does not
            take, or text that is not UTF-8. Nothing is stored.
        ConflictError: `attachment_id` is stored with other bytes or type.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise AttachmentError(
            session_id, attachment_id, "invalid", f"data is bytes, not {type(data).__name__}"
        )
    if attachment_id is not None and not _ID.match(str(attachment_id)):
        raise AttachmentError(
            session_id, None, "invalid", "an attachment id is 1 to 128 of [A-Za-z0-9._:-]"
        )
    mime = normalize_mime_type(session_id, mime_type)
    _check_supported(session_id, model, mime, attachment_id)
    name = _check_filename(session_id, filename)
    body = bytes(data)
    if attachment_kind(mime) == "text":
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AttachmentError(
                session_id, attachment_id, "invalid", f"a {mime} file must be UTF-8 text: {exc}"
            ) from None
    ref = make_attachment_ref(
        attachment_id or new_ulid("att_"), body, mime_type=mime, filename=name
    )
    # Under the session run's key, as its messages are: erasing the session erases it.
    with data_scope(run_scope(run_id)):
        await stores.attachments.put(
            stream_path=attachments_path(agent_name, session_id),
            conversation_id=session_id,
            ref=ref,
            data=body,
        )
    return Attachment(
        id=ref.attachment_id, mime_type=mime, size=ref.size, sha256=ref.digest, filename=name
    )


async def read_attachment(
    stores: Stores, agent_name: str, session_id: str, attachment_id: str
) -> StoredAttachment | None:
    """The stored attachment (bytes verified), or None if the session has none of that id."""
    if not isinstance(attachment_id, str) or not _ID.match(attachment_id):
        return None
    return await stores.attachments.get(
        stream_path=attachments_path(agent_name, session_id),
        conversation_id=session_id,
        attachment_id=attachment_id,
    )


async def resolve_attachments(
    stores: Stores,
    *,
    agent_name: str,
    session_id: str,
    model: str | Model,
    items: Sequence[Attachment | str],
) -> tuple[Attachment, ...]:
    """The stored references of what a message is sent with (ids or references).

    Raises:
        AttachmentError: An item unknown to the session (``unknown``), a reference that
            differs from what is stored (``mismatch``), a type the model does not take
            (``unsupported``), or too many items (``invalid``).
    """
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise AttachmentError(
            session_id, None, "invalid", "attachments is a list of ids or Attachment references"
        )
    if len(items) > MAX_ATTACHMENTS:
        raise AttachmentError(
            session_id, None, "invalid", f"a message carries at most {MAX_ATTACHMENTS} files"
        )
    out: list[Attachment] = []
    for item in items:
        wanted = item if isinstance(item, Attachment) else None
        attachment_id = item.id if isinstance(item, Attachment) else item
        if not isinstance(attachment_id, str):
            raise AttachmentError(
                session_id,
                None,
                "invalid",
                f"an attachment is an id or an Attachment, not {type(item).__name__}",
            )
        stored = await read_attachment(stores, agent_name, session_id, attachment_id)
        if stored is None:
            raise AttachmentError(
                session_id,
                attachment_id,
                "unknown",
                "this session has no attachment of that id (upload it to this session first)",
            )
        found = Attachment.of(stored)
        if wanted is not None and (wanted.sha256.lower(), wanted.size, wanted.mime_type) != (
            found.sha256,
            found.size,
            found.mime_type,
        ):
            raise AttachmentError(
                session_id,
                attachment_id,
                "mismatch",
                "the reference's digest, size or type differs from the stored attachment",
            )
        _check_supported(session_id, model, found.mime_type, attachment_id)
        if found not in out:
            out.append(found)
    return tuple(out)


class AttachmentCache:
    """Attachment bytes one process read for model requests, up to a byte budget.

    Safe to keep: the bytes under a session's attachment id never change (the store
    refuses other bytes under a used id) and they are verified against their digest.
    """

    def __init__(self, budget: int = ATTACHMENT_CACHE_BYTES) -> None:
        self._budget = budget
        self._used = 0
        self._items: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()

    def get(self, key: tuple[str, str, str]) -> bytes | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: tuple[str, str, str], data: bytes) -> None:
        if len(data) > self._budget // 2 or key in self._items:
            return
        self._items[key] = data
        self._used += len(data)
        while self._used > self._budget:
            _, dropped = self._items.popitem(last=False)
            self._used -= len(dropped)


async def load_attachments(
    stores: Stores,
    agent_name: str,
    session_id: str,
    entries: Iterable[Any],
    cache: AttachmentCache | None = None,
) -> Mapping[str, AttachmentData]:
    """The bytes of every attachment the entries' messages carry, by id.

    Raises:
        FatalError: One is no longer in the store (a retry cannot bring it back).
    """
    refs: dict[str, Attachment] = {}
    for entry in entries:
        for ref in getattr(entry, "attachments", ()):
            refs.setdefault(ref.id, ref)
    if not refs:
        return {}

    async def one(ref: Attachment) -> AttachmentData:
        key = (session_id, ref.id, ref.sha256)
        data = cache.get(key) if cache is not None else None
        if data is None:
            stored = await read_attachment(stores, agent_name, session_id, ref.id)
            if stored is None or stored.ref.digest.lower() != ref.sha256:
                raise FatalError(
                    f"attachment {ref.id!r} ({ref.filename or ref.mime_type}) of session "
                    f"{session_id!r} is no longer in the attachment store"
                )
            data = stored.data
            if cache is not None:
                cache.put(key, data)
        return AttachmentData(data=data, mime_type=ref.mime_type, filename=ref.filename)

    loaded = await asyncio.gather(*(one(ref) for ref in refs.values()))
    return dict(zip(refs, loaded, strict=True))
