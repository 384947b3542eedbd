"""A retention sweep SIGKILLed midway (SQLite and Postgres): what it had deleted is
deleted whole, the rest intact or finished by the next sweep, and nothing is counted
twice.

The sweep runs in a subprocess whose pruner prints each run it is handed and each
session it counted (after the deletion), and which can stop for good right after it
deleted a session's transcript (before that session's runs): the test kills it at a
known point of the sweep, inside a session's deletion, instead of polling the store.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest

import tether
from tether.agent import Agent, AgentHost, SessionPruner
from tether.durable import prune
from tether.errors import ContentDeletedError
from tether.stores import Backend, Commit, NewEvent, NewRun
from tether.testing import ScriptedModel

pytestmark = pytest.mark.crash

RUNS = 60
SESSIONS = 6
OUTPUT = b'"kept output"'
SECRET = "the-swept-secret-3141"

_SWEEP = """
import asyncio, sys
import tether
from tether.agent import SessionPruner
from tether.durable import prune

pruner = SessionPruner()
block_at = int(sys.argv[3])  # stop for good after this many transcripts deleted (0: never)

async def told(backend, run, *, dry_run):
    print("handed", run.run_id, flush=True)
    pruned = await pruner(backend, run, dry_run=dry_run)
    if pruned is not None and pruned.first:
        print("counted", pruned.id, flush=True)
    return pruned

async def main():
    options = {"namespace": sys.argv[2]} if sys.argv[2] else {}
    async with tether.open_backend(sys.argv[1], **options) as backend:
        kind = type(backend.stores.conversations)
        purge, purged = kind.purge, []

        async def purge_and_tell(self, path):
            await purge(self, path)
            purged.append(path)
            if len(purged) == block_at:
                # Midway through a session: its transcript gone, its runs not yet.
                print("blocked", path, flush=True)
                sys.stdin.readline()  # until the SIGKILL

        kind.purge = purge_and_tell
        await prune(backend, older_than=1e-6, batch_size=1, pruner=told)
        print("done", flush=True)

asyncio.run(main())
"""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[str, str]]:
    """A store URL and its Postgres namespace ("" on SQLite), shared with the sweep."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/crash.db", ""
    else:
        yield request.getfixturevalue("pg_url"), request.getfixturevalue("pg_namespace")


def _open(url: str, namespace: str, **options: Any) -> Any:
    if namespace:
        options["namespace"] = namespace
    return tether.open_backend(url, **options)


