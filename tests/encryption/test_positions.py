"""Stream chunks are bound to their index: a chunk copied or swapped fails to open."""

from __future__ import annotations

import asyncio
import base64
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import orjson
import psycopg
import pytest
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, TurnEndEntry
from tether.errors import DecryptionError
from tether.stores import Backend, StreamIdentity, init_key_file
from tether.stores._agent_records import format_offset
from tether.stores._encrypted_agent import EncryptedConversationStore
from tether.stores._encrypted_workflow import EncryptedWorkflowStore
from tether.stores._encrypted_writes import seal_batch
from tether.stores._sealer import stream_scope
from tether.testing import ScriptedModel

EVENTS = "events"
Raw = Callable[[str, tuple[object, ...]], list[tuple[object, ...]]]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[Backend, Raw]]:
    """An encrypted store and a function running raw SQL on its tables."""
    key = init_key_file(tmp_path / "key")
    if request.param == "sqlite":
        db = tmp_path / "t.db"

        def raw(query: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
            conn = sqlite3.connect(db)
            try:
                with conn:
                    return conn.execute(query.replace("%s", "?"), args).fetchall()
            finally:
                conn.close()

        async with tether.open_backend(f"sqlite:///{db}", keys=key) as backend:
            yield backend, raw
        return
    url = request.getfixturevalue("tether_postgres_url")
    namespace = f"t_{secrets.token_hex(6)}"

    def raw_pg(query: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(namespace)))
            cur = conn.execute(query.encode(), args)  # type: ignore[call-overload]
            return cur.fetchall() if cur.description else []

    try:
        async with tether.open_backend(url, namespace=namespace, keys=key) as backend:
            yield backend, raw_pg
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in (namespace, f"{namespace}_keyring"):
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )


async def _session(backend: Backend) -> tuple[AgentHost, str]:
    host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(["one", "two"]))])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="p1")
        await session.send("first")
        await session.wait_for("turn.completed", timeout=30)
        await session.send("second")
        await session.wait_for("turn.completed", timeout=30)
    return host, session.run_id


def _chunks(raw: Raw, run_id: str) -> list[tuple[int, bytes]]:
    rows = raw(
        "SELECT idx, data FROM tether_stream_chunks WHERE run_id = %s AND name = %s ORDER BY idx",
        (run_id, EVENTS),
    )
    return [(int(i), bytes(d)) for i, d in rows]  # type: ignore[call-overload]


def _put(raw: Raw, run_id: str, idx: int, data: bytes) -> None:
    raw(
        "UPDATE tether_stream_chunks SET data = %s WHERE run_id = %s AND name = %s AND idx = %s",
        (data, run_id, EVENTS, idx),
    )


async def test_a_session_event_copied_to_another_index_fails_naming_its_place(
    store: tuple[Backend, Raw],
) -> None:
    backend, raw = store
    host, run_id = await _session(backend)
    session = host.session("ops", "p1")
    before = await session.read_events()
    chunks = _chunks(raw, run_id)
    assert len(chunks) == len(before) >= 6
    _put(raw, run_id, 4, chunks[1][1])  # event 1's bytes over event 4
    workflow = backend.stores.workflow
    with pytest.raises(DecryptionError, match=rf"stream '{run_id}' 'events' at 4") as failed:
        await session.read_events()
    assert "authentication failed" in str(failed.value)
    with pytest.raises(DecryptionError):
        await workflow.read_stream(run_id, EVENTS, start=4, limit=1)
    # The untouched ones read, the copied-from one included.
    head, _ = await workflow.read_stream(run_id, EVENTS, start=0, limit=4)
    tail, _ = await workflow.read_stream(run_id, EVENTS, start=5)
    assert [c.index for c in head] == [0, 1, 2, 3] and tail[0].index == 5
    assert [e.type for e in (await session.read_events(5))] == [e.type for e in before[5:]]
    # Two chunks swapped: neither opens where it now is.
    _put(raw, run_id, 4, chunks[4][1])
    assert [e.type for e in await session.read_events()] == [e.type for e in before]
    _put(raw, run_id, 2, chunks[3][1])
    _put(raw, run_id, 3, chunks[2][1])
    for idx in (2, 3):
        with pytest.raises(DecryptionError, match=rf"'events' at {idx}"):
            await workflow.read_stream(run_id, EVENTS, start=idx, limit=1)


