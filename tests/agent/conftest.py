"""Fixtures: a provider server (`_providers`) and worker processes.

``worker_processes`` is the store that the crash and hand-off tests share with the
worker processes they start and SIGKILL.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import tether

# The tests of this directory share `_harness.py` and `_providers.py` (pytest runs with
# --import-mode=importlib).
sys.path.insert(0, str(Path(__file__).parent))
from _harness import WorkerProcesses
from _providers import ProviderServer


@pytest.fixture
async def provider_server() -> AsyncIterator[ProviderServer]:
    server = ProviderServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def worker_processes(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[WorkerProcesses]:
    """A real SQLite file or Postgres namespace that worker processes share with the test.

    The processes get the namespace as ``TETHER_POSTGRES_NAMESPACE``; any still alive
    at the end are SIGKILLed, then the namespace is dropped.
    """
    if request.param == "sqlite":
        url, env, options = f"sqlite:///{tmp_path / 'agent.db'}", {}, {}
    else:
        url = request.getfixturevalue("pg_url")
        namespace = request.getfixturevalue("pg_namespace")  # dropped after this fixture
        env, options = {"TETHER_POSTGRES_NAMESPACE": namespace}, {"namespace": namespace}
    async with tether.open_backend(url, **options) as backend:
        workers = WorkerProcesses(url, tmp_path, backend, env)
        try:
            yield workers
        finally:
            workers.stop()
