"""A real uvicorn on a free port serving `server_app.agents`: what the tests share.

In a module of its own, not in ``conftest``: tests import it by a name no other
directory's module has (``from conftest import`` found whichever directory's conftest
came first when several directories were collected).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import uvicorn

import tether
from tether.agent import AgentHost
from tether.server import BearerTokens, Principal, ServerOptions, create_app
from tether.stores import Backend

sys.path.insert(0, str(Path(__file__).parent))
import server_app

TOKENS = {
    "ada": ("tok-ada-0123456789abcdef", Principal(id="ada", tenant="acme")),
    "bob": ("tok-bob-0123456789abcdef", Principal(id="bob", tenant="acme")),
    "lead": ("tok-lead-0123456789abcdef", Principal(id="lead", tenant="acme")),
    "eve": ("tok-eve-0123456789abcdef", Principal(id="eve", tenant="evil")),
}


@dataclass
class Served:
    """A running server: its URL, its backend, clients per principal."""

    url: str
    backend: Backend
    host: AgentHost
    db_url: str
    namespace: str | None
    app: Any = None
    clients: dict[str, httpx.AsyncClient] = field(default_factory=dict)

    def client(self, who: str = "ada") -> httpx.AsyncClient:
        found = self.clients.get(who)
        if found is None:
            headers = {"Authorization": f"Bearer {TOKENS[who][0]}"} if who in TOKENS else {}
            found = httpx.AsyncClient(base_url=self.url, headers=headers, timeout=20.0)
            self.clients[who] = found
        return found

    async def session(self, session_id: str = "s1", who: str = "ada") -> dict[str, Any]:
        r = await self.client(who).post("/v1/sessions", json={"session_id": session_id})
        assert r.status_code in (200, 201), r.text
        return dict(r.json())

    async def send(self, session_id: str, text: str, who: str = "ada", **more: Any) -> str:
        r = await self.client(who).post(
            f"/v1/sessions/{session_id}/messages", json={"text": text, **more}
        )
        assert r.status_code == 202, r.text
        return str(r.json()["submission_id"])

    async def events(
        self, session_id: str, who: str = "ada", **params: Any
    ) -> list[dict[str, Any]]:
        """Follow with NDJSON until the stream ends or `until` (a type) arrives."""
        until = params.pop("until", None)
        out: list[dict[str, Any]] = []
        async with self.client(who).stream(
            "GET",
            f"/v1/sessions/{session_id}/events",
            params={"format": "ndjson", **params},
        ) as r:
            assert r.status_code == 200, await r.aread()
            async for line in r.aiter_lines():
                if not line.strip():
                    continue
                event = httpx.Response(200, content=line).json()
                out.append(event)
                if until is not None and event["type"] == until:
                    break
        return out


def drop_namespace(url: str, namespace: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{namespace}" CASCADE')


async def serve_app(app: Any) -> tuple[uvicorn.Server, asyncio.Task[None], str]:
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, task, f"http://127.0.0.1:{port}"


async def stop_app(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    server.should_exit = True
    await asyncio.wait_for(task, 10)


async def start_served(
    db_url: str,
    namespace: str | None,
    *,
    worker: bool = True,
    backend_options: dict[str, Any] | None = None,
    **app_options: Any,
) -> AsyncIterator[Served]:
    options = {"namespace": namespace} if namespace else {}
    async with tether.open_backend(db_url, **options, **(backend_options or {})) as backend:
        host = AgentHost(backend, server_app.agents)
        tokens = BearerTokens({token: p for token, p in TOKENS.values()})
        app = create_app(
            host,
            authenticator=tokens,
            options=ServerOptions(keepalive=0.5, **app_options),
        )
        server, task, url = await serve_app(app)
        served = Served(
            url=url, backend=backend, host=host, db_url=db_url, namespace=namespace, app=app
        )
        try:
            if worker:
                async with host.worker(poll_interval=0.05):
                    yield served
            else:
                yield served
        finally:
            for client in served.clients.values():
                await client.aclose()
            await stop_app(server, task)


async def stranded_session(served: Served, session_id: str) -> None:
    """Open `session_id` on a deployment no live worker serves and park it there.

    Parked on an approval, it is busy: it cannot move to the newest deployment (an idle
    one would, on its next message), so it is stranded.
    """
    from tether.agent import Agents

    old = AgentHost(served.backend, Agents([server_app.ops], deployment="old-release"))
    session = await old.open_session("ops", session_id=session_id, owner="acme")
    async with old.worker(poll_interval=0.02):
        await session.send("restart api", principal="ada")
        await session.wait_for("input.requested")
        for _ in range(500):  # until its park is committed (its steps all are)
            current = await old.client.latest(session.run_id)
            steps = await (await old.client.get(current.run_id, follow=False)).steps()
            if steps and all(s.status == "completed" for s in steps):
                break
            await asyncio.sleep(0.02)
