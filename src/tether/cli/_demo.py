"""`tether demo`: an incident agent's turn survives its worker being killed.

The demo process is the client: it opens a session of the "ops" agent, sends a message
and follows the session's event stream. The turn runs in a separate worker process.
While the turn is parked on an approval, the demo SIGKILLs that worker, starts a new
one and answers the approval; the turn resumes from the parked point and completes.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..agent import (
    InputRequest,
    InputRequested,
    InputResolved,
    MessageCompleted,
    Session,
    SessionEvent,
    SessionStarted,
    ToolCalled,
    ToolReturned,
    TurnFailed,
    TurnStarted,
    TurnSteered,
    TurnWaiting,
)
from ..stores import Backend, init_key_file, open_backend
from ..testing import ScriptedModel
from ._demo_app import build_host
from ._terminal import show_table

__all__ = ["run_demo"]

_PRINCIPAL = "oncall@example.com"


def _short(value: Any, width: int = 72) -> str:
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return text if len(text) <= width else text[: width - 1] + "…"


def _call(name: str, arguments: dict[str, Any]) -> str:
    return f"{name}(" + ", ".join(f"{k}={v!r}" for k, v in arguments.items()) + ")"


class _Printer:
    """Prints events one a line: time, coordinates, type, details; deltas coalesced."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.turns: dict[str, int] = {}
        self.deltas: list[SessionEvent] = []

    def say(self, text: str) -> None:
        self._flush()
        print(f"{'':>7}  >>> {text}", flush=True)

    def event(self, event: SessionEvent) -> None:
        if event.type == "message.delta":
            self.deltas.append(event)
            return
        self._flush()
        self._line(event, event.type, self._details(event))

    def _flush(self) -> None:
        if self.deltas:
            first, count = self.deltas[0], len(self.deltas)
            text = "".join(getattr(e.data, "text", "") for e in self.deltas)
            self.deltas = []
            self._line(first, f"message.delta x{count}", json.dumps(text, ensure_ascii=False))

    def _line(self, event: SessionEvent, kind: str, details: str) -> None:
        meta = event.meta
        coords = "-"
        if meta.turn_id is not None:
            turn = self.turns.setdefault(meta.turn_id, len(self.turns) + 1)
            step = "-" if meta.step_index is None else str(meta.step_index)
            # sequence = part * 1e6 + index (see tether.agent's _emitter); "*" = the part's end
            part, index = divmod(meta.sequence, 1_000_000)
            shown = "*" if index == 999_999 else str(index)
            coords = f"t{turn}.s{step}.{part}:{shown}"
        elapsed = time.monotonic() - self.start
        print(f"{elapsed:6.2f}s  {coords:<9} {kind:<18} {details}".rstrip(), flush=True)

    @staticmethod
    def _details(event: SessionEvent) -> str:
        data = event.data
        match data:
            case SessionStarted():
                return f"session {data.session_id} of agent {data.agent!r}"
            case TurnStarted() | TurnSteered():
                return f"{json.dumps(data.text)} from {data.principal or '-'}"
            case MessageCompleted():
                calls = [c.name for c in data.tool_calls]
                return f"calls {', '.join(calls)}" if calls else "final answer"
            case ToolCalled():
                return _call(data.name, dict(data.arguments))
            case ToolReturned():
                flag = " (error)" if data.is_error else ""
                return f"{data.name}{flag} → {_short(data.content, 60)}"
            case InputRequested():
                request = data.request
                if request.kind == "approval":
                    arguments = request.data.get("arguments", {})
                    return f"approval of {_call(request.tool_name or '?', arguments)}"
                options = "/".join(request.option_ids) or "free text"
                return f"question [{options}] {_short(request.prompt or '', 48)}"
            case InputResolved():
                return f"{data.request_id} = {_short(data.answer)} by {data.by}"
            case TurnWaiting():
                return f"on {data.on} (no worker is held)"
            case TurnFailed():
                return f"{data.error} terminal={data.terminal}"
            case _:
                return ""


def _pending(requests: list[InputRequest], kind: str) -> InputRequest | None:
    return next((r for r in requests if r.kind == kind), None)


async def _settled(backend: Backend, submission_id: str) -> Any:
    for _ in range(1000):
        sub = await backend.stores.submissions.get_submission(submission_id)
        if sub is not None and sub.status == "settled":
            return sub
        await asyncio.sleep(0.01)
    raise TimeoutError(f"submission {submission_id} never settled")


