"""In-memory budgets: the reference implementation of `BudgetStore`, no I/O.

Each method runs without awaiting in between, so on one event loop it is one atomic
step, as a transaction is on a durable backend.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from ..kit import (
    BudgetGrant,
    BudgetLimits,
    BudgetPlan,
    BudgetRequest,
    BudgetReservation,
    BudgetState,
    CallCounts,
    check_scope,
    plan_release,
    plan_reserve,
    plan_settle,
)
from ._gate import Gate, gated

__all__ = ["MemoryBudgetStore"]


@gated
class MemoryBudgetStore:
    """A `BudgetStore` kept in this process's memory."""

    def __init__(self, *, gate: Gate | None = None) -> None:
        self._gate = gate or Gate()
        self._states: dict[str, BudgetState] = {}
        self._reservations: dict[str, BudgetReservation] = {}

    def _apply(self, plan: BudgetPlan) -> None:
        for state in plan.states:
            self._states[state.scope] = state
        for row in plan.reservations:
            self._reservations[row.reservation_id] = row

    def _states_of(self, scopes: set[str]) -> dict[str, BudgetState]:
        return {s: self._states[s] for s in scopes if s in self._states}

    async def put_budget(self, scope: str, limits: BudgetLimits) -> BudgetState:
        check_scope(scope)
        now = time.time()
        old = self._states.get(scope) or BudgetState(scope=scope)
        state = BudgetState(
            scope=scope,
            tokens=limits.tokens,
            cost=limits.cost,
            on_exceeded=limits.on_exceeded,
            used_tokens=old.used_tokens,
            used_cost=old.used_cost,
            reserved_tokens=old.reserved_tokens,
            reserved_cost=old.reserved_cost,
            updated_at=now,
        )
        self._states[scope] = state
        return state

    async def get_budget(self, scope: str) -> BudgetState | None:
        return self._states.get(check_scope(scope))

    async def reserve_budget(
        self, request: BudgetRequest, *, defaults: Mapping[str, BudgetLimits] | None = None
    ) -> BudgetGrant:
        for scope in request.scopes:
            check_scope(scope)
        held = [
            r
            for r in self._reservations.values()
            if r.holder == request.holder and r.status in ("reserved", "waiting")
        ]
        wanted = set(request.scopes).union(*(r.scopes for r in held))
        plan = plan_reserve(
            request,
            states=self._states_of(wanted),
            existing=self._reservations.get(request.reservation_id),
            held=held,
            defaults=defaults or {},
            now=time.time(),
        )
        self._apply(plan)
        assert plan.grant is not None
        return plan.grant

    async def settle_budget(
        self,
        reservation_id: str,
        *,
        tokens: int,
        cost: float,
        usage: CallCounts | None = None,
    ) -> bool:
        row = self._reservations.get(reservation_id)
        plan = plan_settle(
            row,
            states=self._states_of(set(row.scopes) if row else set()),
            tokens=tokens,
            cost=cost,
            now=time.time(),
            usage=usage,
        )
        self._apply(plan)
        return plan.changed

    async def release_budget(self, holder: str) -> int:
        held = [
            r
            for r in self._reservations.values()
            if r.holder == holder and r.status in ("reserved", "waiting")
        ]
        scopes: set[str] = set().union(*(r.scopes for r in held))
        plan = plan_release(held, states=self._states_of(scopes), now=time.time())
        self._apply(plan)
        return len(plan.reservations)

    async def budget_waiters(self, scope: str) -> list[BudgetReservation]:
        found = [
            r
            for r in self._reservations.values()
            if r.status == "waiting" and r.refused_scope == scope
        ]
        return sorted(found, key=lambda r: (r.created_at, r.reservation_id))

    async def settled_calls(self, session_id: str) -> list[BudgetReservation]:
        found = [
            r
            for r in self._reservations.values()
            if r.status == "settled" and r.session_id == session_id
        ]
        return sorted(found, key=lambda r: (r.settled_at or 0.0, r.reservation_id))
