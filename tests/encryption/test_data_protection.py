"""Encryption at rest, end to end: nothing readable on disk, ciphertexts bound to their
place, keys checked at open, rotation, erasure (backups included), large payloads."""

from __future__ import annotations

import asyncio
import secrets
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, approval, tool
from tether.errors import ContentDeletedError, DecryptionError, EncryptionKeyError
from tether.stores import (
    Backend,
    FoldCheckpoint,
    LocalKeyFile,
    StreamIdentity,
    SubmissionAttachment,
    SubmissionInput,
    init_key_file,
    make_attachment_ref,
    open_backend,
)
from tether.testing import Reply, ScriptedModel, tool_call

MARK = "ZQX" + secrets.token_hex(6).upper()
BIG = 300 * 1024  # over the 256 KiB large-payload threshold


@tool
def lookup(q: str) -> dict[str, Any]:
    return {"found": f"{q}-{MARK}-tool-result"}


@tool
def big_report() -> str:
    return f"{MARK}-big " + "y" * BIG


@tool(approval=approval.always())
def restart(service: str) -> str:
    return f"restarted {service}"


@tool
def broken(q: str) -> str:
    raise ValueError(f"{MARK}-tool-error {q}")


def _agents() -> list[Agent]:
    helper = Agent(
        name="helper", model=ScriptedModel([f"helper says {MARK}-sub-reply"]), tools=[lookup]
    )
    script = [
        Reply(
            text=f"checking {MARK}-assistant",
            tool_calls=(
                tool_call("lookup", {"q": f"{MARK}-arg"}),
                tool_call("big_report", {}),
                tool_call("broken", {"q": "x"}),
            ),
        ),
        Reply(tool_calls=(tool_call("restart", {"service": f"{MARK}-svc"}),)),
        Reply(tool_calls=(tool_call("helper", {"task": f"{MARK}-task"}),)),
        f"all done {MARK}-final",
    ]
    ops = Agent(
        name="ops",
        model=ScriptedModel(script),
        tools=[lookup, big_report, restart, broken, helper.as_tool()],
    )
    return [ops]


registry = tether.Registry(deployment="dp")


def _slow(x: str) -> str:
    return f"{x}-{MARK}-step-output"


@registry.workflow()
async def plain(ctx: tether.WorkflowContext, x: str) -> str:
    first = await ctx.step(_slow, x)
    hook = ctx.create_hook(token=f"tok-{x[:1]}")
    got = await hook.receive()
    return f"{first} {got} {MARK}-run-output"


async def drive(backend: Backend) -> dict[str, Any]:
    """A full agent session (tools, an approval, a sub-agent, attachments) and a workflow."""
    host = AgentHost(backend, _agents())
    stores = backend.stores
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="s1")
        await session.send(f"please {MARK}-message", principal="ada")
        asked = await session.wait_for("input.requested", timeout=60)
        await session.answer(
            asked.data.request.request_id,
            {"approved": True, "reason": f"{MARK}-answer"},
            principal="ada",
        )
        await session.wait_for("turn.completed", timeout=60)
        transcript = await session.transcript()
        await stores.submissions.admit_direct(
            SubmissionInput(
                submission_id="s1:att",
                agent_name="ops",
                instance_id="s1",
                payload={"text": f"{MARK}-second"},
                attachments=(
                    SubmissionAttachment(item_id="i1", mime_type="text/plain", data=MARK.encode()),
                ),
            )
        )
    data = f"{MARK}-attachment".encode()
    ref = make_attachment_ref("a1", data, mime_type="text/plain", filename=f"{MARK}.txt")
    await stores.attachments.put(
        stream_path="agents/ops/s1", conversation_id="c1", ref=ref, data=data
    )
    await stores.conversations.create_stream(
        "fold", StreamIdentity(agent_name="x", instance_id="y")
    )
    meta = await stores.conversations.get_meta("fold")
    assert meta is not None
    await stores.conversations.put_fold_checkpoint(
        "fold",
        FoldCheckpoint(
            head_offset=meta.head_offset,
            incarnation=meta.incarnation,
            format_version=1,
            data=f"{MARK}-fold".encode(),
        ),
    )
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend, registry=registry)
        handle = await client.start(plain, f"{MARK}-input", run_id="p1")
        for _ in range(200):
            if await backend.stores.workflow.get_hook("tok-Z") is not None:
                break
            await asyncio.sleep(0.02)
        await client.resume_hook("tok-Z", f"{MARK}-hook")
        result = await handle.result(timeout=30)
        await backend.stores.workflow.write_stream("p1", "out", [f"{MARK}-chunk".encode()])
    texts = " ".join(str(r) for r in transcript)
    return {"transcript": texts, "result": result}


