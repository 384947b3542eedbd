"""Journal format 2 against the release before it, on SQLite and Postgres.

The earlier release is this repository's code at `PREVIOUS` (the last commit of
format 1), taken from its history with ``git archive`` and run in subprocesses whose
path puts its sources first. It writes a store (`format_1/app.py`); today's code then
migrates it in place, with a SIGKILL in the middle of a first `tether migrate`, and
finishes the run the store left parked; the earlier release then refuses the store.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import psycopg
import pytest

import tether
from tether.errors import FormatVersionError
from tether.stores.kit import FORMAT_VERSION

sys.path.insert(0, str(Path(__file__).parent))
import format_1_app as app

pytestmark = pytest.mark.crash

#: The last commit that writes format 1 (tether 0.2's layout).
PREVIOUS = "613b562"
ROOT = Path(__file__).resolve().parents[2]
#: Copies of the ended run the earlier release wrote, added by SQL: enough rows that a
#: migration takes long enough to be killed midway.
COPIES = 30_000


@pytest.fixture(scope="module")
def previous_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sources of the release before format 2, from git history."""
    out = tmp_path_factory.mktemp("previous")
    found = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", PREVIOUS, "src/tether"],
        capture_output=True,
        check=False,
    )
    if found.returncode != 0:
        pytest.fail(
            f"the release before format 2 ({PREVIOUS}) is not in this clone's history: "
            f"{found.stderr.decode(errors='replace')}; clone without --depth"
        )
    with tarfile.open(fileobj=BytesIO(found.stdout)) as archive:
        archive.extractall(out, filter="data")
    return out / "src"


def _env(previous: Path) -> dict[str, str]:
    path = os.pathsep.join([str(previous), str(Path(__file__).parent)])
    return {**os.environ, "PYTHONPATH": path}


def _write_with_previous(previous: Path, url: str, namespace: str, mark: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "format_1_app", url, namespace, str(mark), "0"],
        env=_env(previous),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("WROTE ")), None)
    assert line is not None, done.stdout + done.stderr
    return dict(json.loads(line[6:]))


_OPEN = """
import asyncio, sys, tether
async def main():
    options = {"namespace": sys.argv[2]} if sys.argv[2] else {}
    async with tether.open_backend(sys.argv[1], **options) as backend:
        await backend.stores.workflow.get_run("ended")
asyncio.run(main())
"""


def _refused_by_previous(previous: Path, url: str, namespace: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _OPEN, url, namespace],
        env=_env(previous),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0, done.stdout
    return done.stderr


