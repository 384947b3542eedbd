"""`WriteTargets` on the SQLite writer's connection: the writes share the commit's savepoint."""

from __future__ import annotations

import sqlite3
import time

from ...errors import InvalidTransitionError
from .._streams import misplaced
from .._writes import AppendRecords, AppendStream, SettleSubmission, StartSubmission
from ._conversations import _Tx as _ConversationTx
from ._submissions import _Tx as _LedgerTx

__all__ = ["SqliteWrites", "append_stream_rows"]


def append_stream_rows(
    c: sqlite3.Connection, run_id: str, name: str, chunks: list[bytes], at: int | None = None
) -> int:
    """Append chunks to a run's stream on `c`; returns the index of the last one.

    Three statements: the stream's row is read, then written once (inserted with its
    next index, or moved on); the writer's transaction holds the write lock, so no one
    appends in between.
    """
    found = c.execute(
        "SELECT next_index, closed FROM tether_streams WHERE run_id = ? AND name = ?",
        (run_id, name),
    ).fetchone()
    next_index = 0 if found is None else int(found[0])
    if found is not None and found[1]:
        raise InvalidTransitionError(f"stream {name!r} of run {run_id!r} is closed")
    if at is not None and at != next_index:
        raise misplaced(run_id, name, at, next_index)
    rows = [(run_id, name, next_index + i, chunk) for i, chunk in enumerate(chunks)]
    insert_chunk = "INSERT INTO tether_stream_chunks (run_id, name, idx, data) VALUES (?, ?, ?, ?)"
    if len(rows) == 1:
        c.execute(insert_chunk, rows[0])
    elif rows:
        c.executemany(insert_chunk, rows)
    if found is None:
        c.execute(
            "INSERT INTO tether_streams (run_id, name, next_index) VALUES (?, ?, ?)",
            (run_id, name, next_index + len(chunks)),
        )
    elif chunks:
        c.execute(
            "UPDATE tether_streams SET next_index = ? WHERE run_id = ? AND name = ?",
            (next_index + len(chunks), run_id, name),
        )
    return next_index + len(chunks) - 1


class SqliteWrites:
    """`WriteTargets` for one write of the SQLite workflow store."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.paths: set[str] = set()
        #: What was appended to run streams: (run id, name, first index, chunks).
        self.streams: list[tuple[str, str, int, list[bytes]]] = []

    def ledger(self) -> _LedgerTx:
        return _LedgerTx(self._conn, time.time)

    def conversations(self) -> _ConversationTx:
        return _ConversationTx(self._conn)

    def append_checked(self, write: AppendRecords, encoded: tuple[bytes, str]) -> bool:
        return False  # the rules append it: their reads are local calls

    def ledger_checked(self, write: StartSubmission | SettleSubmission) -> bool:
        return False  # the rules apply it: their reads are local calls

    def append_stream(self, write: AppendStream) -> None:
        chunks = [bytes(c) for c in write.chunks]
        last = append_stream_rows(self._conn, write.run_id, write.name, chunks, write.at)
        self.streams.append((write.run_id, write.name, last - len(chunks) + 1, chunks))

    def appended(self, path: str) -> None:
        self.paths.add(path)
