"""`KeptRows`: the rows the SQLite writer keeps between its transactions.

The writer's transactions keep what they read and wrote (a run's row, its unfinished
steps) so the next commit of the same run need not read them back; `SqliteDatabase`
forgets them all when another connection committed, and bounds them by count and bytes.
"""

from __future__ import annotations

from typing import Any

__all__ = ["KEPT_BYTES", "KEPT_ROWS", "KeptRows"]

#: Rows the writer keeps at most (`SqliteDatabase.kept`); past it they are all forgotten.
KEPT_ROWS = 8192
#: Payload bytes (inputs, outputs) the kept rows hold at most; past it, the same.
KEPT_BYTES = 32 * 1024 * 1024


class KeptRows:
    """Rows the writer's own transactions read or wrote, by a key their writes choose.

    Each row is kept with the bytes it holds (its payloads, as the writer counts them),
    so the writer can bound what it keeps by memory as well as by count.
    """

    __slots__ = ("_rows", "bytes")

    def __init__(self) -> None:
        self._rows: dict[Any, tuple[Any, int]] = {}
        #: Bytes the kept rows hold.
        self.bytes = 0

    def get(self, key: Any) -> Any:
        """The row kept under `key`, or None."""
        found = self._rows.get(key)
        return None if found is None else found[0]

    def __contains__(self, key: Any) -> bool:
        return key in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def put(self, key: Any, row: Any, size: int = 0) -> None:
        """Keep `row` (holding `size` bytes) under `key`, instead of what was there."""
        self.drop(key)
        self._rows[key] = (row, size)
        self.bytes += size

    def drop(self, key: Any) -> None:
        """Forget the row under `key`, if any."""
        found = self._rows.pop(key, None)
        if found is not None:
            self.bytes -= found[1]

    def clear(self) -> None:
        """Forget every row."""
        self._rows.clear()
        self.bytes = 0
