"""`WriteTargets` over the memory stores, with an undo log: all of a commit, or none."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...errors import InvalidTransitionError
from ..kit import (
    AppendRecords,
    AppendStream,
    SettleSubmission,
    StartSubmission,
    Submission,
    SubmissionStatus,
    misplaced,
)
from ..kit import conversation_rules as conv

if TYPE_CHECKING:
    from ._conversations import MemoryConversationStore
    from ._submissions import MemorySubmissionStore

__all__ = ["MemoryWrites"]


class _Ledger:
    """The memory ledger's rows, remembering how to undo each change."""

    def __init__(self, store: MemorySubmissionStore, undo: list[Callable[[], None]]) -> None:
        self._rows = store._rows
        self._undo = undo

    def now(self) -> float:
        return self._rows.now()

    def get(self, submission_id: str) -> Submission | None:
        return self._rows.get(submission_id)

    def select(
        self,
        *,
        statuses: frozenset[SubmissionStatus],
        session_key: str | None = None,
        joined_into: str | None = None,
    ) -> list[Submission]:
        return self._rows.select(
            statuses=statuses, session_key=session_key, joined_into=joined_into
        )

    def insert(self, submission: Submission) -> Submission:
        rows, sequence = self._rows, self._rows.next_sequence
        row = rows.insert(submission)

        def undo() -> None:
            rows.by_id.pop(row.submission_id, None)
            rows.next_sequence = sequence

        self._undo.append(undo)
        return row

    def _keep(self, submission_id: str) -> None:
        by_id, old = self._rows.by_id, self._rows.by_id[submission_id]
        self._undo.append(lambda: by_id.__setitem__(submission_id, old))

    def update(self, submission: Submission) -> None:
        self._keep(submission.submission_id)
        self._rows.update(submission)

    def redact(self, submission: Submission) -> None:
        self._keep(submission.submission_id)
        self._rows.redact(submission)


class _Streams:
    """The memory conversation streams, remembering how to undo each change."""

    def __init__(self, store: MemoryConversationStore, undo: list[Callable[[], None]]) -> None:
        self._store = store
        self._tx = store._tx
        self._undo = undo

    def get_stream(self, path: str) -> conv.StreamRow | None:
        return self._tx.get_stream(path)

    def put_stream(self, row: conv.StreamRow, *, new: bool) -> None:
        streams = self._store._streams
        if new:
            self._undo.append(lambda: streams.__delitem__(row.path))
        else:
            stream, old = streams[row.path], streams[row.path].row
            self._undo.append(lambda: setattr(stream, "row", old))
        self._tx.put_stream(row, new=new)

    def find_batch(
        self, path: str, producer_id: str, producer_epoch: int, producer_sequence: int
    ) -> tuple[int, str, str | None, str | None] | None:
        return self._tx.find_batch(path, producer_id, producer_epoch, producer_sequence)

    def insert_batch(self, batch: conv.NewBatch) -> None:
        stream = self._store._streams[batch.path]
        key = (batch.producer_id, batch.producer_epoch, batch.producer_sequence)

        def undo() -> None:
            stream.batches.pop()
            stream.by_producer.pop(key, None)

        self._tx.insert_batch(batch)
        self._undo.append(undo)

    def get_submission(self, submission_id: str) -> Submission | None:
        return self._tx.get_submission(submission_id)


class MemoryWrites:
    """`WriteTargets` for one commit of the memory workflow store.

    Args:
        streams: The run streams of the workflow store: ``(run_id, name) -> stream``
            with ``chunks`` and ``closed``.
        submissions: The memory ledger.
        conversations: The memory conversation store.
    """

    def __init__(
        self,
        streams: dict[tuple[str, str], Any],
        make_stream: Callable[[], Any],
        submissions: MemorySubmissionStore | None,
        conversations: MemoryConversationStore | None,
    ) -> None:
        self._streams = streams
        self._make_stream = make_stream
        self._submissions = submissions
        self._conversations = conversations
        self._undo: list[Callable[[], None]] = []
        self.paths: set[str] = set()
        #: What was appended to run streams: (run id, name, first index, chunks).
        self.streams: list[tuple[str, str, int, list[bytes]]] = []

    def ledger(self) -> _Ledger:
        if self._submissions is None:
            raise InvalidTransitionError("this memory backend has no submission ledger")
        return _Ledger(self._submissions, self._undo)

    def conversations(self) -> _Streams:
        if self._conversations is None:
            raise InvalidTransitionError("this memory backend has no conversation store")
        return _Streams(self._conversations, self._undo)

    def append_checked(self, write: AppendRecords, encoded: tuple[bytes, str]) -> bool:
        return False  # the rules append it: their reads are local calls

    def ledger_checked(self, write: StartSubmission | SettleSubmission) -> bool:
        return False  # the rules apply it: their reads are local calls

    def append_stream(self, write: AppendStream) -> None:
        key = (write.run_id, write.name)
        created = key not in self._streams
        stream = self._streams.setdefault(key, self._make_stream())
        if stream.closed:
            raise InvalidTransitionError(f"stream {write.name!r} of run {write.run_id!r} is closed")
        length = len(stream.chunks)
        if write.at is not None and write.at != length:
            if created:
                self._streams.pop(key, None)
            raise misplaced(write.run_id, write.name, write.at, length)
        chunks = [bytes(c) for c in write.chunks]
        stream.chunks.extend(chunks)
        self.streams.append((write.run_id, write.name, length, chunks))

        def undo() -> None:
            del stream.chunks[length:]
            if created:
                self._streams.pop(key, None)

        self._undo.append(undo)

    def appended(self, path: str) -> None:
        self.paths.add(path)

    def rollback(self) -> None:
        """Undo every change, newest first."""
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
        self.paths.clear()
        self.streams.clear()

    def committed(self) -> None:
        """Tell conversation subscribers what was appended."""
        if self._conversations is not None:
            for path in self.paths:
                self._conversations.notify_appended(path)
