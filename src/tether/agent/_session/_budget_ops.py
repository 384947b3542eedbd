"""Budgets as operators see them: read, set and raise one; raising wakes its waiters.

A turn that parked on a budget (policy ``"ask"``) left a waiting reservation in the
store with its request's id. Setting or raising that budget answers every such
request (``{"approved": True, "reason": "budget raised"}``, admitted to the session's
commands lane like any answer, which rings its inbox): the turn wakes, reserves again
and goes on, or parks again if the budget still has no room for its call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...errors import BudgetError, ConflictError, NotFoundError, SessionClosedError
from ...stores import BudgetLimits, BudgetState, BudgetStore
from .._records._budget import BUDGET_REQUEST, Budget, BudgetScope, BudgetStatus, check_raise
from .._registry import Agents

__all__ = ["RAISED", "Answer", "Budgets"]

#: Admits an answer to a session's request: (agent, session id, request id, answer).
Answer = Callable[[str, str, str, object], Awaitable[None]]

#: The answer a raise gives the requests of the turns it wakes.
RAISED = {"approved": True, "reason": "budget raised"}


def _scope(scope: BudgetScope | str) -> BudgetScope:
    if isinstance(scope, str):
        return BudgetScope.parse(scope)
    if not isinstance(scope, BudgetScope):
        raise BudgetError(f"a scope is a BudgetScope or its key, not {scope!r}")
    return scope


class Budgets:
    """The budget operations of one host: its store, its agents, how it answers."""

    def __init__(self, store: BudgetStore, agents: Agents, answer: Answer) -> None:
        self.store = store
        self.agents = agents
        self.answer = answer

    def declared(self, scope: BudgetScope) -> Budget | None:
        """The budget an agent declares for its sessions, for a session scope."""
        if scope.kind != "session" or scope.agent_name not in self.agents:
            return None
        assert scope.agent_name is not None
        return self.agents.get(scope.agent_name).budget

    async def get(self, scope: BudgetScope | str) -> BudgetStatus | None:
        """The budget of `scope` as it stands; None if it has none.

        A session whose agent declares a budget has it before its first call: it is
        shown with nothing used.
        """
        found = _scope(scope)
        state = await self.store.get_budget(found.key)
        if state is None:
            declared = self.declared(found)
            if declared is None:
                return None
            limits = declared.limits
            state = BudgetState(
                scope=found.key,
                tokens=limits.tokens,
                cost=limits.cost,
                on_exceeded=limits.on_exceeded,
            )
        return BudgetStatus.of(state)

    async def set(self, scope: BudgetScope | str, budget: Budget) -> BudgetStatus:
        """Put `scope`'s budget: create it, or change its limits (what was used stays)."""
        found = _scope(scope)
        if not isinstance(budget, Budget):
            raise BudgetError(f"a budget is a Budget, not {budget!r}", scope=found.key)
        if budget.estimate is not None:
            raise BudgetError(
                "estimate belongs to an agent's declaration (Agent(budget=Budget(estimate=...)))",
                scope=found.key,
            )
        state = await self.store.put_budget(found.key, budget.limits)
        await self._wake(found)
        return BudgetStatus.of(state)

    async def raise_(
        self, scope: BudgetScope | str, *, tokens: int | None, cost: float | None
    ) -> BudgetStatus:
        """Raise `scope`'s limits to `tokens` and `cost` (None keeps one); wake its waiters.

        Raises:
            BudgetError: No such budget, nothing given, or a limit below the current one.
        """
        found = _scope(scope)
        state = await self.store.get_budget(found.key)
        old: BudgetLimits | None = state.limits if state is not None else None
        if old is None:
            declared = self.declared(found)
            old = declared.limits if declared is not None else None
        new = check_raise(found, old, tokens, cost)
        state = await self.store.put_budget(found.key, new)
        await self._wake(found)
        return BudgetStatus.of(state)

    async def _wake(self, scope: BudgetScope) -> None:
        for waiter in await self.store.budget_waiters(scope.key):
            request_id = BUDGET_REQUEST + waiter.reservation_id
            try:
                await self.answer(waiter.agent_name, waiter.session_id, request_id, RAISED)
            except (ConflictError, NotFoundError, SessionClosedError):
                # Answered otherwise (declined, say), or the session is gone: nothing
                # to wake.
                continue
