"""Restart the PostgreSQL server while worker processes run: they reconnect and finish.

Needs a local server managed by ``pg_ctlcluster`` (Debian's postgresql-common); it is
stopped in fast mode (every connection is cut) mid-way and always started again.
Anyone else using the server meanwhile sees their connections cut, so the restart test
runs only under CI or with ``TETHER_TEST_PG_RESTART=1`` (a shared dev machine's other
test sessions would fail at random otherwise).
"""

from __future__ import annotations

import asyncio
import collections
import os
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

import tether
from tether.stores.postgres import PostgresBackend, PostgresWorkflowStore

pytestmark = [pytest.mark.postgres, pytest.mark.crash]

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import soak_app  # noqa: E402
from test_pg_soak import Fleet, check_no_overlap, soak_fleet  # noqa: E402

RUNS = 100
STEP_SECONDS = 0.1


def _cluster(url: str) -> list[str]:
    """``pg_ctlcluster VERSION main`` for the local server at `url`, or skip."""
    if not (os.environ.get("CI") or os.environ.get("TETHER_TEST_PG_RESTART")):
        pytest.skip("restarts the shared server: set CI or TETHER_TEST_PG_RESTART=1")
    host = urlsplit(url).hostname or "localhost"
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    if host not in ("127.0.0.1", "localhost", "::1") or not versions:
        pytest.skip(f"the server at {host!r} is not a local pg_ctlcluster cluster")
    if shutil.which("pg_ctlcluster") is None:
        pytest.skip("pg_ctlcluster is not installed")
    return ["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main"]


def _ready(url: str) -> bool:
    return subprocess.run(["pg_isready", "-q", "-d", url], check=False).returncode == 0


@pytest.fixture
def cluster(pg_url: str) -> Iterator[list[str]]:
    command = _cluster(pg_url)
    try:
        yield command
    finally:
        # Whatever happened, leave the server running for everyone else.
        if not _ready(pg_url):
            subprocess.run([*command, "start"], check=False)
        for _ in range(100):
            if _ready(pg_url):
                break
            time.sleep(0.1)


@pytest.fixture
def fleet(pg_url: str, pg_namespace: str, tmp_path: Path) -> Iterator[Fleet]:
    f = soak_fleet(pg_url, pg_namespace, tmp_path, STEP_SECONDS)
    try:
        yield f
    finally:
        f.stop()


@pytest.fixture
async def restart_backend(pg_url: str, pg_namespace: str) -> AsyncIterator[PostgresBackend]:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=2)
    await backend.migrate()
    await backend.connect()
    try:
        yield backend
    finally:
        await backend.close()


def _ended_steps(fleet: Fleet) -> int:
    return sum(1 for found in fleet.executions().values() for e in found if e.end is not None)


@pytest.mark.restarts_postgres
async def test_workers_survive_a_database_restart(
    restart_backend: PostgresBackend, fleet: Fleet, cluster: list[str], pg_url: str
) -> None:
    client = tether.Client(restart_backend, registry=soak_app.registry)
    handles = [await client.start("chain", seed, run_id=f"re-{seed}") for seed in range(RUNS)]
    workers = [fleet.start(), fleet.start()]
    total = RUNS * soak_app.STEPS
    for _ in range(600):
        if _ended_steps(fleet) >= total // 4:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the workers never got going")
    subprocess.run([*cluster, "stop", "-m", "fast"], check=True)
    stopped_at = _ended_steps(fleet)
    await asyncio.sleep(1.0)
    subprocess.run([*cluster, "start"], check=True)
    assert stopped_at < total, "every step was done before the restart"

    results = await asyncio.gather(*(h.result(timeout=60) for h in handles))
    assert results == [soak_app.expected(seed) for seed in range(RUNS)]
    # The same processes finished the work: they reconnected rather than died.
    assert [w.poll() for w in workers] == [None, None]
    store = restart_backend.stores.workflow
    for handle in handles:
        events = await store.list_events(handle.run_id)
        completed = collections.Counter(
            e.correlation_id for e in events if e.event_type == "step_completed"
        )
        assert len(completed) == soak_app.STEPS and set(completed.values()) == {1}
    check_no_overlap(fleet, [h.run_id for h in handles])


async def test_a_pooled_connection_the_server_ended_is_replaced(
    pg_url: str, pg_namespace: str
) -> None:
    backend = PostgresBackend(pg_url, namespace=pg_namespace, pool_size=1)
    await backend.migrate()
    await backend.connect()
    try:
        store = backend.stores.workflow
        assert isinstance(store, PostgresWorkflowStore)
        pid = await store._sql(lambda c: c.execute("SELECT pg_backend_pid()").fetchone())
        assert pid is not None
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid[0],))
        await asyncio.sleep(0.2)
        # The pool notices at checkout, without a failed call.
        assert await store.get_run("nope") is None
    finally:
        await backend.close()
