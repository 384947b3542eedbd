"""`EncryptedBackend`: any backend, with every payload its stores write encrypted.

One layer over the stores, so memory, SQLite, Postgres and third-party backends get it
unchanged, and the engine and the agent layer never see a ciphertext. See `_sealer`
for key scopes, `_encrypted_workflow` and `_encrypted_agent` for what is bound where,
and `_keyring` for where the data keys live.

Why wrappers, and how nothing passes around them: the place a payload is bound to
names what it belongs to (a run and step, a stream chunk's index, a conversation
batch's offset), and large payloads are offloaded; a codec handed to the stores would
see bytes without their place, and every backend, third-party ones included, would
have to call it on each of its write paths. The wrappers keep the backends unchanged
and the encrypted hot path as it was (a commit seals with `Sealer.seal_now`, no
extra awaits). They forward nothing implicitly: each protocol method is defined on its
wrapper, either sealing and opening, or passing through and named in the wrapper's
``PAYLOAD_FREE`` table. Tests hold both sides: every protocol method is decided and a
payload-free one's signature carries no payload type (``tests/encryption/
test_wrapped_methods.py``), and after each contract test on an encrypted SQLite or
Postgres store every payload column of every table holds a sealed value
(``tests/encryption/conftest.py``). The backend passes only `PASSED_EXTRAS`.

A store that was opened encrypted carries a *keyring marker* (an attachment that names
its keyring's id). Opening it without a key, or with a keyring other than its own,
fails before anything is read or written.
"""

from __future__ import annotations

import orjson

from ..errors import ConfigurationError, EncryptionKeyError
from ._agent_protocols import AttachmentStore
from ._agent_records import make_attachment_ref
from ._encrypted_agent import (
    EncryptedAttachmentStore,
    EncryptedConversationStore,
    EncryptedSubmissionStore,
)
from ._encrypted_credentials import EncryptedCredentialStore
from ._encrypted_streams import BatchPositions
from ._encrypted_workflow import EncryptedWorkflowStore
from ._keyring import DataKeys, Keyring
from ._keys import KeyProvider
from ._protocols import Backend, Capability, Stores
from ._sealer import DEFAULT_LARGE_PAYLOAD_THRESHOLD, Sealer

__all__ = ["PASSED_EXTRAS", "EncryptedBackend", "read_keyring_marker"]

#: What an `EncryptedBackend` passes through of its inner backend besides the Backend
#: protocol: backend-specific extras that hold no payload (format stamps, the retention
#: period, where the data lives) and the raw access the inner backend gives to its own
#: tables (the SQLite database, a Postgres connection), which sees what is stored:
#: ciphertexts.
PASSED_EXTRAS = frozenset(
    {
        "format_stamps",
        "retention",
        "namespace",
        "path",
        "database",
        "open_connection",
        "stored_rows",
    }
)

_MARKER_PATH = "tether/keyring"
_MARKER_OWNER = "tether"
_MARKER_ID = "keyring"


async def read_keyring_marker(attachments: AttachmentStore) -> str | None:
    """The keyring id a store was encrypted under, or None for a store never encrypted."""
    stored = await attachments.get(
        stream_path=_MARKER_PATH, conversation_id=_MARKER_OWNER, attachment_id=_MARKER_ID
    )
    if stored is None:
        return None
    return str(orjson.loads(stored.data)["keyring_id"])


async def _write_keyring_marker(attachments: AttachmentStore, keyring_id: str) -> None:
    data = orjson.dumps({"keyring_id": keyring_id})
    ref = make_attachment_ref(_MARKER_ID, data, mime_type="application/json")
    await attachments.put(
        stream_path=_MARKER_PATH, conversation_id=_MARKER_OWNER, ref=ref, data=data
    )


