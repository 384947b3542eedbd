"""What a large tool result costs the store: bytes stored for a 10 MB result, once and twice.

An agent's tool returns 10 MB of text (incompressible); the session's turn is measured
by how much the store grew: SQLite by its pages in use, Postgres by the total size of
the namespace's relations (TOAST included). A second turn returns the same 10 MB again.
Not a test: prints figures and ratios measured in one run.

    .venv/bin/python bench/agent_payloads.py [--postgres URL] [--mb N]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import secrets
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import tether
from tether.agent import Agent, AgentHost, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.testing import Reply, ScriptedModel, tool_call

_PAYLOAD: dict[str, str] = {}


@tool
def fetch_report() -> str:
    """Fetch the report."""
    return _PAYLOAD["text"]


def _answer(request: ModelRequest) -> str | Reply:
    if isinstance(request.messages[-1], ToolResultMessage):
        return f"read {len(request.messages[-1].content)} characters"
    return Reply(tool_calls=(tool_call("fetch_report", {}),))


def _sqlite_bytes(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def _postgres_bytes(url: str, namespaces: list[str]) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = ANY(%s) AND c.relkind IN ('r', 'm')",
            (namespaces,),
        ).fetchone()
    return int(row[0]) if row else 0


async def _turns(backend: tether.Backend, measure: Any) -> list[int]:
    agent = Agent(name="reader", model=ScriptedModel(_answer), tools=[fetch_report])
    host = AgentHost(backend, [agent], deployment="bench")
    sizes = [measure()]
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("reader", session_id="big")
        last = -1
        for _ in range(2):
            await session.send("read the report")
            last = (await session.wait_for("turn.completed", after=last, timeout=120)).index
            await asyncio.sleep(0.3)  # the turn's last writes after its event
            sizes.append(measure())
        entries = await session.transcript()
    assert sum(len(getattr(e, "content", "")) for e in entries) == 2 * len(_PAYLOAD["text"])
    return sizes


async def bench(url: str | None, mb: int, keys: Any) -> dict[str, list[int]]:
    figures: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        async with tether.open_backend(f"sqlite:///{db}", keys=keys, env={}) as backend:
            figures["SQLite"] = await _turns(backend, lambda: _sqlite_bytes(db))
    if url is not None:
        ns = f"bench_payloads_{secrets.token_hex(4)}"
        spaces = [ns, f"{ns}_keyring"]
        try:
            async with tether.open_backend(url, keys=keys, namespace=ns, env={}) as backend:
                figures["Postgres"] = await _turns(backend, lambda: _postgres_bytes(url, spaces))
        finally:
            with psycopg.connect(url, autocommit=True) as conn:
                for space in spaces:
                    drop = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE")
                    conn.execute(drop.format(sql.Identifier(space)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--mb", type=int, default=10)
    args = parser.parse_args()
    # Incompressible text: base64 of random bytes.
    _PAYLOAD["text"] = base64.b64encode(os.urandom(args.mb * 750_000)).decode()
    size = len(_PAYLOAD["text"])
    from tether.stores import EnvKeyProvider, generate_key

    for label, keys in (("plain", None), ("encrypted", EnvKeyProvider(generate_key()))):
        figures = asyncio.run(bench(None if args.no_postgres else args.postgres, args.mb, keys))
        for backend, (before, once, twice) in figures.items():
            print(
                f"{backend:8} {label:9} a {size / 1e6:.1f} MB tool result: "
                f"first turn +{(once - before) / 1e6:6.1f} MB ({(once - before) / size:.2f}x), "
                f"same result again +{(twice - once) / 1e6:6.1f} MB "
                f"({(twice - once) / size:.2f}x)"
            )


if __name__ == "__main__":
    main()
