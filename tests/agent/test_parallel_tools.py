"""Parallel tool calls of one model response, on every backend.

Regression: each call's result is appended to the transcript as soon as it returns, and
concurrent appends of one step used to take the same producer sequence (a
`ConflictError` on stores whose calls yield, such as SQLite): the step failed and
retried, idempotent tools ran again and non-idempotent ones came back "outcome unknown".
"""

from __future__ import annotations

import collections

from tether.agent import Agent, AgentHost, ToolContext, tool
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

runs: list[tuple[str, str]] = []


@tool
async def lookup(ctx: ToolContext, service: str) -> str:
    """Look up a service."""
    runs.append(("lookup", ctx.call_id))
    return f"{service}: ok"


@tool(idempotent=False)
async def notify(ctx: ToolContext, who: str) -> str:
    """Notify someone (not idempotent)."""
    runs.append(("notify", ctx.call_id))
    return f"notified {who}"


async def test_parallel_tool_results_are_each_recorded_once(backend: Backend) -> None:
    runs.clear()
    calls = tuple(
        call
        for i in range(4)
        for call in (
            tool_call("lookup", {"service": f"s{i}"}),
            tool_call("notify", {"who": f"p{i}"}),
        )
    )
    model = ScriptedModel([Reply(tool_calls=calls), "All done."], select="transcript")
    host = AgentHost(backend, [Agent(name="ops", model=model, tools=[lookup, notify])])
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="s1")
        await session.send("go")
        await session.wait_for("turn.completed", timeout=20)
    assert len(runs) == 8 and set(collections.Counter(runs).values()) == {1}
    assert model.calls == 2
    transcript = await session.transcript()
    results = [r for r in transcript if r.kind == "tool_result"]
    assert len(results) == 8 and {r.outcome for r in results} == {"ok"}
    [asked, _] = [r for r in transcript if r.kind == "assistant"]
    assert sorted(r.call_id for r in results) == sorted(c.call_id for c in asked.tool_calls)
    assert [r.kind for r in transcript].count("tool_started") == 4
