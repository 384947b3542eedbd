"""The SQL of budgets: one text for SQLite and Postgres.

The two differ in placeholders and in row locks only.

Each function runs inside the caller's transaction, on a DB-API connection whose
``execute`` returns a cursor. A scope's row is created before it is read (``INSERT
... ON CONFLICT DO NOTHING``), then read under a row lock on Postgres (``FOR
UPDATE``, in scope order, so two reserves never wait on each other in a circle);
SQLite's writer holds the file's write lock for the whole transaction. The rules of
`_budgets` then decide, and only what changed is written back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._budgets import (
    BudgetGrant,
    BudgetLimits,
    BudgetPlan,
    BudgetRequest,
    BudgetReservation,
    BudgetState,
    plan_release,
    plan_reserve,
    plan_settle,
)

__all__ = ["BudgetSql", "budget_tables", "budget_usage_columns"]

_STATE_COLUMNS = (
    "scope, token_limit, cost_limit, on_exceeded, used_tokens, used_cost, "
    "reserved_tokens, reserved_cost, updated_at"
)
_RESERVATION_COLUMNS = (
    "reservation_id, call_key, holder, agent_name, session_id, scopes, tokens, cost, "
    "status, refused_scope, created_at, usage, settled_at"
)


def budget_tables(real: str, big: str) -> tuple[str, ...]:
    """The DDL of the budget tables, with the dialect's float and 64-bit int types."""
    return (
        f"""CREATE TABLE IF NOT EXISTS tether_budgets (
            scope TEXT PRIMARY KEY,
            token_limit {big},
            cost_limit {real},
            on_exceeded TEXT NOT NULL,
            used_tokens {big} NOT NULL DEFAULT 0,
            used_cost {real} NOT NULL DEFAULT 0,
            reserved_tokens {big} NOT NULL DEFAULT 0,
            reserved_cost {real} NOT NULL DEFAULT 0,
            updated_at {real} NOT NULL
        )""",
        f"""CREATE TABLE IF NOT EXISTS tether_budget_reservations (
            reservation_id TEXT PRIMARY KEY,
            call_key TEXT NOT NULL,
            holder TEXT NOT NULL,
            agent_name TEXT NOT NULL,
            session_id TEXT NOT NULL,
            scopes TEXT NOT NULL,
            tokens {big} NOT NULL,
            cost {real} NOT NULL,
            status TEXT NOT NULL,
            refused_scope TEXT,
            created_at {real} NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS tether_budget_reservations_by_holder "
        "ON tether_budget_reservations (holder, status)",
        "CREATE INDEX IF NOT EXISTS tether_budget_reservations_waiting "
        "ON tether_budget_reservations (refused_scope, created_at) WHERE status = 'waiting'",
    )


def budget_usage_columns(real: str, *, postgres: bool) -> tuple[str, ...]:
    """The DDL that keeps a settled call's usage on its reservation, and finds a session's.

    SQLite's ``ADD COLUMN`` has no ``IF NOT EXISTS``: its migrations run in one
    transaction with the version they record, so a statement never runs twice.
    """
    guard = "IF NOT EXISTS " if postgres else ""
    return (
        f"ALTER TABLE tether_budget_reservations ADD COLUMN {guard}usage TEXT",
        f"ALTER TABLE tether_budget_reservations ADD COLUMN {guard}settled_at {real}",
        "CREATE INDEX IF NOT EXISTS tether_budget_reservations_settled "
        "ON tether_budget_reservations (session_id, settled_at) WHERE status = 'settled'",
    )


def _state(row: Any) -> BudgetState:
    return BudgetState(
        scope=row[0],
        tokens=None if row[1] is None else int(row[1]),
        cost=None if row[2] is None else float(row[2]),
        on_exceeded=row[3],
        used_tokens=int(row[4]),
        used_cost=float(row[5]),
        reserved_tokens=int(row[6]),
        reserved_cost=float(row[7]),
        updated_at=float(row[8]),
    )


def _reservation(row: Any) -> BudgetReservation:
    return BudgetReservation(
        reservation_id=row[0],
        call=row[1],
        holder=row[2],
        agent_name=row[3],
        session_id=row[4],
        scopes=tuple(json.loads(row[5])),
        tokens=int(row[6]),
        cost=float(row[7]),
        status=row[8],
        refused_scope=row[9],
        created_at=float(row[10]),
        usage=None if row[11] is None else json.loads(row[11]),
        settled_at=None if row[12] is None else float(row[12]),
    )


@dataclass(frozen=True, slots=True)
class BudgetSql:
    """The budget statements in one dialect.

    Attributes:
        ph: The placeholder (``?`` or ``%s``).
        lock: What follows a locking read (``""`` or ``" FOR UPDATE"``).
    """

    ph: str
    lock: str

    def _marks(self, n: int) -> str:
        return ", ".join([self.ph] * n)

    def _ensure(self, conn: Any, defaults: Mapping[str, BudgetLimits], now: float) -> None:
        for scope in sorted(defaults):
            limits = defaults[scope]
            conn.execute(
                f"INSERT INTO tether_budgets ({_STATE_COLUMNS}) VALUES ({self._marks(9)}) "
                "ON CONFLICT (scope) DO NOTHING",
                (scope, limits.tokens, limits.cost, limits.on_exceeded, 0, 0.0, 0, 0.0, now),
            )

    def states(self, conn: Any, scopes: Iterable[str]) -> dict[str, BudgetState]:
        """The stored budgets of `scopes` (locked on Postgres, in scope order)."""
        wanted = sorted(set(scopes))
        if not wanted:
            return {}
        rows = conn.execute(
            f"SELECT {_STATE_COLUMNS} FROM tether_budgets WHERE scope IN "
            f"({self._marks(len(wanted))}) ORDER BY scope{self.lock}",
            tuple(wanted),
        ).fetchall()
        return {r[0]: _state(r) for r in rows}

    def _reservation(self, conn: Any, reservation_id: str) -> BudgetReservation | None:
        row = conn.execute(
            f"SELECT {_RESERVATION_COLUMNS} FROM tether_budget_reservations "
            f"WHERE reservation_id = {self.ph}{self.lock}",
            (reservation_id,),
        ).fetchone()
        return None if row is None else _reservation(row)

    def _held(self, conn: Any, holder: str) -> list[BudgetReservation]:
        rows = conn.execute(
            f"SELECT {_RESERVATION_COLUMNS} FROM tether_budget_reservations "
            f"WHERE holder = {self.ph} AND status IN ('reserved', 'waiting') "
            f"ORDER BY reservation_id{self.lock}",
            (holder,),
        ).fetchall()
        return [_reservation(r) for r in rows]

    def _write(self, conn: Any, plan: BudgetPlan) -> None:
        for s in plan.states:
            conn.execute(
                f"INSERT INTO tether_budgets ({_STATE_COLUMNS}) VALUES ({self._marks(9)}) "
                "ON CONFLICT (scope) DO UPDATE SET token_limit = excluded.token_limit, "
                "cost_limit = excluded.cost_limit, on_exceeded = excluded.on_exceeded, "
                "used_tokens = excluded.used_tokens, used_cost = excluded.used_cost, "
                "reserved_tokens = excluded.reserved_tokens, "
                "reserved_cost = excluded.reserved_cost, updated_at = excluded.updated_at",
                (
                    s.scope,
                    s.tokens,
                    s.cost,
                    s.on_exceeded,
                    s.used_tokens,
                    s.used_cost,
                    s.reserved_tokens,
                    s.reserved_cost,
                    s.updated_at,
                ),
            )
        for r in plan.reservations:
            conn.execute(
                f"INSERT INTO tether_budget_reservations ({_RESERVATION_COLUMNS}) "
                f"VALUES ({self._marks(13)}) ON CONFLICT (reservation_id) DO UPDATE SET "
                "scopes = excluded.scopes, tokens = excluded.tokens, cost = excluded.cost, "
                "status = excluded.status, refused_scope = excluded.refused_scope, "
                "usage = excluded.usage, settled_at = excluded.settled_at",
                (
                    r.reservation_id,
                    r.call,
                    r.holder,
                    r.agent_name,
                    r.session_id,
                    json.dumps(list(r.scopes)),
                    r.tokens,
                    r.cost,
                    r.status,
                    r.refused_scope,
                    r.created_at,
                    None if r.usage is None else json.dumps(r.usage, sort_keys=True),
                    r.settled_at,
                ),
            )

    # -- the operations ---------------------------------------------------------------
    def put(self, conn: Any, scope: str, limits: BudgetLimits) -> BudgetState:
        now = time.time()
        conn.execute(
            f"INSERT INTO tether_budgets ({_STATE_COLUMNS}) VALUES ({self._marks(9)}) "
            "ON CONFLICT (scope) DO UPDATE SET token_limit = excluded.token_limit, "
            "cost_limit = excluded.cost_limit, on_exceeded = excluded.on_exceeded, "
            "updated_at = excluded.updated_at",
            (scope, limits.tokens, limits.cost, limits.on_exceeded, 0, 0.0, 0, 0.0, now),
        )
        return self.states(conn, [scope])[scope]

    def reserve(
        self, conn: Any, request: BudgetRequest, defaults: Mapping[str, BudgetLimits]
    ) -> BudgetGrant:
        now = time.time()
        self._ensure(conn, {s: v for s, v in defaults.items() if s in request.scopes}, now)
        held = self._held(conn, request.holder)
        scopes = set(request.scopes).union(*(r.scopes for r in held))
        states = self.states(conn, scopes)
        plan = plan_reserve(
            request,
            states=states,
            existing=self._reservation(conn, request.reservation_id),
            held=held,
            defaults={},
            now=now,
        )
        self._write(conn, plan)
        assert plan.grant is not None
        return plan.grant

    def settle(
        self,
        conn: Any,
        reservation_id: str,
        tokens: int,
        cost: float,
        usage: Mapping[str, Any] | None = None,
    ) -> bool:
        row = self._reservation(conn, reservation_id)
        states = self.states(conn, row.scopes if row is not None else ())
        plan = plan_settle(
            row, states=states, tokens=tokens, cost=cost, now=time.time(), usage=usage
        )
        self._write(conn, plan)
        return plan.changed

    def release(self, conn: Any, holder: str) -> int:
        held = self._held(conn, holder)
        states = self.states(conn, set().union(*(r.scopes for r in held)))
        plan = plan_release(held, states=states, now=time.time())
        self._write(conn, plan)
        return len(plan.reservations)

    def _listed(self, conn: Any, where: str, value: str, order: str) -> list[BudgetReservation]:
        rows = conn.execute(
            f"SELECT {_RESERVATION_COLUMNS} FROM tether_budget_reservations "
            f"WHERE {where} = {self.ph} ORDER BY {order}, reservation_id",
            (value,),
        ).fetchall()
        return [_reservation(r) for r in rows]

    def waiters(self, conn: Any, scope: str) -> list[BudgetReservation]:
        return self._listed(conn, "status = 'waiting' AND refused_scope", scope, "created_at")

    def settled_calls(self, conn: Any, session_id: str) -> list[BudgetReservation]:
        return self._listed(conn, "status = 'settled' AND session_id", session_id, "settled_at")

    def holds(self, conn: Any, holder: str) -> bool:
        """Whether `holder` reserves or waits for anything (a read, no lock)."""
        row = conn.execute(
            "SELECT 1 FROM tether_budget_reservations WHERE holder = "
            f"{self.ph} AND status IN ('reserved', 'waiting') LIMIT 1",
            (holder,),
        ).fetchone()
        return row is not None

    def any_budget(self, conn: Any, scopes: Iterable[str]) -> bool:
        """Whether any of `scopes` has a budget (a read, no lock)."""
        wanted = sorted(set(scopes))
        if not wanted:
            return False
        row = conn.execute(
            f"SELECT 1 FROM tether_budgets WHERE scope IN ({self._marks(len(wanted))}) LIMIT 1",
            tuple(wanted),
        ).fetchone()
        return row is not None
