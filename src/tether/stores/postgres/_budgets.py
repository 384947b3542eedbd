"""Budgets in a Postgres namespace (see `tether.stores._budgets`).

Every change is one transaction that locks the budget rows it reads (in scope order),
so reserves of many workers on many hosts are serialized per scope.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .._budget_sql import BudgetSql
from .._budgets import (
    BudgetGrant,
    BudgetLimits,
    BudgetRequest,
    BudgetReservation,
    BudgetState,
    CallCounts,
    check_scope,
)
from ._submissions import TxRunner

__all__ = ["PostgresBudgetStore"]

_SQL = BudgetSql(ph="%s", lock=" FOR UPDATE")
_READ = BudgetSql(ph="%s", lock="")
_ANY = "SELECT 1 FROM tether_budgets WHERE scope = ANY(%s) LIMIT 1"
_HOLDS = (
    "SELECT 1 FROM tether_budget_reservations WHERE holder = %s "
    "AND status IN ('reserved', 'waiting') LIMIT 1"
)


class PostgresBudgetStore:
    """A `BudgetStore` in a Postgres namespace, shared by any number of processes.

    Args:
        run: The transaction runner of the backend (the workflow store's).
        query: One read statement on the event loop (the workflow store's `_query`):
            whether a call's scopes have a budget at all, asked before every model call,
            takes no thread and no transaction.
    """

    def __init__(
        self,
        run: TxRunner,
        query: Callable[[str, Any], Awaitable[list[tuple[Any, ...]]]] | None = None,
    ) -> None:
        self._run_tx = run
        self._query_rows = query

    async def _any(self, scopes: tuple[str, ...]) -> bool | None:
        if self._query_rows is None:
            return None
        rows = await self._query_rows(_ANY, (list(scopes),))
        return bool(rows)

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
        # A call no budget applies to takes no lock and writes nothing.
        if not given and await self._any(request.scopes) is False:
            return BudgetGrant(granted=True)

        def reserve(conn: object) -> BudgetGrant:
            if not given and not _READ.any_budget(conn, request.scopes):
                return BudgetGrant(granted=True)
            return _SQL.reserve(conn, request, given)

        return await self._run_tx(reserve)

    async def settle_budget(
        self,
        reservation_id: str,
        *,
        tokens: int,
        cost: float,
        usage: CallCounts | None = None,
    ) -> bool:
        return await self._run_tx(
            lambda conn: _SQL.settle(conn, reservation_id, tokens, cost, usage)
        )

    async def release_budget(self, holder: str) -> int:
        if self._query_rows is not None and not await self._query_rows(_HOLDS, (holder,)):
            return 0  # most turns end holding nothing: a read decides it
        return await self._run_tx(lambda conn: _SQL.release(conn, holder))

    async def budget_waiters(self, scope: str) -> list[BudgetReservation]:
        return await self._run_tx(lambda conn: _READ.waiters(conn, scope))

    async def settled_calls(self, session_id: str) -> list[BudgetReservation]:
        return await self._run_tx(lambda conn: _READ.settled_calls(conn, session_id))
