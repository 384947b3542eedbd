"""In-memory credentials: the reference implementation, no I/O."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..kit import Credential, check_credential_version
from ._gate import Gate, gated

__all__ = ["MemoryCredentialStore"]


@gated
class MemoryCredentialStore:
    """A `CredentialStore` kept in this process's memory.

    Each method runs between two awaits, so a version check and its write are atomic.
    """

    def __init__(self, *, clock: Callable[[], float] = time.time, gate: Gate | None = None) -> None:
        self._clock = clock
        self._gate = gate or Gate()
        self._items: dict[tuple[str, str], Credential] = {}

    async def get_credential(self, owner: str, name: str) -> Credential | None:
        return self._items.get((owner, name))

    async def put_credential(
        self,
        owner: str,
        name: str,
        data: bytes,
        *,
        expected_version: int | None = None,
        expires_at: float | None = None,
    ) -> Credential:
        found = self._items.get((owner, name))
        version = check_credential_version(owner, name, found, expected_version)
        stored = Credential(
            owner=owner,
            name=name,
            data=bytes(data),
            version=version,
            expires_at=expires_at,
            updated_at=self._clock(),
        )
        self._items[(owner, name)] = stored
        return stored

    async def take_credential(
        self, owner: str, name: str, *, expected_version: int | None = None
    ) -> Credential | None:
        found = self._items.get((owner, name))
        if found is None:
            return None
        check_credential_version(owner, name, found, expected_version)
        del self._items[(owner, name)]
        return found

    async def purge_expired_credentials(self, owner: str, before: float) -> int:
        keys = [
            k
            for k, v in self._items.items()
            if k[0] == owner and v.expires_at is not None and v.expires_at < before
        ]
        for key in keys:
            del self._items[key]
        return len(keys)

    async def purge_credentials(self, owner: str) -> int:
        keys = [k for k in self._items if k[0] == owner]
        for key in keys:
            del self._items[key]
        return len(keys)
