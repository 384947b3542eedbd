"""Step-level limits on Postgres: a step's rate limit held by 4 worker processes.

Usage: python bench/step_limits.py [URL] [--rate N] [--seconds S] [--workers 4]
       [--burst B] [--concurrency C]

Prints, measured in this run against the same server:
- the rate: a limit of ``per_second=N`` named by one step (``ctx.step(fn, limit=...)``)
  of an unlimited workflow, ``N * (S + 1)`` runs queued before the worker processes
  start, each worker running up to 16 at once, so every worker has steps waiting on the
  limit at once. Each step stamps the wall clock when it starts (one host, one clock).
  The achieved rate is the starts less one over the time from the first to the last,
  printed as a ratio to N; the same after the first second; and the most starts in any
  one-second window (tokens earned while waiters lag are spent later, up to the burst);
- the concurrency: a limit of ``concurrency=C`` named by a step that sleeps 20 ms, the
  most step bodies seen running at once across the workers (from the same stamps).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import subprocess
import sys
import time

import psycopg
from psycopg import sql

import tether

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"

registry = tether.Registry(deployment="bench-step-limits")
_RATE = float(os.environ.get("BENCH_STEP_RATE", "50"))
_BURST = os.environ.get("BENCH_STEP_BURST")
registry.limit("api", per_second=_RATE, burst=int(_BURST) if _BURST else None)
registry.limit("slots", concurrency=int(os.environ.get("BENCH_STEP_SLOTS", "2")))


async def stamp() -> float:
    return time.time()


async def occupy() -> tuple[float, float]:
    began = time.time()
    await asyncio.sleep(0.02)
    return began, time.time()


@registry.workflow(name="rated")
async def rated(ctx: tether.WorkflowContext) -> float:
    started: float = await ctx.step(stamp, limit="api")
    return started


@registry.workflow(name="slotted")
async def slotted(ctx: tether.WorkflowContext) -> tuple[float, float]:
    span: tuple[float, float] = await ctx.step(occupy, limit="slots")
    return span


def drop(url: str, namespace: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace)))


async def serve(url: str, namespace: str) -> None:
    """A worker process (``--serve``)."""
    async with tether.open_backend(url, namespace=namespace, pool_size=4) as backend:
        await tether.Worker(backend, registry, concurrency=16, poll_interval=0.05).run_forever()


async def _run_all(
    url: str, workflow: object, total: int, workers: int, env: dict[str, str], timeout: float
) -> list[object]:
    namespace = f"bench_{secrets.token_hex(4)}"
    procs: list[subprocess.Popen[bytes]] = []
    try:
        async with tether.open_backend(url, namespace=namespace, pool_size=4) as backend:
            client = tether.Client(backend, registry=registry)
            handles = [await client.start(workflow) for _ in range(total)]  # type: ignore[call-overload]
            full = {**os.environ, **env}
            for _ in range(workers):
                procs.append(
                    subprocess.Popen(
                        [sys.executable, __file__, url, "--serve", namespace], env=full
                    )
                )
            return [await h.result(timeout=timeout) for h in handles]
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        drop(url, namespace)


async def measure_rate(url: str, rate: float, seconds: float, workers: int, burst: str) -> None:
    total = int(rate * (seconds + 1))
    env = {"BENCH_STEP_RATE": str(rate), "BENCH_STEP_BURST": burst}
    got = await _run_all(url, rated, total, workers, env, seconds * 10 + 60)
    starts = sorted(float(s) for s in got)  # type: ignore[arg-type]
    first = starts[0]
    span = starts[-1] - first
    achieved = (len(starts) - 1) / span
    steady = [s for s in starts if s >= first + 1.0]
    later = (len(steady) - 1) / (steady[-1] - steady[0])
    print(
        f"step rate limit {rate:g}/s (burst {burst or 'default'}), {workers} worker processes, "
        f"{total} steps over {span:.2f} s"
    )
    print(f"  achieved: {achieved:.2f}/s, ratio {achieved / rate:.4f}")
    print(f"  after the first second: {later:.2f}/s, ratio {later / rate:.4f}")
    busiest = max(sum(1 for s in starts if t <= s < t + 1.0) for t in starts)
    print(f"  most starts in any one-second window: {busiest}")


async def measure_slots(url: str, slots: int, total: int, workers: int) -> None:
    env = {"BENCH_STEP_SLOTS": str(slots)}
    started = time.perf_counter()
    got = await _run_all(url, slotted, total, workers, env, 120)
    took = time.perf_counter() - started
    points = sorted(
        (at, step)
        for span in got
        for at, step in ((span[0], 1), (span[1], -1))  # type: ignore[index]
    )
    now = peak = 0
    for _, step in points:
        now += step
        peak = max(peak, now)
    print(f"step concurrency limit {slots}, {workers} worker processes, {total} steps of 20 ms")
    print(f"  most bodies running at once: {peak} (limit {slots}); {took:.2f} s in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", default=DEFAULT_URL)
    parser.add_argument("--serve", metavar="NAMESPACE", help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--burst", default="", help="bucket size (default: one second's worth)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.url, args.serve))
        return
    asyncio.run(measure_rate(args.url, args.rate, args.seconds, args.workers, args.burst))
    asyncio.run(measure_slots(args.url, args.concurrency, args.steps, args.workers))


if __name__ == "__main__":
    main()
