from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

import tether
from tether.stores import WorkflowStore
from tether.testing.contract import SHORT_RETENTION, WorkflowStoreContract


class TestWorkflowStore(WorkflowStoreContract):
    """Runs the workflow-store contract on the `backend` fixture (memory, SQLite, Postgres)."""

    @pytest.fixture
    async def retention_store(
        self, backend: Any, request: pytest.FixtureRequest
    ) -> AsyncIterator[WorkflowStore]:
        # The same kind of store as `backend` (the same file or namespace for the SQL
        # ones), opened with a short hook retention.
        options: dict[str, Any] = {"hook_retention": SHORT_RETENTION}
        url = backend.url
        if url.startswith("postgres"):
            url = request.getfixturevalue("tether_postgres_url")
            options.update(namespace=backend.namespace, pool_size=2)
        async with tether.open_backend(url, **options) as opened:
            yield opened.stores.workflow


def test_creation_predicate_names_every_creation_event() -> None:
    from tether.stores import _rows
    from tether.stores._records import CREATION_EVENTS

    for event_type in CREATION_EVENTS:
        assert f"'{event_type}'" in _rows.CREATION_PREDICATE
