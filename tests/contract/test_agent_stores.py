"""The agent persistence contract suites against the memory and SQLite backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tether.stores import open_backend
from tether.testing.contract import (
    AttachmentContract,
    ConversationContract,
    SubmissionContract,
)


class TestMemoryAgentStores(SubmissionContract, ConversationContract, AttachmentContract):
    @pytest.fixture
    async def backend(self) -> AsyncIterator[Any]:
        async with open_backend("memory://") as backend:
            yield backend


class TestSqliteAgentStores(SubmissionContract, ConversationContract, AttachmentContract):
    @pytest.fixture
    async def backend(self, tmp_path: Path) -> AsyncIterator[Any]:
        async with open_backend(f"sqlite:///{tmp_path / 'tether.db'}") as backend:
            yield backend
