"""Dry replay of agent sessions: parked and idle sessions against new code, on every backend."""

from __future__ import annotations

from typing import Any

from _harness import hosted, wait_settled_steps, wait_status

from tether.agent import Agent, Agents, workflow_tool
from tether.durable import check_runs
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

ran: list[str] = []


def collect(incident_id: str) -> str:
    ran.append("collect")
    return f"context of {incident_id}"


def gather(incident_id: str) -> str:
    ran.append("gather")
    return f"gathered {incident_id}"


def agents(version: str, script: list[Any] | None = None) -> Agents:
    """The `ops` agent; version 2 renames the step inside its workflow tool."""
    fetch = collect if version in ("v1", "v1-compatible") else gather

    @workflow_tool
    async def triage(ctx: Any, incident_id: str) -> dict[str, Any]:
        """Triage an incident with a human."""
        context = await ctx.step(fetch, incident_id)
        level = await ctx.ask(f"Severity of {incident_id}?", options=["p1", "p2"])
        return {"level": level.option_id, "context": context}

    model = ScriptedModel(script or [])
    agent = Agent(name="ops", model=model, instructions=f"Ops {version}.", tools=[triage])
    return Agents([agent])


async def test_parked_and_idle_sessions_are_replayed(backend: Backend) -> None:
    script = [
        "Hello.",
        Reply(text="Triage.", tool_calls=(tool_call("triage", {"incident_id": "i1"}),)),
    ]
    built = agents("v1", script)
    async with hosted(backend, *built) as host:
        idle = await host.open_session("ops", session_id="idle")
        await idle.send("hi", client_message_id="m1")
        await idle.wait_for("turn.completed")
        await wait_status(idle, "idle")
        parked = await host.open_session("ops", session_id="parked")
        await parked.send("incident i1", client_message_id="m2")
        await parked.wait_for("input.requested")
        # The event is read before its step commits: stop the worker only once it has.
        await wait_settled_steps(host, parked)
    assert ran == ["collect"]
    ran.clear()
    store = backend.stores.workflow
    before = {r.run_id: r.head for r in (await store.list_runs(status="running")).items}
    assert len(before) == 2

    same = await check_runs(backend, agents("v1-compatible").registry)
    assert [(r.outcome, r.stopped_at) for r in same] == [("compatible", "parked")] * 2
    assert all(r.replayed == r.recorded > 0 for r in same)

    changed = await check_runs(backend, agents("v2").registry)
    by_outcome = {r.outcome: r for r in changed}
    assert set(by_outcome) == {"compatible", "nondeterministic"}
    bad = by_outcome["nondeterministic"]
    assert (bad.expected, bad.found) == ("collect", "gather") and bad.slot is not None
    assert bad.run_id != by_outcome["compatible"].run_id
    # The idle session took no tool: the change does not touch it.
    assert ran == []
    after = {r.run_id: r.head for r in (await store.list_runs(status="running")).items}
    assert after == before
