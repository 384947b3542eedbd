"""Child process of the SIGKILL tests: rotates a store's data keys, or erases sessions."""

from __future__ import annotations

import asyncio
import sys

from tether.agent._erasure import erase_session_content
from tether.stores import EncryptedBackend, LocalKeyFile, open_backend


async def main() -> None:
    mode, url, key_file, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    async with open_backend(url, keys=LocalKeyFile(key_file), migrate=False) as backend:
        assert isinstance(backend, EncryptedBackend)
        print("ready", flush=True)
        if mode == "rotate":
            await backend.keys.rotate(batch=10)
        else:
            for i in range(count):
                await erase_session_content(
                    backend.stores,
                    agent_name="ops",
                    session_id=f"s{i}",
                    run_id=f"session:s{i}",
                    path=f"agents/ops/s{i}",
                )
        print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
