"""SQL of the retention sweep: which ended runs' content is past the retention period.

A run's content is purged once (`purge_run_statements` marks its row ``purged``); the
sweep asks for the runs ended before a time and not yet purged whose whole chain ended
before it too (a session is a chain: its earlier runs end long before it does) and whose
parent, if any, did. A partial index holds only the ended runs not yet purged, in the
order the sweep reads them: what the sweep has done leaves the index.
"""

from __future__ import annotations

from typing import Any

from ._records import RunRecord
from ._rows import RUN_COLS, purge_run_statements, run_from_row

__all__ = [
    "PRUNABLE_INDEX",
    "PURGED_COLUMN",
    "prunable_runs",
    "prunable_runs_query",
    "purge_run",
]

#: The column that marks a run whose content was purged (NULL until then).
PURGED_COLUMN = "ALTER TABLE tether_runs ADD COLUMN purged INTEGER"

PRUNABLE_INDEX = (
    "CREATE INDEX IF NOT EXISTS tether_runs_prunable ON tether_runs (completed_at, run_id) "
    "WHERE purged IS NULL AND completed_at IS NOT NULL"
)


def purge_run(conn: Any, mark: str, run_id: str, keep_input: bool) -> bool:
    """`WorkflowStore.purge_run_content` on a connection (inside the caller's write).

    The row is marked ``purged`` first, in the same write: of two purges at once the
    one whose update marked it is the first (the other waits for its row lock and then
    finds it marked), and the retention sweep (`list_prunable_runs`) passes it by.
    """
    first = conn.execute(
        f"UPDATE tether_runs SET purged = 1 WHERE run_id = {mark} AND purged IS NULL", (run_id,)
    ).rowcount
    for statement in purge_run_statements(mark, keep_input=keep_input):
        conn.execute(statement, (run_id,))
    return bool(first)


def prunable_runs(
    conn: Any, mark: str, ended_before: float, limit: int, after: tuple[float, str] | None
) -> list[RunRecord]:
    """`WorkflowStore.list_prunable_runs` on a connection whose parameters are `mark`."""
    t = ended_before
    params: tuple[Any, ...] = (
        (t, t, t) if after is None else (t, t, t, after[0], after[0], after[1])
    )
    sql = prunable_runs_query(mark, after=after is not None)
    return [run_from_row(r) for r in conn.execute(sql, (*params, limit)).fetchall()]


def prunable_runs_query(mark: str, *, after: bool = False) -> str:
    """The runs `WorkflowStore.list_prunable_runs` returns.

    Parameters: the time three times, then (with `after`) the cursor's time, its time
    again and its run id, then the limit.
    """
    past = (
        f"AND (completed_at > {mark} OR (completed_at = {mark} AND run_id > {mark})) "
        if after
        else ""
    )
    return (
        f"SELECT {RUN_COLS} FROM tether_runs WHERE purged IS NULL "
        f"AND completed_at IS NOT NULL AND completed_at < {mark} "
        "AND NOT EXISTS (SELECT 1 FROM tether_runs o WHERE o.chain_id = tether_runs.chain_id "
        f"AND (o.completed_at IS NULL OR o.completed_at >= {mark})) "
        "AND (parent_run_id IS NULL OR EXISTS (SELECT 1 FROM tether_runs p "
        "WHERE p.run_id = tether_runs.parent_run_id AND p.completed_at IS NOT NULL "
        f"AND p.completed_at < {mark})) "
        f"{past}ORDER BY completed_at, run_id LIMIT {mark}"
    )
