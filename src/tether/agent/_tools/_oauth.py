"""OAuth 2 for tools: the authorization-code flow with PKCE, tokens kept per owner.

A tool declares its providers (``@tool(auth=provider)``) and asks for a token with
``await ctx.authorization()``. The token comes from the credential store while it is
valid, is refreshed there once it expires, and otherwise the call raises
`AuthorizationRequired` with the authorization URL: the turn parks on an
``authorization.required`` request until the user has authorized in a browser and the
server's callback (`complete_authorization`) stored the token and answered it.

What is durable where:

- A pending authorization is a credential of owner ``oauth:state`` named by its random
  ``state``; it holds the PKCE verifier and the request it answers, sealed under the
  session's key scope (erasing the session shreds it). The callback takes it (one use).
- A token is a credential named ``oauth:<provider>`` of the session
  (``session:<agent>/<id>``) or of the principal (``principal:<name>``).
- A refresh first claims the token by a version-checked write that marks it
  refreshing; of two calls racing, the one that lost the claim waits for the winner's
  token instead of spending the refresh token a second time.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import orjson

from ...errors import (
    AuthorizationRequired,
    ConfigurationError,
    ConflictError,
    MissingExtraError,
    OAuthError,
    OAuthStateError,
    ToolUnavailableError,
)
from ...stores import CredentialStore, data_scope, run_scope
from .._records._keys import session_run_id

if TYPE_CHECKING:
    from ...stores import Stores

__all__ = [
    "STATE_OWNER",
    "AuthorizationGrant",
    "OAuthAccess",
    "OAuthProvider",
    "OAuthToken",
    "complete_authorization",
    "declared_providers",
    "pkce_challenge",
    "refuse_authorization",
    "session_owner",
    "token_owner",
]

#: The owner of pending authorizations in the credential store.
STATE_OWNER = "oauth:state"

_TOKEN_PREFIX = "oauth:"


def _check_url(value: str, what: str) -> str:
    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigurationError(f"{what} must be an http(s) URL, not {value!r}")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuthProvider:
    """An OAuth 2 authorization server a tool gets tokens from (authorization code + PKCE).

    Attributes:
        name: Names the provider in requests and in the credential store
            (letters, digits, ``-``, ``_`` and ``.``).
        authorize_url: The authorization endpoint the user's browser is sent to.
        token_url: The token endpoint codes and refresh tokens are exchanged at.
        client_id: This application's client id there.
        redirect_uri: Where the server sends the browser back: the ``/v1/oauth/callback``
            route of ``tether serve`` (registered with the provider).
        client_secret: The client secret of a confidential client (None: a public
            client, which PKCE alone protects).
        client_auth: How the secret is sent: ``"basic"`` (HTTP Basic) or ``"post"`` (in
            the form).
        scopes: The scopes asked for.
        per: Whose the token is: ``"session"`` (each session authorizes on its own) or
            ``"principal"`` (one token for every session of the principal the turn
            serves; a turn with no principal keeps it per session).
        authorize_params: Extra query parameters of the authorization URL.
        state_ttl: Seconds an authorization URL stays usable.
        refresh_margin: A token this many seconds from its expiry is refreshed already.
        timeout: Seconds a token request may take.
    """

    name: str
    authorize_url: str
    token_url: str
    client_id: str
    redirect_uri: str
    client_secret: str | None = field(default=None, repr=False)
    client_auth: Literal["basic", "post"] = "basic"
    scopes: tuple[str, ...] = ()
    per: Literal["session", "principal"] = "session"
    authorize_params: Mapping[str, str] = field(default_factory=dict)
    state_ttl: float = 600.0
    refresh_margin: float = 30.0
    timeout: float = 10.0

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "-_." for c in self.name):
            raise ConfigurationError(
                f"OAuth provider name {self.name!r} must be letters, digits, '-', '_' or '.'"
            )
        _check_url(self.authorize_url, f"OAuth provider {self.name!r}: authorize_url")
        _check_url(self.token_url, f"OAuth provider {self.name!r}: token_url")
        _check_url(self.redirect_uri, f"OAuth provider {self.name!r}: redirect_uri")
        if not self.client_id:
            raise ConfigurationError(f"OAuth provider {self.name!r}: client_id is empty")
        if self.per not in ("session", "principal"):
            raise ConfigurationError(
                f"OAuth provider {self.name!r}: per must be 'session' or 'principal', "
                f"not {self.per!r}"
            )
        if self.client_auth not in ("basic", "post"):
            raise ConfigurationError(
                f"OAuth provider {self.name!r}: client_auth must be 'basic' or 'post', "
                f"not {self.client_auth!r}"
            )
        scopes: object = self.scopes
        if isinstance(scopes, str):
            raise ConfigurationError(
                f"OAuth provider {self.name!r}: scopes is a sequence of scopes, not the "
                f"string {self.scopes!r}"
            )
        object.__setattr__(self, "scopes", tuple(self.scopes))
        for what in ("state_ttl", "refresh_margin", "timeout"):
            value = getattr(self, what)
            if not isinstance(value, int | float) or value < 0 or value != value:
                raise ConfigurationError(
                    f"OAuth provider {self.name!r}: {what} must be seconds >= 0, not {value!r}"
                )


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuthToken:
    """An access token a tool got from `ToolContext.authorization`.

    Attributes:
        access_token: Send it as ``Authorization: Bearer <access_token>``.
        token_type: As the server named it (usually ``"Bearer"``).
        expires_at: When it expires (Unix seconds), if the server said.
        refresh_token: What renews it, if the server gave one.
        scope: The scopes granted, if the server said.
    """

    access_token: str = field(repr=False)
    token_type: str = "Bearer"
    expires_at: float | None = None
    refresh_token: str | None = field(default=None, repr=False)
    scope: str | None = None

    def expired(self, now: float, margin: float = 0.0) -> bool:
        """Whether it is expired at `now`, or within `margin` seconds of it."""
        return self.expires_at is not None and now + margin >= self.expires_at

    def _record(self) -> dict[str, Any]:
        return {
            "access_token": self.access_token,
            "token_type": self.token_type,
            "expires_at": self.expires_at,
            "refresh_token": self.refresh_token,
            "scope": self.scope,
        }


def declared_providers(
    auth: OAuthProvider | Sequence[OAuthProvider], where: str
) -> tuple[OAuthProvider, ...]:
    """The providers of a tool's ``auth=`` option, checked.

    Raises:
        ConfigurationError: Not providers, or two of one name.
    """
    providers = (auth,) if isinstance(auth, OAuthProvider) else tuple(auth)
    names: set[str] = set()
    for provider in providers:
        if not isinstance(provider, OAuthProvider):
            raise ConfigurationError(f"{where}: auth takes OAuthProvider values, not {provider!r}")
        if provider.name in names:
            raise ConfigurationError(f"{where}: two OAuth providers are named {provider.name!r}")
        names.add(provider.name)
    return providers


def pkce_challenge(verifier: str) -> str:
    """The S256 code challenge of a PKCE verifier."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def session_owner(agent: str, session_id: str) -> str:
    """The credential owner of a session's own tokens."""
    return f"session:{agent}/{session_id}"


