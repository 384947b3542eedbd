"""The budget contract: every backend's `BudgetStore` must pass it.

Limits are checked alike; a reserve is all or nothing over its scopes and refuses a
call that would go over any of them; a reserve or a settle of one reservation counts
once however often it runs; a call's later attempt releases what its earlier one
reserved; a holder's release gives back what it held; a refusal of an ``"ask"``
budget is listed as a waiter until the holder reserves again or is released;
concurrent reserves on one scope never go over its limit; a settle keeps its call's
usage, and a session's settled calls are listed in the order they settled, one per
attempt.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ...errors import InvalidInputError
from ...stores import BudgetLimits, BudgetRequest, BudgetStore, CallCounts

__all__ = ["BudgetContract"]


def _ask(reservation_id: str, *scopes: str, tokens: int = 100, **more: Any) -> BudgetRequest:
    call = more.pop("call", reservation_id)
    holder = more.pop("holder", "turn-1")
    session_id = more.pop("session_id", "s1")
    return BudgetRequest(
        reservation_id=reservation_id,
        call=call,
        holder=holder,
        scopes=scopes,
        tokens=tokens,
        agent_name="a",
        session_id=session_id,
        **more,
    )


class BudgetContract:
    """Subclass with an async `backend` fixture yielding a migrated, connected backend."""

    @pytest.fixture
    def budgets(self, backend: Any) -> BudgetStore:
        return backend.stores.budgets  # type: ignore[no-any-return]

    async def test_put_and_get_keep_limits_and_usage(self, budgets: BudgetStore) -> None:
        assert await budgets.get_budget("agent:a") is None
        put = await budgets.put_budget("agent:a", BudgetLimits(tokens=1000, cost=2.5))
        assert (put.tokens, put.cost, put.on_exceeded, put.used_tokens) == (1000, 2.5, "ask", 0)
        await budgets.reserve_budget(_ask("r1", "agent:a", tokens=300))
        assert await budgets.settle_budget("r1", tokens=250, cost=0.5)
        raised = await budgets.put_budget("agent:a", BudgetLimits(tokens=5000, on_exceeded="fail"))
        read = await budgets.get_budget("agent:a")
        assert read == raised
        assert (read.tokens, read.cost, read.on_exceeded) == (5000, None, "fail")
        assert (read.used_tokens, read.used_cost, read.reserved_tokens) == (250, 0.5, 0)

    async def test_settled_calls_keep_each_attempts_usage(self, budgets: BudgetStore) -> None:
        await budgets.put_budget("agent:a", BudgetLimits(tokens=10_000))
        usage: CallCounts = {
            "model": "m",
            "input_tokens": 40,
            "output_tokens": 3,
            "details": {"x": 1},
        }
        # Two attempts of one call: the first settled and its reply never committed.
        await budgets.reserve_budget(_ask("t/0/0#1", "agent:a", call="t/0/0"))
        assert await budgets.settle_budget("t/0/0#1", tokens=43, cost=0.5, usage=usage)
        await budgets.reserve_budget(_ask("t/0/0#2", "agent:a", call="t/0/0"))
        assert await budgets.settle_budget("t/0/0#2", tokens=43, cost=0.5, usage=usage)
        # Reserved and released ones are no calls; another session's are not listed.
        await budgets.reserve_budget(_ask("t/1/0#1", "agent:a", call="t/1/0"))
        await budgets.reserve_budget(_ask("u/0/0#1", "agent:a", session_id="s2", holder="u"))
        assert await budgets.settle_budget("u/0/0#1", tokens=1, cost=0.0)
        calls = await budgets.settled_calls("s1")
        assert [c.reservation_id for c in calls] == ["t/0/0#1", "t/0/0#2"]
        assert all(c.usage == usage and c.status == "settled" for c in calls)
        assert all(c.settled_at is not None and c.settled_at >= c.created_at for c in calls)
        (other,) = await budgets.settled_calls("s2")
        assert other.usage is None and other.tokens == 1
        assert await budgets.settled_calls("nobody") == []
        state = await budgets.get_budget("agent:a")
        assert state is not None and state.used_tokens == 2 * 43 + 1

    async def test_bad_limits_and_scopes_are_refused(self, budgets: BudgetStore) -> None:
        for bad in ({"tokens": -1}, {"tokens": 1.5}, {"cost": -0.1}, {"on_exceeded": "wait"}):
            with pytest.raises(InvalidInputError):
                BudgetLimits(**bad)
        with pytest.raises(InvalidInputError, match="scope"):
            await budgets.put_budget("", BudgetLimits(tokens=1))
        assert await budgets.get_budget("agent:x") is None

    async def test_a_call_no_budget_applies_to_is_granted(self, budgets: BudgetStore) -> None:
        grant = await budgets.reserve_budget(_ask("r1", "session:a/s1", "agent:a"))
        assert grant.granted and grant.scopes == ()
        assert not await budgets.settle_budget("r1", tokens=10, cost=0.0)

    async def test_defaults_create_a_scope_and_reserve_settle_counts_once(
        self, budgets: BudgetStore
    ) -> None:
        defaults = {"session:a/s1": BudgetLimits(tokens=1000)}
        grant = await budgets.reserve_budget(
            _ask("r1", "session:a/s1", tokens=400), defaults=defaults
        )
        assert grant.granted and grant.scopes == ("session:a/s1",)
        again = await budgets.reserve_budget(
            _ask("r1", "session:a/s1", tokens=400), defaults=defaults
        )
        assert again.granted
        state = await budgets.get_budget("session:a/s1")
        assert state is not None and (state.reserved_tokens, state.used_tokens) == (400, 0)
        assert await budgets.settle_budget("r1", tokens=120, cost=0.25)
        assert not await budgets.settle_budget("r1", tokens=120, cost=0.25)
        # A reserve of a settled reservation is a replay: nothing changes.
        assert (await budgets.reserve_budget(_ask("r1", "session:a/s1", tokens=400))).granted
        state = await budgets.get_budget("session:a/s1")
        assert state is not None
        assert (state.reserved_tokens, state.used_tokens, state.used_cost) == (0, 120, 0.25)

    async def test_a_reserve_over_any_scope_is_refused_whole(self, budgets: BudgetStore) -> None:
        await budgets.put_budget("agent:a", BudgetLimits(tokens=1000))
        await budgets.put_budget("tenant:t", BudgetLimits(tokens=500, on_exceeded="fail"))
        assert (await budgets.reserve_budget(_ask("r1", "agent:a", "tenant:t", tokens=300))).granted
        refused = await budgets.reserve_budget(
            _ask("r2", "agent:a", "tenant:t", tokens=300, holder="turn-2")
        )
        assert not refused.granted and refused.refused is not None
        assert refused.refused.scope == "tenant:t" and refused.refused.reserved_tokens == 300
        agent = await budgets.get_budget("agent:a")
        assert agent is not None and agent.reserved_tokens == 300
        # A "fail" budget's refusal leaves no waiter.
        assert await budgets.budget_waiters("tenant:t") == []

    async def test_cost_limits_refuse_too(self, budgets: BudgetStore) -> None:
        await budgets.put_budget("agent:a", BudgetLimits(cost=1.0))
        assert (await budgets.reserve_budget(_ask("r1", "agent:a", cost=0.6))).granted
        assert not (
            await budgets.reserve_budget(_ask("r2", "agent:a", cost=0.6, holder="h2"))
        ).granted
        assert await budgets.settle_budget("r1", tokens=10, cost=0.4)
        assert (await budgets.reserve_budget(_ask("r2", "agent:a", cost=0.6, holder="h2"))).granted

    async def test_a_later_attempt_releases_the_earlier_one(self, budgets: BudgetStore) -> None:
        await budgets.put_budget("agent:a", BudgetLimits(tokens=1000))
        await budgets.reserve_budget(_ask("c1#1", "agent:a", tokens=600, call="c1"))
        # The first attempt died before it settled: its retry reserves again.
        assert (
            await budgets.reserve_budget(_ask("c1#2", "agent:a", tokens=600, call="c1"))
        ).granted
        assert not await budgets.settle_budget("c1#1", tokens=600, cost=0.0)
        assert await budgets.settle_budget("c1#2", tokens=500, cost=0.0)
        state = await budgets.get_budget("agent:a")
        assert state is not None and (state.used_tokens, state.reserved_tokens) == (500, 0)

    async def test_waiters_are_listed_until_the_holder_moves_on(self, budgets: BudgetStore) -> None:
        await budgets.put_budget("agent:a", BudgetLimits(tokens=100))
        refused = await budgets.reserve_budget(_ask("r1", "agent:a", tokens=300))
        assert not refused.granted
        (waiter,) = await budgets.budget_waiters("agent:a")
        assert (waiter.reservation_id, waiter.session_id, waiter.agent_name) == ("r1", "s1", "a")
        assert waiter.status == "waiting" and waiter.refused_scope == "agent:a"
        await budgets.put_budget("agent:a", BudgetLimits(tokens=1000))
        assert (await budgets.reserve_budget(_ask("r2", "agent:a", tokens=300))).granted
        assert await budgets.budget_waiters("agent:a") == []
        assert await budgets.release_budget("turn-1") == 1
        state = await budgets.get_budget("agent:a")
        assert state is not None and state.reserved_tokens == 0
        assert await budgets.release_budget("turn-1") == 0

    async def test_concurrent_reserves_never_go_over(self, budgets: BudgetStore) -> None:
        await budgets.put_budget("tenant:t", BudgetLimits(tokens=1000, on_exceeded="fail"))
        grants = await asyncio.gather(
            *(
                budgets.reserve_budget(_ask(f"r{i}", "tenant:t", tokens=100, holder=f"h{i}"))
                for i in range(25)
            )
        )
        assert sum(g.granted for g in grants) == 10
        state = await budgets.get_budget("tenant:t")
        assert state is not None and state.reserved_tokens == 1000
