"""A cold transcript load starts from the stream's fold checkpoint, on every backend.

A process that holds no copy of a transcript reads the stream's checkpoint and only the
batches after it; what it loads is what reading every batch gives. A checkpoint that is
torn, of another format, of another incarnation, of another stream or that fails its
digest is ignored: the load reads every batch. Reads counted on the real store.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tether.agent import Agent, AgentHost, tool
from tether.agent._records._cursor import Producer
from tether.agent._records._entries import (
    AssistantEntry,
    StateEntry,
    ToolCallEntry,
    ToolResultEntry,
    TurnEndEntry,
    UserEntry,
    entry_json,
    read_entries,
)
from tether.agent._records._keys import conversation_path
from tether.agent._stored import _fold
from tether.agent._stored._fold import FOLD_FORMAT, TranscriptFold, load_fold, save_fold
from tether.agent._stored._transcript import Transcript, TranscriptCache
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import Backend, FoldCheckpoint, StreamIdentity
from tether.testing import Reply, ScriptedModel, tool_call
from tether.testing.contract._markers import stored_rows_of

PATH = "agents/folds/s1"
IDENTITY = StreamIdentity(agent_name="folds", instance_id="s1")


def batch(n: int) -> list[Any]:
    """The `n`-th batch of a transcript shaped like a session's (a turn is four)."""
    turn, part = divmod(n, 4)
    t = f"turn_{turn}"
    if part == 0:
        return [UserEntry(turn_id=t, submission_id=f"m{turn}", text=f"question {turn}")]
    if part == 1:
        call = ToolCallEntry(call_id=f"c{turn}", name="look", arguments={"n": turn})
        return [AssistantEntry(turn_id=t, step_index=0, call=0, tool_calls=(call,))]
    if part == 2:
        result = ToolResultEntry(turn_id=t, call_id=f"c{turn}", name="look", content=f"{turn}")
        return [result, StateEntry(values={"seen": turn})]
    return [
        AssistantEntry(turn_id=t, step_index=1, call=1, text=f"answer {turn}"),
        TurnEndEntry(turn_id=t, outcome="completed"),
    ]


@contextmanager
def counted_batches(backend: Backend) -> Iterator[list[int]]:
    """The number of batches each transcript read through `backend`'s store returned."""
    store = backend.stores.conversations
    original: Callable[..., Any] = store.read
    pages: list[int] = []

    async def read(path: str, **kwargs: Any) -> Any:
        page = await original(path, **kwargs)
        pages.append(len(page.batches))
        return page

    store.read = read  # type: ignore[method-assign]
    try:
        yield pages
    finally:
        store.read = original  # type: ignore[method-assign]


class Stream:
    """A transcript stream written batch by batch, as its session's producer does."""

    def __init__(self, backend: Backend, path: str = PATH) -> None:
        self.backend = backend
        self.path = path
        self.written = 0
        self.producer: Producer | None = None

    async def open(self) -> Stream:
        streams = self.backend.stores.conversations
        await streams.create_stream(self.path, IDENTITY)
        claim = await streams.acquire_producer(self.path, "session:s1")
        self.producer = Producer(
            path=self.path,
            producer_id=claim.producer_id,
            epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
        )
        return self

    async def add(self, count: int) -> None:
        assert self.producer is not None
        for _ in range(count):
            await self.backend.stores.conversations.append(
                path=self.path,
                producer_id=self.producer.producer_id,
                producer_epoch=self.producer.epoch,
                incarnation=self.producer.incarnation,
                producer_sequence=self.written,
                records=[entry_json(e) for e in batch(self.written)],
            )
            self.written += 1

    async def land(self, cache: TranscriptCache, lineage: str) -> None:
        """Append the next batch as a step of `lineage` does: read, append, landed."""
        transcript = self.producing(cache)
        await transcript.entries(lineage)
        write = transcript.append(batch(self.written))
        await self.backend.stores.conversations.append(
            path=write.path,
            producer_id=write.producer_id,
            producer_epoch=write.producer_epoch,
            incarnation=write.incarnation,
            producer_sequence=write.producer_sequence,
            records=write.records,
        )
        transcript.landed(write)
        self.written += 1

    async def every_batch(self) -> list[Any]:
        """The entries of every batch, read and validated one by one (the oracle)."""
        out: list[Any] = []
        offset = "-1"
        while True:
            page = await self.backend.stores.conversations.read(self.path, offset=offset)
            for b in page.batches:
                out.extend(read_entries(b.records, what="oracle"))
            offset = page.next_offset
            if page.up_to_date or not page.batches:
                return out

    def producing(self, cache: TranscriptCache) -> Transcript:
        return Transcript(self.backend.stores, self.path, self.producer, cache)


