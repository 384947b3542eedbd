"""A session worker for agent crash tests: `python agent_crash_app.py URL EFFECTS_DIR SCENARIO`.

URL is a SQLite file or a Postgres server (its namespace in TETHER_POSTGRES_NAMESPACE).

The test process builds the same `AgentHost` with `build_host` (the session workflow and
the tools registered identically) to open sessions, send messages and answer requests;
this process only runs the worker. Tools append one JSON line per start/end to
EFFECTS_DIR/effects.log (O_APPEND + fsync, outside the database) so the parent can count
executions after SIGKILLing this process. A tool told to hang writes a ready marker and
sleeps until killed; so does a commit of the first worker that carries a given store
write (`STALL_IN`). Model calls are counted in EFFECTS_DIR/calls.log (`calls_file`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import tether
from tether.agent import Agent, AgentHost, ToolContext, approval, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import Backend, SettleSubmission, StartSubmission, Stores
from tether.testing import Reply, ScriptedModel, tool_call

EFFECTS = Path(sys.argv[2] if __name__ == "__main__" else ".")

#: Seconds before each streamed word in the "stream" scenario.
STREAM_DELAY = 0.04
STREAM_TEXT = " ".join(f"word{i}" for i in range(30))


def log(**entry: Any) -> None:
    line = (json.dumps(entry, sort_keys=True) + "\n").encode()
    fd = os.open(EFFECTS / "effects.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


async def _effect(name: str, ctx: ToolContext, *, hang_on_first: bool) -> None:
    """Record the side effect; on the first attempt, optionally hang until killed."""
    log(event="start", tool=name, attempt=ctx.attempt, key=ctx.idempotency_key, pid=os.getpid())
    if hang_on_first and ctx.attempt == 1:
        (EFFECTS / f"ready-{name}").touch()
        await asyncio.sleep(3600)
    log(event="end", tool=name, attempt=ctx.attempt, key=ctx.idempotency_key, pid=os.getpid())


@tool
async def fast_lookup(ctx: ToolContext, service: str) -> str:
    """Look up a service quickly."""
    await _effect("fast_lookup", ctx, hang_on_first=False)
    return f"{service}: degraded"


@tool
async def slow_check(ctx: ToolContext, service: str) -> str:
    """Check a service slowly (hangs on its first attempt)."""
    await _effect("slow_check", ctx, hang_on_first=True)
    return f"{service}: healthy"


@tool
async def charge(ctx: ToolContext, amount: int) -> dict[str, Any]:
    """Charge a card (idempotent by key); hangs after its effect on the first attempt."""
    await _effect("charge", ctx, hang_on_first=True)
    return {"charged": amount}


@tool(idempotent=False)
async def send_email(ctx: ToolContext, to: str) -> str:
    """Send an email (not idempotent); hangs after its effect on the first attempt."""
    await _effect("send_email", ctx, hang_on_first=True)
    return f"sent to {to}"


@tool(approval=approval.always())
async def restart_service(ctx: ToolContext, service: str) -> dict[str, str]:
    """Restart a service (needs approval)."""
    await _effect("restart_service", ctx, hang_on_first=False)
    return {"restarted": service}


TOOLS = [fast_lookup, slow_check, charge, send_email, restart_service]


def final(text: str) -> Any:
    """A script entry that records which tool results the model saw, then answers."""

    def answer(request: ModelRequest) -> str:
        seen = [
            [m.name, m.content, m.is_error]
            for m in request.messages
            if isinstance(m, ToolResultMessage)
        ]
        log(event="model_saw", results=seen)
        return text

    return answer


def files_then(text: str) -> Any:
    """A script entry that records the files the last message gave the model."""

    def answer(request: ModelRequest) -> str:
        last = [m for m in request.messages if isinstance(m, UserMessage)][-1]
        files = [
            [f.filename, f.mime_type, hashlib.sha256(f.data).hexdigest()] for f in last.attachments
        ]
        log(event="model_files", files=files, pid=os.getpid())
        return text

    return answer


SCRIPTS: dict[str, list[Any]] = {
    "admission": [final("Hello, ada.")],
    "stream": [STREAM_TEXT],
    "parallel": [
        Reply(
            text="Checking both.",
            tool_calls=(
                tool_call("fast_lookup", {"service": "api"}),
                tool_call("slow_check", {"service": "db"}),
                tool_call("fast_lookup", {"service": "web"}),
            ),
        ),
        final("Both checked."),
    ],
    "side_effect": [
        Reply(
            text="Charging and mailing.",
            tool_calls=(
                tool_call("charge", {"amount": 42}),
                tool_call("send_email", {"to": "ada@example.com"}),
            ),
        ),
        final("Charged; the email may or may not have gone out."),
    ],
    "approval": [
        Reply(text="Restarting.", tool_calls=(tool_call("restart_service", {"service": "api"}),)),
        final("Restarted."),
    ],
    "settlement": [final("All settled.")],
    "coordinates": [
        Reply(
            text="Checking the database now.",
            tool_calls=(tool_call("slow_check", {"service": "db"}),),
        ),
        final("Checked."),
    ],
}
SCRIPTS["claimed"] = SCRIPTS["admission"]
SCRIPTS["files"] = [files_then(STREAM_TEXT)]

#: Scenarios whose first worker process hangs in a commit: the one beginning the turn
#: (its claim, the user's message and the model's reply, together) or the one ending it
#: (its settlement, its last reply, its end, together).
STALL_IN = {"claimed": StartSubmission, "settlement": SettleSubmission}


def build_host(backend: Backend, scenario: str, effects_dir: Path) -> AgentHost:
    """The host both processes build: same agent, same tools, same session workflow."""
    model = ScriptedModel(
        SCRIPTS[scenario],
        select="transcript",
        calls_file=effects_dir / "calls.log",
        delta_delay=STREAM_DELAY if scenario in ("stream", "files") else 0.0,
    )
    agent = Agent(name="ops", model=model, instructions="You run ops.", tools=TOOLS)
    return AgentHost(backend, [agent], deployment="agent-crash")


class _StallingWorkflow:
    """The real workflow store, except that a commit carrying a given write hangs until
    the process is killed: a kill point such as "the turn's claim was sent, not committed"
    without hooks in the product."""

    def __init__(self, inner: Any, kind: type) -> None:
        self._inner = inner
        self._kind = kind

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def commit(self, commit: Any) -> Any:
        if any(isinstance(w, self._kind) for w in commit.writes):
            (EFFECTS / f"ready-{self._kind.__name__}").touch()
            await asyncio.sleep(3600)
        return await self._inner.commit(commit)


class _WrappedBackend:
    """A backend whose stores are the real ones but for a wrapped submissions store."""

    def __init__(self, inner: Backend, workflow: Any) -> None:
        self._inner = inner
        self._stores = dataclasses.replace(inner.stores, workflow=workflow)

    @property
    def url(self) -> str:
        return self._inner.url

    @property
    def capabilities(self) -> Any:
        return self._inner.capabilities

    @property
    def stores(self) -> Stores:
        return self._stores


def _incarnation() -> int:
    """This worker's number among the processes started for this test: 1, 2, ..."""
    log(event="process", pid=os.getpid())
    lines = (EFFECTS / "effects.log").read_text().splitlines()
    return sum(1 for line in lines if json.loads(line)["event"] == "process")


async def main() -> None:
    url, scenario = sys.argv[1], sys.argv[3]
    incarnation = _incarnation()
    async with tether.open_backend(url, migrate=False) as backend:
        agent_backend: Any = backend
        if scenario in STALL_IN and incarnation == 1:
            stalling = _StallingWorkflow(backend.stores.workflow, STALL_IN[scenario])
            agent_backend = _WrappedBackend(backend, stalling)
        host = build_host(agent_backend, scenario, EFFECTS)
        # The worker runs the sessions on the (possibly wrapped) backend it is given.
        worker = tether.Worker(
            agent_backend, host.registry, concurrency=8, poll_interval=0.05, lease_seconds=30
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main())
