"""Token and cost budgets through the public API, on every backend.

A session's budget stops a turn at the model call that would go over it: with
``"ask"`` the turn parks on a ``budget`` request and a raise resumes it; with
``"fail"`` it fails with code ``budget_exceeded``. Agent and tenant budgets are shared
by every session and every worker: concurrent sessions never reserve past them.
"""

from __future__ import annotations

import asyncio

import pytest

from tether.agent import (
    Agent,
    AgentHost,
    Agents,
    Budget,
    BudgetScope,
    Price,
    ToolContext,
    TurnFailed,
    tool,
)
from tether.agent.models import ModelRequest, ToolResultMessage, Usage
from tether.errors import BudgetError
from tether.stores import Backend
from tether.testing import Reply, ScriptedModel, tool_call

from ._harness import hosted

#: Every call reports 100 input and 20 output tokens: 120 a call.
CALL = Usage(input_tokens=100, output_tokens=20)
MODEL = "scripted:m"
calls: list[str] = []


@tool
async def step(ctx: ToolContext, n: int) -> str:
    """One more step."""
    return f"step {n} done"


def answer(request: ModelRequest) -> Reply:
    """Three calls a turn: two tool steps, then the reply."""
    calls.append("call")
    done = sum(isinstance(m, ToolResultMessage) for m in request.messages)
    if done < 2:
        return Reply(tool_calls=(tool_call("step", {"n": done}),), usage=CALL)
    return Reply(text="finished", usage=CALL)


def agent(budget: Budget | None, name: str = "metered") -> Agent:
    # estimate=120: a call reserves what it uses, so the arithmetic below is exact.
    return Agent(name=name, model=ScriptedModel(answer, name="m"), tools=[step], budget=budget)


@pytest.fixture(autouse=True)
def _reset() -> None:
    calls.clear()


async def test_an_ask_budget_parks_the_turn_and_a_raise_resumes_it(backend: Backend) -> None:
    metered = agent(Budget(tokens=300, estimate=120))
    async with hosted(backend, metered) as host:
        session = await host.open_session("metered", session_id="b-ask")
        await session.send("go")
        waiting = await session.wait_for("turn.waiting", timeout=30)
        # Two calls fit (240 of 300); the third (120 more) does not.
        assert len(calls) == 2
        (request,) = await session.pending_requests()
        assert request.kind == "budget" and request.request_id in waiting.data.request_ids  # type: ignore[union-attr]
        assert request.data["scope"] == "session:metered/b-ask"
        assert (request.data["used_tokens"], request.data["needed_tokens"]) == (240, 120)
        status = await session.budget()
        assert status is not None
        assert (status.tokens, status.used_tokens, status.reserved_tokens) == (300, 240, 0)
        assert status.remaining_tokens == 60

        raised = await session.raise_budget(tokens=1000)
        assert raised.tokens == 1000
        await session.wait_for("turn.completed", timeout=30)
        assert len(calls) == 3
        status = await session.budget()
        assert status is not None and (status.used_tokens, status.reserved_tokens) == (360, 0)
        resolved = [e for e in await session.read_events() if e.type == "input.resolved"]
        assert [e.data.request_id for e in resolved] == [request.request_id]  # type: ignore[union-attr]
        assert await session.pending_requests() == []
        # The same raise again changes nothing; a lower one is refused.
        assert (await session.raise_budget(tokens=1000)).tokens == 1000
        with pytest.raises(BudgetError, match="does not lower"):
            await session.raise_budget(tokens=500)


async def test_a_fail_budget_fails_the_turn_with_its_code(backend: Backend) -> None:
    metered = agent(Budget(tokens=250, on_exceeded="fail", estimate=120))
    async with hosted(backend, metered) as host:
        session = await host.open_session("metered", session_id="b-fail")
        await session.send("go")
        failed = await session.wait_for("turn.failed", timeout=30)
        assert isinstance(failed.data, TurnFailed)
        assert failed.data.code == "budget_exceeded"
        assert "session:metered/b-fail" in failed.data.error
        assert len(calls) == 2
        assert await session.pending_requests() == []
        status = await session.budget()
        assert status is not None and (status.used_tokens, status.reserved_tokens) == (240, 0)
        # The next turn finds no room either: it fails at its first call.
        await session.send("again")
        again = await session.wait_for("turn.failed", after=failed.index, timeout=30)
        assert isinstance(again.data, TurnFailed) and again.data.code == "budget_exceeded"
        assert len(calls) == 2


async def test_declining_a_budget_request_fails_the_turn(backend: Backend) -> None:
    async with hosted(backend, agent(Budget(tokens=100, estimate=120))) as host:
        session = await host.open_session("metered", session_id="b-decline")
        await session.send("go")
        await session.wait_for("turn.waiting", timeout=30)
        (request,) = await session.pending_requests()
        await session.answer(request.request_id, "deny")
        failed = await session.wait_for("turn.failed", timeout=30)
        assert isinstance(failed.data, TurnFailed) and failed.data.code == "budget_exceeded"
        assert calls == []


