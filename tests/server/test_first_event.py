"""A turn's first event is on the wire before the model is called.

`turn.started` is written before the model is called: a client must see the turn begin
one write after the step's start. The write wakes the session's feed, which wakes each
follower's response; they must get to send it before building the model's request and
handling an instant answer hold the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from _served import TOKENS, serve_app, stop_app

import tether
from tether.agent import Agent, AgentHost, Agents
from tether.agent.models import ModelRequest
from tether.server import BearerTokens, create_app
from tether.testing import ScriptedModel


async def test_the_turns_first_event_is_sent_before_the_model_is_called(
    db: tuple[str, str | None],
) -> None:
    url, namespace = db
    sent_started = asyncio.Event()
    sent_at_call: list[bool] = []

    def answer(request: ModelRequest) -> str:
        sent_at_call.append(sent_started.is_set())
        return "done"

    agent = Agent(name="first", model=ScriptedModel(answer), instructions="")
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(url, **options) as backend:
        host = AgentHost(backend, Agents([agent], deployment="first-event"))
        app = create_app(host, authenticator=BearerTokens(dict(TOKENS.values())))

        async def watched(scope: Any, receive: Any, send: Any) -> None:
            async def sending(message: Any) -> None:
                await send(message)
                if message["type"] == "http.response.body" and b"turn.started" in message.get(
                    "body", b""
                ):
                    sent_started.set()  # handed to the connection's transport

            await app(scope, receive, sending)

        server, task, base = await serve_app(watched)
        headers = {"Authorization": f"Bearer {TOKENS['ada'][0]}"}
        try:
            async with (
                host.worker(poll_interval=0.05),
                httpx.AsyncClient(base_url=base, headers=headers, timeout=20.0) as http,
            ):
                r = await http.post("/v1/sessions", json={"session_id": "f1"})
                assert r.status_code in (200, 201), r.text

                async def follow() -> None:
                    async with http.stream("GET", "/v1/sessions/f1/events") as events:
                        async for line in events.aiter_lines():
                            if line.startswith("event: turn.completed"):
                                return

                follower = asyncio.create_task(follow())
                await asyncio.sleep(0.2)  # following before the message
                r = await http.post("/v1/sessions/f1/messages", json={"text": "hello"})
                assert r.status_code == 202, r.text
                await asyncio.wait_for(follower, 20)
        finally:
            await stop_app(server, task)
    assert sent_at_call == [True]