def token_owner(
    provider: OAuthProvider, agent: str, session_id: str, principal: str | None
) -> tuple[str, str]:
    """The credential owner of a provider's token, and the key scope it is sealed under."""
    if provider.per == "principal" and principal is not None:
        return f"principal:{principal}", f"principal:{principal}"
    return session_owner(agent, session_id), run_scope(session_run_id(session_id))


@dataclass(frozen=True, slots=True, kw_only=True)
class AuthorizationGrant:
    """What a completed callback stored, and the request it answers.

    Attributes:
        agent: The agent of the session that asked.
        session_id: The session.
        request_id: The ``authorization`` input request to answer.
        principal: Who may answer it (the turn's principal).
        provider: The provider's name.
        owner: The credential owner the token was stored for.
    """

    agent: str
    session_id: str
    request_id: str
    principal: str | None
    provider: str
    owner: str


def _client_auth(provider: OAuthProvider, form: dict[str, str]) -> dict[str, Any]:
    if provider.client_secret is None:
        form["client_id"] = provider.client_id
        return {}
    if provider.client_auth == "post":
        form["client_id"] = provider.client_id
        form["client_secret"] = provider.client_secret
        return {}
    return {"auth": (provider.client_id, provider.client_secret)}


async def _token_request(provider: OAuthProvider, form: dict[str, str]) -> OAuthToken:
    """POST to the token endpoint; the token it answers with."""
    try:
        import httpx
    except ImportError as exc:  # pragma: no cover - httpx comes with the server extra
        raise MissingExtraError("httpx", "server") from exc
    extra = _client_auth(provider, form)
    try:
        async with httpx.AsyncClient(timeout=provider.timeout) as client:
            response = await client.post(
                provider.token_url, data=form, headers={"accept": "application/json"}, **extra
            )
    except httpx.HTTPError as exc:
        raise OAuthError(provider.name, "unreachable", f"{type(exc).__name__}: {exc}") from exc
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.status_code >= 400 or not isinstance(body, dict) or "access_token" not in body:
        error = body.get("error") if isinstance(body, dict) else None
        description = body.get("error_description") if isinstance(body, dict) else None
        raise OAuthError(
            provider.name,
            str(error or f"http_{response.status_code}"),
            str(description or ("" if error else response.text[:200])),
        )
    expires_in = body.get("expires_in")
    return OAuthToken(
        access_token=str(body["access_token"]),
        token_type=str(body.get("token_type") or "Bearer"),
        expires_at=time.time() + float(expires_in) if expires_in is not None else None,
        refresh_token=body.get("refresh_token"),
        scope=body.get("scope"),
    )


