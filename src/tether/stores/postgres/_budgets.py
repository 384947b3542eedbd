"""Budgets in a Postgres namespace (see `tether.stores._budgets`).

Every change is one transaction that locks the budget rows it reads (in scope order),
so reserves of many workers on many hosts are serialized per scope.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._budget_sql import BudgetSql
from .._budgets import (
    BudgetGrant,
    BudgetLimits,
    BudgetRequest,
    BudgetReservation,
    BudgetState,
    check_scope,
)
from ._submissions import TxRunner

__all__ = ["PostgresBudgetStore"]

_SQL = BudgetSql(ph="%s", lock=" FOR UPDATE")
_READ = BudgetSql(ph="%s", lock="")


class PostgresBudgetStore:
    """A `BudgetStore` in a Postgres namespace, shared by any number of processes.

    Args:
        run: The transaction runner of the backend (the workflow store's).
    """

    def __init__(self, run: TxRunner) -> None:
        self._run_tx = run

    async def put_budget(self, scope: str, limits: BudgetLimits) -> BudgetState:
        check_scope(scope)
        return await self._run_tx(lambda conn: _SQL.put(conn, scope, limits))

    async def get_budget(self, scope: str) -> BudgetState | None:
        check_scope(scope)
        found = await self._run_tx(lambda conn: _READ.states(conn, [scope]))
        return found.get(scope)

    async def reserve_budget(
        self, request: BudgetRequest, *, defaults: Mapping[str, BudgetLimits] | None = None
    ) -> BudgetGrant:
        for scope in request.scopes:
            check_scope(scope)
        given = dict(defaults or {})

        def reserve(conn: object) -> BudgetGrant:
            # A call no budget applies to takes no lock and writes nothing.
            if not given and not _READ.any_budget(conn, request.scopes):
                return BudgetGrant(granted=True)
            return _SQL.reserve(conn, request, given)

        return await self._run_tx(reserve)

    async def settle_budget(self, reservation_id: str, *, tokens: int, cost: float) -> bool:
        return await self._run_tx(lambda conn: _SQL.settle(conn, reservation_id, tokens, cost))

    async def release_budget(self, holder: str) -> int:
        return await self._run_tx(lambda conn: _SQL.release(conn, holder))

    async def budget_waiters(self, scope: str) -> list[BudgetReservation]:
        return await self._run_tx(lambda conn: _READ.waiters(conn, scope))
