"""OAuth for tools against a real authorization server (authlib, on a loopback socket).

The test is the user's browser: it opens the authorization URL of the turn's
``authorization.required`` request, the server approves and redirects to tether's
callback, which exchanges the code (with the PKCE verifier tether kept) at the token
endpoint over HTTP; the turn resumes and the tool gets the token.
"""

from __future__ import annotations

import base64
import contextlib
import os
import time
import urllib.parse
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
import pytest
from _oauth_server import CLIENT_ID, CLIENT_SECRET, RunningServer, authorization_server

from tether.agent import Agent, AgentHost, OAuthProvider, OAuthToken, ToolContext, tool
from tether.agent._tools._oauth import STATE_OWNER, pkce_challenge, session_owner
from tether.agent.models import ToolResultMessage
from tether.errors import ConfigurationError
from tether.server import create_app
from tether.stores import Backend, EnvKeyProvider, open_backend
from tether.testing import Reply, ScriptedModel, tool_call

REDIRECT = "http://tether.test/v1/oauth/callback"
KEYS = EnvKeyProvider(base64.b64encode(os.urandom(32)).decode())


@pytest.fixture
async def memory() -> AsyncIterator[Backend]:
    """The memory backend: the callback's refusals do not depend on the store."""
    async with open_backend("memory://") as opened:
        yield opened


@dataclass
class Flow:
    """tether served in-process with a worker, and the authorization server."""

    host: AgentHost
    http: httpx.AsyncClient
    auth: RunningServer
    model: ScriptedModel
    tokens: list[OAuthToken]

    async def start(self, session_id: str, text: str = "list them") -> None:
        r = await self.http.post("/v1/sessions", json={"session_id": session_id})
        assert r.status_code in (200, 201), r.text
        r = await self.http.post(f"/v1/sessions/{session_id}/messages", json={"text": text})
        assert r.status_code == 202, r.text

    async def browse(self, url: str, **extra: str) -> str:
        """Open the authorization URL as a browser; the redirect back to tether."""
        if extra:
            url += "&" + urllib.parse.urlencode(extra)
        async with httpx.AsyncClient() as browser:
            r = await browser.get(url)
        assert r.status_code == 302, r.text
        location = r.headers["location"]
        assert location.startswith(REDIRECT + "?"), location
        return location

    async def callback(self, location: str) -> httpx.Response:
        return await self.http.get(location.removeprefix("http://tether.test"))


def provider(auth: RunningServer, **more: Any) -> OAuthProvider:
    return OAuthProvider(
        name="tracker",
        authorize_url=f"{auth.url}/authorize",
        token_url=f"{auth.url}/token",
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        redirect_uri=REDIRECT,
        scopes=("issues:read",),
        **more,
    )


@contextlib.asynccontextmanager
async def flow(backend: Backend, replies: list[Any], **more: Any) -> AsyncIterator[Flow]:
    async with authorization_server(REDIRECT) as auth:
        tokens: list[OAuthToken] = []

        @tool(auth=provider(auth, **more))
        async def list_issues(ctx: ToolContext) -> str:
            """List the tracker's open issues."""
            token = await ctx.authorization()
            tokens.append(token)
            return "3 open issues" if auth.store.valid(token.access_token) else "refused"

        model = ScriptedModel(replies)
        host = AgentHost(backend, [Agent(name="ops", model=model, tools=[list_issues])])
        app = create_app(host, no_auth=True)
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://tether.test") as http,
            host.worker(poll_interval=0.02),
        ):
            yield Flow(host=host, http=http, auth=auth, model=model, tokens=tokens)


def one_call(*more: Any) -> list[Any]:
    return [Reply(tool_calls=(tool_call("list_issues"),)), "done", *more]


