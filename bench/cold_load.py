"""A long session's transcript loaded cold, from its fold checkpoint and from batch one.

A worker that holds no copy of a transcript (just started, another host's) or a read of
a session's history (`Session.transcript`, the inspector) folds the transcript's
batches into entries. This builds transcripts of N batches shaped like a session's (a
user message, a reply calling a tool, its result, the answer, its turn's end; one to
three entries a batch) and loads each cold through `Transcript.entries`:

- without a checkpoint (every batch read and folded);
- from a checkpoint a fifth of the batches behind the head (about the most the
  checkpoint cadence, `checkpoint_due`, leaves behind);
- from a checkpoint at the head (written by the session's producer, as a turn does).

It prints the median load time, the batches and checkpoints read, and the ratios to
the load without a checkpoint, on SQLite and encrypted SQLite (and PostgreSQL when
``TETHER_BENCH_PG`` names one, e.g. ``postgresql://postgres@127.0.0.1:5432/test``;
its schema is dropped after). Not a test: figures of one run on this machine.

    .venv/bin/python bench/cold_load.py [N ...]     # default: 2000 10000
"""

from __future__ import annotations

import asyncio
import base64
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tether.agent._records._cursor import Producer
from tether.agent._records._entries import (
    AssistantEntry,
    ToolCallEntry,
    ToolResultEntry,
    TurnEndEntry,
    UserEntry,
    entry_json,
)
from tether.agent._stored._fold import TranscriptFold, save_fold
from tether.agent._stored._transcript import Transcript, TranscriptCache
from tether.stores import EnvKeyProvider, Stores, StreamIdentity, open_backend

IDENTITY = StreamIdentity(agent_name="bench", instance_id="cold")
PATH = "agents/bench/cold"
REPEAT = 5


def batch(n: int) -> list[Any]:
    """The `n`-th batch of a session: a turn is four batches."""
    turn, part = divmod(n, 4)
    t = f"turn_{turn}"
    text = f"turn {turn}: " + "words of a conversation " * 8
    if part == 0:
        return [UserEntry(turn_id=t, submission_id=f"m{turn}", text=text)]
    if part == 1:
        call = ToolCallEntry(
            call_id=f"c{turn}", name="lookup", arguments={"q": text[:40]}, arguments_json="{}"
        )
        return [AssistantEntry(turn_id=t, step_index=0, call=0, tool_calls=(call,))]
    if part == 2:
        return [ToolResultEntry(turn_id=t, call_id=f"c{turn}", name="lookup", content=text * 2)]
    return [
        AssistantEntry(turn_id=t, step_index=1, call=1, text=text),
        TurnEndEntry(turn_id=t, outcome="completed"),
    ]


class Counted:
    """Counts the batches and checkpoints a store hands out."""

    def __init__(self, stores: Stores) -> None:
        self.batches = 0
        self.checkpoints = 0
        conversations: Any = stores.conversations
        read: Callable[..., Any] = conversations.read
        get: Callable[..., Any] = conversations.get_fold_checkpoint

        async def counted_read(path: str, **kwargs: Any) -> Any:
            page = await read(path, **kwargs)
            self.batches += len(page.batches)
            return page

        async def counted_get(path: str, **kwargs: Any) -> Any:
            found = await get(path, **kwargs)
            self.checkpoints += found is not None
            return found

        conversations.read = counted_read
        conversations.get_fold_checkpoint = counted_get

    def reset(self) -> None:
        self.batches = self.checkpoints = 0


async def cold_load(stores: Stores, counted: Counted, entries: int) -> tuple[float, int, int]:
    """Median seconds of a cold load, and the batches and checkpoints one reads."""
    times = []
    for _ in range(REPEAT):
        counted.reset()
        start = time.perf_counter()
        got = await Transcript(stores, PATH).entries()
        times.append(time.perf_counter() - start)
        assert len(got) == entries, (len(got), entries)
    return statistics.median(times), counted.batches, counted.checkpoints


