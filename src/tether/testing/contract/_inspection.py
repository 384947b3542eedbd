"""Contract of the operator's reads and the bulk cancel (`InspectionStore`).

Part of `WorkflowStoreContract`: a step by id, the events of one correlation id, the
streams of a run and one stream's state, and `cancel_runs` over a filter, alike on
every backend.
"""

from __future__ import annotations

from typing import Any

import pytest

from ...errors import InvalidInputError
from ...stores import Commit, NewEvent, NewRun, StreamInfo, WorkflowStore

__all__ = ["InspectionContract"]


def _new(run_id: str, workflow: str = "wf", **kw: Any) -> NewRun:
    return NewRun(
        run_id=run_id,
        workflow_name=workflow,
        input=b"in",
        deployment="d",
        engine_version="e",
        queue="q",
        **kw,
    )


def _created(step_id: str, slot: int) -> NewEvent:
    return NewEvent(
        event_type="step_created",
        correlation_id=step_id,
        attrs={"slot": slot, "name": "s", "attempt": 1},
        payload=b"args",
    )


class InspectionContract:
    """Mixed into `WorkflowStoreContract`; uses its `store` fixture."""

    async def _with_steps(self, store: WorkflowStore) -> None:
        await store.create_run(_new("r1"))
        claim = await store.claim_run("r1", owner="w1", lease_seconds=30)
        assert claim.run is not None
        done = NewEvent(event_type="step_completed", correlation_id="s1", payload=b"out")
        events = (_created("s1", 1), done, _created("s2", 2))
        await store.commit(
            Commit(run_id="r1", owner="w1", epoch=claim.epoch, expected_head=claim.run.head,
                   events=events)
        )  # fmt: skip

    async def test_a_step_is_read_by_its_id(self, store: WorkflowStore) -> None:
        await self._with_steps(store)
        listed = {s.step_id: s for s in await store.list_steps("r1")}
        first = await store.get_step("r1", "s1")
        assert first == listed["s1"]
        assert first is not None and (first.status, first.output) == ("completed", b"out")
        second = await store.get_step("r1", "s2")
        assert second == listed["s2"] and second is not None and second.status == "running"
        assert await store.get_step("r1", "nope") is None
        assert await store.get_step("other", "s1") is None

    async def test_events_are_listed_by_correlation_id(self, store: WorkflowStore) -> None:
        await self._with_steps(store)
        every = await store.list_events("r1")
        s1 = await store.list_correlated_events("r1", "s1")
        assert [e.event_type for e in s1] == ["step_created", "step_completed"]
        assert s1 == [e for e in every if e.correlation_id == "s1"]
        assert [s.slot for s in s1] == sorted(s.slot for s in s1)
        assert [e.event_type for e in await store.list_correlated_events("r1", "s2")] == [
            "step_created"
        ]
        assert await store.list_correlated_events("r1", "nope") == []
        assert await store.list_correlated_events("other", "s1") == []

    async def test_the_streams_of_a_run_are_listed_with_their_state(
        self, store: WorkflowStore
    ) -> None:
        await store.write_stream("r1", "out", [b"a", b"b"])
        await store.write_stream("r1", "log", [b"x"])
        await store.close_stream("r1", "out")
        await store.close_stream("r1", "empty")  # closed before anything was written
        await store.write_stream("r2", "out", [b"z"])
        assert await store.list_streams("r1") == [
            StreamInfo(run_id="r1", name="empty", length=0, closed=True),
            StreamInfo(run_id="r1", name="log", length=1, closed=False),
            StreamInfo(run_id="r1", name="out", length=2, closed=True),
        ]
        assert await store.get_stream_info("r1", "log") == StreamInfo(
            run_id="r1", name="log", length=1, closed=False
        )
        assert await store.get_stream_info("r1", "nope") is None
        assert await store.list_streams("none") == []

    async def test_a_purged_stream_keeps_its_length(self, store: WorkflowStore) -> None:
        await store.write_stream("p1", "events", [b"private", b"more"])
        await store.purge_run_content("p1", keep_input=True)
        info = await store.get_stream_info("p1", "events")
        assert info is not None and info.length == 2

    async def test_cancel_runs_cancels_the_runs_a_filter_selects(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("a1"))
        await store.create_run(_new("a2", labels={"team": "x"}))
        await store.create_run(_new("b1", workflow="other", labels={"team": "x"}))
        await store.create_run(_new("b2", workflow="other"))
        cancelled = await store.cancel_runs(workflow_name="wf", reason="tidy")
        assert sorted(r.run_id for r in cancelled) == ["a1", "a2"]
        assert all(r.status == "cancelled" for r in cancelled)
        ended = await store.list_events("a1")
        assert ended[-1].event_type == "run_cancelled" and ended[-1].attrs["reason"] == "tidy"
        assert [r.run_id for r in await store.cancel_runs(labels={"team": "x"})] == ["b1"]
        b2 = await store.get_run("b2")
        assert b2 is not None and b2.status == "pending"
        assert await store.cancel_runs(workflow_name="wf") == []  # ended runs stay as they are

    async def test_cancel_runs_asks_holders_and_stops_at_its_limit(
        self, store: WorkflowStore
    ) -> None:
        for n in range(5):
            await store.create_run(_new(f"p{n}"))
        await store.create_run(_new("held"))
        await store.claim_run("held", owner="w1", lease_seconds=30)
        running = await store.cancel_runs(status="running")
        assert [(r.run_id, r.status) for r in running] == [("held", "running")]
        assert (await store.list_events("held"))[-1].event_type == "cancel_requested"
        first = await store.cancel_runs(status="pending", limit=3)
        assert len(first) == 3 and all(r.status == "cancelled" for r in first)
        rest = await store.cancel_runs(limit=100)
        left = {r.run_id for r in rest}
        assert left == {f"p{n}" for n in range(5)} - {r.run_id for r in first} | {"held"}

    async def test_cancel_runs_refuses_a_bad_filter(self, store: WorkflowStore) -> None:
        await store.create_run(_new("a1"))
        with pytest.raises(InvalidInputError, match="status"):
            await store.cancel_runs(status="completed")
        for limit in (0, -1, 10_001):
            with pytest.raises(InvalidInputError, match="limit"):
                await store.cancel_runs(limit=limit)
        run = await store.get_run("a1")
        assert run is not None and run.status == "pending"