def _key(tmp_path: Path) -> LocalKeyFile:
    return init_key_file(tmp_path / "key")


def _disk(path: Path) -> bytes:
    out = b""
    for p in sorted(path.parent.iterdir()):
        if p.name.startswith(path.name):  # the file, its WAL and shm, and the keyring's
            out += p.read_bytes()
    return out


async def test_sqlite_file_wal_and_free_pages_hold_no_plaintext(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    async with open_backend(f"sqlite:///{db}", keys=_key(tmp_path)) as backend:
        seen = await drive(backend)
        # Everything decrypts through the API: the marker is in what the session read.
        assert f"{MARK}-sub-reply" in seen["transcript"]
        assert f"{MARK}-tool-result" in seen["transcript"]
        assert f"{MARK}-run-output" in seen["result"] and f"{MARK}-hook" in seen["result"]
        stored = await backend.stores.attachments.get(
            stream_path="agents/ops/s1", conversation_id="c1", attachment_id="a1"
        )
        assert stored is not None and stored.ref.filename == f"{MARK}.txt"
        # Rows deleted by a purge leave free pages behind; they must not hold it either.
        await backend.stores.workflow.purge_run_content("p1")
        assert (db.with_name("t.db-wal")).exists()
        raw = _disk(db)
        at = raw.find(MARK.encode())
        assert at < 0, raw[max(0, at - 300) : at + 100]
        assert MARK.encode().hex().encode() not in raw
    raw = _disk(db)
    assert MARK.encode() not in raw


async def test_the_scan_finds_the_marker_without_a_key(tmp_path: Path) -> None:
    """The control: the same session without a key leaves the marker readable."""
    db = tmp_path / "plain.db"
    async with open_backend(f"sqlite:///{db}") as backend:
        await drive(backend)
    assert MARK.encode() in _disk(db)


@pytest.mark.postgres
async def test_no_postgres_table_holds_plaintext(tether_postgres_url: str, tmp_path: Path) -> None:
    namespace = f"t_{secrets.token_hex(6)}"
    schemas = (namespace, f"{namespace}_keyring")
    try:
        async with open_backend(
            tether_postgres_url, namespace=namespace, pool_size=4, keys=_key(tmp_path)
        ) as backend:
            seen = await drive(backend)
            assert f"{MARK}-sub-reply" in seen["transcript"]
        with psycopg.connect(tether_postgres_url, autocommit=True) as conn:
            tables = conn.execute(
                "SELECT table_schema, table_name FROM information_schema.tables "
                "WHERE table_schema = ANY(%s)",
                (list(schemas),),
            ).fetchall()
            assert len(tables) > 15
            for schema, table in tables:
                query = sql.SQL("SELECT t::text FROM {}.{} t").format(
                    sql.Identifier(schema), sql.Identifier(table)
                )
                for (row,) in conn.execute(query):
                    assert MARK not in row, (table, row[:200])
                    assert MARK.encode().hex() not in row, (table, row[:200])
    finally:
        with psycopg.connect(tether_postgres_url, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )


@pytest.fixture
async def encrypted(tmp_path: Path) -> AsyncIterator[tuple[Backend, Path]]:
    db = tmp_path / "t.db"
    async with open_backend(f"sqlite:///{db}", keys=_key(tmp_path)) as backend:
        yield backend, db


async def _two_steps(backend: Backend) -> None:
    async with tether.Worker(backend, registry, poll_interval=0.02):
        client = tether.Client(backend, registry=registry)
        for x in ("a", "b"):
            await client.start(plain, x, run_id=f"r-{x}")
            for _ in range(200):
                if await backend.stores.workflow.get_hook(f"tok-{x}") is not None:
                    break
                await asyncio.sleep(0.02)
            await client.resume_hook(f"tok-{x}", f"{x}-payload")
            await (await client.get(f"r-{x}")).result(timeout=30)


async def test_a_ciphertext_moved_to_another_row_or_run_fails(
    encrypted: tuple[Backend, Path],
) -> None:
    backend, db = encrypted
    await _two_steps(backend)
    conn = sqlite3.connect(db)
    with conn:
        # Run a's step output, copied over run b's (another run, so another key scope).
        # (A step's output is its `step_completed` event's payload.)
        done = "FROM tether_events WHERE event_type = 'step_completed' AND run_id"
        (a_out,) = conn.execute(f"SELECT payload {done} = 'r-a'").fetchone()
        conn.execute(
            "UPDATE tether_events SET payload = ? "
            "WHERE event_type = 'step_completed' AND run_id = 'r-b'",
            (a_out,),
        )
        # Run a's input moved into its own output: the same scope, another place.
        conn.execute("UPDATE tether_runs SET output = input WHERE run_id = 'r-a'")
    conn.close()
    with pytest.raises(DecryptionError, match=r"step\.output 'r-b'"):
        await backend.stores.workflow.list_steps("r-b")
    with pytest.raises(DecryptionError, match=r"run\.output 'r-a'"):
        await backend.stores.workflow.get_run("r-a")


async def test_a_conversation_batch_moved_to_another_session_fails(
    encrypted: tuple[Backend, Path],
) -> None:
    backend, db = encrypted
    host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(lambda r: "hi"))])
    async with host.worker(poll_interval=0.02):
        for sid in ("x1", "x2"):
            session = await host.open_session("ops", session_id=sid)
            await session.send(f"hello {sid}")
            await session.wait_for("turn.completed", timeout=30)
    conn = sqlite3.connect(db)
    with conn:
        rows = conn.execute(
            "SELECT path, seq, data FROM tether_conversation_batches ORDER BY path, seq"
        ).fetchall()
        first = next(r for r in rows if r[0] == "agents/ops/x1")
        conn.execute(
            "UPDATE tether_conversation_batches SET data = ? WHERE path = 'agents/ops/x2' "
            "AND seq = ?",
            (first[2], first[1]),
        )
    conn.close()
    with pytest.raises(DecryptionError):
        await host.session("ops", "x2").transcript()
    assert await host.session("ops", "x1").transcript()


