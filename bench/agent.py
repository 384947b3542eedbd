"""Agent layer: framework overhead per turn step, next to the raw commit cost.

    python bench/agent.py [--pg URL | --no-pg] [--turns N] [--steps N]

A *turn step* is one model call plus the tool calls it asked for, committed together as
one durable step (the default ``model_calls_per_step=1``). The model is a
`ScriptedModel` that answers at once and the tool returns its argument, so what is
measured is tether: the transcript appends, the events, the step's journal commit and
the workflow's way to the next step.

Each measured turn runs in a fresh session, in-process (client and worker share the
event loop), and is timed from its ``turn.started`` event to its ``turn.completed``
event (both stamped by the worker). Three turn shapes:

- *empty*: the model answers with text at once (one step, no tools): the fixed cost of
  a turn (begin, final step, end, settlement), subtracted from the others;
- *S x 1*: S steps of 1 tool call each, then the final answer;
- *S x 10*: S steps of 10 tool calls each, then the final answer.

Per step = (median turn - median empty turn) / S. Per tool call: the 10-call step's cost
divided by 10, and the marginal cost of one more tool call in a step, (step x 10 - step x
1) / 9. The raw commit measured in the same run is one durable SQLite INSERT+COMMIT
(WAL, synchronous=FULL) and one Postgres INSERT+COMMIT round trip; the ratios divide by it.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import Backend
from tether.stores.postgres import PostgresBackend
from tether.testing import Reply, ScriptedModel, tool_call

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"


@tool
def noop(i: int) -> int:
    """Return i."""
    return i


def script(steps: int, calls: int) -> Callable[[ModelRequest], Reply]:
    """Answer `steps` times with `calls` tool calls, then with text."""

    def answer(request: ModelRequest) -> Reply:
        messages = request.messages
        last_user = max(i for i, m in enumerate(messages) if isinstance(m, UserMessage))
        done = sum(isinstance(m, ToolResultMessage) for m in messages[last_user:]) // calls
        if done >= steps:
            return Reply(text="done")
        return Reply(
            tool_calls=tuple(
                tool_call("noop", {"i": j}, call_id=f"c{done}_{j}") for j in range(calls)
            )
        )

    return answer


@dataclass
class Shape:
    name: str
    steps: int
    calls: int


async def turn_seconds(
    host: AgentHost, shape: Shape, turns: int, tag: str
) -> tuple[list[float], list[float]]:
    """Time `turns` turns of one shape, each in a fresh session (plus one warm-up).

    Returns the turn durations and, from the journal, the durations of the turn steps
    that called tools (start of the step to its commit).
    """
    out: list[float] = []
    journal: list[float] = []
    for i in range(turns + 1):
        session = await host.open_session(f"bench-{shape.name}", session_id=f"{tag}-{i}")
        await session.send("go")
        done = await session.wait_for("turn.completed", timeout=120)
        started = await session.wait_for("turn.started")
        if i:  # the first turn warms up imports, statements and caches
            out.append(done.meta.at - started.meta.at)
            records = await host.backend.stores.workflow.list_steps(session.run_id)
            journal.extend(
                r.completed_at - r.started_at
                for r in [r for r in records if r.name.endswith("//turn_step")][:-1]
                if r.completed_at is not None
            )
    return out, journal


@dataclass
class Figures:
    raw_us: float
    empty_ms: float
    step1_us: float
    step10_us: float
    journal1_us: float
    journal10_us: float

    def lines(self, label: str, raw_label: str, steps: int, turns: int) -> list[str]:
        marginal = (self.step10_us - self.step1_us) / 9
        return [
            f"{label}",
            f"  {raw_label:<44}{self.raw_us:9.0f} us",
            f"  empty turn (fixed: begin, 1 text step, end) {self.empty_ms * 1e6:9.0f} us",
            f"  turn step, 1 tool call                      {self.step1_us:9.0f} us"
            f"   {self.step1_us / self.raw_us:5.1f}x raw commit",
            f"  turn step, 10 tool calls                    {self.step10_us:9.0f} us"
            f"   {self.step10_us / self.raw_us:5.1f}x raw commit",
            f"  per tool call (10-call step / 10)           {self.step10_us / 10:9.0f} us"
            f"   {self.step10_us / 10 / self.raw_us:5.1f}x raw commit",
            f"  per extra tool call in a step ((10-1)/9)    {marginal:9.0f} us"
            f"   {marginal / self.raw_us:5.1f}x raw commit",
            f"  cross-check, journal: turn_step start to commit, 1 / 10 tool calls: "
            f"{self.journal1_us:.0f} / {self.journal10_us:.0f} us",
            f"  (medians of {turns} turns per shape, {steps} turn steps with tools per turn)",
        ]


async def measure(backend: Backend, steps: int, turns: int, raw_us: float) -> Figures:
    shapes = [Shape("empty", 0, 1), Shape("x1", steps, 1), Shape("x10", steps, 10)]
    agents = [
        Agent(
            name=f"bench-{s.name}",
            model=ScriptedModel(script(s.steps, s.calls), name=s.name),
            tools=[noop],
            max_steps_per_turn=steps + 10,
        )
        for s in shapes
    ]
    host = AgentHost(backend, agents, deployment="bench-agent")
    tag = secrets.token_hex(3)
    medians: dict[str, float] = {}
    in_journal: dict[str, float] = {}
    async with host.worker(poll_interval=0.01):
        for shape in shapes:
            seconds, journal = await turn_seconds(host, shape, turns, f"{tag}-{shape.name}")
            medians[shape.name] = statistics.median(seconds)
            if journal:
                in_journal[shape.name] = statistics.median(journal) * 1e6
    empty = medians["empty"]
    return Figures(
        raw_us=raw_us,
        empty_ms=empty,
        step1_us=(medians["x1"] - empty) / steps * 1e6,
        step10_us=(medians["x10"] - empty) / steps * 1e6,
        journal1_us=in_journal["x1"],
        journal10_us=in_journal["x10"],
    )


def sqlite_commit_us(path: Path, n: int = 400) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)")
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (v) VALUES (?)", (b"x" * 64,))
        conn.execute("COMMIT")
        times.append(time.perf_counter() - t0)
    conn.close()
    return statistics.median(times) * 1e6


def pg_commit_us(url: str, n: int = 500) -> float:
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TEMP TABLE bench_rt (k int primary key, v bytea)")
        conn.commit()
        for i in range(50):  # warm up; psycopg prepares the statement after a few uses
            conn.execute("INSERT INTO bench_rt VALUES (%s, %s)", (-i - 1, b"x" * 64))
            conn.commit()
        times = []
        for i in range(n):
            t0 = time.perf_counter()
            conn.execute("INSERT INTO bench_rt VALUES (%s, %s)", (i, b"x" * 64))
            conn.commit()
            times.append(time.perf_counter() - t0)
        return statistics.median(times) * 1e6


async def on_sqlite(steps: int, turns: int) -> list[str]:
    work = Path(tempfile.mkdtemp(prefix="tether-bench-agent-"))
    raw = sqlite_commit_us(work / "raw.db")
    async with tether.open_backend(f"sqlite:///{work / 'agent.db'}") as backend:
        figures = await measure(backend, steps, turns, raw)
    return figures.lines(
        "SQLite (WAL, synchronous=FULL), one process",
        "raw INSERT+COMMIT (durable)",
        steps,
        turns,
    )


async def on_postgres(url: str, steps: int, turns: int) -> list[str]:
    raw = pg_commit_us(url)
    namespace = f"bench_agent_{secrets.token_hex(4)}"
    backend = PostgresBackend(url, namespace=namespace, pool_size=8)
    try:
        await backend.migrate()
        await backend.connect()
        figures = await measure(backend, steps, turns, raw)
    finally:
        await backend.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace))
            )
    return figures.lines(
        f"Postgres ({url}, namespace {namespace}, dropped after)",
        "raw INSERT+COMMIT round trip",
        steps,
        turns,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG, help=f"Postgres URL (default {DEFAULT_PG})")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument("--turns", type=int, default=7, help="measured turns per shape")
    parser.add_argument("--steps", type=int, default=10, help="turn steps with tools per turn")
    args = parser.parse_args()
    print(
        "A turn step = one model call + the tool calls it asked for, committed as one durable\n"
        "step. Model: ScriptedModel answering instantly; tool: returns its argument.\n"
        "Per step = (median turn - median empty turn) / steps; raw commit measured in this run.\n"
    )
    for line in asyncio.run(on_sqlite(args.steps, args.turns)):
        print(line, flush=True)
    if not args.no_pg:
        print()
        for line in asyncio.run(on_postgres(args.pg, args.steps, args.turns)):
            print(line, flush=True)


if __name__ == "__main__":
    main()
