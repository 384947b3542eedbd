"""`tether sessions list|show|send|answer|follow`: a client of a server, or of a store.

Against a server (``--server URL``, default ``$TETHER_SERVER_URL``, with ``--token`` or
``$TETHER_TOKEN``) it speaks the HTTP API; with ``--db URL --app MODULE:ATTR`` it
opens the store directly (as the agents' owner, no tenant). Streamed text is
rendered as it arrives; everything printed from the data is escaped.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigurationError, MissingExtraError, TetherError
from ._follow import follow_events
from ._format import printable, table
from ._terminal import paint, show_table
from ._usage import retried_note

# A file to attach: (bytes, media type, name, id to upload it under or None).
File = tuple[bytes, str, str, str | None]


def read_files(specs: Sequence[str], message_id: str | None) -> list[File]:
    """The files ``--file PATH[:MIME]`` names, read.

    With a message id each file gets an id derived from it, so sending the same
    message again (a retry) uploads nothing new.
    """
    out: list[File] = []
    for index, spec in enumerate(specs):
        path, mime = spec, None
        head, sep, tail = spec.rpartition(":")
        if sep and "/" in tail and not Path(spec).exists():
            path, mime = head, tail
        mime = mime or mimetypes.guess_type(path)[0] or "application/octet-stream"
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise ConfigurationError(f"--file {spec!r}: {exc.strerror or exc}") from None
        attachment_id = None
        if message_id:
            seed = f"{message_id}\x00{index}".encode()
            attachment_id = "att_" + hashlib.sha256(seed).hexdigest()[:32]
        out.append((data, mime, Path(path).name, attachment_id))
    return out


class _Sessions(Protocol):
    async def list(self) -> list[dict[str, Any]]: ...
    async def show(self, session_id: str) -> dict[str, Any]: ...
    async def usage(self, session_id: str) -> dict[str, Any]: ...
    async def budget(
        self, session_id: str, tokens: int | None, cost: float | None
    ) -> dict[str, Any] | None: ...
    async def state(self, session_id: str) -> dict[str, Any]: ...
    async def send(
        self, session_id: str, text: str, message_id: str | None, files: Sequence[File] = ()
    ) -> str: ...
    async def tail(self, session_id: str) -> int: ...
    async def fork(self, session_id: str, body: dict[str, Any]) -> dict[str, Any]: ...
    async def answer(self, session_id: str, request_id: str, answer: Any) -> None: ...
    def events(self, session_id: str, start: int, follow: bool) -> AsyncIterator[dict[str, Any]]:
        """The session's events."""
        ...

    async def close(self) -> None: ...


