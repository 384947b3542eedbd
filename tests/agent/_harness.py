"""Shared helpers of the agent session tests (one host per test, on any backend)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import tether
from tether.agent import Agent, AgentHost, Session
from tether.agent.models import (
    AssistantMessage,
    ChatMessage,
    ModelRequest,
    ToolResultMessage,
    UserMessage,
)
from tether.stores import Backend, Submission


def run_worker(build_host: Callable[[Backend, Path], AgentHost]) -> None:
    """Run a crash app's worker: ``python APP.py URL DIR``, on the host `build_host` makes.

    URL is a SQLite file or a Postgres server (its namespace in
    TETHER_POSTGRES_NAMESPACE); DIR is where the app's effects are counted.
    """

    async def main() -> None:
        url, effects = sys.argv[1], Path(sys.argv[2])
        async with tether.open_backend(url, migrate=False) as backend:
            host = build_host(backend, effects)
            worker = tether.Worker(
                backend, host.registry, concurrency=4, poll_interval=0.05, lease_seconds=30
            )
            await worker.run_forever()

    asyncio.run(main())


@asynccontextmanager
async def hosted(backend: Backend, *agents: Agent, **options: Any) -> AsyncIterator[AgentHost]:
    """An `AgentHost` of `agents` with a running worker."""
    host = AgentHost(backend, list(agents), **options)
    async with host.worker(poll_interval=0.02):
        yield host


def types(events: Sequence[Any]) -> list[str]:
    return [e.type for e in events]


def users(request: ModelRequest) -> int:
    """How many user messages a model request holds."""
    return sum(isinstance(m, UserMessage) for m in request.messages)


async def settled(backend: Backend, submission_id: str, timeout: float = 20) -> Submission:
    for _ in range(int(timeout / 0.01)):
        sub = await backend.stores.submissions.get_submission(submission_id)
        if sub is not None and sub.status == "settled":
            return sub
        await asyncio.sleep(0.01)
    raise AssertionError(f"{submission_id} never settled")


def assert_calls_answered(messages: Sequence[ChatMessage]) -> None:
    """Every tool call of an assistant message is answered right after it.

    The provider rule (OpenAI, Anthropic): an assistant message with tool calls is
    followed by one tool result per call, before anything else.
    """
    for i, message in enumerate(messages):
        if not isinstance(message, AssistantMessage) or not message.tool_calls:
            continue
        wanted = {c.call_id for c in message.tool_calls}
        after = messages[i + 1 : i + 1 + len(wanted)]
        got = {m.call_id for m in after if isinstance(m, ToolResultMessage)}
        assert got == wanted, (
            f"message {i} calls {sorted(wanted)} but the next messages answer {sorted(got)}: "
            f"{[type(m).__name__ for m in messages]}"
        )


async def wait_status(session: Session, status: str, timeout: float = 20) -> None:
    for _ in range(int(timeout / 0.02)):
        if (await session.state()).status == status:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"session never became {status!r}: {await session.state()}")


async def wait_settled_steps(host: AgentHost, session: Session, timeout: float = 20) -> None:
    """Until every step of the session's current run is committed.

    An event a step emits may be read before the step commits (its chunk flushed
    live): a test stopping a worker after it must wait for the commit as well.
    """
    for _ in range(int(timeout / 0.02)):
        current = await host.client.latest(session.run_id)
        steps = await (await host.client.get(current.run_id, follow=False)).steps()
        if steps and all(s.status in ("completed", "failed") for s in steps):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the steps of {session.session_id!r} never settled")


_W = TypeVar("_W", bound="WorkerProcesses")


@dataclass
class WorkerProcesses:
    """Worker processes of a test on one store (a SQLite file or a Postgres namespace).

    The `worker_processes` fixture (conftest.py) opens the store and SIGKILLs whatever
    process is still alive at the end; the crash and hand-off tests build their
    harness on it (`as_`), sharing its list of processes.
    """

    url: str
    dir: Path
    backend: Backend
    env: dict[str, str] = field(default_factory=dict)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def as_(self, cls: type[_W], **more: Any) -> _W:
        """This store and its processes, as a harness of type `cls`."""
        return cls(
            url=self.url, dir=self.dir, backend=self.backend, env=self.env, procs=self.procs, **more
        )

    def spawn(self, app: Path, *args: str) -> subprocess.Popen[bytes]:
        """Run ``python APP URL DIR *ARGS`` with the app's folder on the import path."""
        path = [str(app.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), **self.env}
        argv = [sys.executable, str(app), self.url, str(self.dir), *args]
        proc = subprocess.Popen(argv, env=env)
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                self.kill(proc)
