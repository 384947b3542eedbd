"""The agent persistence contract suites against the memory and SQLite backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tether.stores import open_backend
from tether.stores.memory._format_stamps import MemoryFormatStamps
from tether.stores.sqlite._format_stamps import SqliteFormatStamps
from tether.testing.contract import (
    AttachmentContract,
    ConversationContract,
    FormatStampAccess,
    SubmissionContract,
)


class TestMemoryAgentStores(SubmissionContract, ConversationContract, AttachmentContract):
    @pytest.fixture
    async def backend(self) -> AsyncIterator[Any]:
        async with open_backend("memory://") as backend:
            yield backend

    @pytest.fixture
    def format_stamps(self, backend: Any) -> FormatStampAccess:
        return MemoryFormatStamps(backend)


class TestSqliteAgentStores(SubmissionContract, ConversationContract, AttachmentContract):
    @pytest.fixture
    async def backend(self, tmp_path: Path) -> AsyncIterator[Any]:
        async with open_backend(f"sqlite:///{tmp_path / 'tether.db'}") as backend:
            yield backend

    @pytest.fixture
    def format_stamps(self, backend: Any) -> FormatStampAccess:
        return SqliteFormatStamps(backend.database)