async def test_an_agent_budget_is_shared_by_its_sessions_across_two_workers(
    backend: Backend,
) -> None:
    # A session budget far off, for its estimate: each call reserves what it uses.
    host = AgentHost(backend, [agent(Budget(tokens=10**9, estimate=120))])
    scope = BudgetScope.agent("metered")
    await host.set_budget(scope, Budget(tokens=120 * 7))
    async with host.worker(poll_interval=0.02), host.worker(poll_interval=0.02):
        sessions = [await host.open_session("metered", session_id=f"b-share-{i}") for i in range(3)]
        for s in sessions:
            await s.send("go")
        # Nine calls wanted, seven fit: two turns park (or one parks having had one).
        for s in sessions:
            await _settle_down(s)
        status = await host.budget(scope)
        assert status is not None
        assert status.used_tokens + status.reserved_tokens <= 120 * 7
        assert len(calls) == 7 and status.used_tokens == 120 * 7
        parked = [s for s in sessions if await s.pending_requests()]
        assert parked
        for s in parked:
            assert [r.kind for r in await s.pending_requests()] == ["budget"]
        await host.raise_budget(scope, tokens=120 * 9)
        for s in sessions:
            await s.wait_for("turn.completed", timeout=30)
        status = await host.budget(scope)
        assert status is not None and (status.used_tokens, status.reserved_tokens) == (1080, 0)
        assert len(calls) == 9


async def _settle_down(session: object) -> None:
    """Until the session's turn completed or parked on a request."""
    for _ in range(1500):
        events = await session.read_events()  # type: ignore[attr-defined]
        if any(e.type in ("turn.completed", "turn.waiting") for e in events):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the turn neither completed nor parked")


async def test_a_tenant_budget_counts_cost_at_the_agents_prices(backend: Backend) -> None:
    prices = {MODEL: Price(input=1000.0, output=5000.0)}
    # A call costs (100 * 1000 + 20 * 5000) / 1e6 = 0.2; the estimate (120 tokens, 20
    # of them output: max_tokens) reserves 0.2 too.
    metered = Agent(
        name="metered",
        model=ScriptedModel(answer, name="m"),
        tools=[step],
        max_tokens=20,
        budget=Budget(cost=100.0, estimate=120),
    )
    host = AgentHost(backend, Agents([metered], prices=prices))
    await host.set_budget(BudgetScope.tenant("acme"), Budget(cost=0.5, on_exceeded="fail"))
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("metered", session_id="b-cost", owner="acme")
        await session.send("go")
        failed = await session.wait_for("turn.failed", timeout=30)
        assert isinstance(failed.data, TurnFailed) and failed.data.code == "budget_exceeded"
        assert "tenant:acme" in failed.data.error
        tenant = await host.budget("tenant:acme")
        assert tenant is not None and tenant.used_cost == pytest.approx(0.4)
        own = await session.budget()
        assert own is not None and own.used_cost == pytest.approx(0.4)
        # A session of another tenant is not held back by it.
        other = await host.open_session("metered", session_id="b-cost-2", owner="other")
        await other.send("go")
        await other.wait_for("turn.completed", timeout=30)


def test_bad_declarations_are_refused_with_budget_errors() -> None:
    with pytest.raises(BudgetError, match="give tokens="):
        Budget()
    with pytest.raises(BudgetError, match="tokens"):
        Budget(tokens=-5)
    with pytest.raises(BudgetError, match="on_exceeded"):
        Budget(tokens=5, on_exceeded="wait")  # type: ignore[arg-type]
    with pytest.raises(BudgetError, match="estimate"):
        Budget(tokens=5, estimate=0)
    with pytest.raises(BudgetError, match="a Budget or None"):
        Agent(name="x", model=ScriptedModel(answer), budget={"tokens": 5})  # type: ignore[arg-type]
    costly = Agent(name="x", model=ScriptedModel(answer), budget=Budget(cost=1.0))
    with pytest.raises(BudgetError, match="needs prices"):
        Agents([costly])
    with pytest.raises(BudgetError, match="scope key"):
        BudgetScope.parse("team:a")
    assert BudgetScope.parse("session:a/s-1") == BudgetScope.session("a", "s-1")
    assert BudgetScope.parse(BudgetScope.tenant("acme").key) == BudgetScope.tenant("acme")


async def test_bad_changes_are_refused(backend: Backend) -> None:
    async with hosted(backend, agent(None)) as host:
        with pytest.raises(BudgetError, match="no such budget"):
            await host.raise_budget(BudgetScope.agent("metered"), tokens=10)
        await host.set_budget("agent:metered", Budget(tokens=10))
        with pytest.raises(BudgetError, match="give the new"):
            await host.raise_budget("agent:metered")
        with pytest.raises(BudgetError, match="estimate"):
            await host.set_budget("agent:metered", Budget(tokens=10, estimate=5))
        assert await host.budget("tenant:nobody") is None


async def test_a_yes_without_a_raise_checks_again_and_parks_again(backend: Backend) -> None:
    async with hosted(backend, agent(Budget(tokens=100, estimate=120))) as host:
        session = await host.open_session("metered", session_id="b-yes")
        await session.send("go")
        first = await session.wait_for("turn.waiting", timeout=30)
        (request,) = await session.pending_requests()
        await session.answer(request.request_id, "approve")
        await session.wait_for("turn.waiting", after=first.index, timeout=30)
        (again,) = await session.pending_requests()
        assert again.kind == "budget" and again.request_id != request.request_id
        assert calls == []
        await session.raise_budget(tokens=400)
        await session.wait_for("turn.completed", timeout=30)
        assert len(calls) == 3
