"""`Session.fork`: a new session holding another's history up to a turn's end.

The fork's transcript, events, declared state and message receipts are copies of the
original's up to the fork point, made in one transaction; the original is only read,
and the two go on independently.
"""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from _harness import hosted, wait_settled_steps

import tether
from tether.agent import Agent, Session, State, ToolContext, tool
from tether.agent._session._fork import FORK_TURNS_LABEL, FORKED_SESSION_LABEL
from tether.agent.models import AssistantMessage, ModelRequest, ToolResultMessage, UserMessage
from tether.errors import (
    ConfigurationError,
    ConflictError,
    ContentDeletedError,
    SessionForkError,
)
from tether.stores import Backend, EnvKeyProvider
from tether.testing import Reply, ScriptedModel, tool_call

visits = State(name="visits", type=int, default=0, description="Times the user came by.")


@tool(state=[visits])
def visit(ctx: ToolContext) -> str:
    """Count a visit."""
    ctx.state[visits] += 1
    return f"visit {ctx.state[visits]}"


def agent(model: ScriptedModel) -> Agent:
    return Agent(name="desk", model=model, tools=[visit], state=[visits])


async def turns_done(session: Session, n: int) -> None:
    for _ in range(1000):
        events = await session.read_events()
        if sum(e.type == "turn.completed" for e in events) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{session.session_id}: {n} turns never completed")


async def snapshot(session: Session) -> tuple[Any, ...]:
    transcript = [e for e in await session.transcript()]
    events = [e.to_json() for e in await session.read_events()]
    return transcript, events, (await session.state_values()).to_json()


async def three_turns(host: Any) -> Session:
    session = await host.open_session("desk", session_id="orig", owner="ann")
    for n, text in enumerate(("one", "two", "three"), 1):
        await session.send(text, client_message_id=f"m{n}")
        await turns_done(session, n)
    await wait_settled_steps(host, session)
    return session


def script() -> list[Any]:
    # Turn 1 calls the tool (a call and its result), turns 2 and 3 answer plainly; the
    # fork's turn and the original's fourth follow.
    return [Reply(text="checking", tool_calls=(tool_call("visit", {}),)), "r1", "r2", "r3"]


async def test_a_fork_after_turn_one_holds_exactly_that_history(backend: Backend) -> None:
    model = ScriptedModel([*script(), "fork reply", "r4"])
    async with hosted(backend, agent(model)) as host:
        original = await three_turns(host)
        before = await snapshot(original)
        fork = await original.fork(at=1, session_id="forked")
        assert (fork.session_id, fork.agent_name, fork.owner) == ("forked", "desk", "ann")
        assert await snapshot(original) == before  # only read

        # The transcript: turn 1 whole (its tool call with its result), nothing after.
        kept = await fork.transcript()
        assert kept == (await original.transcript())[: len(kept)]
        assert [getattr(e, "kind", None) for e in kept][-1] == "turn_end"
        assert [e.text for e in kept if e.kind == "user"] == ["one"]
        assert (await fork.state_values())[visits] == 1
        # The events: the original's up to turn 1's end, at their indexes, then its own.
        end = next(i for i, e in enumerate(before[1]) if e["type"] == "turn.completed")
        opened = await fork.wait_for("session.started", after=end, timeout=20)
        assert opened.index == end + 1 and opened.data.session_id == "forked"
        events = [e.to_json() for e in await fork.read_events()]
        assert events[: end + 1] == before[1][: end + 1]
        assert [e["type"] for e in events[: end + 1]].count("session.started") == 1
        assert (await fork.state()).status == "idle"

        # The fork's next turn: the model sees exactly the forked history.
        await fork.send("again", client_message_id="m9")
        await turns_done(fork, 2)
        request = model.requests[-1]
        shape = [
            (type(m).__name__, getattr(m, "text", None) or getattr(m, "content", None))
            for m in request.messages
        ]
        assert shape == [
            ("UserMessage", "one"),
            ("AssistantMessage", "checking"),
            ("ToolResultMessage", "visit 1"),
            ("AssistantMessage", "r1"),
            ("UserMessage", "again"),
        ]
        assert isinstance(request.messages[0], UserMessage)
        assert isinstance(request.messages[1], AssistantMessage)
        assert isinstance(request.messages[2], ToolResultMessage)
        assert (await fork.transcript())[-2].text == "fork reply"

        # A retried message of a forked turn is a receipt on the fork: nothing runs.
        calls = len(model.requests)
        assert await fork.send("one", client_message_id="m1") == "forked:m1"
        sub = await backend.stores.submissions.get_submission("forked:m1")
        assert sub is not None and sub.status == "settled" and sub.outcome == "completed"

        # The original goes on, independently.
        await original.send("four", client_message_id="m4")
        await turns_done(original, 4)
        assert [e.text for e in await original.transcript() if e.kind == "user"] == [
            "one",
            "two",
            "three",
            "four",
        ]
        assert len(model.requests) == calls + 1
        assert [e.text for e in await fork.transcript() if e.kind == "user"] == ["one", "again"]
        info = await (await host.client.get(fork.run_id, follow=False)).info()
        assert info.labels[FORKED_SESSION_LABEL] == "orig"
        assert info.labels[FORK_TURNS_LABEL] == "1"
        listed = await host.list_sessions(owner="ann")
        assert {s.session_id for s in listed.items} == {"orig", "forked"}


