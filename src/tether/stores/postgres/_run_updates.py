"""Consecutive run-row updates of one transaction, sent as one statement.

A claim of many runs updates each run's row (its lease, its epoch): 200 runs taken over
from a dead worker made 200 statements in the claim's pipeline, each with the client's
cost of a pipelined statement (a cursor, its parameters, its result); the claim took
139 ms, 63 ms as one statement. Updates of distinct runs that follow one another are
sent as one ``UPDATE ... FROM (VALUES ...)``, which returns each row's new version
stamp (``xmin``) as the single updates do.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any, Final

from .. import _rows as rows

__all__ = ["MANY_STAMPS", "UPDATE_RUN", "coalesced"]

#: One run row's update, returning its new version stamp for the one-round-trip commit.
UPDATE_RUN: Final = rows.statements("%s").update_run + " RETURNING xmin::text"

#: Marks a statement that returns ``(run_id, stamp)`` rows, one per run it updated.
MANY_STAMPS: Final = object()

# The VALUES list carries no column types: untyped NULLs would be taken as text.
_TYPES = {
    "status": "text",
    "output": "bytea",
    "error": "bytea",
    "head": "integer",
    "lease_owner": "text",
    "lease_epoch": "bigint",
    "lease_expires_at": "double precision",
    "updated_at": "double precision",
    "completed_at": "double precision",
}
_COLS = (*rows.RUN_UPDATE_COLS, "run_id")
assert set(_TYPES) == set(rows.RUN_UPDATE_COLS), "a run column without its type here"


@cache
def _update_runs(n: int) -> str:
    row = "(" + ", ".join(f"%s::{_TYPES.get(c, 'text')}" for c in _COLS) + ")"
    sets = ", ".join(f"{c} = v.{c}" for c in rows.RUN_UPDATE_COLS)
    return (
        f"UPDATE tether_runs AS r SET {sets} FROM (VALUES {', '.join([row] * n)}) "
        f"AS v ({', '.join(_COLS)}) WHERE r.run_id = v.run_id RETURNING r.run_id, r.xmin::text"
    )


def coalesced(
    writes: Sequence[tuple[str, Sequence[Any], Any]],
) -> Iterator[tuple[str, Sequence[Any], Any]]:
    """`writes` with consecutive updates of distinct runs merged into one statement.

    Each write is (statement, parameters, what its result is for); a merged one is
    marked `MANY_STAMPS`. A run updated twice in a row stays two statements: one
    ``UPDATE ... FROM`` would apply only one of the two.
    """
    i, end = 0, len(writes)
    while i < end:
        j, seen = i, set()
        while j < end and writes[j][0] is UPDATE_RUN and writes[j][2] not in seen:
            seen.add(writes[j][2])
            j += 1
        if j - i > 1:
            yield _update_runs(j - i), [p for w in writes[i:j] for p in w[1]], MANY_STAMPS
            i = j
        else:
            yield writes[i]
            i += 1
