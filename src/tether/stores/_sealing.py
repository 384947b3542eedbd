"""The encrypted envelope: AES-256-GCM under a per-scope data key, bound to its place.

Layout (the first three bytes say "encrypted", like the codec's frame headers)::

    b"TE1" | kind (1) | scope length (2) | scope (UTF-8) | generation (4) | nonce (12) | body

``kind`` is 0 for an inline ciphertext, 1 for a reference to a large payload stored
once in the attachment store, 2 for such a stored payload itself. The associated data
of every ciphertext is its header (so scope, generation and kind cannot be changed)
followed by its *place*: what the payload is and where it belongs, e.g.
``["step.output", run_id, step_id]``. A ciphertext read at any other place fails to
authenticate and raises `DecryptionError`; it never decrypts to a wrong value.

A record the store keeps at a position (a stream chunk at its index) is sealed
*positioned*: the kind byte carries `POSITIONED` and the position is the place's last
element, so the chunk opens only at the index it was written at. The flag is part of
the header, hence of the associated data: it cannot be cleared to read a positioned
ciphertext elsewhere. Envelopes written without it (by releases that did not bind
positions) open at the place without a position, as they always did.

The nonce is synthetic: an HMAC-SHA256 (under a key derived from the data key, apart
from the encryption key) of the associated data and the plaintext, cut to 96 bits.
Equal plaintexts at the same place therefore encrypt to equal bytes, which keeps the
stores' idempotency rules (an exact replay is recognised by its bytes) working on
ciphertexts, and different plaintexts get nonces that collide no more often than
random ones would (a birthday bound on 96 bits, per data key). What this reveals is
only that a replay at one place carries the same value as the first write.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import struct
from dataclasses import dataclass, field

import orjson
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ..errors import DecryptionError

__all__ = [
    "BLOB",
    "INLINE",
    "POSITIONED",
    "REF",
    "SEALED_TEXT_PREFIX",
    "DataKey",
    "Envelope",
    "envelope_to_text",
    "is_sealed",
    "is_sealed_text",
    "open_blob",
    "open_inline",
    "open_ref",
    "parse",
    "place_text",
    "seal_blob",
    "seal_inline",
    "seal_ref",
    "text_to_envelope",
]

MAGIC = b"TE1"
INLINE = 0
REF = 1
BLOB = 2
#: Flag of the kind byte: the place's last element is the record's position.
POSITIONED = 0x10
_KINDS = (INLINE, REF, BLOB, INLINE | POSITIONED, REF | POSITIONED)
#: How a sealed value is written where a store keeps JSON or text.
SEALED_TEXT_PREFIX = "tenc1:"
_NONCE = 12
_TAG = 16
_HEAD = struct.Struct(">BH")
_GEN = struct.Struct(">I")
_REF = struct.Struct(">32sQ")


@dataclass(frozen=True, slots=True)
class DataKey:
    """The keys of one scope's generation: AES-256-GCM and the synthetic-nonce MAC key."""

    scope: str
    generation: int
    aead: AESGCM
    mac: bytes
    # The envelope headers of the three kinds, built once: every seal starts with one.
    _heads: dict[int, bytes] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        scope = self.scope.encode()
        tail = scope + _GEN.pack(self.generation)
        heads = {kind: MAGIC + _HEAD.pack(kind, len(scope)) + tail for kind in _KINDS}
        object.__setattr__(self, "_heads", heads)

    @classmethod
    def derive(cls, scope: str, generation: int, material: bytes) -> DataKey:
        """Derive both keys from the 32 bytes the keyring keeps (HKDF-SHA256)."""
        out = HKDF(
            algorithm=hashes.SHA256(), length=64, salt=None, info=b"tether data key/1"
        ).derive(material)
        return cls(scope, generation, AESGCM(out[:32]), out[32:])

    def header(self, kind: int) -> bytes:
        """The envelope header of this key for `kind`."""
        return self._heads[kind]


@dataclass(frozen=True, slots=True)
class Envelope:
    """A parsed envelope header: what it is and which key opens it."""

    kind: int  # INLINE, REF or BLOB (the POSITIONED flag cleared)
    scope: str
    generation: int
    body: int  # offset of the nonce
    positioned: bool = False


def is_sealed(data: bytes | bytearray | memoryview | None) -> bool:
    """Whether bytes start with the envelope header."""
    return data is not None and bytes(data[:3]) == MAGIC


def is_sealed_text(value: object) -> bool:
    """Whether a JSON or text value is a sealed one."""
    return isinstance(value, str) and value.startswith(SEALED_TEXT_PREFIX)


