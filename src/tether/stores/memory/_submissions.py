"""The in-memory submission ledger: the reference implementation, no I/O.

Each method runs one `_ledger` transition synchronously, without awaiting in between,
so on one event loop every transition is atomic.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import TypeVar

from ..kit import (
    LedgerStore,
    LedgerTxn,
    SettledRecord,
    Submission,
    SubmissionStatus,
)
from ._gate import Gate

__all__ = ["MemorySubmissionStore"]


T = TypeVar("T")


class _Rows:
    """`LedgerTxn` over a dict; rows are immutable records, replaced on update."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.by_id: dict[str, Submission] = {}
        self.next_sequence = 1
        #: Rows whose stored form no longer decodes (`MemoryStoredRows` stages them):
        #: the next read settles each as failed, as the SQL backends settle theirs.
        self.damaged: set[str] = set()
        #: Sequences of the damaged rows the running rule settled (`LedgerTxn`).
        self.settled_on_read: set[int] = set()
        self._clock = clock

    def now(self) -> float:
        return self._clock()

    def _decoded(self, row: Submission) -> Submission:
        if row.submission_id not in self.damaged:
            return row
        # What a SQL backend does with a row it cannot parse: it is settled as failed,
        # never run, and keeps its identity and place in its lane.
        self.damaged.discard(row.submission_id)
        settled = row.status == "settled" and row.outcome is not None
        view = Submission(
            sequence=row.sequence,
            submission_id=row.submission_id,
            kind=row.kind,
            agent_name=row.agent_name,
            instance_id=row.instance_id,
            session_key=row.session_key,
            payload=None,
            attachments=(),
            status="settled",
            accepted_at=row.accepted_at,
            settled_at=row.settled_at if settled else self.now(),
            outcome="failed",
            error=row.error if settled else "malformed stored submission row: payload",
        )
        self.by_id[row.submission_id] = view
        self.settled_on_read.add(row.sequence)
        return view

    def get(self, submission_id: str) -> Submission | None:
        row = self.by_id.get(submission_id)
        return None if row is None else self._decoded(row)

    def select(
        self,
        *,
        statuses: frozenset[SubmissionStatus],
        session_key: str | None = None,
        joined_into: str | None = None,
    ) -> list[Submission]:
        # Dicts keep insertion order, which is admission order. Rows are picked by their
        # stored columns, then decoded, as a SQL select is.
        picked = [
            self._decoded(s)
            for s in list(self.by_id.values())
            if s.status in statuses
            and (session_key is None or s.session_key == session_key)
            and (joined_into is None or s.joined_into == joined_into)
        ]
        return [s for s in picked if s.status in statuses]  # a damaged row was settled

    def insert(self, submission: Submission) -> Submission:
        row = dataclasses.replace(submission, sequence=self.next_sequence)
        self.next_sequence += 1
        self.by_id[row.submission_id] = row
        return row

    def update(self, submission: Submission) -> None:
        self.by_id[submission.submission_id] = submission

    def redact(self, submission: Submission) -> None:
        record = submission.settlement_record
        kept = None if record is None else SettledRecord(outcome=record.outcome, error=record.error)
        self.by_id[submission.submission_id] = dataclasses.replace(
            submission, payload=None, attachments=(), settlement_record=kept
        )  # `redacted_at` comes set, as on the SQL backends


class MemorySubmissionStore(LedgerStore):
    """A `SubmissionStore` kept in this process's memory.

    Args:
        clock: Returns Unix seconds; tests may pass a fake one.
        gate: Its backend's open state (`MemoryBackend.close`); default always open.
    """

    def __init__(self, *, clock: Callable[[], float] = time.time, gate: Gate | None = None) -> None:
        self._gate = gate or Gate()
        self._rows = _Rows(clock)
        super().__init__(write=self._run)

    async def _run(self, fn: Callable[[LedgerTxn], T]) -> T:
        # Every rule of the ledger, query or write, runs here.
        self._gate.check()
        # Nothing else runs between the rule's reads and writes: it is atomic here.
        self._rows.settled_on_read.clear()
        return fn(self._rows)

    # -- used by the memory conversation store, in the same "transaction" -------------
    def _lookup(self, submission_id: str) -> Submission | None:
        return self._rows.get(submission_id)
