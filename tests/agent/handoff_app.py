"""Processes for the hand-off tests: `python handoff_app.py URL DIR ROLE DEPLOYMENT SCENARIO`.

ROLE ``worker`` runs a session worker of DEPLOYMENT. ROLE ``holder`` is a client of
DEPLOYMENT that starts moving session ``s1`` to it, admits message ``held`` under the
take-over, touches DIR/holding and hangs there until it is killed (a client SIGKILLed
in the middle of a hand-off). The model answers ``<deployment>: re <last message>``,
so a reply tells which deployment's worker wrote it. SCENARIO ``compact`` compacts
every 3 turns with a compactor that hangs on its first attempt (DIR/compacting) until
the worker is killed.

The test process builds the same host with `build_host` to open sessions and send.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tether
from tether.agent import Agent, AgentHost, Compaction, KeepLast
from tether.agent.models import Model, ModelRequest, UserMessage
from tether.stores import Backend
from tether.testing import ScriptedModel


class HangsFirst:
    """Compacts with `KeepLast(4)`; its first attempt ever hangs (DIR/compacting)."""

    def __init__(self, directory: Path) -> None:
        self.marker = directory / "compacting"

    async def __call__(self, entries: Sequence[Any], model: Model) -> str:
        if not self.marker.exists():
            self.marker.touch()
            await asyncio.sleep(3600)
        return await KeepLast(4)(entries, model)


def build_host(backend: Backend, deployment: str, directory: Path, scenario: str) -> AgentHost:
    def answer(request: ModelRequest) -> str:
        last = [m.text for m in request.messages if isinstance(m, UserMessage)][-1]
        return f"{deployment}: re {last[-20:]}"

    compaction = (
        Compaction(max_turns=3, compactor=HangsFirst(directory)) if scenario == "compact" else None
    )
    agent = Agent(name="ops", model=ScriptedModel([answer] * 100), compaction=compaction)
    return AgentHost(backend, [agent], deployment=deployment)


async def hold(host: AgentHost, directory: Path) -> None:
    from tether.agent._session._handoff import move_under_hold

    session = await host.get_session("s1")
    held = await host.client.take_over(session.run_id)
    assert held is not None, "s1 is not parked"

    async def admit_then_hang() -> None:
        await session._inbox.admit_message("s1:held", "held", None, None)
        (directory / "holding").touch()
        await asyncio.sleep(3600)

    await move_under_hold(session, held, "deploy", admit_then_hang)


async def main() -> None:
    url, directory, role, deployment, scenario = sys.argv[1:6]
    async with tether.open_backend(url, migrate=False) as backend:
        host = build_host(backend, deployment, Path(directory), scenario)
        if role == "holder":
            await hold(host, Path(directory))
            return
        worker = host.worker(concurrency=8, poll_interval=0.05, lease_seconds=30)
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
