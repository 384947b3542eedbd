"""Budgets in a SQLite file (see `tether.stores._budgets`).

Every change is one write on the file's writer (one transaction under the file's
write lock), so reserves from many processes on one file are serialized.
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
    CallCounts,
    check_scope,
)
from ._db import SqliteDatabase

__all__ = ["SqliteBudgetStore"]

_SQL = BudgetSql(ph="?", lock="")


class SqliteBudgetStore:
    """A `BudgetStore` in a SQLite file, safe for many processes on one file.

    Args:
        db: A started `SqliteDatabase` whose schema is migrated.
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def put_budget(self, scope: str, limits: BudgetLimits) -> BudgetState:
        check_scope(scope)
        return await self._db.write(lambda conn: _SQL.put(conn, scope, limits))

    async def get_budget(self, scope: str) -> BudgetState | None:
        check_scope(scope)
        found = await self._db.read(lambda conn: _SQL.states(conn, [scope]))
        return found.get(scope)

    async def reserve_budget(
        self, request: BudgetRequest, *, defaults: Mapping[str, BudgetLimits] | None = None
    ) -> BudgetGrant:
        for scope in request.scopes:
            check_scope(scope)
        given = dict(defaults or {})
        # A call no budget applies to writes nothing (a read decides it).
        if not given and not await self._db.read(lambda c: _SQL.any_budget(c, request.scopes)):
            return BudgetGrant(granted=True)
        return await self._db.write(lambda conn: _SQL.reserve(conn, request, given))

    async def settle_budget(
        self,
        reservation_id: str,
        *,
        tokens: int,
        cost: float,
        usage: CallCounts | None = None,
    ) -> bool:
        return await self._db.write(
            lambda conn: _SQL.settle(conn, reservation_id, tokens, cost, usage)
        )

    async def release_budget(self, holder: str) -> int:
        # A holder that holds nothing (most turns' end) writes nothing (a read decides it).
        if not await self._db.read(lambda conn: _SQL.holds(conn, holder)):
            return 0
        return await self._db.write(lambda conn: _SQL.release(conn, holder))

    async def budget_waiters(self, scope: str) -> list[BudgetReservation]:
        return await self._db.read(lambda conn: _SQL.waiters(conn, scope))

    async def settled_calls(self, session_id: str) -> list[BudgetReservation]:
        return await self._db.read(lambda conn: _SQL.settled_calls(conn, session_id))
