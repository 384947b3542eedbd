"""The transcript a session's steps hold in memory: read once per lineage, never stale.

A session's steps read its transcript at their start. While one activation of the
session's run goes on (its `StepInfo.lineage`), every write to the transcript is its
own, added to the process's copy as the commit carrying it lands: later steps read
nothing. Whenever that cannot be vouched for (a replay, another worker that ran turns
meanwhile, an attempt that failed after appending) the step reads, and sees every
entry the store holds. On every backend, reads counted on the real store.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tether.agent import Agent, AgentHost, tool
from tether.agent._records._cursor import Producer
from tether.agent._records._entries import UserEntry
from tether.agent._stored._transcript import Transcript, TranscriptCache
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import Backend, StreamIdentity
from tether.testing import Reply, ScriptedModel, tool_call

failures: list[str] = []


@tool
def echo(text: str) -> str:
    """Echo the text."""
    return f"echo {text}"


@tool
async def slow_once(text: str) -> str:
    """Echo the text; the first time it is named in `failures`, take too long."""
    if failures and failures[0] == text:
        failures.pop(0)
        await asyncio.sleep(5)
    return f"echo {text}"


def one_call_per_turn(request: ModelRequest) -> Reply | str:
    """A tool call for each user message, then the answer."""
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return f"done: {last.content}"
    assert isinstance(last, UserMessage)
    name = "slow_once" if any(t.name == "slow_once" for t in request.tools) else "echo"
    return Reply(tool_calls=(tool_call(name, {"text": last.text}, call_id=f"c-{last.text}"),))


def _agent(model: ScriptedModel) -> Agent:
    return Agent(name="cache", model=model, tools=[echo])


@contextmanager
def counted_reads(backend: Backend) -> Iterator[list[str]]:
    """Record the path of every transcript read made through `backend`'s store."""
    store = backend.stores.conversations
    original: Callable[..., Any] = store.read
    paths: list[str] = []

    async def read(path: str, **kwargs: Any) -> Any:
        paths.append(path)
        return await original(path, **kwargs)

    store.read = read  # type: ignore[method-assign]
    try:
        yield paths
    finally:
        store.read = original  # type: ignore[method-assign]


def _texts(request: ModelRequest) -> list[str]:
    """What the request holds, user messages and tool results alike, in order."""
    out = []
    for message in request.messages:
        if isinstance(message, UserMessage):
            out.append(f"user:{message.text}")
        elif isinstance(message, ToolResultMessage):
            out.append(f"tool:{message.content}")
    return out


@pytest.fixture(autouse=True)
def _clear() -> None:
    failures.clear()


async def _turn(session: Any, text: str, after: int) -> int:
    await session.send(text)
    done = await session.wait_for("turn.completed", after=after, timeout=30)
    return int(done.index)


@pytest.mark.parametrize("cached_runs", [256, 0])
async def test_steps_of_a_warm_session_read_no_transcript(
    backend: Backend, cached_runs: int
) -> None:
    model = ScriptedModel(one_call_per_turn)
    host = AgentHost(backend, [_agent(model)])
    async with host.worker(poll_interval=0.02, cached_runs=cached_runs):
        session = await host.open_session("cache", session_id="warm")
        last = await _turn(session, "one", -1)
        with counted_reads(backend) as reads:
            last = await _turn(session, "two", last)
            last = await _turn(session, "three", last)
    if cached_runs:
        # Kept warm: two turns of two steps each, and not one read of the transcript.
        assert reads == []
    else:
        # Every wake-up replays in a new lineage: each turn's first step reads.
        assert len(reads) >= 2
    # The model saw the whole history all the same, entries appended and read alike.
    assert _texts(model.requests[-1]) == [
        "user:one", "tool:echo one", "user:two", "tool:echo two", "user:three",
        "tool:echo three",
    ]  # fmt: skip


async def test_a_turn_after_another_worker_ran_one_sees_its_entries(backend: Backend) -> None:
    """The worker that ran turn 1 takes turn 3 after another ran turn 2: it reads."""
    model = ScriptedModel(one_call_per_turn)
    first, second = AgentHost(backend, [_agent(model)]), AgentHost(backend, [_agent(model)])
    async with (
        first.worker(poll_interval=0.02) as first_worker,
        second.worker(poll_interval=0.02) as second_worker,
    ):
        on_first = await first.open_session("cache", session_id="moved")
        on_second = await second.open_session("cache", session_id="moved")
        last = await _turn(on_first, "one", -1)  # run by `first`, kept warm there
        with counted_reads(backend) as reads:
            last = await _turn(on_second, "two", last)  # `second` claims and replays
            last = await _turn(on_first, "three", last)  # `first` folds turn two in
    assert first_worker.worker_id != second_worker.worker_id
    assert reads, "a step in a new lineage reads the transcript"
    assert _texts(model.requests[-1]) == [
        "user:one", "tool:echo one", "user:two", "tool:echo two", "user:three",
        "tool:echo three",
    ]  # fmt: skip
    events = [e.type for e in await on_first.read_events()]
    assert events.count("turn.completed") == 3 and "turn.failed" not in events


