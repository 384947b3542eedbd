"""Write `journal.db`: a session with a completed turn and a turn parked on an approval,
and a workflow run asleep on a durable timer, all journaled by tether 0.1.0.

    python tests/agent/journal_0_1/make.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import app  # noqa: E402

import tether  # noqa: E402
from tether.agent import AgentHost  # noqa: E402


async def main() -> None:
    target = HERE / "journal.db"
    target.unlink(missing_ok=True)
    async with tether.open_backend(f"sqlite:///{target}") as backend:
        agents = app.build()
        host = AgentHost(backend, agents)
        async with host.worker(poll_interval=0.02):
            session = await host.open_session("ops", session_id="ticket-1")
            await session.send("how is api?", principal="ada")
            await session.wait_for("turn.completed")
            await session.send("restart api", principal="ada")
            await session.wait_for("input.requested")
            handle = await host.client.start("nap", 20, run_id="nap-1")
            # Asleep: its timer starts right after the step before it completes.
            while not await handle.steps():
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.5)


if __name__ == "__main__":
    asyncio.run(main())
