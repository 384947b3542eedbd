"""SIGKILL a real session worker at each boundary of a turn, restart it, check the outcome.

The worker runs `agent_crash_app.py` in a subprocess on a real SQLite file or a real
Postgres namespace; this process builds the same `AgentHost` to send messages, read
events and answer approvals. Side effects (tool runs, what the model saw) and model
calls are counted in files outside the database.
"""

from __future__ import annotations

import asyncio
import collections
import json
import secrets
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _harness import WorkerProcesses

from tether.agent import AgentHost, Session
from tether.stores import Submission
from tether.testing import ScriptedModel

pytestmark = pytest.mark.crash

APP = Path(__file__).with_name("agent_crash_app.py")
sys.path.insert(0, str(APP.parent))
import agent_crash_app as app  # noqa: E402


@dataclass
class Harness(WorkerProcesses):
    scenario: str = ""
    host: AgentHost | None = None

    def use(self, scenario: str) -> AgentHost:
        self.scenario = scenario
        self.host = app.build_host(self.backend, scenario, self.dir)
        return self.host

    async def session(self) -> Session:
        assert self.host is not None
        return await self.host.open_session("ops", session_id="s1")

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self.spawn(APP, self.scenario)

    def effects(self, event: str | None = None) -> list[dict[str, Any]]:
        path = self.dir / "effects.log"
        if not path.exists():
            return []
        entries = [json.loads(line) for line in path.read_text().splitlines()]
        return [e for e in entries if event is None or e["event"] == event]

    def runs(self, event: str) -> collections.Counter[str]:
        return collections.Counter(e["tool"] for e in self.effects(event))

    def model_calls(self) -> int:
        return ScriptedModel.count_calls(self.dir / "calls.log")

    def model_saw(self) -> list[list[list[Any]]]:
        return [e["results"] for e in self.effects("model_saw")]

    def ready(self, name: str) -> bool:
        return (self.dir / f"ready-{name}").exists()

    async def until(self, check: Callable[[], Any], timeout: float = 20) -> None:
        for _ in range(int(timeout / 0.02)):
            result = check()
            if asyncio.iscoroutine(result):
                result = await result
            if result:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("condition never held")

    async def settled(self, submission_id: str, timeout: float = 20) -> Submission:
        store = self.backend.stores.submissions
        for _ in range(int(timeout / 0.02)):
            sub = await store.get_submission(submission_id)
            if sub is not None and sub.status == "settled":
                return sub
            await asyncio.sleep(0.02)
        raise AssertionError(f"{submission_id} never settled")

    async def finished(self, session: Session, submission_id: str) -> list[dict[str, Any]]:
        """Wait for the turn to complete and its submission to settle; the transcript."""
        await session.wait_for("turn.completed", timeout=20)
        sub = await self.settled(submission_id)
        assert sub.outcome == "completed", sub
        transcript = await session.transcript()
        kinds = [r.kind for r in transcript]
        assert kinds.count("turn_end") == 1, kinds
        assert transcript[-1].kind == "turn_end"
        assert transcript[-1].outcome == "completed"
        return transcript


@pytest.fixture
def harness(worker_processes: WorkerProcesses) -> Harness:
    return worker_processes.as_(Harness)


def assistant_texts(transcript: list[dict[str, Any]]) -> list[str]:
    return [r.text for r in transcript if r.kind == "assistant"]


async def test_kill_after_admission_before_the_turn_starts(harness: Harness) -> None:
    harness.use("admission")
    session = await harness.session()
    # The worker opens the session and parks on its inbox; killed there.
    worker = harness.start_worker()
    await session.wait_for("session.started", timeout=20)
    await harness.until(lambda: _run_released(harness, session))
    harness.kill(worker)
    # Admitted while no worker runs: the ledger holds it, nothing ran it.
    sub_id = await session.send("hello", client_message_id="m1", principal="ada")
    sub = await harness.backend.stores.submissions.get_submission(sub_id)
    assert sub is not None and sub.status == "queued"
    assert not any(e.type == "turn.started" for e in await session.read_events())
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    assert [r.kind for r in transcript] == ["user", "assistant", "turn_end"]
    assert assistant_texts(transcript) == ["Hello, ada."]
    assert harness.model_calls() == 1


async def test_kill_while_the_turns_claim_is_being_committed(harness: Harness) -> None:
    harness.use("claimed")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("hello", client_message_id="m1", principal="ada")
    # The turn's step called the model and sent the commit that claims the message,
    # records it and the reply (one transaction); killed before it landed.
    await harness.until(lambda: harness.ready("StartSubmission"))
    harness.kill(harness.procs[0])
    sub = await harness.backend.stores.submissions.get_submission(sub_id)
    assert sub is not None and sub.status == "queued"  # nothing of the commit landed
    assert await session.transcript() == []
    assert harness.model_calls() == 1
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    assert [r.kind for r in transcript] == ["user", "assistant", "turn_end"]
    assert harness.model_calls() == 2  # the reply was not on record: asked again
    events = await session.read_events()
    started = [e for e in events if e.type == "turn.started"]
    # Shown live by the interrupted attempt, then again: one turn, one place.
    assert len({(e.meta.turn_id, e.meta.step_index, e.meta.sequence) for e in started}) == 1
    assert sum(e.type == "turn.completed" for e in events) == 1


