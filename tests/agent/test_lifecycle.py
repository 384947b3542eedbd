"""A session's life as a client sees it, on every backend.

States through the public API; event followers that end with the session; sends to an
ended or stranded session refused with typed errors (nothing admitted); retention 0
that deletes every copy of the content (ledger text, sub-agent runs) at every terminal
state; and `model_calls_per_step` meaning model calls.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
from _harness import hosted, settled, wait_status

import tether
from tether.agent import Agent, AgentHost, Session, UserEntry, approval, tool
from tether.errors import ContentDeletedError, SessionClosedError, SessionStrandedError
from tether.stores import Backend, StreamIdentity
from tether.testing import Reply, ScriptedModel, tool_call

SECRET = "the-secret-text-4711"


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    return f"{service} restarted"


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: ok"


async def follow_all(session: Session) -> list[str]:
    return [e.type async for e in session.events()]


# -- states ----------------------------------------------------------------------------------


async def test_state_through_a_turn_that_parks(backend: Backend) -> None:
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)), "ok"]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="st", owner="ada")
        await wait_status(session, "idle")
        await session.send("restart api", principal="ada")
        requested = await session.wait_for("input.requested")
        state = await session.state()
        assert (state.status, state.parked_on, state.owner) == ("parked", "input", "ada")
        assert [r.request_id for r in state.pending] == [requested.data.request.request_id]
        assert state.turn_id == requested.meta.turn_id and not state.stranded
        assert state.to_json()["pending"][0]["kind"] == "approval"
        await session.answer(requested.data.request.request_id, "approve", principal="ada")
        await session.wait_for("session.waiting")
        await wait_status(session, "idle")
        assert (await session.state()).pending == ()
        infos = (await host.list_sessions(owner="ada")).items
        assert [(i.session_id, i.status) for i in infos] == [("st", "idle")]
        assert (await host.list_sessions(owner="bob")).items == ()
        await session.close()
        await wait_status(session, "closed")
        assert (await host.get_session("st")).agent_name == "ops"


async def test_a_turn_out_of_attempts_shows_each_attempts_start_then_fails(
    backend: Backend,
) -> None:
    def broken(request: Any) -> str:
        raise RuntimeError("the model host is down")

    agent = Agent(name="ops", model=ScriptedModel([broken] * 4 + ["back"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="tf")
        await session.send("hello")
        failed = await session.wait_for("turn.failed", timeout=60)
        assert "the model host is down" in failed.data.error and not failed.data.terminal
        events = await session.read_events()
        turn = [e for e in events[: failed.index + 1] if e.meta.turn_id == failed.meta.turn_id]
        # Each attempt of the step that began the turn announced it; the failing step
        # adds only the failure.
        assert [(e.type, e.meta.attempt) for e in turn] == [
            *(("turn.started", attempt) for attempt in range(1, 5)),
            ("turn.failed", 1),
        ]
        # The message was recorded once, by the failing step.
        entries = await session.transcript()
        assert [e.text for e in entries if isinstance(e, UserEntry)] == ["hello"]
        await session.send("again")
        await session.wait_for("turn.completed", after=failed.index)


# -- followers end ---------------------------------------------------------------------------


async def test_a_follower_ends_when_the_session_closes(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="f1")
        follower = asyncio.create_task(follow_all(session))
        await session.send("hello")
        await session.wait_for("turn.completed")
        await session.close()
        seen = await asyncio.wait_for(follower, 10)
    assert seen[-1] == "session.closed"


async def test_a_follower_ends_when_the_session_fails(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="f2")
        await session.send("one")
        await session.wait_for("turn.completed")
        follower = asyncio.create_task(follow_all(session))
        # Another producer takes the transcript over: the session cannot go on.
        await backend.stores.conversations.acquire_producer("agents/ops/f2", "intruder")
        await session.send("two")
        seen = await asyncio.wait_for(follower, 10)
    assert seen[-1] == "session.failed"


async def test_a_follower_ends_when_the_sessions_run_is_cancelled(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="f3")
        await session.send("hello")
        await session.wait_for("turn.completed")
        follower = asyncio.create_task(follow_all(session))
        await asyncio.sleep(0.1)
        await host.client.cancel(session.run_id)
        seen = await asyncio.wait_for(follower, 10)
        assert (await session.state()).status == "cancelled"
    assert "turn.completed" in seen


async def test_an_idle_follower_waits_on_announcements_not_on_reads(backend: Backend) -> None:
    # Every backend announces appends to its followers: a quiet follower reads the
    # store only as a safety net, about once a second (it read every 20 ms).
    agent = Agent(name="ops", model=ScriptedModel(["hi", "again"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="f4")
        await session.send("hello")
        done = await session.wait_for("turn.completed")
        store = backend.stores.workflow
        reads = 0
        read_stream = store.read_stream

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal reads
            reads += 1
            return await read_stream(*args, **kwargs)

        store.read_stream = counted  # type: ignore[method-assign]
        try:
            seen: list[str] = []

            async def follow() -> None:
                async for event in session.events(done.index + 1):
                    seen.append(event.type)
                    if event.type == "turn.completed":
                        return

            follower = asyncio.create_task(follow())
            await asyncio.sleep(1.5)
            assert reads <= 3, reads  # the first read, then a safety read a second
            await session.send("again")
            await asyncio.wait_for(follower, 10)
        finally:
            del store.read_stream
    assert "turn.started" in seen and seen[-1] == "turn.completed", seen


async def test_a_session_that_cannot_open_fails_the_messages_waiting_for_it(
    backend: Backend,
) -> None:
    # The session's transcript path is taken by a stream of another session: its run's
    # opening step fails every attempt (4, about 7 s of backoff).
    await backend.stores.conversations.create_stream(
        "agents/ops/o1", StreamIdentity(agent_name="ops", instance_id="another")
    )
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="o1")
        sent = await session.send("hello", client_message_id="m1")
        follower = asyncio.create_task(follow_all(session))
        seen = await asyncio.wait_for(follower, 30)
        sub = await settled(backend, sent)
        progress = await host.session_progress("o1")
        with pytest.raises(SessionClosedError):
            await session.send("again", client_message_id="m2")
    assert seen == ["session.failed"]
    assert sub.outcome == "failed"
    assert sub.error is not None and "could not open" in sub.error and "another" in sub.error
    assert progress.state == "ended" and progress.waiting == ()


# -- sends that cannot be served -------------------------------------------------------------


async def test_send_to_a_closed_session_is_refused(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="c1")
        await session.send("hello")
        await session.wait_for("turn.completed")
        await session.close()
        # Refused at once, before the close has run...
        with pytest.raises(SessionClosedError):
            await session.send("too late", client_message_id="late-1")
        await session.wait_for("session.closed")
        # ...and after.
        with pytest.raises(SessionClosedError):
            await session.send("too late", client_message_id="late-2")
    store = backend.stores.submissions
    assert await store.get_submission("c1:late-1") is None
    assert await store.get_submission("c1:late-2") is None


async def test_send_to_a_failed_session_is_refused(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="c2")
        await session.send("one")
        await session.wait_for("turn.completed")
        await backend.stores.conversations.acquire_producer("agents/ops/c2", "intruder")
        await session.send("two")
        await session.wait_for("session.failed")
        await wait_status(session, "failed")
        with pytest.raises(SessionClosedError, match="failed"):
            await session.send("three", client_message_id="late")
    assert await backend.stores.submissions.get_submission("c2:late") is None


async def test_send_to_a_stranded_session_is_refused(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    session = await old.open_session("ops", session_id="c3")
    async with new.worker(poll_interval=0.02):  # a live worker, of another deployment
        with pytest.raises(SessionStrandedError) as caught:
            await session.send("hello", client_message_id="m1")
        assert (await session.state()).stranded
    assert caught.value.deployment == "v1"
    assert caught.value.engine_version == tether.__version__
    assert await backend.stores.submissions.get_submission("c3:m1") is None


async def test_a_session_stranded_after_a_send_refuses_the_next(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handle that sent while served, then finds no live worker of its versions.

    Sends after the first skip reading the session's run (see the next test): the
    check that it is served must still be made on every send.
    """
    from tether.durable import _handle

    monkeypatch.setattr(_handle, "SERVED_TTL", 0.05)
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]), tools=[lookup])
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    async with old.worker(poll_interval=0.02):
        session = await old.open_session("ops", session_id="c4")
        await session.send("one")
        await session.wait_for("turn.completed")
    async with new.worker(poll_interval=0.02):  # live, of another deployment only
        await asyncio.sleep(0.1)  # past the served answer the client kept
        with pytest.raises(SessionStrandedError):
            await session.send("two", client_message_id="m2")
    assert await backend.stores.submissions.get_submission("c4:m2") is None


