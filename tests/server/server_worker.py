"""A worker process for the server's crash tests: `python server_worker.py URL`.

Postgres namespace in TETHER_POSTGRES_NAMESPACE; SERVER_TEST_HANG=1 makes `slow_check`
hang on its first attempt (see `server_app`). Short leases so a SIGKILLed worker's run
is taken over within about two seconds.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import tether

sys.path.insert(0, str(Path(__file__).parent))
import server_app


async def main() -> None:
    namespace = os.environ.get("TETHER_POSTGRES_NAMESPACE")
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(sys.argv[1], migrate=False, **options) as backend:
        worker = tether.Worker(
            backend,
            server_app.agents.registry,
            poll_interval=0.05,
            lease_seconds=2.0,
            heartbeat_interval=0.2,
            dead_after=1.0,
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
