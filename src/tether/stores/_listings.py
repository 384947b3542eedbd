"""The ``SELECT`` statements of run listings, for both SQL backends (`mark` is ``?`` or ``%s``).

A listing is ordered newest first by (``created_at``, ``run_id``) and read through an
index in that order, up to the page's end plus one row (which tells whether more
follow): with labels, the first label's entries in ``tether_run_labels_lookup`` (key,
value, created_at DESC, run_id DESC), each further label one primary-key probe per
candidate; without, ``tether_runs_by_created``. A later page seeks past the key of the
previous page's last row (`PageStart.after`), written so that both planners turn its
first term into the start of the index range: ``created_at <= t AND (created_at < t OR
run_id < id)``; the second term only sorts out the rows created at the same instant.
Only an offset cursor of earlier releases reads and skips rows (OFFSET).

Filters are written into the statement only when given (no ``(? IS NULL OR ...)``):
a prepared statement's generic plan then still uses the indexes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._pages import PageStart
from ._records import RunRecord
from ._rows import RUN_COLS, run_from_row

__all__ = ["chains_from_rows", "chains_query", "runs_query"]

_COLUMNS = RUN_COLS.split(", ")
_R = ", ".join("r." + c for c in _COLUMNS)
_C = ", ".join("c." + c for c in _COLUMNS)
#: The current run of the first run ``r``'s chain: its highest generation (one probe of
#: the unique index on (chain_id, generation)); ``r`` itself when it never continued.
_CURRENT = (
    "JOIN tether_runs c ON c.chain_id = r.run_id AND c.generation = "
    "(SELECT MAX(x.generation) FROM tether_runs x WHERE x.chain_id = r.run_id)"
)


def _listing(
    mark: str,
    select: str,
    *,
    labels: Mapping[str, str] | None,
    where: list[str],
    params: list[Any],
    start: PageStart,
    limit: int,
    join: str = "",
) -> tuple[str, list[Any]]:
    if labels:
        (key, value), *more = labels.items()
        source = f"tether_run_labels l JOIN tether_runs r ON r.run_id = l.run_id {join}"
        conditions = [f"l.key = {mark}", f"l.value = {mark}"]
        values: list[Any] = [key, value]
        for other_key, other_value in more:
            conditions.append(
                "EXISTS (SELECT 1 FROM tether_run_labels o WHERE o.run_id = l.run_id "
                f"AND o.key = {mark} AND o.value = {mark})"
            )
            values += [other_key, other_value]
        at, run_id = "l.created_at", "l.run_id"
    else:
        source = f"tether_runs r {join}"
        conditions, values = [], []
        at, run_id = "r.created_at", "r.run_id"
    conditions += where
    values += params
    if start.after is not None:
        conditions.append(f"{at} <= {mark} AND ({at} < {mark} OR {run_id} < {mark})")
        created_at, last = start.after
        values += [created_at, created_at, last]
    text = f"SELECT {select} FROM {source}"
    if conditions:
        text += " WHERE " + " AND ".join(conditions)
    text += f" ORDER BY {at} DESC, {run_id} DESC LIMIT {mark}"
    values.append(limit + 1)
    if start.offset:
        text += f" OFFSET {mark}"
        values.append(start.offset)
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
    where: list[str] = []
    params: list[Any] = []
    if status is not None:
        where.append(f"r.status = {mark}")
        params.append(status)
    if workflow_name is not None:
        where.append(f"r.workflow_name = {mark}")
        params.append(workflow_name)
    return _listing(mark, _R, labels=labels, where=where, params=params, start=start, limit=limit)


def chains_query(
    mark: str,
    *,
    labels: Mapping[str, str] | None,
    workflow_name: str | None,
    start: PageStart,
    limit: int,
) -> tuple[str, list[Any]]:
    """The statement of a `list_chains` page and its parameters.

    Each row is a chain's first run (`RUN_COLS`), then its current run (`RUN_COLS`
    again): read them with `chains_from_rows`.
    """
    where = ["r.generation = 0"]
    params: list[Any] = []
    if workflow_name is not None:
        where.append(f"r.workflow_name = {mark}")
        params.append(workflow_name)
    return _listing(
        mark,
        f"{_R}, {_C}",
        labels=labels,
        where=where,
        params=params,
        start=start,
        limit=limit,
        join=_CURRENT,
    )


def chains_from_rows(rows: list[Any]) -> list[tuple[RunRecord, RunRecord]]:
    """(first run, current run) of each row a `chains_query` statement returned."""
    n = len(_COLUMNS)
    return [(run_from_row(row[:n]), run_from_row(row[n:])) for row in rows]
