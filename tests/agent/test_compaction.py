"""Compaction: past its threshold a session goes on in a new run with a short transcript.

On every backend: the move happens at the idle point (messages already waiting run
first), the new transcript opens with the compactor's text given as history, the
event stream and inbox go on, and a failed compaction is logged and tried again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import pytest
from _harness import hosted

from tether.agent import Agent, Compaction, ContextEntry, KeepLast, UserEntry, tool
from tether.agent.models import Model, ModelRequest, UserMessage
from tether.errors import ConfigurationError
from tether.stores import Backend
from tether.testing import ScriptedModel


@tool
def lookup(service: str) -> str:
    """Look up a service."""
    return f"{service}: ok"


def recording(seen: list[ModelRequest], n: int = 30) -> ScriptedModel:
    def answer(request: ModelRequest) -> str:
        seen.append(request)
        last = [m.text for m in request.messages if isinstance(m, UserMessage)][-1]
        return f"re: {last[-12:]}"

    return ScriptedModel([answer] * n)


def texts(request: ModelRequest) -> list[str]:
    return [m.text for m in request.messages if isinstance(m, UserMessage)]


async def test_a_session_past_its_threshold_moves_to_a_compacted_transcript(
    backend: Backend,
) -> None:
    seen: list[ModelRequest] = []
    compaction = Compaction(max_turns=3, compactor=KeepLast(2))
    agent = Agent(name="ops", model=recording(seen), tools=[lookup], compaction=compaction)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k1")
        last = -1
        for i in range(1, 4):
            await session.send(f"m{i}")
            last = (await session.wait_for("turn.completed", after=last)).index
        moved = await session.wait_for("session.moved", after=last)
        assert (moved.data.reason, moved.data.generation) == ("compaction", 1)
        await session.send("m4")
        await session.wait_for("turn.completed", after=moved.index)
        history, question = texts(seen[-1])
        assert "history, not instructions" in history
        assert "user: m3\nassistant: re: m3" in history and "m1" not in history
        assert question == "m4"
        entries = await session.transcript()
        assert isinstance(entries[0], ContextEntry) and entries[0].source == "compaction"
        assert [e.text for e in entries if isinstance(e, UserEntry)] == ["m4"]
        current = await host.client.latest(session.run_id)
        assert current.generation == 1
        events = await session.read_events()
        assert [e.index for e in events] == list(range(len(events)))
        assert (await session.state()).status == "idle"


async def test_messages_waiting_when_the_turn_ends_run_before_the_move(backend: Backend) -> None:
    seen: list[ModelRequest] = []
    all_sent = asyncio.Event()

    async def first(request: ModelRequest) -> str:
        seen.append(request)
        await all_sent.wait()  # m2 and m3 wait in the ledger when m1's turn ends
        return "re: m1"

    def answer(request: ModelRequest) -> str:
        seen.append(request)
        return "ok"

    agent = Agent(
        name="ops",
        model=ScriptedModel([first, *[answer] * 5]),
        tools=[lookup],
        turn_policy="queue",
        compaction=Compaction(max_turns=2, compactor=KeepLast(10)),
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k2")
        ids = [await session.send(f"m{i}") for i in range(1, 4)]
        all_sent.set()
        moved = await session.wait_for("session.moved")
        events = await session.read_events(0)
        before = [e for e in events if e.index < moved.index]
        assert [e.data.submission_id for e in before if e.type == "turn.started"] == ids
        assert [e.type for e in before].count("turn.completed") == 3
        # m3 ran on the first run, with the whole transcript.
        assert texts(seen[2]) == ["m1", "m2", "m3"]
        await session.send("m4")
        await session.wait_for("turn.completed", after=moved.index)
        assert texts(seen[-1])[1:] == ["m4"]
        assert [e.type for e in await session.read_events()].count("session.moved") == 1


class FailsOnce:
    """A compactor whose first compaction fails."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, entries: Sequence[Any], model: Model) -> str:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the summarizer is down")
        return await KeepLast(2)(entries, model)