def parse(data: bytes, place: str) -> Envelope:
    """Read an envelope's header.

    Raises:
        DecryptionError: The bytes are not a well-formed envelope.
    """
    try:
        if data[:3] != MAGIC:
            raise ValueError("no envelope header")
        kind, length = _HEAD.unpack_from(data, 3)
        scope = bytes(data[6 : 6 + length]).decode()
        (generation,) = _GEN.unpack_from(data, 6 + length)
    except (ValueError, struct.error, UnicodeDecodeError) as exc:
        raise DecryptionError("?", place, f"malformed envelope ({exc})") from None
    if kind not in _KINDS:
        raise DecryptionError(scope, place, f"unknown envelope kind {kind}")
    return Envelope(kind & ~POSITIONED, scope, generation, 10 + length, bool(kind & POSITIONED))


def place_text(place: tuple[str, ...]) -> str:
    """A place for messages: ``kind a='..' b='..'``."""
    return " ".join((place[0], *(repr(p) for p in place[1:])))


def _ad(header: bytes, place: tuple[str, ...]) -> bytes:
    return header + orjson.dumps(place)


def seal_inline(
    key: DataKey, place: tuple[str, ...], plaintext: bytes, *, positioned: bool = False
) -> bytes:
    """Encrypt `plaintext` for `place` into an inline envelope.

    With `positioned`, the place's last element is the record's position (see the
    module docstring).
    """
    header = key.header(INLINE | POSITIONED if positioned else INLINE)
    ad = _ad(header, place)
    nonce = hmac.digest(key.mac, ad + plaintext, "sha256")[:_NONCE]
    return header + nonce + key.aead.encrypt(nonce, plaintext, ad)


def _open(key: DataKey, ad: bytes, data: bytes, at: int, place: tuple[str, ...]) -> bytes:
    nonce = data[at : at + _NONCE]
    try:
        return key.aead.decrypt(nonce, data[at + _NONCE :], ad)
    except (InvalidTag, ValueError):
        raise DecryptionError(key.scope, place_text(place), "authentication failed") from None


def open_inline(key: DataKey, place: tuple[str, ...], data: bytes, env: Envelope) -> bytes:
    """Decrypt an inline envelope read at `place`."""
    return _open(key, _ad(data[: env.body], place), data, env.body, place)


def content_id(key: DataKey, plaintext: bytes | memoryview) -> bytes:
    """The keyed address of a large payload within its scope's generation."""
    mac = hmac.new(key.mac, b"tether blob id", "sha256")
    mac.update(plaintext)
    return mac.digest()


def seal_ref(
    key: DataKey, place: tuple[str, ...], cid: bytes, size: int, *, positioned: bool = False
) -> bytes:
    """An envelope naming the stored payload `cid` of `size` bytes, bound to `place`."""
    header = key.header(REF | POSITIONED if positioned else REF)
    ad = _ad(header, place)
    body = _REF.pack(cid, size)
    nonce = hmac.digest(key.mac, ad + body, "sha256")[:_NONCE]
    return header + nonce + key.aead.encrypt(nonce, body, ad)


def open_ref(key: DataKey, place: tuple[str, ...], data: bytes, env: Envelope) -> tuple[bytes, int]:
    """The (content id, size) a reference envelope read at `place` names."""
    cid, size = _REF.unpack(open_inline(key, place, data, env))
    return cid, size


def _blob_place(cid: bytes) -> tuple[str, ...]:
    return ("blob", cid.hex())


def seal_blob(key: DataKey, cid: bytes, plaintext: bytes) -> bytes:
    """Encrypt a large payload for storage at its content address.

    The nonce comes from the content id, itself a keyed hash of the plaintext, so the
    payload is read once to address it and once to encrypt it.
    """
    header = key.header(BLOB)
    ad = _ad(header, _blob_place(cid))
    nonce = hmac.digest(key.mac, b"tether blob nonce" + cid, "sha256")[:_NONCE]
    return header + nonce + key.aead.encrypt(nonce, plaintext, ad)


def open_blob(key: DataKey, cid: bytes, data: bytes) -> bytes:
    """Decrypt a stored large payload fetched for content id `cid`."""
    env = parse(data, f"blob {cid.hex()!r}")
    if (env.kind, env.scope, env.generation) != (BLOB, key.scope, key.generation):
        raise DecryptionError(key.scope, f"blob {cid.hex()!r}", "the stored blob is another one")
    return _open(key, _ad(data[: env.body], _blob_place(cid)), data, env.body, _blob_place(cid))


def envelope_to_text(envelope: bytes) -> str:
    """An envelope as a JSON-safe string."""
    return SEALED_TEXT_PREFIX + base64.b64encode(envelope).decode("ascii")


def text_to_envelope(text: str, place: str) -> bytes:
    """The envelope a sealed string holds.

    Raises:
        DecryptionError: The string is not a sealed value.
    """
    try:
        return base64.b64decode(text[len(SEALED_TEXT_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        raise DecryptionError("?", place, "malformed sealed text") from None
