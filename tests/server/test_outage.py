"""The server through a Postgres outage: 503 with Retry-After, followers ride it out.

The server reaches Postgres through a fault-injecting TCP proxy (its store calls give
up after 0.5 s, as they do after the default 30 s in a longer outage); the worker that
runs the turns connects directly and works on.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

import tether
from tether.agent import AgentHost
from tether.testing import FaultProxy

sys.path.insert(0, str(Path(__file__).parent))
import server_app
from _served import start_served

pytestmark = pytest.mark.postgres


async def _send_once_accepted(served: Any, text: str) -> None:
    """POST a message, again while the server answers 503 (its pools reconnecting).

    With a `client_message_id`, as a client retrying should: a 503 whose write did land
    (its answer lost) admits nothing twice.
    """
    body = {"text": text, "client_message_id": f"retried-{len(text)}"}
    for _ in range(300):
        r = await served.client().post("/v1/sessions/s1/messages", json=body)
        if r.status_code == 202:
            return
        assert r.status_code == 503, r.text
        await asyncio.sleep(0.1)
    raise AssertionError("the server never took a message again")


async def test_a_store_outage_is_a_503_and_a_follower_rides_it_out(
    pg_url: str, pg_namespace: str
) -> None:
    with FaultProxy.for_url(pg_url) as proxy:
        async with (
            tether.open_backend(pg_url, namespace=pg_namespace) as direct,
            AgentHost(direct, server_app.agents).worker(poll_interval=0.05),
        ):
            async for served in start_served(
                proxy.url(pg_url),
                pg_namespace,
                worker=False,
                backend_options={"checkout_timeout": 0.5},
            ):
                await served.session("s1")
                await served.send("s1", "hello there")
                first = await served.events("s1", start=0, until="turn.completed")
                assert first[-1]["type"] == "turn.completed"
                # A client following from the end of the first turn, waiting for more.
                following = asyncio.create_task(_follow_second_turn(served))
                await asyncio.sleep(0.3)
                proxy.cut()
                try:
                    r = await served.client().post(
                        "/v1/sessions/s1/messages", json={"text": "during"}
                    )
                    assert r.status_code == 503, r.text
                    assert r.headers["retry-after"] == "1"
                    assert r.json()["code"] == "store_unavailable"
                    await asyncio.sleep(1.5)  # the follower's reads fail meanwhile
                    assert not following.done(), following
                finally:
                    proxy.restore()
                await _send_once_accepted(served, "after the outage")
                second = await asyncio.wait_for(following, 30)
                assert [e["type"] for e in second].count("turn.completed") == 1, second
                assert second[-1]["type"] == "turn.completed", second
                indexes = [e["index"] for e in second]
                assert indexes == list(range(indexes[0], indexes[0] + len(indexes))), indexes


async def _follow_second_turn(served: Any) -> list[dict[str, Any]]:
    """Events after the first turn, as a client following live sees them."""
    start = len(await served.events("s1", start=0, follow="false"))
    return list(await served.events("s1", start=start, until="turn.completed"))
