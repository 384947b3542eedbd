"""What dev mode and dry replay cost. Medians and ratios from one run.

    python bench/dev_mode.py [--postgres URL] [--sends 1000] [--runs 200]

Printed, on SQLite (WAL, FULL) and on Postgres when a URL is given:

1. `Client.resume_hook` to a parked run against the store's `resume_hook` alone (given
   the payload already encoded), interleaved A/B in one process, medians per call,
   ratios: from one client (its dormancy check reads the workers every 2 s at most,
   and finds no dev generation's), and from a new client per call (that read every
   time);
2. `check_runs` (the dry replay `tether check-deploy` does) over N parked runs of 20
   steps each: total time and per-run median;
3. (SQLite) `tether dev` as real processes: from a code change to its generation
   serving new runs, and a new run's start to its first step under `tether dev` (moved
   to the generation first) against under `tether worker`, medians of 20.
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
from tether._codec import encode
from tether.durable import check_runs, replay_run

registry = tether.Registry(deployment="bench-dev")


def add(a: int, b: int) -> int:
    return a + b


@registry.workflow(name="inbox")
async def inbox(ctx: tether.WorkflowContext) -> None:
    hook = ctx.create_hook(token=f"in-{ctx.run_id}")
    await hook.wait_beyond(10**9)


@registry.workflow(name="twenty")
async def twenty(ctx: tether.WorkflowContext) -> int:
    total = 0
    for i in range(20):
        total = await ctx.step(add, total, i, name=f"add{i % 5}")
    await ctx.create_hook(token=f"t-{ctx.run_id}")
    return total


async def _parked(backend: Any, token: str) -> None:
    for _ in range(2000):
        if await backend.stores.workflow.get_hook(token) is not None:
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"{token} never parked")


async def sends(backend: Any, count: int) -> tuple[float, float, float]:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02):
        await client.start(inbox, run_id="box")
        await _parked(backend, "in-box")
    store = backend.stores.workflow
    checked: list[float] = []
    fresh: list[float] = []
    bare: list[float] = []
    payload = encode({"n": 1}, what="payload")
    for _ in range(count):
        t = time.perf_counter()
        await client.resume_hook("in-box", {"n": 1})
        checked.append(time.perf_counter() - t)
        first = tether.Client(backend)
        t = time.perf_counter()
        await first.resume_hook("in-box", {"n": 1})
        fresh.append(time.perf_counter() - t)
        t = time.perf_counter()
        await store.resume_hook("in-box", payload)
        bare.append(time.perf_counter() - t)
    return statistics.median(checked), statistics.median(fresh), statistics.median(bare)


async def replays(backend: Any, runs: int) -> tuple[float, float, int]:
    client = tether.Client(backend, registry=registry)
    async with tether.Worker(backend, registry, poll_interval=0.02, concurrency=32):
        for i in range(runs):
            await client.start(twenty, run_id=f"t{i}")
        for i in range(runs):
            await _parked(backend, f"t-t{i}")
    t = time.perf_counter()
    reports = await check_runs(backend, registry)
    total = time.perf_counter() - t
    assert all(r.ok and r.replayed == 21 for r in reports if r.workflow_name == "twenty")
    per: list[float] = []
    for i in range(min(runs, 50)):
        t = time.perf_counter()
        await replay_run(backend, registry, f"t{i}")
        per.append(time.perf_counter() - t)
    return total, statistics.median(per), len(reports)


async def one(label: str, url: str, options: dict[str, Any], args: argparse.Namespace) -> None:
    async with tether.open_backend(url, **options) as backend:
        checked, fresh, bare = await sends(backend, args.sends)
        print(
            f"{label}: resume_hook {bare * 1e6:.0f} us bare; Client.resume_hook "
            f"{checked * 1e6:.0f} us from one client ({checked / bare:.2f}x), "
            f"{fresh * 1e6:.0f} us from a new client each ({fresh / bare:.2f}x); "
            f"medians of {args.sends}"
        )
        total, per, n = await replays(backend, args.runs)
        print(
            f"{label}: check_runs over {n} unfinished runs (20 steps + a hook each) "
            f"{total * 1000:.0f} ms; one dry replay {per * 1000:.2f} ms (median)"
        )


APP = """
import tether

registry = tether.Registry(deployment="bench")
VERSION = {version}


def first(n: int) -> int:
    return n + VERSION


@registry.workflow(name="job")
async def job(ctx: tether.WorkflowContext, n: int) -> None:
    await ctx.step(first, n, name="first")
    await ctx.create_hook(token=f"go-{{ctx.chain_id}}")
"""


def _read(out: Path) -> str:
    return out.read_text(errors="replace")


async def _wait_line(out: Path, text: str, after: int = 0, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _read(out).count(text) > after:
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"no {text!r} in {_read(out)}")


async def _first_steps(url: str, runs: int, prefix: str) -> float:
    """Median seconds from `client.start` to the run's first step completed."""
    import tether.stores

    client_registry = tether.Registry(deployment="bench")

    @client_registry.workflow(name="job")
    async def job(ctx: tether.WorkflowContext, n: int) -> None: ...

    took = []
    async with tether.open_backend(url) as backend:
        client = tether.Client(backend, registry=client_registry)
        for i in range(runs):
            t = time.perf_counter()
            await client.start("job", i, run_id=f"{prefix}{i}")
            for _ in range(30_000):
                if await backend.stores.workflow.get_hook(f"go-{prefix}{i}") is not None:
                    break
                await asyncio.sleep(0.002)
            took.append(time.perf_counter() - t)
    return statistics.median(took)


async def processes(runs: int) -> None:
    import signal
    import subprocess

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        (project / "app.py").write_text(APP.format(version=1))
        url = f"sqlite:///{project}/.tether/bench.db"
        out = project / "out.log"
        base = [sys.executable, "-m", "tether.cli"]
        with out.open("wb") as sink:
            worker = subprocess.Popen(
                [*base, "worker", "app:registry", "--db", url], cwd=project, stdout=sink
            )
            await _wait_line(out, "tether worker:")
            plain = await _first_steps(url, runs, "w")
            worker.send_signal(signal.SIGINT)
            worker.wait()
            dev = subprocess.Popen(
                [*base, "dev", "app:registry", "--db", url, "--poll", "0.1"],
                cwd=project,
                stdout=sink,
            )
            try:
                await _wait_line(out, "serving new runs")
                moved = await _first_steps(url, runs, "d")
                changes = []
                for version in range(2, 7):
                    t = time.perf_counter()
                    (project / "app.py").write_text(APP.format(version=version))
                    await _wait_line(out, "serving new runs", after=version - 1)
                    changes.append(time.perf_counter() - t)
            finally:
                dev.send_signal(signal.SIGINT)
                dev.wait()
    print(
        f"sqlite processes: start -> first step {plain * 1000:.1f} ms under tether worker, "
        f"{moved * 1000:.1f} ms under tether dev ({moved / plain:.2f}x; medians of {runs}); "
        f"code change -> new generation serving {statistics.median(changes) * 1000:.0f} ms "
        f"(median of {len(changes)}, --poll 0.1)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", default=None)
    parser.add_argument("--sends", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        await one("sqlite", f"sqlite:///{Path(tmp)}/dev.db", {}, args)
    await processes(20)
    if args.postgres:
        namespace = f"bench_{secrets.token_hex(4)}"
        try:
            await one("postgres", args.postgres, {"namespace": namespace}, args)
        finally:
            import psycopg
            from psycopg import sql

            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace))
                )


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
