"""Usage across sessions: tokens and cost per tenant, agent and model over a time window.

`AgentHost.usage` lists the sessions the filters name (by their runs' labels, as
`AgentHost.list_sessions` does), reads each one's calls on record (its events and its
budgets' settled calls, `recorded_calls`), and sums the usage of those recorded in the
window. A call carries the time it was recorded (its event's `EventMeta.at`, or its
settle's), so it counts in the window its reply was recorded in, whatever window its
session was opened in. Within a session each attempt's call counts once, as in
`Session.usage` (a reply adopted by a later attempt is the same call; a call made again
because an attempt's reply never committed is another, counted and marked retried).

The sums are read, not kept: a report reads the events of every session it covers.
Narrow it by tenant or agent on a deployment of many sessions.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import ContentDeletedError, InvalidInputError
from ...stores import Page
from ._event_data import TokenCounts
from ._state import SessionInfo
from ._usage import Price, RecordedCall, counts_json

#: A page of the sessions to cover, from a cursor (`AgentHost.list_sessions`).
ListPage = Callable[[str | None], Awaitable[Page[SessionInfo]]]
#: A session's calls on record (`recorded_calls`; raising `ContentDeletedError` when its
#: events are gone).
ReadCalls = Callable[[SessionInfo], Awaitable[list[RecordedCall]]]

__all__ = [
    "PAGE",
    "ListPage",
    "ReadCalls",
    "UsageReport",
    "UsageRow",
    "check_window",
    "usage_report",
]

#: Sessions read at once (each a read of its event stream).
_READS_AT_ONCE = 8
#: Sessions listed per page.
PAGE = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class UsageRow:
    """What one tenant's sessions of one agent used of one model in the window.

    Attributes:
        tenant: The sessions' owner (None: sessions opened without one).
        agent: The agent.
        model: The model, as its provider named it.
        counts: The calls and their tokens.
        cost: Their cost at the prices given; None without a price for the model.
        retried: Of `counts`, the calls whose reply never committed and that a later
            attempt made again (see `SessionUsage.retried`).
    """

    tenant: str | None
    agent: str
    model: str
    counts: TokenCounts
    cost: float | None
    retried: TokenCounts = field(default_factory=TokenCounts)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form)."""
        return {
            "tenant": self.tenant,
            "agent": self.agent,
            "model": self.model,
            **counts_json(self.counts),
            "cost": self.cost,
            "retried": counts_json(self.retried),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class UsageReport:
    """Token usage and cost summed across sessions, per tenant, agent and model.

    Attributes:
        since: The window's start (Unix seconds, included); None: from the first call.
        until: The window's end (Unix seconds, excluded); None: up to now.
        sessions: Sessions with at least one call in the window.
        rows: One per (tenant, agent, model) used, ordered by tenant, agent, model.
        total: Summed over every row.
        cost: The total cost of the priced rows; None without prices.
        unpriced: Models used that have no price (their rows are not in `cost`).
        unreadable: Sessions whose events are gone (ended under retention ``0``, or
            erased): what they used is not counted.
        retried: Of `total`, the retried calls (see `UsageRow.retried`).
    """

    since: float | None
    until: float | None
    sessions: int
    rows: tuple[UsageRow, ...]
    total: TokenCounts
    cost: float | None
    unpriced: tuple[str, ...] = ()
    unreadable: int = 0
    retried: TokenCounts = field(default_factory=TokenCounts)

    def by_tenant(self) -> dict[str | None, TokenCounts]:
        """The counts summed per tenant."""
        return _group(self.rows, lambda row: row.tenant)

    def by_agent(self) -> dict[str, TokenCounts]:
        """The counts summed per agent."""
        return _group(self.rows, lambda row: row.agent)

    def by_model(self) -> dict[str, TokenCounts]:
        """The counts summed per model."""
        return _group(self.rows, lambda row: row.model)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the server's wire form): rows, and their sums per dimension."""
        priced = self.cost is not None

        def sums(name: str, pick: Any) -> list[dict[str, Any]]:
            keys = list(dict.fromkeys(pick(row) for row in self.rows))
            out = []
            for key in keys:
                rows = [row for row in self.rows if pick(row) == key]
                counts = _sum(row.counts for row in rows)
                cost = sum(row.cost or 0.0 for row in rows) if priced else None
                retried = counts_json(_sum(row.retried for row in rows))
                out.append({name: key, **counts_json(counts), "cost": cost, "retried": retried})
            return out

        return {
            "since": self.since,
            "until": self.until,
            "sessions": self.sessions,
            "total": counts_json(self.total),
            "cost": self.cost,
            "unpriced": list(self.unpriced),
            "unreadable": self.unreadable,
            "retried": counts_json(self.retried),
            "rows": [row.to_json() for row in self.rows],
            "by_tenant": sums("tenant", lambda row: row.tenant),
            "by_agent": sums("agent", lambda row: row.agent),
            "by_model": sums("model", lambda row: row.model),
        }


def _sum(counts: Any) -> TokenCounts:
    total = TokenCounts()
    for c in counts:
        total = TokenCounts(
            calls=total.calls + c.calls,
            input_tokens=total.input_tokens + c.input_tokens,
            output_tokens=total.output_tokens + c.output_tokens,
            cached_tokens=total.cached_tokens + c.cached_tokens,
        )
    return total


def _group(rows: tuple[UsageRow, ...], pick: Any) -> dict[Any, TokenCounts]:
    out: dict[Any, TokenCounts] = {}
    for row in rows:
        out[pick(row)] = _sum([out.get(pick(row), TokenCounts()), row.counts])
    return out


def _check_time(value: object, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(
            name, value, "it is not a time", hint="give Unix seconds (time.time()) or None"
        )
    return float(value)


async def _session_calls(
    read_calls: ReadCalls, info: SessionInfo, since: float | None, until: float | None
) -> list[RecordedCall] | None:
    """The calls of one session in the window, each once; None: its events are gone."""
    try:
        calls = await read_calls(info)
    except ContentDeletedError:
        return None
    return [
        call
        for call in calls
        if (since is None or call.at >= since) and (until is None or call.at < until)
    ]


def check_window(since: object, until: object) -> tuple[float | None, float | None]:
    """``(since, until)`` as floats, checked (a window that ends before it starts is empty).

    Raises:
        InvalidInputError: `since` or `until` is not a time.
    """
    return _check_time(since, "since"), _check_time(until, "until")


async def usage_report(
    list_page: ListPage,
    read_calls: ReadCalls,
    *,
    since: float | None,
    until: float | None,
    prices: Mapping[str, Price],
) -> UsageReport:
    """Sum the usage of the sessions `list_page` lists over ``[since, until)`` (checked)."""
    start, end = since, until
    table = prices
    sums: dict[tuple[str | None, str, str], TokenCounts] = {}
    retried: dict[tuple[str | None, str, str], TokenCounts] = {}
    sessions = unreadable = 0
    gate = asyncio.Semaphore(_READS_AT_ONCE)

    async def read(info: SessionInfo) -> list[RecordedCall] | None:
        async with gate:
            return await _session_calls(read_calls, info, start, end)

    cursor: str | None = None
    while True:
        page = await list_page(cursor)
        found = await asyncio.gather(*(read(info) for info in page.items))
        for info, calls in zip(page.items, found, strict=True):
            if calls is None:
                unreadable += 1
                continue
            if calls:
                sessions += 1
            for call in calls:
                key = (info.owner, info.agent_name, call.usage.model)
                sums[key] = sums.get(key, TokenCounts()).plus(call.usage)
                if call.retried:
                    retried[key] = retried.get(key, TokenCounts()).plus(call.usage)
        cursor = page.next_cursor
        if cursor is None:
            break
    rows: list[UsageRow] = []
    for tenant, agent_name, model in sorted(sums, key=lambda k: (k[0] or "", k[1], k[2])):
        counts = sums[(tenant, agent_name, model)]
        price = table.get(model) if table else None
        cost = None if price is None else price.cost(counts)
        rows.append(
            UsageRow(
                tenant=tenant,
                agent=agent_name,
                model=model,
                counts=counts,
                cost=cost,
                retried=retried.get((tenant, agent_name, model), TokenCounts()),
            )
        )
    unpriced = sorted({row.model for row in rows if row.cost is None}) if table else []
    return UsageReport(
        since=start,
        until=end,
        sessions=sessions,
        rows=tuple(rows),
        total=_sum(row.counts for row in rows),
        cost=sum(row.cost or 0.0 for row in rows) if table else None,
        unpriced=tuple(unpriced),
        unreadable=unreadable,
        retried=_sum(row.retried for row in rows),
    )
