"""Resume cost against a run's age, with and without continue-as-new. Ratios from one run.

    python bench/chain.py [--postgres URL] [--messages 1050] [--every 50]

A long-lived run (a session, say) takes one message at a time on a hook, runs one step
per message, and parks. Each message reactivates the run: the store loads its log and
the body replays every step so far before it reaches the new one, so the cost of a
message grows with the run's age. Continuing as new every N messages keeps each run's
log short. Printed, on SQLite (WAL, FULL) and on Postgres when a URL is given:

1. per-message cost (send -> the new step's body runs, the run parked before each
   send) over messages [10, 10+N) and [1000, 1000+N), medians, and their ratio: one
   run forever, kept warm by the worker (`Worker(cached_runs=...)`, the default) and
   replayed from its log at every message (``cached_runs=0``), and with
   ``ctx.continue_as_new`` every N messages (the target is a ratio <= 1.5);
2. reactivating a parked run from its log (``cached_runs=0``) whose log holds ~100,
   ~1,000 and ~10,000 events: the median time from the payload to its step's body,
   per event, and the ratio of the 10,000-event run to the 100-event one.
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

registry = tether.Registry(deployment="bench-chain")
#: message number -> future the step body resolves (this process runs the worker).
arrivals: dict[int, asyncio.Future[float]] = {}


async def handle(count: int, message: int) -> int:
    future = arrivals.get(message)
    if future is not None and not future.done():
        future.set_result(time.perf_counter())
    return count + 1


async def fill(i: int, document: str) -> int:
    return i


@registry.workflow(name="session")
async def session(ctx: tether.WorkflowContext, count: int, every: int) -> int:
    inbox = ctx.create_hook(token=f"inbox-{ctx.chain_id}")
    while True:
        message = await inbox
        if message is None:
            return count
        count = await ctx.step(handle, count, message, name="handle")
        if every and count % every == 0:
            await ctx.continue_as_new(count, every)


@registry.workflow(name="long")
async def long(ctx: tether.WorkflowContext, steps: int, document: str) -> int:
    for i in range(steps):
        await ctx.step(fill, i, document, name="fill")  # a step input replay never reads
    inbox = ctx.create_hook(token=f"inbox-{ctx.run_id}")
    while True:
        message = await inbox
        if message is None:
            return steps
        await ctx.step(handle, 0, message, name="handle")


async def parked(store: tether.stores.WorkflowStore, chain: str) -> None:
    while True:
        run = await store.latest_run(chain)
        if run is not None and run.lease_owner is None and run.status == "running":
            return
        await asyncio.sleep(0.0005)


async def send(client: tether.Client, token: str, message: int) -> tuple[float, float]:
    """Send one message (the run parked); wall and process CPU seconds to its step's body.

    The worker runs in this process, so the CPU time is the engine's and the store
    client's (SQLite's own work included), which other load on the machine disturbs
    far less than the wall time.
    """
    arrival = arrivals[message] = asyncio.get_running_loop().create_future()
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    await client.resume_hook(token, message)
    try:
        arrived = await asyncio.wait_for(arrival, 60)
    finally:
        arrivals.pop(message, None)
    return arrived - t0, time.process_time() - cpu0


def medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


async def per_message(
    client: tether.Client, every: int, messages: int, window: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    chain = f"s{every}-{secrets.token_hex(3)}"
    store = client.backend.stores.workflow
    handle_ = await client.start(session, 0, every, run_id=chain)
    await parked(store, chain)
    early: list[tuple[float, float]] = []
    late: list[tuple[float, float]] = []
    for k in range(1, messages + 1):
        await parked(store, chain)
        took = await send(client, f"inbox-{chain}", k)
        if 10 <= k < 10 + window:
            early.append(took)
        if 1000 <= k < 1000 + window:
            late.append(took)
    await parked(store, chain)
    await client.resume_hook(f"inbox-{chain}", None)
    await handle_.result(timeout=60)
    return medians(early), medians(late)


async def reactivation(
    client: tether.Client, steps: int, reps: int = 7, document: str = ""
) -> tuple[tuple[float, float], int]:
    run_id = f"long{steps}-{secrets.token_hex(3)}"
    store = client.backend.stores.workflow
    handle_ = await client.start(long, steps, document, run_id=run_id)
    await parked(store, run_id)
    samples = []
    for k in range(reps):
        await parked(store, run_id)
        samples.append(await send(client, f"inbox-{run_id}", k))
    await parked(store, run_id)
    run = await store.get_run(run_id)
    assert run is not None
    await client.resume_hook(f"inbox-{run_id}", None)
    await handle_.result(timeout=120)
    return medians(samples), run.head


def ms(pair: tuple[float, float]) -> str:
    return f"{pair[0] * 1e3:7.2f} ms ({pair[1] * 1e3:6.2f} CPU)"


async def bench(label: str, url: str, options: dict[str, Any], args: argparse.Namespace) -> None:
    async with tether.open_backend(url, **options) as backend:
        client = tether.Client(backend, registry=registry)
        print(f"\n== {label}")
        window = args.every
        rows = []
        # The worker keeps a run it parked warm (suspended where it waits) unless told
        # not to: "replayed" is every message reactivating the run from its log.
        for name, every, cached in (
            ("one run forever, kept warm", 0, None),
            ("one run forever, replayed", 0, 0),
            (f"continue_as_new every {args.every}", args.every, None),
        ):
            async with tether.Worker(backend, registry, poll_interval=0.01, cached_runs=cached):
                rows.append((name, await per_message(client, every, args.messages, window)))
        print(
            f"per message, medians over messages [10, {10 + window}) and "
            f"[1000, {1000 + window}), wall (process CPU), and the ratios late / early:"
        )
        for name, (early, late) in rows:
            print(
                f"  {name:<34} {ms(early)} -> {ms(late)}   ratio {late[0] / early[0]:5.2f} "
                f"wall, {late[1] / early[1]:5.2f} CPU"
            )
        print("reactivating a parked run from its log (payload -> its step's body), median of 7:")
        base = None
        async with tether.Worker(backend, registry, poll_interval=0.01, cached_runs=0):
            for steps in (50, 500, 5000):
                took, events = await reactivation(client, steps)
                base = base or (took, events)
                print(
                    f"  {events:6d} events  {ms(took)}  {took[1] / events * 1e6:6.2f} us CPU "
                    f"per event  x{took[1] / base[0][1]:6.1f} the {base[1]}-event run"
                )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", default=None, help="a Postgres URL (skipped without)")
    parser.add_argument("--messages", type=int, default=1050)
    parser.add_argument("--every", type=int, default=50)
    args = parser.parse_args()
    if args.messages < 1000 + args.every:
        sys.exit("--messages must reach the second window: at least 1000 + --every")
    with tempfile.TemporaryDirectory() as tmp:
        await bench("SQLite (WAL, synchronous=FULL)", f"sqlite:///{Path(tmp)}/b.db", {}, args)
    if args.postgres:
        namespace = f"bench_chain_{secrets.token_hex(4)}"
        try:
            await bench("Postgres", args.postgres, {"namespace": namespace}, args)
        finally:
            import psycopg
            from psycopg import sql

            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace))
                )


if __name__ == "__main__":
    asyncio.run(main())
