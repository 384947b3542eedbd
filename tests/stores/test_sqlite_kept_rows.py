"""The SQLite writer keeps the rows its commits wrote, and never trusts them when stale.

A step's commit reads the run's row and the step's row, and a run's end looks for
hooks; the writer serves those from what its own earlier transactions wrote
(`SqliteDatabase.kept`). Each test here makes a kept row stale in one of the ways it
can go stale (another connection's commit, a write that does not keep rows, a commit
rolled back) and checks the next commit sees the file, not the copy.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.errors import FencedError, TetherError
from tether.stores import Commit, NewEvent, WorkflowStore
from tether.testing.contract._workflow import _run, _step


def _commit(epoch: int, head: int, *events: NewEvent, run_id: str = "r", **kw: Any) -> Commit:
    return Commit(run_id=run_id, owner="w1", epoch=epoch, expected_head=head, events=events, **kw)


def _done(step_id: str) -> NewEvent:
    return NewEvent(event_type="step_completed", correlation_id=step_id, payload=b"y")


async def _started(store: WorkflowStore, run_id: str) -> tuple[int, int]:
    """A run started eagerly for "w1", with one step created: (epoch, head)."""
    _, _, claimed = await store.start_run(_run(run_id), owner="w1", lease_seconds=30)
    assert claimed is not None and claimed[1].run is not None
    epoch, head = claimed[1].epoch, claimed[1].run.head
    result = await store.commit(_commit(epoch, head, _step("a", 1), run_id=run_id))
    return epoch, result.head


def _kept(backend: Any) -> dict[Any, Any]:
    kept: dict[Any, Any] = backend.stores.workflow._db.kept
    return kept


async def test_a_step_commit_reads_neither_the_run_nor_the_step_back(tmp_path: Path) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/t.db") as backend:
        store = backend.stores.workflow
        epoch, head = await _started(store, "r")
        statements: list[str] = []
        db = store._db  # type: ignore[attr-defined]
        write = db.write

        async def traced(fn: Any, **kwargs: Any) -> Any:
            def run(conn: sqlite3.Connection) -> Any:
                conn.set_trace_callback(statements.append)
                try:
                    return fn(conn)
                finally:
                    conn.set_trace_callback(None)

            return await write(run, **kwargs)

        db.write = traced
        await store.commit(_commit(epoch, head, _done("a"), _step("b", 2)))
        assert statements and not [s for s in statements if s.lstrip().startswith("SELECT")]
        assert ("run", "r") in _kept(backend) and ("step", "r", "b") in _kept(backend)


async def test_another_connections_commit_is_seen(tmp_path: Path) -> None:
    """Another process (here another connection) releases the run: the holder is fenced."""
    url = f"sqlite:///{tmp_path}/t.db"
    async with tether.open_backend(url) as ours, tether.open_backend(url) as theirs:
        store = ours.stores.workflow
        epoch, head = await _started(store, "r")
        assert ("run", "r") in _kept(ours)
        await theirs.stores.workflow.release_run("r", owner="w1", epoch=epoch)
        with pytest.raises(FencedError):
            await store.commit(_commit(epoch, head, _done("a")))
        assert (await store.get_run("r")).head == head  # type: ignore[union-attr]


async def test_a_write_that_keeps_no_rows_makes_the_writer_forget_them(tmp_path: Path) -> None:
    async with tether.open_backend(f"sqlite:///{tmp_path}/t.db") as backend:
        store = backend.stores.workflow
        epoch, head = await _started(store, "r")
        # Its own raw UPDATE of the run's row, on the same writer.
        await store.release_run("r", owner="w1", epoch=epoch)
        assert not _kept(backend)
        with pytest.raises(FencedError):
            await store.commit(_commit(epoch, head, _done("a")))


async def test_a_commit_rolled_back_leaves_nothing_kept(tmp_path: Path) -> None:
    """A commit that fails after writing rows: what it kept was rolled back with it."""
    async with tether.open_backend(f"sqlite:///{tmp_path}/t.db") as backend:
        store = backend.stores.workflow
        epoch, head = await _started(store, "r")
        # Step "b" is created, then a second creation of "a" is refused by the database:
        # the whole commit is rolled back, "b" with it.
        with pytest.raises(TetherError):
            await store.commit(_commit(epoch, head, _step("b", 2), _step("a", 3)))
        assert ("step", "r", "b") not in _kept(backend)
        assert await store.list_events("r", after=head) == []
        # Completing "b", which does not exist, is refused as on a fresh store; the run
        # goes on from the same head.
        with pytest.raises(TetherError):
            await store.commit(_commit(epoch, head, _done("b")))
        done = await store.commit(_commit(epoch, head, _done("a")))
        assert done.head == head + 1


async def test_a_run_that_holds_a_hook_disposes_it_when_it_ends(tmp_path: Path) -> None:
    """A new run is known to hold no hook until a commit creates one."""
    async with tether.open_backend(f"sqlite:///{tmp_path}/t.db") as backend:
        store = backend.stores.workflow
        epoch, head = await _started(store, "r")
        assert ("hookless", "r") in _kept(backend)
        hook = NewEvent(
            event_type="hook_created", correlation_id="h", attrs={"token": "tok", "slot": 2}
        )
        head = (await store.commit(_commit(epoch, head, hook))).head
        assert ("hookless", "r") not in _kept(backend)
        end = NewEvent(event_type="run_completed", payload=b"z")
        await store.commit(_commit(epoch, head, _done("a"), end, release=True))
        events = [e.event_type for e in await store.list_events("r")]
        assert events[-1] == "hook_disposed", events
        assert await store.get_hook("tok") is None


async def test_the_kept_rows_are_bounded_by_the_bytes_they_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs with large inputs are not all kept: past the bound the writer forgets them."""
    from tether.stores.sqlite import _db

    monkeypatch.setattr(_db, "KEPT_BYTES", 100_000)
    async with tether.open_backend(f"sqlite:///{tmp_path}/t.db") as backend:
        store = backend.stores.workflow
        for i in range(5):
            await store.start_run(
                _run(f"big{i}", input=b"x" * 40_000), owner="w1", lease_seconds=30
            )
        kept = backend.stores.workflow._db.kept  # type: ignore[attr-defined]
        # At most one write past the bound before the next transaction forgets them.
        assert kept.bytes <= 100_000 + 40_000
        assert len([i for i in range(5) if ("run", f"big{i}") in kept]) < 5
        # Nothing of it is lost: every run reads back whole.
        for i in range(5):
            run = await store.get_run(f"big{i}")
            assert run is not None and len(run.input) == 40_000