def _encode(token: OAuthToken, refreshing_until: float | None = None) -> bytes:
    return orjson.dumps({"token": token._record(), "refreshing_until": refreshing_until})


def _decode(data: bytes) -> tuple[OAuthToken, float | None]:
    record = orjson.loads(data)
    return OAuthToken(**record["token"]), record.get("refreshing_until")


class OAuthAccess:
    """What a tool call needs to get tokens: the store, who it runs for, its request.

    Built by the tool runner for each call; `ToolContext.authorization` uses it.
    """

    def __init__(
        self,
        *,
        stores: Stores,
        agent: str,
        session_id: str,
        principal: str | None,
        tool_name: str,
        providers: Sequence[OAuthProvider],
        request_id: str,
    ) -> None:
        self.stores = stores
        self.agent = agent
        self.session_id = session_id
        self.principal = principal
        self.tool_name = tool_name
        self.providers = tuple(providers)
        self.request_id = request_id

    def _store(self) -> CredentialStore:
        store = self.stores.credentials
        if store is None:
            raise ConfigurationError(
                "this backend keeps no credentials (Stores.credentials is None): OAuth "
                "tokens need the memory, SQLite or Postgres backend, or one that has them"
            )
        return store

    def provider(self, provider: OAuthProvider | str | None) -> OAuthProvider:
        """The declared provider `provider` names (the only one when None)."""
        names = [p.name for p in self.providers]
        if provider is None:
            if len(self.providers) != 1:
                raise ConfigurationError(
                    f"tool {self.tool_name!r} declares the OAuth providers {names}: name one "
                    "(ctx.authorization(provider)); declare them with @tool(auth=...)"
                )
            return self.providers[0]
        name = provider if isinstance(provider, str) else provider.name
        for declared in self.providers:
            if declared.name == name:
                return declared
        raise ConfigurationError(
            f"tool {self.tool_name!r} does not declare OAuth provider {name!r} (it declares "
            f"{names}): add it to @tool(auth=...), so the callback can find it"
        )

    async def token(self, provider: OAuthProvider) -> OAuthToken:
        """A valid token of `provider`: stored, refreshed, or else asked for."""
        store = self._store()
        owner, scope = token_owner(provider, self.agent, self.session_id, self.principal)
        name = _TOKEN_PREFIX + provider.name
        try:
            with data_scope(scope):
                token = await _valid_token(store, owner, name, provider)
        except OAuthError as exc:
            # An outage, not the model's to see: the step is retried.
            raise ToolUnavailableError(self.tool_name, str(exc)) from exc
        if token is not None:
            return token
        raise AuthorizationRequired(
            f"connect {provider.name} to continue",
            provider=provider.name,
            url=await self._ask(provider),
        )

    async def _ask(self, provider: OAuthProvider) -> str:
        """Store a pending authorization; the URL the user's browser opens."""
        state = secrets.token_urlsafe(32)
        verifier = secrets.token_urlsafe(64)
        pending = {
            "agent": self.agent,
            "session_id": self.session_id,
            "principal": self.principal,
            "tool": self.tool_name,
            "provider": provider.name,
            "request_id": self.request_id,
            "verifier": verifier,
            "redirect_uri": provider.redirect_uri,
        }
        store = self._store()
        now = time.time()
        # Pending authorizations nobody completed (abandoned, their turn cancelled) go
        # once expired: each new one sweeps them, so they never pile up.
        await store.purge_expired_credentials(STATE_OWNER, now)
        with data_scope(run_scope(session_run_id(self.session_id))):
            await store.put_credential(
                STATE_OWNER,
                state,
                orjson.dumps(pending),
                expected_version=0,
                expires_at=now + provider.state_ttl,
            )
        query = {
            **provider.authorize_params,
            "response_type": "code",
            "client_id": provider.client_id,
            "redirect_uri": provider.redirect_uri,
            "state": state,
            "code_challenge": pkce_challenge(verifier),
            "code_challenge_method": "S256",
        }
        if provider.scopes:
            query["scope"] = " ".join(provider.scopes)
        joiner = "&" if urllib.parse.urlsplit(provider.authorize_url).query else "?"
        return provider.authorize_url + joiner + urllib.parse.urlencode(query)


