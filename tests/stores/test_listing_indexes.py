"""Listings and hook reads on the SQL backends: the indexes behind them, and their keys.

Real SQLite files and Postgres namespaces, read with the backends' own SQL through a
plain connection: the plans show an index seek (never a scan of every run or every
open hook), a store from before migration 17 gets the index of active hooks when it
is opened, and runs created at the same instant page by run id, each listed once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

import tether
from tether.stores import Backend, Commit, NewEvent, NewRun, WorkflowStore, _listings
from tether.stores import _rows as rows
from tether.stores._pages import PageStart


class Sql:
    """Plain SQL on the store a backend opened (its file, or its namespace)."""

    def __init__(self, kind: str, url: str, namespace: str | None = None) -> None:
        self.kind, self.url, self.namespace = kind, url, namespace

    @contextmanager
    def _conn(self) -> Iterator[Any]:
        if self.kind == "sqlite":
            conn = sqlite3.connect(self.url.removeprefix("sqlite:///"), isolation_level=None)
            try:
                yield conn
            finally:
                conn.close()
        else:
            options = f"-c search_path={self.namespace}"
            with psycopg.connect(self.url, autocommit=True, options=options) as conn:
                yield conn

    def run(self, *statements: str) -> None:
        with self._conn() as conn:
            for statement in statements:
                conn.execute(statement)

    def plan(self, sql: str, params: list[Any] | tuple[Any, ...]) -> str:
        """The plan of a statement as the store runs it (Postgres: prepared, generic)."""
        with self._conn() as conn:
            if self.kind == "sqlite":
                found = conn.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
                return "\n".join(str(r[3]) for r in found)
            # A prepared statement's generic plan (what a statement run again and again
            # ends up with), with scans of the whole table priced out whenever an index
            # can serve: what is left is what the statement lets an index do.
            conn.execute("SET plan_cache_mode = force_generic_plan")
            conn.execute("SET enable_seqscan = off")
            text = sql.replace("%s", "{}").format(*(f"${i + 1}" for i in range(len(params))))
            conn.execute(f"PREPARE listing AS {text}")
            quoted = [conn.execute("SELECT quote_nullable(%s)", (p,)).fetchone()[0] for p in params]
            shown = ", ".join(quoted)
            found = conn.execute(f"EXPLAIN EXECUTE listing({shown})").fetchall()
            return "\n".join(str(r[0]) for r in found)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def sql_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Backend, Sql]]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'listings.db'}"
        async with tether.open_backend(url) as backend:
            yield backend, Sql("sqlite", url)
        return
    url = request.getfixturevalue("pg_url")
    namespace = request.getfixturevalue("pg_namespace")
    async with tether.open_backend(url, namespace=namespace, pool_size=2) as backend:
        yield backend, Sql("postgres", url, namespace)


def _run(run_id: str, **kw: Any) -> NewRun:
    return NewRun(
        run_id=run_id, workflow_name="wf", input=b"in", deployment="d", engine_version="e",
        queue="q", **kw,
    )  # fmt: skip


async def _hooked(store: WorkflowStore, run_id: str, token: str) -> None:
    await store.create_run(_run(run_id))
    claim = await store.claim_run(run_id, owner="w1", lease_seconds=30)
    assert claim.run is not None
    hook = NewEvent(event_type="hook_created", correlation_id=f"h-{token}",
                    attrs={"slot": 1, "token": token})  # fmt: skip
    await store.commit(
        Commit(
            run_id=run_id,
            owner="w1",
            epoch=claim.epoch,
            expected_head=claim.run.head,
            events=(hook,),
        )
    )


async def test_a_runs_hooks_are_read_through_the_index_of_active_hooks(
    sql_store: tuple[Backend, Sql],
) -> None:
    backend, sql = sql_store
    store = backend.stores.workflow
    for n in range(5):
        await _hooked(store, f"r{n}", f"t{n}")
    plan = sql.plan(rows.statements("?" if sql.kind == "sqlite" else "%s").hooks_of_run, ["r3"])
    assert "tether_hooks_active" in plan, plan
    assert "SCAN" not in plan and "Seq Scan" not in plan, plan
    assert [h.token for h in await store.list_hooks("r3")] == ["t3"]
    # The catch-all form it replaces can only read every open hook.
    either = (
        "? IS NULL OR run_id = ?" if sql.kind == "sqlite" else "%s::text IS NULL OR run_id = %s"
    )
    old = (
        f"SELECT {rows.HOOK_COLS} FROM tether_hooks WHERE {rows.HOOK_ACTIVE} "
        f"AND ({either}) ORDER BY run_id, slot"
    )
    old_plan = sql.plan(old, ["r3", "r3"])
    assert "(run_id=?)" not in old_plan and "Index Cond: (run_id" not in old_plan, old_plan


async def test_a_store_from_before_migration_17_gets_the_index_when_opened(
    sql_store: tuple[Backend, Sql],
) -> None:
    backend, sql = sql_store
    await _hooked(backend.stores.workflow, "r1", "t1")
    sql.run(
        "DROP INDEX tether_hooks_active",
        "ALTER TABLE tether_agent_submissions DROP COLUMN redacted_at",  # migration 18's
        "DROP INDEX tether_runs_prunable",  # migration 19's
        "ALTER TABLE tether_runs DROP COLUMN purged",
        "DROP INDEX tether_budget_reservations_settled",  # migration 25's
        "ALTER TABLE tether_budget_reservations DROP COLUMN usage",
        "ALTER TABLE tether_budget_reservations DROP COLUMN settled_at",
        "UPDATE tether_meta SET value = '16' WHERE key = 'schema_version'",
    )
    mark = "?" if sql.kind == "sqlite" else "%s"
    assert "tether_hooks_active" not in sql.plan(rows.statements(mark).hooks_of_run, ["r1"])
    options = {} if sql.namespace is None else {"namespace": sql.namespace}
    with pytest.raises(tether.errors.FormatVersionError, match="tether migrate"):
        async with tether.open_backend(sql.url, migrate=False, **options):
            pass
    async with tether.open_backend(sql.url, **options) as reopened:
        assert [h.token for h in await reopened.stores.workflow.list_hooks("r1")] == ["t1"]
    assert "tether_hooks_active" in sql.plan(rows.statements(mark).hooks_of_run, ["r1"])


@pytest.mark.parametrize("labels", [None, {"tether.owner": "acme"}], ids=["runs", "labeled"])
async def test_a_deep_page_seeks_in_the_index(
    sql_store: tuple[Backend, Sql], labels: dict[str, str] | None
) -> None:
    backend, sql = sql_store
    for n in range(30):
        await backend.stores.workflow.create_run(_run(f"r{n:02d}", labels={"tether.owner": "acme"}))
    mark = "?" if sql.kind == "sqlite" else "%s"
    start = PageStart(after=(1.0e12, "r99"))
    runs = _listings.runs_query(
        mark, labels=labels, status=None, workflow_name="wf", start=start, limit=20
    )
    chains = _listings.chains_query(mark, labels=labels, workflow_name="wf", start=start, limit=20)
    for text, params in (runs, chains):
        plan = sql.plan(text, params)
        lines = plan.splitlines()
        if sql.kind == "sqlite":
            assert "created_at<?" in plan, plan
            # The one scan allowed is of the page itself, once it is read.
            assert [line for line in lines if line.startswith("SCAN ")] in ([], ["SCAN p"]), plan
        else:
            assert any("Index Cond" in line and "created_at <= $" in line for line in lines), plan
            assert "Seq Scan" not in plan, plan
    if labels is None:  # the chains of a workflow, by the index of first runs
        assert "tether_runs_chains" in sql.plan(*chains)


async def test_runs_created_at_the_same_instant_page_by_run_id(
    sql_store: tuple[Backend, Sql],
) -> None:
    backend, sql = sql_store
    store = backend.stores.workflow
    for n in range(9):
        await store.create_run(_run(f"r{n}", labels={"tenant": "acme"}))
    # Three instants, three runs each (clocks tick coarsely on some hosts).
    for table in ("tether_runs", "tether_run_labels"):
        sql.run(
            f"UPDATE {table} SET created_at = 100.0 WHERE run_id IN ('r0', 'r1', 'r2')",
            f"UPDATE {table} SET created_at = 200.5 WHERE run_id IN ('r3', 'r4', 'r5')",
            f"UPDATE {table} SET created_at = 300.25 WHERE run_id IN ('r6', 'r7', 'r8')",
        )
    newest_first = [f"r{n}" for n in range(8, -1, -1)]
    for limit in (1, 2, 4):
        for filters in ({}, {"labels": {"tenant": "acme"}}):
            ids: list[str] = []
            chains: list[str] = []
            cursor: str | None = None
            chain_cursor: str | None = None
            while True:
                page = await store.list_runs(limit=limit, cursor=cursor, **filters)
                ids += [r.run_id for r in page.items]
                cursor = page.next_cursor
                if cursor is None:
                    break
            while True:
                found = await store.list_chains(limit=limit, cursor=chain_cursor, **filters)
                chains += [c.first.run_id for c in found.items]
                chain_cursor = found.next_cursor
                if chain_cursor is None:
                    break
            assert ids == newest_first and chains == newest_first, (limit, filters)
