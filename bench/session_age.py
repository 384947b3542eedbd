"""A session's per-message cost against its age, with and without compaction.

    python bench/session_age.py [--postgres URL] [--turns 1030] [--window 30] [--every 50]

One agent session takes one message at a time (send -> ``turn.completed``, the
session idle before each send; a scripted model that answers at once, so what is
measured is tether: admission, waking the parked run, replaying its journal, reading
the transcript, building the model request, committing the turn). Printed, on SQLite
(WAL, FULL) and on Postgres when a URL is given, for a session that is one run forever
and for one with ``Compaction(max_turns=every, compactor=KeepLast(10))``:

1. the median per-message cost over turns [10, 10+window) and [turns-window, turns),
   and their ratio (the target with compaction is <= 1.5);
2. how many engine events the session's current run holds at the end (what a
   reactivation replays) and how many messages the last model request carried;
3. a cold reactivation at the end: a new worker (empty caches) serves one message.

Ratios come from one run on one machine; the machine is noisy, so read medians.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tether
from tether.agent import Agent, AgentHost, Compaction, KeepLast
from tether.agent.models import ModelRequest
from tether.testing import ScriptedModel

#: Sizes of the model requests, in order (the last tells what a late turn sends).
request_sizes: list[int] = []


def answer(request: ModelRequest) -> str:
    request_sizes.append(len(request.messages))
    return "ok"


def build(backend: Any, every: int | None, turns: int) -> AgentHost:
    compaction = Compaction(max_turns=every, compactor=KeepLast(10)) if every else None
    model = ScriptedModel([answer] * (turns + 10))
    agent = Agent(name="bench", model=model, compaction=compaction)
    return AgentHost(backend, [agent], deployment="bench-age")


async def one(session: Any, text: str, after: int) -> tuple[float, int]:
    start = time.perf_counter()
    await session.send(text)
    done = await session.wait_for("turn.completed", after=after, timeout=120)
    return time.perf_counter() - start, int(done.index)


async def run(
    label: str, url: str, options: dict[str, Any], every: int | None, args: argparse.Namespace
) -> dict[str, Any]:
    request_sizes.clear()
    async with tether.open_backend(url, **options) as backend:
        host = build(backend, every, args.turns)
        costs: list[float] = []
        async with host.worker(poll_interval=0.02):
            session = await host.open_session("bench", session_id=f"age-{secrets.token_hex(4)}")
            after = -1
            for turn in range(1, args.turns + 1):
                cost, after = await one(session, f"message {turn}", after)
                costs.append(cost)
        current = await host.client.latest(session.run_id)
        events = await backend.stores.workflow.list_events(current.run_id)
        # A cold reactivation: a new worker, a new host (empty transcript cache).
        cold_host = build(backend, every, 10)
        async with cold_host.worker(poll_interval=0.02):
            cold = await cold_host.get_session(session.session_id)
            cold_cost, _ = await one(cold, "cold", after)
    w = args.window
    early = statistics.median(costs[10 : 10 + w])
    late = statistics.median(costs[-w:])
    return {
        "label": label,
        "early": early,
        "late": late,
        "ratio": late / early,
        "events": len(events),
        "generation": current.generation,
        "request": request_sizes[-2] if len(request_sizes) > 1 else 0,
        "cold": cold_cost,
    }


def show(result: dict[str, Any], args: argparse.Namespace) -> None:
    w = args.window
    print(
        f"  {result['label']:<24} turns 10-{9 + w}: {result['early'] * 1e3:6.1f} ms   "
        f"turns {args.turns - w + 1}-{args.turns}: {result['late'] * 1e3:6.1f} ms   "
        f"ratio {result['ratio']:.2f}x   run events {result['events']:>6} "
        f"(run #{result['generation']})   last request {result['request']:>5} messages   "
        f"cold message {result['cold'] * 1e3:6.1f} ms"
    )


async def bench(label: str, url: str, options: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"{label}:")
    for every in (args.every, None):
        name = f"compaction every {every}" if every else "one run forever"
        show(await run(name, url, options, every, args), args)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", default=None, help="a Postgres URL (skipped without)")
    parser.add_argument("--turns", type=int, default=1030)
    parser.add_argument("--window", type=int, default=30)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()
    if args.turns < 10 + 2 * args.window:
        sys.exit("--turns must be at least 10 + 2 * --window")
    with tempfile.TemporaryDirectory() as tmp:
        await bench("SQLite", f"sqlite:///{Path(tmp) / 'age.db'}", {}, args)
    if args.postgres:
        namespace = f"bench_age_{secrets.token_hex(4)}"
        await bench("Postgres", args.postgres, {"namespace": namespace}, args)


if __name__ == "__main__":
    asyncio.run(main())
