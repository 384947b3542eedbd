"""Agent stores on SQLite: append throughput and conversation load with/without a fold
checkpoint. Not a test: prints figures and ratios measured in one run.

    .venv/bin/python bench/agent_stores.py
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from tether.stores import FoldCheckpoint, ProducerClaim, StreamIdentity, open_backend

IDENTITY = StreamIdentity(agent_name="bench", instance_id="one")
RECENT = 20  # the fold keeps the last RECENT messages plus running totals


def fold(state: dict[str, Any], records: Any) -> None:
    for record in records:
        state["count"] += 1
        state["chars"] += len(record["text"])
        state["recent"] = [*state["recent"][-(RECENT - 1) :], record]


def empty_state() -> dict[str, Any]:
    return {"count": 0, "chars": 0, "recent": []}


def record(n: int) -> dict[str, Any]:
    return {"role": "user" if n % 2 else "assistant", "n": n, "text": f"message {n} " * 8}


async def append(streams: Any, claim: ProducerClaim, sequence: int, records: list[Any]) -> str:
    return await streams.append(  # type: ignore[no-any-return]
        path=claim.path,
        producer_id=claim.producer_id,
        producer_epoch=claim.producer_epoch,
        incarnation=claim.incarnation,
        producer_sequence=sequence,
        records=records,
    )


async def bench_appends(streams: Any, n: int) -> float:
    await streams.create_stream("agents/bench/appends", IDENTITY)
    claim = await streams.acquire_producer("agents/bench/appends", "p")
    start = time.perf_counter()
    for sequence in range(n):
        await append(streams, claim, sequence, [record(sequence)])
    return n / (time.perf_counter() - start)


async def build(streams: Any, path: str, records: int, checkpoint_tail: int) -> None:
    """A stream of `records` records in batches of 100, checkpointed `checkpoint_tail`
    records before the head (as a runtime checkpointing every so often would leave it)."""
    await streams.create_stream(path, IDENTITY)
    claim = await streams.acquire_producer(path, "p")
    state = empty_state()
    sequence = 0
    written = 0
    cut = records - checkpoint_tail
    while written < records:
        size = min(100, cut - written if written < cut else records - written)
        batch = [record(written + i) for i in range(size)]
        offset = await append(streams, claim, sequence, batch)
        sequence += 1
        written += size
        if written <= cut:
            fold(state, batch)
        if written == cut:
            await streams.put_fold_checkpoint(
                path,
                FoldCheckpoint(
                    head_offset=offset,
                    incarnation=claim.incarnation,
                    format_version=1,
                    data=orjson.dumps(state),
                ),
            )


async def load(streams: Any, path: str, *, use_checkpoint: bool) -> dict[str, Any]:
    state = empty_state()
    offset = "-1"
    if use_checkpoint:
        checkpoint = await streams.get_fold_checkpoint(path)
        meta = await streams.get_meta(path)
        if (
            checkpoint is not None
            and meta is not None
            and (checkpoint.incarnation == meta.incarnation and checkpoint.format_version == 1)
        ):
            state = orjson.loads(checkpoint.data)
            offset = checkpoint.head_offset
    while True:
        page = await streams.read(path, offset=offset, limit=1000)
        for batch in page.batches:
            fold(state, batch.records)
        offset = page.next_offset
        if page.up_to_date:
            return state


async def timed_load(streams: Any, path: str, *, use_checkpoint: bool, repeat: int = 51) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        state = await load(streams, path, use_checkpoint=use_checkpoint)
        times.append(time.perf_counter() - start)
    assert state["count"] == int(path.rsplit("-", 1)[1])
    return statistics.median(times)


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        async with open_backend(url) as backend:
            streams = backend.stores.conversations
            per_second = await bench_appends(streams, 2000)
            for size in (100, 10_000):
                await build(streams, f"agents/bench/conv-{size}", size, checkpoint_tail=10)
            loads = {
                (size, use): await timed_load(
                    streams, f"agents/bench/conv-{size}", use_checkpoint=use
                )
                for size in (100, 10_000)
                for use in (False, True)
            }
    print("SQLite (WAL, synchronous=FULL), one process")
    print(
        f"  appends of single-record batches, one stream: {per_second:,.0f}/s "
        f"({1e6 / per_second:,.0f} us each)"
    )
    print("  load a conversation (median of 51; checkpoint 10 records before the head):")
    for size in (100, 10_000):
        full, ckpt = loads[(size, False)], loads[(size, True)]
        print(
            f"    {size:>6,} records: full replay {full * 1e3:8.2f} ms, "
            f"with checkpoint {ckpt * 1e3:6.2f} ms  (x{full / ckpt:,.1f} faster)"
        )
    ratio = loads[(10_000, True)] / loads[(100, True)]
    print(f"  checkpointed load at 10,000 / at 100 records: {ratio:.2f}x")
    print(
        f"  full replay at 10,000 / at 100 records: "
        f"{loads[(10_000, False)] / loads[(100, False)]:.1f}x"
    )


if __name__ == "__main__":
    asyncio.run(main())
