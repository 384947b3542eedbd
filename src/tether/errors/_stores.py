"""Errors of the stores: unavailable, not found, conflicts, integrity, fencing."""

from __future__ import annotations

import functools
from typing import Any

from ._base import TetherError

__all__ = [
    "ConflictError",
    "ContentDeletedError",
    "DecryptionError",
    "FencedError",
    "FormatVersionError",
    "HookTokenInUseError",
    "IntegrityError",
    "InvalidOffsetError",
    "InvalidTransitionError",
    "NotFoundError",
    "NotOwnerError",
    "PayloadTooLargeError",
    "StaleHeadError",
    "StoreError",
    "StoreUnavailableError",
    "StreamPositionError",
]


class StoreError(TetherError):
    """The persistence layer refused an operation or failed.

    Only `StoreUnavailableError` says trying again may help; any other `StoreError` is
    a refusal of what was asked, and asking again gets the same answer.
    """


class StoreUnavailableError(StoreError):
    """The store could not be reached or could not write just now.

    A lost connection, a restarting server, a full disk, a lock held too long: the same
    call may succeed later, and it may also have taken effect before the failure was
    seen.
    """


class NotFoundError(StoreError):
    """The named record does not exist."""


class ContentDeletedError(NotFoundError):
    """The content asked for was deleted by a retention policy; its records remain."""


class ConflictError(StoreError):
    """An identity already exists with other content; stores never overwrite."""


class HookTokenInUseError(ConflictError):
    """An active hook already owns this token, or the chain of its ended run retains it.

    ``retained_until`` is set in the second case: the run that held the token ended,
    and the token stays reserved for that run's chain until then (hook retention).
    """

    def __init__(self, token: str, run_id: str, *, retained_until: float | None = None) -> None:
        self.token = token
        self.run_id = run_id
        self.retained_until = retained_until
        if retained_until is None:
            message = (
                f"hook token {token!r} is already in use by an active hook of run {run_id!r}; "
                "choose another token or let that hook's run end first"
            )
        else:
            message = (
                f"hook token {token!r} was released when run {run_id!r} ended and stays "
                f"reserved for that run's chain until {retained_until!r} (epoch seconds; "
                "hook retention): choose another token, or open the backend with a shorter "
                "hook_retention"
            )
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        rebuild = functools.partial(HookTokenInUseError, retained_until=self.retained_until)
        return (rebuild, (self.token, self.run_id))


class StaleHeadError(ConflictError):
    """The run's event log moved on since the writer loaded it."""

    def __init__(self, run_id: str, expected: int, actual: int) -> None:
        self.run_id = run_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"run {run_id!r}: the writer expected the log head at slot {expected}, "
            f"it is at {actual}"
        )


class IntegrityError(StoreError):
    """Bytes fail their declared size or digest."""


class DecryptionError(IntegrityError):
    """A ciphertext does not authenticate at the place it is read from.

    Every encrypted payload is bound to its place (scope, run or stream, step or offset
    identity, kind); one copied to another row or session, altered, or read with
    another key fails here, never decrypting to a wrong value.

    Args:
        scope: The key scope the ciphertext names.
        place: Where it was read, e.g. ``"step.output run='r1' step='s1'"``.
        reason: Why it failed.
    """

    def __init__(self, scope: str, place: str, reason: str) -> None:
        self.scope = scope
        self.place = place
        self.reason = reason
        super().__init__(
            f"encrypted payload at {place} (key scope {scope!r}) cannot be decrypted: {reason}; "
            "it was moved from another place, altered, or the store was opened with another "
            "keyring"
        )


class FencedError(StoreError):
    """A writer whose lease epoch or producer claim is no longer current was refused."""


class FormatVersionError(StoreError):
    """The store carries a format stamp this version of tether cannot read or write."""


class InvalidTransitionError(StoreError):
    """An event would move an entity out of a terminal state, or is out of order."""


class StreamPositionError(InvalidTransitionError):
    """A stream append would land elsewhere than its `at` (or the stream is closed)."""


class BatchPositionError(InvalidTransitionError):
    """A conversation append would land at another offset than its `at`; nothing written.

    Attributes:
        path: The conversation stream.
        at: The offset the append expected.
        offset: Where it would land: the stream's next offset, or, for a replay of an
            appended producer sequence, the offset that sequence was appended at.
        replay: Whether the append replays an appended producer sequence.
    """

    def __init__(self, path: str, at: str, offset: str, *, replay: bool) -> None:
        self.path = path
        self.at = at
        self.offset = offset
        self.replay = replay
        where = (
            f"replays a batch appended at offset {offset!r}"
            if replay
            else f"would land at offset {offset!r}, its next"
        )
        super().__init__(
            f"an append to conversation stream {path!r} {where}, not at {at!r}, where the "
            "append expected it; nothing was written (append again at that offset)"
        )


class PayloadTooLargeError(StoreError):
    """A single payload is larger than a documented cap."""


class NotOwnerError(FencedError):
    """A submission-owned conversation append came from a writer not owning the submission."""

    def __init__(self, submission_id: str, attempt_id: str, reason: str) -> None:
        self.submission_id = submission_id
        self.attempt_id = attempt_id
        self.reason = reason
        super().__init__(
            f"attempt {attempt_id!r} may not append records of submission "
            f"{submission_id!r}: {reason}"
        )


class InvalidOffsetError(StoreError):
    """A conversation stream offset is malformed or lies past the stream's head."""

    def __init__(self, path: str, offset: str, reason: str) -> None:
        self.path = path
        self.offset = offset
        self.reason = reason
        super().__init__(f"offset {offset!r} of stream {path!r} is invalid: {reason}")