async def test_fork_points_and_refusals(backend: Backend) -> None:
    model = ScriptedModel(script())
    async with hosted(backend, agent(model)) as host:
        original = await three_turns(host)
        events = await original.read_events()
        # An event inside turn 2 rounds up to turn 2's end.
        turn2 = next(e for e in events if e.type == "turn.started" and e.data.text == "two")
        inside = await original.fork(at_event=turn2.index + 1, session_id="f-ev")
        assert [e.text for e in await inside.transcript() if e.kind == "user"] == ["one", "two"]
        # Between turns (turn 1's end): turn 1.
        end1 = next(e for e in events if e.type == "turn.completed")
        between = await original.fork(at_event=end1.index, session_id="f-end1")
        assert [e.text for e in await between.transcript() if e.kind == "user"] == ["one"]
        # The default: the whole session as it is now; at=0: no turn at all.
        whole = await original.fork(session_id="f-all")
        assert len(await whole.transcript()) == len(await original.transcript())
        assert (await whole.state_values())[visits] == 1
        empty = await original.fork(at=0, owner="bob")
        assert await empty.transcript() == [] and empty.owner == "bob"
        assert (await empty.state_values())[visits] == 0
        # Two forks racing for one id: one lands, the other finds it (nothing doubled).
        raced = await asyncio.gather(*(original.fork(at=2, session_id="f-race") for _ in "ab"))
        assert {r.session_id for r in raced} == {"f-race"}
        race_users = [e.text for e in await raced[0].transcript() if e.kind == "user"]
        assert race_users == ["one", "two"]
        # The same fork again is that fork; the id of another session is a conflict.
        again = await original.fork(at=1, session_id="f-end1")
        assert again.session_id == "f-end1"
        with pytest.raises(ConflictError, match="pick another session_id"):
            await original.fork(at=2, session_id="f-end1")
        with pytest.raises(SessionForkError, match="from 0 to 3"):
            await original.fork(at=4)
        with pytest.raises(SessionForkError, match="give an index from 0"):
            await original.fork(at_event=len(events) + 5)
        for bad in ({"at": -1}, {"at": True}, {"at": 1, "at_event": 2}, {"session_id": ""}):
            with pytest.raises(ConfigurationError):
                await original.fork(**bad)  # type: ignore[arg-type]
        with pytest.raises(ConfigurationError, match="id of its own"):
            await original.fork(session_id="orig")
        # A failed fork wrote nothing.
        assert {s.session_id for s in (await host.list_sessions()).items} == {
            "orig",
            "f-ev",
            "f-end1",
            "f-all",
            "f-race",
            empty.session_id,
        }


async def test_a_point_inside_the_running_turn_is_refused(backend: Backend) -> None:
    gate = asyncio.Event()

    @tool
    async def slow() -> str:
        """Wait for the test."""
        await gate.wait()
        return "slow done"

    model = ScriptedModel(["r1", Reply(tool_calls=(tool_call("slow", {}),)), "r2"])
    desk = Agent(name="desk", model=model, tools=[slow])
    async with hosted(backend, desk) as host:
        session = await host.open_session("desk", session_id="busy")
        await session.send("one")
        await turns_done(session, 1)
        await session.send("two")
        called = await session.wait_for("tool.call", timeout=20)
        with pytest.raises(SessionForkError, match="has not ended"):
            await session.fork(at_event=called.index)
        # The default point leaves the running turn out.
        fork = await session.fork(session_id="busy-fork")
        assert [e.text for e in await fork.transcript() if e.kind == "user"] == ["one"]
        gate.set()
        await turns_done(session, 2)


async def test_an_erased_session_is_not_forked(backend: Backend) -> None:
    model = ScriptedModel(["r1"])
    async with hosted(
        backend,
        Agent(name="desk", model=model),
    ) as host:
        session = await host.open_session("desk", session_id="gone")
        await session.send("one")
        await turns_done(session, 1)
        await session.close()
        await session.wait_for("session.closed", timeout=20)
        closed = await session.fork(session_id="after-close")  # a closed session forks
        assert (await closed.state()).status == "idle"
        await host.erase_session("desk", "gone")
        with pytest.raises(ContentDeletedError):
            await session.fork(session_id="after-erase")
        # A session that ended under retention 0: its content is gone.
        brief = await host.open_session("desk", session_id="brief", retention=0)
        await brief.close()
        await brief.wait_for("session.closed", timeout=20)
        with pytest.raises(ContentDeletedError):
            await brief.fork()


