"""Starting the same run id again compares inputs by value, not by bytes or hash seed."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import tether
from tether import _codec
from tether.stores import Backend, NewRun

registry = tether.Registry(deployment="run-inputs")
WORDS = [f"word-{i}" for i in range(40)]


@registry.workflow(name="takes")
async def takes(ctx: tether.WorkflowContext, *args: object, **kwargs: object) -> None:
    return None


def colliding_sets() -> tuple[set[int], set[int]]:
    # 1 and 9 share a bucket in a small set table: insertion order decides iteration.
    first, second = set(), set()
    first.add(1), first.add(9)
    second.add(9), second.add(1)
    assert list(first) != list(second)
    return first, second


async def test_equal_sets_are_the_same_input(backend: Backend) -> None:
    client = tether.Client(backend)
    first, second = colliding_sets()
    a = await client.start(takes, first, run_id="sets")
    b = await client.start(takes, second, run_id="sets")
    assert a.run_id == b.run_id == "sets"


async def test_dict_key_order_is_not_input(backend: Backend) -> None:
    client = tether.Client(backend)
    await client.start(takes, {"a": 1, "b": {"x": 1, "y": 2}}, run_id="dicts")
    await client.start(takes, {"b": {"y": 2, "x": 1}, "a": 1}, run_id="dicts")
    await client.start(takes, opt={"y": 2, "x": 1}, run_id="kw")
    await client.start(takes, opt={"x": 1, "y": 2}, run_id="kw")


async def test_other_input_is_still_a_conflict(backend: Backend) -> None:
    client = tether.Client(backend)
    await client.start(takes, {"a": 1}, run_id="other")
    with pytest.raises(tether.errors.ConflictError, match="other input"):
        await client.start(takes, {"a": 2}, run_id="other")
    with pytest.raises(tether.errors.ConflictError, match="other input"):
        await client.start(takes, {1, 2}, run_id="other")


async def test_digest_is_stored_with_the_run(backend: Backend) -> None:
    await tether.Client(backend).start(takes, {"b": 1, "a": 2}, run_id="stored")
    run = await backend.stores.workflow.get_run("stored")
    assert run is not None
    assert run.input_digest == _codec.digest({"args": [{"a": 2, "b": 1}], "kwargs": {}})
    assert run.input_digest.startswith("sha256:")


async def test_runs_without_a_digest_compare_bytes(backend: Backend) -> None:
    store = backend.stores.workflow

    def new(payload: bytes, digest: str | None) -> NewRun:
        return NewRun(
            run_id="legacy",
            workflow_name="takes",
            input=payload,
            deployment="run-inputs",
            engine_version="0",
            queue="q",
            input_digest=digest,
        )

    payload = _codec.encode({"args": [1], "kwargs": {}})
    _, created = await store.create_run(new(payload, None))
    assert created
    _, created = await store.create_run(new(payload, "sha256:abc"))
    assert not created
    with pytest.raises(tether.errors.ConflictError):
        await store.create_run(new(_codec.encode({"args": [2], "kwargs": {}}), "sha256:abc"))


START = textwrap.dedent(
    """
    import asyncio, json, sys
    import tether

    registry = tether.Registry(deployment="run-inputs")

    @registry.workflow(name="takes")
    async def takes(ctx, *args, **kwargs):
        return None

    async def main(url, options):
        words = set(json.loads(sys.argv[3]))
        # The same mapping, its keys inserted in another order in each process.
        ranks = dict(sorted({w: i for i, w in enumerate(sorted(words))}.items(), reverse=%s))
        async with tether.open_backend(url, **options) as backend:
            await tether.Client(backend).start(
                takes, words, ranks,
                run_id="across", tags=frozenset(words),
            )
        print(json.dumps(list(words)))

    asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
    """
)


def start_in_process(seed: str, url: str, options: dict[str, str], reverse: bool) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, "-c", START % reverse, url, json.dumps(options), json.dumps(WORDS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    order: list[str] = json.loads(out.stdout)
    return order


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shared_url(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[str, dict[str, str]]]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/shared.db", {}
        return
    import psycopg
    from psycopg import sql

    url: str = request.getfixturevalue("tether_postgres_url")
    namespace = f"t_{secrets.token_hex(6)}"
    try:
        yield url, {"namespace": namespace}
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace))
            )


def test_same_input_from_processes_with_other_hash_seeds(
    shared_url: tuple[str, dict[str, str]],
) -> None:
    url, options = shared_url
    first = start_in_process("1", url, options, reverse=False)
    second = start_in_process("2", url, options, reverse=True)
    # The precondition: the two processes really iterate the set differently.
    assert first != second and sorted(first) == sorted(second)


async def test_a_store_from_before_digests_is_migrated(
    shared_url: tuple[str, dict[str, str]],
) -> None:
    url, options = shared_url
    async with tether.open_backend(url, **options) as backend:
        await tether.Client(backend).start(takes, {"a": 1}, run_id="old")
    # Stage the store as schema version 5 left it: no digest column, and none of the
    # later migrations' (9: chains of runs, hook retention; 14: run labels; 17: the
    # indexes of active hooks and of chains; 18: receipts of redacted submissions; 19:
    # purged runs and the retention sweep's index; 25: the usage of settled calls).
    later = (
        "DROP INDEX tether_budget_reservations_settled",
        "ALTER TABLE tether_budget_reservations DROP COLUMN usage",
        "ALTER TABLE tether_budget_reservations DROP COLUMN settled_at",
        "DROP INDEX tether_runs_prunable",
        "ALTER TABLE tether_runs DROP COLUMN purged",
        "ALTER TABLE tether_agent_submissions DROP COLUMN redacted_at",
        "DROP INDEX tether_hooks_active",
        "DROP INDEX tether_runs_chains",
        "DROP TABLE tether_run_labels",
        "ALTER TABLE tether_runs DROP COLUMN labels",
        "DROP INDEX tether_runs_chain",
        "ALTER TABLE tether_runs DROP COLUMN chain_id",
        "ALTER TABLE tether_runs DROP COLUMN generation",
        "ALTER TABLE tether_hooks DROP COLUMN chain_id",
        "ALTER TABLE tether_hooks DROP COLUMN retained_until",
    )
    if url.startswith("sqlite"):
        import sqlite3

        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        conn.execute("ALTER TABLE tether_runs DROP COLUMN input_digest")
        for statement in later:
            conn.execute(statement)
        conn.execute("UPDATE tether_meta SET value = '5' WHERE key = 'schema_version'")
        conn.commit()
        conn.close()
    else:
        import psycopg

        search = f"-c search_path={options['namespace']}"
        with psycopg.connect(url, autocommit=True, options=search) as pg:
            pg.execute("ALTER TABLE tether_runs DROP COLUMN input_digest")
            for statement in later:
                pg.execute(statement)
            pg.execute("UPDATE tether_meta SET value = '5' WHERE key = 'schema_version'")
    with pytest.raises(tether.errors.FormatVersionError, match="tether migrate"):
        async with tether.open_backend(url, migrate=False, **options):
            pass
    async with tether.open_backend(url, **options) as backend:
        client = tether.Client(backend)
        # The old run has no digest: the same input is recognised by its bytes.
        await client.start(takes, {"a": 1}, run_id="old")
        with pytest.raises(tether.errors.ConflictError):
            await client.start(takes, {"a": 2}, run_id="old")
        run = await backend.stores.workflow.get_run("old")
        assert run is not None and run.input_digest is None
