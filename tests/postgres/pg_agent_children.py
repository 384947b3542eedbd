"""Child process for the Postgres agent-store races.

Run as ``python pg_agent_children.py claim URL NAMESPACE DIR NAME SESSIONS``; prints one
JSON line. Readiness and the start signal are files in DIR.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tether.stores import SubmissionClaim
from tether.stores.postgres import PostgresBackend


def wait_for(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} never appeared")
        time.sleep(0.002)


async def claim_race(url: str, namespace: str, folder: Path, name: str, sessions: int) -> Any:
    async with PostgresBackend(url, namespace=namespace, pool_size=4) as backend:
        store = (await backend.connect()).submissions

        async def claim(submission_id: str) -> str | None:
            claimed = await store.claim_submission(
                SubmissionClaim(
                    submission_id=submission_id,
                    attempt_id=f"{name}-{submission_id}",
                    owner_id=name,
                    lease_expires_at=time.time() + 30,
                )
            )
            return None if claimed is None else claimed.submission_id

        (folder / f"ready-{name}").write_text("")
        wait_for(folder / "go")
        ids = [f"s{n}-{place}" for n in range(sessions) for place in ("head", "next")]
        # Concurrent claims from this process too: several connections race at once.
        results = await asyncio.gather(*(claim(i) for i in ids))
        return {"won": [r for r in results if r is not None]}


def main() -> None:
    mode, url, namespace, folder, name, sessions = sys.argv[1:]
    if mode != "claim":
        raise SystemExit(f"unknown mode {mode!r}")
    result = asyncio.run(claim_race(url, namespace, Path(folder), name, int(sessions)))
    print(json.dumps(result), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
