"""Flow control on Postgres: a rate limit held by 4 worker processes, and a claim's cost.

Usage: python bench/flow_control.py [URL] [--rate N] [--seconds S] [--workers 4]
       [--burst B] [--claims M]

Prints, measured in this run against the same server:
- the rate: a limit of ``per_second=N`` on a one-step workflow, ``N * (S + 1)`` runs
  queued before the worker processes start, each worker running up to 16 at once. Each
  run's step stamps the wall clock when it starts (one host, one clock). The achieved
  rate is the starts less one over the time from the first to the last, and its
  deviation from N; the same after the first second, and the most starts in any
  one-second window (tokens earned while claims lag are spent later, up to the burst);
- the per-claim cost of a limit against no limit: M runs claimed one at a time by
  ``claim_next`` and by ``claim_flow`` under a policy whose limits never hold anything
  back (concurrency 10^6, 10^6 per second), each claim acknowledged at once, so both
  take the same messages; the medians of the two, and their ratio. The machine is
  shared and noisy: the two are measured in alternating rounds.
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
import time

import psycopg
from psycopg import sql

import tether
from tether.stores import FlowLimit, FlowPolicy, NewRun

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"

registry = tether.Registry(deployment="bench-flow")
_RATE = float(os.environ.get("BENCH_FLOW_RATE", "50"))
_BURST = os.environ.get("BENCH_FLOW_BURST")
registry.limit("pace", per_second=_RATE, burst=int(_BURST) if _BURST else None)


async def stamp() -> float:
    return time.time()


@registry.workflow(name="paced", limits=["pace"])
async def paced(ctx: tether.WorkflowContext) -> float:
    started: float = await ctx.step(stamp)
    return started


def drop(url: str, namespace: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace)))


async def serve(url: str, namespace: str) -> None:
    """A worker process (``--serve``)."""
    async with tether.open_backend(url, namespace=namespace, pool_size=4) as backend:
        await tether.Worker(backend, registry, concurrency=16, poll_interval=0.05).run_forever()


async def measure_rate(url: str, rate: float, seconds: float, workers: int, burst: str) -> None:
    namespace = f"bench_{secrets.token_hex(4)}"
    total = int(rate * (seconds + 1))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        async with tether.open_backend(url, namespace=namespace, pool_size=4) as backend:
            client = tether.Client(backend, registry=registry)
            handles = [await client.start(paced) for _ in range(total)]
            env = {**os.environ, "BENCH_FLOW_RATE": str(rate), "BENCH_FLOW_BURST": burst}
            for _ in range(workers):
                procs.append(
                    subprocess.Popen([sys.executable, __file__, url, "--serve", namespace], env=env)
                )
            starts = sorted([await h.result(timeout=seconds * 10 + 60) for h in handles])
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        drop(url, namespace)
    first = starts[0]
    span = starts[-1] - first
    achieved = (len(starts) - 1) / span
    steady = [s for s in starts if s >= first + 1.0]
    later = (len(steady) - 1) / (steady[-1] - steady[0])
    print(
        f"rate limit {rate:g}/s (burst {burst or 'default'}), {workers} worker processes, "
        f"{total} runs over {span:.2f} s"
    )
    print(f"  achieved: {achieved:.2f}/s (deviation {100 * (achieved - rate) / rate:+.2f}%)")
    print(f"  after the first second: {later:.2f}/s ({100 * (later - rate) / rate:+.2f}%)")
    busiest = max(sum(1 for s in starts if t <= s < t + 1.0) for t in starts)
    print(f"  most starts in any one-second window: {busiest}")


async def measure_claims(url: str, claims: int, rounds: int) -> None:
    namespace = f"bench_{secrets.token_hex(4)}"
    policy = FlowPolicy(
        limits={"wide": FlowLimit(name="wide", concurrency=10**6, per_second=1e6, burst=10**6)},
        workflows={"wf": ("wide",)},
    )
    plain: list[float] = []
    limited: list[float] = []
    try:
        async with tether.open_backend(url, namespace=namespace, pool_size=4) as backend:
            store = backend.stores.workflow
            for r in range(rounds):
                for kind in ("plain", "limited") if r % 2 == 0 else ("limited", "plain"):
                    queue = f"{kind}-{r}"
                    for n in range(claims):
                        await store.create_run(
                            NewRun(
                                run_id=f"{queue}-{n}",
                                workflow_name="wf",
                                input=b"null",
                                deployment="d",
                                engine_version="e",
                                queue=queue,
                            )
                        )
                    times: list[float] = []
                    for _ in range(claims):
                        sent = time.perf_counter()
                        if kind == "plain":
                            got = await store.claim_next(
                                queue, owner="bench", lease_seconds=30, limit=1
                            )
                        else:
                            got = list(
                                (
                                    await store.claim_flow(
                                        queue,
                                        owner="bench",
                                        lease_seconds=30,
                                        limit=1,
                                        policy=policy,
                                    )
                                ).claimed
                            )
                        times.append(time.perf_counter() - sent)
                        assert len(got) == 1
                        await store.ack(got[0][0].message_id, owner="bench")
                    (plain if kind == "plain" else limited).append(statistics.median(times))
    finally:
        drop(url, namespace)
    p, f = statistics.median(plain), statistics.median(limited)
    print(f"per-claim cost, {claims} claims x {rounds} rounds, one at a time (median of rounds)")
    print(f"  claim_next (no limit):  {p * 1e3:.3f} ms")
    print(f"  claim_flow (a limit):   {f * 1e3:.3f} ms")
    print(f"  ratio: {f / p:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", default=DEFAULT_URL)
    parser.add_argument("--serve", metavar="NAMESPACE", help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--burst", default="", help="bucket size (default: one second's worth)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--claims", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.url, args.serve))
        return
    asyncio.run(measure_rate(args.url, args.rate, args.seconds, args.workers, args.burst))
    asyncio.run(measure_claims(args.url, args.claims, args.rounds))


if __name__ == "__main__":
    main()
