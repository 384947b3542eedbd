"""Answers to input requests go through one checked path, on every backend.

A second, conflicting answer is refused even when it races the first to the worker;
only the turn's principal (or an approver the agent names) may approve; and nobody can
inject an answer, a cancel or a close through the session's inbox hook: its token is
unguessable and what arrives there carries no authority.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _harness import hosted, settled

from tether.agent import Agent, approval, tool
from tether.errors import InputRequestError, NotFoundError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

effects: list[Any] = []


@tool(approval=approval.always())
async def restart_service(service: str) -> str:
    """Restart a service."""
    effects.append(("restart", service))
    return f"{service} restarted"


def restart_script() -> ScriptedModel:
    return ScriptedModel(
        [
            Reply(tool_calls=(tool_call("restart_service", {"service": "api"}),)),
            lambda r: "done",
            lambda r: "done again",
        ]
    )


@pytest.fixture(autouse=True)
def _reset() -> None:
    effects.clear()


async def test_conflicting_answers_racing_the_worker_one_wins(backend: Backend) -> None:
    agent = Agent(name="ops", model=restart_script(), tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="race")
        sub = await session.send("restart api", principal="ada")
        requested = await session.wait_for("input.requested")
        request_id = requested.data.request.request_id
        outcomes = await asyncio.gather(
            session.answer(request_id, "approve", principal="ada"),
            session.answer(request_id, "deny", principal="ada"),
            return_exceptions=True,
        )
        errors = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], InputRequestError), outcomes
        # Right after the race, before the worker has run: a third, different answer.
        won = "approve" if outcomes[0] is None else "deny"
        lost = "deny" if won == "approve" else "approve"
        with pytest.raises(InputRequestError, match="already answered"):
            await session.answer(request_id, lost, principal="ada")
        await session.answer(request_id, won, principal="ada")  # the same again: a no-op
        await session.wait_for("turn.completed")
        resolved = [e.data for e in await session.read_events() if e.type == "input.resolved"]
    assert [r.answer for r in resolved] == [won]
    assert effects == ([("restart", "api")] if won == "approve" else [])
    assert (await settled(backend, sub)).outcome == "completed"


async def test_only_the_turns_principal_or_a_named_approver_may_approve(
    backend: Backend,
) -> None:
    agent = Agent(
        name="ops", model=restart_script(), tools=[restart_service], approvers=("oncall",)
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="who")
        await session.send("restart api", principal="ada")
        requested = await session.wait_for("input.requested")
        request = requested.data.request
        assert request.principal == "ada" and request.approvers == ("oncall",)
        for intruder in ("mallory", None):
            with pytest.raises(InputRequestError, match="may not answer"):
                await session.answer(request.request_id, "approve", principal=intruder)
        assert [r.request_id for r in await session.pending_requests()] == [request.request_id]
        await session.answer(request.request_id, "approve", principal="oncall")
        await session.wait_for("turn.completed")
    assert effects == [("restart", "api")]


async def test_the_inbox_hook_takes_no_forged_commands(backend: Backend) -> None:
    agent = Agent(name="ops", model=restart_script(), tools=[restart_service])
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="forge")
        sub = await session.send("restart api", principal="ada")
        requested = await session.wait_for("input.requested")
        request_id = requested.data.request.request_id
        forged = {"kind": "answer", "request_id": request_id, "answer": "approve"}
        # The first pass's predictable token is gone...
        with pytest.raises(NotFoundError):
            await host.client.resume_hook("tether-session-inbox:forge", forged)
        [hook] = await backend.stores.workflow.list_hooks(session.run_id)
        assert len(hook.token) >= 22  # >= 128 random bits
        # ...and even the real token carries no authority: answers, cancels and closes
        # are read from the checked path only.
        for payload in (forged, {"kind": "cancel"}, {"kind": "close"}):
            await host.client.resume_hook(hook.token, payload)
        await asyncio.sleep(0.5)
        assert [r.request_id for r in await session.pending_requests()] == [request_id]
        assert (await session.state()).status == "parked"
        await session.answer(request_id, "deny", principal="ada")
        await session.wait_for("turn.completed")
    assert effects == []
    assert (await settled(backend, sub)).outcome == "completed"
