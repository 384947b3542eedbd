"""A real OAuth 2 authorization server for the tests: authlib's grants on Starlette.

authlib's `AuthorizationServer` does the protocol (the authorization-code grant with
PKCE required, refresh tokens rotated on every use, client authentication, the error
responses); this module gives it Starlette requests, an in-memory store of clients,
codes and tokens, and a user who approves every request (the browser's part). It is
served by uvicorn on a free loopback port, so tether reaches it over a real socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import uvicorn
from authlib.oauth2.rfc6749 import (
    AuthorizationServer,
    ClientMixin,
    OAuth2Payload,
    OAuth2Request,
    grants,
)
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7636 import CodeChallenge
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

CLIENT_ID = "tether-tests"
CLIENT_SECRET = "s3cret-of-the-tether-tests"


@dataclass
class Client(ClientMixin):  # type: ignore[misc]
    client_id: str
    client_secret: str
    redirect_uris: tuple[str, ...]

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str:
        return self.redirect_uris[0]

    def get_allowed_scope(self, scope: str) -> str:
        return scope or ""

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.redirect_uris

    def check_client_secret(self, client_secret: str) -> bool:
        return secrets.compare_digest(client_secret, self.client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in ("authorization_code", "refresh_token")


@dataclass
class Code:
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    code_challenge: str | None
    code_challenge_method: str | None
    user: str
    expires_at: float

    def get_redirect_uri(self) -> str:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope


@dataclass
class Token:
    client_id: str
    access_token: str
    refresh_token: str | None
    scope: str
    user: str
    issued_at: float
    expires_in: int
    revoked: bool = False

    def check_client(self, client: Client) -> bool:
        return client.client_id == self.client_id

    def get_scope(self) -> str:
        return self.scope

    def get_expires_in(self) -> int:
        return self.expires_in

    def is_expired(self) -> bool:
        return False

    def is_revoked(self) -> bool:
        return self.revoked

    def get_user(self) -> str:
        return self.user


@dataclass
class Store:
    clients: dict[str, Client] = field(default_factory=dict)
    codes: dict[str, Code] = field(default_factory=dict)
    tokens: list[Token] = field(default_factory=list)
    #: Token requests answered, by grant type: what tether asked for.
    grants: list[str] = field(default_factory=list)
    #: Seconds an access token lives (the tests shorten it to see a refresh).
    expires_in: int = 3600

    def valid(self, access_token: str) -> bool:
        return any(t.access_token == access_token and not t.revoked for t in self.tokens)


class _Payload(OAuth2Payload):  # type: ignore[misc]
    def __init__(self, values: dict[str, str]) -> None:
        self._values = values

    @property
    def data(self) -> dict[str, str]:
        return self._values

    @property
    def datalist(self) -> dict[str, list[str]]:
        return {k: [v] for k, v in self._values.items()}


class _Request(OAuth2Request):  # type: ignore[misc]
    def __init__(
        self, method: str, url: str, headers: Any, query: dict[str, str], form: dict[str, str]
    ) -> None:
        super().__init__(method=method, uri=url, headers=headers)
        self._query, self._form = query, form
        self.payload = _Payload({**query, **form})

    @property
    def args(self) -> dict[str, str]:
        return self._query

    @property
    def form(self) -> dict[str, str]:
        return self._form


class _CodeGrant(grants.AuthorizationCodeGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def save_authorization_code(self, code: str, request: Any) -> None:
        data = request.payload.data
        self.server.store.codes[code] = Code(
            code=code,
            client_id=request.client.client_id,
            redirect_uri=data.get("redirect_uri", ""),
            scope=data.get("scope", ""),
            code_challenge=data.get("code_challenge"),
            code_challenge_method=data.get("code_challenge_method"),
            user=request.user,
            expires_at=time.time() + 300,
        )

    def query_authorization_code(self, code: str, client: Client) -> Code | None:
        found = self.server.store.codes.get(code)
        if found is None or found.client_id != client.client_id or found.expires_at < time.time():
            return None
        return found

    def delete_authorization_code(self, authorization_code: Code) -> None:
        self.server.store.codes.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code: Code) -> str:
        return authorization_code.user


class _RefreshGrant(grants.RefreshTokenGrant):  # type: ignore[misc]
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]
    INCLUDE_NEW_REFRESH_TOKEN = True  # rotated: a refresh token works once

    def authenticate_refresh_token(self, refresh_token: str) -> Token | None:
        for token in self.server.store.tokens:
            if token.refresh_token == refresh_token and not token.revoked:
                return token
        return None

    def authenticate_user(self, credential: Token) -> str:
        return credential.user

    def revoke_old_credential(self, credential: Token) -> None:
        credential.revoked = True


class _Server(AuthorizationServer):  # type: ignore[misc]
    def __init__(self, store: Store) -> None:
        super().__init__(scopes_supported=["issues:read", "issues:write"])
        self.store = store
        self.register_token_generator(
            "default",
            BearerTokenGenerator(
                access_token_generator=lambda *a, **k: "at-" + secrets.token_urlsafe(16),
                refresh_token_generator=lambda *a, **k: "rt-" + secrets.token_urlsafe(16),
                expires_generator=lambda client, grant_type: store.expires_in,
            ),
        )
        self.register_grant(_CodeGrant, [CodeChallenge(required=True)])
        self.register_grant(_RefreshGrant)

    def query_client(self, client_id: str) -> Client | None:
        return self.store.clients.get(client_id)

    def save_token(self, token: dict[str, Any], request: Any) -> None:
        self.store.grants.append(request.payload.grant_type)
        self.store.tokens.append(
            Token(
                client_id=request.client.client_id,
                access_token=token["access_token"],
                refresh_token=token.get("refresh_token"),
                scope=token.get("scope", ""),
                user=request.user,
                issued_at=time.time(),
                expires_in=int(token["expires_in"]),
            )
        )

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        pass

    def create_oauth2_request(self, request: Any) -> OAuth2Request:
        return request  # built by the route (`_oauth_request`), which reads the body

    def handle_response(self, status: int, body: Any, headers: Any) -> Response:
        headers = dict(headers)
        if status == 302:
            return RedirectResponse(headers["Location"], status_code=302)
        return JSONResponse(body, status_code=status, headers=headers)


async def _oauth_request(request: Request) -> _Request:
    body = (await request.body()).decode()
    return _Request(
        request.method,
        str(request.url),
        request.headers,  # case-insensitive, as authlib reads "Authorization"
        dict(request.query_params),
        dict(parse_qsl(body)),
    )


def authorization_app(store: Store) -> Starlette:
    """The authorization endpoint (the user approves at once) and the token endpoint."""
    server = _Server(store)

    async def authorize(request: Request) -> Response:
        oauth_request = await _oauth_request(request)
        if request.query_params.get("deny"):
            grant_user = None
        else:
            grant_user = "ada"
        grant = server.get_consent_grant(oauth_request, end_user=grant_user)
        response: Response = server.create_authorization_response(
            oauth_request, grant_user=grant_user, grant=grant
        )
        return response

    async def token(request: Request) -> Response:
        response: Response = server.create_token_response(await _oauth_request(request))
        return response

    return Starlette(
        routes=[
            Route("/authorize", authorize, methods=["GET"]),
            Route("/token", token, methods=["POST"]),
        ]
    )


@dataclass
class RunningServer:
    url: str
    store: Store


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def authorization_server(redirect_uri: str) -> AsyncIterator[RunningServer]:
    """The server on a free loopback port, with one confidential client registered."""
    store = Store()
    store.clients[CLIENT_ID] = Client(CLIENT_ID, CLIENT_SECRET, (redirect_uri,))
    port = _free_port()
    config = uvicorn.Config(
        authorization_app(store), host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    try:
        yield RunningServer(url=f"http://127.0.0.1:{port}", store=store)
    finally:
        server.should_exit = True
        await task