async def one(url: str, n: int, **options: Any) -> dict[str, Any]:
    async with open_backend(url, **options) as backend:
        stores = backend.stores
        conversations = stores.conversations
        await conversations.create_stream(PATH, IDENTITY)
        claim = await conversations.acquire_producer(PATH, "session:cold")
        producer = Producer(
            path=PATH,
            producer_id=claim.producer_id,
            epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
        )
        behind = n - n // 5
        written: list[Any] = []
        fold: TranscriptFold | None = None
        for sequence in range(n):
            entries = batch(sequence)
            offset = await conversations.append(
                path=PATH,
                producer_id=claim.producer_id,
                producer_epoch=claim.producer_epoch,
                incarnation=claim.incarnation,
                producer_sequence=sequence,
                records=[entry_json(e) for e in entries],
            )
            written.extend(entries)
            if sequence + 1 == behind:
                fold = TranscriptFold(
                    offset=offset,
                    batches=behind,
                    entries=list(written),
                    sequences={(claim.producer_id, claim.producer_epoch): behind},
                )
        counted = Counted(stores)
        without = await cold_load(stores, counted, len(written))
        assert fold is not None
        assert await save_fold(stores, PATH, claim.incarnation, fold)
        tail = await cold_load(stores, counted, len(written))
        # The session's producer loads cold, folds the fifth past the checkpoint and
        # stores its fold at the head (the cadence says it is due).
        start = time.perf_counter()
        cache = TranscriptCache(checkpoints=True)
        await Transcript(stores, PATH, producer, cache).entries()
        producer_load = time.perf_counter() - start
        at_head = await cold_load(stores, counted, len(written))
        checkpoint = await conversations.get_fold_checkpoint(PATH)
        assert checkpoint is not None and cache.get(PATH) is not None
        size = len(checkpoint.data)
        assert at_head[2] == 1 and at_head[1] == 0, "the producer stored no checkpoint"
        return {
            "without": without,
            "tail": tail,
            "head": at_head,
            "producer": producer_load,
            "size": size,
            "entries": len(written),
        }


def show(name: str, n: int, r: dict[str, Any]) -> None:
    base = r["without"][0]
    print(f"\n{name}, {n} batches, {r['entries']} entries (checkpoint {r['size'] / 1e6:.2f} MB)")
    for label, key in (
        ("no checkpoint", "without"),
        ("checkpoint 1/5 behind", "tail"),
        ("checkpoint at head", "head"),
    ):
        seconds, batches, checkpoints = r[key]
        print(
            f"  {label:<22} {seconds * 1e3:8.1f} ms  {batches:6d} batches + "
            f"{checkpoints} checkpoint read   x{base / seconds:5.2f} faster, "
            f"{batches / max(r['without'][1], 1):.2f} of the batches"
        )
    print(f"  producer load that wrote the checkpoint at head: {r['producer'] * 1e3:.1f} ms")


async def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [2000, 10000]
    keys = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            kinds: list[tuple[str, str, dict[str, Any]]] = [
                ("SQLite", f"sqlite:///{Path(tmp) / f'plain-{n}.db'}", {}),
                ("SQLite, encrypted", f"sqlite:///{Path(tmp) / f'sealed-{n}.db'}", {"keys": keys}),
            ]
            pg = os.environ.get("TETHER_BENCH_PG")
            if pg:
                kinds.append(("PostgreSQL", pg, {"namespace": f"bench_cold_{n}_{os.getpid()}"}))
            for name, url, options in kinds:
                try:
                    show(name, n, await one(url, n, **options))
                finally:
                    if "namespace" in options:
                        drop(url, options["namespace"])


def drop(url: str, namespace: str) -> None:
    """Remove the bench's PostgreSQL schema."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(namespace)))


if __name__ == "__main__":
    asyncio.run(main())
