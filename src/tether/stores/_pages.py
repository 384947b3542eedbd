"""Page cursors of run listings: where the next page starts, by the key of the last row.

Listings (`WorkflowStore.list_runs`, `WorkflowStore.list_chains`) are ordered newest
first by (creation time, run id), a key no two runs share. A page's `next_cursor` names
the key of its last row, and the next page is the rows after that key: a seek in the
listing's index, however deep the page (keyset pagination). Rows inserted meanwhile
are newer than every listed row, so they land before the first page, never inside a
later one: no row is skipped or listed twice across pages.

A cursor is ``"k1."`` and the key in base64url (of a JSON pair), opaque to callers.
Earlier releases gave the number of rows to skip (``"40"``): such a cursor is still
accepted and skips that many rows (OFFSET) for the one page it asks for, whose own
`next_cursor` is a key again. Anything else is an `InvalidInputError`.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import orjson

from ..errors import InvalidInputError
from ._records import Page

__all__ = ["PageStart", "page_of", "page_start", "row_cursor", "rows_from"]

T = TypeVar("T")

_PREFIX = "k1."
_HINT = "pass the next_cursor of the previous page as it is, or None for the first page"


@dataclass(frozen=True, slots=True, kw_only=True)
class PageStart:
    """Where a page starts: after the row keyed (`created_at`, `run_id`), or at `offset`.

    `after` is None for the first page and for an offset cursor of earlier releases.
    """

    after: tuple[float, str] | None = None
    offset: int = 0


def row_cursor(created_at: float, run_id: str) -> str:
    """The cursor of the page that follows the row with this key."""
    key = orjson.dumps([created_at, run_id])
    return _PREFIX + base64.urlsafe_b64encode(key).decode().rstrip("=")


def page_start(cursor: str | None) -> PageStart:
    """Read a cursor (see the module docstring).

    Raises:
        InvalidInputError: It is neither a cursor a listing returned nor a row count.
    """
    if cursor is None or cursor == "":
        return PageStart()
    if not isinstance(cursor, str):
        raise InvalidInputError("cursor", cursor, "it is not a string", hint=_HINT)
    if cursor.isascii() and cursor.isdigit():
        return PageStart(offset=int(cursor))
    if not cursor.startswith(_PREFIX):
        raise InvalidInputError("cursor", cursor, "it is not a page cursor", hint=_HINT)
    body = cursor[len(_PREFIX) :]
    try:
        padded = body + "=" * (-len(body) % 4)
        key = orjson.loads(base64.b64decode(padded, altchars=b"-_", validate=True))
    except (binascii.Error, ValueError):
        raise InvalidInputError("cursor", cursor, "it is damaged", hint=_HINT) from None
    match key:
        case [int() | float() as created_at, str() as run_id] if (
            not isinstance(created_at, bool) and math.isfinite(created_at) and run_id
        ):
            return PageStart(after=(float(created_at), run_id))
    raise InvalidInputError("cursor", cursor, "it is damaged", hint=_HINT)


def page_of(rows: Sequence[T], limit: int, key: Callable[[T], tuple[float, str]]) -> Page[T]:
    """The page of a listing read with one row more than `limit` (which tells if more follow)."""
    items = tuple(rows[:limit])
    if len(rows) <= limit or not items:
        return Page(items=items, next_cursor=None)
    return Page(items=items, next_cursor=row_cursor(*key(items[-1])))


def rows_from(
    rows: Sequence[T], start: PageStart, key: Callable[[T], tuple[float, str]]
) -> Sequence[T]:
    """The rows of a listing (newest first) from where a page starts (in-memory stores)."""
    if start.after is not None:
        after = start.after
        rows = [row for row in rows if key(row) < after]
    return rows[start.offset :]