async def test_chunks_sealed_without_a_position_still_read(store: tuple[Backend, Raw]) -> None:
    """What the release before positions wrote: sealed for the stream alone."""
    backend, raw = store
    workflow = backend.stores.workflow
    assert isinstance(workflow, EncryptedWorkflowStore)
    sealer = workflow._sealer
    scope = await workflow.scope_of("old")
    old = [await sealer.seal(scope, ("stream", "old", "out"), f"c{i}".encode()) for i in range(3)]
    await workflow.inner.write_stream("old", "out", old)
    # Appends made now go on after them, bound to their indexes.
    assert await workflow.write_stream("old", "out", [b"c3"]) == 3
    chunks, _ = await workflow.read_stream("old", "out")
    assert [(c.index, c.data) for c in chunks] == [(i, f"c{i}".encode()) for i in range(4)]
    stored = dict(_chunks_of(raw, "old"))
    assert stored[0][3] == 0 and stored[3][3] == 0x10  # the positioned flag, new chunk only
    # A positioned chunk read where it was not written: refused.
    _put_named(raw, "old", "out", 2, stored[3])
    with pytest.raises(DecryptionError, match=r"'out' at 2"):
        await workflow.read_stream("old", "out", start=2, limit=1)


def _chunks_of(raw: Raw, run_id: str) -> list[tuple[int, bytes]]:
    rows = raw(
        "SELECT idx, data FROM tether_stream_chunks WHERE run_id = %s ORDER BY idx", (run_id,)
    )
    return [(int(i), bytes(d)) for i, d in rows]  # type: ignore[call-overload]


def _put_named(raw: Raw, run_id: str, name: str, idx: int, data: bytes) -> None:
    raw(
        "UPDATE tether_stream_chunks SET data = %s WHERE run_id = %s AND name = %s AND idx = %s",
        (data, run_id, name, idx),
    )


async def test_a_stale_index_is_sealed_again_for_the_stream_tail(
    store: tuple[Backend, Raw],
) -> None:
    """Another writer moved the stream on: the append lands after it and opens there."""
    backend, _ = store
    workflow = backend.stores.workflow
    assert isinstance(workflow, EncryptedWorkflowStore)
    assert await workflow.write_stream("r", "out", [b"a"]) == 0
    # Another process (its own wrapper over the same tables) appends meanwhile.
    other = EncryptedWorkflowStore(workflow.inner, workflow._sealer)
    assert await other.write_stream("r", "out", [b"b", b"c"]) == 2
    assert await workflow.write_stream("r", "out", [b"d"]) == 3
    chunks, _ = await workflow.read_stream("r", "out")
    assert [c.data for c in chunks] == [b"a", b"b", b"c", b"d"]


# -- conversation batches: bound to their offsets -------------------------------------------
PATH = "agents/ops/p1"
_BATCH_COLUMNS = "producer_id, producer_epoch, producer_sequence, data"


async def _conversation(backend: Backend, turns: int = 3) -> None:
    """A session of `turns` turns, each one's end in its transcript before the next."""
    replies = [f"reply {n}" for n in range(turns)]
    host = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(replies))])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="p1")
        for n in range(1, turns + 1):
            await session.send(f"message {n}")
            for _ in range(600):
                ends = [e for e in await session.transcript() if isinstance(e, TurnEndEntry)]
                if len(ends) == n:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError(f"turn {n} did not end")


def _batches(raw: Raw) -> list[tuple[int, tuple[object, ...]]]:
    rows = raw(
        f"SELECT seq, {_BATCH_COLUMNS} FROM tether_conversation_batches WHERE path = %s "
        "ORDER BY seq",
        (PATH,),
    )
    return [(int(r[0]), tuple(r[1:])) for r in rows]  # type: ignore[call-overload]


def _put_batch(raw: Raw, seq: int, row: tuple[object, ...]) -> None:
    """Write a batch row's sealed bytes and producer columns over the row at `seq`."""
    producer_id, epoch, sequence, data = row
    raw(
        "UPDATE tether_conversation_batches SET producer_id = %s, producer_epoch = %s, "
        "producer_sequence = %s, data = %s WHERE path = %s AND seq = %s",
        (producer_id, epoch, sequence, data, PATH, seq),
    )


def _put_batches(raw: Raw, contents: dict[int, tuple[object, ...]]) -> None:
    """Write batch contents over the rows at these offsets.

    Producer positions are unique in a stream: the rows are moved aside first.
    """
    for seq in contents:
        raw(
            "UPDATE tether_conversation_batches SET producer_sequence = -%s "
            "WHERE path = %s AND seq = %s",
            (seq, PATH, seq),
        )
    for seq, row in contents.items():
        _put_batch(raw, seq, row)


