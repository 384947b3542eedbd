"""`_Api`: the HTTP API's state and its session routes' handlers (`create_app` binds them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, TypeAdapter
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ..agent import EVENTS_STREAM, AgentHost, Session, TranscriptEntry
from ..errors import (
    ContentDeletedError,
    InvalidInputError,
    NotFoundError,
    SessionStrandedError,
)
from ._auth import LOCAL_PRINCIPAL, Authenticator, Principal
from ._feeds import FeedHub, WireEvent, format_of, frame, read_wire
from ._http import (
    bool_param,
    int_param,
    is_loopback,
    json_response,
    pattern_param,
)
from ._inspect import answer_as
from ._models import CURSOR_PATTERN, AnswerBody, CreateSessionBody, SendBody, is_id, refs_of
from ._options import ServerOptions
from ._problems import ApiProblem

__all__ = ["_Api"]

log = logging.getLogger("tether.server")

M = TypeVar("M", bound=BaseModel)

_CURSOR = re.compile(CURSOR_PATTERN)


class _Api:
    """The route bodies, sharing the host, the feeds and the session cache."""

    def __init__(
        self,
        host: AgentHost,
        authenticator: Authenticator | None,
        options: ServerOptions,
    ) -> None:
        self.host = host
        self.auth = authenticator
        self.options = options
        self.feeds = FeedHub(host, linger=options.feed_linger)
        # session id -> (agent, owner): both are fixed when a session opens.
        self._known: OrderedDict[str, tuple[str, str | None]] = OrderedDict()
        # Session handles, reused: each caches its run handle and its inbox's hook
        # token, which saves a send three reads.
        self._handles: OrderedDict[str, Session] = OrderedDict()
        # Set when the server shuts down: open event streams end (clients reconnect).
        self.stopping = asyncio.Event()
        # session id -> when a follow last found it neither stranded nor deleted.
        self._checked: dict[str, float] = {}

    # -- plumbing ---------------------------------------------------------------------------
    async def principal(self, request: Request) -> Principal:
        if self.auth is None:
            client = request.client.host if request.client is not None else None
            if not is_loopback(client):
                raise ApiProblem(
                    401,
                    "unauthenticated",
                    "this server runs without authentication and answers localhost only",
                )
            return LOCAL_PRINCIPAL
        principal = await self.auth(request)
        if principal is None:
            raise ApiProblem(401, "unauthenticated", "a valid bearer token is required")
        return principal

    async def operator(self, request: Request) -> Principal:
        """The request's principal, if it is an operator (`ServerOptions.operators`)."""
        principal = await self.principal(request)
        if self.auth is None or f"{principal.id}@{principal.tenant}" in self.options.operators:
            return principal
        raise ApiProblem(
            403,
            "operator_only",
            "only an operator of this server may do this: name the principal with "
            "tether serve --operator ID@TENANT (ServerOptions.operators)",
        )

    async def body(self, request: Request, model: type[M], limit: int | None = None) -> M:
        limit = limit or self.options.max_body_bytes
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise ApiProblem(413, "body_too_large", f"the body exceeds {limit} bytes")
        raw = bytearray()
        async for part in request.stream():
            raw += part
            if len(raw) > limit:
                raise ApiProblem(413, "body_too_large", f"the body exceeds {limit} bytes")
        try:
            value = orjson.loads(raw) if raw else {}
        except orjson.JSONDecodeError as exc:
            raise ApiProblem(422, "invalid_json", f"the body is not JSON: {exc}") from None
        return model.model_validate(value)

    def remember(self, session_id: str, agent: str, owner: str | None) -> None:
        self._known[session_id] = (agent, owner)
        self._known.move_to_end(session_id)
        while len(self._known) > 10_000:
            self._known.popitem(last=False)

    async def session(self, session_id: str, principal: Principal) -> Session:
        """The caller's session, or 404 (unknown, or another tenant's)."""
        missing = ApiProblem(404, "not_found", f"no session {session_id!r}")
        if not is_id(session_id):
            raise missing
        known = self._known.get(session_id)
        if known is None:
            try:
                found = await self.host.get_session(session_id)
            except ContentDeletedError as exc:
                # Erased on an encrypted store: whose it was is unreadable too, but its
                # run keeps a digest of its owner: that tenant learns it expired, any
                # other one that it does not exist.
                if await self.host.erased_session_owned_by(session_id, principal.tenant):
                    raise ApiProblem(410, "session_expired", str(exc)) from None
                raise missing from None
            except NotFoundError:
                raise missing from None
            known = (found.agent_name, found.owner)
            self.remember(session_id, *known)
        agent, owner = known
        if owner != principal.tenant:
            raise missing
        session = self._handles.get(session_id)
        if session is None:
            session = self.host.session(agent, session_id)
            session.owner = owner
            self._handles[session_id] = session
            while len(self._handles) > 10_000:
                self._handles.popitem(last=False)
        else:
            self._handles.move_to_end(session_id)
        return session

    async def _target(self, request: Request) -> Session:
        principal = await self.principal(request)
        return await self.session(request.path_params["session_id"], principal)

    # -- sessions ---------------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        principal = await self.principal(request)
        body = await self.body(request, CreateSessionBody)
        agent = body.agent
        if agent is None:
            names = self.host.agents.names()
            if len(names) != 1:
                raise ApiProblem(422, "invalid_input", f"name the agent: one of {names}")
            agent = names[0]
        if agent not in self.host.agents:
            raise ApiProblem(
                422, "invalid_input", f"no agent {agent!r}; served: {self.host.agents.names()}"
            )
        status = 201
        if body.session_id is not None:
            try:
                existing = await self.session(body.session_id, principal)
            except ApiProblem:
                existing = None
            if existing is not None:
                if existing.agent_name != agent:
                    raise ApiProblem(
                        409, "conflict", f"session {body.session_id!r} is of another agent"
                    )
                status = 200
            elif body.session_id in self._known or await self.exists(body.session_id):
                # Another tenant's: say only that the id is taken.
                raise ApiProblem(409, "conflict", f"session id {body.session_id!r} is taken")
        try:
            session = await self.host.open_session(
                agent, session_id=body.session_id, owner=principal.tenant,
                retention=body.retention, audience=body.audience,
            )  # fmt: skip
        except NotFoundError:
            # The id's run is there but holds no session to open (erased, say).
            raise ApiProblem(409, "conflict", f"session id {body.session_id!r} is taken") from None
        self.remember(session.session_id, agent, principal.tenant)
        state = await session.state()
        return json_response(
            state.to_json(),
            status,
            headers={"Location": f"/v1/sessions/{session.session_id}"},
        )

    async def exists(self, session_id: str) -> bool:
        """Whether the id holds a session, erased ones included (the id stays taken)."""
        try:
            await self.host.get_session(session_id)
        except ContentDeletedError:
            return True
        except NotFoundError:
            return False
        return True

    async def list(self, request: Request) -> Response:
        principal = await self.principal(request)
        query = request.query_params
        limit = int_param(query.get("limit"), "limit", default=50, low=1, high=500)
        agent = query.get("agent")
        if agent is not None and agent not in self.host.agents:
            raise ApiProblem(422, "invalid_input", f"no agent {agent!r}")
        cursor = pattern_param(query.get("cursor"), "cursor", _CURSOR, "a next_cursor")
        try:
            page = await self.host.list_sessions(
                owner=principal.tenant, agent=agent, limit=limit, cursor=cursor
            )
        except (InvalidInputError, ValueError):
            raise ApiProblem(422, "invalid_input", "bad cursor") from None
        return json_response(
            {"items": [i.to_json() for i in page.items], "next_cursor": page.next_cursor}
        )

    async def get(self, request: Request) -> Response:
        session = await self.session(
            request.path_params["session_id"], await self.principal(request)
        )
        out = (await session.state()).to_json()
        # Tenants learn that a worker holds the run, not which host and process it is.
        progress = await self.host.session_progress(session.session_id)
        out["progress"] = progress.opaque().to_json()
        return json_response(out)

    async def send(self, request: Request) -> Response:
        principal = await self.principal(request)
        session = await self.session(request.path_params["session_id"], principal)
        body = await self.body(request, SendBody)
        submission = await session.send(
            body.text,
            client_message_id=body.client_message_id,
            principal=principal.id,
            turn_policy=body.turn_policy,
            attachments=refs_of(body.attachments),
        )
        return json_response({"submission_id": submission, "session_id": session.session_id}, 202)

    async def requests(self, request: Request) -> Response:
        session = await self._target(request)
        pending = await session.pending_requests()
        return json_response({"items": [r.to_json() for r in pending]})

    async def answer(self, request: Request) -> Response:
        principal = await self.principal(request)
        session = await self.session(request.path_params["session_id"], principal)
        request_id = request.path_params["request_id"]
        body = await self.body(request, AnswerBody)
        await answer_as(session, principal, request_id, body.answer)
        return json_response({"request_id": request_id, "answered": True})

    async def cancel(self, request: Request) -> Response:
        principal = await self.principal(request)
        session = await self.session(request.path_params["session_id"], principal)
        await session.cancel_turn(principal=principal.id)
        return json_response({"session_id": session.session_id, "cancelled": True}, 202)

    async def close(self, request: Request) -> Response:
        session = await self.session(
            request.path_params["session_id"], await self.principal(request)
        )
        await session.close()
        return json_response({"session_id": session.session_id, "closing": True}, 202)

    async def reset(self, request: Request) -> Response:
        principal = await self.principal(request)
        session = await self.session(request.path_params["session_id"], principal)
        try:
            fresh = await session.reset(principal=principal.id)
        except TimeoutError:
            raise ApiProblem(
                409,
                "reset_pending",
                "the session's turn did not stop in time; its cancel stands: reset again",
            ) from None
        self._handles[session.session_id] = fresh
        return json_response((await fresh.state()).to_json())

    async def clear(self, request: Request) -> Response:
        principal = await self.principal(request)
        session = await self.session(request.path_params["session_id"], principal)
        await session.clear(principal=principal.id)
        return json_response({"session_id": session.session_id, "clearing": True}, 202)

    async def history(self, request: Request) -> Response:
        session = await self.session(
            request.path_params["session_id"], await self.principal(request)
        )
        query = request.query_params
        start = int_param(query.get("start"), "start", default=0)
        limit = int_param(query.get("limit"), "limit", default=1000, low=1, high=10_000)
        events = (await read_wire(session, start))[:limit]
        next_offset = events[-1].index + 1 if events else await self.tail(session)
        if start >= 0 and not events:
            next_offset = min(start, next_offset)
        return json_response(
            {"events": [orjson.Fragment(e.json) for e in events], "next_offset": next_offset},
            headers={"Stream-Next-Offset": str(next_offset)},
        )

    async def transcript(self, request: Request) -> Response:
        session = await self._target(request)
        entries = await session.transcript()
        return json_response({"entries": _ENTRIES.dump_python(entries, mode="json")})

    async def state_values(self, request: Request) -> Response:
        session = await self._target(request)
        values = await session.state_values()
        return json_response({"session_id": session.session_id, "values": values.to_json()})

    async def usage(self, request: Request) -> Response:
        session = await self._target(request)
        return json_response((await session.usage()).to_json())

    async def tail(self, session: Session) -> int:
        chunks, _ = await self.host.client.stream(session.run_id, EVENTS_STREAM).read(-1)
        return chunks[-1].index + 1 if chunks else 0

    # -- the event stream -------------------------------------------------------------------
    async def events(self, request: Request) -> Response:
        session = await self.session(
            request.path_params["session_id"], await self.principal(request)
        )
        query = request.query_params
        follow = bool_param(query.get("follow"), "follow", default=True)
        start = int_param(query.get("start"), "start", default=0)
        last_id = request.headers.get("last-event-id")
        if last_id is not None:
            start = int_param(last_id.strip(), "Last-Event-ID", default=0, low=-1) + 1
        fmt = query.get("format")
        if fmt is None:
            fmt = format_of(request.headers.get("accept", ""))
        if fmt not in ("sse", "ndjson"):
            raise ApiProblem(422, "invalid_input", "format is sse or ndjson")
        if not follow:
            # Read-only, and the whole answer at once: a page of history in a stream's framing.
            wire = await read_wire(session, start)
            next_offset = wire[-1].index + 1 if wire else await self.tail(session)
            body = b"".join(frame(w, fmt) for w in wire)
            return Response(
                body,
                media_type=_MEDIA[fmt],
                headers={"Stream-Next-Offset": str(next_offset), "Cache-Control": "no-store"},
            )
        await self._check_followable(session)
        end = self.feeds.end(session.run_id)
        if start >= 0 and end is not None and start <= end:
            # A reconnect to a warm listener: it knows the tail, no read needed.
            first = start
        else:
            tail = await self.tail(session)
            first = max(0, tail + start) if start < 0 else min(start, tail)
        stream = self._stream(session.run_id, first, fmt)
        return StreamingResponse(
            stream,
            media_type=_MEDIA[fmt],
            headers={
                "Stream-Next-Offset": str(first),
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
            },
        )

    async def _check_followable(self, session: Session) -> None:
        """409 if the session is stranded, 410 if its content is gone.

        The full check (several reads) runs at most once per `ServerOptions.check_ttl`
        per session; in between, one read tells whether the session's run has ended.
        Retention and erasure delete content only from a run that has ended, so a run
        still going has nothing deleted: a storm of reconnects stays cheap, and a
        reconnect never replays deleted content from the shared listener's memory.
        """
        now = time.monotonic()
        checked = self._checked.get(session.session_id)
        if checked is not None and now - checked < self.options.check_ttl:
            stream = self.host.client.stream(session.run_id, EVENTS_STREAM)
            if not await stream.run_ended():
                return
        # The session's current run: a reset or moved session goes on in a later one.
        info = await self.host.client.latest(session.run_id)
        if info.stranded:
            raise SessionStrandedError(session.session_id, info.engine_version, info.deployment)
        # Retention or erasure: refused before the response starts.
        await read_wire(session, -1)
        self._checked[session.session_id] = now
        if len(self._checked) > 10_000:
            self._checked.clear()

    def end_streams(self) -> None:
        """End every open event stream (at shutdown: clients reconnect elsewhere)."""
        self.stopping.set()

    async def _stream(self, run_id: str, start: int, fmt: str) -> AsyncIterator[bytes]:
        keepalive = b": keep-alive\n\n" if fmt == "sse" else b"\n"
        if fmt == "sse":
            yield b"retry: 1000\n\n"
        async with contextlib.aclosing(self.live(run_id, start)) as events:
            async for event in events:
                yield keepalive if event is None else frame(event, fmt)

    async def live(self, run_id: str, start: int) -> AsyncGenerator[WireEvent | None, None]:
        """A session's events from `start`, None when `keepalive` passed without one.

        Ends with the stream, or when the server stops (clients go on by offset).
        """
        source = self.feeds.follow(run_id, start)
        pending: asyncio.Future[Any] | None = None
        stopping: asyncio.Future[Any] = asyncio.ensure_future(self.stopping.wait())
        try:
            while True:
                if pending is None:
                    pending = asyncio.ensure_future(anext(source))
                done, _ = await asyncio.wait(
                    {pending, stopping},
                    timeout=self.options.keepalive,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if stopping.done():
                    return
                if not done:
                    yield None
                    continue
                try:
                    event = pending.result()
                except StopAsyncIteration:
                    return
                pending = None
                yield event
        finally:
            stopping.cancel()
            if pending is not None:
                pending.cancel()
                with contextlib.suppress(BaseException):
                    await pending
            await source.aclose()  # type: ignore[attr-defined]

    # -- hooks ------------------------------------------------------------------------------
    async def hook(self, request: Request) -> Response:
        token = request.path_params["token"]
        limit = self.options.max_body_bytes
        raw = bytearray()
        async for part in request.stream():
            raw += part
            if len(raw) > limit:
                raise ApiProblem(413, "body_too_large", f"the body exceeds {limit} bytes")
        try:
            payload = orjson.loads(raw) if raw else None
        except orjson.JSONDecodeError as exc:
            raise ApiProblem(422, "invalid_json", f"the body is not JSON: {exc}") from None
        try:
            await self.host.client.resume_hook(token, payload)
        except (NotFoundError, InvalidInputError):
            # A forged or spent token learns nothing: the same 404 either way.
            raise ApiProblem(404, "not_found", "no hook has this token") from None
        return json_response({"resumed": True}, 202)


_ENTRIES: TypeAdapter[list[Any]] = TypeAdapter(list[TranscriptEntry])
_MEDIA = {"sse": "text/event-stream", "ndjson": "application/x-ndjson"}
