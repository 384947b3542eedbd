"""Agent stores on one SQLite file shared by real processes: races, SIGKILL, bad rows."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tether.errors import IntegrityError
from tether.stores import (
    AttemptRef,
    SettledRecord,
    StreamIdentity,
    SubmissionClaim,
    SubmissionInput,
    make_attachment_ref,
    open_backend,
)

CHILD = str(Path(__file__).with_name("_agent_children.py"))
PATH = "agents/helper/inst-1"
IDENTITY = StreamIdentity(agent_name="helper", instance_id="inst-1")


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


def count(db: Path, sql: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


async def test_two_processes_racing_for_session_heads_never_both_win(tmp_path: Path) -> None:
    db = tmp_path / "race.db"
    heads = 25
    async with open_backend(f"sqlite:///{db}") as backend:
        for n in range(heads):
            await backend.stores.submissions.admit_direct(
                SubmissionInput(
                    submission_id=f"s{n}",
                    agent_name="helper",
                    instance_id=f"inst-{n}",
                    canonical_ready=True,
                )
            )
    children = [spawn("claim", str(db), str(tmp_path), name, str(heads)) for name in "ab"]
    for name, child in zip("ab", children, strict=True):
        wait_for(tmp_path / f"ready-{name}", child)
    (tmp_path / "go").write_text("")
    won = [finish(child)["won"] for child in children]
    assert sorted(won[0] + won[1]) == sorted(f"s{n}" for n in range(heads))
    assert not set(won[0]) & set(won[1])
    async with open_backend(f"sqlite:///{db}") as backend:
        running = await backend.stores.submissions.list_running_submissions()
        assert len(running) == heads
        for sub in running:
            assert sub.attempt_count == 1
            assert sub.submission_id in won[0 if sub.owner_id == "a" else 1]


async def test_a_fenced_producer_process_is_rejected_and_the_stream_stays_dense(
    tmp_path: Path,
) -> None:
    db = tmp_path / "producers.db"
    async with open_backend(f"sqlite:///{db}") as backend:
        await backend.stores.conversations.create_stream(PATH, IDENTITY)
    first = spawn("produce", str(db), str(tmp_path), "first", "100000")
    wait_for(tmp_path / "first-appending", first)
    second = spawn("produce", str(db), str(tmp_path), "second", "50")
    second_result = finish(second)
    first_result = finish(first)
    assert first_result["fenced"] and not second_result["fenced"]
    assert second_result["appended"] == 50
    async with open_backend(f"sqlite:///{db}") as backend:
        batches = []
        offset = "-1"
        while True:
            page = await backend.stores.conversations.read(PATH, offset=offset, limit=1000)
            batches.extend(page.batches)
            offset = page.next_offset
            if page.up_to_date:
                break
    assert len(batches) == first_result["appended"] + 50
    assert [int(b.offset) for b in batches] == list(range(1, len(batches) + 1))  # dense
    owners = [b.records[0]["by"] for b in batches]
    assert owners == ["first"] * first_result["appended"] + ["second"] * 50  # ordered
    for name in ("first", "second"):
        sequences = [b.records[0]["n"] for b in batches if b.records[0]["by"] == name]
        assert sequences == list(range(len(sequences)))


async def test_concurrent_exact_attachment_puts_from_processes_store_one_row(
    tmp_path: Path,
) -> None:
    db = tmp_path / "puts.db"
    async with open_backend(f"sqlite:///{db}"):
        pass
    names = ["p1", "p2", "p3"]
    children = [spawn("put", str(db), str(tmp_path), name) for name in names]
    for name, child in zip(names, children, strict=True):
        wait_for(tmp_path / f"ready-{name}", child)
    (tmp_path / "go").write_text("")
    assert all(finish(child)["ok"] for child in children)
    assert count(db, "SELECT count(*) FROM tether_attachments") == 1
    assert count(db, "SELECT count(*) FROM tether_attachment_chunks") == 3
    async with open_backend(f"sqlite:///{db}") as backend:
        stored = await backend.stores.attachments.get(
            stream_path=PATH, conversation_id="conv", attachment_id="shared"
        )
        assert stored is not None and stored.data == bytes(range(256)) * 6000


@pytest.mark.crash
@pytest.mark.parametrize("size", ["small", "big"])
async def test_sigkill_mid_append_leaves_the_batch_wholly_present_or_absent(
    tmp_path: Path, size: str
) -> None:
    db = tmp_path / "crash.db"
    async with open_backend(f"sqlite:///{db}") as backend:
        await backend.stores.conversations.create_stream(PATH, IDENTITY)
    child = spawn("crash-append", str(db), str(tmp_path), size)
    wait_for(tmp_path / "in-write", child)
    os.kill(child.pid, signal.SIGKILL)
    child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    async with open_backend(f"sqlite:///{db}") as backend:
        streams = backend.stores.conversations
        read = await streams.read(PATH)
        meta = await streams.get_meta(PATH)
        assert meta is not None
        if read.batches:  # wholly present
            (batch,) = read.batches
            assert len(batch.records) == (6 if size == "big" else 5)
            assert meta.head_offset == batch.offset
        else:  # wholly absent: no head move, no stray rows
            assert meta.head_offset == "-1"
            assert count(db, "SELECT count(*) FROM tether_conversation_batches") == 0
            assert count(db, "SELECT count(*) FROM tether_conversation_batch_chunks") == 0
        # The stream is still usable by a new producer.
        claim = await streams.acquire_producer(PATH, "after")
        await streams.append(
            path=PATH,
            producer_id="after",
            producer_epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
            producer_sequence=0,
            records=[1],
        )


@pytest.mark.crash
async def test_sigkill_mid_attachment_put_leaves_it_absent_or_verified(tmp_path: Path) -> None:
    db = tmp_path / "crash-put.db"
    async with open_backend(f"sqlite:///{db}"):
        pass
    child = spawn("crash-put", str(db), str(tmp_path))
    wait_for(tmp_path / "in-write", child)
    os.kill(child.pid, signal.SIGKILL)
    child.communicate(timeout=30)
    async with open_backend(f"sqlite:///{db}") as backend:
        stored = await backend.stores.attachments.get(
            stream_path=PATH, conversation_id="conv", attachment_id="doomed"
        )
        if stored is None:
            assert count(db, "SELECT count(*) FROM tether_attachment_chunks") == 0
        else:
            assert stored.data == b"\x07" * 1_200_000
        data = b"\x07" * 1_200_000  # a retry after the crash succeeds and verifies
        ref = make_attachment_ref("doomed", data, mime_type="application/octet-stream")
        await backend.stores.attachments.put(
            stream_path=PATH, conversation_id="conv", ref=ref, data=data
        )
        again = await backend.stores.attachments.get(
            stream_path=PATH, conversation_id="conv", attachment_id="doomed"
        )
        assert again is not None and again.data == data


async def test_malformed_stored_rows_are_settled_with_an_error_not_run(tmp_path: Path) -> None:
    db = tmp_path / "bad.db"
    async with open_backend(f"sqlite:///{db}") as backend:
        store = backend.stores.submissions
        for name in ("bad-json", "bad-status", "bad-record", "good"):
            await store.admit_direct(
                SubmissionInput(
                    submission_id=name, agent_name="helper", instance_id=name, canonical_ready=True
                )
            )
        claimed = await store.claim_submission(
            SubmissionClaim(
                submission_id="bad-record",
                attempt_id="a",
                owner_id="w",
                lease_expires_at=time.time() + 30,
            )
        )
        assert claimed is not None
        reserved = await store.reserve_settlement(
            AttemptRef(submission_id="bad-record", attempt_id="a"),
            record_id="r",
            record=SettledRecord(outcome="completed"),
        )
        assert reserved is not None
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "UPDATE tether_agent_submissions SET payload = x'7b6e6f74' "
            "WHERE submission_id = 'bad-json'"
        )
        conn.execute(
            "UPDATE tether_agent_submissions SET status = 'exploded' "
            "WHERE submission_id = 'bad-status'"
        )
        conn.execute(
            "UPDATE tether_agent_submissions SET settlement_record = 'garbage' "
            "WHERE submission_id = 'bad-record'"
        )
    conn.close()
    async with open_backend(f"sqlite:///{db}") as backend:
        store = backend.stores.submissions
        runnable = await store.list_runnable_submissions()
        assert [s.submission_id for s in runnable] == ["good"]
        assert await store.list_pending_settlements() == []
        for name in ("bad-json", "bad-status", "bad-record"):
            row = await store.get_submission(name)
            assert row is not None and row.status == "settled" and row.outcome == "failed"
            assert row.error is not None and "malformed" in row.error
            assert (
                await store.claim_submission(
                    SubmissionClaim(
                        submission_id=name,
                        attempt_id="x",
                        owner_id="w",
                        lease_expires_at=time.time() + 30,
                    )
                )
                is None
            )
        assert [s.submission_id for s in await store.list_running_submissions()] == []


async def test_corrupted_attachment_bytes_fail_verification_on_read(tmp_path: Path) -> None:
    db = tmp_path / "rot.db"
    data = b"precious" * 1000
    ref = make_attachment_ref("a", data, mime_type="text/plain")
    async with open_backend(f"sqlite:///{db}") as backend:
        await backend.stores.attachments.put(
            stream_path=PATH, conversation_id="conv", ref=ref, data=data
        )
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE tether_attachment_chunks SET data = ?", (b"rotten" * 1000,))
    conn.close()
    async with open_backend(f"sqlite:///{db}") as backend:
        with pytest.raises(IntegrityError):
            await backend.stores.attachments.get(
                stream_path=PATH, conversation_id="conv", attachment_id="a"
            )
