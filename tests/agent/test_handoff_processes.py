"""Hand-off and compaction across real worker processes, killed with SIGKILL.

Two worker processes on two deployments (v1, v2) share a real SQLite file or a real
Postgres namespace: an idle session moves from v1 to v2 on its next message while both
run; a client SIGKILLed holding a hand-off (its message admitted, the move not
committed) loses nothing: the next message moves the session once the hold lapses and
both run once, in order; a worker SIGKILLed during a compaction leaves the session to
compact on restart, and a message sent meanwhile runs once, on the new run.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from _harness import WorkerProcesses, wait_settled_steps

from tether.agent import AgentHost, AssistantEntry, ContextEntry, Session

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("handoff_app.py")
sys.path.insert(0, str(APP.parent))
import handoff_app as app  # noqa: E402


@dataclass
class Procs(WorkerProcesses):
    scenario: str = ""

    def host(self, deployment: str) -> AgentHost:
        return app.build_host(self.backend, deployment, self.dir, self.scenario)

    def start(self, role: str, deployment: str) -> subprocess.Popen[bytes]:
        return self.spawn(APP, role, deployment, self.scenario or "-")

    async def until(self, path: str, timeout: float = 20) -> None:
        for _ in range(int(timeout / 0.02)):
            if (self.dir / path).exists():
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"{path} never appeared")


@pytest.fixture
def procs(worker_processes: WorkerProcesses) -> Procs:
    return worker_processes.as_(Procs)


async def until_newest(host: AgentHost, deployment: str) -> None:
    """Until a worker process of `deployment` is live and the newest one."""
    for _ in range(1000):
        if [d.deployment for d in await host.client.live_deployments()][:1] == [deployment]:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"no live worker of {deployment}")


def replies(entries: list[object]) -> list[str]:
    return [e.text for e in entries if isinstance(e, AssistantEntry)]


async def turn_starts(session: Session) -> list[str]:
    return [e.data.submission_id for e in await session.read_events() if e.type == "turn.started"]


async def test_an_idle_session_moves_between_two_worker_processes(procs: Procs) -> None:
    v1, v2 = procs.host("v1"), procs.host("v2")
    procs.start("worker", "v1")
    session = await v1.open_session("ops", session_id="s1")
    await session.send("one")
    first = await session.wait_for("turn.completed")
    await wait_settled_steps(v1, session)
    procs.start("worker", "v2")  # both deployments live; v2 came up last
    on_v2 = await v2.get_session("s1")
    await until_newest(v2, "v2")
    await on_v2.send("two")
    moved = await on_v2.wait_for("session.moved", after=first.index)
    assert (moved.data.reason, moved.data.deployment) == ("deploy", "v2")
    await on_v2.wait_for("turn.completed", after=moved.index)
    assert replies(await on_v2.transcript()) == ["v1: re one", "v2: re two"]
    assert (await on_v2.state()).deployment == "v2"


@pytest.mark.slow
async def test_a_client_killed_during_a_hand_off_loses_no_message(procs: Procs) -> None:
    v1, v2 = procs.host("v1"), procs.host("v2")
    worker_v1 = procs.start("worker", "v1")
    session = await v1.open_session("ops", session_id="s1")
    await session.send("one")
    await session.wait_for("turn.completed")
    await wait_settled_steps(v1, session)
    procs.kill(worker_v1)
    procs.start("worker", "v2")
    await until_newest(v2, "v2")
    holder = procs.start("holder", "v2")
    await procs.until("holding")  # its message admitted, the move not committed
    procs.kill(holder)
    on_v2 = await v2.get_session("s1")
    after = await on_v2.send("after", client_message_id="after")  # waits for the hold
    done = await on_v2.wait_for("turn.completed", after=0, submission_id=after, timeout=30)
    assert done is not None
    starts = await turn_starts(on_v2)
    assert starts[1:] == ["s1:held", "s1:after"]  # each once, in arrival order
    assert replies(await on_v2.transcript()) == ["v1: re one", "v2: re held", "v2: re after"]
    events = await on_v2.read_events()
    assert [e.type for e in events].count("session.moved") == 1


async def test_a_worker_killed_during_a_compaction_compacts_on_restart(procs: Procs) -> None:
    procs.scenario = "compact"
    host = procs.host("v1")
    worker = procs.start("worker", "v1")
    session = await host.open_session("ops", session_id="s1")
    last = -1
    for i in range(1, 4):
        await session.send(f"m{i}")
        last = (await session.wait_for("turn.completed", after=last)).index
    await procs.until("compacting")  # the compaction step hangs
    procs.kill(worker)
    late = await session.send("late", client_message_id="late")  # admitted while dead
    procs.start("worker", "v1")
    moved = await session.wait_for("session.moved", after=last, timeout=60)
    assert moved.data.reason == "compaction"
    await session.wait_for("turn.completed", after=moved.index, submission_id=late, timeout=30)
    starts = await turn_starts(session)
    assert starts.count(late) == 1
    entries = await session.transcript()
    assert isinstance(entries[0], ContextEntry) and "user: m3" in entries[0].text
    assert replies(entries) == ["v1: re late"]
