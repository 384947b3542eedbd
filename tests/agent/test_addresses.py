"""Channel addresses: one live session per address, on every backend.

Clients racing to start an address's session all land in the same one (each message
once, in arrival order); the address stays with the session across a move; a message
to an ended or stranded address's session opens a new one there, which knows its
predecessor.
"""

from __future__ import annotations

import asyncio

from _harness import hosted, wait_settled_steps, wait_status

from tether.agent import Agent, AgentHost, ContextEntry, approval, tool
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    return f"{service} restarted"


async def test_a_cold_start_race_ends_in_one_session(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["ok"] * 10), turn_policy="queue")
    async with hosted(backend, agent) as host:
        other = AgentHost(backend, [agent])
        sends = [
            (host if i % 2 else other).send_to_address(
                "ops", "slack:T1/C2/1712", f"m{i}", client_message_id=f"m{i}"
            )
            for i in range(6)
        ]
        results = await asyncio.gather(*sends)
        assert {s.session_id for s, _ in results} == {"ops@slack:T1/C2/1712"}
        session = results[0][0]
        for _, submission in results:
            await session.wait_for("turn.completed", after=-1, submission_id=submission)
        events = await session.read_events()
        begun = [e.data.submission_id for e in events if e.type == "turn.started"]
        assert sorted(begun) == sorted(s for _, s in results) and len(begun) == 6
        assert [e.type for e in events].count("session.started") == 1
        assert [i.session_id for i in (await host.list_sessions()).items] == [
            "ops@slack:T1/C2/1712"
        ]


async def test_a_message_to_an_ended_sessions_address_opens_a_new_one(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["first reply", "second reply"]))
    async with hosted(backend, agent) as host:
        session, _ = await host.send_to_address("ops", "case-7", "printer on fire")
        await session.wait_for("turn.completed")
        await session.close()
        await wait_status(session, "closed")
        fresh, sent = await host.send_to_address("ops", "case-7", "still on fire")
        done = await fresh.wait_for("turn.completed", after=-1, submission_id=sent)
        assert done is not None and fresh.session_id == session.session_id
        predecessor = await fresh.predecessor()
        assert predecessor is not None and "printer on fire" in predecessor.text


async def test_a_message_to_a_stranded_sessions_address_resets_it(backend: Backend) -> None:
    model = ScriptedModel(
        [Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)), "fresh"]
    )
    agent = Agent(name="ops", model=model, tools=[restart_service])
    old = AgentHost(backend, [agent], deployment="v1")
    new = AgentHost(backend, [agent], deployment="v2")
    async with old.worker(poll_interval=0.02):
        session, _ = await old.send_to_address("ops", "thread-9", "restart api")
        await session.wait_for("input.requested")
        await wait_settled_steps(old, session)
    async with new.worker(poll_interval=0.02):
        fresh, sent = await new.send_to_address("ops", "thread-9", "hello again")
        await fresh.wait_for("turn.completed", after=-1, submission_id=sent)
        assert (await fresh.state()).deployment == "v2"
        entries = await fresh.transcript()
        assert isinstance(entries[0], ContextEntry) and "restart api" in entries[0].text