async def _valid_token(
    store: CredentialStore, owner: str, name: str, provider: OAuthProvider
) -> OAuthToken | None:
    """The stored token if valid, else refreshed (once across racing calls), else None."""
    deadline = time.monotonic() + provider.timeout + 5.0
    while True:
        found = await store.get_credential(owner, name)
        if found is None:
            return None
        token, refreshing_until = _decode(found.data)
        now = time.time()
        if not token.expired(now, provider.refresh_margin):
            return token
        if token.refresh_token is None:
            return None
        if refreshing_until is not None and refreshing_until > now:
            # Another call holds the refresh: wait for the token it stores.
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.05)
            continue
        try:
            claimed = await store.put_credential(
                owner,
                name,
                _encode(token, now + provider.timeout + 5.0),
                expected_version=found.version,
                expires_at=found.expires_at,
            )
        except ConflictError:
            continue  # another call claimed it first: read what it left
        form = {"grant_type": "refresh_token", "refresh_token": token.refresh_token}
        try:
            fresh = await _token_request(provider, form)
        except OAuthError as exc:
            if exc.error == "unreachable":
                # Give the claim back: the next call may try again.
                await store.put_credential(
                    owner, name, _encode(token), expected_version=claimed.version
                )
                raise
            # The refresh token is no good any more: authorize again.
            await store.take_credential(owner, name, expected_version=claimed.version)
            return None
        if fresh.refresh_token is None:
            # A server that does not rotate refresh tokens keeps the one it gave.
            fresh = OAuthToken(**{**fresh._record(), "refresh_token": token.refresh_token})
        await store.put_credential(
            owner, name, _encode(fresh), expected_version=claimed.version, expires_at=None
        )
        return fresh


async def _take_pending(stores: Stores, state: str) -> dict[str, Any]:
    store = stores.credentials
    if store is None:
        raise OAuthStateError("unknown (this backend keeps no credentials)")
    # Taken, not read: of two callbacks with one state (a replay), one gets it.
    taken = await store.take_credential(STATE_OWNER, state)
    if taken is None:
        raise OAuthStateError("unknown or used already")
    if taken.expires_at is not None and taken.expires_at < time.time():
        raise OAuthStateError("expired")
    pending: dict[str, Any] = orjson.loads(taken.data)
    return pending


def _grant(pending: Mapping[str, Any], owner: str) -> AuthorizationGrant:
    return AuthorizationGrant(
        agent=pending["agent"],
        session_id=pending["session_id"],
        request_id=pending["request_id"],
        principal=pending["principal"],
        provider=pending["provider"],
        owner=owner,
    )


async def complete_authorization(
    stores: Stores,
    providers: Mapping[tuple[str, str], OAuthProvider],
    *,
    state: str,
    code: str,
) -> AuthorizationGrant:
    """Exchange a callback's code for a token and store it (the callback route's work).

    Args:
        stores: The stores.
        providers: The declared providers by ``(agent name, provider name)``.
        state: The callback's ``state`` (taken: a second callback with it is refused).
        code: The authorization code.

    Raises:
        OAuthStateError: The state is unknown, used already or expired, or names a
            provider no agent here declares.
        OAuthError: The token endpoint refused the code.
    """
    pending = await _take_pending(stores, state)
    provider = providers.get((pending["agent"], pending["provider"]))
    if provider is None:
        raise OAuthStateError(
            f"for provider {pending['provider']!r}, which agent {pending['agent']!r} "
            "does not declare here"
        )
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": pending["redirect_uri"],
        "code_verifier": pending["verifier"],
    }
    token = await _token_request(provider, form)
    owner, scope = token_owner(
        provider, pending["agent"], pending["session_id"], pending["principal"]
    )
    assert stores.credentials is not None  # `_take_pending` found the store
    with data_scope(scope):
        await stores.credentials.put_credential(
            owner, _TOKEN_PREFIX + provider.name, _encode(token)
        )
    return _grant(pending, owner)


async def refuse_authorization(stores: Stores, *, state: str) -> AuthorizationGrant:
    """Take the pending authorization of a callback that brings an error, not a code.

    Raises:
        OAuthStateError: The state is unknown, used already or expired.
    """
    pending = await _take_pending(stores, state)
    return _grant(pending, "")
