"""tether on Postgres: per-step overhead against one INSERT+COMMIT, and worker scaling.

Usage: python bench/postgres.py [URL] [--steps N] [--rounds N] [--runs N] [--workers 1,2,4]

Prints, all measured in this run against the same server:
- one INSERT+COMMIT round trip (psycopg, prepared, one autocommit connection, an
  ordinary logged table, so the commit waits for its WAL flush as tether's do);
- tether's per-step overhead: a run of N no-op steps, minus a 1-step run's fixed cost,
  divided by N-1 — and the ratio of the two (target: at most 2x). The step is an async
  no-op, as in bench/engine.py; a sync no-op, which the engine runs in a thread, is
  printed too. The machine is shared and noisy, so the two are measured in alternating
  rounds and the figures are medians, the ratio the median of the rounds' ratios;
- throughput of 1-step workflows with 1, 2 and 4 worker processes: the clients start
  the runs from this process while the workers (subprocesses) execute them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import tether
from tether.stores.postgres import PostgresBackend

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"

registry = tether.Registry(deployment="bench-pg")


def noop(i: int) -> int:
    return i


async def anoop(i: int) -> int:
    return i


@registry.workflow(name="many_steps")
async def many_steps(ctx: tether.WorkflowContext, n: int) -> int:
    total = 0
    for i in range(n):
        total += await ctx.step(anoop, i)
    return total


@registry.workflow(name="many_sync_steps")
async def many_sync_steps(ctx: tether.WorkflowContext, n: int) -> int:
    total = 0
    for i in range(n):
        total += await ctx.step(noop, i)
    return total


@registry.workflow(name="one_step")
async def one_step(ctx: tether.WorkflowContext, i: int) -> int:
    return await ctx.step(noop, i)


def hang_first(i: int) -> int:
    info = tether.step_info()
    if info.attempt == 1:
        Path(os.environ["BENCH_READY_DIR"], info.run_id).touch()
        time.sleep(3600)
    return i


@registry.workflow(name="crashy")
async def crashy(ctx: tether.WorkflowContext, i: int) -> int:
    return await ctx.step(hang_first, i)


def python_path() -> str:
    """This directory for the worker processes, ahead of the caller's own PYTHONPATH."""
    return os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))


def drop(url: str, namespace: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace)))


class RawCommits:
    """One INSERT+COMMIT round trip at a time, on one connection (the yardstick).

    The table is an ordinary (logged) one in the bench's schema: a TEMP table is not
    WAL-logged, so its commit does not wait for a WAL flush and is no durable commit.
    The connection is in autocommit mode, so each INSERT is its own transaction and
    costs exactly one round trip.
    """

    def __init__(self, url: str, namespace: str) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.table = sql.Identifier(namespace, "bench_rt")
        self.conn.execute(
            sql.SQL("CREATE TABLE {} (k int primary key, v bytea)").format(self.table)
        )
        self.insert = sql.SQL("INSERT INTO {} VALUES (%s, %s)").format(self.table)
        self.k = 0
        self.us(50)  # warm up: psycopg prepares the statement after a few uses

    def us(self, n: int) -> float:
        started = time.perf_counter()
        for _ in range(n):
            self.k += 1
            self.conn.execute(self.insert, (self.k, b"x" * 64))
        return (time.perf_counter() - started) / n * 1e6


async def timed(client: tether.Client, workflow: Any, n: int) -> float:
    handle = await client.start(workflow, n)
    started = time.perf_counter()
    assert await handle.result(timeout=600) == n * (n - 1) // 2
    return time.perf_counter() - started


async def step_us(url: str, n: int, rounds: int) -> dict[str, list[float]]:
    """Alternating rounds of raw commits and tether runs; the samples of each."""
    namespace = f"bench_{secrets.token_hex(4)}"
    backend = PostgresBackend(url, namespace=namespace, pool_size=4)
    samples: dict[str, list[float]] = {"raw": [], "step": [], "sync step": [], "ratio": []}
    raw: RawCommits | None = None
    try:
        await backend.migrate()
        raw = RawCommits(url, namespace)
        await backend.connect()
        async with tether.Worker(backend, registry, poll_interval=0.01):
            client = tether.Client(backend)
            await timed(client, many_steps, 20)  # warm up
            for _ in range(rounds):
                # The fixed cost of a run (start, claim, finish), measured with 1 step,
                # is subtracted: what remains is the cost of the other n - 1 steps. The
                # yardstick is measured just before and just after, and averaged.
                before = raw.us(n)
                fixed = min([await timed(client, many_steps, 1) for _ in range(3)])
                step = (await timed(client, many_steps, n) - fixed) / (n - 1) * 1e6
                rt = (before + raw.us(n)) / 2
                fixed = min([await timed(client, many_sync_steps, 1) for _ in range(3)])
                sync = (await timed(client, many_sync_steps, n) - fixed) / (n - 1) * 1e6
                samples["raw"].append(rt)
                samples["step"].append(step)
                samples["sync step"].append(sync)
                samples["ratio"].append(step / rt)
        return samples
    finally:
        if raw is not None:
            raw.conn.close()
        await backend.close()
        drop(url, namespace)


