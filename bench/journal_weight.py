"""What one durable step writes: rows, WAL records and WAL bytes, beside DBOS.

    python bench/journal_weight.py [--postgres URL] [--dbos PYTHON] [--langgraph PYTHON]
                                   [--steps N] [--sessions N] [--waldump PATH] [--wal-dir DIR]

Figures that load on a shared machine cannot move: what the database writes, not how
long it takes.

- **Postgres.** Each system gets a database of its own, created for the measurement.
  A workflow of ``N`` plain ``def`` no-op steps and one of ``10`` steps run one after
  the other; the WAL between the insert positions taken around each run is read with
  ``pg_waldump`` and only the records of that database are kept (a record names the
  database's OID in its block reference; a commit record is kept when its transaction
  wrote such a record). The per-step figure is the difference of the two runs divided
  by ``N - 10``: what a start, a wait for the result and the run's end cost comes out.
  Printed: WAL bytes (with and without full-page images, which depend on when the
  server last checkpointed), WAL records, heap inserts and updates, commits.
  ``--dbos PYTHON`` runs DBOS's side with that interpreter (a venv with ``dbos``),
  the same workflow written as DBOS users write it (``@DBOS.workflow`` over
  ``@DBOS.step``).
- **A new session's first turn** (Postgres): open a session, send one message, an
  instant model asks for one tool call and then answers; from before the open to
  ``turn.completed``, per session (the median over ``--sessions``). ``--langgraph
  PYTHON`` runs the same turn with LangGraph (a venv with ``langgraph`` and
  ``langgraph-checkpoint-postgres``): a model node and a ``ToolNode`` over its
  ``PostgresSaver``, a fresh thread per turn.
- **SQLite.** WAL frames (pages) appended per step: the store's file is checkpointed
  (TRUNCATE) before each run, so the WAL's length after it counts the frames.

pg_waldump reads the server's WAL files: run this as a user that may read them (the
server's data directory is asked of the server; ``--wal-dir`` overrides it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
SHORT = 10


def noop(i: int) -> int:
    return i


# -- the children: run the workflows, report the WAL windows -----------------------------


def _lsn(url: str) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_wal_insert_lsn()::text").fetchone()
        assert row is not None
        return str(row[0])


async def _tether_child(spec: dict[str, Any]) -> dict[str, Any]:
    import tether

    registry = tether.Registry(deployment="journal-weight")

    @registry.workflow(name="steps")
    async def steps(ctx: tether.WorkflowContext, n: int) -> int:
        total = 0
        for i in range(n):
            total += await ctx.step(noop, i)
        return total

    windows: dict[str, Any] = {}
    async with (
        tether.open_backend(spec["url"], env={}) as backend,
        tether.Worker(backend, registry),
    ):
        client = tether.Client(backend)
        handle = await client.start(steps, 3)  # warm-up: connections, statements
        await handle.result(timeout=600)
        for n in (spec["steps"], SHORT):
            if spec["backend"] == "sqlite":
                _checkpoint(spec["path"])
            else:
                start = _lsn(spec["url"])
            handle = await client.start(steps, n)
            assert await handle.result(timeout=600) == n * (n - 1) // 2
            if spec["backend"] == "sqlite":
                windows[str(n)] = _wal_frames(spec["path"])
            else:
                windows[str(n)] = [start, _lsn(spec["url"])]
    return windows


def _dbos_child(spec: dict[str, Any]) -> dict[str, Any]:
    from dbos import DBOS

    @DBOS.step(name="noop")
    def dbos_noop(i: int) -> int:
        return i

    @DBOS.workflow(name="steps")
    def dbos_steps(n: int) -> int:
        total = 0
        for i in range(n):
            total += dbos_noop(i)
        return total

    DBOS(
        config={
            "name": "journal-weight",
            "system_database_url": spec["url"],
            "log_level": "WARNING",
        }
    )
    DBOS.launch()
    windows: dict[str, Any] = {}
    try:
        DBOS.start_workflow(dbos_steps, 3).get_result()
        for n in (spec["steps"], SHORT):
            start = _lsn(spec["url"])
            assert DBOS.start_workflow(dbos_steps, n).get_result() == n * (n - 1) // 2
            windows[str(n)] = [start, _lsn(spec["url"])]
    finally:
        DBOS.destroy()
    return windows


async def _turn_child(spec: dict[str, Any]) -> dict[str, Any]:
    import tether
    from tether.agent import Agent, AgentHost, tool
    from tether.agent.models import ModelRequest, ToolResultMessage
    from tether.testing import Reply, ScriptedModel, tool_call

    @tool
    def echo(i: int) -> int:
        """Return i."""
        return i

    def answer(request: ModelRequest) -> Reply | str:
        if isinstance(request.messages[-1], ToolResultMessage):
            return "done"
        return Reply(tool_calls=(tool_call("echo", {"i": 1}, call_id="c1"),))

    agent = Agent(name="weight", model=ScriptedModel(answer), tools=[echo])
    windows = []
    async with tether.open_backend(spec["url"], env={}) as backend:
        host = AgentHost(backend, [agent], deployment="journal-weight")
        async with host.worker(poll_interval=0.01):
            for i in range(spec["sessions"] + 2):
                start = _lsn(spec["url"])
                session = await host.open_session("weight", session_id=f"s{i}")
                await session.send("go")
                await session.wait_for("turn.completed", timeout=60)
                # The session's run parks after the turn: that write is the turn's too.
                for _ in range(400):
                    if (await session.state()).status == "idle":
                        break
                    await asyncio.sleep(0.005)
                await asyncio.sleep(0.05)
                if i >= 2:  # two warm-up sessions: statements, caches
                    windows.append([start, _lsn(spec["url"])])
    return {"windows": windows}


def _langgraph_child(spec: dict[str, Any]) -> dict[str, Any]:
    import psycopg
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    @tool
    def echo(i: int) -> int:
        """Return i."""
        return i

    def model(state: MessagesState) -> dict[str, Any]:
        if isinstance(state["messages"][-1], ToolMessage):
            return {"messages": [AIMessage(content="done")]}
        call = {"name": "echo", "args": {"i": 1}, "id": "c1", "type": "tool_call"}
        return {"messages": [AIMessage(content="", tool_calls=[call])]}

    windows = []
    with psycopg.connect(spec["url"], autocommit=True, prepare_threshold=0) as conn:
        saver = PostgresSaver(conn)  # type: ignore[arg-type]
        saver.setup()
        builder = StateGraph(MessagesState)
        builder.add_node("model", model)
        builder.add_node("tools", ToolNode([echo]))
        builder.add_edge(START, "model")
        builder.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
        builder.add_edge("tools", "model")
        app = builder.compile(checkpointer=saver)
        for i in range(spec["sessions"] + 2):
            start = _lsn(spec["url"])
            config = {"configurable": {"thread_id": f"t{i}"}}
            app.invoke({"messages": [HumanMessage(content="go")]}, config)
            if i >= 2:
                windows.append([start, _lsn(spec["url"])])
    return {"windows": windows}


def _checkpoint(path: str) -> None:
    with sqlite3.connect(path, timeout=30) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _wal_frames(path: str) -> int:
    wal = Path(f"{path}-wal")
    if not wal.exists():
        return 0
    size = wal.stat().st_size
    if size < 32:
        return 0
    page = int.from_bytes(wal.read_bytes()[8:12], "big")
    return (size - 32) // (24 + page)


# -- the parent: databases, pg_waldump, the report ---------------------------------------

_RECORD = re.compile(
    r"rmgr: (?P<rmgr>\S+)\s+len \(rec/tot\):\s*(?P<rec>\d+)/\s*(?P<tot>\d+), "
    r"tx:\s*(?P<tx>\d+), lsn: \S+, prev \S+, desc: (?P<desc>.*)$"
)


def _records(waldump: str, wal_dir: str, start: str, end: str, dboid: int) -> dict[str, int]:
    out = subprocess.run(
        [waldump, "-p", wal_dir, "-s", start, "-e", end],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    ours = f"/{dboid}/"
    mine: list[tuple[str, int, int, int, str]] = []
    txs: set[int] = set()
    commits: list[tuple[int, int, int]] = []
    for line in out.splitlines():
        m = _RECORD.match(line)
        if m is None:
            continue
        rec, tot, tx = int(m["rec"]), int(m["tot"]), int(m["tx"])
        desc = m["desc"]
        if m["rmgr"] == "Transaction" and desc.startswith("COMMIT"):
            commits.append((tx, rec, tot))
        elif ours in desc.split("blkref", 1)[-1] if "blkref" in desc else False:
            mine.append((m["rmgr"], rec, tot, tx, desc))
            txs.add(tx)
    figures = {"bytes": 0, "bytes_no_fpi": 0, "records": 0, "inserts": 0, "updates": 0}
    for rmgr, rec, tot, _, desc in mine:
        figures["bytes"] += tot
        figures["bytes_no_fpi"] += rec
        figures["records"] += 1
        if rmgr in ("Heap", "Heap2"):
            kind = desc.split(" ", 1)[0]
            if kind in ("INSERT", "MULTI_INSERT", "INSERT+INIT"):
                figures["inserts"] += 1
            elif kind in ("UPDATE", "HOT_UPDATE", "UPDATE+INIT", "HOT_UPDATE+INIT"):
                figures["updates"] += 1
    figures["commits"] = 0
    for tx, rec, tot in commits:
        if tx in txs:
            figures["bytes"] += tot
            figures["bytes_no_fpi"] += rec
            figures["records"] += 1
            figures["commits"] += 1
    return figures


def _database(base: str, name: str, action: str) -> tuple[str, int]:
    import psycopg
    from psycopg import sql

    with psycopg.connect(base, autocommit=True) as conn:
        if action == "create":
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            row = conn.execute("SELECT oid FROM pg_database WHERE datname = %s", (name,)).fetchone()
            assert row is not None
            url = urllib.parse.urlsplit(base)._replace(path=f"/{name}").geturl()
            return url, int(row[0])
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        return "", 0


def _child(python: str, spec: dict[str, Any]) -> dict[str, Any]:
    out = subprocess.run(
        [python, __file__, "--child", json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(json.loads(line[7:]))
    raise SystemExit(f"{spec['system']} child failed:\n{out.stdout}\n{out.stderr}")


def _per_step(long: dict[str, int], short: dict[str, int], steps: int) -> dict[str, float]:
    return {k: (long[k] - short[k]) / (steps - SHORT) for k in long}


def _postgres(args: argparse.Namespace, system: str, python: str) -> dict[str, float]:
    name = f"jw_{system}_{secrets.token_hex(4)}"
    url, dboid = _database(args.postgres, name, "create")
    try:
        windows = _child(
            python, {"system": system, "backend": "postgres", "url": url, "steps": args.steps}
        )
        wal_dir = args.wal_dir or _wal_dir(args.postgres)
        long = _records(args.waldump, wal_dir, *windows[str(args.steps)], dboid)
        short = _records(args.waldump, wal_dir, *windows[str(SHORT)], dboid)
        return _per_step(long, short, args.steps)
    finally:
        _database(args.postgres, name, "drop")


def _turns(args: argparse.Namespace, system: str, python: str) -> dict[str, float]:
    """Median figures of a new session's first turn (see the module docstring)."""
    name = f"jw_{system}_turn_{secrets.token_hex(4)}"
    url, dboid = _database(args.postgres, name, "create")
    try:
        spec = {"system": system, "task": "turn", "url": url, "sessions": args.sessions}
        windows = _child(python, spec)["windows"]
        wal_dir = args.wal_dir or _wal_dir(args.postgres)
        each = [_records(args.waldump, wal_dir, a, b, dboid) for a, b in windows]
        return {k: statistics.median(f[k] for f in each) for k in each[0]}
    finally:
        _database(args.postgres, name, "drop")


