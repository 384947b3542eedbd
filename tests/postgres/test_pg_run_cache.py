"""The Postgres store's copies of the runs it holds are bounded by count and by bytes."""

from __future__ import annotations

from tether.stores import RunRecord
from tether.stores.postgres._fast import KnownRun, RunCache


def _known(run_id: str, size: int) -> KnownRun:
    run = RunRecord(
        run_id=run_id, workflow_name="wf", status="running", deployment="d",
        engine_version="e", queue="q", input=b"x" * size, output=None, error=None,
        head=1, parent_run_id=None, parent_slot=None, lease_owner="w1", lease_epoch=1,
        lease_expires_at=0.0, created_at=0.0, updated_at=0.0, completed_at=None,
    )  # fmt: skip
    return KnownRun(stamp="1", run=run, steps={})


def test_runs_with_large_inputs_are_evicted_by_bytes_least_recent_first() -> None:
    cache = RunCache(size=100, max_bytes=100_000)
    for i in range(5):
        cache.put(_known(f"r{i}", 40_000))
    # Two fit: the three least recently kept went.
    assert [cache.get(f"r{i}") is not None for i in range(5)] == [False] * 3 + [True] * 2
    cache.put(_known("r3", 10))  # replaced by a small copy: room for another
    cache.put(_known("r5", 40_000))
    assert all(cache.get(r) is not None for r in ("r3", "r4", "r5"))


def test_the_count_still_bounds_small_runs() -> None:
    cache = RunCache(size=3)
    for i in range(5):
        cache.put(_known(f"r{i}", 1))
    assert [cache.get(f"r{i}") is not None for i in range(5)] == [False, False, True, True, True]
