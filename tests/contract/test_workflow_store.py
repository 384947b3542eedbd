from __future__ import annotations

from tether.testing.contract import WorkflowStoreContract


class TestWorkflowStore(WorkflowStoreContract):
    """Runs the workflow-store contract on the `backend` fixture (memory and SQLite)."""


def test_creation_predicate_names_every_creation_event() -> None:
    from tether.stores import _rows
    from tether.stores._records import CREATION_EVENTS

    for event_type in CREATION_EVENTS:
        assert f"'{event_type}'" in _rows.CREATION_PREDICATE