class _HttpSessions:
    def __init__(self, url: str, token: str | None) -> None:
        try:
            import httpx
        except ImportError as exc:
            raise MissingExtraError("httpx", "server") from exc
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.AsyncClient(base_url=url.rstrip("/"), headers=headers, timeout=30.0)

    async def _call(self, method: str, path: str, body: Any = None) -> Any:
        r = await self._http.request(method, path, json=body)
        if r.status_code >= 400:
            try:
                detail = r.json().get("detail", r.text)
            except ValueError:
                detail = r.text
            raise TetherError(f"{r.status_code}: {detail}")
        return r.json()

    async def list(self) -> list[dict[str, Any]]:
        return list((await self._call("GET", "/v1/sessions"))["items"])

    async def show(self, session_id: str) -> dict[str, Any]:
        return dict(await self._call("GET", f"/v1/sessions/{session_id}"))

    async def usage(self, session_id: str) -> dict[str, Any]:
        return dict(await self._call("GET", f"/v1/sessions/{session_id}/usage"))

    async def budget(
        self, session_id: str, tokens: int | None, cost: float | None
    ) -> dict[str, Any] | None:
        if tokens is None and cost is None:
            r = await self._http.get(f"/v1/sessions/{session_id}/budget")
            if r.status_code == 404 and r.json().get("detail", "").endswith("has no budget"):
                return None
            return dict(await self._call("GET", f"/v1/sessions/{session_id}/budget"))
        body = {k: v for k, v in (("tokens", tokens), ("cost", cost)) if v is not None}
        return dict(await self._call("POST", f"/v1/sessions/{session_id}/budget/raise", body))

    async def state(self, session_id: str) -> dict[str, Any]:
        return dict((await self._call("GET", f"/v1/sessions/{session_id}/state"))["values"])

    async def fork(self, session_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return dict(await self._call("POST", f"/v1/sessions/{session_id}/fork", body))

    async def tail(self, session_id: str) -> int:
        await self._call("POST", "/v1/sessions", {"session_id": session_id})
        page = await self._call("GET", f"/v1/sessions/{session_id}/history?start=-1")
        return int(page["next_offset"])

    async def send(
        self, session_id: str, text: str, message_id: str | None, files: Sequence[File] = ()
    ) -> str:
        await self._call("POST", "/v1/sessions", {"session_id": session_id})
        body: dict[str, Any] = {"text": text}
        if message_id:
            body["client_message_id"] = message_id
        if files:
            body["attachments"] = [{"id": await self._upload(session_id, file)} for file in files]
        sent = await self._call("POST", f"/v1/sessions/{session_id}/messages", body)
        return str(sent["submission_id"])

    async def _upload(self, session_id: str, file: File) -> str:
        data, mime, name, attachment_id = file
        params = {"filename": name, **({"id": attachment_id} if attachment_id else {})}
        r = await self._http.post(
            f"/v1/sessions/{session_id}/attachments",
            content=data,
            params=params,
            headers={"Content-Type": mime},
        )
        if r.status_code >= 400:
            try:
                detail = r.json().get("detail", r.text)
            except ValueError:
                detail = r.text
            raise TetherError(f"{r.status_code}: {name}: {detail}")
        return str(r.json()["id"])

    async def answer(self, session_id: str, request_id: str, answer: Any) -> None:
        await self._call(
            "POST", f"/v1/sessions/{session_id}/requests/{request_id}/answer", {"answer": answer}
        )

    async def events(
        self, session_id: str, start: int, follow: bool
    ) -> AsyncIterator[dict[str, Any]]:
        params = {"format": "ndjson", "start": str(start), "follow": str(follow).lower()}
        async with self._http.stream(
            "GET", f"/v1/sessions/{session_id}/events", params=params, timeout=None
        ) as r:
            if r.status_code >= 400:
                await r.aread()
                raise TetherError(f"{r.status_code}: {r.text}")
            async for line in r.aiter_lines():
                if line.strip():
                    yield json.loads(line)

    async def close(self) -> None:
        await self._http.aclose()


class _StoreSessions:
    def __init__(self, host: Any) -> None:
        self._host = host

    async def list(self) -> list[dict[str, Any]]:
        page = await self._host.list_sessions(limit=100)
        return [i.to_json() for i in page.items]

    async def show(self, session_id: str) -> dict[str, Any]:
        session = await self._host.get_session(session_id)
        out: dict[str, Any] = (await session.state()).to_json()
        out["progress"] = (await self._host.session_progress(session_id)).to_json()
        return out

    async def usage(self, session_id: str) -> dict[str, Any]:
        session = await self._host.get_session(session_id)
        usage: dict[str, Any] = (await session.usage()).to_json()
        return usage

    async def budget(
        self, session_id: str, tokens: int | None, cost: float | None
    ) -> dict[str, Any] | None:
        session = await self._host.get_session(session_id)
        if tokens is None and cost is None:
            status = await session.budget()
        else:
            status = await session.raise_budget(tokens=tokens, cost=cost)
        return None if status is None else dict(status.to_json())

    async def state(self, session_id: str) -> dict[str, Any]:
        session = await self._host.get_session(session_id)
        values: dict[str, Any] = (await session.state_values()).to_json()
        return values

    async def fork(self, session_id: str, body: dict[str, Any]) -> dict[str, Any]:
        session = await self._host.get_session(session_id)
        fork = await session.fork(**body)
        state: dict[str, Any] = (await fork.state()).to_json()
        return state

    async def tail(self, session_id: str) -> int:
        session = await self._host.get_session(session_id)
        last = await session.read_events(-1)
        return last[-1].index + 1 if last else 0

    async def send(
        self, session_id: str, text: str, message_id: str | None, files: Sequence[File] = ()
    ) -> str:
        session = await self._host.get_session(session_id)
        refs = [
            await session.attach(data, mime_type=mime, filename=name, attachment_id=attachment_id)
            for data, mime, name, attachment_id in files
        ]
        return str(await session.send(text, client_message_id=message_id, attachments=refs))

    async def answer(self, session_id: str, request_id: str, answer: Any) -> None:
        session = await self._host.get_session(session_id)
        await session.answer(request_id, answer)

    async def events(
        self, session_id: str, start: int, follow: bool
    ) -> AsyncIterator[dict[str, Any]]:
        session = await self._host.get_session(session_id)
        async for event in session.events(start, follow=follow):
            yield event.to_json()

    async def close(self) -> None:
        return None


#: How the end of a turn or a session is shown on a terminal.
_END_STYLE = {
    "turn.completed": "green",
    "turn.failed": "bold red",
    "turn.cancelled": "magenta",
    "turn.waiting": "yellow",
    "session.closed": "magenta",
    "session.failed": "bold red",
}


def render(event: dict[str, Any], out: Any = None) -> None:
    """Print one event for a person: text as it streams, tools, requests, turn ends."""
    out = out or sys.stdout
    kind = event.get("type", "")
    data = event.get("data") or {}
    if kind == "message.delta":
        out.write(printable(str(data.get("text", ""))))
    elif kind == "message.completed":
        out.write("\n")
    elif kind == "turn.started":
        names = [
            str(f.get("filename") or f.get("mime_type")) for f in data.get("attachments") or []
        ]
        files = f" [files: {printable(', '.join(names))}]" if names else ""
        out.write(f"> {printable(str(data.get('text', '')))}{files}\n")
    elif kind == "tool.call":
        args = json.dumps(data.get("arguments") or {})
        out.write(f"  -> {printable(str(data.get('name')))}({printable(args)})\n")
    elif kind == "tool.result":
        content = printable(str(data.get("content", "")))[:200]
        out.write(f"  <- {printable(str(data.get('name')))}: {content}\n")
    elif kind in ("input.requested", "authorization.required"):
        request = data.get("request") or {}
        what = request.get("prompt") or request.get("tool_name") or ""
        options = request.get("options")
        line = (
            f"  ? {request.get('kind')} {printable(str(request.get('request_id')))}: "
            f"{printable(str(what))}"
            + (f" [{printable(_options_text(options))}]" if options else "")
        )
        out.write(paint(line, "yellow", out) + "\n")
    elif kind in ("turn.completed", "turn.failed", "turn.cancelled", "turn.waiting"):
        detail = data.get("error") or data.get("reason") or data.get("on") or ""
        line = f"[{kind}{' ' + printable(str(detail)) if detail else ''}]"
        out.write(paint(line, _END_STYLE[kind], out) + "\n")
    elif kind == "dynamic.failed":
        # The operator's signal: the turn goes on without that handler's instructions.
        line = (
            f"[dynamic.failed {printable(str(data.get('handler', '')))} on "
            f"{printable(str(data.get('on', '')))}: {printable(str(data.get('error', '')))}]"
        )
        out.write(paint(line, "yellow", out) + "\n")
    elif kind in ("session.closed", "session.failed"):
        out.write(paint(f"[{kind}]", _END_STYLE[kind], out) + "\n")
    out.flush()


def _options_text(options: list[Any]) -> str:
    """A question's options as ids to answer with, each label quoted beside its id."""
    shown: list[str] = []
    for option in options:
        # A server of an earlier release sends bare strings (the id is the label).
        if not isinstance(option, dict):
            shown.append(str(option))
            continue
        key, label = str(option.get("id")), option.get("label")
        shown.append(key if label in (None, key) else f"{key} {json.dumps(label)}")
    return ", ".join(shown)


_TURN_ENDS = ("turn.completed", "turn.failed", "turn.cancelled", "turn.waiting")


async def sessions_command(args: Any, client: _Sessions) -> int:
    """Run one `tether sessions` subcommand."""
    try:
        if args.sessions == "list":
            items = await client.list()
            if args.json:
                print(json.dumps(items, indent=2))
            else:
                rows = [
                    [i["session_id"], i["agent_name"], i["status"], str(i.get("owner") or "")]
                    for i in items
                ]
                show_table(["session", "agent", "status", "owner"], rows, status="status")
            return 0
        if args.sessions == "show":
            state = await client.show(args.session_id)
            if args.json:
                print(json.dumps(state, indent=2))
            else:
                print(
                    f"{printable(state['session_id'])}  agent {printable(state['agent_name'])}  "
                    f"{state['status']}"
                    + (f" on {state['parked_on']}" if state.get("parked_on") else "")
                    + ("  STRANDED" if state.get("stranded") else "")
                )
                progress = state.get("progress")
                if progress:
                    print(f"  {progress['state']}: {printable(progress['reason'])}")
                    for waiting in progress.get("waiting") or []:
                        print(
                            f"  {waiting['kind']} {printable(waiting['submission_id'])} "
                            f"{waiting['status']} for {waiting['age']:.0f} s"
                        )
                for request in state.get("pending") or []:
                    render({"type": "input.requested", "data": {"request": request}})
            return 0
        if args.sessions == "usage":
            usage = await client.usage(args.session_id)
            print(json.dumps(usage, indent=2) if args.json else usage_table(usage))
            return 0
        if args.sessions == "budget":
            budget = await client.budget(args.session_id, args.raise_tokens, args.raise_cost)
            if args.json:
                print(json.dumps(budget, indent=2))
            else:
                print(budget_line(budget))
            return 0
        if args.sessions == "state":
            values = await client.state(args.session_id)
            if args.json:
                print(json.dumps(values, indent=2))
            else:
                rows = [[k, json.dumps(v)] for k, v in values.items()]
                show_table(["key", "value"], rows)
            return 0
        if args.sessions == "fork":
            body = {"at": args.at, "at_event": args.at_event, "session_id": args.new_id}
            state = await client.fork(
                args.session_id, {k: v for k, v in body.items() if v is not None}
            )
            print(
                json.dumps(state, indent=2)
                if args.json
                else f"forked {printable(args.session_id)} as {printable(state['session_id'])}"
            )
            return 0
        if args.sessions == "send":
            # Where the stream is before the message: its turn's events all come after.
            files = read_files(args.file, args.client_message_id)
            offset = await client.tail(args.session_id) if args.follow else 0
            submission = await client.send(
                args.session_id, args.text, args.client_message_id, files
            )
            print(f"sent {printable(submission)}", flush=True)
            if args.follow:

                def ended(event: dict[str, Any]) -> bool:
                    return event["type"] in _TURN_ENDS and event["data"].get(
                        "submission_id", submission
                    ) in (submission, None)

                events = client.events(args.session_id, offset, True)
                await follow_events(events, render=render, until=ended)
            return 0
        if args.sessions == "answer":
            try:
                answer: Any = json.loads(args.answer)
            except ValueError:
                answer = args.answer
            await client.answer(args.session_id, args.request_id, answer)
            print(f"answered {printable(args.request_id)}")
            return 0
        events = client.events(args.session_id, args.start, not args.no_follow)
        await follow_events(events, render=render, as_json=args.json)
        return 0
    finally:
        await client.close()


def budget_line(budget: dict[str, Any] | None) -> str:
    """A budget as `tether sessions budget` prints it."""
    if budget is None:
        return "no budget"
    parts = [printable(budget["scope"]), f"on_exceeded {budget['on_exceeded']}"]
    if budget["tokens"] is not None:
        parts.append(
            f"tokens {budget['used_tokens']:,} used + {budget['reserved_tokens']:,} reserved "
            f"of {budget['tokens']:,}"
        )
    if budget["cost"] is not None:
        parts.append(
            f"cost {budget['used_cost']:.6f} used + {budget['reserved_cost']:.6f} reserved "
            f"of {budget['cost']:.6f}"
        )
    return "  ".join(parts)


def usage_table(usage: dict[str, Any]) -> str:
    """A session's usage as `tether sessions usage` prints it: per model, then in all."""
    headers = ["model", "calls", "input", "cached", "output"]

    def row(name: str, counts: dict[str, int]) -> list[str]:
        keys = ("calls", "input_tokens", "cached_tokens", "output_tokens")
        return [name, *(f"{counts[k]:,}" for k in keys)]

    rows = [row(model, counts) for model, counts in usage["by_model"].items()]
    rows.append(row("all", usage["total"]))
    lines = [table(headers, rows), f"{len(usage['by_turn'])} turn(s)"]
    if usage["cost"] is not None:
        lines.append(f"cost {usage['cost']:.6f}")
    if usage["unpriced"]:
        lines.append("no price for " + ", ".join(usage["unpriced"]))
    retried = usage.get("retried") or {}  # absent from a server of an earlier release
    if retried.get("calls"):
        lines.append(retried_note(retried))
    return "\n".join(lines)


def sessions_client(args: Any, default_db: str | None) -> tuple[_Sessions | None, str | None]:
    """The HTTP client the arguments name, or None and the store URL to open."""
    import os

    server = args.server or os.environ.get("TETHER_SERVER_URL")
    if server and not args.db:
        return _HttpSessions(server, args.token or os.environ.get("TETHER_TOKEN")), None
    if not args.app:
        raise ConfigurationError(
            "tether sessions: give --server URL (or $TETHER_SERVER_URL), or --db URL with "
            "--app MODULE:ATTR (the agents)"
        )
    return None, (args.db or default_db)


def store_sessions(host: Any) -> _Sessions:
    """The client of sessions in a store, through an `AgentHost`."""
    return _StoreSessions(host)