async def run_demo() -> int:
    """Run the demo; returns the process exit code."""
    work = Path(tempfile.mkdtemp(prefix="tether-demo-"))
    db, log, calls = work / "demo.db", work / "tools.log", work / "model-calls.log"
    os.environ["TETHER_DEMO_CALLS"] = str(calls)  # the client never calls the model
    # The journal is encrypted at rest: a key file of its own, found through the
    # environment by this process and by the workers (as `tether keys init` would set up).
    key_file = init_key_file(work / "key").path
    os.environ["TETHER_KEY_FILE"] = str(key_file)
    env = {**os.environ, "TETHER_DEMO_LOG": str(log), "TETHER_DEMO_CALLS": str(calls)}
    cmd = [
        sys.executable,
        "-m",
        "tether.cli",
        "worker",
        "tether.cli._demo_app:agents",
        "--db",
        f"sqlite:///{db}",
    ]
    print("tether demo — an incident agent on a scripted model (no network, no API key)")
    print(f"journal: {db} (encrypted; key file {key_file}, mode 0600)\n")
    workers: list[subprocess.Popen[bytes]] = []
    killed: dict[int, float] = {}  # pid -> when the demo killed it

    def start_worker() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
        workers.append(proc)
        return proc

    async with open_backend(f"sqlite:///{db}") as backend:
        host = build_host(backend)
        session: Session = await host.open_session("ops", session_id="incident-demo")
        out = _Printer()
        first = start_worker()
        out.say(f"started worker 1 (pid {first.pid}); sending 'api latency is spiking'")
        submission = await session.send(
            "api latency is spiking", client_message_id="m1", principal=_PRINCIPAL
        )

        async def follow() -> bool:
            """Print the events and act as the user; True if the turn completed."""
            async for event in session.events():
                out.event(event)
                if event.type in ("turn.completed", "turn.failed", "turn.cancelled"):
                    return event.type == "turn.completed"
                if event.type != "turn.waiting":
                    continue
                if question := _pending(await session.pending_requests(), "question"):
                    out.say("the on-call engineer answers the severity question: p2")
                    await session.answer(question.request_id, "p2", principal=_PRINCIPAL)
                    out.say("handle_incident then sleeps 1 s durably (10 min in production)")
                elif approval := _pending(await session.pending_requests(), "approval"):
                    # The events that announce the park land in the park's own commit:
                    # the run holds no worker now.
                    first.send_signal(signal.SIGKILL)
                    status = first.wait()
                    killed[first.pid] = time.time()
                    out.say(
                        f"the turn is parked on an approval: killed worker 1 (pid {first.pid}) "
                        f"with SIGKILL (exit status {status})"
                    )
                    second = start_worker()
                    out.say(f"started worker 2 (pid {second.pid}); nothing runs until an answer")
                    await asyncio.sleep(0.5)
                    out.say(
                        "days later, the on-call engineer approves the restart "
                        "(answered after the restart)"
                    )
                    await session.answer(approval.request_id, "approve", principal=_PRINCIPAL)
            return False

        try:
            follower = asyncio.create_task(follow())
            deadline = time.monotonic() + 60
            while not follower.done():
                await asyncio.wait({follower}, timeout=0.1)
                died = [w for w in workers if w.poll() is not None and w.pid not in killed]
                if died or time.monotonic() > deadline:
                    follower.cancel()
                    why = (
                        f"worker process {died[0].pid} exited with status {died[0].returncode}"
                        if died
                        else "the turn did not complete within 60 s"
                    )
                    print(f"tether demo: {why}", file=sys.stderr)
                    return 1
            completed = follower.result()
            sub = await _settled(backend, submission)
        finally:
            for proc in workers:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                    proc.wait()
        steps = await (await host.client.get(session.run_id)).steps()
    killed_at = killed.get(first.pid, float("inf"))

    second_pid = workers[-1].pid
    who = {str(first.pid): "worker 1 (killed)", str(second_pid): "worker 2"}
    rows, turn_steps, replayed = [], 0, 0
    for step in steps:
        label = step.name.rsplit("//", 1)[-1]
        if label == "turn_step":
            label = f"turn_step {turn_steps}"
            turn_steps += 1
        ran = (
            "worker 1 (killed)"
            if step.completed_at is not None and step.completed_at.timestamp() < killed_at
            else "worker 2"
        )
        if step.status != "completed":
            ran = "-"
        replayed += ran.startswith("worker 1")
        rows.append([str(step.slot), label, step.status, str(step.attempt), ran])
    print("\nThe session run's journal (every durable step, where it ran):")
    show_table(["slot", "step", "status", "attempts", "ran in"], rows, status="status")
    print(
        f"Worker 2 replayed the {replayed} steps of worker 1 from the journal without running "
        "them again,\nthen resumed the turn at the parked approval."
    )

    executions: dict[str, list[str]] = collections.defaultdict(list)
    for line in log.read_text().splitlines():
        pid, what = line.split(maxsplit=1)
        executions[what].append(who.get(pid, pid))
    print("\nTool executions (logged by the tools themselves):")
    for what, where in executions.items():
        print(f"  {what:<34} ran {len(where)} time(s), in {', '.join(where)}")
    by_process = collections.Counter(
        who.get(line.rsplit("pid=", 1)[-1], "?") for line in calls.read_text().splitlines()
    )
    total = ScriptedModel.count_calls(calls)
    print(
        f"\nModel calls: {total} for 4 scripted answers — "
        + ", ".join(f"{n} in {w}" for w, n in sorted(by_process.items()))
        + (" (none repeated)" if total == 4 else " (!)")
    )
    print(f"Submission {sub.submission_id}: {sub.status}, outcome {sub.outcome}")
    ok = completed and total == 4 and executions.get("restart_service") == ["worker 2"]
    print("\nTurn completed after the restart; restart_service ran once." if ok else "\nFAILED")
    print(
        f"Inspect it yourself: TETHER_KEY_FILE={key_file} tether runs show {session.run_id} "
        f"--db sqlite:///{db}"
    )
    return 0 if ok else 1
