"""LangGraph's side of `bench/agent_turn.py` (run with a python that has langgraph).

    python bench/agent_turn_langgraph.py [--pg URL] [--turns N] [--gap SECONDS]

The same turn as tether's: an instant model asks for one tool call (or ten), the tool
returns its argument, the model answers. A graph of a model node and a `ToolNode`, with
LangGraph's own checkpointer (in memory, SQLite in WAL mode with synchronous=FULL, and
Postgres), a fresh thread per turn, each after the same idle gap as tether's side (its
session's run parks before its turn: 50 ms by default). Prints one JSON line: medians
(ms) and, on SQLite, the commits of a turn, with the samples they are the medians of.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition


@tool
def noop(i: int) -> int:
    """Return i."""
    return i


def graph(checkpointer: Any, calls: int) -> Any:
    def model(state: MessagesState) -> dict[str, Any]:
        messages = state["messages"]
        if isinstance(messages[-1], ToolMessage):
            return {"messages": [AIMessage(content="done")]}
        n = len(messages)
        tool_calls = [
            {"name": "noop", "args": {"i": j}, "id": f"c{n}_{j}", "type": "tool_call"}
            for j in range(calls)
        ]
        return {"messages": [AIMessage(content="", tool_calls=tool_calls)]}

    builder = StateGraph(MessagesState)
    builder.add_node("model", model)
    builder.add_node("tools", ToolNode([noop]))
    builder.add_edge(START, "model")
    builder.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
    builder.add_edge("tools", "model")
    return builder.compile(checkpointer=checkpointer)


#: Seconds idle before each turn, as on tether's side (`--gap`).
GAP = 0.05
_gap = [GAP]


def turns(app: Any, n: int, commits: list[int] | None = None) -> dict[str, Any]:
    seconds: list[float] = []
    counted: list[int] = []
    for i in range(n + 2):
        config = {"configurable": {"thread_id": f"t{secrets.token_hex(4)}-{i}"}}
        before = commits[0] if commits is not None else 0
        # Idle first, as tether's side is: on a shared VM a CPU idle for tens of
        # milliseconds runs the next work slower, so both sides start alike.
        time.sleep(_gap[0])
        start = time.perf_counter()
        app.invoke({"messages": [HumanMessage(content="go")]}, config)
        elapsed = time.perf_counter() - start
        if i >= 2:
            seconds.append(elapsed)
            if commits is not None:
                counted.append(commits[0] - before)
    out: dict[str, Any] = {
        "ms": statistics.median(seconds) * 1000,
        "samples": [s * 1000 for s in seconds],
    }
    if counted:
        out["commits"] = statistics.median(counted)
        out["commit_samples"] = counted
    return out


def on_sqlite(n: int) -> dict[str, Any]:
    path = Path(tempfile.mkdtemp(prefix="lg-bench-")) / "lg.db"
    conn = sqlite3.connect(path, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    commits = [0]

    def trace(statement: str) -> None:
        if statement.strip().upper().startswith("COMMIT"):
            commits[0] += 1

    conn.set_trace_callback(trace)
    saver = SqliteSaver(conn)
    saver.setup()
    return {str(c): turns(graph(saver, c), n, commits) for c in (1, 10)}


def on_postgres(url: str, n: int) -> dict[str, Any]:
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg import sql

    schema = f"lg_bench_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    try:
        with psycopg.connect(
            url, autocommit=True, prepare_threshold=0, options=f"-c search_path={schema}"
        ) as conn:
            saver = PostgresSaver(conn)
            saver.setup()
            return {str(c): turns(graph(saver, c), n) for c in (1, 10)}
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pg")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--gap", type=float, default=GAP, help="seconds idle before each turn")
    args = parser.parse_args()
    _gap[0] = args.gap
    result: dict[str, Any] = {
        "memory": {str(c): turns(graph(InMemorySaver(), c), args.turns) for c in (1, 10)},
        "sqlite": on_sqlite(args.turns),
    }
    if args.pg:
        result["postgres"] = on_postgres(args.pg, args.turns)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
