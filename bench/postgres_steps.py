"""Per-step overhead of tether on Postgres next to one INSERT+COMMIT round trip.

Usage: python bench/postgres_steps.py [URL] [STEPS]
Prints both figures, measured in this run against the same server, and their ratio.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import time

import psycopg

import tether
from tether.stores.postgres import PostgresBackend

URL = sys.argv[1] if len(sys.argv) > 1 else "postgresql://postgres@127.0.0.1:5432/test"
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 500

registry = tether.Registry(deployment="bench")


def noop(i: int) -> int:
    return i


@registry.workflow(name="many_steps")
async def many_steps(ctx: tether.WorkflowContext, n: int) -> int:
    total = 0
    for i in range(n):
        total += await ctx.step(noop, i)
    return total


def insert_commit_us(n: int) -> float:
    with psycopg.connect(URL) as conn:
        conn.execute("CREATE TEMP TABLE bench_rt (k int primary key, v bytea)")
        conn.commit()
        for i in range(50):  # warm up, let the statement get prepared
            conn.execute("INSERT INTO bench_rt VALUES (%s, %s)", (-i - 1, b"x" * 64))
            conn.commit()
        started = time.perf_counter()
        for i in range(n):
            conn.execute("INSERT INTO bench_rt VALUES (%s, %s)", (i, b"x" * 64))
            conn.commit()
        return (time.perf_counter() - started) / n * 1e6


async def step_us(n: int) -> float:
    namespace = f"bench_{secrets.token_hex(4)}"
    backend = PostgresBackend(URL, namespace=namespace, pool_size=4)
    try:
        await backend.migrate()
        await backend.connect()
        async with tether.Worker(backend, registry, poll_interval=0.01):
            client = tether.Client(backend)
            await (await client.start(many_steps, 20)).result(timeout=60)  # warm up
            short = await client.start(many_steps, 1)
            t0 = time.perf_counter()
            await short.result(timeout=60)
            one = time.perf_counter() - t0
            handle = await client.start(many_steps, n)
            t0 = time.perf_counter()
            assert await handle.result(timeout=600) == n * (n - 1) // 2
            total = time.perf_counter() - t0
        # Subtract the fixed cost of a run (start, claim, finish) measured with one step.
        return (total - one) / (n - 1) * 1e6
    finally:
        await backend.close()
        with psycopg.connect(URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {namespace} CASCADE")


def main() -> None:
    rt = insert_commit_us(max(STEPS, 500))
    per_step = asyncio.run(step_us(STEPS))
    print(f"INSERT+COMMIT round trip : {rt:8.0f} us")
    print(f"tether step on Postgres  : {per_step:8.0f} us  ({STEPS} steps in one run)")
    print(f"ratio                    : {per_step / rt:8.1f}x")


if __name__ == "__main__":
    main()
