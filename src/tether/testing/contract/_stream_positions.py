"""Stream-position cases of the workflow-store contract: an append that states its index."""

from __future__ import annotations

import pytest

from ...errors import InvalidTransitionError, StreamPositionError
from ...stores import AppendStream, Commit, NewRun, WorkflowStore

__all__ = ["StreamPositionContract"]


def _new(run_id: str) -> NewRun:
    return NewRun(
        run_id=run_id,
        workflow_name="wf",
        input=b"in",
        deployment="d",
        engine_version="e",
        queue="q",
    )


class StreamPositionContract:
    """Mixed into `WorkflowStoreContract`; uses its `store` fixture."""

    async def test_an_append_at_its_index_lands_and_elsewhere_writes_nothing(
        self, store: WorkflowStore
    ) -> None:
        with pytest.raises(StreamPositionError, match="not at 2"):
            await store.write_stream("p1", "out", [b"x"], at=2)  # no stream yet: only 0
        assert await store.read_stream("p1", "out") == ([], False)
        assert await store.write_stream("p1", "out", [b"a", b"b"], at=0) == 1
        with pytest.raises(StreamPositionError):
            await store.write_stream("p1", "out", [b"c"], at=1)  # index 1 is taken
        with pytest.raises(StreamPositionError):
            await store.write_stream("p1", "out", [b"c"], at=3)  # a gap
        assert await store.write_stream("p1", "out", [b"c"], at=2) == 2
        chunks, _ = await store.read_stream("p1", "out")
        assert [(c.index, c.data) for c in chunks] == [(0, b"a"), (1, b"b"), (2, b"c")]
        await store.close_stream("p1", "out")
        with pytest.raises(InvalidTransitionError):
            await store.write_stream("p1", "out", [b"d"], at=3)

    async def test_a_commit_whose_append_is_misplaced_writes_nothing(
        self, store: WorkflowStore
    ) -> None:
        await store.create_run(_new("p2"))
        claim = await store.claim_run("p2", owner="w1", lease_seconds=30)
        assert claim.run is not None
        await store.write_stream("p2", "out", [b"a"])

        def commit(at: int) -> Commit:
            write = AppendStream(run_id="p2", name="out", chunks=(b"b",), at=at)
            return Commit(
                run_id="p2",
                owner="w1",
                epoch=claim.epoch,
                expected_head=claim.run.head if claim.run else 0,
                writes=(write,),
            )

        with pytest.raises(StreamPositionError):
            await store.commit(commit(0))
        chunks, _ = await store.read_stream("p2", "out")
        assert [c.data for c in chunks] == [b"a"]
        await store.commit(commit(1))
        chunks, _ = await store.read_stream("p2", "out")
        assert [(c.index, c.data) for c in chunks] == [(0, b"a"), (1, b"b")]
