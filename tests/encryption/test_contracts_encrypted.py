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
    SubmissionContract, ConversationContract, AttachmentContract, CredentialContract
):
    @pytest.fixture
    def backend(self, encrypted: Any) -> Any:
        return encrypted


@pytest.mark.parametrize(
    ("protocol", "wrapper"),
    [
        ("WorkflowStore", "tether.stores._encrypted_workflow:EncryptedWorkflowStore"),
        ("SubmissionStore", "tether.stores._encrypted_agent:EncryptedSubmissionStore"),
        ("ConversationStore", "tether.stores._encrypted_agent:EncryptedConversationStore"),
        ("AttachmentStore", "tether.stores._encrypted_agent:EncryptedAttachmentStore"),
        ("CredentialStore", "tether.stores._encrypted_credentials:EncryptedCredentialStore"),
    ],
)
def test_every_store_method_is_wrapped_explicitly(protocol: str, wrapper: str) -> None:
    """A method left to `__getattr__` would write its payloads in clear."""
    import importlib

    import tether.stores as stores

    module, _, name = wrapper.partition(":")
    cls = getattr(importlib.import_module(module), name)
    methods = {n for n, v in vars(getattr(stores, protocol)).items() if callable(v)}
    methods = {n for n in methods if not n.startswith("_")}
    missing = sorted(n for n in methods if n not in vars(cls))
    assert not missing, f"{name} passes {missing} through unencrypted: wrap them"