def _wal_dir(base: str) -> str:
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        row = conn.execute("SHOW data_directory").fetchone()
        assert row is not None
        return os.path.join(str(row[0]), "pg_wal")


def _sqlite(args: argparse.Namespace) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "weight.db")
        windows = _child(
            sys.executable,
            {
                "system": "tether",
                "backend": "sqlite",
                "url": f"sqlite:///{path}",
                "path": path,
                "steps": args.steps,
            },
        )
        return (windows[str(args.steps)] - windows[str(SHORT)]) / (args.steps - SHORT)


_HEADER = (
    "| system | WAL bytes | without full pages | records | heap inserts | heap updates | commits |"
)


def _row(name: str, f: dict[str, float]) -> str:
    return (
        f"| {name} | {f['bytes']:,.0f} | {f['bytes_no_fpi']:,.0f} | {f['records']:.1f} | "
        f"{f['inserts']:.2f} | {f['updates']:.2f} | {f['commits']:.2f} |"
    )


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default=os.environ.get("TETHER_BENCH_PG", DEFAULT_PG))
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--dbos", metavar="PYTHON", help="an interpreter with dbos installed")
    parser.add_argument("--langgraph", metavar="PYTHON", help="an interpreter with langgraph")
    parser.add_argument("--steps", type=int, default=110)
    parser.add_argument("--sessions", type=int, default=9)
    parser.add_argument("--waldump", default=shutil.which("pg_waldump") or _find_waldump())
    parser.add_argument("--wal-dir")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.child:
        spec = json.loads(args.child)
        if spec["system"] == "dbos":
            result = _dbos_child(spec)
        elif spec["system"] == "langgraph":
            result = _langgraph_child(spec)
        elif spec.get("task") == "turn":
            result = asyncio.run(_turn_child(spec))
        else:
            result = asyncio.run(_tether_child(spec))
        print("RESULT " + json.dumps(result), flush=True)
        return
    print(f"per step of a {args.steps}-step workflow of plain def steps (marginal over {SHORT})\n")
    frames = _sqlite(args)
    print(f"SQLite: {frames:.2f} WAL frames (pages) per step\n")
    if args.no_postgres:
        return
    _compare(
        "Postgres, this benchmark database's own WAL only (pg_waldump):",
        _postgres(args, "tether", sys.executable),
        ("DBOS", args.dbos, lambda: _postgres(args, "dbos", args.dbos)),
        ("bytes", "bytes_no_fpi", "records"),
        "pip install dbos",
    )
    _compare(
        "Postgres, a new session's first turn (open, one message, one tool call; "
        f"median of {args.sessions}):",
        _turns(args, "tether", sys.executable),
        ("LangGraph", args.langgraph, lambda: _turns(args, "langgraph", args.langgraph)),
        ("bytes", "records", "commits"),
        "pip install langgraph langgraph-checkpoint-postgres",
    )


_RATIO_NAMES = {
    "bytes": "WAL bytes",
    "bytes_no_fpi": "without full pages",
    "records": "records",
    "commits": "commits",
}


def _compare(
    title: str,
    ours: dict[str, float],
    peer: tuple[str, str | None, Any],
    ratios: tuple[str, ...],
    install: str,
) -> None:
    """A table of tether's figures and, given an interpreter for it, the peer's beside."""
    name, python, measure = peer
    print(f"\n{title}\n")
    print(_HEADER)
    print("|---|---|---|---|---|---|---|")
    print(_row("tether", ours), flush=True)
    if python is None:
        print(f"\n({name}: pass --{name.lower()} PYTHON, an interpreter with `{install}`)")
        return
    theirs = measure()
    print(_row(name, theirs))
    shown = ", ".join(f"{_RATIO_NAMES[k]} {ours[k] / theirs[k]:.2f}x" for k in ratios)
    print(f"\ntether / {name}: {shown}")


def _find_waldump() -> str:
    for found in sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_waldump"), reverse=True):
        return str(found)
    return "pg_waldump"


if __name__ == "__main__":
    main()
