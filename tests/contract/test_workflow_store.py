from __future__ import annotations

from tether.testing.contract import WorkflowStoreContract


class TestWorkflowStore(WorkflowStoreContract):
    """Runs the workflow-store contract on the `backend` fixture (memory and SQLite)."""
