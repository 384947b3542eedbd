"""The OAuth callback: where a user's browser comes back after authorizing a tool.

``GET /v1/oauth/callback?code=...&state=...`` is public: the browser carries no bearer
token, and the ``state`` (random, single-use, expiring, bound to the PKCE verifier kept
server-side) is the authority. The route exchanges the code at the provider's token
endpoint, stores the token, and answers the parked turn's ``authorization`` request
``{"authorized": true}``: the turn resumes and the tool runs again with its token. A
callback carrying ``error`` (the user declined) answers it ``{"authorized": false}``.
"""

from __future__ import annotations

import html
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..agent import AgentHost, OAuthProvider, Tool
from ..agent._tools._oauth import AuthorizationGrant, complete_authorization, refuse_authorization
from ..errors import ConfigurationError, InputRequestError, OAuthError, OAuthStateError
from ._http import endpoint
from ._openapi_parts import operation, query, said
from ._problems import ApiProblem

__all__ = ["oauth_paths", "oauth_providers", "oauth_routes"]

_PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
    "<body><h1>{title}</h1><p>{text}</p></body></html>"
)


def oauth_providers(host: AgentHost) -> dict[tuple[str, str], OAuthProvider]:
    """The OAuth providers the served agents' tools declare, by (agent, provider name).

    Raises:
        ConfigurationError: Two tools of one agent declare different providers of one name.
    """
    found: dict[tuple[str, str], OAuthProvider] = {}
    for agent in host.agents:
        for each in agent.tools:
            if not isinstance(each, Tool):
                continue
            for provider in each.auth:
                key = (agent.name, provider.name)
                if key in found and found[key] != provider:
                    raise ConfigurationError(
                        f"agent {agent.name!r}: two tools declare different OAuth providers "
                        f"named {provider.name!r}; give them one declaration, or two names"
                    )
                found[key] = provider
    return found


def _page(status: int, title: str, text: str) -> Response:
    body = _PAGE.format(title=html.escape(title), text=html.escape(text))
    return HTMLResponse(body, status_code=status)


def oauth_routes(host: AgentHost) -> list[Route]:
    """The callback route of the agents served by `host`."""
    providers = oauth_providers(host)
    stores = host.backend.stores

    async def answer(grant: AuthorizationGrant, value: dict[str, Any]) -> None:
        session = host.session(grant.agent, grant.session_id)
        principal = grant.principal
        if principal is None:
            # A turn of no principal: with approvers named, the answer comes as one (the
            # state, taken, is the authority here).
            for pending in await session.pending_requests():
                if pending.request_id == grant.request_id and pending.approvers:
                    principal = pending.approvers[0]
        try:
            await session.answer(grant.request_id, value, principal=principal)
        except InputRequestError as exc:
            # The token stays stored: a later call of the tool finds it.
            raise ApiProblem(409, "answer_refused", str(exc), reason=exc.reason) from None

    async def callback(request: Request) -> Response:
        params = request.query_params
        state = params.get("state")
        if not state:
            raise ApiProblem(
                422,
                "invalid_input",
                "the callback has no state: open the authorization URL of the tool's "
                "authorization request, which comes back here with one",
            )
        try:
            if params.get("error"):
                grant = await refuse_authorization(stores, state=state)
                reason = params.get("error_description") or params["error"]
                await answer(grant, {"authorized": False, "reason": f"{params['error']}: {reason}"})
                return _page(200, "Not authorized", f"{grant.provider} was not connected.")
            code = params.get("code")
            if not code:
                raise ApiProblem(
                    400, "invalid_request", "the callback has neither a code nor an error"
                )
            grant = await complete_authorization(stores, providers, state=state, code=code)
        except OAuthStateError as exc:
            raise ApiProblem(400, "invalid_state", str(exc), reason=exc.reason) from None
        except OAuthError as exc:
            raise ApiProblem(
                502, "token_endpoint_error", str(exc), provider=exc.provider, error=exc.error
            ) from None
        await answer(grant, {"authorized": True})
        return _page(
            200,
            "Authorized",
            f"{grant.provider} is connected; you can close this window and go back.",
        )

    return [Route("/v1/oauth/callback", endpoint(callback), methods=["GET"])]


def oauth_paths() -> dict[str, Any]:
    """The callback's entry of the OpenAPI document."""
    text = {"type": "string"}
    return {
        "/v1/oauth/callback": {
            "get": operation(
                "oauthCallback",
                "Complete a tool's OAuth authorization (the browser's redirect; the state is "
                "the authority)",
                {
                    "200": {
                        **said("authorized (or declined): a page for the user"),
                        "content": {"text/html": {"schema": text}},
                    }
                },
                400,
                409,
                422,
                502,
                parameters=[
                    {
                        **query("state", {**text, "minLength": 1}, "the authorization URL's state"),
                        "required": True,
                    },
                    query("code", text, "the authorization code"),
                    query("error", text, "the authorization server's error (declined)"),
                    query("error_description", text, "what it said about the error"),
                ],
                public=True,
            )
        }
    }
