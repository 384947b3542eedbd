"""Key scopes and the `Sealer`: what every encrypting store wrapper seals and opens with.

Which scope a write belongs to (see the documentation's "Encryption and keys"):

1. A run's scope is recorded when the run is created: a child run (sub-agent tasks
   included) takes its parent's, a root run gets ``run:<run id>``. Every envelope
   names its scope in its header, so reads never need a lookup.
2. A write made inside an explicit ``with data_scope(scope):`` block uses that scope.
3. A write made by a running step (the code between a step's start commit and its
   end) uses its run's scope: committing a step's start marks the activation's
   context with the run's scope, and the step body runs in that context.
4. Anything else falls back to a scope named after what it writes:
   ``lane:<session key>`` for the ledger, ``stream:<path>`` for conversations and
   attachments.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import orjson

from ..errors import ContentDeletedError, DecryptionError, IntegrityError
from ._agent_protocols import AttachmentStore
from ._agent_records import make_attachment_ref
from ._keyring import DataKeys
from ._sealing import (
    INLINE,
    REF,
    content_id,
    envelope_to_text,
    is_sealed,
    is_sealed_text,
    open_blob,
    open_inline,
    open_ref,
    parse,
    place_text,
    seal_blob,
    seal_inline,
    seal_ref,
    text_to_envelope,
)

__all__ = [
    "DEFAULT_LARGE_PAYLOAD_THRESHOLD",
    "Sealer",
    "blob_path",
    "current_scope",
    "data_scope",
    "lane_scope",
    "mark_running",
    "run_scope",
    "stream_scope",
]

#: Payloads larger than this (bytes) are stored once in the attachment store.
DEFAULT_LARGE_PAYLOAD_THRESHOLD = 256 * 1024
_BLOB_MIME = "application/vnd.tether.blob"
_STORED_LIMIT = 1024

_EXPLICIT: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tether_data_scope", default=None
)
_RUNNING: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tether_run_scope", default=None
)


def run_scope(run_id: str) -> str:
    """The scope of a root run (and of every run under it)."""
    return f"run:{run_id}"


def lane_scope(session_key: str) -> str:
    """The scope of ledger writes to a lane made outside any run or `data_scope`."""
    return f"lane:{session_key}"


def stream_scope(path: str) -> str:
    """The scope of stream and attachment writes made outside any run or `data_scope`."""
    return f"stream:{path}"


@contextlib.contextmanager
def data_scope(scope: str) -> Iterator[None]:
    """Encrypt the stores' writes made inside the block under `scope`'s data key.

    For writes made outside a running step, e.g. a client admitting a message to a
    session: ``with data_scope(run_scope(session_run_id)): ...`` keeps the message
    under the session's key, so erasing the session erases it too.
    """
    token = _EXPLICIT.set(scope)
    try:
        yield
    finally:
        _EXPLICIT.reset(token)


def mark_running(scope: str) -> None:
    """Mark the current context as running a step of a run in `scope` (see rule 3)."""
    if _RUNNING.get() != scope:
        _RUNNING.set(scope)


def current_scope(fallback: str) -> str:
    """The scope a write made here belongs to (the module docstring's rules 2-4)."""
    return _EXPLICIT.get() or _RUNNING.get() or fallback


def blob_path(scope: str) -> str:
    """The attachment stream holding a scope's large payloads."""
    return f"tether/blobs/{scope}"


class Sealer:
    """Seals payloads for their places and opens them, offloading large ones.

    Args:
        keys: The data keys.
        blobs: The (inner, unencrypted) attachment store large payloads go to.
        threshold: Payloads larger than this many bytes are stored there once.
        allow_plaintext: Read payloads written before encryption was turned on (they
            pass through unchanged) instead of refusing them.
    """

    def __init__(
        self,
        keys: DataKeys,
        blobs: AttachmentStore,
        *,
        threshold: int = DEFAULT_LARGE_PAYLOAD_THRESHOLD,
        allow_plaintext: bool = False,
    ) -> None:
        self.keys = keys
        self.blobs = blobs
        self.threshold = threshold
        self.allow_plaintext = allow_plaintext
        self._stored: OrderedDict[tuple[str, int, bytes], None] = OrderedDict()

    async def seal(
        self,
        scope: str,
        place: tuple[str, ...],
        plaintext: bytes,
        *,
        offload: bool = True,
        at: int | None = None,
    ) -> bytes:
        """Encrypt `plaintext` for `place` under `scope`'s current key.

        With `at`, the ciphertext is bound to that position too (a stream chunk's
        index): it opens only when read there (`open` with the same `at`).
        """
        key = self.keys.cached_for_write(scope) or await self.keys.for_write(scope)
        positioned = at is not None
        if positioned:
            place = (*place, str(at))
        if not offload or len(plaintext) <= self.threshold:
            return seal_inline(key, place, plaintext, positioned=positioned)
        cid = content_id(key, plaintext)
        marker = (scope, key.generation, cid)
        if marker not in self._stored:
            blob = seal_blob(key, cid, plaintext)
            ref = make_attachment_ref(f"blob_{cid.hex()}", blob, mime_type=_BLOB_MIME)
            await self.blobs.put(
                stream_path=blob_path(scope), conversation_id=scope, ref=ref, data=blob
            )
            self._stored[marker] = None
            if len(self._stored) > _STORED_LIMIT:
                self._stored.popitem(last=False)
        return seal_ref(key, place, cid, len(plaintext), positioned=positioned)

    def seal_now(
        self, scope: str, place: tuple[str, ...], plaintext: bytes, *, at: int | None = None
    ) -> bytes | None:
        """`seal` when it needs no await: the scope's key is held and nothing is offloaded.

        None otherwise (await `seal`). A commit seals its payloads this way: the hot path
        of every step stays free of coroutine hops.
        """
        if len(plaintext) > self.threshold:
            return None
        key = self.keys.cached_for_write(scope)
        if key is None:
            return None
        if at is None:
            return seal_inline(key, place, plaintext)
        return seal_inline(key, (*place, str(at)), plaintext, positioned=True)

    async def open(
        self,
        place: tuple[str, ...],
        data: bytes | None,
        *,
        erased: str = "raise",
        at: int | None = None,
    ) -> bytes | None:
        """Decrypt bytes read at `place`.

        Args:
            place: Where they were read (their associated data).
            data: The stored bytes (None passes through).
            erased: ``"raise"`` raises `ContentDeletedError` for erased content,
                ``"none"`` returns None (record reads keep their metadata readable).
            at: The position they were read at (a stream chunk's index). A positioned
                envelope opens only there; one sealed without a position (written
                before positions were bound) opens at `place` alone.

        Raises:
            DecryptionError: They do not authenticate here, or are not encrypted.
            ContentDeletedError: Their key was erased (with ``erased="raise"``).
        """
        if data is None:
            return None
        if not is_sealed(data):
            if self.allow_plaintext:
                return data
            raise DecryptionError(
                "-",
                place_text(place),
                "it is not encrypted, and this store is (pass "
                "allow_plaintext=True to read what was written before encryption was on)",
            )
        data = bytes(data)
        if at is not None:
            text = f"{place_text(place)} at {at}"
        else:
            text = place_text(place)
        env = parse(data, text)
        if env.positioned:
            if at is None:
                raise DecryptionError(
                    env.scope, text, "it is bound to a position and was read without one"
                )
            place = (*place, str(at))
        try:
            key = await self.keys.for_read(env.scope, env.generation, text)
        except ContentDeletedError:
            if erased == "none":
                return None
            raise
        try:
            if env.kind == INLINE:
                return open_inline(key, place, data, env)
            if env.kind != REF:
                raise DecryptionError(env.scope, text, "a stored blob is not a payload")
            cid, size = open_ref(key, place, data, env)
        except DecryptionError as exc:
            if at is None:
                raise
            # Named as read: the place, then the position (not one more part of it).
            raise DecryptionError(exc.scope, text, exc.reason) from None
        stored = await self.blobs.get(
            stream_path=blob_path(env.scope),
            conversation_id=env.scope,
            attachment_id=f"blob_{cid.hex()}",
        )
        if stored is None:
            raise IntegrityError(
                f"the large payload at {text} is missing from the attachment store"
            )
        plain = open_blob(key, cid, stored.data)
        if len(plain) != size:
            raise DecryptionError(env.scope, text, "the stored payload has another size")
        return plain

    # -- JSON and text values ---------------------------------------------------------------
    async def seal_json(self, scope: str, place: tuple[str, ...], value: Any) -> str:
        """A JSON value as a sealed string (canonical encoding: sorted keys)."""
        plain = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        return envelope_to_text(await self.seal(scope, place, plain))

    async def open_json(
        self, place: tuple[str, ...], value: Any, *, erased: str = "raise", at: int | None = None
    ) -> Any:
        """The JSON value a sealed string holds (plain values per `allow_plaintext`).

        `at` is the position it was read at, as for `open`.
        """
        if value is None:
            return None
        if not is_sealed_text(value):
            if self.allow_plaintext:
                return value
            raise DecryptionError(
                "-",
                place_text(place),
                "it is not encrypted, and this store is (pass "
                "allow_plaintext=True to read what was written before encryption was on)",
            )
        envelope = text_to_envelope(value, place_text(place))
        plain = await self.open(place, envelope, erased=erased, at=at)
        return None if plain is None else orjson.loads(plain)

    async def seal_text(self, scope: str, place: tuple[str, ...], text: str | None) -> str | None:
        """A text field as a sealed string (None stays None)."""
        if text is None:
            return None
        envelope = await self.seal(scope, place, text.encode(), offload=False)
        return envelope_to_text(envelope)

    async def open_text(self, place: tuple[str, ...], text: str | None) -> str | None:
        """A sealed text field; plain text (written by a store itself) passes through.

        Erased text reads as None.
        """
        if text is None or not is_sealed_text(text):
            return text
        plain = await self.open(place, text_to_envelope(text, place_text(place)), erased="none")
        return None if plain is None else plain.decode()
