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
    from tether.stores import _format_2
    from tether.stores._events import CREATION_EVENTS

    # A step's creation is unique by the steps' primary key instead (its row is
    # inserted with the event): the contract's one-creation cases check both.
    for event_type in CREATION_EVENTS - {"step_created"}:
        assert f"'{event_type}'" in _format_2.CREATION_PREDICATE
    assert "'step_created'" not in _format_2.CREATION_PREDICATE


async def test_a_purged_stream_goes_on_at_its_next_index(backend: Any) -> None:
    # A session chain's event stream outlives a purge of its content (a reset under
    # retention 0): what is written after it keeps the indexes readers hold.
    store: WorkflowStore = backend.stores.workflow
    await store.write_stream("p1", "events", [b"private", b"more"])
    await store.purge_run_content("p1", keep_input=True)
    assert await store.write_stream("p1", "events", [b"after"]) == 2
    chunks, _ = await store.read_stream("p1", "events")
    assert [(c.index, c.data) for c in chunks] == [(2, b"after")]
    assert [c.index for c in (await store.read_stream("p1", "events", start=-1))[0]] == [2]
