"""A worker process for the session soak: ``python session_app.py URL LOG_DIR``.

It serves one agent, `soak`, whose instant scripted model answers every message with
one call of the tool `note`, then, after the tool's result, with the text ``"done"``:
every turn is two model calls and one tool call. Options come from the environment:
``NAMESPACE`` (Postgres), ``LEASE`` (seconds), ``CONCURRENCY``, ``POLL`` (the worker's
poll interval), ``DEAD_AFTER``.

Every execution of `note` appends a line to ``LOG_DIR/tools-<pid>.log`` (outside the
database, one ``O_APPEND`` write a line, so a SIGKILL cannot lose a written line):
the session, the message's number and the pid. A tool may run again after a crash (at
least once); the soak checks that each message's tool ran at least once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path

import tether
from tether.agent import Agent, AgentHost, Agents, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.testing import Reply, ScriptedModel, tool_call

_fd: int | None = None


@tool
def note(session: str, n: int) -> str:
    """Note that message `n` of `session` ran its tool."""
    if _fd is not None:
        os.write(_fd, f"{session} {n} {os.getpid()}\n".encode())
    return f"noted {n}"


def _answer(request: ModelRequest) -> Reply | str:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return "done"
    text = last.text if isinstance(last, UserMessage) else ""
    # "<session> <n>": the tool's arguments say which message it ran for.
    session, _, n = text.partition(" ")
    return Reply(
        tool_calls=(tool_call("note", {"session": session, "n": int(n or 0)}, call_id="c1"),)
    )


soak = Agent(
    name="soak",
    model=ScriptedModel(_answer, name="instant"),
    instructions="You are a soak.",
    tools=[note],
)
agents = Agents([soak], deployment="soak")


async def main(url: str, log_dir: str) -> None:
    global _fd
    _fd = os.open(
        Path(log_dir) / f"tools-{os.getpid()}.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644
    )
    logging.basicConfig(
        level=logging.INFO,
        filename=str(Path(log_dir) / f"worker-{os.getpid()}.log"),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    options = {}
    if os.environ.get("NAMESPACE"):
        options["namespace"] = os.environ["NAMESPACE"]
        options["pool_size"] = 4
    async with tether.open_backend(url, **options) as backend:
        host = AgentHost(backend, agents)
        worker = host.worker(
            concurrency=int(os.environ.get("CONCURRENCY", "32")),
            poll_interval=float(os.environ.get("POLL", "0.05")),
            heartbeat_interval=0.2,
            dead_after=float(os.environ.get("DEAD_AFTER", "5")),
            lease_seconds=float(os.environ.get("LEASE", "2")),
        )
        await worker.run_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
