"""Deploy hand-off in one process, on every backend (the two-process tests are apart).

An idle session built by deployment v1 moves to v2 on its next message sent through a
v2 host, keeping id, transcript, event stream and inbox; a parked one stays and is
stranded once v1 is gone; messages racing a hand-off all run once, in arrival order; an
old host never pulls a session back.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from _harness import users, wait_settled_steps

from tether.agent import Agent, AgentHost, approval, tool
from tether.agent.models import ModelRequest, UserMessage
from tether.errors import SessionStrandedError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    return f"{service} restarted"


def recording(seen: list[ModelRequest], n: int = 20) -> ScriptedModel:
    def answer(request: ModelRequest) -> str:
        seen.append(request)
        last = [m.text for m in request.messages if isinstance(m, UserMessage)][-1]
        return f"re: {last}"

    return ScriptedModel([answer] * n)


def two_versions(
    backend: Backend, new_backend: Backend | None = None
) -> tuple[list[ModelRequest], AgentHost, AgentHost]:
    """What the model saw, and hosts of the same agent deployed as v1 and v2."""
    seen: list[ModelRequest] = []
    agent = Agent(name="ops", model=recording(seen), tools=[restart_service])
    old = AgentHost(backend, [agent], deployment="v1")
    return seen, old, AgentHost(new_backend or backend, [agent], deployment="v2")


async def test_an_idle_session_moves_to_the_new_deployment(backend: Backend) -> None:
    seen, old, new = two_versions(backend)
    session = await old.open_session("ops", session_id="h1", owner="ada")
    async with old.worker(poll_interval=0.02):
        await session.send("one")
        first = await session.wait_for("turn.completed")
        await wait_settled_steps(old, session)
    async with new.worker(poll_interval=0.02):
        on_new = await new.get_session("h1")
        assert (await on_new.state()).stranded  # until a message moves it
        await on_new.send("two")
        moved = await on_new.wait_for("session.moved", after=first.index)
        assert (moved.data.reason, moved.data.deployment) == ("deploy", "v2")
        done = await on_new.wait_for("turn.completed", after=moved.index)
        # The transcript came along: the model sees both messages.
        assert users(seen[-1]) == 2
        state = await on_new.state()
        assert (state.deployment, state.status, state.stranded, state.owner) == (
            "v2",
            "idle",
            False,
            "ada",
        )
        events = await on_new.read_events()
        assert [e.index for e in events] == list(range(len(events)))
        assert events[-2].index >= done.index - 1
        # Asking again changes nothing: it runs on v2 already.
        assert not await on_new.hand_off()
        await on_new.close()
        await on_new.wait_for("session.closed")


async def test_a_parked_session_stays_and_is_stranded(backend: Backend) -> None:
    model = ScriptedModel([Reply(tool_calls=(tool_call("restart_service", {"service": "a"}),))])
    agent = Agent(name="ops", model=model, tools=[restart_service])
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    session = await old.open_session("ops", session_id="h2")
    async with old.worker(poll_interval=0.02):
        await session.send("restart a")
        await session.wait_for("input.requested")
    async with new.worker(poll_interval=0.02):
        on_new = await new.get_session("h2")
        assert not await on_new.hand_off()
        with pytest.raises(SessionStrandedError):
            await on_new.send("hello?", client_message_id="x")
        assert (await new.client.latest("session:h2")).deployment == "v1"
    assert await backend.stores.submissions.get_submission("h2:x") is None


async def test_messages_racing_a_hand_off_run_once_in_arrival_order(backend: Backend) -> None:
    _, old, new = two_versions(backend)
    session = await old.open_session("ops", session_id="h3")
    async with old.worker(poll_interval=0.02):
        await session.send("zero")
        await session.wait_for("turn.completed")
        await wait_settled_steps(old, session)
    async with new.worker(poll_interval=0.02):
        hosts = [new, AgentHost(backend, new.agents, deployment="v2")]
        sends = [
            hosts[i % 2].session("ops", "h3").send(f"m{i}", client_message_id=f"m{i}")
            for i in range(6)
        ]
        ids = await asyncio.gather(*sends)
        on_new = await new.get_session("h3")
        for _ in range(500):
            subs = [await backend.stores.submissions.get_submission(i) for i in ids]
            if all(s is not None and s.status == "settled" for s in subs):
                break
            await asyncio.sleep(0.02)
        subs = [await backend.stores.submissions.get_submission(i) for i in ids]
        assert all(s is not None and s.status == "settled" for s in subs)
        events = await on_new.read_events()
        begun = [e.data.submission_id for e in events if e.type == "turn.started"]
        steered = [s for e in events if e.type == "turn.steered" for s in e.data.submission_ids]
        # Every message ran exactly once (began a turn or joined one), in ledger order.
        ran = sorted(begun[1:] + steered, key=lambda i: ids.index(i))
        assert ran == ids and len(set(begun[1:] + steered)) == len(ids)
        order = sorted(subs, key=lambda s: s.sequence)
        assert [s.submission_id for s in order if s.submission_id in begun] == [
            i for i in begun if i in ids
        ]
        assert [e.type for e in events].count("session.moved") == 1


async def test_an_old_host_never_pulls_a_session_back(backend: Backend) -> None:
    _, old, new = two_versions(backend)
    session = await new.open_session("ops", session_id="h4")
    async with old.worker(poll_interval=0.02), new.worker(poll_interval=0.02):
        await session.send("one")
        done = await session.wait_for("turn.completed")
        # Both versions are live, v2 came up last: a v1 client leaves the run on v2.
        await old.session("ops", "h4").send("two")
        await session.wait_for("turn.completed", after=done.index)
        assert (await new.client.latest("session:h4")).deployment == "v2"


async def test_a_backend_without_chains_never_moves_sessions(
    backend: Backend, backend_without_handoff: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    _, old, new = two_versions(backend, backend_without_handoff)
    session = await old.open_session("ops", session_id="h5")
    async with old.worker(poll_interval=0.02):
        await session.send("one")
        await session.wait_for("turn.completed")
        await wait_settled_steps(old, session)
    caplog.set_level(logging.WARNING, logger="tether.worker")
    async with new.worker(poll_interval=0.02):
        on_new = await new.get_session("h5")
        for _ in range(2):
            with pytest.raises(SessionStrandedError):
                await on_new.send("two")
        assert not await on_new.hand_off()
    unavailable = [r for r in caplog.records if "session handoff unavailable" in r.getMessage()]
    assert len(unavailable) == 1


async def test_a_running_turn_blocks_the_move(backend: Backend) -> None:
    release = asyncio.Event()
    started = asyncio.Event()

    async def slow(request: ModelRequest) -> str:
        started.set()
        await release.wait()
        return "slow reply"

    agent = Agent(
        name="ops",
        model=ScriptedModel([slow, "second", "third"]),
        tools=[restart_service],
        turn_policy="queue",
    )
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    session = await old.open_session("ops", session_id="h6")
    async with old.worker(poll_interval=0.02), new.worker(poll_interval=0.02):
        await session.send("one")
        await started.wait()
        # v2 is newest, but the turn runs on v1: the message waits there (not stranded).
        on_new = await new.get_session("h6")
        assert not await on_new.hand_off()
        second = await on_new.send("two")
        assert (await new.client.latest("session:h6")).deployment == "v1"
        release.set()
        done = await on_new.wait_for("turn.completed", after=-1, submission_id=second)
        assert (await new.client.latest("session:h6")).deployment == "v1"
        # Idle (parked) once its run commits the park: then it moves.
        for _ in range(500):
            if await on_new.hand_off():
                break
            await asyncio.sleep(0.02)
        moved = await on_new.wait_for("session.moved", after=done.index)
        assert moved.data.deployment == "v2"
        third = await on_new.send("three")
        await on_new.wait_for("turn.completed", after=moved.index, submission_id=third)
        assert (await on_new.state()).deployment == "v2"


async def test_an_active_sub_agent_blocks_the_move(backend: Backend) -> None:
    release = asyncio.Event()
    researching = asyncio.Event()

    async def research(request: ModelRequest) -> str:
        researching.set()
        await release.wait()
        return "db is fine"

    researcher = Agent(name="researcher", model=ScriptedModel([research]))
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("researcher", {"task": "check db"}),)), "done", "later"]
    )
    agent = Agent(name="ops", model=model, tools=[researcher.as_tool()])
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    session = await old.open_session("ops", session_id="h7")
    async with old.worker(poll_interval=0.02), new.worker(poll_interval=0.02):
        await session.send("check")
        await session.wait_for("turn.waiting", on="tasks")
        await researching.wait()
        on_new = await new.get_session("h7")
        # Parked on its sub-agent (no lease held): still not movable.
        for _ in range(10):
            assert not await on_new.hand_off()
            await asyncio.sleep(0.02)
        assert (await new.client.latest("session:h7")).deployment == "v1"
        release.set()
        done = await session.wait_for("turn.completed")
        for _ in range(500):
            if await on_new.hand_off():
                break
            await asyncio.sleep(0.02)
        moved = await on_new.wait_for("session.moved", after=done.index)
        assert moved.data.deployment == "v2"


async def test_a_host_moves_every_idle_session_ahead_of_their_messages(backend: Backend) -> None:
    model = ScriptedModel(
        ["a", "b", Reply(tool_calls=(tool_call("restart_service", {"service": "c"}),))]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service], turn_policy="queue")
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    async with old.worker(poll_interval=0.02):
        for sid, event in (("i1", "turn.completed"), ("i2", "turn.completed"), ("p1", "")):
            session = await old.open_session("ops", session_id=sid)
            await session.send(f"to {sid}")
            await session.wait_for(event or "input.requested")
            await wait_settled_steps(old, session)
    async with new.worker(poll_interval=0.02):
        assert sorted(await new.hand_off_sessions()) == ["i1", "i2"]  # p1 is parked
        states = {s: (await (await new.get_session(s)).state()) for s in ("i1", "i2", "p1")}
        assert {s: st.deployment for s, st in states.items()} == {
            "i1": "v2",
            "i2": "v2",
            "p1": "v1",
        }
        assert states["p1"].stranded and await new.hand_off_sessions() == []