def _move(raw: Raw, source: int, target: int) -> None:
    """Move a batch to another offset, in place of the batch there."""
    raw("DELETE FROM tether_conversation_batches WHERE path = %s AND seq = %s", (PATH, target))
    raw(
        "UPDATE tether_conversation_batches SET seq = %s WHERE path = %s AND seq = %s",
        (target, PATH, source),
    )


def _envelope(data: object) -> bytes:
    (record,) = orjson.loads(bytes(data))  # type: ignore[call-overload]
    return base64.b64decode(record["$tether_sealed"].removeprefix("tenc1:"))


async def test_a_transcript_batch_moved_to_another_offset_fails_naming_its_place(
    store: tuple[Backend, Raw],
) -> None:
    backend, raw = store
    await _conversation(backend)
    conversations = backend.stores.conversations
    before = (await conversations.read(PATH)).batches
    rows = dict(_batches(raw))
    assert sorted(rows) == [1, 2, 3] and len(before) == 3
    assert all(_envelope(row[3])[3] & 0x10 for row in rows.values())  # positioned, each
    # Two batches swapped (sealed bytes with their producer columns): each is intact
    # and at its own place, but not at its offset.
    _put_batches(raw, {1: rows[2], 2: rows[1]})
    with pytest.raises(DecryptionError, match=rf"conversation\.batch '{PATH}' .* at 1") as failed:
        await conversations.read(PATH)
    assert "authentication failed" in str(failed.value)
    with pytest.raises(DecryptionError, match=rf"'{PATH}' .* at 2"):
        await conversations.read(PATH, offset=format_offset(1), limit=1)
    third = await conversations.read(PATH, offset=format_offset(2))
    assert third.batches == before[2:]  # the untouched one reads
    # A new host (no transcript cached) loading the session's transcript is refused too.
    fresh = AgentHost(backend, [Agent(name="ops", model=ScriptedModel(["more"]))])
    with pytest.raises(DecryptionError, match=r"at 1"):
        await fresh.session("ops", "p1").transcript()
    # Put back, everything reads as it did.
    _put_batches(raw, {1: rows[1], 2: rows[2]})
    assert (await conversations.read(PATH)).batches == before
    # The first batch moved over the third: refused where it now is.
    _move(raw, 1, 3)
    with pytest.raises(DecryptionError, match=rf"'{PATH}' 'session:p1' '1' '0' at 3"):
        await conversations.read(PATH, offset=format_offset(2))


async def test_batches_sealed_without_an_offset_still_read(store: tuple[Backend, Raw]) -> None:
    """What the release before offsets were bound wrote: sealed for the place alone."""
    backend, raw = store
    conversations = backend.stores.conversations
    assert isinstance(conversations, EncryptedConversationStore)
    inner = conversations.inner
    await conversations.create_stream("old/p", StreamIdentity(agent_name="a", instance_id="i"))
    claim = await conversations.acquire_producer("old/p", "w")
    sealer = conversations._sealer
    common = {
        "producer_id": "w",
        "producer_epoch": claim.producer_epoch,
        "incarnation": claim.incarnation,
    }
    old = await seal_batch(
        sealer, stream_scope("old/p"), path="old/p", producer_id="w",
        producer_epoch=claim.producer_epoch, producer_sequence=0, records=[{"n": 0}], at=None,
    )  # fmt: skip
    await inner.append(path="old/p", producer_sequence=0, records=old, **common)
    # Appended now: bound to offset 2 (the position known from the stream's head).
    second = await conversations.append(
        path="old/p", producer_sequence=1, records=[{"n": 1}], **common
    )
    assert second == format_offset(2)
    read = await conversations.read("old/p")
    assert [b.records for b in read.batches] == [({"n": 0},), ({"n": 1},)]
    stored = raw("SELECT seq, data FROM tether_conversation_batches WHERE path = %s ORDER BY seq",
                 ("old/p",))  # fmt: skip
    flags = [_envelope(d)[3] for _, d in stored]
    assert flags == [0, 0x10]
    # An exact replay of the positioned one, from a process that does not know where it
    # landed, is placed at its offset again and recognised.
    other = EncryptedConversationStore(inner, backend.stores.submissions, sealer)
    again = await other.append(path="old/p", producer_sequence=1, records=[{"n": 1}], **common)
    assert again == second
    assert len((await conversations.read("old/p")).batches) == 2
