"""Who makes a request: principals, bearer tokens, and the authenticator hook."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request

from ..errors import ConfigurationError

__all__ = [
    "LOCAL_PRINCIPAL",
    "Authenticator",
    "BearerTokens",
    "Principal",
    "default_authenticator",
]

#: Environment variable: ``TOKEN=PRINCIPAL@TENANT`` pairs separated by commas.
TOKENS_ENV = "TETHER_SERVER_TOKENS"
#: Environment variable: a JSON file ``{"TOKEN": {"principal": ..., "tenant": ...}}``.
TOKENS_FILE_ENV = "TETHER_SERVER_TOKENS_FILE"


@dataclass(frozen=True, slots=True, kw_only=True)
class Principal:
    """Who a request speaks for.

    Attributes:
        id: The principal: the author of the messages and answers it sends. Only the
            turn's principal (or an approver the agent names) may answer its approvals.
        tenant: Whose sessions it sees: a session belongs to its creator's tenant and is
            invisible (404) to every other tenant.
    """

    id: str
    tenant: str


#: The principal of every request of an app run without authentication (localhost only).
LOCAL_PRINCIPAL = Principal(id="local", tenant="local")

#: Turns a request into its principal, or None (the request is refused with 401).
Authenticator = Callable[[Request], Awaitable[Principal | None]]


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def _checked(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ConfigurationError(f"{what} must be a non-empty string of at most 200 characters")
    return value


class BearerTokens:
    """The default authenticator: ``Authorization: Bearer TOKEN`` mapped to principals.

    Tokens are kept as SHA-256 digests and compared in constant time, so neither a
    memory dump nor timing tells a token.

    Args:
        tokens: Token to principal.

    Raises:
        ConfigurationError: No token, or a token shorter than 16 characters.
    """

    def __init__(self, tokens: Mapping[str, Principal]) -> None:
        if not tokens:
            raise ConfigurationError("BearerTokens needs at least one token")
        self._tokens: list[tuple[bytes, Principal]] = []
        for token, principal in tokens.items():
            if len(token) < 16:
                raise ConfigurationError(
                    "bearer tokens must have at least 16 characters (use secrets.token_urlsafe)"
                )
            self._tokens.append((_digest(token), principal))

    def __len__(self) -> int:
        return len(self._tokens)

    @classmethod
    def from_env(cls, value: str) -> BearerTokens:
        """Parse ``TOKEN=PRINCIPAL@TENANT,...`` (the tenant defaults to the principal)."""
        tokens: dict[str, Principal] = {}
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            token, sep, who = item.partition("=")
            if not sep:
                raise ConfigurationError(
                    f"{TOKENS_ENV}: write TOKEN=PRINCIPAL@TENANT pairs separated by commas"
                )
            principal, _, tenant = who.partition("@")
            tokens[token.strip()] = Principal(
                id=_checked(principal.strip(), "a principal"),
                tenant=_checked((tenant or principal).strip(), "a tenant"),
            )
        return cls(tokens)

    @classmethod
    def from_file(cls, path: str | Path) -> BearerTokens:
        """Read ``{"TOKEN": {"principal": "ada", "tenant": "acme"}, ...}`` from a JSON file."""
        try:
            raw = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise ConfigurationError(f"cannot read the token file {str(path)!r}: {exc}") from exc
        if not isinstance(raw, dict):
            raise ConfigurationError(f"token file {str(path)!r}: expected a JSON object")
        tokens: dict[str, Principal] = {}
        for token, who in raw.items():
            if not isinstance(who, dict):
                raise ConfigurationError(
                    f"token file {str(path)!r}: each token maps to "
                    '{"principal": ..., "tenant": ...}'
                )
            principal = _checked(who.get("principal"), "a principal")
            tenant = _checked(who.get("tenant", principal), "a tenant")
            tokens[token] = Principal(id=principal, tenant=tenant)
        return cls(tokens)

    async def __call__(self, request: Request) -> Principal | None:
        """The principal of the request's bearer token, or None."""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        digest = _digest(token.strip())
        found: Principal | None = None
        for known, principal in self._tokens:
            # Every entry is compared: the time taken does not tell which one matched.
            if hmac.compare_digest(known, digest):
                found = principal
        return found


def default_authenticator(environ: Mapping[str, str] | None = None) -> BearerTokens | None:
    """Bearer tokens from ``TETHER_SERVER_TOKENS_FILE`` or ``TETHER_SERVER_TOKENS``.

    Returns None when neither is set.
    """
    env = os.environ if environ is None else environ
    path = env.get(TOKENS_FILE_ENV)
    if path:
        return BearerTokens.from_file(path)
    value = env.get(TOKENS_ENV)
    if value:
        return BearerTokens.from_env(value)
    return None