class _Sql:
    """Raw SQL on the store under test (`?` placeholders on both backends)."""

    def __init__(self, url: str, namespace: str) -> None:
        self.url, self.namespace = url, namespace

    def run(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.url.startswith("sqlite"):
            with sqlite3.connect(self.url.removeprefix("sqlite:///"), timeout=60) as conn:
                return conn.execute(statement, params).fetchall()
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"SET search_path TO {self.namespace}")
            if params:
                cursor = conn.execute(statement.replace("?", "%s").encode(), params)
            else:
                cursor = conn.execute(statement.encode())
            return cursor.fetchall() if cursor.description else []

    def stamp(self) -> tuple[str, str]:
        found = dict(self.run("SELECT key, value FROM tether_meta"))
        return found["format_version"], found["schema_version"]

    def copy_ended_run(self) -> None:
        """`COPIES` copies of the run ``ended`` under other ids: its row, log and steps."""
        postgres = not self.url.startswith("sqlite")
        ids = (
            f"SELECT 'copy-' || k AS k FROM generate_series(1, {COPIES}) AS k"
            if postgres
            else f"WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n "
            f"WHERE k < {COPIES}) SELECT 'copy-' || k AS k FROM n"
        )
        for table in ("tether_runs", "tether_events", "tether_steps"):
            columns = [
                str(r[0])
                for r in (
                    self.run(
                        "SELECT column_name FROM information_schema.columns WHERE "
                        "table_schema = ? AND table_name = ? ORDER BY ordinal_position",
                        (self.namespace, table),
                    )
                    if postgres
                    else self.run(f"SELECT name FROM pragma_table_info('{table}')")
                )
            ]
            chosen = [
                "ids.k" if c == "run_id" else ("ids.k" if c == "chain_id" else f"t.{c}")
                for c in columns
            ]
            if table == "tether_steps":
                chosen[columns.index("step_id")] = "t.step_id || ids.k"
            if table == "tether_events":
                # A step event names its step: the copied step's id.
                chosen[columns.index("correlation_id")] = (
                    "CASE WHEN t.event_type LIKE 'step_%' THEN t.correlation_id || ids.k "
                    "ELSE t.correlation_id END"
                )
            self.run(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(chosen)} "
                f"FROM {table} t, ({ids}) ids WHERE t.run_id = 'ended'"
            )


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A URL and namespace ('' on SQLite) of a store no one has opened yet."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'format-1.db'}", ""
        return
    url = str(request.getfixturevalue("tether_postgres_url"))
    namespace = f"format_1_{os.getpid()}_{time.monotonic_ns() % 10**9}"
    yield url, namespace
    with psycopg.connect(url, autocommit=True) as conn:
        for schema in (namespace, f"{namespace}_keyring"):
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def _migrate(url: str, namespace: str) -> subprocess.Popen[str]:
    env = {**os.environ, "TETHER_POSTGRES_NAMESPACE": namespace} if namespace else None
    return subprocess.Popen(
        [sys.executable, "-m", "tether.cli", "migrate", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _until(check: Callable[[], bool], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def _migrating(sql: _Sql) -> Callable[[], bool]:
    """Whether a migration's transaction is under way (it holds the store's write lock)."""
    if sql.url.startswith("sqlite"):
        path = sql.url.removeprefix("sqlite:///")

        def locked() -> bool:
            conn = sqlite3.connect(path, timeout=0)
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
                return False
            except sqlite3.OperationalError:
                return True
            finally:
                conn.close()

        return locked

    def running() -> bool:
        found = sql.run(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' "
            "AND query LIKE '%tether_steps%' AND pid <> pg_backend_pid()"
        )
        return bool(found[0][0])

    return running


async def test_a_format_1_store_migrates_in_place_across_a_sigkill_and_finishes(
    store: tuple[str, str], previous_release: Path, tmp_path: Path
) -> None:
    url, namespace = store
    sql = _Sql(url, namespace)
    wrote = _write_with_previous(previous_release, url, namespace, tmp_path / "flaky.mark")
    assert sql.stamp()[0] == "1"
    before = sql.stamp()
    sql.copy_ended_run()
    counts = [sql.run(f"SELECT count(*) FROM {t}")[0][0] for t in ("tether_runs", "tether_events")]
    with pytest.raises(FormatVersionError, match="tether migrate"):
        options = {"namespace": namespace} if namespace else {}
        async with tether.open_backend(url, migrate=False, **options):
            pass

    # A first migration, killed while its transaction is under way: nothing changed.
    first = _migrate(url, namespace)
    try:
        _until(_migrating(sql), "the migration's transaction")
        os.kill(first.pid, signal.SIGKILL)
    finally:
        first.communicate(timeout=60)  # reaped, its pipes closed
    assert first.returncode == -signal.SIGKILL
    if namespace:
        # The killed client's server process rolls back once it notices it is gone.
        _until(lambda: sql.stamp() == before and not _migrating(sql)(), "the rollback")
    assert sql.stamp() == before
    assert [
        sql.run(f"SELECT count(*) FROM {t}")[0][0] for t in ("tether_runs", "tether_events")
    ] == counts

    # The next one completes, and the store is format 2 with everything it held.
    second = _migrate(url, namespace)
    out, err = second.communicate(timeout=600)
    assert second.returncode == 0, out + err
    assert sql.stamp()[0] == str(FORMAT_VERSION)
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(url, migrate=False, **options) as backend:
        store_ = backend.stores.workflow
        for run_id in ("ended", "retried", "parked"):
            now = [
                [s.step_id, s.status, s.attempt, _hex(s.input), _hex(s.output), _hex(s.error)]
                for s in await store_.list_steps(run_id)
            ]
            assert now == wrote[run_id], run_id
        (copy,) = [s for s in await store_.list_steps("copy-7") if s.slot == 3]
        assert copy.output is not None and b"out-2-" in copy.output
        async with tether.Worker(backend, app.registry, poll_interval=0.02):
            client = tether.Client(backend, registry=app.registry)
            await client.resume_hook("format-1-hook", "resumed")
            parked = await client.get("parked")
            assert await parked.result(timeout=60) == "3 resumed"
        # Steps done under format 1 ran once: the parked run replayed them.
        (parked_steps) = await store_.list_steps("parked")
        assert [s.attempt for s in parked_steps] == [1, 1, 1]
    assert "format '2'" in _refused_by_previous(previous_release, url, namespace)


def _hex(value: bytes | None) -> str | None:
    return None if value is None else value.hex()
