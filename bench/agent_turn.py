"""Whole agent turns as a user waits for them: from `send` to `turn.completed`.

    python bench/agent_turn.py [--pg URL | --no-pg] [--turns N] [--langgraph PYTHON]
                               [--rounds R] [--backends memory,sqlite,postgres]

Each turn runs in a fresh session (opened, and idle, before the clock starts), with a
model that answers at once: one tool call, then the final answer (and a variant with
ten tool calls in one reply). The time is taken by the client, from `session.send(...)`
to the `turn.completed` event reaching its follower, in one process (client and worker
share the event loop). Write commits are counted in the same window: on SQLite every
transaction of the file's writer that changed rows; on Postgres every transaction of
the backend that changed rows (one-round-trip commits, commits with writes decided
on the run's copy, and stream writes included).

On Postgres the round trips of a turn are counted too (`tether.testing.PostgresRoundTrips`,
every statement or pipeline sync of the store connections, client and worker), in
three more turns after the timed ones, so the counting's own cost stays out of the
times: on a busy machine each round trip costs more than the CPU around it.

`--langgraph PYTHON` also runs `bench/agent_turn_langgraph.py` with that interpreter (a
venv with langgraph and its SQLite and Postgres checkpointers) in the same run, so the
ratios compare figures measured minutes apart on the same machine; with `--rounds R`
the turns are split into R rounds, tether then LangGraph in each, so a load that comes
and goes on a shared machine weighs on both sides alike. Medians; the machine may be
shared, so compare ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tether
from tether.agent import Agent, AgentHost, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.testing import Reply, ScriptedModel, tool_call

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
#: Seconds idle before each timed turn, on both sides.
GAP = 0.05


@tool
def noop(i: int) -> int:
    """Return i."""
    return i


def script(calls: int) -> Callable[[ModelRequest], Reply | str]:
    def answer(request: ModelRequest) -> Reply | str:
        if isinstance(request.messages[-1], ToolResultMessage):
            return "done"
        n = len(request.messages)
        return Reply(
            tool_calls=tuple(tool_call("noop", {"i": j}, call_id=f"c{n}_{j}") for j in range(calls))
        )

    return answer


class Counter:
    """Counts write transactions (see the module docstring)."""

    def __init__(self) -> None:
        self.on = False
        self.commits = 0

    def add(self, n: int = 1) -> None:
        if self.on:
            self.commits += n


@contextmanager
def counting_sqlite(counter: Counter) -> Iterator[None]:
    from tether.stores.sqlite import _db

    original = _db.SqliteDatabase._run_batch

    def run_batch(self: Any, conn: Any, batch: Any) -> None:
        before = conn.total_changes
        original(self, conn, batch)
        if conn.total_changes != before:
            counter.add()

    _db.SqliteDatabase._run_batch = run_batch  # type: ignore[method-assign]
    try:
        yield
    finally:
        _db.SqliteDatabase._run_batch = original  # type: ignore[method-assign]


@contextmanager
def counting_postgres(counter: Counter) -> Iterator[None]:
    import psycopg

    from tether.stores.postgres import _fast, _workflow

    original_txn = _workflow.PostgresWorkflowStore._in_txn
    # (Absent before tether had it: the bench also runs against older trees.)
    original_fast_txn = getattr(_workflow.PostgresWorkflowStore, "_in_txn_fast", None)
    original_send = _fast.send
    original_stream = _workflow.PostgresWorkflowStore.write_stream
    # (Absent before tether had it: the one-statement wake-up by hook.)
    ring = getattr(_workflow, "_ring", None)
    original_ring = None if ring is None else getattr(ring, "send", None)

    def in_txn(self: Any, fn: Any, writes: Any = (), *rest: Any) -> Any:
        wrote = [False]
        execute = psycopg.Connection.execute

        def watched(conn: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            cursor = execute(conn, query, *args, **kwargs)
            text = str(query).lstrip().upper()
            if not text.startswith(("SELECT", "BEGIN")) and (cursor.rowcount or 0) > 0:
                wrote[0] = True
            return cursor

        psycopg.Connection.execute = watched  # type: ignore[method-assign]
        try:
            result = original_txn(self, fn, writes, *rest)
        finally:
            psycopg.Connection.execute = execute  # type: ignore[method-assign]
        if wrote[0] or writes:
            counter.add()
        return result

    def in_txn_fast(self: Any, *args: Any) -> Any:
        result = original_fast_txn(self, *args)
        counter.add()  # it always writes (the run's row at least)
        return result

    async def send(*args: Any, **kwargs: Any) -> Any:
        counter.add()
        return await original_send(*args, **kwargs)

    async def write_stream(self: Any, *args: Any, **kwargs: Any) -> Any:
        counter.add()
        return await original_stream(self, *args, **kwargs)

    _workflow.PostgresWorkflowStore._in_txn = in_txn  # type: ignore[method-assign]
    if original_fast_txn is not None:
        _workflow.PostgresWorkflowStore._in_txn_fast = in_txn_fast  # type: ignore[method-assign]

    async def ring_send(*args: Any, **kwargs: Any) -> Any:
        assert original_ring is not None
        found = await original_ring(*args, **kwargs)
        if found is not None:  # None: it wrote nothing (the ordinary path is counted)
            counter.add()
        return found

    _fast.send = send
    _workflow.PostgresWorkflowStore.write_stream = write_stream  # type: ignore[method-assign]
    if ring is not None:
        ring.send = ring_send
    try:
        yield
    finally:
        _workflow.PostgresWorkflowStore._in_txn = original_txn  # type: ignore[method-assign]
        if original_fast_txn is not None:
            _workflow.PostgresWorkflowStore._in_txn_fast = original_fast_txn  # type: ignore[method-assign]
        _fast.send = original_send
        _workflow.PostgresWorkflowStore.write_stream = original_stream  # type: ignore[method-assign]
        if ring is not None:
            ring.send = original_ring


def round_trip_counter() -> Any:
    """A `PostgresRoundTrips`, or None on a tree from before it (the bench runs on both)."""
    try:
        from tether.testing import PostgresRoundTrips  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return PostgresRoundTrips()


async def tether_turns(
    backend: Any, calls: int, turns: int, counter: Counter, trips: Any = None
) -> tuple[list[float], list[int], list[int]]:
    agent = Agent(name=f"bench{calls}", model=ScriptedModel(script(calls)), tools=[noop])
    host = AgentHost(backend, [agent], deployment="bench-turn")
    tag = secrets.token_hex(3)
    seconds: list[float] = []
    commits: list[int] = []
    round_trips: list[int] = []
    counted = 3 if trips is not None else 0
    async with host.worker(poll_interval=0.01):
        for i in range(turns + 2 + counted):
            session = await host.open_session(agent.name, session_id=f"{tag}-{calls}-{i}")
            for _ in range(500):
                if (await session.state()).status == "idle":
                    break
                await asyncio.sleep(0.005)
            # The session's run has parked: nothing else writes. (LangGraph's side idles
            # as long before each of its turns: `agent_turn_langgraph.GAP`.)
            await asyncio.sleep(GAP)
            if i >= turns + 2:  # counted, not timed
                trips.reset()
                with trips.counting():
                    await session.send("go")
                    await session.wait_for("turn.completed", timeout=60)
                round_trips.append(trips.count)
                continue
            counter.on, counter.commits = True, 0
            start = time.perf_counter()
            await session.send("go")
            await session.wait_for("turn.completed", timeout=60)
            elapsed = time.perf_counter() - start
            counter.on = False
            if i >= 2:  # two warm-up turns: imports, statements, caches
                seconds.append(elapsed)
                commits.append(counter.commits)
    return seconds, commits, round_trips


Samples = dict[int, tuple[list[float], list[int], list[int]]]


def summary(seconds: list[float], commits: list[int], trips: list[int]) -> dict[str, float]:
    return {
        "ms": statistics.median(seconds) * 1000,
        "commits": statistics.median(commits),
        "max_commits": max(commits),
        "trips": statistics.median(trips) if trips else float("nan"),
    }


async def on_memory(turns: int) -> Samples:
    counter = Counter()
    async with tether.open_backend("memory://") as backend:
        return {c: await tether_turns(backend, c, turns, counter) for c in (1, 10)}


async def on_sqlite(turns: int) -> Samples:
    counter = Counter()
    work = Path(tempfile.mkdtemp(prefix="tether-bench-turn-"))
    with counting_sqlite(counter):
        async with tether.open_backend(f"sqlite:///{work / 'agent.db'}") as backend:
            return {c: await tether_turns(backend, c, turns, counter) for c in (1, 10)}


async def on_postgres(url: str, turns: int) -> Samples:
    import psycopg
    from psycopg import sql

    counter = Counter()
    namespace = f"bench_turn_{secrets.token_hex(4)}"
    try:
        with counting_postgres(counter):
            async with tether.open_backend(url, namespace=namespace, pool_size=8) as backend:
                trips = round_trip_counter()
                return {c: await tether_turns(backend, c, turns, counter, trips) for c in (1, 10)}
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace))
            )


def langgraph(python: str, pg: str | None, turns: int) -> dict[str, Any]:
    here = Path(__file__).with_name("agent_turn_langgraph.py")
    args = [python, str(here), "--turns", str(turns), "--gap", str(GAP)]
    if pg:
        args += ["--pg", pg]
    out = subprocess.run(args, capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(f"the LangGraph side failed:\n{out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG, help=f"Postgres URL (default {DEFAULT_PG})")
    parser.add_argument("--no-pg", action="store_true", help="SQLite and memory only")
    parser.add_argument("--turns", type=int, default=30, help="measured turns per shape")
    parser.add_argument("--langgraph", metavar="PYTHON", help="a python with langgraph installed")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="split the turns into rounds, tether then LangGraph in each, so a load that "
        "comes and goes on a shared machine weighs on both sides alike",
    )
    parser.add_argument(
        "--backends",
        default="memory,sqlite,postgres",
        help="which of memory, sqlite, postgres to run (comma-separated)",
    )
    args = parser.parse_args()
    chosen = set(args.backends.split(","))
    pg = None if args.no_pg or "postgres" not in chosen else args.pg
    per_round = max(1, args.turns // max(1, args.rounds))
    ours: dict[str, dict[int, tuple[list[float], list[int], list[int]]]] = {}
    theirs: dict[str, dict[str, dict[str, list[Any]]]] = {}
    for _ in range(max(1, args.rounds)):
        measured = {}
        if "memory" in chosen:
            measured["memory"] = asyncio.run(on_memory(per_round))
        if "sqlite" in chosen:
            measured["sqlite"] = asyncio.run(on_sqlite(per_round))
        if pg:
            measured["postgres"] = asyncio.run(on_postgres(pg, per_round))
        for backend, shapes in measured.items():
            for calls, (seconds, commits, trips) in shapes.items():
                kept = ours.setdefault(backend, {}).setdefault(calls, ([], [], []))
                kept[0].extend(seconds)
                kept[1].extend(commits)
                kept[2].extend(trips)
        if args.langgraph:
            for backend, shapes in langgraph(args.langgraph, pg, per_round).items():
                for calls, figures in shapes.items():
                    kept_lg = theirs.setdefault(backend, {}).setdefault(
                        calls, {"samples": [], "commit_samples": []}
                    )
                    kept_lg["samples"].extend(figures["samples"])
                    kept_lg["commit_samples"].extend(figures.get("commit_samples", []))
    rows = {b: {c: summary(*v) for c, v in shapes.items()} for b, shapes in ours.items()}
    other: dict[str, dict[str, dict[str, Any]]] = {
        b: {
            c: {
                "ms": statistics.median(v["samples"]),
                **(
                    {"commits": statistics.median(v["commit_samples"])}
                    if v["commit_samples"]
                    else {}
                ),
            }
            for c, v in shapes.items()
        }
        for b, shapes in theirs.items()
    }
    turns = per_round * max(1, args.rounds)
    print("Whole turns, send -> turn.completed, fresh session per turn, instant model")
    print(
        f"(medians of {turns} turns in {max(1, args.rounds)} round(s), tether then LangGraph "
        "in each; one run; the machine may be shared)\n"
    )
    print(f"{'backend':<10}{'shape':<14}{'tether ms':>10}{'commits':>9}{'(max)':>7}"
          f"{'trips':>7}{'LangGraph ms':>14}{'LG commits':>11}{'tether/LG':>11}")  # fmt: skip
    for backend, shapes in rows.items():
        for calls, figures in shapes.items():
            lg = other.get(backend, {}).get(str(calls), {})
            lg_ms = lg.get("ms")
            ratio = f"{figures['ms'] / lg_ms:10.2f}x" if lg_ms else f"{'-':>11}"
            counted = figures["trips"]
            trips = "-" if counted != counted else f"{counted:.0f}"  # NaN: not counted
            print(
                f"{backend:<10}{f'{calls} tool call(s)':<14}{figures['ms']:>10.2f}"
                f"{figures['commits']:>9.0f}{figures['max_commits']:>7.0f}"
                f"{trips:>7}"
                f"{(f'{lg_ms:.2f}' if lg_ms else '-'):>14}"
                f"{lg.get('commits', '-')!s:>11}{ratio}"
            )
    print(
        "\nTargets: a 1-tool turn in <= 8 write commits, ten calls in one reply <= 10, "
        "and <= 0.5x LangGraph's time on SQLite and Postgres."
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
