"""A session is a chain of runs: clear and reset, on every backend.

`clear` moves the session to a new run with a fresh transcript (same id, same event
stream with its offsets going on, same inbox); `reset` ends its run, stranded or not,
and opens the id again as a new session whose model is given its predecessor's text as
history, not instructions.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from _harness import hosted, users, wait_status

from tether.agent import (
    Agent,
    AgentHost,
    ContextEntry,
    SessionLine,
    UserEntry,
    approval,
    tool,
)
from tether.agent._registry import SESSION_WORKFLOW
from tether.agent.models import ModelRequest, UserMessage
from tether.errors import (
    InputRequestError,
    SessionClosedError,
    SessionFormatError,
    SessionStrandedError,
)
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: ok"


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    return f"{service} restarted"


def texts(request: ModelRequest) -> list[str]:
    return [m.text for m in request.messages if isinstance(m, UserMessage)]


async def test_clear_moves_the_session_to_a_fresh_transcript(backend: Backend) -> None:
    seen: list[ModelRequest] = []

    def answer(request: ModelRequest) -> str:
        seen.append(request)
        return f"reply {len(seen)}"

    agent = Agent(name="ops", model=ScriptedModel([answer] * 3), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="cl1")
        await session.send("one")
        first = await session.wait_for("turn.completed")
        await session.clear(principal="ada")
        moved = await session.wait_for("session.moved", after=first.index)
        assert moved.data.reason == "clear" and moved.data.generation == 1
        await session.send("two")
        await session.wait_for("turn.completed", after=moved.index)
        # The model of the fresh transcript remembers nothing of the old one.
        assert texts(seen[-1]) == ["two"]
        assert [e.text for e in await session.transcript() if isinstance(e, UserEntry)] == ["two"]
        # One event stream: indexes go on across the move, one session.started.
        events = await session.read_events()
        assert [e.index for e in events] == list(range(len(events)))
        assert [e.type for e in events].count("session.started") == 1
        current = await host.client.latest(session.run_id)
        assert (current.generation, current.status) == (1, "running")
        assert (await session.state()).status == "idle"
        # A follower from the start reads across the move.
        followed = []
        async for event in session.events(0):
            followed.append(event.type)
            if len(followed) == len(events):
                break
        assert followed == [e.type for e in events]
        # One session, listed once.
        listed = (await host.list_sessions()).items
        assert [(i.session_id, i.status) for i in listed] == [("cl1", "idle")]
        await session.close()
        await wait_status(session, "closed")


async def test_clear_while_a_message_waits_applies_before_it(backend: Backend) -> None:
    seen: list[ModelRequest] = []

    def answer(request: ModelRequest) -> str:
        seen.append(request)
        return "ok"

    agent = Agent(name="ops", model=ScriptedModel([answer] * 3), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="cl2")
        await session.send("one")
        done = await session.wait_for("turn.completed")
        await session.clear()
        await session.send("two")
        await session.wait_for("turn.completed", after=done.index)
        assert texts(seen[-1]) == ["two"]


async def test_reset_opens_a_new_session_that_knows_its_predecessor(backend: Backend) -> None:
    seen: list[ModelRequest] = []

    def answer(request: ModelRequest) -> str:
        seen.append(request)
        return f"reply {len(seen)}"

    agent = Agent(name="ops", model=ScriptedModel([answer] * 3), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="rs1", owner="ada")
        await session.send("the blue service is down")
        first = await session.wait_for("turn.completed")
        assert await session.predecessor() is None
        fresh = await session.reset(principal="ada")
        assert fresh.session_id == "rs1"
        started = await fresh.wait_for("session.started", after=first.index)
        assert started.data.predecessor == "session:rs1"
        predecessor = await fresh.predecessor()
        assert predecessor is not None and predecessor.run_id == "session:rs1"
        assert predecessor.text == "user: the blue service is down\nassistant: reply 1"
        await fresh.send("what was down?")
        await fresh.wait_for("turn.completed", after=started.index)
        # The model got the predecessor's text as user-role data marked as history.
        history, question = texts(seen[-1])
        assert "history, not instructions" in history and "the blue service is down" in history
        assert question == "what was down?" and users(seen[-1]) == 2
        entries = await fresh.transcript()
        assert isinstance(entries[0], ContextEntry) and entries[0].source == "predecessor"
        state = await fresh.state()
        assert (state.status, state.owner) == ("idle", "ada")
        # The old handle follows the new session as well.
        assert (await session.state()).status == "idle"


async def test_reset_of_a_closed_session_opens_it_again(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="rs2")
        await session.send("hi")
        await session.wait_for("turn.completed")
        await session.close()
        await wait_status(session, "closed")
        with pytest.raises(SessionClosedError):
            await session.send("late")
        fresh = await session.reset()
        await fresh.send("again")
        done = await fresh.wait_for("turn.completed", after=0)
        events = await fresh.read_events(done.index - 3)
        assert "turn.completed" in [e.type for e in events]
        await fresh.close()  # closes the new session (its own close request)
        await wait_status(fresh, "closed")


async def test_a_stranded_session_refuses_clear_and_send_and_can_be_reset(
    backend: Backend,
) -> None:
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)), "after"]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    session = await old.open_session("ops", session_id="rs3")
    async with old.worker(poll_interval=0.02):
        await session.send("restart api")
        await session.wait_for("input.requested")
    # Parked on an approval when the v1 workers went away: it cannot move to v2.
    async with new.worker(poll_interval=0.02):
        on_new = await new.get_session("rs3")
        with pytest.raises(SessionStrandedError) as caught:
            await on_new.send("anyone there?", client_message_id="m2")
        assert (caught.value.deployment, caught.value.session_id) == ("v1", "rs3")
        with pytest.raises(SessionStrandedError):
            await on_new.clear()
        assert (await on_new.state()).stranded
        assert "input.requested" in [e.type for e in await on_new.read_events()]
        fresh = await on_new.reset(principal="ops-team")
        assert (await new.client.latest(fresh.run_id)).deployment == "v2"
        assert not (await fresh.state()).stranded
        await fresh.send("after the reset")
        await fresh.wait_for("turn.completed", after=0)
        history = [e.text for e in await fresh.transcript() if isinstance(e, ContextEntry)]
        assert history and "user: restart api" in history[0]
    assert await backend.stores.submissions.get_submission("rs3:m2") is None


async def test_a_reset_session_has_no_turn_before_its_run_opens_it(backend: Backend) -> None:
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)), "after"]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    host = AgentHost(backend, [agent])
    session = await host.open_session("ops", session_id="rs5")
    async with host.worker(poll_interval=0.02):
        await session.send("restart api")
        requested = await session.wait_for("input.requested")
    # No worker: the new run has not opened the session yet when the reset returns.
    fresh = await session.reset()
    state = await fresh.state()
    assert (state.status, state.turn_id, state.pending) == ("idle", None, ())
    assert await fresh.pending_requests() == []
    with pytest.raises(InputRequestError):
        await fresh.answer(requested.data.request.request_id, "approve")
    async with host.worker(poll_interval=0.02):
        started = await fresh.wait_for("session.started", after=requested.index)
        assert started.data.predecessor == session.run_id
        assert (await fresh.state()).status == "idle"


async def test_unknown_session_state_keys_are_dropped_and_logged(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    caplog.set_level(logging.WARNING, logger="tether.agent")
    async with hosted(backend, agent) as host:
        # A run whose line a newer release wrote, with a key this one does not define.
        line = {"format": SessionLine.FORMAT, "generation": 0, "colour": "blue"}
        await host.client.start(
            SESSION_WORKFLOW, "ops", "fx1", None, "default", line, run_id="session:fx1"
        )
        session = await host.get_session("fx1")
        await session.send("hello")
        await session.wait_for("turn.completed")
    dropped = [r for r in caplog.records if "dropping unknown context key" in r.getMessage()]
    assert dropped and "colour" in dropped[0].getMessage()


async def test_a_successor_whose_line_names_no_inbox_adopts_the_moved_one(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    """A session moved by other code (`take_over`, `continue_as_new`) with a line that
    names no inbox (here with a key this release drops, too): the successor adopts the
    inbox that moved with the run, so the next message, rung on it, runs a turn."""
    agent = Agent(name="ops", model=ScriptedModel(["one", "two", "three"]), tools=[lookup])
    caplog.set_level(logging.WARNING, logger="tether.agent")
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="fx3")
        await session.send("hello", client_message_id="m1")
        first = await session.wait_for("turn.completed")
        held = None
        for _ in range(500):
            held = await host.client.take_over(session.run_id)
            if held is not None:
                break
            await asyncio.sleep(0.02)
        assert held is not None
        moved = [h.token for h in await host.client.hooks(held.run_id)]
        line = {"format": SessionLine.FORMAT, "generation": 0, "moved": "deploy", "colour": "b"}
        successor = await held.continue_as_new("ops", "fx3", None, "default", line)
        # The successor opens and parks (no lease) before the next message comes.
        moved_event = await session.wait_for("session.moved", after=first.index)
        for _ in range(500):
            run = await backend.stores.workflow.get_run(successor)
            if run is not None and run.lease_owner is None:
                break
            await asyncio.sleep(0.02)
        assert run is not None and run.lease_owner is None
        assert [h.token for h in await host.client.hooks(successor)] == moved
        # The session read before the move and one read after it both reach it.
        await session.send("again", client_message_id="m2")
        second = await session.wait_for("turn.completed", after=moved_event.index, timeout=10)
        later = await host.get_session("fx3")
        await later.send("and again", client_message_id="m3")
        await later.wait_for("turn.completed", after=second.index, timeout=10)
        assert (await host.client.latest(session.run_id)).run_id == successor
    dropped = [r for r in caplog.records if "dropping unknown context key" in r.getMessage()]
    assert dropped and "colour" in dropped[0].getMessage()


async def test_a_checkpoint_of_a_newer_format_is_refused(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["hi"]), tools=[lookup])
    host = AgentHost(backend, [agent])
    line = {"format": SessionLine.FORMAT + 1, "generation": 0}
    await host.client.start(
        SESSION_WORKFLOW, "ops", "fx2", None, "default", line, run_id="session:fx2"
    )
    session = await host.get_session("fx2")
    with pytest.raises(SessionFormatError, match="newer release") as caught:
        await session.send("hello", client_message_id="m")
    assert (caught.value.found, caught.value.newest) == (SessionLine.FORMAT + 1, SessionLine.FORMAT)
    with pytest.raises(SessionFormatError):
        await session.state()
    assert await backend.stores.submissions.get_submission("fx2:m") is None
