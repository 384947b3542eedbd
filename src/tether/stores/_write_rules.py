"""Applying `StoreWrite` records inside a backend's transaction, written once.

A backend that lets writes ride on its commits (`Commit.writes`,
`WorkflowStore.resume_hook(writes=...)`) gives `apply_writes` its own row access for
the ledger and the conversation streams, and a way to append a run's stream chunks;
the rules decide the rest, the same on every backend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from . import _conversation_rules as conv
from . import _ledger
from ._ledger import LedgerTxn
from ._writes import (
    AdmitSubmission,
    AppendRecords,
    AppendStream,
    JoinSubmissions,
    RedactSubmissions,
    ResolveSubmissions,
    SettleSubmission,
    StartSubmission,
    StoreWrite,
)

__all__ = ["WriteTargets", "apply_writes"]


class WriteTargets(Protocol):
    """A backend's rows, inside the transaction the writes ride on."""

    def ledger(self) -> LedgerTxn:
        """The ledger rows."""
        ...

    def conversations(self) -> conv.StreamTxn:
        """The conversation stream rows."""
        ...

    def append_stream(self, write: AppendStream) -> None:
        """Append a run's stream chunks (and arrange the wake-ups after the commit)."""
        ...

    def appended(self, path: str) -> None:
        """A batch was appended to conversation `path` (wake its subscribers after it)."""
        ...

    def append_checked(self, write: AppendRecords, encoded: tuple[bytes, str]) -> bool:
        """Append the batch in one statement that checks the stream, if the backend can.

        The statement must write only when the stream's producer is the write's and
        expects its sequence next, and fail the whole transaction otherwise (the
        backend then runs it again without this, and the rules give the answer).
        False: not taken; the rules append it.
        """
        ...

    def ledger_checked(self, write: StartSubmission | SettleSubmission) -> bool:
        """Apply a ledger write in statements that check its rows, if the backend can.

        The statements must change exactly what the rules would (and nothing where the
        rules leave the row as it is), under the session's lock. False: not taken; the
        rules apply it.
        """
        ...


def apply_writes(targets: WriteTargets, writes: Sequence[StoreWrite]) -> None:
    """Apply `writes` in order; raises (and the transaction must roll back) on a refusal."""
    for write in writes:
        if isinstance(write, AppendRecords):
            encoded = conv.encode_batch(write.path, write.records)
            if targets.append_checked(write, encoded):
                targets.appended(write.path)
                continue
            _, wrote = conv.append(
                targets.conversations(),
                path=write.path,
                producer_id=write.producer_id,
                producer_epoch=write.producer_epoch,
                incarnation=write.incarnation,
                producer_sequence=write.producer_sequence,
                records=write.records,
                submission=None,
                encoded=encoded,
                at=write.at,
            )
            if wrote:
                targets.appended(write.path)
        elif isinstance(write, AppendStream):
            if write.chunks:
                targets.append_stream(write)
        elif isinstance(write, AdmitSubmission):
            _ledger.admit_direct(targets.ledger(), write.submission, unless=write.unless)
        elif isinstance(write, StartSubmission):
            if not targets.ledger_checked(write):
                _ledger.start(targets.ledger(), write.attempt, write.owner_id)
        elif isinstance(write, JoinSubmissions):
            _ledger.join(targets.ledger(), write.host, write.submission_ids)
        elif isinstance(write, SettleSubmission):
            if not targets.ledger_checked(write):
                _ledger.settle(targets.ledger(), write.attempt, write.outcome, write.error)
        elif isinstance(write, ResolveSubmissions):
            _ledger.resolve_queued(
                targets.ledger(), write.submission_ids, write.outcome, write.error
            )
        elif isinstance(write, RedactSubmissions):
            _ledger.redact(targets.ledger(), write.session_keys)
        else:
            raise TypeError(f"not a store write: {write!r}")
