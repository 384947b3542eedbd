"""Child process of the SIGKILL tests: rotates a store's data keys (or runs a new key
epoch), or erases sessions."""

from __future__ import annotations

import asyncio
import sys

from tether.agent._stored._erasure import shred_session_keys
from tether.stores import EncryptedBackend, LocalKeyFile, new_key_epoch, open_backend


async def main() -> None:
    mode, url, key_file, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    async with open_backend(url, keys=LocalKeyFile(key_file), migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        print("ready", flush=True)
        if mode == "rotate":
            await backend.keys.rotate(batch=10)
        elif mode == "epoch":
            await new_key_epoch(backend.keys, batch=10)
        else:
            for i in range(count):
                # What `Session.erase` does to a session's keys and content.
                await shred_session_keys(
                    backend.stores, agent_name="ops", session_id=f"s{i}", run_id=f"session:s{i}"
                )
                await backend.stores.conversations.purge(f"agents/ops/s{i}")
                await backend.stores.workflow.purge_run_content(f"session:s{i}")
        print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
