"""Round trips of the hot agent paths on Postgres, pinned so they cannot creep back up.

A round trip (see `tether.testing.PostgresRoundTrips`) costs far more than the CPU of
the statements it carries once the machine is busy, so the counts here are the
figures that matter: an agent turn (a message sent to an idle session, one tool call,
then the answer) through the real worker, each store operation's trips counted apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tether.agent import Agent, AgentHost, tool
from tether.agent.models import ModelRequest, ToolResultMessage
from tether.stores import Commit
from tether.stores.postgres import PostgresBackend
from tether.testing import PostgresRoundTrips, Reply, ScriptedModel, WatchedCall, tool_call

pytestmark = pytest.mark.postgres


@tool
def noop(i: int) -> int:
    """Return i."""
    return i


def one_tool_call(request: ModelRequest) -> Reply | str:
    if isinstance(request.messages[-1], ToolResultMessage):
        return "done"
    return Reply(tool_calls=(tool_call("noop", {"i": 1}, call_id=f"c{len(request.messages)}"),))


def _writes(call: WatchedCall) -> bool:
    commit = call.args[0]
    assert isinstance(commit, Commit)
    return bool(commit.writes)


def _report(calls: list[WatchedCall]) -> str:
    return "\n".join(call.describe() for call in calls)


@pytest.fixture
async def turn(pg_backend: PostgresBackend) -> AsyncIterator[PostgresRoundTrips]:
    """One whole turn in a fresh idle session, every trip of it counted."""
    stores = pg_backend.stores
    trips = PostgresRoundTrips()
    trips.watch(stores.workflow, "resume_hook_and_claim", "commit")
    trips.watch(stores.conversations, "read")
    trips.watch(stores.submissions, "list_unsettled_submissions")
    agent = Agent(name="rt", model=ScriptedModel(one_tool_call), tools=[noop])
    host = AgentHost(pg_backend, [agent], deployment="rt")
    async with host.worker(poll_interval=0.01):
        session = await host.open_session("rt", session_id="warm")
        await session.send("warm up")  # statements prepared, caches filled
        await session.wait_for("turn.completed", timeout=60)
        session = await host.open_session("rt", session_id="measured")
        # Parked on its inbox, its lease given back: the message claims it at once.
        for _ in range(1000):
            run = await stores.workflow.get_run(session.run_id)
            hooks = await stores.workflow.list_hooks(session.run_id)
            if run is not None and run.lease_owner is None and hooks:
                break
            await asyncio.sleep(0.01)
        with trips.counting():
            await session.send("go")
            await session.wait_for("turn.completed", timeout=60)
        yield trips


async def test_a_message_is_admitted_and_its_run_claimed_in_few_trips(
    turn: PostgresRoundTrips,
) -> None:
    # The submission, the inbox hook's payload, the session run's claim (its log read
    # for the replay) and the wake-up, in one transaction.
    (admission,) = turn.calls_of("resume_hook_and_claim")
    assert admission.count <= 2, admission.describe()


async def test_a_step_start_is_one_trip(turn: PostgresRoundTrips) -> None:
    starts = [c for c in turn.calls_of("commit") if not _writes(c)]
    assert starts, "the turn's step commits nothing without writes"
    assert max(c.count for c in starts) <= 1, _report(starts)


async def test_a_step_end_with_writes_takes_few_trips(turn: PostgresRoundTrips) -> None:
    # The transcript append, the ledger's start or settle, the session events and the
    # step's commit, in one transaction.
    ends = [c for c in turn.calls_of("commit") if _writes(c)]
    assert len(ends) == 3, _report(ends)
    # The step that starts the turn's submission, the tool result's, the settling one.
    limits = [2, 2, 2]
    assert all(c.count <= n for c, n in zip(ends, limits, strict=True)), _report(ends)


async def test_the_turn_step_reads_are_one_trip_each(turn: PostgresRoundTrips) -> None:
    reads = turn.calls_of("read") + turn.calls_of("list_unsettled_submissions")
    assert reads
    assert max(c.count for c in reads) <= 1, _report(reads)