@pytest.fixture
def small_cadence(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints every 8 batches past the last (and a quarter of it), not every 200."""
    monkeypatch.setattr(_fold, "CHECKPOINT_MIN_BATCHES", 8)


async def test_a_load_from_the_checkpoint_equals_a_load_without(
    any_backend: Backend, small_cadence: None
) -> None:
    stream = await Stream(any_backend).open()
    await stream.add(40)
    stores = any_backend.stores
    assert await stores.conversations.get_fold_checkpoint(PATH) is None
    # The producer's cold load folds all 40 and stores its fold: it is due.
    cache = TranscriptCache(checkpoints=True)
    with counted_batches(any_backend) as pages:
        first = await stream.producing(cache).entries()
    assert sum(pages) == 40
    assert first == await stream.every_batch()
    stored = await stores.conversations.get_fold_checkpoint(PATH)
    assert stored is not None and stored.format_version == FOLD_FORMAT
    await stream.add(5)
    # A reader with no copy (the inspector's `Session.transcript`, another host) reads
    # the checkpoint and the five batches after it, and loads the same transcript.
    with counted_batches(any_backend) as pages:
        cold = await Transcript(stores, PATH).entries()
    assert sum(pages) == 5
    assert cold == await stream.every_batch()
    assert len(cold) == sum(len(batch(n)) for n in range(45))
    # A producer loading from the checkpoint appends where the stream is.
    fresh = stream.producing(TranscriptCache(checkpoints=True))
    await fresh.entries()
    write = fresh.append([UserEntry(turn_id="t", submission_id="m", text="next")])
    assert write.producer_sequence == 45
    # A reader never writes one: the checkpoint stays where the producer left it.
    assert await stores.conversations.get_fold_checkpoint(PATH) == stored


async def test_the_producer_writes_checkpoints_on_its_cadence(
    backend: Backend, small_cadence: None
) -> None:
    stream = await Stream(backend).open()
    stores = backend.stores
    cache = TranscriptCache(checkpoints=True)
    await stream.add(7)
    await stream.producing(cache).entries()
    assert await stores.conversations.get_fold_checkpoint(PATH) is None  # 7 < 8
    await stream.add(1)
    await stream.producing(cache).entries()
    first = await load_fold(stores, PATH)
    assert first is not None and first.batches == 8
    # The next once 8 more are held (8 > a quarter of 8); later, a quarter of what it has.
    await stream.add(7)
    await stream.producing(cache).entries()
    assert (await load_fold(stores, PATH)) == first
    await stream.add(1)
    await stream.producing(cache).entries()
    second = await load_fold(stores, PATH)
    assert second is not None and second.batches == 16
    # A warm copy in one lineage reads nothing while its own appends land, until a
    # checkpoint is due: then it reads its tail (every batch of it held) and stores it.
    await stream.producing(cache).entries("L")
    with counted_batches(backend) as pages:
        for _ in range(8):
            await stream.land(cache, "L")
        assert pages == []
        assert len(await stream.producing(cache).entries("L")) == sum(
            len(batch(n)) for n in range(24)
        )
    assert sum(pages) == 8
    third = await load_fold(stores, PATH)
    assert third is not None and third.batches == 24
    assert list(third.entries) == await stream.every_batch()
    # Without the capability the producer writes none.
    other = Stream(backend, "agents/folds/s2")
    await other.open()
    await other.add(20)
    await other.producing(TranscriptCache()).entries()
    assert await stores.conversations.get_fold_checkpoint(other.path) is None


async def _stored_fold(stream: Stream) -> tuple[FoldCheckpoint, TranscriptFold]:
    """A checkpoint the producer wrote at the head, and what it holds."""
    await stream.producing(TranscriptCache(checkpoints=True)).entries()
    checkpoint = await stream.backend.stores.conversations.get_fold_checkpoint(stream.path)
    fold = await load_fold(stream.backend.stores, stream.path)
    assert checkpoint is not None and fold is not None
    return checkpoint, fold


async def _ignored(stream: Stream) -> None:
    """A cold load ignores the stored checkpoint: it reads every batch, and is right."""
    assert await load_fold(stream.backend.stores, stream.path) is None
    with counted_batches(stream.backend) as pages:
        entries = await Transcript(stream.backend.stores, stream.path).entries()
    assert sum(pages) == stream.written
    assert entries == await stream.every_batch()


async def test_a_torn_checkpoint_is_ignored(any_backend: Backend, small_cadence: None) -> None:
    stream = await Stream(any_backend).open()
    await stream.add(12)
    await _stored_fold(stream)
    await stored_rows_of(any_backend).tear_fold_checkpoint(PATH)
    await _ignored(stream)


@pytest.mark.parametrize(
    "spoil",
    ["format", "incarnation", "digest", "no entries", "another stream", "another offset"],
)
async def test_a_checkpoint_that_does_not_verify_is_ignored(
    backend: Backend, small_cadence: None, spoil: str
) -> None:
    stream = await Stream(backend).open()
    await stream.add(12)
    checkpoint, _ = await _stored_fold(stream)
    streams = backend.stores.conversations
    data = bytes(checkpoint.data)
    if spoil == "format":
        spoiled = dataclasses.replace(checkpoint, format_version=FOLD_FORMAT + 1)
    elif spoil == "incarnation":
        spoiled = dataclasses.replace(checkpoint, incarnation="inc_of_another_stream")
    elif spoil == "digest":
        spoiled = dataclasses.replace(checkpoint, data=data[:-2] + b"]]")
    elif spoil == "no entries":
        # Its header alone, under a digest that matches it.
        head = data[32:].partition(b"\n")[0]
        spoiled = dataclasses.replace(checkpoint, data=hashlib.sha256(head).digest() + head)
    elif spoil == "another stream":
        # The fold of another stream, moved under this stream's header.
        other = Stream(backend, "agents/folds/s2")
        await other.open()
        await other.add(12)
        moved, _ = await _stored_fold(other)
        spoiled = dataclasses.replace(moved, incarnation=checkpoint.incarnation)
    else:
        # This stream's fold at its head, under a header claiming an earlier offset.
        earlier = (await streams.read(PATH, limit=3)).batches[-1].offset
        spoiled = dataclasses.replace(checkpoint, head_offset=earlier)
    await streams.put_fold_checkpoint(PATH, spoiled)
    await _ignored(stream)


async def test_a_checkpoint_past_the_head_is_not_kept(backend: Backend) -> None:
    """A checkpoint for an offset the stream does not hold is not written (the store
    keeps a checkpoint only while it holds the batch at its offset)."""
    stream = await Stream(backend).open()
    await stream.add(3)
    assert stream.producer is not None
    page = await backend.stores.conversations.read(PATH)
    fold = TranscriptFold(
        offset=page.batches[-1].offset,
        batches=3,
        entries=await stream.every_batch(),
        sequences={(stream.producer.producer_id, stream.producer.epoch): 3},
    )
    assert await save_fold(backend.stores, PATH, stream.producer.incarnation, fold)
    assert await load_fold(backend.stores, PATH) == fold
    ahead = dataclasses.replace(
        await backend.stores.conversations.get_fold_checkpoint(PATH),  # type: ignore[type-var]
        head_offset="9" * len(page.batches[-1].offset),
    )
    await backend.stores.conversations.put_fold_checkpoint(PATH, ahead)
    kept = await backend.stores.conversations.get_fold_checkpoint(PATH)
    assert kept is not None and kept.head_offset == page.batches[-1].offset
    assert await load_fold(backend.stores, PATH) == fold


@tool
def look(text: str) -> str:
    """Look the text up."""
    return f"found {text}"


def one_call_per_turn(request: ModelRequest) -> Reply | str:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return f"done: {last.content}"
    assert isinstance(last, UserMessage)
    return Reply(tool_calls=(tool_call("look", {"text": last.text}, call_id=f"c-{last.text}"),))


async def test_another_host_runs_the_next_turn_from_the_checkpoint(
    any_backend: Backend, small_cadence: None
) -> None:
    """A session's turns store checkpoints; a host with no copy goes on from one."""
    model = ScriptedModel(one_call_per_turn)
    first = AgentHost(any_backend, [Agent(name="folds", model=model, tools=[look])])
    last = -1
    async with first.worker(poll_interval=0.02, cached_runs=0):
        session = await first.open_session("folds", session_id="long")
        for n in range(8):
            await session.send(f"q{n}")
            last = int((await session.wait_for("turn.completed", after=last, timeout=30)).index)
        history = await session.transcript()
    path = conversation_path("folds", "long", 0)
    assert await load_fold(any_backend.stores, path) is not None
    total = len((await any_backend.stores.conversations.read(path, limit=1000)).batches)
    # The inspector's read of the history: from the checkpoint, the same entries.
    with counted_batches(any_backend) as pages:
        assert await session.transcript() == history
    assert sum(pages) < total
    second = AgentHost(any_backend, [Agent(name="folds", model=model, tools=[look])])
    with counted_batches(any_backend) as pages:
        async with second.worker(poll_interval=0.02):
            again = await second.open_session("folds", session_id="long")
            await again.send("q8")
            await again.wait_for("turn.completed", after=last, timeout=30)
    assert sum(pages) < total, "the new host's first step folded every batch"
    seen = [m.text for m in model.requests[-1].messages if isinstance(m, UserMessage)]
    assert seen == [f"q{n}" for n in range(9)]


async def test_a_checkpoint_the_store_refuses_costs_one_try_per_interval(
    backend: Backend, small_cadence: None, caplog: pytest.LogCaptureFixture
) -> None:
    stream = await Stream(backend).open()
    await stream.add(8)
    streams = backend.stores.conversations
    tries: list[str] = []

    async def refuse(path: str, checkpoint: FoldCheckpoint) -> None:
        tries.append(path)
        raise OSError("disk full")

    streams.put_fold_checkpoint = refuse  # type: ignore[method-assign]
    cache = TranscriptCache(checkpoints=True)
    assert await stream.producing(cache).entries() == await stream.every_batch()
    assert tries == [PATH]
    assert "transcript checkpoint not written" in caplog.text
    await stream.add(7)
    await stream.producing(cache).entries()
    assert tries == [PATH]  # not again until 8 more batches
    await stream.add(1)
    await stream.producing(cache).entries()
    assert tries == [PATH, PATH]
