"""Child processes for the cross-process and crash tests of the agent stores.

Run as ``python _agent_children.py MODE DB_PATH DIR``; each mode prints one JSON line.
Barrier and readiness signals are files in DIR.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tether.errors import FencedError
from tether.stores import SubmissionClaim, make_attachment_ref, open_backend
from tether.stores.sqlite import _conversations

PATH = "agents/helper/inst-1"


def wait_for(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} never appeared")
        time.sleep(0.002)


def pause_forever(signal_file: Path) -> None:
    signal_file.write_text("ready")
    while True:  # the parent SIGKILLs us here, inside the open write transaction
        time.sleep(1)


async def claim_race(db: str, folder: Path, name: str, count: int) -> dict[str, Any]:
    async with open_backend(f"sqlite:///{db}", migrate=False) as backend:
        store = backend.stores.submissions
        (folder / f"ready-{name}").write_text("")
        wait_for(folder / "go")
        won = []
        for n in range(count):
            claimed = await store.claim_submission(
                SubmissionClaim(
                    submission_id=f"s{n}",
                    attempt_id=f"{name}-{n}",
                    owner_id=name,
                    lease_expires_at=time.time() + 30,
                )
            )
            if claimed is not None:
                won.append(claimed.submission_id)
        return {"won": won}


async def produce(db: str, folder: Path, name: str, limit: int) -> dict[str, Any]:
    async with open_backend(f"sqlite:///{db}", migrate=False) as backend:
        streams = backend.stores.conversations
        if name == "second":
            wait_for(folder / "first-appending")
        claim = await streams.acquire_producer(PATH, name)
        appended = 0
        try:
            for sequence in range(limit):
                await streams.append(
                    path=PATH,
                    producer_id=name,
                    producer_epoch=claim.producer_epoch,
                    incarnation=claim.incarnation,
                    producer_sequence=sequence,
                    records=[{"by": name, "n": sequence}],
                )
                appended += 1
                if name == "first" and appended == 20:
                    (folder / "first-appending").write_text("")
        except FencedError:
            return {"appended": appended, "fenced": True, "epoch": claim.producer_epoch}
        return {"appended": appended, "fenced": False, "epoch": claim.producer_epoch}


async def put_attachment(db: str, folder: Path, name: str) -> dict[str, Any]:
    data = bytes(range(256)) * 6000  # about 1.5 MB: three chunks
    ref = make_attachment_ref("shared", data, mime_type="application/octet-stream")
    async with open_backend(f"sqlite:///{db}", migrate=False) as backend:
        (folder / f"ready-{name}").write_text("")
        wait_for(folder / "go")
        await backend.stores.attachments.put(
            stream_path=PATH, conversation_id="conv", ref=ref, data=data
        )
    return {"ok": True}


async def crash_append(db: str, folder: Path, big: bool) -> dict[str, Any]:
    signal_file = folder / "in-write"
    if big:
        original_chunks = _conversations.insert_chunks

        def chunks_then_pause(conn: Any, sql: str, rows: Any) -> None:
            rows = list(rows)
            original_chunks(conn, sql, iter(rows[:2]))
            pause_forever(signal_file)

        _conversations.insert_chunks = chunks_then_pause
        records = [{"n": n, "text": "x" * 400_000} for n in range(6)]  # about 2.4 MB
    else:
        original_insert = _conversations._Tx.insert_batch

        def insert_then_pause(self: Any, batch: Any) -> None:
            original_insert(self, batch)  # batch row written, stream head not yet moved
            pause_forever(signal_file)

        _conversations._Tx.insert_batch = insert_then_pause  # type: ignore[method-assign]
        records = [{"n": n} for n in range(5)]
    async with open_backend(f"sqlite:///{db}", migrate=False) as backend:
        streams = backend.stores.conversations
        claim = await streams.acquire_producer(PATH, "crasher")
        await streams.append(
            path=PATH,
            producer_id="crasher",
            producer_epoch=claim.producer_epoch,
            incarnation=claim.incarnation,
            producer_sequence=0,
            records=records,
        )
    return {"unreachable": True}


async def crash_put(db: str, folder: Path) -> dict[str, Any]:
    from tether.stores.sqlite import _attachments

    original_chunks = _attachments.insert_chunks

    def chunks_then_pause(conn: Any, sql: str, rows: Any) -> None:
        rows = list(rows)
        original_chunks(conn, sql, iter(rows[:1]))
        pause_forever(folder / "in-write")

    _attachments.insert_chunks = chunks_then_pause
    data = b"\x07" * 1_200_000
    ref = make_attachment_ref("doomed", data, mime_type="application/octet-stream")
    async with open_backend(f"sqlite:///{db}", migrate=False) as backend:
        await backend.stores.attachments.put(
            stream_path=PATH, conversation_id="conv", ref=ref, data=data
        )
    return {"unreachable": True}


def main() -> None:
    mode, db, folder_arg, *rest = sys.argv[1:]
    folder = Path(folder_arg)
    if mode == "claim":
        result = asyncio.run(claim_race(db, folder, rest[0], int(rest[1])))
    elif mode == "produce":
        result = asyncio.run(produce(db, folder, rest[0], int(rest[1])))
    elif mode == "put":
        result = asyncio.run(put_attachment(db, folder, rest[0]))
    elif mode == "crash-append":
        result = asyncio.run(crash_append(db, folder, rest[0] == "big"))
    elif mode == "crash-put":
        result = asyncio.run(crash_put(db, folder))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps(result), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
