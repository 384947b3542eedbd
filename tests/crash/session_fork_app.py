"""A process that forks one session again and again, to be killed in the middle of a fork.

``python session_fork_app.py URL DIR [NAMESPACE]``

Fork ``f-<i>`` of session ``orig`` (the whole session) is asked for with i = 0, 1, 2,
...; before each, DIR/forking-<i> is written, so the parent knows a fork is under way
when it kills this process. No worker runs here: the forks' runs wait in the queue.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import tether
from tether.agent import Agent, AgentHost
from tether.testing import ScriptedModel


def desk(*replies: str) -> Agent:
    """The agent of the session (the parent runs its turns with `replies`)."""
    return Agent(name="desk", model=ScriptedModel(list(replies)))


async def main(url: str, where: Path, namespace: str | None) -> None:
    options: dict[str, Any] = {} if namespace is None else {"namespace": namespace}
    async with tether.open_backend(url, **options) as backend:
        host = AgentHost(backend, [desk()])
        original = await host.get_session("orig")
        store = backend.stores.workflow
        i = 0
        while True:
            if await store.get_run(f"session:f-{i}") is None:
                (where / f"forking-{i}").write_text("")
                await original.fork(session_id=f"f-{i}")
            i += 1


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
