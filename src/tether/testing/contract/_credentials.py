"""The credential contract: every backend's `CredentialStore` must pass it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ...errors import ConflictError
from ...stores import CredentialStore

__all__ = ["CredentialContract"]

OWNER = "session:helper/s-1"


class CredentialContract:
    """Subclass with an async `backend` fixture yielding a migrated, connected backend."""

    @pytest.fixture
    def credentials(self, backend: Any) -> CredentialStore:
        store = backend.stores.credentials
        if store is None:
            # The credential store is the optional one (`Stores.credentials` None).
            pytest.skip("the backend keeps no credentials (Stores.credentials is None)")
        return store  # type: ignore[no-any-return]

    async def test_a_credential_round_trips_with_its_version(
        self, credentials: CredentialStore
    ) -> None:
        assert await credentials.get_credential(OWNER, "oauth:github") is None
        first = await credentials.put_credential(
            OWNER, "oauth:github", b"token-1", expected_version=0, expires_at=2_000_000_000.5
        )
        assert (first.version, first.data, first.expires_at) == (1, b"token-1", 2_000_000_000.5)
        read = await credentials.get_credential(OWNER, "oauth:github")
        assert read is not None
        assert (read.owner, read.name, read.data, read.version) == (
            OWNER,
            "oauth:github",
            b"token-1",
            1,
        )
        assert read.expires_at == 2_000_000_000.5 and read.updated_at > 0
        second = await credentials.put_credential(
            OWNER, "oauth:github", b"token-2", expected_version=1
        )
        assert second.version == 2
        read = await credentials.get_credential(OWNER, "oauth:github")
        assert read is not None and (read.data, read.version, read.expires_at) == (
            b"token-2",
            2,
            None,
        )
        # Another owner's credential of the same name is another credential.
        assert await credentials.get_credential("principal:alice", "oauth:github") is None

    async def test_a_write_from_a_stale_version_is_refused(
        self, credentials: CredentialStore
    ) -> None:
        await credentials.put_credential(OWNER, "c", b"one", expected_version=0)
        with pytest.raises(ConflictError, match="version 1, not 0"):
            await credentials.put_credential(OWNER, "c", b"two", expected_version=0)
        await credentials.put_credential(OWNER, "c", b"two", expected_version=1)
        with pytest.raises(ConflictError, match="version 2, not 1"):
            await credentials.put_credential(OWNER, "c", b"three", expected_version=1)
        # No expected version overwrites whatever is there.
        third = await credentials.put_credential(OWNER, "c", b"three")
        assert third.version == 3
        read = await credentials.get_credential(OWNER, "c")
        assert read is not None and read.data == b"three"

    async def test_of_racing_writers_from_one_version_one_wins(
        self, credentials: CredentialStore
    ) -> None:
        await credentials.put_credential(OWNER, "race", b"v1", expected_version=0)
        outcomes = await asyncio.gather(
            *(
                credentials.put_credential(OWNER, "race", f"w{i}".encode(), expected_version=1)
                for i in range(4)
            ),
            return_exceptions=True,
        )
        won = [o for o in outcomes if not isinstance(o, BaseException)]
        assert len(won) == 1, outcomes
        assert all(isinstance(o, ConflictError) for o in outcomes if o not in won)
        read = await credentials.get_credential(OWNER, "race")
        assert read is not None and read.version == 2 and read.data == won[0].data

    async def test_a_take_returns_the_credential_once(self, credentials: CredentialStore) -> None:
        await credentials.put_credential("oauth:states", "st-1", b"verifier", expires_at=10.0)
        taken = await asyncio.gather(
            *(credentials.take_credential("oauth:states", "st-1") for _ in range(3))
        )
        got = [t for t in taken if t is not None]
        assert len(got) == 1 and got[0].data == b"verifier" and got[0].expires_at == 10.0
        assert await credentials.get_credential("oauth:states", "st-1") is None
        assert await credentials.take_credential("oauth:states", "st-1") is None
        await credentials.put_credential("oauth:states", "st-2", b"x")
        with pytest.raises(ConflictError):
            await credentials.take_credential("oauth:states", "st-2", expected_version=2)
        assert await credentials.get_credential("oauth:states", "st-2") is not None

    async def test_expired_credentials_are_purged_and_the_others_kept(
        self, credentials: CredentialStore
    ) -> None:
        await credentials.put_credential("oauth:state", "old", b"1", expires_at=100.0)
        await credentials.put_credential("oauth:state", "new", b"2", expires_at=300.0)
        await credentials.put_credential("oauth:state", "forever", b"3")
        await credentials.put_credential(OWNER, "other", b"4", expires_at=100.0)
        assert await credentials.purge_expired_credentials("oauth:state", 200.0) == 1
        assert await credentials.get_credential("oauth:state", "old") is None
        assert await credentials.get_credential("oauth:state", "new") is not None
        assert await credentials.get_credential("oauth:state", "forever") is not None
        assert await credentials.get_credential(OWNER, "other") is not None
        assert await credentials.purge_expired_credentials("oauth:state", 200.0) == 0

    async def test_a_purge_deletes_only_its_owners_credentials(
        self, credentials: CredentialStore
    ) -> None:
        await credentials.put_credential(OWNER, "a", b"1")
        await credentials.put_credential(OWNER, "b", b"2")
        await credentials.put_credential("principal:alice", "a", b"3")
        assert await credentials.purge_credentials(OWNER) == 2
        assert await credentials.get_credential(OWNER, "a") is None
        assert await credentials.get_credential(OWNER, "b") is None
        kept = await credentials.get_credential("principal:alice", "a")
        assert kept is not None and kept.data == b"3"
        assert await credentials.purge_credentials(OWNER) == 0
        # A purged name may be written again, from version 0.
        again = await credentials.put_credential(OWNER, "a", b"4", expected_version=0)
        assert again.version == 1
