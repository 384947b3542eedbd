"""Why a session is not moving (`AgentHost.session_progress`) and the worker's inbox sweep.

On every backend: an idle session, a turn a worker holds, a turn parked on an approval,
a message admitted while nothing serves the session, and a message admitted with no
ring at all (what a lost wake-up leaves): the sweep logs it, rings the inbox and the
turn runs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import pytest

from tether.agent import Agent, AgentHost, InboxSweep, Session, approval, tool
from tether.agent.models import ModelRequest, ToolResultMessage, UserMessage
from tether.stores import Backend, SubmissionClaim, SubmissionInput, data_scope, run_scope
from tether.testing import Reply, ScriptedModel, tool_call

gate = asyncio.Event()


@tool
async def wait_gate() -> str:
    """Wait until the test opens the gate."""
    await gate.wait()
    return "through"


@tool(approval=approval.always())
def guarded() -> str:
    """Needs an approval."""
    return "done"


def _answer(request: ModelRequest) -> Reply | str:
    last = request.messages[-1]
    if isinstance(last, ToolResultMessage):
        return "ok"
    text = last.text if isinstance(last, UserMessage) else ""
    if text in ("wait_gate", "guarded"):
        return Reply(tool_calls=(tool_call(text, {}, call_id="c1"),))
    return f"echo {text}"


ops = Agent(
    name="ops",
    model=ScriptedModel(_answer, name="instant"),
    instructions="Test.",
    tools=[wait_gate, guarded],
)


@pytest.fixture
async def host(backend: Backend) -> AsyncIterator[AgentHost]:
    global gate
    gate = asyncio.Event()  # of this test's event loop
    yield AgentHost(backend, [ops], deployment="progress")


async def _until(host: AgentHost, session_id: str, state: str, *, begun: bool = False) -> None:
    """Until the session is in `state` (with `begun`: its turn's step and claim landed)."""
    for _ in range(300):
        progress = await host.session_progress(session_id)
        claimed = progress.run.steps and all(w.status == "running" for w in progress.waiting)
        if progress.state == state and (claimed or not begun):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{session_id} never got {state}: {progress}")


async def _admit_without_a_ring(host: AgentHost, session: Session, submission_id: str) -> None:
    """A message in the ledger whose ring never came (what a lost wake-up leaves)."""
    with data_scope(run_scope(session.run_id)):
        await host.backend.stores.submissions.admit_direct(
            SubmissionInput(
                submission_id=submission_id,
                agent_name="ops",
                instance_id=session.session_id,
                payload={"text": "lost", "principal": None},
                canonical_ready=True,
            )
        )


async def test_idle_working_waiting_and_ended(host: AgentHost) -> None:
    async with host.worker(poll_interval=0.02):
        session = await host.open_session("ops", session_id="p1")
        done = asyncio.ensure_future(session.wait_for("turn.completed", timeout=20))
        await session.send("hello")
        await done
        await _until(host, "p1", "idle")
        idle = await host.session_progress("p1")
        assert idle.waiting == () and idle.run.holder is None and idle.run.hooks == 1
        assert idle.reason == "nothing waits; its run is parked on its inbox"

        await session.send("wait_gate")
        await _until(host, "p1", "working", begun=True)
        working = await host.session_progress("p1")
        assert working.run.held and working.run.holder_alive
        assert [s.name for s in working.run.steps] == ["turn_step"]
        assert working.run.steps[0].running_for >= 0
        assert [(w.kind, w.status) for w in working.waiting] == [("message", "running")]
        assert "turn_step" in working.reason and str(working.run.holder) in working.reason
        # The HTTP API's form names the worker by an alias, never by its host and pid.
        holder = str(working.run.holder)
        opaque = working.opaque()
        alias = str(opaque.run.holder)
        assert alias.startswith("w_") and len(alias) == 14 and alias == working.opaque().run.holder
        assert alias in opaque.reason and holder not in str(opaque.to_json())
        assert opaque.state == working.state and opaque.waiting == working.waiting
        gate.set()
        await session.wait_for("turn.completed", after=(await session.read_events(-1))[-1].index)

        last = (await session.read_events(-1))[-1].index
        await session.send("guarded")
        await session.wait_for("input.requested", after=last, timeout=20)
        await _until(host, "p1", "waiting")
        parked = await host.session_progress("p1")
        assert "approve:c1" in parked.reason and parked.run.holder is None
        wire = parked.to_json()
        assert wire["state"] == "waiting" and wire["run"]["hooks"] == 1

        await session.close()
        await _until(host, "p1", "ended")


async def test_a_message_nothing_serves_is_stuck_with_the_reason(host: AgentHost) -> None:
    session = await host.open_session("ops", session_id="p2")
    await session.send("hello")  # no worker of this deployment is live
    progress = await host.session_progress("p2")
    assert progress.state == "stuck", progress
    assert progress.run.serving_workers == 0 and progress.run.wake_ups
    assert "no live worker serves its version" in progress.reason
    async with host.worker(poll_interval=0.02):
        await session.wait_for("turn.completed", timeout=20)


async def test_the_sweep_rings_a_message_admitted_without_a_ring(
    host: AgentHost, caplog: pytest.LogCaptureFixture
) -> None:
    async with host.worker(poll_interval=0.02, inbox_sweep=None):
        session = await host.open_session("ops", session_id="p3")
        first = asyncio.ensure_future(session.wait_for("turn.completed", timeout=20))
        await session.send("hello")
        await first
        await _until(host, "p3", "idle")
        await _admit_without_a_ring(host, session, "p3:lost")
        await asyncio.sleep(0.3)
        stuck = await host.session_progress("p3")
        assert stuck.state == "queued"  # just admitted: its ring may be on its way
        stuck = await host.session_progress("p3", stuck_after=0.2)
        assert stuck.state == "stuck", stuck
        assert [w.submission_id for w in stuck.waiting] == ["p3:lost"]
        assert "nothing will wake its run" in stuck.reason
        last = (await session.read_events(-1))[-1].index
        sweep = InboxSweep(
            host.backend.stores, ["ops"], host.session_progress, host._ring, interval=0.2
        )
        with caplog.at_level(logging.WARNING, logger="tether.agent"):
            assert await sweep.sweep() == ["p3"]
        assert "message 'p3:lost' has waited" in caplog.text and "ringing its inbox" in caplog.text
        done = await session.wait_for("turn.completed", after=last, timeout=20)
        assert done.data.submission_id == "p3:lost"  # type: ignore[union-attr]
        await _until(host, "p3", "idle")
        assert await sweep.sweep() == []


async def test_a_workers_sweep_takes_a_message_admitted_without_a_ring(host: AgentHost) -> None:
    async with host.worker(poll_interval=0.02, inbox_sweep=0.3):
        session = await host.open_session("ops", session_id="p4")
        first = asyncio.ensure_future(session.wait_for("turn.completed", timeout=20))
        await session.send("hello")
        await first
        await _until(host, "p4", "idle")
        last = (await session.read_events(-1))[-1].index
        await _admit_without_a_ring(host, session, "p4:lost")
        done = await session.wait_for("turn.completed", after=last, timeout=20)
        assert done.data.submission_id == "p4:lost"  # type: ignore[union-attr]


async def _failed_with_a_late_message(host: AgentHost, session_id: str, late: str) -> None:
    """A session whose run failed (another producer took its transcript), then `late`."""
    async with host.worker(poll_interval=0.02, inbox_sweep=None):
        session = await host.open_session("ops", session_id=session_id)
        await session.send("hello")
        await session.wait_for("turn.completed", timeout=20)
        path = f"agents/ops/{session_id}"
        await host.backend.stores.conversations.acquire_producer(path, "intruder")
        await session.send("again")
        await session.wait_for("session.failed", timeout=20)
        await _until(host, session_id, "ended")
        await _admit_without_a_ring(host, session, late)


async def test_the_sweep_settles_a_message_admitted_as_its_sessions_run_failed(
    host: AgentHost, caplog: pytest.LogCaptureFixture
) -> None:
    # `send` reads the run, then admits: a message can land just as the run ends. The
    # run takes it no more; the sweep settles it failed rather than leave it waiting.
    await _failed_with_a_late_message(host, "p6", "p6:late")
    sweep = InboxSweep(host.backend.stores, ["ops"], host.session_progress, host._ring, interval=0)
    with caplog.at_level(logging.WARNING, logger="tether.agent"):
        assert await sweep.sweep() == []
    assert "message 'p6:late' has waited" in caplog.text and "settling it failed" in caplog.text
    late = await host.backend.stores.submissions.get_submission("p6:late")
    assert late is not None and late.status == "settled" and late.outcome == "failed"
    assert late.error is not None and "run ended (failed)" in late.error
    # Settled once: a second sweep finds nothing waiting.
    assert await sweep.sweep() == []
    assert await host.backend.stores.submissions.list_runnable_submissions() == []


async def test_the_sweep_settles_a_message_a_turn_held_when_its_run_ended(
    host: AgentHost, caplog: pytest.LogCaptureFixture
) -> None:
    # A turn took the message (``running``), then its run ended without settling it:
    # what a turn whose step, and then the step settling its failure, each spent their
    # attempts left. No run will settle it; the sweep does.
    await _failed_with_a_late_message(host, "p7", "p7:held")
    store = host.backend.stores.submissions
    claimed = await store.claim_submission(
        SubmissionClaim(
            submission_id="p7:held",
            attempt_id="a1",
            owner_id="gone",
            lease_expires_at=time.time() + 3600,
        )
    )
    assert claimed is not None and claimed.status == "running"
    sweep = InboxSweep(host.backend.stores, ["ops"], host.session_progress, host._ring, interval=0)
    with caplog.at_level(logging.WARNING, logger="tether.agent"):
        await sweep.sweep()
    assert "message 'p7:held' has waited" in caplog.text and "settling it failed" in caplog.text
    held = await store.get_submission("p7:held")
    assert held is not None and held.status == "settled" and held.outcome == "failed"