async def test_kill_mid_model_stream(harness: Harness) -> None:
    harness.use("stream")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("talk to me", client_message_id="m1")

    async def some_deltas() -> bool:
        events = await session.read_events()
        return sum(e.type == "message.delta" for e in events) >= 3

    await harness.until(some_deltas)
    harness.kill(harness.procs[0])
    assert harness.model_calls() == 1
    partial = [r for r in await session.transcript() if r.kind == "assistant"]
    assert partial == []  # nothing of the interrupted stream reached the transcript
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    assert assistant_texts(transcript) == [app.STREAM_TEXT]  # once, complete
    assert harness.model_calls() == 2  # exactly one replacement call
    events = await session.read_events()
    assert sum(e.type == "message.completed" for e in events) == 1
    # The interrupted attempt's deltas stay in the event stream with the coordinates the
    # replacement reuses: read by coordinates, the text appears once and agrees.
    by_place: dict[tuple[Any, ...], list[str]] = collections.defaultdict(list)
    for e in events:
        if e.type == "message.delta":
            by_place[(e.meta.turn_id, e.meta.step_index, e.meta.sequence)].append(e.data.text)
    assert all(len(set(texts)) == 1 for texts in by_place.values())
    assert any(len(texts) == 2 for texts in by_place.values())  # the partial attempt
    assert "".join(texts[0] for _, texts in sorted(by_place.items())) == app.STREAM_TEXT


async def test_kill_mid_stream_of_a_message_with_files(harness: Harness) -> None:
    harness.use("files")
    harness.start_worker()
    session = await harness.session()
    chart = b"\x89PNG\r\n\x1a\n" + secrets.token_bytes(700_000)  # over one store chunk
    image = await session.attach(chart, mime_type="image/png", filename="chart.png")
    sub_id = await session.send("describe", client_message_id="m1", attachments=[image])

    async def some_deltas() -> bool:
        events = await session.read_events()
        return sum(e.type == "message.delta" for e in events) >= 3

    await harness.until(some_deltas)
    harness.kill(harness.procs[0])
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    assert assistant_texts(transcript) == [app.STREAM_TEXT]
    # Both attempts, in two processes, got the file's bytes from the attachment store.
    seen = harness.effects("model_files")
    assert len(seen) == 2 and seen[0]["pid"] != seen[1]["pid"]
    assert [e["files"] for e in seen] == [[["chart.png", "image/png", image.sha256]]] * 2
    assert [r.attachments for r in transcript if r.kind == "user"] == [(image,)]


async def test_kill_between_two_parallel_tool_results(harness: Harness) -> None:
    harness.use("parallel")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("check api and db", client_message_id="m1")

    async def a_recorded_b_hanging() -> bool:
        results = [r for r in await session.transcript() if r.kind == "tool_result"]
        names = [r.name for r in results]
        return harness.ready("slow_check") and names == ["fast_lookup", "fast_lookup"]

    await harness.until(a_recorded_b_hanging)
    harness.kill(harness.procs[0])
    assert harness.model_calls() == 1
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    # The two fast calls ran in parallel and appended their results concurrently.
    assert harness.runs("start") == {"fast_lookup": 2, "slow_check": 2}
    assert harness.runs("end") == {"fast_lookup": 2, "slow_check": 1}
    fast_keys = [e["key"] for e in harness.effects("start") if e["tool"] == "fast_lookup"]
    assert len(set(fast_keys)) == 2
    b_starts = [e for e in harness.effects("start") if e["tool"] == "slow_check"]
    assert [e["attempt"] for e in b_starts] == [1, 2]
    assert b_starts[0]["key"] == b_starts[1]["key"]
    assert b_starts[0]["key"].startswith("s1:call_")
    assert b_starts[0]["pid"] != b_starts[1]["pid"]
    # One model call for the tool step (adopted from the transcript), one to finish.
    assert harness.model_calls() == 2
    assert assistant_texts(transcript) == ["Checking both.", "Both checked."]
    results = [r for r in transcript if r.kind == "tool_result"]
    assert sorted((r.content, r.outcome) for r in results) == [
        ("api: degraded", "ok"),
        ("db: healthy", "ok"),
        ("web: degraded", "ok"),
    ]
    assert results[-1].name == "slow_check"  # recorded after the restart
    [saw] = harness.model_saw()
    assert sorted(saw) == [
        ["fast_lookup", "api: degraded", False],
        ["fast_lookup", "web: degraded", False],
        ["slow_check", "db: healthy", False],
    ]