async def test_a_fork_on_an_encrypted_store_is_sealed_under_its_own_keys(
    encrypted: Backend,
) -> None:
    secret = "fork-secret-" + secrets.token_hex(4)
    model = ScriptedModel([f"noted {secret}", "forked reply"])
    async with hosted(encrypted, Agent(name="desk", model=model)) as host:
        original = await host.open_session("desk", session_id="e-orig")
        await original.send(f"remember {secret}", client_message_id="m1")
        await turns_done(original, 1)
        fork = await original.fork(session_id="e-fork")
        assert [e.text for e in await fork.transcript() if e.kind == "user"] == [
            f"remember {secret}"
        ]
        await fork.send("go on")
        await turns_done(fork, 2)
        # Under the encrypting layer: nothing of the fork in clear.
        workflow: Any = encrypted.stores.workflow
        conversations: Any = encrypted.stores.conversations
        chunks, _ = await workflow.inner.read_stream(fork.run_id, "events")
        batches = (await conversations.inner.read("agents/desk/e-fork")).batches
        assert chunks and batches
        raw = b"".join(c.data for c in chunks) + orjson.dumps([b.records for b in batches])
        assert secret.encode() not in raw
        # The fork has keys of its own: erasing the original leaves it readable.
        await host.erase_session("desk", "e-orig")
        with pytest.raises(ContentDeletedError):
            await original.transcript()
        assert len([e for e in await fork.transcript() if e.kind == "user"]) == 2


async def test_after_a_clear_a_fork_counts_the_fresh_transcript(backend: Backend) -> None:
    model = ScriptedModel(["r1", "r2"])
    async with hosted(backend, Agent(name="desk", model=model)) as host:
        session = await host.open_session("desk", session_id="cleared")
        await session.send("before")
        await turns_done(session, 1)
        first = await session.wait_for("turn.started", timeout=20)
        await session.clear()
        moved = await session.wait_for("session.moved", timeout=20)
        await session.send("after")
        await turns_done(session, 2)
        with pytest.raises(SessionForkError, match="before its current transcript began"):
            await session.fork(at_event=first.index)
        fork = await session.fork(session_id="cleared-fork")
        assert [e.text for e in await fork.transcript() if e.kind == "user"] == ["after"]
        # Its events hold the whole stream up to that turn's end, the clear included.
        events = await fork.read_events()
        assert events[moved.index].type == "session.moved"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def sealed_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    """SQLite or Postgres, encrypting: the fork's files are its own, under its own keys."""
    keys = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    if request.param == "sqlite":
        url, options = f"sqlite:///{tmp_path}/files.db", {}
    else:
        url = request.getfixturevalue("pg_url")
        options = {"namespace": request.getfixturevalue("pg_namespace")}
    async with tether.open_backend(url, keys=keys, **options) as opened:
        yield opened


def _files_seen(request: ModelRequest) -> str:
    """The text files of every user message of the request, as the model got them."""
    seen = [
        bytes(f.data).decode()
        for m in request.messages
        if isinstance(m, UserMessage)
        for f in m.attachments
    ]
    return "seen: " + ", ".join(seen)


async def test_a_fork_copies_the_files_of_the_kept_messages(sealed_store: Backend) -> None:
    async with hosted(sealed_store, Agent(name="desk", model=ScriptedModel(_files_seen))) as host:
        original = await host.open_session("desk", session_id="f-orig")
        ref = await original.attach(b"the plan", mime_type="text/plain", filename="plan.txt")
        await original.send("read this", client_message_id="m1", attachments=[ref])
        await turns_done(original, 1)
        fork = await original.fork(session_id="f-fork")
        assert await fork.read_attachment(ref.id) == await original.read_attachment(ref.id)
        # Asked again: the same fork.
        assert (await original.fork(session_id="f-fork")).session_id == "f-fork"
        # The fork's files are its own: erasing the original leaves them, and the fork's
        # next turn reads the kept message with its file.
        await host.erase_session("desk", "f-orig")
        with pytest.raises(ContentDeletedError):
            await original.read_attachment(ref.id)
        await fork.send("again")
        await turns_done(fork, 2)
        replies = [e.text for e in await fork.transcript() if e.kind == "assistant"]
        assert replies == ["seen: the plan", "seen: the plan"]
        assert (await fork.read_attachment(ref.id))[1] == b"the plan"
