"""Run from a separate process: resume a hook or write a stream against one namespace."""

from __future__ import annotations

import asyncio
import sys

import tether
from tether.stores.postgres import PostgresBackend


async def main(url: str, namespace: str, action: str, arg: str) -> None:
    backend = PostgresBackend(url, namespace=namespace, pool_size=1)
    await backend.connect()
    try:
        if action == "resume":
            await tether.Client(backend).resume_hook(arg, {"from": "elsewhere"})
        elif action == "stream":
            run_id, name = arg.split("/")
            store = backend.stores.workflow
            await store.write_stream(run_id, name, [b"one", b"two"])
            await store.close_stream(run_id, name)
    finally:
        await backend.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
