"""The encrypting `CredentialStore`: each payload sealed where it is stored.

A payload is bound to its owner and name (its associated data), so a sealed token
copied to another row fails to open there. Its scope follows the sealer's rules; a
write made outside any run or `data_scope` falls back to ``credential:<owner>``.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..errors import ContentDeletedError
from ._credentials import Credential, CredentialStore
from ._sealer import Sealer, current_scope

__all__ = ["EncryptedCredentialStore", "credential_scope"]


def credential_scope(owner: str) -> str:
    """The scope of credential writes made outside any run or `data_scope`."""
    return f"credential:{owner}"


class EncryptedCredentialStore:
    """A `CredentialStore` whose payloads are sealed (owner, name and times stay readable)."""

    #: The protocol methods that carry no payload, passed to the inner store as they
    #: are; every other one seals what it writes and opens what it reads.
    PAYLOAD_FREE: ClassVar[frozenset[str]] = frozenset(
        {
            "purge_credentials",
            "purge_expired_credentials",
        }
    )

    def __init__(self, inner: CredentialStore, sealer: Sealer) -> None:
        self.inner = inner
        self._sealer = sealer

    async def _open(self, found: Credential | None) -> Credential | None:
        if found is None:
            return None
        data = await self._sealer.open(("credential", found.owner, found.name), found.data)
        if data is None:  # pragma: no cover - open raises for erased content
            raise ContentDeletedError(f"credential {found.name!r} of {found.owner!r} was erased")
        return dataclasses.replace(found, data=data)

    async def get_credential(self, owner: str, name: str) -> Credential | None:
        return await self._open(await self.inner.get_credential(owner, name))

    async def put_credential(
        self,
        owner: str,
        name: str,
        data: bytes,
        *,
        expected_version: int | None = None,
        expires_at: float | None = None,
    ) -> Credential:
        plain = bytes(data)
        sealed = await self._sealer.seal(
            current_scope(credential_scope(owner)),
            ("credential", owner, name),
            plain,
            offload=False,
        )
        stored = await self.inner.put_credential(
            owner, name, sealed, expected_version=expected_version, expires_at=expires_at
        )
        return dataclasses.replace(stored, data=plain)

    async def take_credential(
        self, owner: str, name: str, *, expected_version: int | None = None
    ) -> Credential | None:
        taken = await self.inner.take_credential(owner, name, expected_version=expected_version)
        return await self._open(taken)

    async def purge_credentials(self, owner: str) -> int:
        return await self.inner.purge_credentials(owner)

    async def purge_expired_credentials(self, owner: str, before: float) -> int:
        return await self.inner.purge_expired_credentials(owner, before)