async def test_a_tool_parks_until_the_user_authorizes_in_a_browser(backend: Backend) -> None:
    async with flow(backend, one_call(Reply(tool_calls=(tool_call("list_issues"),)), "again")) as f:
        await f.start("s1")
        session = f.host.session("ops", "s1")
        required = await session.wait_for("authorization.required")
        url = required.data.url
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
        assert query["code_challenge_method"] == "S256"
        assert query["client_id"] == CLIENT_ID and query["redirect_uri"] == REDIRECT
        assert query["scope"] == "issues:read" and len(query["state"]) >= 32
        # The verifier is kept server-side, sealed with the pending authorization.
        store = backend.stores.credentials
        assert store is not None
        pending = await store.get_credential(STATE_OWNER, query["state"])
        assert pending is not None
        assert pkce_challenge(orjson.loads(pending.data)["verifier"]) == query["code_challenge"]
        # The request is pending over HTTP, with the URL to open.
        r = await f.http.get("/v1/sessions/s1/requests")
        [request] = r.json()["items"]
        assert request["kind"] == "authorization"
        assert request["data"] == {"provider": "tracker", "url": url}
        r = await f.http.get("/v1/sessions/s1")
        assert r.json()["parked_on"] == "authorization", r.json()

        location = await f.browse(url)
        answered = await f.callback(location)
        assert answered.status_code == 200, answered.text
        assert "tracker is connected" in answered.text
        await session.wait_for("turn.completed")
        assert [t.access_token for t in f.tokens] == [f.auth.store.tokens[0].access_token]
        result = next(m for m in f.model.requests[-1].messages if isinstance(m, ToolResultMessage))
        assert result.content == "3 open issues"
        assert f.auth.store.grants == ["authorization_code"]

        # The same redirect again (a replay) finds its state used.
        replayed = await f.callback(location)
        assert replayed.status_code == 400
        assert replayed.json()["code"] == "invalid_state"
        assert "used already" in replayed.json()["detail"]

        # The next turn's call finds the stored token: no authorization, no token request.
        r = await f.http.post("/v1/sessions/s1/messages", json={"text": "and now?"})
        assert r.status_code == 202
        completed = await session.wait_for("turn.completed")
        await session.wait_for("turn.completed", after=completed.index)
        assert len(f.tokens) == 2 and f.tokens[1].access_token == f.tokens[0].access_token
        assert f.auth.store.grants == ["authorization_code"]
        types = [e.type for e in await session.read_events()]
        assert types.count("authorization.required") == 1


async def _authorize(f: Flow, session_id: str) -> None:
    session = f.host.session("ops", session_id)
    required = await session.wait_for("authorization.required")
    answered = await f.callback(await f.browse(required.data.url))
    assert answered.status_code == 200, answered.text


async def test_an_expired_token_is_refreshed_once_when_calls_race(backend: Backend) -> None:
    two = Reply(tool_calls=(tool_call("list_issues"), tool_call("list_issues")))
    async with flow(backend, [*one_call(), two, "both"]) as f:
        await f.start("s2")
        await _authorize(f, "s2")
        session = f.host.session("ops", "s2")
        first = await session.wait_for("turn.completed")
        # Let the stored token expire.
        store = backend.stores.credentials
        assert store is not None
        owner = session_owner("ops", "s2")
        found = await store.get_credential(owner, "oauth:tracker")
        assert found is not None
        record = orjson.loads(found.data)
        record["token"]["expires_at"] = time.time() - 1
        await store.put_credential(owner, "oauth:tracker", orjson.dumps(record))

        r = await f.http.post("/v1/sessions/s2/messages", json={"text": "twice"})
        assert r.status_code == 202
        await session.wait_for("turn.completed", after=first.index)
        # Two calls raced for the expired token; the refresh token (rotated by the
        # server on use) was spent once, and both calls got the new token.
        assert f.auth.store.grants == ["authorization_code", "refresh_token"]
        fresh = f.auth.store.tokens[-1].access_token
        assert [t.access_token for t in f.tokens[1:]] == [fresh, fresh]
        assert f.auth.store.valid(fresh)
        results = [m for m in f.model.requests[-1].messages if isinstance(m, ToolResultMessage)]
        assert [m.content for m in results[-2:]] == ["3 open issues", "3 open issues"]
        stored = await store.get_credential(owner, "oauth:tracker")
        assert stored is not None
        assert orjson.loads(stored.data)["token"]["access_token"] == fresh


async def test_callbacks_that_cannot_complete_get_problem_documents(memory: Backend) -> None:
    async with flow(memory, one_call()) as f:
        await f.start("s3")
        session = f.host.session("ops", "s3")
        required = await session.wait_for("authorization.required")
        location = await f.browse(required.data.url)
        params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))

        missing = await f.http.get("/v1/oauth/callback", params={"code": params["code"]})
        assert missing.status_code == 422 and missing.json()["code"] == "invalid_input"
        wrong = await f.http.get(
            "/v1/oauth/callback", params={"code": params["code"], "state": "forged-state"}
        )
        assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_state"
        assert "unknown" in wrong.json()["detail"]

        # A code the token endpoint does not know: its answer, as a 502.
        bad = await f.http.get(
            "/v1/oauth/callback", params={"code": "not-a-code", "state": params["state"]}
        )
        assert bad.status_code == 502, bad.text
        assert bad.json()["code"] == "token_endpoint_error"
        assert bad.json()["error"] == "invalid_grant"
        # The state was spent by that attempt; nothing was stored; the turn still waits.
        again = await f.callback(location)
        assert again.status_code == 400 and again.json()["code"] == "invalid_state"
        store = memory.stores.credentials
        assert store is not None
        assert await store.get_credential(session_owner("ops", "s3"), "oauth:tracker") is None
        assert [r.kind for r in await session.pending_requests()] == ["authorization"]


