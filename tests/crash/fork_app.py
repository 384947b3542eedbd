"""A process that forks one run again and again, to be killed in the middle of a fork.

``python fork_app.py URL DIR [NAMESPACE]``

Fork ``f-<i>`` of run ``src`` (from past its last step: every step copied) is asked for
with i = 0, 1, 2, ...; before each, DIR/forking-<i> is written, so the parent knows a
fork is under way when it kills this process.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import tether


async def main(url: str, where: Path, namespace: str | None) -> None:
    options: dict[str, Any] = {} if namespace is None else {"namespace": namespace}
    async with tether.open_backend(url, **options) as backend:
        client = tether.Client(backend)
        store = backend.stores.workflow
        i = 0
        while True:
            if await store.get_run(f"f-{i}") is None:
                (where / f"forking-{i}").write_text("")
                await client.fork("src", from_step=STEPS + 1, new_run_id=f"f-{i}")
            i += 1


#: How many completed steps the run `src` has (the parent builds it).
STEPS = 200

if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