async def throughput(url: str, workers: int, runs: int) -> float:
    """1-step runs per second with `workers` worker processes."""
    namespace = f"bench_{secrets.token_hex(4)}"
    backend = PostgresBackend(url, namespace=namespace, pool_size=8)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        await backend.migrate()
        await backend.connect()
        store = backend.stores.workflow
        env = {**os.environ, "PYTHONPATH": python_path()}
        for _ in range(workers):
            procs.append(
                subprocess.Popen([sys.executable, __file__, url, "--worker", namespace], env=env)
            )
        while len(await store.list_workers()) < workers:  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        client = tether.Client(backend, registry=registry)
        counter = psycopg.connect(url, autocommit=True)
        count = sql.SQL("SELECT count(*) FROM {}.tether_runs WHERE status = 'completed'").format(
            sql.Identifier(namespace)
        )
        started = time.perf_counter()
        # Clients start runs 32 at a time, as concurrent requests to a server would.
        for first in range(0, runs, 32):
            await asyncio.gather(
                *(client.start(one_step, i) for i in range(first, min(first + 32, runs)))
            )
        while True:
            row = counter.execute(count).fetchone()
            if row is not None and row[0] >= runs:
                break
            await asyncio.sleep(0.01)
        elapsed = time.perf_counter() - started
        counter.close()
        return runs / elapsed
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait()
        await backend.close()
        drop(url, namespace)


async def all_finished(url: str, namespace: str, runs: int, started: float) -> float:
    """Seconds since `started` when `runs` runs have completed.

    Counted from its own connection, one cheap query per look: reading 200 results one
    by one, or listing them, would time the reads (and slow the worker), not the
    recovery.
    """
    count = sql.SQL("SELECT count(*) FROM {}.tether_runs WHERE status = 'completed'").format(
        sql.Identifier(namespace)
    )
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        while True:
            row = await (await conn.execute(count)).fetchone()
            if row is not None and row[0] >= runs:
                return time.perf_counter() - started
            await asyncio.sleep(0.005)


async def recovery(url: str, runs: int) -> float:
    """Seconds from a fresh worker's start until `runs` runs SIGKILLed mid-step finished."""
    namespace = f"bench_{secrets.token_hex(4)}"
    backend = PostgresBackend(url, namespace=namespace, pool_size=8)
    ready = Path(tempfile.mkdtemp(prefix="tether-ready-"))
    try:
        await backend.migrate()
        await backend.connect()
        client = tether.Client(backend, registry=registry)
        for i in range(runs):
            await client.start(crashy, i)
        env = {
            **os.environ,
            "PYTHONPATH": python_path(),
            "BENCH_READY_DIR": str(ready),
        }
        proc = subprocess.Popen(
            [sys.executable, __file__, url, "--worker", namespace, "--concurrency", str(runs)],
            env=env,
        )
        while len(os.listdir(ready)) < runs:  # noqa: ASYNC110 - the worker signals by files
            await asyncio.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        started = time.perf_counter()
        async with tether.Worker(backend, registry, concurrency=runs, poll_interval=0.01):
            return await all_finished(url, namespace, runs, started)
    finally:
        await backend.close()
        drop(url, namespace)


async def run_worker(url: str, namespace: str, concurrency: int = 32) -> None:
    backend = PostgresBackend(url, namespace=namespace, pool_size=8)
    await backend.connect()
    try:
        worker = tether.Worker(backend, registry, concurrency=concurrency, poll_interval=0.05)
        await worker.run_forever()
    finally:
        await backend.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url", nargs="?", default=DEFAULT_URL)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--recovery-runs", type=int, default=200)
    parser.add_argument("--worker", metavar="NAMESPACE", help=argparse.SUPPRESS)
    parser.add_argument("--concurrency", type=int, default=32, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        try:
            asyncio.run(run_worker(args.url, args.worker, args.concurrency))
        except KeyboardInterrupt:
            pass
        return
    if args.rounds == 0:
        elapsed = asyncio.run(recovery(args.url, args.recovery_runs))
        print(f"{args.recovery_runs} runs killed mid-step: all finished {elapsed:.3f} s "
              "after a fresh worker started")  # fmt: skip
        return
    samples = asyncio.run(step_us(args.url, args.steps, args.rounds))
    med = {k: statistics.median(v) for k, v in samples.items()}
    spread = ", ".join(f"{r:.2f}" for r in samples["ratio"])
    print(f"{args.rounds} rounds of {args.steps} steps; medians:")
    print(f"INSERT+COMMIT round trip : {med['raw']:8.0f} us")
    print(f"tether step on Postgres  : {med['step']:8.0f} us  (async no-op step)")
    print(f"ratio                    : {med['ratio']:8.2f}x  (target <= 2x; rounds: {spread})")
    print(
        f"sync no-op step          : {med['sync step']:8.0f} us  "
        f"({med['sync step'] / med['raw']:.2f}x; the engine runs sync steps in a thread)"
    )
    print(f"1-step workflows, {args.runs} runs started by clients in this process:")
    for n in (int(w) for w in args.workers.split(",")):
        rate = asyncio.run(throughput(args.url, n, args.runs))
        print(f"  {n} worker process{'es' if n > 1 else '  '} : {rate:8.0f} runs/s")
    elapsed = asyncio.run(recovery(args.url, args.recovery_runs))
    print(f"{args.recovery_runs} runs killed mid-step: all finished {elapsed:.3f} s after a "
          "fresh worker started (target <= 0.3 s)")  # fmt: skip


if __name__ == "__main__":
    main()
