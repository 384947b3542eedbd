"""The backend contract suites, run through the encrypting layer on every backend."""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tether.stores import EnvKeyProvider, WorkflowStore, open_backend
from tether.testing.contract import (
    SHORT_RETENTION,
    AttachmentContract,
    BudgetContract,
    ConversationContract,
    CredentialContract,
    SubmissionContract,
    WorkflowStoreContract,
)

KEYS = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())


class TestEncryptedWorkflowStore(WorkflowStoreContract):
    @pytest.fixture
    def backend(self, encrypted: Any) -> Any:
        return encrypted

    @pytest.fixture
    async def retention_store(
        self, encrypted: Any, request: pytest.FixtureRequest
    ) -> AsyncIterator[WorkflowStore]:
        # The same store and keys as `encrypted`, opened with a short hook retention.
        options: dict[str, Any] = {"hook_retention": SHORT_RETENTION, "keys": KEYS}
        url = encrypted.inner.url
        if url.startswith("postgres"):
            url = request.getfixturevalue("tether_postgres_url")
            options.update(namespace=encrypted.inner.namespace, pool_size=2)
        async with open_backend(url, **options) as opened:
            yield opened.stores.workflow


class TestEncryptedAgentStores(
    SubmissionContract, ConversationContract, AttachmentContract, CredentialContract, BudgetContract
):
    @pytest.fixture
    def backend(self, encrypted: Any) -> Any:
        return encrypted
