"""New sessions per second: open a session, send one message, wait for its turn.

    python bench/new_sessions.py [--postgres URL] [--sessions N] [--senders N]
                                 [--rounds N] [--against REV]

An instant model asks for one tool call and then answers. ``--senders`` clients at
once (asyncio tasks of one process) each open a new session, send one message and wait
for ``turn.completed``, over and over, against one worker in the same process, on a
fresh Postgres namespace; the figure is sessions completed per second over the burst.

``--against REV`` also measures the tether of git revision ``REV`` of this repository
(its sources taken with ``git archive``, run in a subprocess whose path puts them
first), alternating with today's in ``--rounds`` rounds, so the ratio compares figures
measured minutes apart on the same machine. Medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"


async def burst(url: str, sessions: int, senders: int) -> float:
    import psycopg
    from psycopg import sql

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

    namespace = f"bench_new_{secrets.token_hex(4)}"
    agent = Agent(name="bench", model=ScriptedModel(answer), tools=[echo])
    try:
        async with tether.open_backend(url, namespace=namespace, pool_size=8, env={}) as backend:
            host = AgentHost(backend, [agent], deployment="bench-new")
            async with host.worker(poll_interval=0.01):
                counter = iter(range(10**9))

                async def sender(n: int) -> None:
                    for _ in range(n):
                        session = await host.open_session("bench", session_id=f"s{next(counter)}")
                        await session.send("go")
                        await session.wait_for("turn.completed", timeout=120)

                await asyncio.gather(*(sender(2) for _ in range(senders)))  # warm-up
                each = max(1, sessions // senders)
                started = time.perf_counter()
                await asyncio.gather(*(sender(each) for _ in range(senders)))
                return each * senders / (time.perf_counter() - started)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in (namespace, f"{namespace}_keyring"):
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
                )


def _child(spec: dict[str, Any], sources: Path | None) -> float:
    env = dict(os.environ)
    if sources is not None:
        env["PYTHONPATH"] = str(sources)
    out = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(spec)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return float(line[7:])
    raise SystemExit(f"a burst failed:\n{out.stdout}\n{out.stderr}")


def _sources(rev: str, into: Path) -> Path:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src/tether"],
        capture_output=True,
        check=True,
    )
    with tarfile.open(fileobj=BytesIO(found.stdout)) as archive:
        archive.extractall(into, filter="data")
    return into / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default=os.environ.get("TETHER_BENCH_PG", DEFAULT_PG))
    parser.add_argument("--sessions", type=int, default=320)
    parser.add_argument("--senders", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", metavar="REV")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        spec = json.loads(args.child)
        rate = asyncio.run(burst(spec["url"], spec["sessions"], spec["senders"]))
        print(f"RESULT {rate}", flush=True)
        return
    spec = {"url": args.postgres, "sessions": args.sessions, "senders": args.senders}
    ours: list[float] = []
    theirs: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        sources = None if args.against is None else _sources(args.against, Path(tmp))
        for _ in range(args.rounds):
            ours.append(_child(spec, None))
            if sources is not None:
                theirs.append(_child(spec, sources))
    print(
        f"new sessions per second on Postgres ({args.senders} senders, one worker, open + one "
        f"message with one tool call; median of {args.rounds} bursts of {args.sessions}):"
    )
    print(f"  this tree       {statistics.median(ours):7.1f}/s   {[round(r, 1) for r in ours]}")
    if theirs:
        mid = statistics.median(theirs)
        print(f"  {args.against:<15} {mid:7.1f}/s   {[round(r, 1) for r in theirs]}")
        print(f"  ratio           {statistics.median(ours) / mid:7.2f}x")


if __name__ == "__main__":
    main()
