"""The agent persistence contract suites against Postgres, plus a cross-process race."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tether.stores import StreamIdentity, SubmissionClaim, SubmissionInput
from tether.stores.postgres import PostgresBackend
from tether.testing.contract import (
    AttachmentContract,
    ConversationContract,
    CredentialContract,
    SubmissionContract,
)

CHILD = str(Path(__file__).with_name("pg_agent_children.py"))


class TestPostgresAgentStores(
    SubmissionContract, ConversationContract, AttachmentContract, CredentialContract
):
    @pytest.fixture
    async def backend(self, pg_url: str, pg_namespace: str) -> AsyncIterator[Any]:
        async with PostgresBackend(pg_url, namespace=pg_namespace, pool_size=4) as backend:
            await backend.migrate()
            await backend.connect()
            yield backend


def spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, CHILD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def wait_for(path: Path, proc: subprocess.Popen[str], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"child exited early: {proc.communicate()[1]}")
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.005)


async def test_two_processes_racing_for_session_heads_exactly_one_wins(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str, tmp_path: Path
) -> None:
    sessions = 20
    store = pg_backend.stores.submissions
    # Each session holds a head and a second submission queued behind it: only the
    # head may be claimed, and by exactly one of the racers.
    for n in range(sessions):
        for place in ("head", "next"):
            await store.admit_direct(
                SubmissionInput(
                    submission_id=f"s{n}-{place}",
                    agent_name="helper",
                    instance_id=f"inst-{n}",
                    canonical_ready=True,
                )
            )
    children = [
        spawn("claim", pg_url, pg_namespace, str(tmp_path), name, str(sessions)) for name in "ab"
    ]
    for name, child in zip("ab", children, strict=True):
        wait_for(tmp_path / f"ready-{name}", child)
    (tmp_path / "go").write_text("")
    won = [finish(child)["won"] for child in children]
    assert not set(won[0]) & set(won[1])
    assert sorted(won[0] + won[1]) == sorted(f"s{n}-head" for n in range(sessions))
    running = await store.list_running_submissions()
    assert sorted(s.submission_id for s in running) == sorted(won[0] + won[1])
    owners = {s.submission_id: s.owner_id for s in running}
    for name, claimed in zip("ab", won, strict=True):
        assert all(owners[sid] == name for sid in claimed)


async def test_subscribers_hear_appends_made_through_another_backend(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str
) -> None:
    # A second backend has its own pool and listener, as another process would.
    identity = StreamIdentity(agent_name="helper", instance_id="inst-1")
    path = "agents/helper/inst-1"
    heard = asyncio.Event()
    local_calls: list[None] = []

    def listener() -> None:
        local_calls.append(None)
        heard.set()

    unsubscribe = pg_backend.stores.conversations.subscribe(path, listener)
    async with PostgresBackend(pg_url, namespace=pg_namespace, pool_size=2) as other:
        streams = (await other.connect()).conversations
        await streams.create_stream(path, identity)
        claim = await streams.acquire_producer(path, "elsewhere")
        await streams.append(
            path=path,
            producer_id="elsewhere",
            producer_epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
            producer_sequence=0,
            records=[{"n": 0}],
        )
        await asyncio.wait_for(heard.wait(), 5)
    read = await pg_backend.stores.conversations.read(path)
    assert [b.records for b in read.batches] == [({"n": 0},)]
    unsubscribe()
    # A local append is heard once: its own NOTIFY echo is ignored.
    heard.clear()
    local_calls.clear()
    mine = pg_backend.stores.conversations
    claim = await mine.acquire_producer(path, "here")
    await mine.append(
        path=path,
        producer_id="here",
        producer_epoch=claim.producer_epoch,
        incarnation=claim.incarnation,
        producer_sequence=0,
        records=[{"n": 1}],
    )
    assert local_calls == []  # unsubscribed
    again = mine.subscribe(path, listener)
    await mine.append(
        path=path,
        producer_id="here",
        producer_epoch=claim.producer_epoch,
        incarnation=claim.incarnation,
        producer_sequence=1,
        records=[{"n": 2}],
    )
    await asyncio.sleep(0.2)  # time for an echo to arrive, were it not ignored
    assert len(local_calls) == 1
    again()


async def test_a_malformed_stored_row_is_settled_with_an_error_not_run(
    pg_backend: PostgresBackend, pg_url: str, pg_namespace: str
) -> None:
    store = pg_backend.stores.submissions
    for name in ("bad", "good"):
        await store.admit_direct(
            SubmissionInput(
                submission_id=name,
                agent_name="helper",
                instance_id=f"inst-{name}",
                canonical_ready=True,
            )
        )
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL(
                "UPDATE {}.tether_agent_submissions SET payload = %s WHERE submission_id = 'bad'"
            ).format(sql.Identifier(pg_namespace)),
            (b"{not json",),
        )
    runnable = await store.list_runnable_submissions()
    assert [s.submission_id for s in runnable] == ["good"]
    bad = await store.get_submission("bad")
    assert bad is not None and bad.status == "settled" and bad.outcome == "failed"
    assert bad.error is not None and "malformed" in bad.error
    claim = SubmissionClaim(
        submission_id="bad", attempt_id="a1", owner_id="w", lease_expires_at=time.time() + 30
    )
    assert await store.claim_submission(claim) is None