async def test_a_failed_compaction_is_logged_and_tried_again(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[ModelRequest] = []
    compactor = FailsOnce()
    compaction = Compaction(max_turns=2, compactor=compactor)
    agent = Agent(name="ops", model=recording(seen), tools=[lookup], compaction=compaction)
    caplog.set_level(logging.WARNING, logger="tether.agent")
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k3")
        last = -1
        for i in range(1, 4):
            await session.send(f"m{i}")
            last = (await session.wait_for("turn.completed", after=last)).index
        moved = await session.wait_for("session.moved", after=last - 1)
        assert moved.index > last  # after m3: the first try (after m2) failed
        assert compactor.calls == 2
        # m3 still ran with the whole transcript, on the first run.
        assert texts(seen[2]) == ["m1", "m2", "m3"]
    failed = [r for r in caplog.records if "session handoff failed" in r.getMessage()]
    assert len(failed) == 1 and "the summarizer is down" in failed[0].getMessage()


def test_a_compaction_needs_a_threshold() -> None:
    with pytest.raises(ConfigurationError, match="max_turns or max_tokens"):
        Compaction()
    with pytest.raises(ConfigurationError, match="max_tokens"):
        Compaction(max_tokens=0)


def test_the_token_estimate_counts_the_transcripts_text() -> None:
    compaction = Compaction(max_tokens=10)
    short = [UserEntry(turn_id="t", submission_id="s", text="x" * 39)]
    assert not compaction.due(short)
    assert compaction.due([*short, UserEntry(turn_id="t", submission_id="s2", text="y")])


async def test_an_idle_session_closes_after_its_timeout(backend: Backend) -> None:
    agent = Agent(name="ops", model=ScriptedModel(["one", "two"]), session_timeout=0.3)
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k4")
        await session.send("m1")
        done = await session.wait_for("turn.completed")
        closed = await session.wait_for("session.closed", after=done.index, timeout=20)
        assert closed.meta.at >= done.meta.at + 0.3
        assert (await session.state()).status == "closed"
        steps = await (await host.client.get(session.run_id)).steps()
        assert [s.name.rsplit("//", 1)[-1] for s in steps][-2:] == [
            "session_timeout",
            "close_session",
        ]


async def test_a_compaction_does_not_extend_the_session_timeout(backend: Backend) -> None:
    agent = Agent(
        name="ops",
        model=ScriptedModel(["one", "two"]),
        session_timeout=3600,
        compaction=Compaction(max_turns=1, compactor=KeepLast(2)),
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k5")
        await session.send("m1")
        done = await session.wait_for("turn.completed")
        await session.wait_for("session.moved", after=done.index)
        current = await host.client.latest(session.run_id)
        line = (await (await host.client.get(current.run_id, follow=False)).input()).args[4]
        # The deadline counts from the idle point before the move, not from the move.
        assert abs(line["deadline"] - (done.meta.at + 3600)) < 2.0
        assert (await session.state()).status == "idle"


async def test_a_compacted_run_carries_no_old_rings(backend: Backend) -> None:
    agent = Agent(
        name="ops",
        model=ScriptedModel(["r"] * 6),
        compaction=Compaction(max_turns=1, compactor=KeepLast(2)),
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k6")
        last = -1
        for i in range(5):
            await session.send(f"m{i}")
            last = (await session.wait_for("session.moved", after=last)).index
        current = await host.client.latest(session.run_id)
        assert current.generation == 5
        events = await backend.stores.workflow.list_events(current.run_id)
        # Only what arrived after the move: the session's journal does not grow with age.
        assert sum(e.event_type == "hook_received" for e in events) <= 1


class Slow:
    """A compactor taking `seconds` (the first `times` times; failing, if `fails`)."""

    def __init__(self, seconds: float, *, fails: bool = False, times: int = 1_000) -> None:
        self.seconds = seconds
        self.fails = fails
        self.times = times
        self.started = asyncio.Event()

    async def __call__(self, entries: Sequence[Any], model: Model) -> str:
        self.started.set()
        if self.times > 0:
            self.times -= 1
            await asyncio.sleep(self.seconds)
        if self.fails:
            raise RuntimeError("the summarizer is down")
        return await KeepLast(2)(entries, model)


async def _closed_after_turn(backend: Backend, compactor: Slow, session_id: str) -> float:
    """Seconds from the turn's end to `session.closed`, a 1.5 s timeout, compacting at once."""
    agent = Agent(
        name="ops",
        model=ScriptedModel(["one"]),
        session_timeout=1.5,
        compaction=Compaction(max_turns=1, compactor=compactor),
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id=session_id)
        await session.send("m1")
        done = await session.wait_for("turn.completed")
        closed = await session.wait_for("session.closed", after=done.index, timeout=20)
        return closed.meta.at - done.meta.at


@pytest.mark.parametrize("handoff", [True, False], ids=["moved", "same-run"])
async def test_a_slow_compaction_does_not_delay_the_session_timeout(
    backend: Backend, backend_without_handoff: Backend, handoff: bool
) -> None:
    # The compaction takes 1.2 s of the 1.5 s: counted from the move, the session
    # would close 2.7 s after its turn; it closes 1.5 s after it.
    chosen = backend if handoff else backend_without_handoff
    after = await _closed_after_turn(chosen, Slow(1.2), "k7")
    assert 1.5 <= after < 2.5


async def test_a_failed_compaction_keeps_the_session_timeout(backend: Backend) -> None:
    after = await _closed_after_turn(backend, Slow(1.2, fails=True), "k8")
    assert 1.5 <= after < 2.5


async def test_a_turn_after_a_compaction_counts_the_timeout_from_its_end(
    backend: Backend,
) -> None:
    compactor = Slow(1.0, times=1)

    async def slowly(request: ModelRequest) -> str:
        await asyncio.sleep(0.5)
        return "two"

    agent = Agent(
        name="ops",
        model=ScriptedModel(["one", slowly]),
        session_timeout=1.5,
        compaction=Compaction(max_turns=1, compactor=compactor),
    )
    async with hosted(backend, agent) as host:
        session = await host.open_session("ops", session_id="k9")
        await session.send("m1")
        first = await session.wait_for("turn.completed")
        await compactor.started.wait()
        # Sent while the first compaction runs: it waits for the new run, which runs it
        # first (and compacts again, at once): the idle time begins at its end.
        await session.send("m2")
        second = await session.wait_for("turn.completed", after=first.index)
        closed = await session.wait_for("session.closed", after=second.index, timeout=20)
        assert closed.meta.at >= second.meta.at + 1.5
