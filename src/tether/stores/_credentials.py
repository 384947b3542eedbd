"""The credential store: small secrets kept per owner (OAuth tokens, pending authorizations).

A credential is an opaque payload under ``(owner, name)`` with a version that every
write moves on by one. A write names the version it read (``expected_version``; 0 for
"not there yet"), so two writers racing on one credential cannot both win: the loser
gets `ConflictError` and reads again. A take (`take_credential`) deletes a credential
and returns it in one step, so a one-time record (an OAuth ``state``) is used once.

The encrypting wrapper seals the payload; ``owner``, ``name`` and ``expires_at`` stay
readable to the store (they are what it looks rows up and cleans up by).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..errors import ConflictError

__all__ = ["Credential", "CredentialStore", "check_credential_version"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Credential:
    """One stored credential.

    Attributes:
        owner: Whom it belongs to, e.g. ``"session:<agent>/<id>"`` or ``"principal:<p>"``.
        name: Which credential of the owner, e.g. ``"oauth:github"``.
        data: The payload (opaque to the store; sealed on an encrypted store).
        version: 1 for the first write, one more for every later one.
        expires_at: When it is of no more use (Unix seconds), if it expires; the store
            only keeps it.
        updated_at: When it was last written (the store's clock, Unix seconds).
    """

    owner: str
    name: str
    data: bytes
    version: int
    expires_at: float | None = None
    updated_at: float = 0.0


def check_credential_version(
    owner: str, name: str, found: Credential | None, expected_version: int | None
) -> int:
    """The version a write replacing `found` gets, if `expected_version` allows it.

    Raises:
        ConflictError: The stored version is not `expected_version` (0: absent).
    """
    current = found.version if found is not None else 0
    if expected_version is not None and expected_version != current:
        raise ConflictError(
            f"credential {name!r} of {owner!r} is at version {current}, not "
            f"{expected_version}: another writer changed it; read it again"
        )
    return current + 1


class CredentialStore(Protocol):
    """Credentials per owner, written with optimistic versions."""

    async def get_credential(self, owner: str, name: str) -> Credential | None:
        """The credential, or None when there is none."""
        ...

    async def put_credential(
        self,
        owner: str,
        name: str,
        data: bytes,
        *,
        expected_version: int | None = None,
        expires_at: float | None = None,
    ) -> Credential:
        """Write the credential; returns it with its new version.

        Args:
            owner: Whom it belongs to.
            name: Which of the owner's credentials.
            data: The payload.
            expected_version: The version the writer read (0: it read none); None
                writes whatever is there.
            expires_at: When it is of no more use, if it expires.

        Raises:
            ConflictError: The stored version is not `expected_version`.
        """
        ...

    async def take_credential(
        self, owner: str, name: str, *, expected_version: int | None = None
    ) -> Credential | None:
        """Delete the credential and return it (None if there was none).

        Of two takes racing for one credential, one gets it and the other None.

        Raises:
            ConflictError: The stored version is not `expected_version`.
        """
        ...

    async def purge_credentials(self, owner: str) -> int:
        """Delete every credential of `owner` (erasure); returns how many went."""
        ...

    async def purge_expired_credentials(self, owner: str, before: float) -> int:
        """Delete the credentials of `owner` that expired before `before` (Unix seconds).

        Those without an ``expires_at`` stay. Returns how many went.
        """
        ...
