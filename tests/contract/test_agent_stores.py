"""The agent persistence contract suites against the memory and SQLite backends."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tether.stores import FoldCheckpoint, open_backend
from tether.testing.contract import (
    AttachmentContract,
    ConversationContract,
    CredentialContract,
    SubmissionContract,
)


class TestMemoryAgentStores(
    SubmissionContract, ConversationContract, AttachmentContract, CredentialContract
):
    @pytest.fixture
    async def backend(self) -> AsyncIterator[Any]:
        async with open_backend("memory://") as backend:
            yield backend


class TestSqliteAgentStores(
    SubmissionContract, ConversationContract, AttachmentContract, CredentialContract
):
    @pytest.fixture
    async def backend(self, tmp_path: Path) -> AsyncIterator[Any]:
        async with open_backend(f"sqlite:///{tmp_path / 'tether.db'}") as backend:
            yield backend


class _TearingStreams:
    """A conversation store that writes each checkpoint's first half, then all of it."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def put_fold_checkpoint(self, path: str, checkpoint: FoldCheckpoint) -> None:
        half = dataclasses.replace(checkpoint, data=checkpoint.data[: len(checkpoint.data) // 2])
        await self._inner.put_fold_checkpoint(path, half)
        await asyncio.sleep(0.001)
        await self._inner.put_fold_checkpoint(path, checkpoint)


async def test_the_half_written_checkpoint_case_catches_a_store_that_tears() -> None:
    from tether.testing.contract._conversations import IDENTITY, PATH

    async with open_backend("memory://") as backend:
        streams = _TearingStreams(backend.stores.conversations)
        await streams.create_stream(PATH, IDENTITY)
        producer = await streams.acquire_producer(PATH, "producer-1")
        case = ConversationContract().test_a_checkpoint_is_never_read_half_written
        with pytest.raises(AssertionError, match="reads returned no checkpoint written"):
            await case(backend=backend, streams=streams, producer=producer)