async def test_a_second_send_reads_nothing_of_the_session_run(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its admission is fenced by the run the first send read (it lands only while that
    run holds the inbox), so the run is not read again: one read fewer per message."""
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="c5")
        await session.send("one")
        await session.wait_for("turn.completed")
        reads: list[str] = []
        latest = host.client.latest

        async def spy(chain_id: str) -> Any:
            reads.append(chain_id)
            return await latest(chain_id)

        monkeypatch.setattr(host.client, "latest", spy)
        await session.send("two", client_message_id="m2")
        assert reads == []
        assert (await settled(backend, "c5:m2")).status == "settled"


# -- retention -------------------------------------------------------------------------------


async def _everything_readable(backend: Backend, host: AgentHost, run_ids: list[str]) -> bytes:
    """Every byte of content the stores still hold for these runs and their sessions."""
    out: list[bytes] = []
    for run_id in run_ids:
        handle = await host.client.get(run_id)
        out.extend(
            orjson.dumps([s.input, s.output, s.error], default=str) for s in await handle.steps()
        )
        out.extend(c.data for c in await handle.stream("events").read_all())
        out.append(orjson.dumps(await handle.output(), default=str))
    for sub in await backend.stores.submissions.list_running_submissions():
        out.append(orjson.dumps(sub.payload))
    return b"\n".join(out)


async def _ledger_texts(backend: Backend, *submission_ids: str) -> list[Any]:
    out = []
    for submission_id in submission_ids:
        sub = await backend.stores.submissions.get_submission(submission_id)
        assert sub is not None
        out.append(sub.payload)
    return out


async def test_retention_zero_deletes_the_message_text_and_the_sub_agents(
    backend: Backend,
) -> None:
    researcher = Agent(
        name="researcher",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("lookup", {"service": SECRET}),)), SECRET]
        ),
        tools=[lookup],
    )
    lead = Agent(
        name="lead",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("researcher", {"task": f"check {SECRET}"}),)), SECRET]
        ),
        tools=[researcher.as_tool()],
        retention=0,
    )
    async with hosted(backend, lead) as host:
        session = await host.open_session("lead", session_id="r1")
        sub = await session.send(f"look at {SECRET}")
        waiting = await session.wait_for("turn.waiting", on="tasks")
        await session.wait_for("turn.completed")
        await session.close()
        await (await host.client.get(session.run_id)).result(timeout=10)
        [task] = waiting.data.tasks
        content = await _everything_readable(backend, host, [session.run_id, task.run_id])
        with pytest.raises(ContentDeletedError):
            await session.transcript()
    assert SECRET.encode() not in content
    assert SECRET not in orjson.dumps(await _ledger_texts(backend, sub)).decode()
    task_sub = await backend.stores.submissions.get_submission(f"{task.task_session_id}:task")
    assert task_sub is not None and SECRET not in orjson.dumps(task_sub.payload).decode()
    child_transcript = await backend.stores.conversations.read(
        f"agents/researcher/{task.task_session_id}"
    )
    assert SECRET not in orjson.dumps([b.records for b in child_transcript.batches]).decode()


async def test_retention_zero_deletes_the_content_of_a_failed_session(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel([SECRET, "two"]), tools=[lookup], retention=0)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="r2")
        first = await session.send(f"one {SECRET}")
        await session.wait_for("turn.completed")
        await backend.stores.conversations.acquire_producer("agents/ops/r2", "intruder")
        await session.send("two")
        await wait_status(session, "failed")
        content = await _everything_readable(backend, host, [session.run_id])
    assert SECRET.encode() not in content
    assert SECRET not in orjson.dumps(await _ledger_texts(backend, first)).decode()


async def test_retention_zero_deletes_the_content_of_a_reset_session(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel([SECRET, "two"]), tools=[lookup], retention=0)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="r3")
        first = await session.send(f"one {SECRET}")
        done = await session.wait_for("turn.completed")
        fresh = await session.reset()
        started = await fresh.wait_for("session.started", after=done.index)
        # The new session knows the run it follows, and nothing of what was said there.
        assert started.data.predecessor == session.run_id
        predecessor = await fresh.predecessor()
        assert predecessor is not None and predecessor.text == ""
        second = await fresh.send("two")
        await fresh.wait_for("turn.completed", after=started.index)
        content = await _everything_readable(backend, host, [session.run_id])
        old = await backend.stores.conversations.read("agents/ops/r3")
        assert [e.type for e in await fresh.read_events()][:1] == ["session.started"]
        assert (await fresh.state()).status == "idle"
    assert SECRET.encode() not in content
    assert SECRET not in orjson.dumps([b.records for b in old.batches], default=str).decode()
    assert SECRET not in orjson.dumps(await _ledger_texts(backend, first)).decode()
    assert await _ledger_texts(backend, second) != [None]


async def test_retention_default_and_a_per_session_choice(backend: Backend) -> None:
    agent = Agent(
        name="ops", model=ScriptedModel([SECRET, SECRET]), tools=[lookup], retention="default"
    )
    async with hosted(backend, agent) as host:
        kept = await host.open_session("ops", session_id="keep")
        gone = await host.open_session("ops", session_id="gone", retention=0)
        for session in (kept, gone):
            await session.send("hello")
            await session.wait_for("turn.completed")
            await session.close()
            await (await host.client.get(session.run_id)).result(timeout=10)
        assert SECRET in [getattr(e, "text", None) for e in await kept.transcript()]
        with pytest.raises(ContentDeletedError):
            await gone.transcript()


# -- batching ----------------------------------------------------------------------------------


async def test_model_calls_per_step_means_model_calls(backend: Backend) -> None:
    replies: list[Any] = [
        Reply(tool_calls=(tool_call("lookup", {"service": f"s{i}"}),)) for i in range(5)
    ]
    model = ScriptedModel([*replies, "all checked"])
    agent = Agent(name="ops", model=model, tools=[lookup], model_calls_per_step=3)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="w3")
        await session.send("check everything")
        done = await session.wait_for("turn.completed")
        events = await session.read_events()
    # The turn's steps, by its events' coordinates (an idle step may run before the
    # message arrives: counting the run's turn steps would count it too).
    turn_steps = {e.meta.step_index for e in events if e.meta.turn_id == done.meta.turn_id}
    assert model.calls == 6
    assert len(turn_steps) == 2  # 3 model calls each


async def test_a_message_sent_again_after_retention_deleted_it_is_not_run_again(
    any_backend: Backend,
) -> None:
    backend = any_backend
    # The ledger keeps a receipt of a message whose text retention deleted: a client
    # retrying the send (same client_message_id) learns it was taken, and no turn runs.
    model = ScriptedModel([SECRET, "two"])
    agent = Agent(name="ops", model=model, tools=[lookup], retention=0)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="r4")
        first = await session.send(f"one {SECRET}", client_message_id="m-1")
        done = await session.wait_for("turn.completed")
        fresh = await session.reset()
        await fresh.wait_for("session.started", after=done.index)
        assert await fresh.send(f"one {SECRET}", client_message_id="m-1") == first
        second = await fresh.send("two", client_message_id="m-2")
        await fresh.wait_for("turn.completed", after=done.index)
        receipt = await backend.stores.submissions.get_submission(first)
    assert receipt is not None and receipt.redacted_at is not None
    assert receipt.outcome == "completed" and receipt.payload is None
    assert second != first
    turns = [e for e in await fresh.read_events() if e.type == "turn.completed"]
    assert len(turns) == 1  # "two" only: the retried message did not run again
