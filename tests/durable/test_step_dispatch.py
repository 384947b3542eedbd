"""A sync step's body started by the store the moment its start is durable.

On SQLite the writer thread starts the body right after the COMMIT that records the
step's start, one hand-off through the event loop sooner; a store that does not (the
in-memory one) leaves the start to the engine, on the loop, as before; Postgres starts
it as soon as the commit's answer is in, before the engine's own bookkeeping. Either way
the body never runs before its start is durable, and runs once.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.durable._bodies import PreparedBody

registry = tether.Registry(deployment="dispatch")
seen: list[tuple[str, int, str]] = []


def check_durable(db: str) -> str:
    info = tether.step_info()
    # What another process sees now: the attempt this body is must already be written.
    conn = sqlite3.connect(db)
    try:
        row = conn.execute(
            "SELECT status, attempt FROM tether_steps WHERE run_id = ? AND step_id = ?",
            (info.run_id, info.step_id),
        ).fetchone()
    finally:
        conn.close()
    seen.append((str(row), info.attempt, threading.current_thread().name))
    return "ok"


def plain(i: int) -> int:
    seen.append(("plain", i, threading.current_thread().name))
    return i


@registry.workflow(name="durable_first")
async def durable_first(ctx: tether.WorkflowContext, db: str) -> list[Any]:
    return [await ctx.step(check_durable, db) for _ in range(3)]


@registry.workflow(name="plain_steps")
async def plain_steps(ctx: tether.WorkflowContext) -> int:
    return sum([await ctx.step(plain, i) for i in range(3)])


def spy_starts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    starts: list[tuple[str, bool]] = []
    start = PreparedBody.start

    def spy(self: PreparedBody) -> bool:
        started = start(self)
        starts.append((threading.current_thread().name, started))
        return started

    monkeypatch.setattr(PreparedBody, "start", spy)
    return starts


async def test_on_sqlite_the_writer_thread_starts_the_body_once_its_start_is_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen.clear()
    starts = spy_starts(monkeypatch)
    db = str(tmp_path / "d.db")
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        async with tether.Worker(backend, registry, poll_interval=0.01):
            handle = await tether.Client(backend).start(durable_first, db)
            assert await handle.result(timeout=20) == ["ok"] * 3
    assert [s for s, _, _ in seen] == ["('running', 1)"] * 3
    assert all(name.startswith("tether-step") for _, _, name in seen)
    assert len(starts) == 3
    assert all(name.startswith("tether-sqlite-writer") and ok for name, ok in starts)


async def test_a_store_that_does_not_start_bodies_leaves_it_to_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen.clear()
    starts = spy_starts(monkeypatch)
    async with tether.open_backend("memory://") as backend:
        async with tether.Worker(backend, registry, poll_interval=0.01):
            handle = await tether.Client(backend).start(plain_steps)
            assert await handle.result(timeout=20) == 3
    assert starts == []
    assert [(s, i) for s, i, _ in seen] == [("plain", 0), ("plain", 1), ("plain", 2)]


@pytest.mark.postgres
async def test_on_postgres_the_body_starts_as_the_commit_answer_arrives(
    pg_url: str, pg_namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen.clear()
    starts = spy_starts(monkeypatch)
    async with tether.open_backend(pg_url, namespace=pg_namespace) as backend:
        async with tether.Worker(backend, registry, poll_interval=0.01):
            handle = await tether.Client(backend).start(plain_steps)
            assert await handle.result(timeout=20) == 3
    assert [(s, i) for s, i, _ in seen] == [("plain", 0), ("plain", 1), ("plain", 2)]
    assert len(starts) == 3 and all(ok for _, ok in starts)