class EncryptedBackend:
    """Wraps a backend so its stores seal what they write and open what they read.

    Args:
        backend: The backend holding the data (not yet connected).
        keys: The key provider that wraps the data keys.
        keyring: Where the wrapped data keys live (kept apart from the data).
        large_payload_threshold: Payloads over this many bytes are stored once in the
            attachment store and referenced from where they belong.
        allow_plaintext: Read payloads written before encryption was turned on.
    """

    def __init__(
        self,
        backend: Backend,
        *,
        keys: KeyProvider,
        keyring: Keyring,
        large_payload_threshold: int = DEFAULT_LARGE_PAYLOAD_THRESHOLD,
        allow_plaintext: bool = False,
    ) -> None:
        if large_payload_threshold < 1:
            raise ConfigurationError(
                f"large_payload_threshold must be positive, not {large_payload_threshold}"
            )
        self.inner = backend
        self.provider = keys
        self.keyring = keyring
        self.large_payload_threshold = large_payload_threshold
        self.allow_plaintext = allow_plaintext
        self._migrated = False
        self._stores: Stores | None = None
        self._keys: DataKeys | None = None

    def __getattr__(self, name: str) -> object:
        # Only the named extras of the inner backend pass; its stores never do (they
        # are reached through `stores`, sealing). Another name is an error, not the
        # inner backend's attribute: that is `inner.<name>`, stated where it is used.
        if name in PASSED_EXTRAS:
            return getattr(self.inner, name)
        raise AttributeError(
            f"{type(self).__name__} has no attribute {name!r} (the inner backend's is inner.{name})"
        )

    @property
    def url(self) -> str:
        """The inner backend's URL."""
        return self.inner.url

    @property
    def capabilities(self) -> frozenset[Capability]:
        """The inner backend's capabilities."""
        return self.inner.capabilities

    @property
    def stores(self) -> Stores:
        """The encrypting stores; `connect()` first."""
        if self._stores is None:
            raise ConfigurationError(f"{self.url} is not connected; call connect()")
        return self._stores

    @property
    def keys(self) -> DataKeys:
        """The data keys (erase and rotate through them); `connect()` first."""
        if self._keys is None:
            raise ConfigurationError(f"{self.url} is not connected; call connect()")
        return self._keys

    async def migrate(self) -> None:
        """Migrate the inner backend, and create the keyring's tables."""
        await self.inner.migrate()
        await self.keyring.open(create=True)
        self._migrated = True

    async def connect(self) -> Stores:
        """Connect, check the keyring marker and the key, and build the sealing stores.

        Raises:
            EncryptionKeyError: The store belongs to another keyring, or the provider
                does not hold the keys its data keys are wrapped with.
            ConfigurationError: The keyring does not exist (run ``tether migrate``).
        """
        if self._stores is not None:
            return self._stores
        inner = await self.inner.connect()
        try:
            try:
                keyring_id = await self.keyring.open(create=self._migrated)
            except (LookupError, ConfigurationError) as exc:
                raise ConfigurationError(
                    f"the keyring ({self.keyring.description}) cannot be opened: {exc}; "
                    "create it with `tether migrate` (run with the key configured)"
                ) from exc
            except Exception as exc:
                raise ConfigurationError(
                    f"the keyring ({self.keyring.description}) does not exist or cannot be "
                    f"read ({type(exc).__name__}: {exc}); create it with `tether migrate` "
                    "(run with the key configured)"
                ) from exc
            marker = await read_keyring_marker(inner.attachments)
            if marker is None:
                await _write_keyring_marker(inner.attachments, keyring_id)
            elif marker != keyring_id:
                raise EncryptionKeyError(
                    f"{self.url} was encrypted with keyring {marker!r}, but "
                    f"{self.keyring.description} is keyring {keyring_id!r}: open it with its "
                    "own keyring (keyring=...)",
                    reason="keyring",
                )
            keys = DataKeys(self.keyring, self.provider, keyring_id)
            await keys.check_provider()
        except BaseException:
            await self.inner.close()
            await self.keyring.close()
            raise
        sealer = Sealer(
            keys,
            inner.attachments,
            threshold=self.large_payload_threshold,
            allow_plaintext=self.allow_plaintext,
        )
        self._keys = keys
        # One view of where conversation batches land, for direct appends and for the
        # ones riding on commits alike.
        batches = BatchPositions(inner.conversations)
        self._stores = Stores(
            workflow=EncryptedWorkflowStore(inner.workflow, sealer, batches),
            submissions=EncryptedSubmissionStore(inner.submissions, sealer),
            conversations=EncryptedConversationStore(
                inner.conversations, inner.submissions, sealer, batches
            ),
            attachments=EncryptedAttachmentStore(inner.attachments, sealer),
            # Budgets hold counters and ids, no content: stored as they are.
            budgets=inner.budgets,
            keys=keys,
            credentials=(
                None
                if inner.credentials is None
                else EncryptedCredentialStore(inner.credentials, sealer)
            ),
        )
        return self._stores

    async def close(self) -> None:
        """Close the inner backend and the keyring."""
        self._stores = None
        self._keys = None
        try:
            await self.inner.close()
        finally:
            await self.keyring.close()