async def test_kill_after_a_tool_side_effect_before_the_step_commits(harness: Harness) -> None:
    harness.use("side_effect")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("charge and mail", client_message_id="m1")
    await harness.until(lambda: harness.ready("charge") and harness.ready("send_email"))
    harness.kill(harness.procs[0])
    assert harness.runs("start") == {"charge": 1, "send_email": 1}
    assert harness.runs("end") == {}
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    # The idempotent tool ran again with the same idempotency key...
    charges = [e for e in harness.effects("start") if e["tool"] == "charge"]
    assert [e["attempt"] for e in charges] == [1, 2]
    assert charges[0]["key"] == charges[1]["key"]
    # ...the non-idempotent one did not, and its outcome is unknown to the model.
    assert harness.runs("start") == {"charge": 2, "send_email": 1}
    assert harness.runs("end") == {"charge": 1}
    results = {r.name: r for r in transcript if r.kind == "tool_result"}
    assert results["charge"].outcome == "ok"
    assert results["send_email"].outcome == "unknown"
    assert results["send_email"].is_error is True
    assert results["send_email"].content.startswith("Outcome unknown")
    [saw] = harness.model_saw()
    assert sorted(r[0] for r in saw) == ["charge", "send_email"]
    email = next(r for r in saw if r[0] == "send_email")
    assert email[1].startswith("Outcome unknown") and email[2] is True
    assert harness.model_calls() == 2
    events = await session.read_events()
    unknown = [e for e in events if e.type == "tool.result" and e.data.name == "send_email"]
    assert [e.data.outcome for e in unknown] == ["unknown"]


@pytest.mark.parametrize("answer_first", [False, True], ids=["restart-answer", "answer-restart"])
async def test_kill_while_parked_on_an_approval(harness: Harness, answer_first: bool) -> None:
    harness.use("approval")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("restart api", client_message_id="m1", principal="ada")
    requested = await session.wait_for("input.requested", timeout=20)
    await session.wait_for("turn.waiting", after=requested.index, timeout=20)
    await harness.until(lambda: _run_released(harness, session))
    harness.kill(harness.procs[0])
    assert harness.runs("start") == {}
    if not answer_first:
        harness.start_worker()
    [pending] = await session.pending_requests()
    assert pending.request_id == requested.data.request.request_id
    await session.answer(pending.request_id, "approve", principal="ada")
    if answer_first:
        harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    assert harness.runs("start") == {"restart_service": 1}
    assert harness.runs("end") == {"restart_service": 1}
    assert harness.model_calls() == 2
    assert assistant_texts(transcript) == ["Restarting.", "Restarted."]
    assert harness.model_saw() == [[["restart_service", '{"restarted":"api"}', False]]]
    assert await session.pending_requests() == []


async def test_kill_while_the_turns_end_is_being_committed(harness: Harness) -> None:
    harness.use("settlement")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("wrap up", client_message_id="m1")
    # The last step sent the commit that settles the message, records the reply and the
    # turn's end and announces it (one transaction); killed before it landed.
    await harness.until(lambda: harness.ready("SettleSubmission"))
    harness.kill(harness.procs[0])
    sub = await harness.backend.stores.submissions.get_submission(sub_id)
    assert sub is not None and sub.status != "settled"
    assert not any(e.type == "turn.completed" for e in await session.read_events())
    harness.start_worker()
    transcript = await harness.finished(session, sub_id)
    assert [r.kind for r in transcript] == ["user", "assistant", "turn_end"]
    events = await session.read_events()
    assert sum(e.type == "turn.completed" for e in events) == 1
    assert await harness.backend.stores.submissions.list_pending_settlements() == []


async def test_coordinates_are_the_same_on_every_attempt(harness: Harness) -> None:
    harness.use("coordinates")
    harness.start_worker()
    session = await harness.session()
    sub_id = await session.send("check the db", client_message_id="m1")
    await harness.until(lambda: harness.ready("slow_check"))
    await session.wait_for("tool.call", timeout=20)
    harness.kill(harness.procs[0])
    harness.start_worker()
    await harness.finished(session, sub_id)
    events = await session.read_events()
    assert all(e.meta.attempt >= 1 for e in events)
    calls = [e for e in events if e.type == "tool.call"]
    # Attempt 1 streamed the reply (deltas) before the call; attempt 2 adopted the
    # recorded reply and streamed nothing. The call is the same logical event: same
    # coordinates, another id, the attempt that emitted it.
    assert [e.meta.attempt for e in calls] == [1, 2]
    assert len({(e.meta.turn_id, e.meta.step_index, e.meta.sequence) for e in calls}) == 1
    assert calls[0].meta.id != calls[1].meta.id
    deltas = [e for e in events if e.type == "message.delta"]
    assert deltas and {e.meta.attempt for e in deltas} == {1}
    [result] = [e for e in events if e.type == "tool.result"]
    assert result.meta.attempt == 2 and result.meta.step_index == calls[1].meta.step_index
    assert result.meta.sequence > calls[1].meta.sequence


async def _run_released(harness: Harness, session: Session) -> bool:
    run = await harness.backend.stores.workflow.get_run(session.run_id)
    return run is not None and run.lease_owner is None and run.status == "running"