async def test_a_retried_step_goes_on_from_what_its_attempt_checkpointed(
    backend: Backend,
) -> None:
    """The reply a failed attempt put on record is in the copy: adopted, no new call."""
    model = ScriptedModel(one_call_per_turn)
    agent = Agent(name="cache", model=model, tools=[slow_once], step_timeout=0.5)
    host = AgentHost(backend, [agent])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("cache", session_id="retried")
        last = await _turn(session, "one", -1)
        failures.append("two")  # the tool's first try outlasts the step: it retries
        with counted_reads(backend) as reads:
            last = await _turn(session, "two", last)
        last = await _turn(session, "three", last)
        steps = await (await host.client.get(session.run_id)).steps()
    assert [s.attempt for s in steps if s.name.endswith("//turn_step")].count(2) == 1
    assert reads == []  # the retry read nothing either: its attempt's reply had landed
    # One model call per reply: the retry adopted the reply on record.
    assert model.calls == 6
    assert _texts(model.requests[-1]) == [
        "user:one", "tool:echo one", "user:two", "tool:echo two", "user:three",
        "tool:echo three",
    ]  # fmt: skip


async def test_an_append_not_known_to_have_landed_is_read_again(backend: Backend) -> None:
    """The copy's bookkeeping, on the real store: unlanded batches force a read."""
    stores = backend.stores
    path = "cache/unit/0"
    await stores.conversations.create_stream(path, StreamIdentity(agent_name="a", instance_id="u"))
    claim = await stores.conversations.acquire_producer(path, "session:u")
    producer = Producer(
        path=path,
        producer_id=claim.producer_id,
        epoch=claim.producer_epoch,
        incarnation=claim.incarnation,
    )
    cache = TranscriptCache()
    entry = UserEntry(turn_id="t1", submission_id="m1", text="hello")

    def transcript() -> Transcript:
        return Transcript(stores, path, producer, cache)

    with counted_reads(backend) as reads:
        assert await transcript().entries("L1") == []
        assert len(reads) == 1
        # Appended, its commit never known to land (the attempt failed): read again.
        first = transcript()
        await first.entries("L1")
        assert len(reads) == 1
        first.append([entry])
        second = transcript()
        assert await second.entries("L1") == []
        assert len(reads) == 2
        # Appended, landed through the store, and told: held, nothing read.
        write = second.append([entry])
        await stores.conversations.append(
            path=path,
            producer_id=write.producer_id,
            producer_epoch=write.producer_epoch,
            incarnation=write.incarnation,
            producer_sequence=write.producer_sequence,
            records=write.records,
        )
        second.landed(write)
        assert await transcript().entries("L1") == [entry]
        assert len(reads) == 2
        # Another lineage reads, and finds the batch it holds once, not twice.
        assert await transcript().entries("L2") == [entry]
        assert len(reads) == 3
        # No lineage (a read outside a step): always a read.
        assert await transcript().entries() == [entry]
        assert len(reads) == 4


async def test_concurrent_sessions_keep_their_own_copies(backend: Backend) -> None:
    model = ScriptedModel(one_call_per_turn)
    host = AgentHost(backend, [_agent(model)])
    async with host.worker(poll_interval=0.02):
        sessions = [await host.open_session("cache", session_id=f"s{i}") for i in range(4)]

        async def talk(i: int) -> None:
            last = -1
            for n in range(3):
                last = await _turn(sessions[i], f"s{i}-{n}", last)

        await asyncio.gather(*(talk(i) for i in range(4)))
    for i in range(4):
        final = [r for r in model.requests if _texts(r)[-1:] == [f"tool:echo s{i}-2"]]
        assert final, f"session s{i} never finished its third turn"
        assert _texts(final[-1]) == [
            t for n in range(3) for t in (f"user:s{i}-{n}", f"tool:echo s{i}-{n}")
        ]
