"""The ``SELECT`` statements of run listings, for both SQL backends (`mark` is ``?`` or ``%s``).

A listing is ordered newest first by (``created_at``, ``run_id``) and read through an
index in that order, up to the page's end plus one row (which tells whether more
follow), whatever the planner knows of the tables (a store never analyzed included):

- the page's keys (run_id, created_at) are selected first, in a subquery whose LIMIT
  keeps it from being merged into the joins after it: the page's runs are then read
  by primary key, and a chain's current run by one probe of the unique index on
  (chain_id, generation), for the page's rows only;
- with labels, the keys are the first label's entries in ``tether_run_labels_lookup``
  (key, value, created_at DESC, run_id DESC); each further label, and the conditions
  on the run, are scalar subqueries on a primary key, one probe per candidate (an
  ``EXISTS`` or a join may be planned as a read of every entry of that label, or of
  every run of the workflow: one per session);
- chains without labels, ``tether_runs_chains`` (workflow_name, created_at DESC,
  run_id DESC) of first runs only; runs without labels, ``tether_runs_by_created``.

A later page seeks past the key of the previous page's last row (`PageStart.after`),
written so that both planners make its first term the start of the index range:
``created_at <= t AND (created_at < t OR run_id < id)``; the second term only sorts
out the rows created at that same instant. Only an offset cursor of earlier releases
reads and skips rows (OFFSET). Filters are written into the statement only when
given (no ``(? IS NULL OR ...)``): a prepared statement's generic plan then still
uses the indexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._pages import PageStart
from ._records import RunRecord
from ._rows import RUN_COLS, run_from_row

__all__ = ["CHAINS_INDEX", "chains_from_rows", "chains_query", "runs_query"]

_COLUMNS = RUN_COLS.split(", ")
_R = ", ".join("r." + c for c in _COLUMNS)
_C = ", ".join("c." + c for c in _COLUMNS)
#: First runs (chains) by workflow, newest first: what a chain listing reads.
CHAINS_INDEX = (
    "CREATE INDEX IF NOT EXISTS tether_runs_chains "
    "ON tether_runs (workflow_name, created_at DESC, run_id DESC) WHERE generation = 0"
)


#: A condition on a column of the run: (column, what it equals, its parameters).
_Equals = tuple[str, str, list[Any]]


def _page(
    mark: str,
    *,
    labels: Mapping[str, str] | None,
    where: list[_Equals],
    start: PageStart,
    limit: int,
    current: bool = False,
) -> tuple[str, list[Any]]:
    """One page of runs ``r`` (and with `current` their chains' current runs ``c``).

    The page's keys are selected first (`limit` + 1 of them, newest first), then its
    runs by primary key. With labels each condition of `where` is a probe of the run
    by its primary key alone (a probe that names another indexed column may be
    planned on that column's index instead: a read of every run of the workflow).
    """
    conditions: list[str] = []
    values: list[Any] = []
    if labels:
        (key, value), *more = labels.items()
        conditions += [f"l.key = {mark}", f"l.value = {mark}"]
        values += [key, value]
        for other_key, other_value in more:
            conditions.append(
                "(SELECT o.value FROM tether_run_labels o WHERE o.run_id = l.run_id "
                f"AND o.key = {mark}) = {mark}"
            )
            values += [other_key, other_value]
        for column, equals, params in where:
            conditions.append(
                f"(SELECT r.{column} FROM tether_runs r WHERE r.run_id = l.run_id) = {equals}"
            )
            values += params
        source, at, run_id = "tether_run_labels l", "l.created_at", "l.run_id"
    else:
        for column, equals, params in where:
            conditions.append(f"r.{column} = {equals}")
            values += params
        source, at, run_id = "tether_runs r", "r.created_at", "r.run_id"
    if start.after is not None:
        conditions.append(f"{at} <= {mark} AND ({at} < {mark} OR {run_id} < {mark})")
        created_at, last = start.after
        values += [created_at, created_at, last]
    keys = f"SELECT {run_id} AS run_id, {at} AS created_at FROM {source}"
    if conditions:
        keys += " WHERE " + " AND ".join(conditions)
    keys += f" ORDER BY {at} DESC, {run_id} DESC LIMIT {mark}"
    values.append(limit + 1)
    if start.offset:
        keys += f" OFFSET {mark}"
        values.append(start.offset)
    text = f"SELECT {_R}{', ' + _C if current else ''} FROM ({keys}) p "
    text += "JOIN tether_runs r ON r.run_id = p.run_id "
    if current:
        # A later run of the chain only (NULLs when it never continued: the first run
        # is not sent twice).
        text += (
            "LEFT JOIN tether_runs c ON c.chain_id = p.run_id AND c.generation > 0 "
            "AND c.generation = "
            "(SELECT MAX(x.generation) FROM tether_runs x WHERE x.chain_id = p.run_id) "
        )
    text += "ORDER BY p.created_at DESC, p.run_id DESC"
    return text, values


def runs_query(
    mark: str,
    *,
    labels: Mapping[str, str] | None,
    status: str | None,
    workflow_name: str | None,
    start: PageStart,
    limit: int,
) -> tuple[str, list[Any]]:
    """The statement of a `list_runs` page (`limit` + 1 rows of `RUN_COLS`) and its parameters.

    `labels` must be checked (`check_labels`); the first one drives the index scan.
    """
    where: list[_Equals] = []
    if status is not None:
        where.append(("status", mark, [status]))
    if workflow_name is not None:
        where.append(("workflow_name", mark, [workflow_name]))
    return _page(mark, labels=labels, where=where, start=start, limit=limit)


def chains_query(
    mark: str,
    *,
    labels: Mapping[str, str] | None,
    workflow_name: str | None,
    start: PageStart,
    limit: int,
) -> tuple[str, list[Any]]:
    """The statement of a `list_chains` page and its parameters.

    Each row is a chain's first run (`RUN_COLS`), then its current run when that is a
    later one (`RUN_COLS` again, NULLs otherwise), newest first: read them with
    `chains_from_rows`.
    """
    # The index of chains has the predicate written as it is here (SQLite uses a
    # partial index only for a query that repeats its terms).
    where: list[_Equals] = [("generation", "0", [])]
    if workflow_name is not None:
        where.append(("workflow_name", mark, [workflow_name]))
    return _page(mark, labels=labels, where=where, start=start, limit=limit, current=True)


def chains_from_rows(rows: list[Any]) -> list[tuple[RunRecord, RunRecord]]:
    """(first run, current run) of each row a `chains_query` statement returned."""
    n = len(_COLUMNS)
    found = []
    for row in rows:
        first = run_from_row(row[:n])
        found.append((first, first if row[n] is None else run_from_row(row[n:])))
    return found
