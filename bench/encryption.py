"""Encryption at rest: per-step cost with and without a key, and a 10 MB payload step.

    python bench/encryption.py [--postgres URL] [--runs N] [--steps N]

1. per-step cost of a 1000-step workflow (each step returns a ~200-byte value), on
   SQLite and on Postgres, without a key and with one; the ratio encrypted / plain of
   each round (plain and encrypted run back to back, taking turns going first), and
   the median of those ratios over 15 rounds (8 rounds of 300 steps gave medians from
   1.08x to 1.27x on one quiet machine within minutes: too few samples for a 15% bound);
2. a step whose output is 10 MB (offloaded to the attachment store, encrypted), against
   writing the same 10 MB to the (unencrypted) attachment store directly.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import tether
from tether.stores import EnvKeyProvider, make_attachment_ref, open_backend

registry = tether.Registry(deployment="bench-enc")
VALUE = {"text": "x" * 150, "n": 1}
TEN_MB = os.urandom(10 * 1024 * 1024)


async def small(i: int) -> dict[str, Any]:
    return {**VALUE, "n": i}


async def large() -> bytes:
    return TEN_MB


@registry.workflow(name="steps")
async def steps(ctx: tether.WorkflowContext, n: int) -> int:
    for i in range(n):
        await ctx.step(small, i, name="s")
    return n


@registry.workflow(name="large")
async def large_wf(ctx: tether.WorkflowContext) -> int:
    out = await ctx.step(large, name="large")
    return len(out)


async def per_step(url: str, keys: Any, n: int = 100, **options: Any) -> float:
    async with open_backend(url, keys=keys, **options) as backend:
        async with tether.Worker(backend, registry, concurrency=4):
            client = tether.Client(backend, registry=registry)
            await (await client.start(steps, 5)).result(timeout=60)  # warm up
            started = time.perf_counter()
            await (await client.start(steps, n)).result(timeout=120)
            return (time.perf_counter() - started) / n


async def large_step(url: str, keys: Any) -> tuple[float, float]:
    async with open_backend(url, keys=keys) as backend:
        inner = getattr(backend, "inner", backend).stores.attachments
        ref = make_attachment_ref(f"raw-{secrets.token_hex(4)}", TEN_MB, mime_type="x/y")
        started = time.perf_counter()
        await inner.put(stream_path="bench", conversation_id="c", ref=ref, data=TEN_MB)
        raw = time.perf_counter() - started
        async with tether.Worker(backend, registry, concurrency=1):
            client = tether.Client(backend, registry=registry)
            started = time.perf_counter()
            assert await (await client.start(large_wf)).result(timeout=120) == len(TEN_MB)
            step = time.perf_counter() - started
        return step, raw


def _pg(url: str) -> tuple[str, dict[str, Any], list[str]]:
    ns = f"bench_{secrets.token_hex(4)}"
    return url, {"namespace": ns, "pool_size": 4}, [ns, f"{ns}_keyring"]


def _drop(url: str, schemas: list[str]) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", default=os.environ.get("TETHER_BENCH_POSTGRES"))
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    keys = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    with tempfile.TemporaryDirectory() as tmp:
        targets: list[tuple[str, str, dict[str, Any], list[str]]] = []
        targets.append(("sqlite", f"sqlite:///{Path(tmp) / 'p.db'}", {}, []))
        targets.append(("sqlite+key", f"sqlite:///{Path(tmp) / 'e.db'}", {}, []))
        if args.postgres:
            url, opts, schemas = _pg(args.postgres)
            targets.append(("postgres", url, opts, schemas))
            url2, opts2, schemas2 = _pg(args.postgres)
            targets.append(("postgres+key", url2, opts2, schemas2))
        try:
            results: dict[str, list[float]] = {name: [] for name, *_ in targets}
            ratios: dict[str, list[float]] = {base: [] for base in ("sqlite", "postgres")}
            for round_ in range(args.runs):
                # Plain and encrypted take turns going first: whichever runs right after
                # another store's teardown pays for it, and that must not fall on one side.
                pairs = [targets[i : i + 2] for i in range(0, len(targets), 2)]
                for pair in pairs:
                    for name, url, opts, _schemas in pair if round_ % 2 == 0 else pair[::-1]:
                        k = keys if name.endswith("+key") else None
                        results[name].append(await per_step(url, k, n=args.steps, **opts))
                    base = pair[0][0]
                    ratios[base].append(results[base + "+key"][-1] / results[base][-1])
            print(f"per-step cost, {args.steps}-step workflow (median of {args.runs} runs)")
            for name in results:
                print(f"  {name:14s} {statistics.median(results[name]) * 1e6:8.0f} us")
            for base, rs in ratios.items():
                if rs:
                    spread = ", ".join(f"{r:.2f}" for r in rs)
                    print(
                        f"  {base}: encrypted / plain = {statistics.median(rs):.3f}x "
                        f"(median of the rounds' ratios: {spread}; target <= 1.15x)"
                    )
            steps_, raws = [], []
            for _ in range(3):
                step, raw = await large_step(f"sqlite:///{Path(tmp) / 'l.db'}", keys)
                steps_.append(step)
                raws.append(raw)
            s, r = statistics.median(steps_), statistics.median(raws)
            print(
                f"10 MB payload step (SQLite, encrypted, offloaded): {s * 1e3:.0f} ms; "
                f"10 MB attachment put: {r * 1e3:.0f} ms; ratio {s / r:.2f}x (target <= 2x)"
            )
        finally:
            for _name, url, _opts, schemas in targets:
                if schemas:
                    _drop(url, schemas)


if __name__ == "__main__":
    asyncio.run(main())
