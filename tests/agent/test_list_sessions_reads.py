"""`AgentHost.list_sessions` reads a page in a fixed number of statements, whatever its size.

A page is one query for the page of session chains (each with its current run and its
input), one for the live workers (at the same time) and one for the page's unsettled
messages. The counts are taken on real stores: the distinct SELECT statements sqlite3's
trace callback sees on every connection the SQLite backend opens (the values are in
the text it gives, so a read per session would show as one statement per session),
and the round trips of the Postgres store connections
(`tether.testing.PostgresRoundTrips`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.agent import Agent, AgentHost, Agents, SessionInfo, approval, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.errors import InvalidInputError
from tether.stores import Backend
from tether.testing import PostgresRoundTrips, Reply, ScriptedModel, tool_call

#: Queries (SQLite: SELECT statements) or round trips (Postgres) a page may take at most.
MOST_READS = {"sqlite": 3, "postgres": 3}


@tool
def noop(i: int) -> int:
    """Return i."""
    return i


@tool(approval=approval.always())
def guarded(i: int) -> int:
    """Return i, once a human approved."""
    return i


def _answer(request: ModelRequest) -> Reply | str:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return "done"
    text = last.text if isinstance(last, UserMessage) else ""
    name = "guarded" if text.startswith("approve") else "noop"
    return Reply(tool_calls=(tool_call(name, {"i": 1}, call_id="c1"),))


AGENTS = Agents(
    [Agent(name="ops", model=ScriptedModel(_answer), instructions="x", tools=[noop, guarded])]
)


class Counted:
    """A backend and a way to count what one call reads from it."""

    def __init__(self, kind: str, backend: Backend, statements: list[str] | None) -> None:
        self.kind = kind
        self.backend = backend
        self._statements = statements
        self._active = False

    def seen(self, statement: str) -> None:
        if self._active and self._statements is not None:
            self._statements.append(statement)

    @contextmanager
    def _sqlite(self) -> Iterator[list[str]]:
        assert self._statements is not None
        self._statements.clear()
        self._active = True
        try:
            yield self._statements
        finally:
            self._active = False

    async def reads(self, call: Callable[[], Any]) -> tuple[int, str, Any]:
        """(statements or round trips, what they were, the call's result)."""
        if self.kind == "postgres":
            trips = PostgresRoundTrips()
            with trips.counting():
                result = await call()
            return trips.count, trips.describe(), result
        counting: AbstractContextManager[list[str]] = self._sqlite()
        with counting as seen:
            result = await call()
        # Each read is BEGIN, its SELECT, COMMIT, and now and then a PRAGMA checking
        # whether another connection wrote: the SELECTs are the queries. A read that
        # runs too long on the event loop's thread is interrupted and run again on the
        # reader thread (on a busy machine): the same statement, counted once.
        selects = {s for s in seen if s.lstrip().upper().startswith("SELECT")}
        return len(selects), "\n".join(seen), result


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def counted(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Counted]:
    if request.param == "postgres":
        url = request.getfixturevalue("pg_url")
        namespace = request.getfixturevalue("pg_namespace")
        async with tether.open_backend(url, namespace=namespace, pool_size=4) as backend:
            yield Counted("postgres", backend, None)
        return
    statements: list[str] = []
    holder: list[Counted] = []
    connect = sqlite3.connect

    def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(lambda s: holder[0].seen(s) if holder else None)
        return conn

    # Before the backend opens: every connection it makes is traced.
    monkeypatch.setattr(sqlite3, "connect", traced)
    async with tether.open_backend(f"sqlite:///{tmp_path / 'sessions.db'}") as backend:
        holder.append(Counted("sqlite", backend, statements))
        yield holder[0]


async def _populate(host: AgentHost) -> dict[str, str]:
    """Sessions of owner ``acme`` (and a few of ``zed``) in every state; their statuses."""
    expected: dict[str, str] = {}
    async with host.worker():
        for n in range(16):
            owner = "zed" if n % 5 == 4 else "acme"
            session = await host.open_session("ops", session_id=f"s{n:02d}", owner=owner)
            parked = n in (2, 9)
            waiter = asyncio.ensure_future(
                session.wait_for("input.requested" if parked else "turn.completed")
            )
            await asyncio.sleep(0)
            await session.send("approve" if parked else "hello")
            await waiter
            status = "running" if parked else "idle"  # a parked turn is a turn in progress
            if n in (3, 11):
                await session.close()
                status = "closed"
            if n == 6:
                await session.reset()  # its chain goes on in a new run
            if owner == "acme":
                expected[session.session_id] = status
        # The closes and the reset ran to their end before the worker stops.
        for session_id in ("s03", "s11"):
            await host.session("ops", session_id).wait_for("session.closed")
        await host.session("ops", "s06").wait_for("session.started", after=0)
    return expected


async def test_a_page_of_sessions_takes_the_same_reads_at_any_size(counted: Counted) -> None:
    host = AgentHost(counted.backend, AGENTS)
    expected = await _populate(host)
    newest_first = sorted(expected, reverse=True)
    by_limit: dict[tuple[str | None, int], int] = {}
    for owner in ("acme", None):
        for limit in (1, 4, 13):
            count, what, page = await counted.reads(
                lambda o=owner, n=limit: host.list_sessions(owner=o, limit=n)
            )
            by_limit[(owner, limit)] = count
            assert count <= MOST_READS[counted.kind], what
            if owner == "acme":
                assert [i.session_id for i in page.items] == newest_first[:limit]
                assert {i.session_id: i.status for i in page.items} == {
                    s: expected[s] for s in newest_first[:limit]
                }
    counts = set(by_limit.values())
    assert len(counts) == 1, by_limit  # neither the page size nor the filter changes them
    # Every page of a walk costs the same too, and the walk lists each session once.
    seen: list[SessionInfo] = []
    cursor: str | None = None
    while True:
        count, what, page = await counted.reads(
            lambda c=cursor: host.list_sessions(owner="acme", limit=3, cursor=c)
        )
        assert count in counts, what
        seen += page.items
        cursor = page.next_cursor
        if cursor is None:
            break
    assert [i.session_id for i in seen] == newest_first
    assert all(i.owner == "acme" and i.agent_name == "ops" for i in seen)


async def test_sessions_opened_between_pages_do_not_shift_later_pages(
    counted: Counted,
) -> None:
    host = AgentHost(counted.backend, AGENTS)
    for n in range(7):
        await host.open_session("ops", session_id=f"a{n}", owner="acme")
    first = await host.list_sessions(owner="acme", limit=3)
    assert [i.session_id for i in first.items] == ["a6", "a5", "a4"]
    for n in range(7, 12):
        await host.open_session("ops", session_id=f"a{n}", owner="acme")
    second = await host.list_sessions(owner="acme", limit=3, cursor=first.next_cursor)
    assert [i.session_id for i in second.items] == ["a3", "a2", "a1"]
    rest = await host.list_sessions(owner="acme", limit=3, cursor=second.next_cursor)
    assert [i.session_id for i in rest.items] == ["a0"] and rest.next_cursor is None
    # A row count (the cursor of earlier releases) still pages, from that many sessions.
    old = await host.list_sessions(owner="acme", limit=2, cursor="10")
    assert [i.session_id for i in old.items] == ["a1", "a0"] and old.next_cursor is None
    with pytest.raises(InvalidInputError, match="cursor"):
        await host.list_sessions(owner="acme", cursor="page-2")
