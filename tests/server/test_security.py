"""Tenancy, principals, tokens and hooks: what another caller can and cannot do."""

from __future__ import annotations

import asyncio
import base64
import os
import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from _served import Served, start_served

from tether.errors import ConfigurationError
from tether.server import BearerTokens, Principal, create_app
from tether.stores import EnvKeyProvider

SESSION_ROUTES = [
    ("GET", "/v1/sessions/s1", None),
    ("POST", "/v1/sessions/s1/messages", {"text": "hi"}),
    ("GET", "/v1/sessions/s1/requests", None),
    ("POST", "/v1/sessions/s1/requests/r1/answer", {"answer": "approve"}),
    ("POST", "/v1/sessions/s1/cancel", None),
    ("POST", "/v1/sessions/s1/close", None),
    ("POST", "/v1/sessions/s1/reset", None),
    ("POST", "/v1/sessions/s1/clear", None),
    ("GET", "/v1/sessions/s1/history", None),
    ("GET", "/v1/sessions/s1/transcript", None),
    ("GET", "/v1/sessions/s1/usage", None),
    ("GET", "/v1/sessions/s1/events?follow=false", None),
    ("GET", "/v1/sessions/s1/events", None),
    ("POST", "/v1/sessions/s1/attachments", None),
    ("GET", "/v1/sessions/s1/attachments/att_1", None),
]


async def _count_rows(served: Served) -> tuple[int, int]:
    page = await served.host.client.page_runs(limit=1000)
    events = await served.host.client.stream("session:s1", "events").read_all()
    return len(page.items), len(events)


async def test_another_tenants_session_is_404_everywhere(served: Served) -> None:
    await served.session("s1")
    await served.send("s1", "hello")
    await served.events("s1", until="turn.completed")
    before = await _count_rows(served)
    eve = served.client("eve")
    for method, path, body in SESSION_ROUTES:
        r = await eve.request(method, path, json=body)
        assert r.status_code == 404, (method, path, r.status_code, r.text)
        assert r.json()["code"] == "not_found"
    # Unknown sessions answer the same: nothing tells "exists" from "not yours".
    unknown = await eve.get("/v1/sessions/never-made")
    assert (
        unknown.json()["detail"].replace("never-made", "s1")
        == ((await eve.get("/v1/sessions/s1")).json()["detail"])
    )
    assert "s1" not in [i["session_id"] for i in (await eve.get("/v1/sessions")).json()["items"]]
    # Resuming a chat answers another tenant's session as one no one holds: nothing to
    # resume (useChat resumes a chat as it mounts, before its session exists).
    theirs = await eve.get("/v1/ui/aisdk/chat/s1/stream")
    nobodys = await eve.get("/v1/ui/aisdk/chat/never-made/stream")
    assert (theirs.status_code, theirs.content) == (nobodys.status_code, nobodys.content)
    assert theirs.status_code == 204
    # Creating it under another tenant is refused without touching it.
    taken = await eve.post("/v1/sessions", json={"session_id": "s1"})
    assert taken.status_code == 409
    # The AI SDK chat route does not take over another tenant's session either.
    chat = await eve.post(
        "/v1/ui/aisdk/chat",
        json={"id": "s1", "messages": [{"id": "u1", "role": "user", "parts": []}]},
    )
    assert chat.status_code == 404
    assert await _count_rows(served) == before


async def test_a_sessions_progress_names_its_worker_by_an_alias(served: Served) -> None:
    await served.session("s1")
    seen: dict[str, Any] | None = None
    for _ in range(5):  # each "check" turn holds its worker for a moment
        await served.send("s1", "check api")
        for _ in range(200):
            direct = await served.host.session_progress("s1")
            r = await served.client().get("/v1/sessions/s1")
            progress = r.json()["progress"]
            held = progress["state"] == "working" and progress["run"]["holder"] is not None
            if direct.run.holder is not None and held:
                seen = {"holder": direct.run.holder, "body": r.text, "progress": progress}
                break
            await asyncio.sleep(0.01)
        if seen is not None:
            break
        await served.events("s1", until="turn.completed")
    assert seen is not None, "never saw the session's run held by a worker"
    alias = seen["progress"]["run"]["holder"]
    assert alias.startswith("w_") and alias in seen["progress"]["reason"]
    assert seen["holder"] not in seen["body"]


@pytest.fixture
async def sealed(db: tuple[str, str | None]) -> AsyncIterator[Served]:
    """A server on an encrypted store: erasing a session destroys its keys."""
    keys = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())
    async for served in start_served(*db, backend_options={"keys": keys}):
        yield served


READS = ["", "/history", "/transcript", "/requests", "/events?follow=false"]


