"""Listings on a store of many sessions: a page's cost, and whether it grows with the store.

    python bench/listings.py [--pg URL | --no-pg] [--no-sqlite] [--sizes 1000,10000]
                             [--samples 20] [--keep DIR]

For each backend (SQLite, then Postgres) and each size, a store holds that many agent
sessions, made through the public API: each session is opened (owner ``acme`` for the
first 50, else one of 100 tenants ``t<n % 100>``), sent one message and followed to its
``turn.completed``, with an instant scripted model (`tether.testing.ScriptedModel`) that
makes one tool call per turn; one in ten is then closed, one in a hundred is parked on
an approval. Then, with no worker running, it times (medians of ``--samples``) a page
of 20:

- ``list_sessions(owner)``: a tenant's first page (what ``GET /v1/sessions`` serves);
  ``acme`` stays at 50 sessions, ``t42`` grows with the store;
- ``list_sessions()``: every session's first page, and a page from the middle of the
  store (its cursor found by paging there first): a deep page;
- ``Client.page_runs(labels={"tether.owner": ...})``: the runs under the same label, the
  floor a session listing is compared with (the ratio column);
- ``Client.hooks(run)``: a session's open hook (what a send to an idle session reads).

Beside each time, the round trips one call makes (Postgres, counted with
`tether.testing.PostgresRoundTrips`) or the queries it runs (SQLite: the SELECT
statements sqlite3's trace callback sees). The stores are made fresh (a temporary SQLite file, a new
Postgres database on the server of ``--pg``) and dropped at the end; with ``--keep
DIR`` they are kept in DIR (and reused by the next run with the same DIR, grown from
the largest smaller one when a size is missing), so that two versions of tether can be
measured on the same stores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import secrets
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, Agents, approval, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.durable import Client
from tether.testing import PostgresRoundTrips, Reply, ScriptedModel, tool_call

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
PAGE = 20
FIXED_TENANT = "acme"
GROWING_TENANT = "t42"


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
    n = len(request.messages)
    text = last.text if isinstance(last, UserMessage) else ""
    name = "guarded" if text.startswith("approve") else "noop"
    return Reply(tool_calls=(tool_call(name, {"i": n}, call_id=f"c{n}"),))


AGENTS = Agents(
    [
        Agent(
            name="ops",
            model=ScriptedModel(_answer, name="instant"),
            instructions="You list well.",
            tools=[noop, guarded],
        )
    ],
    deployment="bench",
)


def owner_of(n: int) -> str:
    return FIXED_TENANT if n < 50 else f"t{n % 100}"


def session_id(n: int) -> str:
    return f"s{n:07d}"


# -- counting ------------------------------------------------------------------------------


class SqliteStatements:
    """Counts the statements SQLite connections run (those opened after `install`)."""

    def __init__(self) -> None:
        self.statements: list[str] = []
        self.active = False

    def install(self) -> None:
        connect = sqlite3.connect

        def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            conn = connect(*args, **kwargs)
            conn.set_trace_callback(self._seen)
            return conn

        sqlite3.connect = traced  # type: ignore[assignment]

    def _seen(self, statement: str) -> None:
        if self.active:
            self.statements.append(statement)

    @contextmanager
    def counting(self) -> Iterator[list[str]]:
        self.statements = []
        self.active = True
        try:
            yield self.statements
        finally:
            self.active = False


SQLITE_STATEMENTS = SqliteStatements()


async def count_trips(kind: str, fn: Callable[[], Awaitable[Any]]) -> int:
    """Round trips (Postgres) or queries (SQLite: SELECT statements) of one call of `fn`."""
    if kind == "postgres":
        trips = PostgresRoundTrips()
        with trips.counting():
            await fn()
        return trips.count
    with SQLITE_STATEMENTS.counting() as seen:
        await fn()
    # Each read is BEGIN, its SELECT, COMMIT (and now and then a PRAGMA checking whether
    # another connection wrote): the SELECTs are the queries.
    return sum(1 for s in seen if s.lstrip().upper().startswith("SELECT"))


# -- populating ----------------------------------------------------------------------------


async def one_session(host: AgentHost, n: int) -> bool:
    """Open session `n` and send it its message; False if its turn did not end in time."""
    parked, closed = n % 100 == 7, n % 10 == 3
    session = await host.open_session("ops", session_id=session_id(n), owner=owner_of(n))
    waiter = asyncio.ensure_future(
        session.wait_for("input.requested" if parked else "turn.completed", timeout=120)
    )
    await asyncio.sleep(0)
    await session.send("approve it" if parked else f"hello {n}", client_message_id=f"m{n}")
    try:
        await waiter
    except TimeoutError:
        return False
    if closed:
        await session.close()
    return True


async def populate(url: str, start: int, end: int, senders: int, concurrency: int) -> None:
    """Sessions `start` .. `end` - 1, `senders` at a time, served by an in-process worker."""
    todo = iter(range(start, end))
    done = 0
    late: list[str] = []
    began = time.perf_counter()
    async with tether.open_backend(url) as backend:
        host = AgentHost(backend, AGENTS)
        async with host.worker(concurrency=concurrency):

            async def sender() -> None:
                nonlocal done
                for n in todo:
                    if not await one_session(host, n):
                        late.append(session_id(n))
                    done += 1
                    if done % 1000 == 0:
                        rate = done / (time.perf_counter() - began)
                        print(f"    {start + done} sessions ({rate:.0f}/s)", file=sys.stderr)

            await asyncio.gather(*(sender() for _ in range(senders)))
    if late:
        # Listed like any other session; their state is whatever the store says.
        print(f"    turns not seen ending within 120 s: {late}", file=sys.stderr)


# -- measuring -----------------------------------------------------------------------------


async def timed(samples: int, fn: Callable[[], Awaitable[Any]]) -> float:
    """Median milliseconds of `fn` (after one untimed call)."""
    await fn()
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


async def middle_cursor(host: AgentHost, size: int) -> str | None:
    """The cursor of the page of `list_sessions()` halfway through the store."""
    cursor: str | None = None
    seen = 0
    while seen < size // 2:
        page = await host.list_sessions(limit=min(500, size // 2 - seen), cursor=cursor)
        seen += len(page.items)
        cursor = page.next_cursor
        if cursor is None:
            break
    return cursor


async def measure(kind: str, url: str, size: int, samples: int) -> dict[str, Any]:
    async with tether.open_backend(url) as backend:
        host = AgentHost(backend, AGENTS)
        client = Client(backend)
        run_of_idle = (await host.get_session(session_id(size - 2))).run_id
        deep = await middle_cursor(host, size)
        calls: dict[str, Callable[[], Awaitable[Any]]] = {
            f"list_sessions(owner={FIXED_TENANT!r})": lambda: host.list_sessions(
                owner=FIXED_TENANT, limit=PAGE
            ),
            f"list_sessions(owner={GROWING_TENANT!r})": lambda: host.list_sessions(
                owner=GROWING_TENANT, limit=PAGE
            ),
            "list_sessions()": lambda: host.list_sessions(limit=PAGE),
            "list_sessions(), middle page": lambda: host.list_sessions(limit=PAGE, cursor=deep),
            f"page_runs(owner={GROWING_TENANT!r})": lambda: client.page_runs(
                labels={"tether.owner": GROWING_TENANT}, limit=PAGE
            ),
            "hooks(session run)": lambda: client.hooks(run_of_idle),
        }
        out: dict[str, Any] = {}
        for name, fn in calls.items():
            items = await fn()
            count = len(getattr(items, "items", items))
            out[name] = {
                "ms": await timed(samples, fn),
                "trips": await count_trips(kind, fn),
                "items": count,
            }
        return out


# -- stores --------------------------------------------------------------------------------


class Stores:
    """Where each (backend, size) store lives; kept across runs in `--keep` DIR."""

    def __init__(self, folder: Path, pg: str, keep: bool) -> None:
        self.folder = folder
        self.pg = pg
        self.keep = keep
        self.index_path = folder / "stores.json"
        self.index: dict[str, str] = (
            json.loads(self.index_path.read_text()) if self.index_path.exists() else {}
        )
        self.made: list[str] = []

    def _save(self) -> None:
        self.index_path.write_text(json.dumps(self.index, indent=1))

    def url(self, kind: str, name: str) -> str:
        if kind == "sqlite":
            return f"sqlite:///{self.folder / name}.db"
        return re.sub(r"/[^/]*$", "/" + name, self.pg)

    def _create_pg(self, name: str, template: str | None) -> None:
        with psycopg.connect(self.pg, autocommit=True) as admin:
            query = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
            if template is not None:
                query = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(name), sql.Identifier(template)
                )
            admin.execute(query)

    def drop_made(self) -> None:
        if self.keep:
            return
        for name in self.made:
            with psycopg.connect(self.pg, autocommit=True) as admin:
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )

    async def store(self, kind: str, size: int, senders: int, concurrency: int) -> str:
        """The URL of a store of `size` sessions (made, or grown from a smaller one)."""
        key = f"{kind}:{size}"
        if key in self.index:
            return self.url(kind, self.index[key])
        smaller = sorted(
            (int(k.split(":")[1]), v)
            for k, v in self.index.items()
            if k.startswith(kind + ":") and int(k.split(":")[1]) < size
        )
        start, template = smaller[-1] if smaller else (0, None)
        name = f"bench_listings_{secrets.token_hex(3)}_{size}"
        if kind == "sqlite":
            if template is not None:
                source = sqlite3.connect(self.folder / f"{template}.db")
                with sqlite3.connect(self.folder / f"{name}.db") as target:
                    source.backup(target)
                source.close()
        else:
            self._create_pg(name, template)
            self.made.append(name)
        url = self.url(kind, name)
        print(f"  populating {kind} {start} -> {size} sessions", file=sys.stderr)
        t0 = time.perf_counter()
        await populate(url, start, size, senders, concurrency)
        print(f"  populated in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        self.index[key] = name
        self._save()
        return url


def render(results: dict[str, dict[int, dict[str, Any]]]) -> str:
    lines = []
    for kind, by_size in results.items():
        unit = "round trips" if kind == "postgres" else "queries"
        sizes = sorted(by_size)
        lines.append(f"\n{kind}: median ms of one call / {unit} of one call, per store size")
        lines.append(
            f"{'call (page of 20)':<34}"
            + "".join(f"{f'{s} sessions':>22}" for s in sizes)
            + f"{'ratio to page_runs':>22}"
        )
        names = list(by_size[sizes[0]])
        floor = f"page_runs(owner={GROWING_TENANT!r})"
        for name in names:
            cells = "".join(
                f"{by_size[s][name]['ms']:>12.2f} / {by_size[s][name]['trips']:<7}" for s in sizes
            )
            ratios = " ".join(
                f"{by_size[s][name]['ms'] / by_size[s][floor]['ms']:.1f}x" for s in sizes
            )
            lines.append(f"{name:<34}{cells}{ratios:>22}")
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> dict[str, dict[int, dict[str, Any]]]:
    kinds = [k for k, off in (("sqlite", args.no_sqlite), ("postgres", args.no_pg)) if not off]
    temp = None if args.keep else tempfile.mkdtemp(prefix="tether-listings-")
    folder = Path(args.keep or temp)
    folder.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 - before any store opens
    stores = Stores(folder, args.pg, keep=bool(args.keep))
    SQLITE_STATEMENTS.install()
    results: dict[str, dict[int, dict[str, Any]]] = {}
    try:
        for kind in kinds:
            for size in args.sizes:
                print(f"{kind}, {size} sessions", file=sys.stderr)
                url = await stores.store(kind, size, args.senders, args.concurrency)
                figures = await measure(kind, url, size, args.samples)
                results.setdefault(kind, {})[size] = figures
                print(f"  {json.dumps(figures)}", file=sys.stderr)
    finally:
        stores.drop_made()
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG, help="a Postgres server (a database URL)")
    parser.add_argument("--no-pg", action="store_true")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument(
        "--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[1000, 10000]
    )
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--senders", type=int, default=32)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--keep", metavar="DIR", help="keep (and reuse) the stores in DIR")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    results = asyncio.run(run(args))
    print(render(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
