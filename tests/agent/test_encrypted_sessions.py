"""Sessions on an encrypted store, on every backend: the writes that ride on a step's
commit (transcript batches, session events, ledger settlements) and on a send's hook
ring (the admitted message) are sealed like the stores seal their own writes, read back
as plaintext, replay idempotently, and are erased with the session's keys."""

from __future__ import annotations

import secrets
from typing import Any

import orjson
import pytest
from _harness import hosted

from tether.agent import Agent, UserEntry, tool
from tether.agent.models import ModelRequest, UserMessage
from tether.errors import ContentDeletedError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

SECRET = "sealed-secret-" + secrets.token_hex(4)


def _echo(request: ModelRequest) -> str:
    said = [m.text for m in request.messages if isinstance(m, UserMessage)]
    return f"echo: {said[-1]}"


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: {SECRET}-tool"


async def test_a_turn_reads_back_plaintext_and_stores_none(encrypted: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(_echo))
    async with hosted(encrypted, agent) as host:
        session = await host.open_session("ops", session_id="e1", owner="ada")
        sent = await session.send(f"hello {SECRET}", client_message_id="m1", principal="ada")
        done = await session.wait_for("turn.completed")
        # The same message again (a client retrying after a timeout): the ring carries
        # the same sealed bytes, so the ledger sees an exact replay, not a conflict.
        assert (
            await session.send(f"hello {SECRET}", client_message_id="m1", principal="ada") == sent
        )
        completed = [e for e in await session.read_events() if e.type == "message.completed"]
        assert completed[-1].data.text == f"echo: hello {SECRET}"
        assert done.meta.turn_id is not None
        users = [e for e in await session.transcript() if isinstance(e, UserEntry)]
        assert [u.text for u in users] == [f"hello {SECRET}"]
        sub = await encrypted.stores.submissions.get_submission(sent)
        assert sub is not None and sub.payload["text"] == f"hello {SECRET}"
        assert sub.outcome == "completed"
        # What the stores under the encrypting layer hold: no plaintext anywhere.
        workflow: Any = encrypted.stores.workflow
        conversations: Any = encrypted.stores.conversations
        submissions: Any = encrypted.stores.submissions
        chunks, _ = await workflow.inner.read_stream(session.run_id, "events")
        batches = (await conversations.inner.read("agents/ops/e1")).batches
        raw = b"".join(c.data for c in chunks) + orjson.dumps(
            [b.records for b in batches] + [(await submissions.inner.get_submission(sent)).payload]
        )
        assert chunks and batches
        assert SECRET.encode() not in raw


async def test_erasing_a_session_shreds_it_and_its_tasks(encrypted: Backend) -> None:
    researcher = Agent(
        name="researcher",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("lookup", {"service": SECRET}),)), f"{SECRET} found"]
        ),
        tools=[lookup],
    )
    lead = Agent(
        name="lead",
        model=ScriptedModel(
            [Reply(tool_calls=(tool_call("researcher", {"task": f"check {SECRET}"}),)), "done"]
        ),
        tools=[researcher.as_tool()],
    )
    async with hosted(encrypted, lead) as host:
        session = await host.open_session("lead", session_id="x1", owner="ada")
        other = await host.open_session("lead", session_id="x2", owner="ada")
        await session.send(f"look at {SECRET}")
        waiting = await session.wait_for("turn.waiting", on="tasks")
        await session.wait_for("turn.completed")
        [task] = waiting.data.tasks
        erased = await host.erase_session("lead", "x1")
        assert erased.crypto_shredded and erased.session_id == "x1"
        assert erased.scopes[0] == "run:session:x1"
        with pytest.raises(ContentDeletedError, match="erased"):
            await session.transcript()
        with pytest.raises(ContentDeletedError, match="erased"):
            await session.read_events()
        with pytest.raises(ContentDeletedError, match="erased"):
            await host.get_session("x1")
        listed = await host.list_sessions(owner="ada")
        assert [s.session_id for s in listed.items] == ["x2"]
        # The sub-agent's run shared the session's keys: nothing of it opens any more.
        for run_id in (session.run_id, task.run_id):
            steps = await (await host.client.get(run_id)).steps()
            assert steps and all(s.output is None and s.input is None for s in steps)
        # The other session of the same agent and owner is untouched.
        assert (await other.state()).status == "idle"
        assert await other.read_events()
        # Erasing again is harmless (a client retrying).
        again = await host.erase_session("lead", "x1")
        assert again.crypto_shredded
    assert (await (await host.client.get(session.run_id)).info()).status == "cancelled"


async def test_erasing_without_a_key_deletes_the_content(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(_echo), tools=[lookup])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="p1")
        sent = await session.send(f"hello {SECRET}")
        await session.wait_for("turn.completed")
        erased = await session.erase()
        assert not erased.crypto_shredded and erased.scopes == ()
        handle = await host.client.get(session.run_id)
        assert (await handle.info()).status == "cancelled"
        held = [orjson.dumps([s.input, s.output], default=str) for s in await handle.steps()]
        held += [c.data for c in await handle.stream("events").read_all()]
        sub = await backend.stores.submissions.get_submission(sent)
        assert sub is not None and sub.payload is None
        assert await session.transcript() == []
        assert SECRET.encode() not in b"".join(held)


async def test_erasing_a_reset_session_erases_every_run_of_it(encrypted: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]))
    async with hosted(encrypted, agent) as host:
        session = await host.open_session("ops", session_id="er1")
        await session.send("first secret")
        await session.wait_for("turn.completed")
        fresh = await session.reset()
        await fresh.send("second secret", client_message_id="m2")
        await fresh.wait_for("turn.completed", after=0)
        # The reset session's run shares the chain's key scope: direct admission agrees.
        await fresh.send("second secret", client_message_id="m2")
        await fresh.erase()
        with pytest.raises(ContentDeletedError):
            await fresh.transcript()
        with pytest.raises(ContentDeletedError):
            await fresh.read_events()
    # The reset session's run was sealed under the chain's keys (which are gone), so a
    # copy of its data taken before the erasure is unreadable too.
    store: Any = encrypted.stores.workflow
    assert await store.scope_of("session:er1~1") == await store.scope_of("session:er1")


async def test_attachments_are_sealed_and_erased_with_the_session(encrypted: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(_echo))
    async with hosted(encrypted, agent) as host:
        session = await host.open_session("ops", session_id="f1")
        notes = await session.attach(
            f"notes: {SECRET}".encode(), mime_type="text/plain", filename=f"{SECRET}.txt"
        )
        await session.send("read it", attachments=[notes])
        await session.wait_for("turn.completed")
        where = {
            "stream_path": "agents/ops/f1#attachments",
            "conversation_id": "f1",
            "attachment_id": notes.id,
        }
        inner: Any = encrypted.stores.attachments
        raw = await inner.inner.get(**where)
        assert raw is not None and SECRET.encode() not in raw.data
        assert raw.ref.filename is not None and SECRET not in raw.ref.filename
        assert (await session.read_attachment(notes.id))[1] == f"notes: {SECRET}".encode()
        await host.erase_session("ops", "f1")
        with pytest.raises(ContentDeletedError, match="erased"):
            await session.read_attachment(notes.id)
        assert await inner.inner.get(**where) is None