@pytest.mark.parametrize("how", ["erased", "retention-0"])
async def test_an_erased_session_is_410_to_its_tenant_and_404_to_others(
    sealed: Served, how: str
) -> None:
    # Opened by another process (this server never saw it): whose it is comes from the
    # store, where the erasure left only a one-way digest of the owner.
    retention = 0 if how == "retention-0" else "default"
    session = await sealed.host.open_session(
        "ops", session_id="x1", owner="acme", retention=retention
    )
    await session.send("hello", principal="ada")
    await session.wait_for("turn.completed")
    if how == "erased":
        await sealed.host.erase_session("ops", "x1")
    else:
        await session.close()
        await (await sealed.host.client.get(session.run_id)).result(timeout=20)
    ada, eve = sealed.client("ada"), sealed.client("eve")
    for read in READS:
        mine = await ada.get(f"/v1/sessions/x1{read}")
        assert (mine.status_code, mine.json()["code"]) == (410, "session_expired"), (
            read,
            mine.text,
        )
        theirs = await eve.get(f"/v1/sessions/x1{read}")
        unknown = await eve.get(f"/v1/sessions/x0{read}")
        assert (theirs.status_code, theirs.json()["code"]) == (404, "not_found"), read
        assert theirs.json()["detail"] == unknown.json()["detail"].replace("x0", "x1")
    chat = {"id": "x1", "messages": [{"id": "u1", "role": "user", "parts": []}]}
    assert (await ada.post("/v1/ui/aisdk/chat", json=chat)).status_code == 410
    assert (await eve.post("/v1/ui/aisdk/chat", json=chat)).status_code == 404
    assert "x1" not in [i["session_id"] for i in (await ada.get("/v1/sessions")).json()["items"]]


async def test_no_token_and_bad_token_are_401(served: Served) -> None:
    await served.session("s1")
    anonymous = httpx.AsyncClient(base_url=served.url)
    forged = httpx.AsyncClient(
        base_url=served.url, headers={"Authorization": "Bearer tok-ada-0123456789abcdeX"}
    )
    basic = httpx.AsyncClient(base_url=served.url, auth=("ada", "tok-ada-0123456789abcdef"))
    try:
        for client in (anonymous, forged, basic):
            for method, path, body in [
                ("POST", "/v1/sessions", {}),
                ("GET", "/v1/sessions", None),
                *SESSION_ROUTES,
            ]:
                r = await client.request(method, path, json=body)
                assert r.status_code == 401, (method, path, r.status_code)
                assert r.headers["www-authenticate"].startswith("Bearer")
    finally:
        for client in (anonymous, forged, basic):
            await client.aclose()


async def test_hooks_resume_by_token_and_forged_tokens_are_404(served: Served) -> None:
    token = secrets.token_urlsafe(24)
    handle = await served.host.client.start("wait_for_hook", token)
    hook_url = f"/v1/hooks/{token}"
    for _ in range(200):
        if await handle.hooks():
            break
        await asyncio.sleep(0.02)
    anonymous = httpx.AsyncClient(base_url=served.url)
    try:
        for forged in (token[:-1] + ("A" if token[-1] != "A" else "B"), "x", "a" * 300, "%00"):
            r = await anonymous.post(f"/v1/hooks/{forged}", json={"ok": False})
            assert r.status_code == 404, (forged, r.status_code, r.text)
        r = await anonymous.post(hook_url, json={"ok": True})
        assert r.status_code == 202, r.text
        assert await handle.result(timeout=10) == {"ok": True}
        # A spent token is as unknown as a forged one.
        assert (await anonymous.post(hook_url, json={})).status_code == 404
    finally:
        await anonymous.aclose()


async def test_the_worker_flow_route_does_not_exist(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url) as anonymous:
        for client in (served.client(), anonymous):
            r = await client.post("/.well-known/workflow/v1/flow", json={"runId": "x"})
            assert r.status_code == 404
            assert r.headers["content-type"] == "application/problem+json"


async def test_without_auth_only_loopback_is_served(served: Served) -> None:
    app = create_app(served.host, no_auth=True)
    remote = httpx.ASGITransport(app=app, client=("203.0.113.9", 4000))
    local = httpx.ASGITransport(app=app, client=("127.0.0.1", 4000))
    async with httpx.AsyncClient(transport=remote, base_url="http://x") as c:
        assert (await c.get("/v1/sessions")).status_code == 401
    async with httpx.AsyncClient(transport=local, base_url="http://x") as c:
        r = await c.post("/v1/sessions", json={"session_id": "mine"})
        assert r.status_code == 201 and r.json()["owner"] == "local"


def test_an_app_without_authenticator_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import server_app

    from tether.agent import Agents

    monkeypatch.delenv("TETHER_SERVER_TOKENS", raising=False)
    monkeypatch.delenv("TETHER_SERVER_TOKENS_FILE", raising=False)
    with pytest.raises(ConfigurationError, match="authenticator"):
        create_app(server_app.agents, object())  # type: ignore[arg-type]
    assert isinstance(server_app.agents, Agents)


def test_tokens_from_env_and_file(tmp_path: object) -> None:
    tokens = BearerTokens.from_env("abcdefghijklmnop1=ada@acme, abcdefghijklmnop2=bob")
    assert len(tokens) == 2
    with pytest.raises(ConfigurationError):
        BearerTokens.from_env("short=ada@acme")
    with pytest.raises(ConfigurationError):
        BearerTokens({})
    assert Principal(id="a", tenant="b") == Principal(id="a", tenant="b")
