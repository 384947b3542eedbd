"""Many clients at once against one session: nothing a user sees ever fails, on every backend.

Regression (Postgres): `send()` raised `StoreError: DeadlockDetected` about one run in
five when 60 quick sends raced the worker's commits.
"""

from __future__ import annotations

import asyncio

import pytest
from _harness import hosted, settled

from tether.agent import Agent, tool
from tether.agent.models import ModelRequest
from tether.stores import Backend
from tether.testing import ScriptedModel


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return "ok"


async def answer(request: ModelRequest) -> str:
    await asyncio.sleep(0.005)
    return "noted"


@pytest.mark.slow
async def test_sixty_quick_sends_racing_the_worker(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(answer), tools=[lookup])
    async with hosted(backend, agent) as host:
        for round_ in range(5):
            session = await host.open_session("ops", session_id=f"load-{round_}")
            ids = await asyncio.gather(
                *(
                    session.send(f"message {i}", client_message_id=f"m{i}", principal="ada")
                    for i in range(60)
                )
            )
            for submission_id in ids:
                assert (await settled(backend, submission_id, timeout=60)).outcome == "completed"