@contextmanager
def _sweep(url: str, namespace: str, block_at: int = 0) -> Iterator[subprocess.Popen[str]]:
    sweep = subprocess.Popen(
        [sys.executable, "-c", _SWEEP, url, namespace, str(block_at)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield sweep
    finally:
        if sweep.poll() is None:
            sweep.kill()
            sweep.wait(timeout=10)
        for pipe in (sweep.stdin, sweep.stdout):
            assert pipe is not None
            pipe.close()


def _kill_after(sweep: subprocess.Popen[str], word: str, count: int) -> list[str]:
    """Read the sweep's lines until `count` of them start with `word`, then SIGKILL it;
    the ids of the lines that start with ``counted``."""
    assert sweep.stdout is not None
    counted: list[str] = []
    seen = 0
    while seen < count:
        line = sweep.stdout.readline().split()
        assert line and line[0] != "done", "the sweep ended before the kill"
        seen += line[0] == word
        if line[0] == "counted":
            counted.append(line[1])
    os.kill(sweep.pid, signal.SIGKILL)
    assert sweep.wait(timeout=10) == -signal.SIGKILL
    return counted


# -- runs -------------------------------------------------------------------------------
async def _ended_runs(backend: Backend) -> None:
    store = backend.stores.workflow
    for n in range(RUNS):
        run_id = f"k{n:03d}"
        await store.create_run(
            NewRun(
                run_id=run_id, workflow_name="wf", input=b'{"args":["secret"]}',
                deployment="d", engine_version="e", queue="q",
            )
        )  # fmt: skip
        claim = await store.claim_run(run_id, owner="w", lease_seconds=30)
        assert claim.run is not None
        done = NewEvent(event_type="run_completed", payload=OUTPUT)
        await store.commit(
            Commit(
                run_id=run_id, owner="w", epoch=claim.epoch, expected_head=claim.run.head,
                events=(done,), release=True,
            )
        )  # fmt: skip


async def test_a_sweep_killed_midway_leaves_each_run_whole(store: tuple[str, str]) -> None:
    url, namespace = store
    fast = {"synchronous": "NORMAL"} if not namespace else {}
    async with _open(url, namespace, **fast) as backend:
        await _ended_runs(backend)
    with _sweep(url, namespace) as sweep:
        # Handed the 20th run: the 19 before it were purged, it is being purged.
        _kill_after(sweep, "handed", 20)
    async with _open(url, namespace) as backend:
        store_ = backend.stores.workflow
        left = {r.run_id for r in await store_.list_prunable_runs(time.time(), limit=RUNS)}
        assert 0 < len(left) < RUNS - 18, "the kill did not land midway"
        for n in range(RUNS):
            run = await store_.get_run(f"k{n:03d}")
            assert run is not None
            # Purged (input and output gone, off the list) or intact (both there, listed).
            if run.run_id in left:
                assert run.output is not None and run.input is not None
            else:
                assert run.output is None and run.input is None
        report = await prune(backend, older_than=1e-6)
        assert sorted(report.runs) == sorted(left)
        assert await store_.list_prunable_runs(time.time(), limit=RUNS) == []
        for n in range(RUNS):
            run = await store_.get_run(f"k{n:03d}")
            assert run is not None and run.output is None


# -- sessions ---------------------------------------------------------------------------
async def _ended_sessions(backend: Backend) -> dict[str, str]:
    """`SESSIONS` closed sessions, each of a turn holding the secret: id -> submission."""
    agent = Agent(name="keeper", model=ScriptedModel(lambda request: f"kept {SECRET}"))
    host = AgentHost(backend, [agent])
    submissions: dict[str, str] = {}
    async with host.worker(poll_interval=0.05):
        for n in range(SESSIONS):
            session = await host.open_session("keeper", session_id=f"sw{n}", owner="acme")
            submissions[session.session_id] = await session.send(f"keep {SECRET}")
            await session.wait_for("turn.completed")
            await session.close()
            await (await host.client.get(session.run_id)).result(timeout=20)
    return submissions


async def _transcript_holds_secret(backend: Backend, session_id: str) -> bool:
    batch = await backend.stores.conversations.read(f"agents/keeper/{session_id}")
    return SECRET.encode() in orjson.dumps([b.records for b in batch.batches], default=str)


async def _holds_secret(backend: Backend, session_id: str, submission: str) -> bool:
    """Whether any store still holds the session's secret (its transcript, events, step
    contents, run output or message text)."""
    stores = backend.stores
    if await _transcript_holds_secret(backend, session_id):
        return True
    found: list[bytes] = []
    client = tether.Client(backend)
    handle = await client.get(f"session:{session_id}", follow=False)
    try:
        found.extend(c.data for c in await handle.stream("events").read_all())
    except ContentDeletedError:
        pass
    found.extend(orjson.dumps([s.input, s.output, s.error]) for s in await handle.steps())
    run = await stores.workflow.get_run(f"session:{session_id}")
    assert run is not None
    found.append(run.output or b"")
    received = await stores.submissions.get_submission(submission)
    assert received is not None
    found.append(orjson.dumps(received.payload))
    return any(SECRET.encode() in data for data in found)


async def test_a_session_sweep_killed_midway_finishes_once(store: tuple[str, str]) -> None:
    url, namespace = store
    async with _open(url, namespace) as backend:
        submissions = await _ended_sessions(backend)
        assert all([await _holds_secret(backend, s, m) for s, m in submissions.items()])
    with _sweep(url, namespace, block_at=4) as sweep:
        # Killed while it deletes the fourth session: its transcript gone, its runs not.
        counted = _kill_after(sweep, "blocked", 1)
    async with _open(url, namespace) as backend:
        listed = await backend.stores.workflow.list_prunable_runs(time.time(), limit=SESSIONS)
        left = {r.run_id.removeprefix("session:") for r in listed}
        swept = set(submissions) - left
        assert len(counted) == 3 and set(counted) == swept, (counted, left)
        assert len(left) == SESSIONS - 3
        # The fourth is half deleted: no transcript left, its events and message still
        # there (it stays listed).
        half = [s for s in left if not await _transcript_holds_secret(backend, s)]
        assert len(half) == 1 and await _holds_secret(backend, half[0], submissions[half[0]])
        # A session's run is purged last: one off the list was deleted whole.
        for session_id in swept:
            assert not await _holds_secret(backend, session_id, submissions[session_id])
        # The next sweep finishes the rest (the one the kill cut short too) and counts
        # each of them once: none the killed sweep had counted.
        report = await prune(backend, older_than=1e-6, batch_size=2, pruner=SessionPruner())
        assert sorted(report.sessions) == sorted(left) and report.complete
        assert report.runs == ()
        for session_id, submission in submissions.items():
            assert not await _holds_secret(backend, session_id, submission)
        again = await prune(backend, older_than=1e-6, pruner=SessionPruner())
        assert (again.sessions, again.runs) == ((), ())