async def test_wrong_or_missing_key_fails_at_open(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    key = _key(tmp_path)
    async with open_backend(f"sqlite:///{db}", keys=key) as backend:
        await _two_steps(backend)
    with pytest.raises(EncryptionKeyError, match="no key is configured") as missing:
        async with open_backend(f"sqlite:///{db}", env={}):
            pass
    assert missing.value.reason == "missing"
    other = init_key_file(tmp_path / "other")
    with pytest.raises(EncryptionKeyError, match="not the key the store was encrypted with"):
        async with open_backend(f"sqlite:///{db}", keys=other):
            pass
    # Another keyring than the store's own is refused too.
    with pytest.raises(EncryptionKeyError, match="keyring"):
        async with open_backend(
            f"sqlite:///{db}", keys=key, keyring=f"sqlite:///{tmp_path / 'elsewhere.keyring'}"
        ):
            pass
    async with open_backend(f"sqlite:///{db}", keys=key) as backend:
        run = await backend.stores.workflow.get_run("r-a")
        assert run is not None and run.status == "completed"


async def test_rotation_rewraps_keys_and_keeps_everything_readable(tmp_path: Path) -> None:
    from tether.cli import main

    db = tmp_path / "t.db"
    key_file = tmp_path / "key"
    async with open_backend(f"sqlite:///{db}", keys=init_key_file(key_file)) as backend:
        await _two_steps(backend)
    old = LocalKeyFile(key_file).current_key_id
    rotate = ["keys", "rotate", "--key-file", str(key_file), "--db", f"sqlite:///{db}"]
    assert await asyncio.to_thread(main, [*rotate, "--new-key"]) == 0
    rotated = LocalKeyFile(key_file)
    assert rotated.current_key_id != old and old in rotated.key_ids
    async with open_backend(f"sqlite:///{db}", keys=rotated, migrate=False) as backend:
        assert await backend.stores.keys.keyring.key_ids_in_use() == {rotated.current_key_id}  # type: ignore[union-attr]
        steps = await backend.stores.workflow.list_steps("r-a")
        assert steps[0].output is not None and MARK.encode() in steps[0].output
    assert await asyncio.to_thread(main, [*rotate, "--retire"]) == 0
    assert LocalKeyFile(key_file).key_ids == {rotated.current_key_id}
    async with open_backend(f"sqlite:///{db}", keys=key_file, migrate=False) as backend:
        run = await backend.stores.workflow.get_run("r-b")
        assert run is not None and run.output is not None and b"b-payload" in run.output


async def test_erasure_makes_a_backup_taken_before_unreadable(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    key = _key(tmp_path)
    async with open_backend(f"sqlite:///{db}", keys=key) as backend:
        host = AgentHost(backend, _agents())
        async with host.worker(poll_interval=0.02):
            session = await host.open_session("ops", session_id="s1")
            await session.send(f"please {MARK}-message")
            asked = await session.wait_for("input.requested", timeout=60)
            await session.answer(asked.data.request.request_id, "approve")
            await session.wait_for("turn.completed", timeout=60)
            assert await session.transcript()
            await session.close()
            await (await host.client.get(session.run_id)).result(timeout=30)
        backup = tmp_path / "backup"
        backup.mkdir()
        for p in list(tmp_path.iterdir()):  # noqa: ASYNC240
            if p.name.startswith("t.db") and not p.name.startswith("t.db.keyring"):
                shutil.copy(p, backup / p.name)
        erased = await host.erase_session("ops", "s1")
        assert erased.crypto_shredded and erased.scopes[0] == "run:session:s1"
        with pytest.raises(ContentDeletedError, match="erased"):
            await session.transcript()
        with pytest.raises(ContentDeletedError):
            await session.read_events()
        record = await backend.stores.keys.erasure("run:session:s1")  # type: ignore[union-attr]
        assert record is not None and "session 's1'" in record.note
    # The backup copy, opened with the same key and keyring: its ciphertexts are there,
    # their keys are not.
    shutil.copy(tmp_path / "t.db.keyring", backup / "t.db.keyring")  # the keyring of today
    for suffix in ("-wal", "-shm"):
        if (tmp_path / f"t.db.keyring{suffix}").exists():
            shutil.copy(tmp_path / f"t.db.keyring{suffix}", backup / f"t.db.keyring{suffix}")
    async with open_backend(f"sqlite:///{backup / 't.db'}", keys=key) as restored:
        rhost = AgentHost(restored, _agents())
        with pytest.raises(ContentDeletedError):
            await rhost.session("ops", "s1").transcript()
        conversations = restored.stores.conversations
        with pytest.raises(ContentDeletedError):
            await conversations.read("agents/ops/s1")
        steps = await restored.stores.workflow.list_steps("session:s1")
        assert steps and all(s.output is None and s.input is None for s in steps)
        # Another session in the same store is untouched (the erasure is per session).


async def test_retention_zero_erases_the_session_keys(encrypted: tuple[Backend, Path]) -> None:
    backend, _ = encrypted
    agent = Agent(name="ops", model=ScriptedModel([f"{MARK} answer"]), retention=0)
    host = AgentHost(backend, [agent])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="r0")
        sub_id = await session.send("a private question")
        await session.wait_for("turn.completed", timeout=30)
        await session.close()
        ended = await (await host.client.get(session.run_id)).result(timeout=30)
    assert ended["retention"] == "deleted"
    record = await backend.stores.keys.erasure("run:session:r0")  # type: ignore[union-attr]
    assert record is not None
    sub = await backend.stores.submissions.get_submission(sub_id)
    assert sub is not None and sub.payload is None and sub.outcome == "completed"
    with pytest.raises(ContentDeletedError):
        await session.transcript()


async def test_a_large_payload_is_stored_once_and_referenced(
    encrypted: tuple[Backend, Path],
) -> None:
    backend, db = encrypted
    blob = b"z" * (2 * 1024 * 1024)
    store = backend.stores.workflow
    for run_id in ("big1", "big2"):
        await store.create_run(
            tether.stores.NewRun(
                run_id=run_id,
                workflow_name="w",
                input=blob,
                deployment="d",
                engine_version="e",
                queue="q",
                parent_run_id="big1" if run_id == "big2" else None,
                parent_slot=1 if run_id == "big2" else None,
            )
        )
    conn = sqlite3.connect(db)
    sizes = conn.execute("SELECT length(input) FROM tether_runs ORDER BY run_id").fetchall()
    blobs = conn.execute(
        "SELECT count(*) FROM tether_attachments WHERE stream_path LIKE 'tether/blobs/%'"
    ).fetchone()
    conn.close()
    assert all(size < 200 for (size,) in sizes)  # the journal holds a reference
    assert blobs == (1,)  # the same bytes in one scope: stored once
    run = await store.get_run("big2")
    assert run is not None and run.input == blob
