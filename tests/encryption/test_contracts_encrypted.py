"""The backend contract suites, run through the encrypting layer on every backend."""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tether.stores import EnvKeyProvider, open_backend
from tether.testing.contract import (
    AttachmentContract,
    ConversationContract,
    SubmissionContract,
    WorkflowStoreContract,
)

KEYS = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def encrypted(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    if request.param == "postgres":
        url = request.getfixturevalue("tether_postgres_url")
        namespace = f"t_{secrets.token_hex(6)}"
        try:
            async with open_backend(url, namespace=namespace, pool_size=4, keys=KEYS) as b:
                yield b
        finally:
            import psycopg
            from psycopg import sql

            with psycopg.connect(url, autocommit=True) as conn:
                for schema in (namespace, f"{namespace}_keyring"):
                    conn.execute(
                        sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                    )
        return
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path}/tether.db"
    async with open_backend(url, keys=KEYS) as b:
        yield b


class TestEncryptedWorkflowStore(WorkflowStoreContract):
    @pytest.fixture
    def backend(self, encrypted: Any) -> Any:
        return encrypted


class TestEncryptedAgentStores(SubmissionContract, ConversationContract, AttachmentContract):
    @pytest.fixture
    def backend(self, encrypted: Any) -> Any:
        return encrypted
