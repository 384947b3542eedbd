"""Engine benchmark on SQLite (WAL, synchronous=FULL). Prints medians and ratios from one run.

    python bench/engine.py

1. one raw durable SQLite commit (INSERT + COMMIT, WAL, FULL) — the yardstick;
2. per-step cost of sequential workflows of 1, 10 and 100 steps, and the marginal cost
   of one more step (async, and a sync def step run on a step thread), each as a ratio
   to the raw commit;
3. 1-step workflows (a def step) per second, start + result, 1 and 32 callers, started
   through the queue (Client) and eagerly on the worker (Worker.client);
4. time from worker start until 200 runs, each SIGKILLed mid-step, have all finished.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tether

registry = tether.Registry(deployment="bench")


def noop(i: int) -> int:
    return i


async def anoop(i: int) -> int:
    return i


def hang_first(i: int) -> int:
    info = tether.step_info()
    if info.attempt == 1:
        ready = os.environ.get("BENCH_READY_DIR")
        if ready:
            Path(ready, info.run_id).touch()
        time.sleep(3600)
    return i


@registry.workflow(name="steps")
async def steps(ctx: tether.WorkflowContext, n: int) -> int:
    for i in range(n):
        await ctx.step(anoop, i, name="s")
    return n


@registry.workflow(name="sync_steps")
async def sync_steps(ctx: tether.WorkflowContext, n: int) -> int:
    for i in range(n):
        await ctx.step(noop, i, name="s")
    return n


@registry.workflow(name="crashy")
async def crashy(ctx: tether.WorkflowContext) -> int:
    return await ctx.step(hang_first, 1)


def raw_commit(path: Path, n: int = 400) -> float:
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
    return statistics.median(times)


async def per_step(client: tether.Client, n: int, reps: int, workflow: Any = steps) -> float:
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        await (await client.start(workflow, n)).result(timeout=120)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


async def throughput(client: tether.Client, callers: int, total: int) -> float:
    async def one_caller(k: int) -> None:
        for _ in range(k):
            await (await client.start(sync_steps, 1)).result(timeout=120)

    t0 = time.perf_counter()
    await asyncio.gather(*(one_caller(total // callers) for _ in range(callers)))
    return (total // callers * callers) / (time.perf_counter() - t0)


async def recovery(tmp: Path, runs: int = 200) -> float:
    db = tmp / "recovery.db"
    ready = tmp / "ready"
    ready.mkdir()
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        client = tether.Client(backend)
        handles = [await client.start(crashy) for _ in range(runs)]
    bench_dir = str(Path(__file__).parent)
    code = (
        f"import asyncio, sys; sys.path.insert(0, {bench_dir!r}); import engine, tether\n"
        "async def main():\n"
        f"    async with tether.open_backend({'sqlite:///' + str(db)!r}) as b:\n"
        f"        await tether.Worker(b, engine.registry, concurrency={runs}).run_forever()\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], env={**os.environ, "BENCH_READY_DIR": str(ready)}
    )
    while len(os.listdir(ready)) < runs:  # noqa: ASYNC110 - another process signals by files
        await asyncio.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    async with tether.open_backend(f"sqlite:///{db}") as backend:
        t0 = time.perf_counter()
        async with tether.Worker(backend, registry, concurrency=runs, poll_interval=0.01):
            # All finished: counted from a connection of its own, one cheap query per
            # look (reading 200 results one by one would time the reads, not the
            # recovery).
            counter = sqlite3.connect(db)
            count = "SELECT count(*) FROM tether_runs WHERE status = 'completed'"
            while counter.execute(count).fetchone()[0] < runs:  # noqa: ASYNC110
                await asyncio.sleep(0.005)
            elapsed = time.perf_counter() - t0
            counter.close()
            client = tether.Client(backend)
            assert [await (await client.get(h.run_id)).result(timeout=1) for h in handles] == [
                1
            ] * runs
            return elapsed


async def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="tether-bench-"))
    commit = raw_commit(tmp / "raw.db")
    print(f"raw durable SQLite commit (WAL, FULL): {commit * 1e6:8.1f} us  (median of 400)")
    async with tether.open_backend(f"sqlite:///{tmp}/bench.db") as backend:
        async with tether.Worker(backend, registry, concurrency=32, poll_interval=0.01) as worker:
            client = tether.Client(backend)
            await per_step(client, 10, 3)  # warm-up
            results = {
                n: await per_step(client, n, reps) for n, reps in ((1, 30), (10, 15), (100, 5))
            }
            for n, t in results.items():
                print(
                    f"workflow of {n:3d} steps: {t / n * 1e6:8.1f} us per step "
                    f"= {t / n / commit:5.2f} x raw commit  (whole run {t * 1e3:.2f} ms)"
                )
            marginal = (results[100] - results[10]) / 90
            print(
                f"marginal cost of one more step:  {marginal * 1e6:8.1f} us "
                f"= {marginal / commit:5.2f} x raw commit"
            )
            sync = (
                await per_step(client, 100, 5, sync_steps)
                - await per_step(client, 10, 15, sync_steps)
            ) / 90
            print(
                f"marginal cost of a sync (def) step: {sync * 1e6:5.1f} us "
                f"= {sync / commit:5.2f} x raw commit  (its body runs on a step thread)"
            )
            print("1-step workflows (a def step), start + result:")
            for label, starter in (
                ("Client (queue)", client),
                ("Worker.client (eager)", worker.client),
            ):
                for callers in (1, 32):
                    rate = await throughput(starter, callers, 320 if callers > 1 else 200)
                    print(f"  {label:22s} {callers:2d} caller(s): {rate:8.0f} /s")
    elapsed = await recovery(tmp)
    print(f"200 runs killed mid-step: all finished {elapsed:.3f} s after worker start")


if __name__ == "__main__":
    asyncio.run(main())