async def test_an_expired_state_is_refused_and_swept(memory: Backend) -> None:
    # Three sessions, each parked on its tool call's authorization.
    calls = [Reply(tool_calls=(tool_call("list_issues"),))] * 3
    async with flow(memory, calls, state_ttl=0.0) as f:
        await f.start("s4")
        session = f.host.session("ops", "s4")
        required = await session.wait_for("authorization.required")
        location = await f.browse(required.data.url)
        late = await f.callback(location)
        assert late.status_code == 400 and late.json()["code"] == "invalid_state"
        assert "expired" in late.json()["detail"]
        assert f.auth.store.grants == []
        # A pending authorization nobody completes goes with the next one asked.
        await f.start("s4b")
        abandoned = await f.host.session("ops", "s4b").wait_for("authorization.required")
        state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(abandoned.data.url).query))[
            "state"
        ]
        store = memory.stores.credentials
        assert store is not None
        assert await store.get_credential(STATE_OWNER, state) is not None
        await f.start("s4c")
        await f.host.session("ops", "s4c").wait_for("authorization.required")
        assert await store.get_credential(STATE_OWNER, state) is None


async def test_a_declined_authorization_tells_the_model(memory: Backend) -> None:
    async with flow(memory, one_call()) as f:
        await f.start("s5")
        session = f.host.session("ops", "s5")
        required = await session.wait_for("authorization.required")
        location = await f.browse(required.data.url, deny="1")
        assert "error=access_denied" in location
        declined = await f.callback(location)
        assert declined.status_code == 200 and "not connected" in declined.text
        await session.wait_for("turn.completed")
        result = next(m for m in f.model.requests[-1].messages if isinstance(m, ToolResultMessage))
        assert "did not authorize" in result.content and result.is_error
        assert f.tokens == [] and f.auth.store.grants == []


async def test_tokens_are_sealed_and_go_with_an_erased_session() -> None:
    async with (
        open_backend("memory://", keys=KEYS) as sealed,
        flow(sealed, one_call()) as f,
    ):
        await f.start("s6")
        session = f.host.session("ops", "s6")
        required = await session.wait_for("authorization.required")
        state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(required.data.url).query))[
            "state"
        ]
        inner = sealed.inner.stores.credentials  # type: ignore[attr-defined]
        raw_state = await inner.get_credential(STATE_OWNER, state)
        assert raw_state is not None and b"verifier" not in raw_state.data
        answered = await f.callback(await f.browse(required.data.url))
        assert answered.status_code == 200, answered.text
        await session.wait_for("turn.completed")
        owner = session_owner("ops", "s6")
        raw = await inner.get_credential(owner, "oauth:tracker")
        assert raw is not None
        assert f.tokens[0].access_token.encode() not in raw.data
        opened = await sealed.stores.credentials.get_credential(owner, "oauth:tracker")  # type: ignore[union-attr]
        assert opened is not None and f.tokens[0].access_token.encode() in opened.data
        await f.host.erase_session("ops", "s6")
        assert await inner.get_credential(owner, "oauth:tracker") is None


async def test_a_principals_token_serves_its_other_sessions(memory: Backend) -> None:
    async with flow(memory, [*one_call(), *one_call()], per="principal") as f:
        await f.start("s7")
        await _authorize(f, "s7")
        await f.host.session("ops", "s7").wait_for("turn.completed")
        # Another session of the same principal ("local", with authentication off).
        await f.start("s8")
        await f.host.session("ops", "s8").wait_for("turn.completed")
        assert len(f.tokens) == 2 and f.tokens[0].access_token == f.tokens[1].access_token
        assert f.auth.store.grants == ["authorization_code"]
        store = memory.stores.credentials
        assert store is not None
        assert await store.get_credential("principal:local", "oauth:tracker") is not None
        assert await store.get_credential(session_owner("ops", "s7"), "oauth:tracker") is None


def test_a_provider_or_its_tool_declared_wrong_is_refused() -> None:
    good = {
        "name": "tracker",
        "authorize_url": "https://t.example/authorize",
        "token_url": "https://t.example/token",
        "client_id": "app",
        "redirect_uri": "https://agents.example/v1/oauth/callback",
    }
    OAuthProvider(**good)
    for change, message in [
        ({"name": "no spaces"}, "letters, digits"),
        ({"token_url": "ftp://t.example/token"}, "token_url must be an http"),
        ({"client_id": ""}, "client_id is empty"),
        ({"per": "tenant"}, "per must be 'session' or 'principal'"),
        ({"scopes": "issues:read"}, "not the string"),
        ({"state_ttl": -1}, "state_ttl must be seconds"),
    ]:
        with pytest.raises(ConfigurationError, match=message):
            OAuthProvider(**{**good, **change})

    async def fn() -> str:
        return ""

    provider = OAuthProvider(**good)
    with pytest.raises(ConfigurationError, match="two OAuth providers are named 'tracker'"):
        tool(auth=[provider, provider])(fn)
    with pytest.raises(ConfigurationError, match="auth takes OAuthProvider values"):
        tool(auth=["tracker"])(fn)  # type: ignore[list-item]
    assert tool(auth=provider)(fn).auth == (provider,)
